"""Exalted 2e's side of a character: its rating ranges, and its Essence, Willpower, motes and Virtues."""

from typing import Any

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from gmtools.games.base import Bounds, Columns, SheetRules, bounded
from gmtools.sheets import TraitCategory as C

RATING_BOUNDS = {C.ATTRIBUTE: (1, 5), C.ABILITY: (0, 5), C.BACKGROUND: (0, 5)}


def rating_bounds_for(category: str, bounds: Bounds, character: Any) -> Bounds:
    """Attributes and Abilities may exceed 5, but only up to the character's Essence."""
    low, high = bounds
    if category in (C.ATTRIBUTE, C.ABILITY):
        return low, max(high, character.exalted_essence)
    return bounds


# Temporary Willpower and current motes also have bounds set by another column (see Meta).
BOUNDS = {
    "exalted_essence": (1, 10),
    "exalted_willpower": (1, 10),
    "exalted_willpower_temporary": (0, 10),
    "exalted_motes": (0, 100),
    "exalted_motes_max": (0, 100),
    "exalted_compassion": (1, 5),
    "exalted_conviction": (1, 5),
    "exalted_temperance": (1, 5),
    "exalted_valor": (1, 5),
    "exalted_limit": (0, 10),
}


class ExaltedResources(models.Model):
    """Columns of every character (``gmtools.models.Character`` inherits them); only Exalted's use them."""

    exalted_essence = bounded(BOUNDS, "exalted_essence", _("Essence"), 1)
    exalted_willpower = bounded(
        BOUNDS, "exalted_willpower", _("Willpower (permanent)"), 5, _("The dots; Willpower rolls use these.")
    )
    exalted_willpower_temporary = bounded(
        BOUNDS, "exalted_willpower_temporary", _("Willpower (temporary)"), 5,
        _("The boxes, spent for automatic successes."),
    )
    exalted_motes = bounded(BOUNDS, "exalted_motes", _("personal motes"), 0)
    exalted_motes_max = bounded(BOUNDS, "exalted_motes_max", _("personal mote pool"), 0)
    exalted_compassion = bounded(BOUNDS, "exalted_compassion", _("Compassion"), 1)
    exalted_conviction = bounded(BOUNDS, "exalted_conviction", _("Conviction"), 1)
    exalted_temperance = bounded(BOUNDS, "exalted_temperance", _("Temperance"), 1)
    exalted_valor = bounded(BOUNDS, "exalted_valor", _("Valor"), 1)
    exalted_limit = bounded(BOUNDS, "exalted_limit", _("Limit"), 0)

    class Meta:
        abstract = True
        # Not inherited by Character's own Meta: gmtools.models adds them to it.
        constraints = [
            models.CheckConstraint(
                condition=Q(exalted_willpower_temporary__lte=models.F("exalted_willpower")),
                name="character_exalted_willpower_temporary_within_permanent",
                violation_error_message=_("Temporary Willpower cannot exceed permanent Willpower."),
            ),
            models.CheckConstraint(
                condition=Q(exalted_motes__lte=models.F("exalted_motes_max")),
                name="character_exalted_motes_within_pool",
                violation_error_message=_("Personal motes cannot exceed the personal mote pool."),
            ),
        ]


SHEET = SheetRules(rating_bounds=RATING_BOUNDS, rating_bounds_for=rating_bounds_for)

RESOURCES = Columns(
    model=ExaltedResources,
    bounds=BOUNDS,
    title=_("Personality traits and Essence"),
    rows=(
        ("exalted_willpower", "exalted_willpower_temporary"),
        ("exalted_essence", "exalted_motes", "exalted_motes_max"),
        ("exalted_compassion", "exalted_conviction", "exalted_temperance", "exalted_valor"),
        "exalted_limit",
    ),
)
