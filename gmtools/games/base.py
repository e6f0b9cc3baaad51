"""What the core asks of a game: the small, typed interface each module of ``gmtools.games`` fills in.

Like a Django database backend, a game is one module behind this interface, and the core (models,
services, views, templates) asks the game it is given instead of branching on it. This module
names no game; the registry (``gmtools.games``) is the one place that names them all.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.utils.functional import Promise

from gmtools.sheets import StandardTrait


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
    # The trait categories its sheet has, in the order the sheet shows them.
    categories: tuple[str, ...]
    # The standard traits every character of the game has, in sheet order, with their starting ratings.
    standard_sheet: tuple[StandardTrait, ...]
    # The character fields, with the values they return to, that the end of a scene resets.
    scene_clears: Mapping[str, Any] = field(default_factory=dict)
    # The demo campaign ``load_demo`` creates for the game.
    demo: DemoCampaign

    @cached_property
    def standard_traits(self) -> dict[str, StandardTrait]:
        """The standard sheet by key."""
        return {trait.key: trait for trait in self.standard_sheet}
