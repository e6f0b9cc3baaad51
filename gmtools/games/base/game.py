"""One game as the core sees it (``BaseGame``): the interface each game app fills in, the way a Django
database backend fills in ``BaseDatabaseWrapper`` with its features and operations.

A game is a subclass (``class V5(BaseGame)`` in ``gmtools/games/v5/game.py``): its features are class
attributes, each with a comment; its behaviour methods with a docstring and the default of a game
without that feature (a plain pool of the engine's dice). Its two larger parts are classes of their
own, handed the game as a backend's operations are handed the connection: its part of the roll
composer (``composer_class``: ``gmtools.games.base.composer.BaseComposer``) and how it plays at the
table (``play_class``: ``gmtools.games.base.play.BasePlay``). The registry (``gmtools.games``) makes
one of each game, from the game apps of ``INSTALLED_APPS``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from types import ModuleType
from typing import Any, ClassVar

from django.utils.functional import Promise

from gmtools.games.base.composer import BaseComposer
from gmtools.games.base.play import BasePlay
from gmtools.games.base.sheets import (
    CATEGORY_PLURALS, Columns, DemoCampaign, Line, Npcs, Params, SheetRules, StandardTrait, StateColumns, TraitCategory,
    line_text, refusal_line,
)


class BaseGame:
    """One game. A subclass sets what its game has; every default is a game without it."""

    # --- what it is ---
    # The id campaigns store (its app's label, and the ``rules`` system's name).
    id: ClassVar[str]
    # Its name, as the campaign form and the admin offer it.
    label: ClassVar[Promise | str]
    # Its mechanics: the ``rules`` module (pure, Django-free) whose ``Request`` the composer builds and
    # whose ``roll`` and ``odds`` the table calls; a game the engine does not ship brings its own.
    engine: ClassVar[ModuleType]
    # Its part of the composer and its play at the table (instances are handed the game).
    composer_class: ClassVar[type[BaseComposer]] = BaseComposer
    play_class: ClassVar[type[BasePlay]] = BasePlay

    # --- its sheet, characters and campaigns ---
    # The trait categories its sheet has, in the order the sheet shows them.
    categories: ClassVar[tuple[str, ...]]
    # The standard traits every character of the game has, in sheet order, with their starting ratings.
    standard_sheet: ClassVar[tuple[StandardTrait, ...]]
    # What a sheet allows beyond its standard traits (rating ranges, names the books give, aspects).
    sheet: ClassVar[SheetRules] = SheetRules()
    # A character's resources (Willpower, Hunger, fate points, health), in a table of the game's own.
    resources: ClassVar[Columns] = Columns()
    # The campaign's own state in the game, and its table switch.
    state: ClassVar[StateColumns] = StateColumns()
    # The NPCs made in a click at the table.
    npcs: ClassVar[Npcs] = Npcs()
    # The resource columns, with the values they return to, that the end of a scene resets.
    scene_clears: ClassVar[Mapping[str, Any]] = {}
    # The demo campaign ``load_demo`` creates for the game.
    demo: ClassVar[DemoCampaign]

    # --- its words (each line has the game as gettext context) ---
    # The engine's notes (``rules.dice.Note``: ``{"code": ..., "text": ..., **params}``) in the active
    # language, by code; ``gmtools.notes.note_text`` reads them. A code two games share is told apart
    # by its parameters (exalted's ``opposed_win`` has ``net``, scifi's ``victory``): a line raises
    # when they do not fit, and the next game's is tried.
    note_texts: ClassVar[Mapping[str, Line]] = {}
    # What an action's outcome does (Fate's action table, ``rules.fate.Effect``), by code.
    effect_texts: ClassVar[Mapping[str, Line]] = {}
    # The engine's refusals (``RulesError.code``) a GM meets at the table, by code.
    refusal_texts: ClassVar[Mapping[str, Line]] = {}
    # Words the game says its own way, by English word ("Willpower" is *Voluntad* in Exalted, *Fuerza
    # de Voluntad* in Vampire); ``gmtools.notes.game_term`` falls back to ``pgettext(id, word)``.
    terms: ClassVar[Mapping[str, Promise]] = {}
    # What a log entry's label made of ``term:<key>`` parts says, by key (a sheet pool's roll,
    # ``willpower_roll``; a check's, ``rouse_check``; Fate's ``no_approach``); a key without words reads as itself.
    label_terms: ClassVar[Mapping[str, Promise]] = {}
    # A roll's verdict (``gmtools.verdicts``): each stored ``outcome`` in the game's words, with its
    # tone (good, best, neutral, bad or worst); an outcome without words reads as its code, neutral.
    outcome_words: ClassVar[Mapping[str, tuple[Promise, str]]] = {}
    # What a tie in a contest means in the game; None reads "Tie".
    tie_words: ClassVar[Promise | None] = None
    # How a contest's winner won (``opposed.victory``), for a game whose contests say it.
    victory_words: ClassVar[Mapping[str, Promise]] = {}
    # What a result's ``degree`` means, for a game whose degrees read alike in translation.
    degree_hints: ClassVar[Mapping[str, Promise]] = {}
    # The field of a stored result that holds the number its verdict judged (Fate: ``total``).
    judged_field: ClassVar[str] = "successes"
    # Its special results (``rules.luck.Special.code``: "botch", "messy_critical"...) in its words;
    # a code without words reads as the code.
    special_words: ClassVar[Mapping[str, Promise]] = {}

    def __init__(self) -> None:
        self.composer = self.composer_class(self)
        self.play = self.play_class(self)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id!r}>"

    # --- what the engine prices ---

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

    # --- its words ---

    def category_label(self, category: str, plural: bool = False) -> Promise | str:
        """A category of its sheet in words ("Attribute"; ``plural``: "Attributes", as a sheet heads it)."""
        return CATEGORY_PLURALS[category] if plural else TraitCategory(category).label

    def note_text(self, note: Params) -> str:
        """One of the engine's notes in the active language (its English text when no line fits)."""
        return line_text(self.note_texts, note)

    def refusal_text(self, error: Exception) -> str:
        """One of the engine's refusals in the active language (its English message when no line fits)."""
        return refusal_line(self.refusal_texts, error)

    # --- a roll's verdict (``gmtools.verdicts``) ---

    def verdict_of(self, result: Params) -> tuple[str, str] | None:
        """(text, tone) for the results the outcome alone does not say (an Exalted botch's ones, a V5
        critical or bestial result, a scifi degree); None reads ``outcome_words``."""
        return None

    def count_of(self, main: Params) -> str | None:
        """The count a lone roll's verdict stands beside (a Fate total and shifts, a V5 rouse check's
        Hunger), from its stored result; None counts successes and the margin."""
        return None

    def contest_of(self, main: Params, other: Params, net: int) -> tuple[str, str, str] | None:
        """For a game whose contests read as its outcomes (Fate: shifts against the other side's
        total): (outcome text, tone, count) from this side's result, the other side's and the net;
        None reads a contest by its winner, in successes."""
        return None

    def contest_mark(self, main: Params, winner: str | None) -> tuple[str, str] | None:
        """What the dice add to a contest's verdict (an Exalted botch, a V5 critical or bestial result,
        a scifi fumble), from this side's result and the winner (first, second or None): (words,
        tone) to add, or None to add nothing."""
        return None

    def taken_away(self, successes: int, name: str) -> str | None:
        """For a game whose contests take successes away from each side first (``opposed.handicap``,
        Exalted): the line that says they were taken from a name; None: a contest takes none away."""
        return None
