"""How a game plays at the table beyond its engine's ``roll`` (``BasePlay``): what the workflows
(``gmtools.services``), the board (``gmtools.board``), the statistics and the log's cards ask of it,
and the values it exchanges with them: the kinds of resource its rolls spend (``SpendKind``), what its
cards offer after a roll (``FollowUp``) or beside a character (``CharacterCheck``), its one-click changes
in words (``AdjustmentWords``), the dice it throws (``Die``) and what the statistics count as spent.

A game calls back into the table only through the ``Table`` each callback is handed (writes, in the
caller's transaction) or the ``Ledger`` (what a log entry gave back), never by importing the core.
Every default is a game without that feature: a plain pool of dice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from django import forms
from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext_lazy, pgettext, pgettext_lazy

from gmtools.games.base.table import Table, contest
from rules.dice import Entry, RandomSource
from rules.fairness import D10 as D10_FACES
from rules.luck import Luck

if TYPE_CHECKING:  # the table's rows are named, never imported, here
    from gmtools.games.base.composer import Composition, Spend
    from gmtools.games.base.game import BaseGame
    from django.db.models import QuerySet

    from gmtools.models import Campaign, Character, Roll, Scene


class Ledger(Protocol):
    """What a log entry's spends are given back to, and its gains taken back from (``SpendKind.give_back``,
    ``BasePlay.take_back``): the database when the GM voids the entry (``gmtools.services``: each row
    locked, then written), or the players' copy of the table while the entry is a secret roll not yet
    revealed (``gmtools.board.PlayersCopy``: their cards show the table as it was before it). A game
    reads and writes through it alone, so that voiding a roll and keeping its spends from the players
    are one piece of knowledge of what the roll spent and gained."""

    def character(self, pk: int | None) -> Character | None:
        """The character to give back to (locked), or None when there is none (deleted since)."""

    def update(self, character: Character, **fields: Any) -> None:
        """Set the character's resource columns (``character.resources``)."""

    # A game's own rows of the table (Fate's aspects): of a character (``SheetRules.rows``, a
    # ``character`` foreign key) or of the scene in play (``BasePlay.scene_rows``, a ``scene`` one).

    def row[M: models.Model](self, model: type[M], pk: int | None) -> M | None:
        """The row (locked), or None when it is gone."""

    def update_row(self, row: models.Model, **fields: Any) -> None:
        """Set the row's columns."""

    def delete_row(self, row: models.Model) -> None:
        """Take the row off the table."""

    def make_row(self, model: type[models.Model], **fields: Any) -> None:
        """Put a row (back) on the table: of a character, or of the scene in play."""

    def scene_open(self, pk: int | None) -> bool:
        """Whether that scene is still in play."""


# The kind of log entry of a roll made with the composer; each follow-up and check names its own.
ROLL = "roll"


def spend_label(spend: Mapping[str, Any]) -> str:
    """A spend without words of its own: the label it was logged with (an aspect's text), else its kind."""
    return str(spend.get("label") or spend.get("what", ""))


@dataclass(frozen=True, kw_only=True)
class SpendKind:
    """One kind of resource a roll spends (``Spend.what``: Exalted's Willpower, a Fate point, ...)."""

    # Pay one for the spend's character (locked), through the table: what the log adds to the
    # spend's record; raises ``Refused`` when there is none to spend. None: only ever logged, never
    # paid through a roll (a rouse check's Hunger).
    pay: Callable[[Table, Character, Spend], dict[str, Any]] | None = None
    # Give one logged spend (its record) of a log entry back (see ``Ledger``).
    give_back: Callable[[Roll, dict[str, Any], Ledger], None]
    # The spend in words, in the viewer's language: never a stored key, nor a label stored in the
    # language the roll was made in ("1 Willpower"); "" leaves it out of the card's "Spent" line.
    words: Callable[[Mapping[str, Any]], str] = spend_label


def character_spend(give_back: Callable[[Character, dict[str, Any]], dict[str, Any]],
                    pay: Callable[[Character], dict[str, Any]] | None = None,
                    words: Callable[[Mapping[str, Any]], str] = spend_label) -> SpendKind:
    """A spend of the paying character's own resource: ``pay`` says what its resource columns
    become (or raises ``Refused``: none left), ``give_back`` what they become again when the
    entry is voided (each within the sheet's bounds; a character deleted since gets nothing)."""
    def paid(table: Table, character: Character, spend: Spend) -> dict[str, Any]:
        assert pay is not None
        table.update(character, **pay(character))
        return {}

    def given_back(entry: Roll, spend: dict[str, Any], ledger: Ledger) -> None:
        character = ledger.character(spend.get("character") or entry.character_id)
        if character is not None:
            ledger.update(character, **give_back(character, spend))

    return SpendKind(pay=paid if pay is not None else None, give_back=given_back, words=words)


class FollowUpForm(forms.Form):
    """What the GM chose on a card's form for a follow-up: its cleaned data are the keywords its
    ``take`` is given. It knows the roll it follows and the scene in play (what it may offer)."""

    def __init__(self, *args: Any, roll: Roll, scene: Scene | None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.roll, self.scene = roll, scene


@dataclass(frozen=True, kw_only=True)
class FollowUp:
    """Something a logged roll's card offers after the roll: V5's Willpower reroll, a Fate
    invocation, an Exalted stunt reward. Its entry follows the roll in the log (``Roll.parent``),
    once per roll (a database constraint on its ``kind``)."""

    # The log entry's kind (a slug: the card's form posts to ``rolls/<id>/follow-up/<kind>/``), and
    # what it is in words ("Willpower reroll"), beside the entry's label on its card and in the exports.
    kind: str
    label: Promise
    # The form the card shows for it (a template partial: ``games/<game>/card.html#<kind>``), and
    # the form that reads what it posts. The answer is the roll's own card, its follow-ups lines on
    # it: the form swaps it in place (``hx-target="closest .roll-card" hx-swap="outerHTML"``).
    form: str
    form_class: type[FollowUpForm] = FollowUpForm
    # Whether a roll with a character, not voided nor followed up that way yet, shows the form.
    offered: Callable[[Roll], bool]
    # Which rolls it may follow at all; the others are refused with ``refusal``.
    applies: Callable[[Roll], bool]
    # Do it, once the roll is locked, in the caller's transaction: (the table, the roll, the random
    # source, the form's fields as keywords) -> the new entry. It pays what it spends (``Table.pay``)
    # and logs the entry (``Table.log_follow_up``), or raises ``Refused`` (or the engine's
    # ``RulesError``, which the workflow says in the GM's words).
    take: Callable[..., Roll]
    # Why a roll it cannot follow is refused, in the words of its game (also for another game's roll).
    refusal: Promise
    # For an entry that throws no dice (an Exalted stunt reward), what its card and the exports say
    # instead of dice and a verdict ("Regained 2 motes"); None: its dice and verdict.
    verdict: Callable[[Roll], str] | None = None
    # Whether the roll's player may take it from the phone on their own roll (issue 24: V5's reroll, a
    # Fate invocation); False for what the GM grants (an Exalted stunt reward), the GM's card alone.
    by_players: bool = True
    # The dice it throws for the form's choice (its cleaned data), as entered when the roll it follows
    # was thrown with real dice (issue 24: ``gmtools.physical``; V5's rerolled dice, Fate's four for a
    # reroll); None: it throws none (Fate's +2, a stunt reward), so no faces are asked for.
    entry: Callable[[Roll, Mapping[str, Any]], Entry | None] = lambda parent, choice: None


@dataclass(frozen=True, kw_only=True)
class CharacterCheck:
    """A roll made from a character's card rather than the composer (V5's rouse check)."""

    kind: str  # the log entry's kind (a slug: the card posts to ``characters/<id>/check/<kind>/``)
    label: Promise  # what it is in words ("Rouse check")
    # Lock the character, roll, pay and log it through the table, in the caller's transaction: the new entry.
    take: Callable[[Table, Character, RandomSource | None], Roll]
    # Why a character of a game without it is refused, in the words of its game.
    refusal: Promise
    # The dice it throws, entered when the table throws real dice (issue 24; the rouse check's one d10).
    entry: Entry | None = None


@dataclass(frozen=True, kw_only=True)
class SceneChange:
    """A change the GM makes to the scene in play from the time bar (Fate: a situation aspect added
    or removed). The time bar posts its form to ``scene/change/<kind>/``; the table locks the scene,
    refuses one that has ended, and tells the viewers the time bar changed."""

    kind: str  # a slug, the route's
    form_class: type[forms.Form]  # reads what the time bar posts; its cleaned data are ``take``'s keywords
    # Write the change in the caller's transaction (the scene row locked): what it made, or ``Refused``.
    take: Callable[..., object]
    # Why a campaign of a game without it is refused, in the words of its game.
    refusal: Promise
    # A client event the answer triggers besides the time bar redrawn (Fate: the composer redraws
    # its aspects to invoke); "" for none.
    event: str = ""


@dataclass(frozen=True, kw_only=True)
class Die:
    """A kind of die a game throws, tested apart for fairness (``rules.fairness``)."""

    code: str  # what ``BasePlay.thrown`` names it by
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
    one-click changes (``BasePlay.adjustments``) that spend one each."""

    label: Promise
    spends: tuple[str, ...] = ()
    adjustments: tuple[str, ...] = ()


@dataclass(frozen=True)
class AdjustmentWords:
    """A one-click change in words: what the Undo button says was done ("Willpower −1"), and what
    the card's −/+ button does, its tooltip and its name for screen readers ("Spend 1 Willpower";
    None reads as what was done)."""

    done: Promise | str
    button: Promise | str | None = None


def _die_class(hit: int | None, face: int, hunger: bool = False) -> str:
    """What a face means as a CSS class (a hit from the game's ``hit_face``): the card draws dice, not numbers in a list."""
    classes = ["die"]
    if hit is not None and face >= hit:
        classes.append("die-hit")
    if face == 10:
        classes.append("die-ten")
    if face == 1:
        classes.append("die-one")
    if hunger:
        classes.append("die-hunger")
    return " ".join(classes)


def _die_words(hit: int | None, face: int, ten: Promise | None, hunger: bool = False) -> str:
    """What a die says to a screen reader, which reads no colour: "7, success", "10, double", "Hunger 1, failure"
    (its meaning from the game's ``hit_face`` and ``ten_words``; a game with no hits says the face alone)."""
    if hit is None:
        meaning = ""
    elif face == 10 and ten is not None:
        meaning = str(ten)
    else:
        meaning = pgettext("die", "success") if face >= hit else pgettext("die", "failure")
    if hunger:
        return (gettext("Hunger %(face)s, %(meaning)s") if meaning else gettext("Hunger %(face)s")) % {"face": face, "meaning": meaning}
    return gettext("%(face)s, %(meaning)s") % {"face": face, "meaning": meaning} if meaning else str(face)


class BasePlay:
    """How a game plays at the table (``BaseGame.play``), handed its game."""

    # --- rolling (``services.record_roll``) ---
    # What a composer's shortcut gives instead of rolling, by shortcut (Exalted's automatic success,
    # V5's taking half): (request, under stress) -> result.
    shortcuts: Mapping[str, Callable[[Any, bool], Any]] = {}
    # The turn's action every roll logs, for a game whose composer's ``action`` is something else
    # (Fate's four actions are no budget slots). None: the composition's own.
    logged_action: str | None = None
    # Why the game refuses an extended action (read when ``BaseGame.extended_actions`` is false: its engine prices none).
    extended_refusal: Promise | None = None

    # --- spending and following up ---
    # The kinds of resource its rolls spend, by ``Spend.what``.
    spends: Mapping[str, SpendKind] = {}
    follow_ups: tuple[FollowUp, ...] = ()
    checks: tuple[CharacterCheck, ...] = ()
    # The character card's one-click changes (spend, regain, damage, heal...), by action: the
    # resource columns to write on the (locked) character, or ``Refused``.
    adjustments: Mapping[str, Callable[[Character], dict[str, Any]]] = {}
    # ... and those that take a text the GM types (Fate's consequences), and who did it (Fate: who
    # inflicted the consequence; None when not said).
    text_adjustments: Mapping[str, Callable[[Character, str, str | None], dict[str, Any]]] = {}
    # Both kinds in words, by action; an action without words reads as its code.
    adjustment_words: Mapping[str, AdjustmentWords] = {}

    # --- the turn, the scene ---
    # What the time bar may change of the scene in play besides its notes (Fate: its aspects).
    scene_changes: tuple[SceneChange, ...] = ()

    # --- drawing ---
    # The face from which a die shows as a hit on the card. None: no die does.
    hit_face: int | None = None
    # What a 10 is, said to a screen reader ("10, double"). None: a hit like any other.
    ten_words: Promise | None = None
    # Template partials the table includes when the game has them; "" includes nothing.
    card_details = ""  # lines under a card's spends (Fate: invoked aspects, the advantage made)
    switch = ""  # the time bar's switch, its words (Fate: draw from the deck; scifi: the adventure)
    scene_extras = ""  # the GM's time bar, beside the scene's notes (Fate: its aspects)
    party_card = ""  # a character's resources on the players' view
    player_where = ""  # beside the scene on the players' view (scifi: the adventure open)
    player_scene = ""  # under the scene's notes on the players' view, its ``scene_rows`` (Fate: its aspects)

    # --- luck and fair dice (issue 14) ---
    # The kinds of die its rolls throw (``thrown`` names them), tested apart for fairness.
    dice: tuple[Die, ...] = ()
    # The resources the statistics count as spent (Willpower, fate points, Exalted's stunts).
    spent: tuple[Spent, ...] = ()

    def __init__(self, game: BaseGame) -> None:
        self.game = game

    # --- rolling ---

    def roll(self, campaign_id: int, request: Any, rng: RandomSource | None) -> tuple[Any, dict[str, Any]]:
        """How the dice fall, and what the log adds of it (Fate: the card drawn from the campaign's
        deck). Runs in the roll's transaction (it may lock the campaign)."""
        return self.game.engine.roll(request, rng), {}

    def entry(self, request: Any) -> Entry | None:
        """The physical dice its roll of ``request`` reads (``rules.dice.Entry``), for "I rolled real
        dice"; None: the game takes no physical dice."""
        return None

    def opposed(self, first: Any, second: Any, handicap: tuple[int, int]) -> dict[str, Any]:
        """A contest's summary (``{"net", "winner", ...}``: ``contest``) from both sides' results and
        the successes taken from each first (Exalted's handicap): the difference of what the game's
        verdicts judge (``BaseGame.judged_field``)."""
        field = self.game.judged_field
        return contest(getattr(first, field) - getattr(second, field))

    def logged(self, table: Table, campaign: Campaign, scene: Scene | None, comp: Composition, main: Any,
               document: dict[str, Any]) -> dict[str, Any]:
        """What the game adds to a roll's log entry once rolled (Fate: its action's effect, the
        aspects invoked, the advantage created), through the table, in the roll's transaction."""
        return {}

    def extended_botch(self, main: Any, difficulty: int) -> bool:
        """Whether a roll into an extended action of that difficulty botched it."""
        return str(main.outcome) == "botch"

    def scene_rows(self, scene: Scene) -> QuerySet[Any] | None:
        """The game's own rows of the scene in play (a ``scene`` foreign key) that its time bar and the
        players' view show, ``scene_rows`` in their context (Fate: its situation aspects and boosts).
        None: the game has none."""
        return None

    def scenes_ending(self, scenes: QuerySet[Scene]) -> None:
        """What the game clears of its own when these scenes end (in the caller's transaction, before
        they are marked ended), beyond its characters' ``BaseGame.scene_clears`` (Fate: the situation
        aspects and boosts, those put on a character too)."""

    # --- spending and following up ---

    def follow_up(self, kind: str) -> FollowUp | None:
        """Its follow-up of that kind, if it has one."""
        return next((offer for offer in self.follow_ups if offer.kind == kind), None)

    def check(self, kind: str) -> CharacterCheck | None:
        """Its character check of that kind, if it has one."""
        return next((check for check in self.checks if check.kind == kind), None)

    def entry_label(self, kind: str) -> str:
        """A log entry's kind in words: a follow-up's or a check's label, else a roll's."""
        offer = self.follow_up(kind) or self.check(kind)
        return str(offer.label) if offer is not None else pgettext("kind of log entry", "Roll")

    def spend_text(self, spend: Mapping[str, Any]) -> str:
        """One logged spend in words (``SpendKind.words``)."""
        kind = self.spends.get(spend.get("what", ""))
        return kind.words(spend) if kind is not None else spend_label(spend)

    def spends_text(self, spends: Iterable[Mapping[str, Any]]) -> list[str]:
        """What a log entry spent, in words, each spend that has some."""
        return [text for text in map(self.spend_text, spends) if text]

    def take_back(self, entry: Roll, ledger: Ledger) -> None:
        """What giving a log entry back takes back beyond its spends (Fate: the advantage it created;
        Exalted: what a stunt reward regained), through the ``Ledger``."""

    def give_back(self, entry: Roll, ledger: Ledger) -> None:
        """What one log entry spent comes back and what it gained goes, each within the sheet's
        bounds: each spend as its kind gives it back, then what the game takes back. Voiding the entry
        does it in the database; the players' view, in their copy of the table while it is secret."""
        for spend in entry.spends:
            kind = self.spends.get(spend.get("what"))
            if kind is not None:
                kind.give_back(entry, spend, ledger)
        self.take_back(entry, ledger)

    def adjustment_done(self, action: str) -> str:
        """What the Undo button says the change did: "Willpower −1"."""
        words = self.adjustment_words.get(action)
        return str(words.done) if words else action

    def adjustment_button(self, action: str) -> str:
        """What the card's button for the change does: "Spend 1 Willpower"."""
        words = self.adjustment_words.get(action)
        return str(words.button or words.done) if words else action

    # --- the turn ---

    def turn_done(self, character: Character, rolls: list[Roll]) -> bool:
        """Whether a character has used up its turn with these rolls: one roll."""
        return bool(rolls)

    def turn_slots(self, rolls: list[Roll]) -> int:
        """The action slots these rolls took (scifi), shown on the character's card: none counted."""
        return 0

    # --- drawing ---

    def card_dice(self, result: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Each die of a stored result, in draw order: its face, label, CSS class (``hit_face``
        marks the hits) and words for a screen reader. Hunger dice are set apart and explosions chained after the pool: the first
        of each group gets a class the stylesheet spaces out (and marks with an arrow for explosions)."""
        hit, ten = self.hit_face, self.ten_words
        rerolled = set(result.get("rerolled", []))
        out: list[dict[str, Any]] = [
            {"face": f, "label": f, "css": _die_class(hit, f) + (" die-rerolled" if i in rerolled else ""), "index": i,
             "words": _die_words(hit, f, ten)}
            for i, f in enumerate(result.get("faces", []))]
        out += [{"face": f, "label": f, "css": _die_class(hit, f, hunger=True) + (" die-group" if i == 0 else ""),
                 "words": _die_words(hit, f, ten, hunger=True)}
                for i, f in enumerate(result.get("hunger_faces", []))]
        out += [{"face": f, "label": f, "css": _die_class(hit, f) + " die-explosion" + (" die-group" if i == 0 else ""),
                 "words": _die_words(hit, f, ten)}
                for i, f in enumerate(result.get("explosions", []))]
        return out

    def dice_text(self, result: Mapping[str, Any]) -> str:
        """One side's dice as the recap writes them: ``7 3 10 1 | hunger 10 6 → 10 8``."""
        text = " ".join(str(f) for f in result.get("faces", []))
        if result.get("hunger_faces"):
            text += (" | " if text else "") + gettext("hunger") + " " + " ".join(str(f) for f in result["hunger_faces"])
        if result.get("explosions"):
            text += " → " + " ".join(str(f) for f in result["explosions"])
        return text

    # --- luck and fair dice (issue 14) ---

    def luck(self, campaign_id: int, request: Any, result: Any, document: Mapping[str, Any]) -> Luck | None:
        """A roll's luck (``rules.luck``), stored with it (``Roll.luck``), or None when nothing was
        rolled. Runs in the roll's transaction (Fate reads the deck its card came from). Its follow-ups
        and checks store theirs themselves. None: the game stores no luck."""
        return None

    def stored_luck(self, entry: Mapping[str, Any], state: dict[str, Any]) -> Luck | None:
        """The same for an entry logged before luck was stored, from what the log kept (the data
        migration, ``gmtools.luck.backfill``): ``{"kind", "request", "result"}`` and a dict the game
        keeps over one campaign's entries, oldest first. None when they do not allow it."""
        return None

    def thrown(self, kind: str, result: Mapping[str, Any]) -> Iterable[tuple[str, Iterable[Any]]]:
        """Which faces a logged entry threw of each kind of die (``dice``): (die code, faces) pairs,
        each face once (a follow-up gives only the dice it threw anew). None thrown: no dice to test."""
        return ()

    def used(self, kind: str, result: Mapping[str, Any]) -> Iterable[str]:
        """What a logged entry used that its spends do not hold, named as ``Spent.spends`` names it
        (Exalted: a stunt), for the statistics' "Spent"."""
        return ()
