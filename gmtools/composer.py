"""The roll composer: what the GM picks on the table, turned into a ``rules`` request.

``ComposerForm`` holds the fields every game shares (the character, two traits or extra dice, a
modifier, the difficulty, the opposing side, a note, a secret roll, the extended action rolled
into) and asks the campaign's game for the rest: its composer (``BaseGame.composer``, a
``gmtools.games.base.BaseComposer``) adds the game's own fields and difficulties, and turns the
cleaned data (a ``Draft``) into a ``Composition``: the rules request for the acting side, the
opposing side's if any, the helpers of a teamwork roll and the resources the roll will spend. The
odds panel and the roll service both start from a ``Composition``, so what the GM sees priced is
exactly what gets rolled. What a game's composer may read of the turn in play beyond the
character's rolls in it is ``LoggedTurn`` (``gmtools.games.base.TurnReads``).
"""

from __future__ import annotations

import copy
import uuid
from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from gmtools import games
from gmtools.games.base.composer import (
    BaseComposer,
    Composition as Composition,  # the views', the services' and the tests' way in, as before
    Draft,
    ModelMultipleChoiceField,
    SheetPool,
    Spend as Spend,
)
from gmtools.models import Campaign, Character, ExtendedAction, ExtendedKind, Roll, Scene, Trait, TurnDeclaration
from gmtools.notes import refusal_text
from rules.dice import RulesError

# The engines' bound on one side's pool (each engine's MAX_POOL): an extended action accepts 100
# dice a side, so the composer that rolls into it does too.
POOL_MAX = 100

class TraitChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, trait: Trait) -> str:
        return f"{trait.label} {trait.rating}"


class LoggedTurn:
    """The turn in play as the log says it, for one character (``gmtools.games.base.TurnReads``): each
    read when a game's composer asks (Exalted's declared actions, its second chances and Willpower once
    a turn; scifi's extended action carried over), none without a scene or a character."""

    def __init__(self, scene: Scene | None, character: Character | None) -> None:
        self.scene, self.character = scene, character

    def declared_actions(self) -> int:
        if self.scene is None or self.character is None:
            return 1
        return TurnDeclaration.objects.filter(scene=self.scene, turn=self.scene.turn, character=self.character) \
            .values_list("actions", flat=True).first() or 1

    def failures_at(self, label: str) -> int:
        if self.scene is None or self.character is None:
            return 0
        return Roll.objects.failures_at(self.scene, self.character, label)

    def last_turn_extended(self) -> Roll | None:
        if self.scene is None or self.character is None:
            return None
        return (Roll.objects.filter(scene=self.scene, turn=self.scene.turn - 1, character=self.character,
                                    action="extended", extended__isnull=False).select_related("extended").last())

    def willpower_spent(self) -> bool:
        if self.scene is None or self.character is None:
            return False
        return Roll.objects.this_turn(self.scene, self.character).filter(willpower_spent=True).exists()


def trait_slots(game: str) -> tuple[str, tuple[str, ...]]:
    """The categories of the composer's two trait slots: the first's, and the second's (maybe none)."""
    system = games.get(game)
    second = system.composer.second_categories
    return system.categories[0], tuple(system.categories[1:2] if second is None else second)


class Cast(forms.Form):
    """The composer's character list alone: the campaign's characters in table order. The composer
    declares the same field; the table redraws it alone when the cast changes."""

    character = forms.ModelChoiceField(queryset=Character.objects.none(), required=False,
                                       empty_label=_("Unnamed NPC"), label=_("Character"))

    def __init__(self, campaign: Campaign, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["character"].queryset = campaign.characters.in_table_order()


class RollerSelect(forms.Select):
    """The running extended actions, each marked with whose rolls it takes (``ExtendedAction.roller``):
    static/gmtools.js offers only those of the composer's character, whoever redrew the list (a live
    change, drawn once for every tab, knows no tab's composer). And with its traits, which picking it
    selects in the composer (static/gmtools.js)."""

    def create_option(self, name: str, value: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(name, value, *args, **kwargs)
        action = getattr(value, "instance", None)
        if action is not None:
            option["attrs"]["data-roller"] = action.roller
            if action.first_id is not None or action.second_id is not None:
                option["attrs"].update({"data-first": action.first_id or "", "data-second": action.second_id or ""})
        return option


class RollInto(forms.Form):
    """The composer's "Roll into extended action" list alone: the campaign's actions still running.
    The composer declares the same field; the table redraws it alone when the running actions change."""

    extended = forms.ModelChoiceField(queryset=ExtendedAction.objects.none(), required=False, widget=RollerSelect,
                                      empty_label=_("None"), label=_("Roll into extended action"),
                                      error_messages={"invalid_choice": _("That extended action is over (or gone): "
                                                                          "choose another, or none.")})

    def __init__(self, campaign: Campaign, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.running(self.fields["extended"], campaign)
        self.fields["extended"].widget.attrs["class"] = "form-select form-select-sm"

    @staticmethod
    def running(field: forms.ModelChoiceField, campaign: Campaign) -> None:
        # Only the actions still running: one query, then "over" is judged on each row.
        running = [a.pk for a in campaign.extended_actions.filter(ruined=False) if not a.over]
        field.queryset = campaign.extended_actions.filter(pk__in=running)
        field.widget.attrs["data-keep-value"] = ""  # the live redraw keeps the GM's choice


class ComposerForm(forms.Form):
    """The shared options of a roll; ``__init__`` adds those of the campaign's game (``BaseGame.composer``)."""

    character = Cast.base_fields["character"]
    first = TraitChoiceField(queryset=Trait.objects.none(), required=False, label=_("Attribute"))
    second = TraitChoiceField(queryset=Trait.objects.none(), required=False, label=_("Ability"))
    dice = forms.IntegerField(initial=0, min_value=-30, max_value=POOL_MAX, label=_("Extra dice"),
                              help_text=_("An unnamed NPC's whole pool, or dice added to the traits."))
    modifier = forms.IntegerField(initial=0, min_value=-20, max_value=20, label=_("Modifier"))
    difficulty = forms.TypedChoiceField(choices=(), coerce=int, label=_("Difficulty"))
    label = forms.CharField(max_length=120, required=False, label=_("What for"))
    # The opposing side: a character and its two traits, like the acting side's (its pool and its
    # odds), and the dice of an unnamed opposition (or dice added to the opposing character's traits).
    opponent_character = forms.ModelChoiceField(queryset=Character.objects.none(), required=False,
                                                empty_label=_("Unnamed opposition"), label=_("Opposing character"))
    # Each offers the opposing character's traits alone: another's (the acting character's, say) is refused.
    opponent_first = TraitChoiceField(queryset=Trait.objects.none(), required=False, error_messages={
        "invalid_choice": _("This trait is not the opposing character's: pick the opposing character, then its traits.")})
    opponent_second = TraitChoiceField(queryset=Trait.objects.none(), required=False,
                                       error_messages=opponent_first.error_messages)
    opponent_dice = forms.IntegerField(initial=0, min_value=0, max_value=POOL_MAX, required=False,
                                       label=_("Opposed by (dice)"),
                                       help_text=_("An unnamed opposition's dice, or dice added to the opposing "
                                                   "character's traits. Leave 0 for a roll against the difficulty."))
    opponent = forms.CharField(max_length=80, required=False, label=_("Opponent"),
                               help_text=_("An unnamed opposition's name (an opposing character's is its own)."))
    # (here the game's own fields: its teamwork, its sheet pools, then ``ComposerPart.fields``)
    extended = RollInto.base_fields["extended"]
    # every game: the players see nothing of the roll until the GM reveals it
    hidden = forms.BooleanField(required=False, label=_("Secret roll"))
    # One click, one roll: each composer drawn has a key of its own (and the answer to each Roll click
    # brings the next one): a second request with it is the same roll (``Roll.once_key``), refused.
    once = forms.UUIDField(required=False, initial=uuid.uuid4, widget=forms.HiddenInput)

    OPPOSED_FIELDS = ("opponent_character", "opponent_first", "opponent_second", "opponent_dice", "opponent")
    # Shown folded (under ``extras_summary``), and the fields laid out two to a row.
    EXTRA_FIELDS = ("label", "opponent", "opponent_character", "opponent_dice", "team", "extended")
    WIDE_FIELDS = ("first", "second", "label", "opponent", "opponent_dice", "difficulty", "extended")
    # Drawn beside the Roll button, not in the grid; the opposing side's traits; drawn in the opposing
    # character's box (redrawn with it when the GM picks another: templates/table.html#opposition).
    BESIDE_ROLL = ("hidden", "once")
    OPPOSING_TRAITS = ("opponent_first", "opponent_second")
    IN_OPPOSITION = ("opponent_dice",) + OPPOSING_TRAITS
    # What one roll spends or decides: back to its default once the roll is made (static/gmtools.js).
    # The helpers of a teamwork roll helped on that roll: the next one is the character's own again;
    # the opposition was this roll's (its traits too: drawn for no one, their lists are emptied).
    RESET_AFTER_ROLL = ("hidden", "opponent_character", "opponent_first", "opponent_second", "opponent_dice",
                        "opponent", "label", "team")

    def __init__(self, campaign: Campaign, *args: Any, scene: Scene | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        self.scene = scene
        system = games.get(campaign.game)
        self.part: BaseComposer = system.composer
        part = self.part
        self._add_game_fields(system.opposed_rolls, system.extended_actions)
        self.extra_names = self.EXTRA_FIELDS + part.folded
        self.wide_fields = self.WIDE_FIELDS + part.wide
        characters = campaign.characters.in_table_order()
        self.fields["character"].queryset = characters
        difficulty = self.fields["difficulty"]
        difficulty.choices, difficulty.coerce, difficulty.initial = (
            part.difficulties, part.difficulty_of, part.difficulty_initial)
        first, second = trait_slots(campaign.game)
        self.fields["first"].label = system.category_label(first)
        if second:
            self.fields["second"].label = system.category_label(second[0])
        else:
            del self.fields["second"]
        if "opponent_character" in self.fields:
            self.fields["opponent_character"].queryset = characters
            self.fields["opponent_first"].label = gettext("%(category)s (opposing)") % {
                "category": self.fields["first"].label}
            if second:
                self.fields["opponent_second"].label = gettext("%(category)s (opposing)") % {
                    "category": self.fields["second"].label}
            else:
                del self.fields["opponent_second"]
        # The character composed for (None: an unnamed NPC): the table offers its phone's ask (views.ask_phone).
        self.chosen = character = self._chosen_character()
        if "team" in self.fields:
            team = self.fields["team"]
            team.queryset = characters
            if character is not None and not self.is_bound:
                # The others: the character who rolls is no helper of its own roll (one posted anyway, from
                # a page drawn for another character, is left out of the pool: ``_team_pools``). Only a form
                # drawn reads the list: a roll's or the odds' bound form queries no characters for it.
                team.widget.choices = [choice for choice in team.choices if choice[0].value != character.pk]
        if "opponent_character" in self.fields and character is not None and not self.is_bound:
            # Nor does it oppose itself (refused in ``clean``): the list offers the others.
            opposing = self.fields["opponent_character"]
            opposing.widget.choices = [choice for choice in opposing.choices
                                       if not choice[0] or choice[0].value != character.pk]
        self._offer_traits(character, ("first", "second"), first, second)
        if "opponent_character" in self.fields:
            self._offer_traits(self._chosen_character("opponent_character"), self.OPPOSING_TRAITS, first, second)
        self.initial.pop("once", None)  # each composer drawn has a key of its own, whatever it was asked to show
        if "pool_from" in self.fields and self.initial.get("pool_from") not in dict(self.fields["pool_from"].choices):
            self.initial.pop("pool_from", None)  # a choice this game does not have
        part.setup(self, character, LoggedTurn(scene, character))
        if "extended" in self.fields:
            extended = self.fields["extended"]
            RollInto.running(extended, campaign)
            if not self.is_bound:
                # The character's own actions and those nobody rolls yet (``ExtendedAction.takes_roll_of``);
                # one posted anyway is refused by ``compose``, in words, rather than "not one of the choices".
                extended.widget.choices = [choice for choice in extended.choices
                                           if not choice[0] or choice[0].instance.takes_roll_of(character)]
        for name, bound in self.fields.items():
            widget = bound.widget
            if name in self.one_roll_fields:
                widget.attrs["data-reset-after-roll"] = ""
            if isinstance(widget, forms.CheckboxSelectMultiple | forms.CheckboxInput):
                widget.attrs["class"] = "form-check-input"
            elif isinstance(widget, forms.Select):
                widget.attrs["class"] = "form-select form-select-sm"
            else:
                widget.attrs["class"] = "form-control form-control-sm"

    @property
    def one_roll_fields(self) -> tuple[str, ...]:
        """What one roll spends or decides (``RESET_AFTER_ROLL`` and the game's ``reset_after_roll``):
        marked for static/gmtools.js to reset on the GM's table, left out of a player's composer drawn
        again after a roll (``kept_after_roll``)."""
        return self.RESET_AFTER_ROLL + self.part.reset_after_roll

    def kept_after_roll(self) -> dict[str, Any]:
        """A valid form's choices that outlive its roll, as a composer's ``initial``: all but the one
        roll's (``one_roll_fields``) and its one-click key (the next roll is another)."""
        dropped = self.one_roll_fields + ("once",)
        return {name: value for name, value in self.cleaned_data.items()
                if name in self.fields and name not in dropped}

    def _add_game_fields(self, opposed: bool, extended: bool) -> None:
        """The game's fields after the shared ones (before the extended action and the secret roll),
        and without what its engine cannot price: an opposing side, extended actions, extra dice."""
        part = self.part
        own: dict[str, forms.Field] = {}
        if part.teamwork:
            own["team"] = ModelMultipleChoiceField(queryset=Character.objects.none(), required=False,
                                                   label=_("Teamwork"), widget=forms.CheckboxSelectMultiple)
        if part.sheet_pools:
            # Each game's own word for a pool ("Fuerza de Voluntad" in V5).
            own["pool_from"] = forms.ChoiceField(
                choices=[("traits", _("Traits"))] + [(p.key, p.label) for p in part.sheet_pools],
                initial="traits", label=_("Dice from"))
        own.update((name, copy.deepcopy(f)) for name, f in part.fields.items())
        self.fields.update(own)
        for name in ("extended", "hidden", "once"):  # still the last three
            self.fields[name] = self.fields.pop(name)
        for name in ((() if opposed else self.OPPOSED_FIELDS) + (() if extended else ("extended",))
                     + (() if part.extra_dice else ("dice",))):
            del self.fields[name]

    def _group(self, extra: bool, flags: bool) -> list[forms.BoundField]:
        return [
            field for field in self
            if field.name not in self.BESIDE_ROLL + self.IN_OPPOSITION + self.part.drawn_inside
            and (field.name in self.extra_names) == extra
            and (isinstance(field.field.widget, forms.CheckboxInput) and not extra) == flags
        ]

    @property
    def main_fields(self) -> list[forms.BoundField]:
        """Laid out as a grid: the pool and the difficulty, then the game's choices."""
        return self._group(extra=False, flags=False)

    @property
    def flag_fields(self) -> list[forms.BoundField]:
        """The game's on/off options, as checkboxes after the grid."""
        return self._group(extra=False, flags=True)

    @property
    def opposition_fields(self) -> list[forms.BoundField]:
        """The opposing character, the dice added to it, and its traits, drawn (and redrawn) together."""
        return [self[name] for name in ("opponent_character",) + self.IN_OPPOSITION if name in self.fields]

    @property
    def extra_fields(self) -> list[forms.BoundField]:
        return self._group(extra=True, flags=False)

    @property
    def extras_summary(self) -> str:
        """The fold's title names what it holds: scifi has no teamwork, Fate neither teamwork nor
        extended actions (the third walkthrough looked for "Roll into extended action" for a while)."""
        return str({(True, True): _("Opposed, teamwork, extended action, note"),
                    (False, True): _("Opposed, extended action, note"),
                    (True, False): _("Opposed, teamwork, note"),
                    (False, False): _("Opposed, note")}["team" in self.fields, "extended" in self.fields])

    def _offer_traits(self, character: Character | None, names: tuple[str, str], first: str,
                      second: tuple[str, ...]) -> None:
        """The two trait slots ``names`` (a side's) offer the character's traits of their categories."""
        traits = (Trait.objects.filter(character=character).select_related("character__campaign")
                  if character is not None else Trait.objects.none())
        self.fields[names[0]].queryset = traits.filter(category=first)
        if names[1] in self.fields:
            self.fields[names[1]].queryset = traits.filter(category__in=second)
        if not self.is_bound and character is not None:
            # Start from the character's best pool, so the odds show at once; the GM changes it.
            # A trait asked for (clicked on the card, or a saved roll's) is kept if it is the character's.
            # An empty choice asked for (a saved roll of an Attribute alone) stays empty.
            for name in names:
                if name in self.fields and self.initial.get(name) != "":
                    asked = self._own_trait(name, self.initial.get(name))
                    self.initial[name] = asked or self.fields[name].queryset.order_by("-rating", "id").first()

    def _own_trait(self, name: str, value: Any) -> Trait | None:
        """The trait ``value`` (a Trait or its id) if the field offers it (the character's own), else None."""
        if isinstance(value, Trait):
            value = value.pk
        try:
            pk = int(value)
        except (TypeError, ValueError):
            return None
        return self.fields[name].queryset.filter(pk=pk).first() if -(2**63) <= pk < 2**63 else None

    def difficulty_said(self, value: str) -> str:
        """A difficulty as posted ("4", "hard"), in the words its field offers it ("Challenging (4)")."""
        field = self.fields.get("difficulty")
        return next((str(label) for choice, label in getattr(field, "choices", ()) if str(choice) == value), value)

    def _chosen_character(self, name: str = "character") -> Character | None:
        """The character whose traits a side's trait fields offer (from the submitted data, if any):
        the acting one's (``character``) or the opposing one's (``opponent_character``)."""
        raw = self.data.get(self.add_prefix(name)) if self.is_bound else self.initial.get(name)
        if isinstance(raw, Character):
            return raw
        try:
            return self.campaign.characters.get(pk=int(raw)) if raw else None
        except (ValueError, Character.DoesNotExist):
            return None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        character = data.get("character")
        for name in ("first", "second"):
            trait = data.get(name)
            if trait is not None and trait.character_id != getattr(character, "pk", None):
                self.add_error(name, gettext("This trait belongs to another character."))
        opposing = data.get("opponent_character")
        if opposing is not None and opposing == character:
            self.add_error("opponent_character", gettext("A character does not oppose itself: pick another."))
        self.part.clean(self, data)
        if data.get("pool_from", "traits") != "traits" and character is None:
            self.add_error("pool_from", gettext("An unnamed NPC has no sheet to roll from; pick a character."))
        if not self.errors:
            try:
                data["composition"] = compose(self.campaign, data, self.scene)
            except RulesError as error:
                raise forms.ValidationError(refusal_text(error)) from None
        return data

    @property
    def disabled_fields(self) -> list[str]:
        """The fields drawn unavailable now (Exalted's Willpower spent this turn): the odds name them,
        so that an open composer follows the turn (static/gmtools.js)."""
        return [name for name, field in self.fields.items() if "disabled" in field.widget.attrs]

    def messages(self) -> list[str]:
        """Its errors as the GM reads them beside Roll. Django's own ("Ensure this value is less than
        or equal to 20.") say no field, so each follows its field's label; ours name what they refuse."""
        return [f"{self.fields[name].label}: {text}" if name in self.fields and error.code in DJANGOS_OWN else text
                for name, errors in self.errors.as_data().items() for error in errors for text in error.messages]


def initial_values(form: ComposerForm) -> dict[str, Any]:
    """A composer drawn (unbound) as the data it would post: what its odds price before any change."""
    return {name: (value.pk if hasattr(value, "pk") else value)
            for name, value in ((n, form.get_initial_for_field(f, n)) for n, f in form.fields.items())
            if value not in (None, "", [])}


# The codes of the errors Django's fields and validators raise, whose messages name no field.
DJANGOS_OWN = frozenset({"required", "invalid", "invalid_choice", "invalid_pk_value", "invalid_list", "max_value",
                         "min_value", "step_size", "max_length", "min_length", "max_digits", "max_decimal_places",
                         "max_whole_digits"})


def _ratings(data: Mapping[str, Any], names: tuple[str, str] = ("first", "second")) -> int:
    """The ratings of a side's two traits (the acting side's, or ``ComposerForm.OPPOSING_TRAITS``)."""
    return sum(trait.rating for trait in (data.get(name) for name in names) if trait is not None)


def _opposition(data: Mapping[str, Any], opposed_by_name: bool) -> tuple[int, str, tuple[str, ...]]:
    """The opposing side's pool (its character's traits and the dice given), its name, and what
    its traits are (``Composition.opponent_parts``). The number of dice alone is an unnamed opposition."""
    extra = data.get("opponent_dice") or 0
    opposing: Character | None = data.get("opponent_character")
    if opposing is None:
        return extra, data.get("opponent") or "", ()
    pool = _ratings(data, ComposerForm.OPPOSING_TRAITS) + extra
    if pool < 1 and not opposed_by_name:
        # A character opposing with no dice would make the roll one against the difficulty, silently.
        raise RulesError(gettext("%(name)s opposes with no dice: pick its traits, or give dice (Opposed by).")
                         % {"name": opposing.name})
    return pool, opposing.name, _trait_parts(data, ComposerForm.OPPOSING_TRAITS)


def _trait_label(data: Mapping[str, Any]) -> str:
    names = [str(trait.label) for trait in (data.get("first"), data.get("second")) if trait is not None]
    return " + ".join(names) if names else gettext("%(n)d dice") % {"n": data.get("dice") or 0}


def _trait_parts(data: Mapping[str, Any], names: tuple[str, str] = ("first", "second")) -> tuple[str, ...]:
    """What a side's two traits are, as ``Roll.label_parts`` says them in each language."""
    return tuple(f"trait:{t.key}" if t.key else f"name:{t.name}"
                 for t in (data.get(name) for name in names) if t is not None)


def _label_parts(data: Mapping[str, Any]) -> tuple[str, ...]:
    """What the label made from the traits is made of (see ``Roll.display_label``)."""
    return _trait_parts(data) or (f"dice:{data.get('dice') or 0}",)


def _team_pools(data: Mapping[str, Any]) -> tuple[tuple[Character, int, int], ...]:
    """Each helper's (character, pool, skill dots) in the acting character's traits."""
    team = [c for c in data.get("team") or () if c != data.get("character")]
    keys = [t.key for t in (data.get("first"), data.get("second")) if t is not None and t.key]
    if not team or not keys:
        return ()
    ratings: dict[tuple[int, str], int] = {
        (t.character_id, t.key): t.rating for t in Trait.objects.filter(character__in=team, key__in=keys)
    }
    skill_key = data["second"].key if data.get("second") is not None else None
    return tuple(
        (c, sum(ratings.get((c.pk, k), 0) for k in keys), ratings.get((c.pk, skill_key), 0) if skill_key else 1)
        for c in team
    )


def _too_many_dice(data: Mapping[str, Any], pool: int, sheet: SheetPool | None) -> str:
    """Why a pool over the engines' bound cannot be rolled, in what the GM picked: the traits (or the
    sheet's pool) and the extra dice that add up to it. The engine's own words ("pool must be at most
    100, got 104") named neither."""
    extra = data.get("dice") or 0
    if sheet is not None:
        parts = [f"{sheet.label} {pool - extra}"]
    else:
        parts = [f"{trait.label} {trait.rating}" for trait in (data.get("first"), data.get("second")) if trait is not None]
    if extra:
        parts.append(ngettext("%(n)d extra die", "%(n)d extra dice", extra) % {"n": extra})
    why = gettext("%(parts)s = %(pool)d dice: at most %(max)d dice can be rolled.") % {
        "parts": " + ".join(parts), "pool": pool, "max": POOL_MAX}
    advice = gettext("Take some extra dice away.")
    return f"{why} {advice}" if extra > 0 else why


def compose(campaign: Campaign, data: dict[str, Any], scene: Scene | None = None) -> Composition:
    """The rules request(s) and spends for the cleaned composer data (RulesError if unplayable).

    ``scene`` is where play stands: the character's rolls this turn (a game's turn budget, such as
    exalted's multiple-action penalty or scifi's action slots, reads them).
    """
    system = games.get(campaign.game)
    part = system.composer
    character: Character | None = data.get("character")
    pool = _ratings(data) + (data.get("dice") or 0)
    label = data.get("label") or _trait_label(data)
    label_parts = () if data.get("label") else _label_parts(data)
    opponent_dice, opponent_name, opponent_parts = _opposition(data, part.opposed_by_name)
    if opponent_name:
        data = {**data, "opponent": opponent_name}  # a game that reads the opposition by its name (Fate)
    earlier = tuple(Roll.objects.this_turn(scene, character)) if scene and character else ()
    extended = data.get("extended")
    if extended is not None and data.get("hidden"):
        # Its progress bar would tell the players what the secret roll gave.
        raise RulesError(gettext("A secret roll cannot go into an extended action: the players see its progress."))
    if extended is not None and (refusal := extended.refuses_roll_of(character)):
        raise RulesError(refusal)
    if extended is not None and extended.kind != ExtendedKind.SOLO and not opponent_dice:
        # A race or tug-of-war knows its other side: its dice (given when it was made, or by its first
        # roll) roll again each round, unless the GM types others (a walkthrough typed them every roll).
        opponent_dice, opponent_name = extended.opponent_pool, opponent_name or extended.opponent
        if not opponent_dice:
            raise RulesError(gettext("A race or tug-of-war needs the opposing side's dice (Opposed by)."))
    team = _team_pools(data) if part.teamwork else ()
    from_sheet = data.get("pool_from") or "traits"
    if from_sheet != "traits":
        # A tracker roll: Willpower or Humanity from the sheet, never the traits picked above.
        sheet = part.sheet_pool(from_sheet)
        pool = sheet.dice(character) + (data.get("dice") or 0)
        label = data.get("label") or str(sheet.label)
        label_parts = () if data.get("label") else (f"term:{from_sheet}_roll",)
    if pool > POOL_MAX:
        raise RulesError(_too_many_dice(data, pool, part.sheet_pool(from_sheet) if from_sheet != "traits" else None))
    shared = dict(game=campaign.game, engine=system.engine, character=character, label=label, label_parts=label_parts,
                  opponent_name=opponent_name, opponent_parts=opponent_parts, scene=scene, earlier_actions=len(earlier),
                  extended=extended, hidden=bool(data.get("hidden")), team_names=tuple(c.name for c, _, _ in team),
                  traits=(data.get("first"), data.get("second")) if from_sheet == "traits" else (None, None))
    return part.compose(Draft(
        game=system, campaign=campaign, scene=scene, data=data, character=character, pool=pool,
        modifiers=(data["modifier"],) if data.get("modifier") else (), opponent_dice=opponent_dice,
        earlier=earlier, sheet_pool=from_sheet, team=team, shared=shared, turn=LoggedTurn(scene, character),
    ))
