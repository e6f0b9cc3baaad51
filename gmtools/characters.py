"""Characters and NPCs made at the GM's table: the full sheet, quick NPCs, templates, copies, imports.

Everything here validates as the models already do (``Character.clean``, ``Trait.clean``, the
constraints and their messages) and writes in one transaction that also announces the change to the
live streams. A change to the cast (a character made, edited, copied in, deleted) is announced as a
``ChangeKind.CHARACTER`` change without a character: every viewer redraws the whole list of cards,
the turn order and the composer's list of characters (see ``gmtools.board.redraw``).

The sheet reuses the admin's per-category trait forms (``gmtools.admin.TraitForm`` and
``TraitFormSet``: a standard trait keeps its translated label and cannot be renamed or deleted; a
name is unique across the categories) and the game's resource fieldset. A new character's sheet
is shown before the character exists: its standard traits are rows not yet saved, and the POST
that creates the character saves them with the ratings submitted, in the order shown.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Column, Field, Fieldset, Layout, Row
from django import forms
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import transaction
from django.forms.models import inlineformset_factory
from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from gmtools import backup, games, importers
from gmtools.admin import TraitForm, TraitFormSet
from gmtools.composer import trait_slots
from gmtools.games.base import POOL_NAMES, Columns, NpcTemplate, SheetRows
from gmtools.games.base import Row as GameRow
from gmtools.live import announce
from gmtools.models import Campaign, ChangeKind, Character, CharacterKind, PerGame, Trait
from gmtools.sheets import rating_bounds

NAME_MAX = Character._meta.get_field("name").max_length
BASIC_FIELDS = ("name", "kind", "player", "concept", "notes")
COPIES_MAX = 20


def announce_cast(campaign_id: int) -> None:
    """The cast changed (a character made, edited or deleted): every viewer redraws its cards."""
    announce(campaign_id, ChangeKind.CHARACTER)


# --- the full sheet ------------------------------------------------------------------------------


class CharacterForm(forms.ModelForm):
    """The character's own row: who it is."""

    class Meta:
        model = Character
        fields = list(BASIC_FIELDS)
        widgets = {"notes": forms.Textarea(attrs={"rows": 2})}

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.instance.campaign = campaign
        self.helper = FormHelper()
        self.helper.form_tag = False
        self.helper.disable_csrf = True
        self.helper.layout = Layout(
            Row(Column("name", css_class="col-8"), Column("kind", css_class="col-4")),
            Row(Column("player"), Column("concept")),
            Field("notes"),
        )


class ResourcesForm(forms.ModelForm):
    """The character's row of its game's resources (``Character.resources``), in the admin's fieldset.
    Each field is posted by its public name (``v5_hunger``: ``gmtools.games.base.models``), as the
    campaign file names it."""

    def __init__(self, *args: Any, columns: Columns, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.columns = columns
        self.helper = FormHelper()
        self.helper.form_tag = False
        self.helper.disable_csrf = True
        self.helper.layout = Layout(Fieldset(columns.title, *(self._row(row) for row in columns.rows)))
        character = self.instance.character
        for name in columns.links.values():  # another character of the campaign (Fate: who inflicted a consequence)
            field = self.fields[name]
            assert isinstance(field, forms.ModelChoiceField)
            field.queryset = Character.objects.filter(campaign_id=character.campaign_id).exclude(pk=character.pk)

    def add_prefix(self, field_name: str) -> str:
        return super().add_prefix(self.columns.public(field_name))

    def _row(self, row: GameRow) -> Row:
        # The admin's rows, without its read-only derived values (boxes, distances).
        names = [name for name in (row if isinstance(row, tuple) else (row,)) if name in self.fields]
        return Row(*(Column(name) for name in names))


def _resources_form(columns: Columns) -> type[ResourcesForm]:
    return forms.modelform_factory(columns.model, form=ResourcesForm, fields=columns.fields)


class SheetTraitFormSet(TraitFormSet):
    """The admin's trait formset, for one category, also for a character not saved yet (``sheet``).

    Every row's character is the formset's own instance (the one the character form changed), so a
    rating is checked against the Essence or the kind submitted with it, without a query per row.
    """

    sheet: list[Trait] | None = None

    def __init__(self, *args: Any, sheet: list[Trait] | None = None, **kwargs: Any) -> None:
        self.sheet = sheet
        super().__init__(*args, **kwargs)

    def get_queryset(self) -> list[Trait]:  # type: ignore[override]
        if not hasattr(self, "_rows"):
            rows = list(self.sheet) if self.sheet is not None else list(super().get_queryset())
            for row in rows:
                row.character = self.instance
            self._rows = rows
        return self._rows

    def _construct_form(self, i: int, **kwargs: Any) -> forms.Form:
        if self.sheet is not None and i < len(self.sheet):
            kwargs["instance"] = self.sheet[i]  # not saved yet: no id to find it by
            kwargs["instance"].character = self.instance
        form = super()._construct_form(i, **kwargs)
        form.instance.character = self.instance
        if self.sheet is not None and i < len(self.sheet):
            # A row of a sheet not saved yet has no id: a refused new sheet shows only its real errors
            # (not "This field is required" on every trait).
            form.fields[self.model._meta.pk.name].required = False
        return form


def _trait_formset(category: str) -> type[SheetTraitFormSet]:
    formset = inlineformset_factory(Character, Trait, form=TraitForm, formset=SheetTraitFormSet,
                                    fields=["name", "rating", "specialties"], extra=1, can_delete=True)
    formset.category = category
    return formset


@cache
def _rows_formset(rows: SheetRows) -> type[forms.BaseInlineFormSet]:
    return inlineformset_factory(Character, rows.model, formset=rows.formset, fields=list(rows.fields),
                                 fk_name="character", extra=1, can_delete=True)


@dataclass
class RowSet:
    """A game's own rows of the character on its sheet (Fate's aspects): their formset and the partial that draws it."""

    rows: SheetRows
    formset: forms.BaseInlineFormSet

    @classmethod
    def of(cls, rows: SheetRows, data: Any, character: Character, initial: list[dict[str, Any]] | None) -> RowSet:
        formset = _rows_formset(rows)(data, instance=character, prefix=rows.name, initial=initial,
                                      queryset=rows.model._default_manager.filter(**rows.edited))
        if initial:
            formset.extra = len(initial) + 1
        return cls(rows, formset)


@dataclass
class TraitGroup:
    category: str
    title: Promise
    formset: SheetTraitFormSet


class CharacterSheet:
    """A character's whole sheet as one form: its row, one trait formset per category, its game's own rows (Fate's aspects)."""

    def __init__(self, campaign: Campaign, data: Any = None, instance: Character | None = None) -> None:
        self.campaign = campaign
        self.adding = instance is None
        if instance is None:
            instance = Character(campaign=campaign)
        instance.campaign = campaign  # the same row: the game is read without a query
        self.form = CharacterForm(data, instance=instance, campaign=campaign, prefix="sheet")
        self.character = self.form.instance
        # The same row as ``character.resources``: the traits are checked against the Essence submitted.
        columns = games.get(campaign.game).resources
        self.resources = (_resources_form(columns)(data, instance=self.character.resources, columns=columns,
                                                   prefix="sheet") if columns.model is not None and columns.rows else None)
        self.data = data
        self.groups = self._groups(data, sheet=self.adding)
        # A new character starts with the rows its game asks for first to write (Fate's high concept and trouble).
        self.row_sets = [RowSet.of(rows, data, self.character, [dict(r) for r in rows.starting] if self.adding else None)
                         for rows in games.get(campaign.game).sheet.rows]

    def _groups(self, data: Any, sheet: bool) -> list[TraitGroup]:
        game = self.campaign.game
        standard: dict[str, list[Trait]] = {}
        if sheet:
            for trait in games.get(game).standard_sheet:
                standard.setdefault(trait.category, []).append(
                    Trait(key=trait.key, category=trait.category, rating=trait.default))
        groups = []
        for index, category in enumerate(games.get(game).categories):
            # The admin's prefixes ("traits", "traits-2", ...): its check of names across categories reads them.
            prefix = "traits" if index == 0 else f"traits-{index + 1}"
            formset = _trait_formset(category)(
                data, instance=self.character, prefix=prefix, queryset=Trait.objects.filter(category=category),
                sheet=standard.get(category, []) if sheet else None)
            groups.append(TraitGroup(category, games.get(game).category_label(category, plural=True), formset))
        return groups

    @property
    def formsets(self) -> list[forms.BaseFormSet]:
        return [group.formset for group in self.groups] + [row_set.formset for row_set in self.row_sets]

    def _submitted_ratings(self) -> list[Trait]:
        """The standard traits as submitted (for Vampire's tracker boxes), best effort before validation."""
        rows = []
        for group in self.groups:
            for form in group.formset.forms:
                if form.instance.key:
                    try:
                        rating = int(form.data.get(form.add_prefix("rating"), form.instance.rating))
                    except (TypeError, ValueError):
                        rating = form.instance.rating
                    rows.append(Trait(key=form.instance.key, category=form.instance.category, rating=rating))
        return rows

    @property
    def forms(self) -> list[forms.ModelForm]:
        """The character's row and its resources' row."""
        return [self.form, *([self.resources] if self.resources is not None else [])]

    def is_valid(self) -> bool:
        with _traits_seen_as(self.character, self._submitted_ratings() if not self.adding else None):
            valid = [form.is_valid() for form in self.forms]
        # The trait rows are checked against the Essence and kind just submitted.
        return all([*valid, *(formset.is_valid() for formset in self.formsets)])

    def save(self) -> Character | None:
        """Validate and write the whole sheet in one transaction; None (with the errors on the form) if refused."""
        if self.adding and self.data is not None:
            return self._create()
        try:
            with transaction.atomic():
                # Checked under the character's lock: two tabs adding the same trait queue here, and the
                # second one's check sees the first one's trait (a refusal inline, not the constraint's 500).
                list(Character.objects.select_for_update().filter(pk=self.character.pk).values_list("pk"))
                if not self.is_valid():
                    return None
                character = self.form.save()
                if self.resources is not None:
                    self.resources.save()
                for formset in self.formsets:
                    formset.save()
                self._final_check(character)
                announce_cast(self.campaign.pk)
        except ValidationError:
            return None
        return character

    def _create(self) -> Character | None:
        if not all([form.is_valid() for form in self.forms]):
            return None  # the rows are checked once the character exists (their bounds need it)
        try:
            with transaction.atomic():
                character = self.form.save()  # its resources' row with it, as submitted
                character.add_standard_sheet()
                # The standard rows now exist, in the order the sheet showed them: bind the submission to them.
                data = self.data.copy()
                for group in self.groups:
                    rows = list(character.traits.filter(category=group.category).order_by("id"))
                    prefix = group.formset.prefix
                    data[f"{prefix}-INITIAL_FORMS"] = str(len(rows))
                    for i, row in enumerate(rows):
                        data[f"{prefix}-{i}-id"] = str(row.pk)
                self.data = data
                self.groups = self._groups(data, sheet=False)
                # Rows left as offered stay unsaved.
                self.row_sets = [RowSet.of(row_set.rows, data, character, row_set.formset.initial_extra)
                                 for row_set in self.row_sets]
                if not all([formset.is_valid() for formset in self.formsets]):
                    raise ValidationError("")
                for formset in self.formsets:
                    formset.save()
                self._final_check(character)
                announce_cast(self.campaign.pk)
        except ValidationError:
            self.character.pk, self.character._state.adding = None, True
            return None
        return character

    def _final_check(self, character: Character) -> None:
        """Checks that need the saved traits (Vampire's tracker boxes) run once they are written."""
        fresh = Character.objects.select_related("campaign").get(pk=character.pk)
        for row, form in ((fresh, self.form), (fresh.resources, self.resources)):
            if row is None:
                continue
            try:
                row.full_clean()
            except ValidationError as error:
                _add_errors(form or self.form, error)
                raise

    @property
    def refused(self) -> bool:
        """Was a submission refused? (Only the parts that were checked: a formset is not validated here.)"""
        return any(form.is_bound and form.errors for form in self.forms) or any(
            formset._errors is not None and formset.total_error_count() for formset in self.formsets)


@contextmanager
def _traits_seen_as(character: Character, rows: list[Trait] | None) -> Iterator[None]:
    """While the character's row is checked, its traits read as submitted (see ``Character.clean``)."""
    if rows is None:
        yield
        return
    cached = Trait.objects.none()
    cached._result_cache, cached._prefetch_done = rows, True
    character._prefetched_objects_cache = {**getattr(character, "_prefetched_objects_cache", {}), "traits": cached}
    try:
        yield
    finally:
        character._prefetched_objects_cache.pop("traits", None)


def _add_errors(form: forms.Form, error: ValidationError) -> None:
    if not hasattr(error, "error_dict"):
        form.add_error(None, error)
        return
    for name, messages in error.message_dict.items():
        form.add_error(name if name in form.fields and name != NON_FIELD_ERRORS else None, messages)


def delete_character(character: Character) -> None:
    """Delete a character; the log keeps its rolls (``Roll.character`` is set to null, ``actor`` keeps the name)."""
    with transaction.atomic():
        campaign_id = character.campaign_id
        Character.objects.filter(pk=character.pk).delete()
        announce_cast(campaign_id)


# --- quick NPCs ----------------------------------------------------------------------------------

# How a bare pool is stored: as the NPC's only traits, custom traits the composer picks by itself
# (it starts from the character's best trait of each kind). A d10 pool is Attribute + Ability
# (Skill), so a pool of N is split over a custom trait of the game's first category (Attribute)
# named "Pool" and one of its second category (Ability, Skill) named "Pool (skill)", each within
# that category's rating bounds (1-5 and 0-5: pools 1 to 10); the skill half matters in the sci-fi
# game, where Hard and harder need a skill level. A game with one category (Fate) has no pool: its
# quick NPC has one custom trait of it, "Skill", rated within an NPC's bounds (Fate: 0 to +8). Nothing
# new in the model, every bound is the model's own, and the GM can rename the traits or add the
# standard sheet's in the editor (see ``gmtools.games.base.POOL_NAMES``).


def _new_npc(game: str) -> Character:
    """A quick NPC before it is made: what its traits' bounds are read for."""
    return Character(kind=CharacterKind.NPC, campaign=Campaign(game=game))


def pool_bounds(game: str) -> tuple[int, int]:
    npc = _new_npc(game)
    first, second = trait_slots(game)
    first_low, first_high = rating_bounds(game, first, character=npc)
    if not second:
        return first_low, first_high
    return first_low, first_high + rating_bounds(game, second[0], character=npc)[1]


def pool_traits(game: str, pool: int) -> list[tuple[str, str, int]]:
    """(category, name, rating) of the traits that hold a bare pool (see ``POOL_NAMES``)."""
    first, seconds = trait_slots(game)
    if not seconds:
        return [(first, str(POOL_NAMES["single"]), pool)]
    second = seconds[0]
    npc = _new_npc(game)
    high = rating_bounds(game, first, character=npc)[1]
    skill = min(rating_bounds(game, second, character=npc)[1], pool // 2)
    attribute = pool - skill
    if attribute > high:
        attribute, skill = high, pool - high
    return [(first, str(POOL_NAMES["first"]), attribute), (second, str(POOL_NAMES["second"]), skill)]


class QuickNpcForm(forms.Form):
    name = forms.CharField(max_length=NAME_MAX, label=_("Name"))
    pool = forms.IntegerField(label=_("Dice pool"))

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        low, high = pool_bounds(campaign.game)
        pool = self.fields["pool"]
        pool.min_value, pool.max_value, pool.initial = low, high, min(max(low, 6), high)
        pool.validators += [MinValueValidator(low), MaxValueValidator(high)]
        pool.widget.attrs.update(min=low, max=high)
        bonus = games.get(campaign.game).npcs.quick_bonus
        if bonus is not None:
            pool.label, pool.help_text, pool.initial = bonus
        else:
            pool.help_text = _("The dice it rolls, %(low)d to %(high)d.") % {"low": low, "high": high}
        self.helper = FormHelper()
        self.helper.form_tag = False
        self.helper.disable_csrf = True
        self.helper.layout = Layout(Row(Column("name", css_class="col-7"), Column("pool", css_class="col-5")))

    def save(self) -> Character | None:
        data = self.cleaned_data
        try:
            return create_npcs(self.campaign, data["name"], 1, traits=pool_traits(self.campaign.game, data["pool"]),
                               resources=games.get(self.campaign.game).npcs.quick_resources, standard_sheet=False)[0]
        except ValidationError as error:
            _add_errors(self, error)
            return None


# --- NPC templates: written as data, each game's in its package ------------------------------------

NPC_TEMPLATES = PerGame(lambda system: system.npcs.templates)


def _template_traits(template: NpcTemplate) -> tuple[tuple[str, str, int], ...]:
    # A name the template gives lazily (Fate's "Skill") is written in the GM's language when made.
    return tuple((category, str(name), rating) for category, name, rating in template.traits)


class TemplateForm(forms.Form):
    template = forms.ChoiceField(label=_("Template"))
    name = forms.CharField(max_length=NAME_MAX - 3, required=False, label=_("Name"),
                           help_text=_("Leave empty for the template's."))
    count = forms.IntegerField(min_value=1, max_value=COPIES_MAX, initial=1, label=_("How many"),
                               help_text=_("Several are numbered: Guard 1, Guard 2, …"))

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        self.templates = {t.key: t for t in NPC_TEMPLATES[campaign.game]}
        self.fields["template"].choices = [(t.key, t.label) for t in self.templates.values()]
        self.helper = FormHelper()
        self.helper.form_tag = False
        self.helper.disable_csrf = True
        self.helper.layout = Layout(Field("template"), Row(Column("name", css_class="col-8"),
                                                           Column("count", css_class="col-4")))

    def save(self) -> list[Character]:
        data = self.cleaned_data
        template = self.templates[data["template"]]
        try:
            return create_npcs(self.campaign, data["name"] or str(template.name), data["count"],
                               traits=_template_traits(template), ratings=template.ratings,
                               resources=template.resources, standard_sheet=template.standard_sheet,
                               notes=str(template.notes))
        except ValidationError as error:
            _add_errors(self, error)
            return []


def create_npcs(campaign: Campaign, name: str, count: int, *, traits: tuple | list = (), ratings: dict | None = None,
                resources: dict | None = None, standard_sheet: bool = True, notes: str = "") -> list[Character]:
    """``count`` NPCs alike (numbered when several, after the numbers the campaign already gives
    that name: a second batch of "Guard" goes on from Guard 3), each row fully validated, all or none."""
    made = []
    with transaction.atomic():
        # The campaign's lock, held to commit: two batches at once number after each other, never both from 1.
        list(Campaign.objects.select_for_update().filter(pk=campaign.pk).values_list("pk"))
        names = [name] if count == 1 else _numbered(campaign, name[: NAME_MAX - 3], count)
        for each in names:
            character = Character(campaign=campaign, name=each, kind=CharacterKind.NPC, notes=notes)
            row = character.resources
            for field, value in (resources or {}).items():
                setattr(row, field, value)
            character.full_clean()
            if row is not None:
                row.clean_fields(exclude=["character"])  # the rest once the traits are written (below)
            character.save()
            if standard_sheet:
                character.add_standard_sheet()
                for key, rating in (ratings or {}).items():
                    trait = character.traits.get(key=key)
                    trait.character, trait.rating = character, rating
                    trait.full_clean()
                    trait.save(update_fields=["rating"])
            for category, trait_name, rating in traits:
                trait = Trait(character=character, category=category, name=trait_name, rating=rating)
                trait.full_clean()
                trait.save()
            if row is not None:
                row.full_clean()  # with what needs the traits (Vampire's tracker boxes)
            made.append(character)
        announce_cast(campaign.pk)
    return made


# --- duplicates ----------------------------------------------------------------------------------

NUMBERED = re.compile(r"^(?P<base>.*?)\s+(?P<n>\d+)$")


class DuplicateForm(forms.Form):
    count = forms.IntegerField(min_value=1, max_value=COPIES_MAX, initial=2, label=_("Copies"),
                               help_text=_("New ones besides this one; all are numbered: 2 copies of “Guard” make Guard 1, 2 and 3."))


def duplicate(character: Character, count: int) -> list[Character]:
    """``count`` copies of a character (traits and aspects too), all numbered after its name.

    "Garrison guard" with 2 copies gives Garrison guard 1 (the original), 2 and 3; a name that
    already ends in a number keeps it, and the copies take the next numbers free in the campaign.
    """
    with transaction.atomic():
        character = Character.objects.select_for_update().select_related("campaign").get(pk=character.pk)
        match = NUMBERED.match(character.name)
        base = (match["base"] if match else character.name)[: NAME_MAX - 3]
        taken = {int(m["n"]) for name in character.campaign.characters.values_list("name", flat=True)
                 if (m := NUMBERED.match(name)) and m["base"] == base}
        numbers = _free_numbers(taken, count + (0 if match else 1))
        if not match:
            character.name = f"{base} {numbers.pop(0)}"
            character.save(update_fields=["name"])
        copies = []
        for number in numbers:
            copy = character.duplicate()
            copy.name = f"{base} {number}"
            copy.save(update_fields=["name"])
            copies.append(copy)
        announce_cast(character.campaign_id)
    return copies


def _numbered(campaign: Campaign, base: str, count: int) -> list[str]:
    """``count`` names "base N", N the numbers not yet taken by a "base N" of the campaign."""
    taken = {int(m["n"]) for each in campaign.characters.values_list("name", flat=True)
             if (m := NUMBERED.match(each)) and m["base"] == base}
    return [f"{base} {n}" for n in _free_numbers(taken, count)]


def _free_numbers(taken: set[int], count: int) -> list[int]:
    numbers, n = [], 1
    while len(numbers) < count:
        if n not in taken:
            numbers.append(n)
        n += 1
    return numbers


# --- import from a campaign file, and copy to another campaign ------------------------------------


class ImportForm(forms.Form):
    file = forms.FileField(label=_("Character file (JSON)"),
                           help_text=_("A gmtools campaign file (“Download as JSON”), a Foundry VTT actor (World of "
                                       "Darkness 5e, Exalted Second Edition, Fate Core Official) or a Progeny export."))
    name = forms.CharField(max_length=NAME_MAX, required=False, label=_("Only the character named"),
                           help_text=_("Leave empty to import every character of the file."))

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        self.preview: importers.Reading | None = None  # another tool's file, read and checked, for the GM to confirm
        self.signed = ""  # the preview's rows, signed for the confirmation (importers.sign)
        self.helper = FormHelper()
        self.helper.form_tag = False
        self.helper.disable_csrf = True

    def clean_file(self) -> Any:
        """The file's characters as gmtools rows (refused by its size before it is read, or as no file
        gmtools reads)."""
        try:
            return importers.read(backup.read_upload(self.cleaned_data["file"]))
        except backup.BackupError as error:
            raise ValidationError(str(error)) from None

    def save(self) -> list[Character]:
        """A gmtools campaign file's characters are added at once (nothing of theirs is left out);
        another tool's are checked and kept in ``preview``, for the GM to confirm (``ConfirmImportForm``)."""
        reading = self.cleaned_data["file"]
        try:
            if reading.source == "gmtools":
                return import_characters(self.campaign, reading, self.cleaned_data["name"])
            reading = reading.only(self.cleaned_data["name"])
            importers.check(self.campaign, reading)
            self.preview = reading
            self.signed = importers.sign(self.campaign, reading)
        except backup.BackupError as error:
            self.add_error("file", str(error))
            self.preview = None
        return []


class ConfirmImportForm(forms.Form):
    """The GM's confirmation of a preview: its rows come back signed (``importers.sign``)."""

    payload = forms.CharField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign

    def save(self) -> list[Character]:
        try:
            return import_characters(self.campaign, importers.unsign(self.campaign, self.cleaned_data["payload"]))
        except backup.BackupError as error:
            self.add_error(None, str(error))
            return []


def import_characters(campaign: Campaign, reading: importers.Reading | Any, only: str = "") -> list[Character]:
    """The characters of a file read (``importers.read``; a campaign file's document is read here), or
    the one named ``only``, added to this campaign with the importer's own checks, in one transaction
    of bulk writes (``backup.add_characters``), all or none."""
    if not isinstance(reading, importers.Reading):
        reading = importers.read(reading)
    reading = reading.only(only)
    importers.refuse_other_game(campaign, reading)
    if not reading.characters:
        raise backup.BackupError(gettext("The file has no characters."))
    with transaction.atomic():
        if reading.after is not None:  # a preview's: the campaign's lock orders two confirmations of it, the second refused
            Campaign.objects.select_for_update().filter(pk=campaign.pk).exists()
            if twins := reading.twins(campaign):
                raise backup.BackupError(gettext("This preview was confirmed already: %(names)s joined the table "
                                                 "since. Nothing was added.") % {"names": ", ".join(twins)})
        made = backup.add_characters(campaign, reading.characters)
        announce_cast(campaign.pk)
    return made


class CopyForm(forms.Form):
    """Copy a character to a campaign of the same game run by the same GM (this one included)."""

    campaign = forms.ModelChoiceField(queryset=Campaign.objects.none(), label=_("Copy to"), empty_label=None,
                                      error_messages={"invalid_choice": _(
                                          "Copy only to one of your campaigns of the same game.")})

    def __init__(self, *args: Any, character: Character, gm: AbstractBaseUser, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.character = character
        self.fields["campaign"].queryset = Campaign.objects.filter(gm=gm, game=character.campaign.game).order_by("name")
        self.fields["campaign"].initial = character.campaign_id

    def save(self) -> Character | None:
        target = self.cleaned_data["campaign"]
        try:
            with transaction.atomic():
                [copy] = backup.add_characters(target, [backup.export_character(self.character)])
                announce_cast(target.pk)
        except backup.BackupError as error:
            self.add_error("campaign", str(error))
            return None
        return copy
