"""Exalted 2e's own table: each character's Essence, Willpower (the dots and the boxes), personal
motes, Virtues and Limit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from gmtools.games.base.models import CharacterResources, bounded, own_row, range_constraints

if TYPE_CHECKING:  # the table's rows are named, never imported, here
    from gmtools.models import Character

# Temporary Willpower and current motes also have bounds set by another column (see Meta).
BOUNDS = {
    "essence": (1, 10),
    "willpower": (1, 10),
    "willpower_temporary": (0, 10),
    "motes": (0, 100),
    "motes_max": (0, 100),
    "compassion": (1, 5),
    "conviction": (1, 5),
    "temperance": (1, 5),
    "valor": (1, 5),
    "limit": (0, 10),
}


class ExaltedResources(CharacterResources):
    """An Exalted character's resources (``character.exalted``, ``character.resources``)."""

    essence = bounded(BOUNDS, "essence", _("Essence"), 1)
    willpower = bounded(BOUNDS, "willpower", _("Willpower (permanent)"), 5, _("The dots; Willpower rolls use these."))
    willpower_temporary = bounded(BOUNDS, "willpower_temporary", _("Willpower (temporary)"), 5,
                                  _("The boxes, spent for automatic successes."))
    motes = bounded(BOUNDS, "motes", _("personal motes"), 0)
    motes_max = bounded(BOUNDS, "motes_max", _("personal mote pool"), 0)
    compassion = bounded(BOUNDS, "compassion", _("Compassion"), 1)
    conviction = bounded(BOUNDS, "conviction", _("Conviction"), 1)
    temperance = bounded(BOUNDS, "temperance", _("Temperance"), 1)
    valor = bounded(BOUNDS, "valor", _("Valor"), 1)
    limit = bounded(BOUNDS, "limit", _("Limit"), 0)

    class Meta:
        verbose_name = _("Personality traits and Essence")
        verbose_name_plural = _("Personality traits and Essence")
        constraints = [
            *range_constraints("exalted", BOUNDS),
            models.CheckConstraint(
                condition=Q(willpower_temporary__lte=F("willpower")),
                name="exalted_willpower_temporary_within_permanent",
                violation_error_message=_("Temporary Willpower cannot exceed permanent Willpower."),
            ),
            models.CheckConstraint(
                condition=Q(motes__lte=F("motes_max")),
                name="exalted_motes_within_pool",
                violation_error_message=_("Personal motes cannot exceed the personal mote pool."),
            ),
        ]


def resources_of(character: Character) -> ExaltedResources:
    """An Exalted character's row of this table (``character.resources``)."""
    return own_row(character.resources, ExaltedResources)
