"""What the core asks of a game: the small, typed interface each module of ``gmtools.games`` fills in.

Like a Django database backend, a game is one module behind this interface, and the core (models,
services, views, templates) asks the game it is given instead of branching on it. This module
names no game; the registry (``gmtools.games``) is the one place that names them all.
"""

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.utils.functional import Promise

from gmtools.sheets import StandardTrait


# A note's (or an effect's, or a refusal's) parameters, as the engine wrote them.
Params = Mapping[str, Any]
# One line of the engine's explanations in the active language, from its parameters. It raises
# KeyError, ValueError, TypeError or IndexError when they do not fit (gmtools.notes then shows
# the engine's English text).
Line = Callable[[Params], str]


def signed(value: int) -> str:
    """+2, 0, −1: the typographic minus, as the roll card prints numbers."""
    return f"{value:+d}".replace("-", "\u2212") if value else "0"


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


@dataclass(frozen=True, kw_only=True)
class DemoCharacter:
    """A demo character, written as its sheet: the standard traits it rates, then those added by hand."""

    name: str
    ratings: Mapping[str, int]
    specialties: Mapping[str, str] = field(default_factory=dict)
    custom: tuple[tuple[str, str, int], ...] = ()  # (category, name, rating) of a trait added by hand
    aspects: tuple[tuple[str, str, int], ...] = ()  # (kind, text, free invocations)
    resources: Mapping[str, Any] = field(default_factory=dict)
    kind: str = "pc"
    player: str = ""
    concept: str = ""
    notes: str = ""


@dataclass(frozen=True, kw_only=True)
class DemoCampaign:
    """A game's demo campaign: its name, its characters, and the campaign's own per-game state."""

    name: str
    characters: tuple[DemoCharacter, ...]
    state: Mapping[str, Any] = field(default_factory=dict)


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
    # The character fields, with the values they return to, that the end of a scene resets.
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
    # The count a lone roll's verdict stands beside (a Fate total and shifts), from its stored result;
    # None counts successes and the margin.
    count_of: Callable[[Params], str] | None = None
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
