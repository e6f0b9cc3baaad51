"""Exalted 2e's side of a character: its rating ranges, and its Essence, Willpower, motes and Virtues."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _

from gmtools.games.base import Bounds, Columns, SheetRules
from gmtools.games.exalted.models import ExaltedResources, resources_of
from gmtools.games.base import TraitCategory as C

if TYPE_CHECKING:  # the table's rows are named, never imported, here
    from gmtools.models import Character

RATING_BOUNDS: dict[str, Bounds] = {C.ATTRIBUTE: (1, 5), C.ABILITY: (0, 5), C.BACKGROUND: (0, 5)}


def rating_bounds_for(category: str, bounds: Bounds, character: Character) -> Bounds:
    """Attributes and Abilities may exceed 5, but only up to the character's Essence."""
    low, high = bounds
    if category in (C.ATTRIBUTE, C.ABILITY):
        return low, max(high, resources_of(character).essence)
    return bounds


SHEET = SheetRules(rating_bounds=RATING_BOUNDS, rating_bounds_for=rating_bounds_for)

RESOURCES = Columns(
    model=ExaltedResources,
    title=_("Personality traits and Essence"),
    rows=(
        ("willpower", "willpower_temporary"),
        ("essence", "motes", "motes_max"),
        ("compassion", "conviction", "temperance", "valor"),
        "limit",
    ),
)
