"""The values a game describes itself with: its sheet (categories, standard traits, rating ranges),
its own tables (``Columns``), its NPCs and demo campaign, and its words for the engine's notes.

Data only: the core reads them (``gmtools.sheets``, ``gmtools.characters``, the admin, the backup,
``gmtools.notes``); a game declares them on its ``BaseGame`` subclass.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from django.db import models
from django.forms.models import BaseInlineFormSet
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

if TYPE_CHECKING:  # the table's rows are named, never imported, here
    from gmtools.models import Character


class TraitCategory(models.TextChoices):
    """The trait categories the games' sheets are made of (each game lists its own: ``BaseGame.categories``).

    The one list of the games' words the interface keeps: the database checks a trait's category
    against it (``trait_category_known``), beside ``Trait.clean``'s check against its game's. A game
    with a category none has yet adds it here (one line and a migration of the core's)."""

    ATTRIBUTE = "attribute", _("Attribute")
    ABILITY = "ability", _("Ability")
    SKILL = "skill", _("Skill")
    APPROACH = "approach", _("Approach")
    DISCIPLINE = "discipline", _("Discipline")
    BACKGROUND = "background", _("Background")
    MERIT = "merit", _("Merit")
    FLAW = "flaw", _("Flaw")
    STUNT = "stunt", _("Stunt")
    ADVANTAGE = "advantage", _("Advantage")
    DISADVANTAGE = "disadvantage", _("Disadvantage")
    AUGMENTATION = "augmentation", _("Augmentation")
    MUTATION = "mutation", _("Mutation")


# The shared categories' words for several traits, as a sheet heads them.
CATEGORY_PLURALS: dict[str, Promise] = {
    TraitCategory.ATTRIBUTE: _("Attributes"),
    TraitCategory.ABILITY: _("Abilities"),
    TraitCategory.SKILL: _("Skills"),
    TraitCategory.APPROACH: _("Approaches"),
    TraitCategory.DISCIPLINE: _("Disciplines"),
    TraitCategory.BACKGROUND: _("Backgrounds"),
    TraitCategory.MERIT: _("Merits"),
    TraitCategory.FLAW: _("Flaws"),
    TraitCategory.STUNT: _("Stunts"),
    TraitCategory.ADVANTAGE: _("Advantages"),
    TraitCategory.DISADVANTAGE: _("Disadvantages"),
    TraitCategory.AUGMENTATION: _("Augmentations"),
    TraitCategory.MUTATION: _("Mutations"),
}


class CharacterKind(models.TextChoices):
    PC = "pc", _("PC")
    NPC = "npc", _("NPC")


@dataclass(frozen=True)
class StandardTrait:
    key: str
    category: str
    label: Promise
    default: int


# A note's (or an effect's, or a refusal's) parameters, as the engine wrote them.
Params = Mapping[str, Any]
# One line of the engine's explanations in the active language, from its parameters. It raises
# KeyError, ValueError, TypeError or IndexError when they do not fit (gmtools.notes then shows
# the engine's English text).
Line = Callable[[Params], str]


def line_text(lines: Mapping[str, Line], item: object) -> str:
    """A note (or an effect) of the engine as its line among ``lines`` says it in the active language:
    the engine's English ``text`` when no line has its code or its parameters do not fit the line
    (an entry logged by an older engine, say), so the log always reads."""
    if not isinstance(item, Mapping):
        return "" if item is None else str(item)
    english = str(item.get("text", ""))
    line = lines.get(str(item.get("code")))
    if line is None:
        return english
    try:
        return str(line(item))
    except (KeyError, ValueError, TypeError, IndexError):
        return english


def refusal_line(lines: Mapping[str, Line], error: Exception) -> str:
    """An engine's refusal (``rules.RulesError``) as its line among ``lines`` says it in the active
    language; its English message when it has no code, or none of these lines fits."""
    line = lines.get(getattr(error, "code", ""))
    if line is None:
        return str(error)
    try:
        return str(line(getattr(error, "params", {})))
    except (KeyError, ValueError, TypeError):
        return str(error)


def with_text_value(p: Params, name: str, pattern: str, cast: Callable[[str], Any] = int) -> Params:
    """``p`` with ``name`` added from the engine's English text when the note lacks it as a parameter.

    A few notes say a number only in their text (exalted ``met``/``short``: the difficulty; a rouse
    check: its die; Fate ``dice``/``reroll``: the faces). Passing it as a parameter in ``rules`` makes
    this unnecessary; until then the line still shows it, and without a match the line omits it.
    """
    if name in p:
        return p
    match = re.search(pattern, str(p.get("text", "")))
    return {**p, name: cast(match.group(1))} if match else p


def sheet_part(category: str, default: int, *labels: tuple[str, Promise]) -> tuple[StandardTrait, ...]:
    """Standard traits of one category, all starting at ``default``, from (key, label) pairs."""
    return tuple(StandardTrait(key, category, label, default) for key, label in labels)


# --- sheets, characters and campaigns -------------------------------------------------------------

# A rating's inclusive (low, high).
Bounds = tuple[int, int]
# One line of a fieldset, as the admin and the character panel lay it out: a column's name, or a
# tuple of them side by side, where a derived value (a function of the row, decorated with
# ``admin.display``) may stand too, read-only.
Row = str | tuple[str | Callable[[Any], Any], ...]


@dataclass(frozen=True, kw_only=True)
class SheetRules:
    """What a sheet of the game allows beyond its standard traits (``gmtools.sheets`` reads it)."""

    # A trait's rating range by category; a category not here is rated ``sheets.DEFAULT_RATING_BOUNDS``.
    rating_bounds: Mapping[str, Bounds] = field(default_factory=dict)
    # For a game whose ranges depend on the character (Exalted's Essence lifts Attributes and
    # Abilities past 5; a Fate NPC's Approaches reach +8): the character's range, from the category,
    # its range and the character (a ``Character``, maybe not saved yet).
    rating_bounds_for: Callable[[str, Bounds, Character], Bounds] | None = None
    # Traits a GM adds by hand that the game's books name (V5's Disciplines and Backgrounds), by
    # English name in lower case: such a trait reads in the active language; any other as typed.
    known_names: Mapping[str, Promise] = field(default_factory=dict)
    # Rows of the game's own tables that belong to a character besides its traits (Fate's aspects):
    # edited with the sheet and in the admin, copied with the character, cards read them prefetched.
    rows: tuple[SheetRows, ...] = ()


@dataclass(frozen=True, kw_only=True, eq=False)
class SheetRows:
    """A table of the game's whose rows belong to a character (a ``character`` foreign key whose
    related name is ``name``): what the sheet and the admin edit of them, and how."""

    model: type[models.Model]
    # The related name of its ``character`` foreign key; the sheet's formset prefix too.
    name: str
    title: Promise | str
    # The columns the sheet and the admin edit.
    fields: tuple[str, ...]
    # The formset that checks the rows together (Fate: one high concept, one trouble).
    formset: type[BaseInlineFormSet[Any, Any, Any]] = BaseInlineFormSet
    # The template partial that draws the sheet's formset (its context: ``rows``, the formset).
    template: str
    # Which of a character's rows are its sheet's (Fate: not those a scene put on it, which end with the scene).
    edited: Mapping[str, Any] = field(default_factory=dict)
    # What a new character's sheet offers first to fill in (Fate's high concept and trouble), as initial values.
    starting: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True, kw_only=True)
class Columns:
    """A game's own columns of a character (its resources) or of a campaign (its state): a model of
    the game's app, one row per character (campaign) of its campaigns, linked one-to-one and named by
    the game's id (``gmtools.games.base.models``). Real columns, so that the database checks their
    bounds; what needs more than one column (Vampire's damage against the boxes its traits give) is
    the model's ``clean()``, which runs once the character's traits are written.
    """

    # The model; None: the game has none.
    model: type[models.Model] | None = None
    # The fieldset the admin and the character panel show them in: rows of columns, where a derived
    # value (a function of the row, decorated with ``admin.display``) may stand too, read-only.
    title: Promise | str = ""
    rows: tuple[Row, ...] = ()

    @cached_property
    def fields(self) -> tuple[str, ...]:
        """The columns but the link, in the order the model declares them."""
        return tuple(f.name for f in self.model._meta.local_fields if not f.primary_key) if self.model else ()

    @cached_property
    def links(self) -> dict[str, str]:
        """The columns naming another character of the campaign (Fate: whose free invocation a
        consequence is), by the column of its id (``consequence_mild_free_for_id``, as the one-click
        changes keep them): the forms offer the campaign's others, the campaign file names them by place."""
        return {f.attname: f.name for f in self.model._meta.local_fields
                if f.many_to_one and f.related_model is not None and f.related_model._meta.label == "gmtools.Character"
                } if self.model else {}

    @property
    def relation(self) -> str:
        """The row's name on its character (campaign): the game's id, its app's label."""
        return self.model._meta.app_label if self.model else ""

    def public(self, name: str) -> str:
        """A column's name in the forms and the campaign file: ``v5_hunger`` (see ``base.models``)."""
        return f"{self.relation}_{name}"

    @cached_property
    def public_fields(self) -> dict[str, str]:
        """Each column by its public name."""
        return {self.public(name): name for name in self.fields}

    @cached_property
    def derived(self) -> tuple[Callable[[Any], Any], ...]:
        """The derived values the rows show, read-only."""
        items = (item for row in self.rows for item in (row if isinstance(row, tuple) else (row,)))
        return tuple(item for item in items if callable(item))


@dataclass(frozen=True, kw_only=True)
class StateColumns(Columns):
    """A campaign's own state in the game (Fate's deck, the scifi adventure being open)."""

    # The boolean column the GM flips from the table; None: the game has no switch.
    switch: str | None = None


# What a quick NPC's traits are called (``gmtools.characters.pool_traits``): a pool of N is split
# over the game's first category and its second; a game with one category holds it in one trait.
POOL_NAMES: dict[str, Promise] = {
    "first": pgettext_lazy("quick NPC", "Pool"),
    "second": pgettext_lazy("quick NPC", "Pool (skill)"),
    "single": pgettext_lazy("quick NPC", "Skill"),
}


@dataclass(frozen=True)
class NpcTemplate:
    key: str
    label: Promise
    name: Promise  # what each NPC is called unless the GM names it
    ratings: dict[str, int] = field(default_factory=dict)  # standard traits by key (the others keep their default)
    resources: dict[str, Any] = field(default_factory=dict)  # by column (``Columns.fields``)
    traits: tuple[tuple[str, str | Promise, int], ...] = ()  # (category, name, rating) added by hand
    standard_sheet: bool = True
    notes: Promise | str = ""


@dataclass(frozen=True, kw_only=True)
class Npcs:
    """The game's NPCs made in a click at the table (``gmtools.characters``)."""

    templates: tuple[NpcTemplate, ...] = ()
    # A quick NPC's resources, where they differ from a new character's (a quick V5 NPC is a mortal).
    quick_resources: Mapping[str, Any] = field(default_factory=dict)
    # For a game whose quick NPC rates one bonus rather than a pool of dice (Fate): the field's
    # label, help text and starting value.
    quick_bonus: tuple[Promise, Promise, int] | None = None


@dataclass(frozen=True, kw_only=True)
class DemoCharacter:
    """A demo character, written as its sheet: the standard traits it rates, then those added by hand."""

    name: str
    ratings: Mapping[str, int]
    specialties: Mapping[str, str] = field(default_factory=dict)
    custom: tuple[tuple[str, str, int], ...] = ()  # (category, name, rating) of a trait added by hand
    aspects: tuple[tuple[str, str, int], ...] = ()  # (kind, text, free invocations)
    resources: Mapping[str, Any] = field(default_factory=dict)  # by column (``Columns.fields``)
    kind: str = "pc"
    player: str = ""
    concept: str = ""
    notes: str = ""


@dataclass(frozen=True, kw_only=True)
class DemoCampaign:
    """A game's demo campaign: its name, its characters, and the campaign's own per-game state."""

    name: str
    characters: tuple[DemoCharacter, ...]
    state: Mapping[str, Any] = field(default_factory=dict)  # by column (``StateColumns.fields``)
