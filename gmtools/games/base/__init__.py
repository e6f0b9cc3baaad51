"""What the core asks of a game: the small, typed interface each game app of ``gmtools.games`` fills in.

Like a Django database backend, a game is one package behind this interface, and the core (models,
services, views, templates) asks the game it is given instead of branching on it. No module of the
core names a game: the games are the apps of ``INSTALLED_APPS`` whose config is a ``GameConfig``
(``apps.py``), each with its own tables (``models.py``: ``gmtools.games.base.models``).
"""

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Protocol

from django.db import models
from django.utils.functional import Promise
from django.utils.translation import ngettext_lazy, pgettext_lazy
from django.utils.module_loading import import_string

from gmtools.formatting import signed as signed  # the games print numbers with it
from gmtools.games.base.table import (
    Refused as Refused,
    Table as Table,
    contest as contest,
    logged_request as logged_request,
    rebuild as rebuild,
    request_args as request_args,
    request_doc as request_doc,
    step as step,
    toggle as toggle,
)
from gmtools.sheets import StandardTrait
from rules.dice import RandomSource
from rules.fairness import D10 as D10_FACES
from rules.luck import Luck

if TYPE_CHECKING:  # the models import this registry: the table's types are named, never imported, here
    from gmtools.composer import Composition, Spend
    from gmtools.models import Aspect, Campaign, Character, Roll, Scene


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


def no_verdict(result: Params) -> tuple[str, str] | None:
    """A game whose outcomes all read as their ``outcome_words``."""
    return None


def no_contest_mark(main: Params, winner: str | None) -> tuple[str, str] | None:
    """A game whose dice add nothing to a contest's verdict."""
    return None


def sheet_part(category: str, default: int, *labels: tuple[str, Promise]) -> tuple[StandardTrait, ...]:
    """Standard traits of one category, all starting at ``default``, from (key, label) pairs."""
    return tuple(StandardTrait(key, category, label, default) for key, label in labels)


# --- sheets, characters and campaigns (issue 12): the parts of a game that GameSystem holds -----

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
    rating_bounds_for: Callable[[str, Bounds, Any], Bounds] | None = None
    # Traits a GM adds by hand that the game's books name (V5's Disciplines and Backgrounds), by
    # English name in lower case: such a trait reads in the active language; any other as typed.
    known_names: Mapping[str, Promise] = field(default_factory=dict)
    # Whether its characters have aspects (Fate's), and the kinds a new character's sheet asks for first.
    aspects: bool = False
    starting_aspects: tuple[str, ...] = ()


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


# --- playing at the table (issue 12): what a game adds to rolling, spending and following up ---

class Ledger(Protocol):
    """What a log entry's spends are given back to, and its gains taken back from (``SpendKind.give_back``,
    ``TablePlay.take_back``): the database when the GM voids the entry (``gmtools.services``: each row
    locked, then written), or the players' copy of the table while the entry is a secret roll not yet
    revealed (``gmtools.board.PlayersCopy``: their cards show the table as it was before it). A game
    reads and writes through it alone, so that voiding a roll and keeping its spends from the players
    are one piece of knowledge of what the roll spent and gained."""

    def character(self, pk: int | None) -> "Character | None":
        """The character to give back to (locked), or None when there is none (deleted since)."""

    def update(self, character: "Character", **fields: Any) -> None:
        """Set the character's resource columns (``character.resources``)."""

    def aspect(self, pk: int | None) -> "Aspect | None":
        """The aspect (locked), or None when it is gone."""

    def update_aspect(self, aspect: "Aspect", **fields: Any) -> None:
        """Set the aspect's fields."""

    def delete_aspect(self, aspect: "Aspect") -> None:
        """Take the aspect off the table."""

    def make_aspect(self, **fields: Any) -> None:
        """Put an aspect (back) on the table."""

    def scene_open(self, pk: int | None) -> bool:
        """Whether that scene is still in play."""


def spend_label(spend: Mapping[str, Any]) -> str:
    """A spend without words of its own: the label it was logged with (an aspect's text), else its kind."""
    return str(spend.get("label") or spend.get("what", ""))


@dataclass(frozen=True, kw_only=True)
class SpendKind:
    """One kind of resource a roll spends (``Spend.what``: Exalted's Willpower, a Fate point, ...)."""

    # Pay one for the spend's character (locked), through the table: what the log adds to the
    # spend's record; raises ``Refused`` when there is none to spend. None: only ever logged, never
    # paid through a roll (a rouse check's Hunger).
    pay: Callable[[Table, "Character", "Spend"], dict[str, Any]] | None = None
    # Give one logged spend (its record) of a log entry back (see ``Ledger``).
    give_back: Callable[["Roll", dict[str, Any], Ledger], None]
    # The spend in words, in the viewer's language: never a stored key, nor a label stored in the
    # language the roll was made in ("1 Willpower"); "" leaves it out of the card's "Spent" line.
    words: Callable[[Mapping[str, Any]], str] = spend_label


def character_spend(give_back: Callable[["Character", dict[str, Any]], dict[str, Any]],
                    pay: Callable[["Character"], dict[str, Any]] | None = None,
                    words: Callable[[Mapping[str, Any]], str] = spend_label) -> SpendKind:
    """A spend of the paying character's own resource: ``pay`` says what its resource columns
    become (or raises ``Refused``: none left), ``give_back`` what they become again when the
    entry is voided (each within the sheet's bounds; a character deleted since gets nothing)."""
    def paid(table: Table, character: "Character", spend: "Spend") -> dict[str, Any]:
        table.update(character, **pay(character))
        return {}

    def given_back(entry: "Roll", spend: dict[str, Any], ledger: Ledger) -> None:
        character = ledger.character(spend.get("character") or entry.character_id)
        if character is not None:
            ledger.update(character, **give_back(character, spend))

    return SpendKind(pay=paid if pay is not None else None, give_back=given_back, words=words)


@dataclass(frozen=True, kw_only=True)
class FollowUp:
    """Something a logged roll's card offers after the roll: V5's Willpower reroll, a Fate
    invocation, an Exalted stunt reward. Its entry follows the roll in the log (``Roll.parent``),
    once per roll (a database constraint on its ``kind``)."""

    # The log entry's kind (``RollKind``), which the card's form posts to and voiding reads.
    kind: str
    # The form the card shows for it (a template partial: ``games/<game>/card.html#<kind>``).
    form: str
    # Whether a roll with a character, not voided nor followed up that way yet, shows the form.
    offered: Callable[["Roll"], bool]
    # Which rolls it may follow at all; the others are refused with ``refusal``.
    applies: Callable[["Roll"], bool]
    # Do it, once the roll is locked, in the caller's transaction: (the table, the roll, the random
    # source, the form's fields as keywords) -> the new entry. It pays what it spends (``Table.pay``)
    # and logs the entry (``Table.log_follow_up``), or raises ``Refused``.
    take: Callable[..., "Roll"]
    # Why a roll it cannot follow is refused, in the words of its game (also for another game's roll).
    refusal: Promise


@dataclass(frozen=True, kw_only=True)
class CharacterCheck:
    """A roll made from a character's card rather than the composer (V5's rouse check)."""

    kind: str  # the log entry's kind (``RollKind``)
    # Lock the character, roll, pay and log it through the table, in the caller's transaction: the new entry.
    take: Callable[[Table, "Character", RandomSource | None], "Roll"]
    # Why a character of a game without it is refused, in the words of its game.
    refusal: Promise


# --- luck and fair dice (issue 14): what the statistics ask of a game ------------------------

@dataclass(frozen=True, kw_only=True)
class Die:
    """A kind of die a game throws, tested apart for fairness (``rules.fairness``)."""

    code: str  # what ``TablePlay.thrown`` names it by
    # How many were thrown, in words: a ``ngettext_lazy`` chosen by ``count`` whose text shows
    # ``dice``, the count as the language writes it ("1,204 d10s").
    name: Promise
    # Its faces (``rules.fairness.fair_dice``); () for a deck of cards dealt without replacement,
    # whose draws are (card, reshuffled before it) pairs (``rules.fairness.fair_deck``).
    faces: tuple[int, ...] = ()


D10 = Die(code="d10", name=ngettext_lazy("%(dice)s d10", "%(dice)s d10s", "count"), faces=D10_FACES)


@dataclass(frozen=True, kw_only=True)
class Spent:
    """A resource the statistics count as spent: from the rolls' spends (``Spend.what``) and the
    one-click changes (``TablePlay.adjustments``) that spend one each."""

    label: Promise
    spends: tuple[str, ...] = ()
    adjustments: tuple[str, ...] = ()


def no_luck(entry: Mapping[str, Any], state: dict[str, Any]) -> Luck | None:
    """A game that stores no luck."""
    return None


@dataclass(frozen=True)
class AdjustmentWords:
    """A one-click change in words: what the Undo button says was done ("Willpower −1"), and what
    the card's −/+ button does, its tooltip and its name for screen readers ("Spend 1 Willpower";
    None reads as what was done)."""

    done: Promise | str
    button: Promise | str | None = None


@dataclass(frozen=True, kw_only=True)
class TablePlay:
    """How a game plays at the table beyond its engine's ``roll``: what ``gmtools.services``,
    ``gmtools.board`` and the log's cards ask of it. Every field has the default of a game that
    has none of it (a plain pool of dice), so a game fills in only what it adds.

    One small dataclass rather than loose fields of ``GameSystem``: it is imported when first
    asked (``GameSystem.at_table``), since most of it reads and writes the models.
    """

    # Rolling (``services.record_roll``). What a composer's shortcut gives instead of rolling, by
    # shortcut (Exalted's automatic success, V5's taking half): (request, under stress) -> result.
    shortcuts: Mapping[str, Callable[[Any, bool], Any]] = field(default_factory=dict)
    # How the dice fall when the game does not roll them with its engine (Fate: the campaign's
    # deck): (campaign id, request, random source) -> (result, what the log adds). Runs in the
    # roll's transaction (it may lock the campaign). None: the engine's ``roll``.
    roll: Callable[[int, Any, RandomSource | None], tuple[Any, dict[str, Any]]] | None = None
    # A contest's summary (``{"net", "winner", ...}``, see ``contest``) from both sides'
    # results and the successes taken from each first (Exalted's handicap). None: the difference of
    # the ``judged_field``s.
    opposed: Callable[[Any, Any, tuple[int, int]], dict[str, Any]] | None = None
    # What the game adds to a roll's log entry once rolled (Fate: its action's effect, the aspects
    # invoked, the advantage created): (the table, campaign, scene, composition, result, document so far).
    logged: Callable[[Table, "Campaign", "Scene | None", "Composition", Any, dict[str, Any]], dict[str, Any]] | None = None
    # The turn's action every roll logs, for a game whose composer's ``action`` is something else
    # (Fate's four actions are no budget slots). None: the composition's own.
    logged_action: str | None = None
    # Whether a roll into an extended action botched it: (result, the action's difficulty). None:
    # an outcome of "botch" (scifi judges a fumble against the action's own difficulty).
    extended_botch: Callable[[Any, int], bool] | None = None
    # Why the game refuses an extended action (read when ``GameSystem.extended_actions`` is false: its engine prices none).
    extended_refusal: Promise | None = None

    # Spending and following up. The kinds of resource its rolls spend, by ``Spend.what``.
    spends: Mapping[str, SpendKind] = field(default_factory=dict)
    # What giving a log entry back takes back beyond its spends (Fate: the advantage it created;
    # Exalted: what a stunt reward regained), through the ``Ledger`` (see ``give_back``).
    take_back: Callable[["Roll", Ledger], None] | None = None
    follow_ups: tuple[FollowUp, ...] = ()
    checks: tuple[CharacterCheck, ...] = ()
    # The character card's one-click changes (spend, regain, damage, heal...), by action: the
    # fields to write on the (locked) character, or ``Refused``.
    adjustments: Mapping[str, Callable[["Character"], dict[str, Any]]] = field(default_factory=dict)
    # ... and those that take a text the GM types (Fate's consequences).
    text_adjustments: Mapping[str, Callable[["Character", str], dict[str, Any]]] = field(default_factory=dict)
    # Both kinds in words, by action; an action without words reads as its code.
    adjustment_words: Mapping[str, AdjustmentWords] = field(default_factory=dict)

    def adjustment_done(self, action: str) -> str:
        """What the Undo button says the change did: "Willpower −1"."""
        words = self.adjustment_words.get(action)
        return str(words.done) if words else action

    def adjustment_button(self, action: str) -> str:
        """What the card's button for the change does: "Spend 1 Willpower"."""
        words = self.adjustment_words.get(action)
        return str(words.button or words.done) if words else action

    # The turn (``gmtools.board``). Whether a character has used up its turn with these rolls
    # (Exalted: its declared actions; scifi: its action slots). None: one roll.
    turn_done: Callable[["Character", list["Roll"]], bool] | None = None
    # The action slots these rolls took (scifi), shown on the character's card. None: none counted.
    turn_slots: Callable[[list["Roll"]], int] | None = None
    # Whether scenes hold situation aspects and boosts (Fate).
    situation_aspects: bool = False

    # Drawing. The face from which a die shows as a hit on the card. None: no die does.
    hit_face: int | None = None
    # The card's dice, for a game whose dice are no numbers (Fate): each ``{"face", "label", "css"}``.
    card_dice: Callable[[Mapping[str, Any]], list[dict[str, Any]]] | None = None
    # The dice as the recap writes them, for such a game.
    dice_text: Callable[[Mapping[str, Any]], str] | None = None
    # Template partials the table includes when the game has them; "" includes nothing.
    card_details: str = ""  # lines under a card's spends (Fate: invoked aspects, the advantage made)
    switch: str = ""  # the time bar's switch, its words (Fate: draw from the deck; scifi: the adventure)
    scene_extras: str = ""  # the GM's time bar, beside the scene's notes (Fate: its aspects)
    party_card: str = ""  # a character's resources on the players' view
    player_where: str = ""  # beside the scene on the players' view (scifi: the adventure open)

    # Luck and fair dice (issue 14). A roll's luck (``rules.luck``), stored with it (``Roll.luck``):
    # (campaign id, the request, its result, the log's document so far) -> ``Luck``, or None when
    # nothing was rolled. Runs in the roll's transaction (Fate reads the deck its card came from).
    # None: the game stores no luck. Its follow-ups and checks store theirs themselves.
    luck: Callable[[int, Any, Any, Mapping[str, Any]], Luck | None] | None = None
    # The same for an entry logged before luck was stored, from what the log kept (the data
    # migration, ``gmtools.luck.backfill``): ({"kind", "request", "result"}, a dict the game keeps
    # over one campaign's entries, oldest first) -> Luck, or None when they do not allow it.
    stored_luck: Callable[[Mapping[str, Any], dict[str, Any]], Luck | None] = no_luck
    # The kinds of die its rolls throw, and which faces a logged entry threw of each:
    # (the entry's kind, its stored result) -> (die code, faces) pairs. Each face once: a follow-up
    # gives only the dice it threw anew. None: no dice to test.
    dice: tuple[Die, ...] = ()
    thrown: Callable[[str, Mapping[str, Any]], Iterable[tuple[str, Iterable[Any]]]] | None = None
    # The resources the statistics count as spent (Willpower, fate points).
    spent: tuple[Spent, ...] = ()

    def spend_text(self, spend: Mapping[str, Any]) -> str:
        """One logged spend in words (``SpendKind.words``)."""
        kind = self.spends.get(spend.get("what", ""))
        return kind.words(spend) if kind is not None else spend_label(spend)

    def spends_text(self, spends: Iterable[Mapping[str, Any]]) -> list[str]:
        """What a log entry spent, in words, each spend that has some."""
        return [text for text in map(self.spend_text, spends) if text]

    def give_back(self, entry: "Roll", ledger: Ledger) -> None:
        """What one log entry spent comes back and what it gained goes, each within the sheet's
        bounds: each spend as its kind gives it back, then what the game takes back. Voiding the entry
        does it in the database; the players' view, in their copy of the table while it is secret."""
        for spend in entry.spends:
            kind = self.spends.get(spend.get("what"))
            if kind is not None:
                kind.give_back(entry, spend, ledger)
        if self.take_back is not None:
            self.take_back(entry, ledger)


@dataclass(frozen=True, kw_only=True)
class GameSystem:
    """One game, as the core sees it. Issue 12 moves more of each game here, one piece at a time."""

    # The id the campaign stores (a ``Game`` value, also the ``rules`` system's name).
    id: str
    # Its mechanics: the ``rules`` module (pure, Django-free) whose ``Request`` the composer builds and
    # whose ``roll`` and ``odds`` the table calls. A game the engine does not ship brings its own.
    engine: Any
    # The trait categories its sheet has, in the order the sheet shows them.
    categories: tuple[str, ...]
    # The standard traits every character of the game has, in sheet order, with their starting ratings.
    standard_sheet: tuple[StandardTrait, ...]
    # The resource columns (``resources``), with the values they return to, that the end of a scene resets.
    scene_clears: Mapping[str, Any] = field(default_factory=dict)
    # The demo campaign ``load_demo`` creates for the game.
    demo: DemoCampaign
    # The engine's notes (``rules.dice.Note``: ``{"code": ..., "text": ..., **params}``) in the active
    # language, by code; ``gmtools.notes.note_text`` reads them. Each line has the game as gettext
    # context. A code two games share is told apart by its parameters (exalted's ``opposed_win``
    # has ``net``, scifi's ``victory``): a line raises when they do not fit, and the next game's is tried.
    note_texts: Mapping[str, Line] = field(default_factory=dict)
    # What an action's outcome does (Fate's action table, ``rules.fate.Effect``), by code.
    effect_texts: Mapping[str, Line] = field(default_factory=dict)
    # The engine's refusals (``RulesError.code``) a GM meets at the table, by code.
    refusal_texts: Mapping[str, Line] = field(default_factory=dict)
    # Words the game says its own way, by English word ("Willpower" is *Voluntad* in Exalted, *Fuerza
    # de Voluntad* in Vampire); ``gmtools.notes.game_term`` falls back to ``pgettext(id, word)``.
    terms: Mapping[str, Promise] = field(default_factory=dict)
    # A roll's verdict (``gmtools.verdicts``): each stored ``outcome`` in the game's words, with its
    # tone (good, best, neutral, bad or worst); an outcome without words reads as its code, neutral.
    outcome_words: Mapping[str, tuple[Promise, str]] = field(default_factory=dict)
    # (text, tone) for the results the outcome alone does not say (an Exalted botch's ones, a V5
    # critical or bestial result, a scifi degree), or None to read ``outcome_words``.
    verdict_of: Callable[[Params], tuple[str, str] | None] = no_verdict
    # What a tie in a contest means in the game; None reads "Tie".
    tie_words: Promise | None = None
    # How a contest's winner won (``opposed.victory``), for a game whose contests say it.
    victory_words: Mapping[str, Promise] = field(default_factory=dict)
    # What a result's ``degree`` means, for a game whose degrees read alike in translation.
    degree_hints: Mapping[str, Promise] = field(default_factory=dict)
    # The count a lone roll's verdict stands beside (a Fate total and shifts, a V5 rouse check's
    # Hunger), from its stored result; None (or an answer of None) counts successes and the margin.
    count_of: Callable[[Params], str | None] | None = None
    # The field of a stored result that holds the number its verdict judged (Fate: ``total``).
    judged_field: str = "successes"
    # For a game whose contests read as its outcomes (Fate: shifts against the other side's total):
    # (outcome text, tone, count) from this side's result, the other side's and the net; None reads
    # a contest by its winner, in successes.
    contest_of: Callable[[Params, Params, int], tuple[str, str, str]] | None = None
    # What the dice add to a contest's verdict (an Exalted botch, a V5 critical or bestial result, a
    # scifi fumble), from this side's result and the winner (first, second or None): (words, tone)
    # to add, or None to add nothing.
    contest_mark: Callable[[Params, str | None], tuple[str, str] | None] = no_contest_mark
    # For a game whose contests take successes away from each side first (``opposed.handicap``,
    # Exalted): the line that says n were taken from a name. None: a contest takes none away.
    taken_away: Callable[[int, str], str] | None = None
    # Its special results (``rules.luck.Special.code``: "botch", "messy_critical"...) in its words;
    # a code without words reads as the code.
    special_words: Mapping[str, Promise] = field(default_factory=dict)

    # --- sheets, characters and campaigns (issue 12) ---
    # Small parts rather than loose fields: each is what one core module reads (``gmtools.sheets``
    # the sheet rules; the models, the admin and the character panel the columns;
    # ``gmtools.characters`` the NPCs), and each part's defaults are a game without that feature.
    # The game's name, as the campaign form and the admin offer it; "" offers its id.
    label: Promise | str = ""
    sheet: SheetRules = field(default_factory=SheetRules)
    # A character's resources (Willpower, Hunger, fate points, health), with what derives from them.
    resources: Columns = field(default_factory=Columns)
    # The campaign's own state in the game, and its table switch.
    state: StateColumns = field(default_factory=StateColumns)
    npcs: Npcs = field(default_factory=Npcs)
    # --- playing at the table (issue 12) ---
    # How the game plays at the table (``TablePlay``), or the dotted path of one in the game's
    # package: that code reads and writes the models, which import this registry, so it is
    # imported when first asked, as Django loads a database backend. A plain pool needs none.
    table: TablePlay | str = field(default_factory=TablePlay)

    @cached_property
    def at_table(self) -> TablePlay:
        """How the game plays at the table (``table``, imported on first use)."""
        return import_string(self.table) if isinstance(self.table, str) else self.table
    # --- the roll composer and its odds (issue 12) ---
    # The dotted path of the module whose ``COMPOSER`` (a ``gmtools.composer.ComposerPart``) is the
    # game's part of the roll composer: its own fields and difficulties, how its choices become the
    # engine's request and spends, its odds panel. Imported on first use (``gmtools.composer.part_of``),
    # as Django imports a database backend from its ENGINE path: a part's fields and turn checks need
    # the models, which import this registry. Empty: the composer's shared fields alone, a pool of the
    # engine's dice against a difficulty (``ComposerPart()``).
    composer_module: str = ""

    @property
    def opposed_rolls(self) -> bool:
        """Whether the composer offers an opposing side: the engine prices a contest (``contest``)."""
        return hasattr(self.engine, "contest")

    @property
    def extended_actions(self) -> bool:
        """Whether rolls go into extended actions: the engine prices them (``extended``)."""
        return hasattr(self.engine, "extended")

    @cached_property
    def standard_traits(self) -> dict[str, StandardTrait]:
        """The standard sheet by key."""
        return {trait.key: trait for trait in self.standard_sheet}
