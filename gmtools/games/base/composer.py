"""A game's part of the roll composer (``BaseComposer``), and the values it exchanges with the core's
composer form (``gmtools.composer.ComposerForm``): what the form read (``Draft``), the roll it makes
(``Composition``), what the roll spends (``Spend``), a roll of the sheet's own ratings (``SheetPool``).

The form holds the fields every game shares (the character, two traits or extra dice, a modifier, the
difficulty, the opposing side, a note, a secret roll, the extended action rolled into); the game's
composer adds its own fields and difficulties, and turns the cleaned data into a ``Composition``: the
rules request for the acting side, the opposing side's if any, the helpers of a teamwork roll and the
resources the roll will spend. The odds panel and the roll both start from a ``Composition``, so what
the GM sees priced is exactly what gets rolled. Every default here is a plain pool of the engine's
dice against a difficulty from 0 to 10.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, Self

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from gmtools.games.base.odds import OddsPanel, pool_panel

if TYPE_CHECKING:  # the table's rows and the core's form are named, never imported, here
    from gmtools.composer import ComposerForm
    from gmtools.games.base.game import BaseGame
    from gmtools.models import Campaign, Character, ExtendedAction, Roll, Scene, Trait

# A difficulty as successes needed, for a game with no scale of its own.
NUMERIC_DIFFICULTIES = tuple((d, str(d)) for d in range(0, 11))


# Django's stubs make the field generic in its model; Django's own class takes no subscript at run time.
class ModelMultipleChoiceField(forms.ModelMultipleChoiceField):  # type: ignore[type-arg]
    """Refuses ids that no database column can hold, instead of letting the query overflow."""

    def _check_values(self, value: Any) -> Any:
        for pk in value:
            try:
                if not -(2**63) <= int(pk) < 2**63:
                    raise ValueError
            except (TypeError, ValueError):
                raise forms.ValidationError(self.error_messages["invalid_pk_value"], code="invalid_pk_value",
                                            params={"pk": pk}) from None
        # Django's stubs leave out this private method, which the check above runs before.
        return super()._check_values(value)  # type: ignore[misc]


def form_field[F: forms.Field](form: forms.Form, name: str, kind: type[F]) -> F:
    """The form's field ``name`` as the kind of field it is (a form holds any ``forms.Field``), to set
    what only that kind has (its choices, its queryset)."""
    field = form.fields[name]
    if not isinstance(field, kind):
        raise TypeError(f"The field {name!r} is a {type(field).__name__}, not a {kind.__name__}.")
    return field


@dataclass(frozen=True)
class Spend:
    """A resource a roll consumes, paid in the roll's own transaction (``BasePlay.spends`` by ``what``)."""

    what: str  # "willpower" | "fate_point" | "free_invocation" | ...
    character_id: int
    aspect_id: int | None = None
    label: str = ""

    def as_json(self) -> dict[str, Any]:
        return {"what": self.what, "character": self.character_id, "aspect": self.aspect_id, "label": self.label}


@dataclass(frozen=True)
class Composition:
    """A roll as composed: what the odds price and the table rolls."""

    game: str
    engine: Any  # the game's rules module (``BaseGame.engine``)
    character: Character | None
    label: str
    request: Any
    label_parts: tuple[str, ...] = ()  # what a label the composer made is made of, for every language
    opponent: Any | None = None
    opponent_name: str = ""
    opponent_parts: tuple[str, ...] = ()  # the opposing character's traits, as ``label_parts`` says them
    team: tuple[tuple[str, Any], ...] = ()  # exalted: each helper's own request, rolled apart
    spends: tuple[Spend, ...] = ()
    shortcut: str = "roll"  # roll | automatic | take_half
    secret: bool = False  # v5: the difficulty is kept from the players
    hidden: bool = False  # a secret roll: kept from the players whole
    action: str = ""  # fate: the action; others: the action's place in the turn's budget
    team_names: tuple[str, ...] = ()
    team_idle: tuple[str, ...] = ()  # helpers who add nothing to the pool (V5: no dot in the skill)
    scene: Scene | None = None
    earlier_actions: int = 0  # the character's rolls already logged this turn, re-checked when rolling
    extended: ExtendedAction | None = None
    traits: tuple[Trait | None, Trait | None] = (None, None)  # the character's traits rolled (none: a sheet's pool)
    notes: tuple[str, ...] = ()  # what the turn did to the roll, e.g. "second of 3 actions: −4 dice"
    handicap: tuple[int, int] = (0, 0)  # opposed: successes taken from (this side, the opponent) first (Exalted)
    # A game's own values (what its odds and its play read) are fields of its subclass (``Draft.composition``).

    @property
    def actor(self) -> str:
        return self.character.name if self.character else gettext("Unnamed NPC")

    def thrown_at_table(self) -> Self:
        """The roll as its odds price it when its dice are thrown at the table ("I rolled real dice",
        ``gmtools.physical``): the same, unless the game draws otherwise (Fate's deck)."""
        return self


class TurnReads(Protocol):
    """What a game's composer may read of the turn in play, besides the character's rolls in it
    (``Draft.earlier``); the core's answers from the log (``gmtools.composer``)."""

    def declared_actions(self) -> int:
        """The actions the character declared for this turn (1 unless it declared more)."""

    def failures_at(self, label: str) -> int:
        """The character's earlier failed attempts in the scene at the task of this label."""

    def last_turn_extended(self) -> Roll | None:
        """The character's last roll of the turn before into an extended action, if any."""

    def willpower_spent(self) -> bool:
        """Whether the character spent Willpower on a roll this turn."""


@dataclass(frozen=True, kw_only=True)
class Draft:
    """What a game's roll is made from: the shared fields, read once, and where play stands."""

    game: BaseGame
    campaign: Campaign
    scene: Scene | None
    data: Mapping[str, Any]  # the cleaned composer data, the game's own fields included
    character: Character | None
    pool: int  # the traits' ratings (or the sheet pool's dice) plus the extra dice
    modifiers: tuple[int, ...]  # the GM's modifier, if any
    opponent_dice: int
    earlier: tuple[Roll, ...]  # the character's rolls this turn, oldest first
    sheet_pool: str  # "traits", or the ``SheetPool.key`` rolled
    team: tuple[tuple[Character, int, int], ...]  # teamwork: each helper's (character, pool, skill dots)
    shared: Mapping[str, Any]  # the Composition's fields every game fills alike (its label among them)
    turn: TurnReads  # the rest of the turn, read when asked

    @property
    def engine(self) -> Any:
        return self.game.engine

    def opponent(self) -> Any | None:
        """The opposing side, a bare pool of the engine's dice, if the GM gave one."""
        return self.engine.Request(pool=self.opponent_dice) if self.opponent_dice else None

    def composition[C: Composition](self, kind: type[C], **fields: Any) -> C:
        """The Composition (``kind``: ``Composition``, or the game's subclass with fields of its own):
        the shared fields, with the game's (which may replace them)."""
        return kind(**{**self.shared, **fields})


@dataclass(frozen=True, kw_only=True)
class SheetPool:
    """A roll of one of the sheet's own ratings instead of two traits (a Willpower or Humanity roll)."""

    key: str  # the composer's ``pool_from`` value; ``term:<key>_roll`` names it in the log (Roll.display_label)
    # Its name in the composer's choice, on the character's card, in the log and in a saved roll's
    # name: the game's own word ("Willpower roll" is *Tirada de Voluntad* in Exalted, *Tirada de
    # Fuerza de Voluntad* in V5), never a msgid the games share.
    label: Promise
    dice: Callable[[Character], int]


class BaseComposer:
    """A game's part of the roll composer (``BaseGame.composer``), handed its game. Every default is a
    game without that feature: a plain pool of its engine's dice against a difficulty from 0 to 10,
    with no fields of its own."""

    # The composer's second trait slot: its categories (the first slot is the sheet's first
    # category). None: the sheet's second category; empty: no second slot (Fate's Approach alone).
    second_categories: tuple[str, ...] | None = None
    # A rating of 0 is a rating like any other (Fate's Mediocre), so a character's card offers such
    # traits to roll; else a trait at 0 is one the character lacks.
    zero_is_rated = False
    # The game's own fields, by the name the page posts, in the order the composer draws them after
    # the shared ones (each composer form gets a copy).
    fields: Mapping[str, forms.Field] = {}
    # Of the game's fields: folded under "Opposed, teamwork, note"; drawn wide (col-6, for Spanish);
    # back to their default once the roll is made (static/gmtools.js); drawn inside another field's
    # box instead of the grid (Fate's second invocations, in the aspects' box).
    folded: tuple[str, ...] = ()
    wide: tuple[str, ...] = ()
    reset_after_roll: tuple[str, ...] = ()
    drawn_inside: tuple[str, ...] = ()
    # Of the game's fields: drawn by a template partial of the game's, by field (Fate's aspects to
    # invoke, which redraw themselves when the scene's aspects change: ``composer/field/<name>/``).
    drawn_by: Mapping[str, str] = {}
    # The difficulty's choices, and where it starts (a choice is read by ``difficulty_of``).
    difficulties: tuple[tuple[Any, Any], ...] = NUMERIC_DIFFICULTIES
    difficulty_initial: Any = 1
    # Rolls of the sheet's own ratings the composer offers beside the traits (``pool_from``).
    sheet_pools: tuple[SheetPool, ...] = ()
    # Teamwork: the composer offers helpers, whose dice in the same traits ``Draft.team`` gives.
    teamwork = False
    # The shared "Extra dice" field (an unnamed NPC's whole pool, or dice added to the traits): a game
    # without a dice pool (Fate: four Fate dice plus a bonus, which the modifier changes) has none.
    extra_dice = True
    # An opponent's name alone makes the roll opposed (Fate: the other side's bonus may be 0).
    opposed_by_name = False
    # What the bars of a contest count ("shifts" in Fate).
    contest_axis: Promise | str = _("net successes")

    def __init__(self, game: BaseGame) -> None:
        self.game = game

    def difficulty_of(self, choice: Any) -> Any:
        """A difficulty choice as the request takes it."""
        return int(choice)

    def setup(self, form: ComposerForm, character: Character | None, turn: TurnReads) -> None:
        """What the game's fields offer this character (and its turn), once the shared fields are set."""

    def clean(self, form: ComposerForm, data: dict[str, Any]) -> None:
        """Whether the game's fields fit together: errors added to ``form``."""

    def compose(self, draft: Draft) -> Composition:
        """The Composition for the cleaned data (``rules.dice.RulesError`` if it cannot be rolled): a
        plain pool, its dice and the modifier among them, against the difficulty."""
        pool = max(0, draft.pool + sum(draft.modifiers))
        request = draft.engine.Request(pool=pool, difficulty=draft.data["difficulty"])
        return draft.composition(Composition, request=request, opponent=draft.opponent(), action="action")

    def odds(self, comp: Composition) -> OddsPanel:
        """The odds panel of a roll against the difficulty: its engine's chance of success and its
        distribution (``gmtools.games.base.odds.pool_panel``)."""
        return pool_panel(comp)

    def name_options(self, data: Mapping[str, Any]) -> list[str]:
        """What the game's options add to a saved roll's name ("stunt 2", "specialty")."""
        return []

    def sheet_pool(self, key: str) -> SheetPool:
        """The sheet pool ``key`` (a ``pool_from`` value the composer offered)."""
        return next(pool for pool in self.sheet_pools if pool.key == key)
