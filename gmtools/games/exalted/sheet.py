"""Exalted 2e's side of a character: its rating ranges, and its Essence, Willpower, motes and Virtues."""

from typing import Any

from django.utils.translation import gettext_lazy as _

from gmtools.games.base import Bounds, Columns, SheetRules
from gmtools.games.exalted.models import ExaltedResources
from gmtools.games.base import TraitCategory as C

RATING_BOUNDS = {C.ATTRIBUTE: (1, 5), C.ABILITY: (0, 5), C.BACKGROUND: (0, 5)}


def rating_bounds_for(category: str, bounds: Bounds, character: Any) -> Bounds:
    """Attributes and Abilities may exceed 5, but only up to the character's Essence."""
    low, high = bounds
    if category in (C.ATTRIBUTE, C.ABILITY):
        return low, max(high, character.resources.essence)
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
