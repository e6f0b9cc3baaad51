"""The science-fiction d10 game's own tables: each character's health, action slots and taking part
in the adventure, and each campaign's adventure (On-Rol) being open."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from gmtools.games.base.models import CampaignState, CharacterResources, bounded, own_row, range_constraints

if TYPE_CHECKING:  # the table's rows are named, never imported, here
    from gmtools.models import Campaign, Character

BOUNDS = {
    # Two per turn by the rules; an advantage or augmentation may change a character's.
    "action_slots": (1, 4),
    # The seed prints no health rules: a plain track of points that the GM sizes.
    "health": (0, 99),
    "health_max": (1, 99),
}


class ScifiResources(CharacterResources):
    """A scifi character's health and action slots (``character.scifi``, ``character.resources``)."""

    action_slots = bounded(BOUNDS, "action_slots", _("action slots per turn"), 2)
    health = bounded(BOUNDS, "health", _("health"), 10)
    health_max = bounded(BOUNDS, "health_max", _("maximum health"), 10)
    in_adventure = models.BooleanField(
        _("in the adventure"),
        default=False,
        help_text=_("Takes part in the campaign's adventure (On-Rol) when it is open."),
    )

    class Meta:
        verbose_name = _("Health, actions and distances")
        verbose_name_plural = _("Health, actions and distances")
        constraints = [
            *range_constraints("scifi", BOUNDS),
            models.CheckConstraint(
                condition=Q(health__lte=F("health_max")),
                name="scifi_health_within_max",
                violation_error_message=_("Health cannot exceed maximum health."),
            ),
        ]

    def distances(self) -> dict[str, int]:
        """The seed's derived distances: swimming RES x 2 m, jumps from FUE."""
        ratings = self.character.standard_ratings()
        strength, endurance = ratings.get("strength", 0), ratings.get("endurance", 0)
        return {
            "swim_m": endurance * 2,
            "vertical_jump_cm": strength * 30,
            "running_jump_m": strength * 2,
            "standing_jump_m": strength,
        }

    @property
    def off_rol_allowed(self) -> bool:
        """Off-Rol actions are closed to a character while its adventure is open."""
        return not (self.in_adventure and state_of(self.character.campaign).adventure_open)


class ScifiState(CampaignState):
    """A scifi campaign's adventure (``campaign.scifi``, ``campaign.state``)."""

    adventure_open = models.BooleanField(
        _("adventure open"),
        default=False,
        help_text=_("While an adventure is open, the characters in it cannot take Off-Rol actions."),
    )

    class Meta:
        verbose_name = _("On-Rol / Off-Rol")
        verbose_name_plural = _("On-Rol / Off-Rol")


def resources_of(character: Character) -> ScifiResources:
    """A scifi character's row of this table (``character.resources``)."""
    return own_row(character.resources, ScifiResources)


def state_of(campaign: Campaign) -> ScifiState:
    """A scifi campaign's row of this table (``campaign.state``)."""
    return own_row(campaign.state, ScifiState)


# The derived values the admin shows beside the resources (read-only).

@admin.display(description=_("Off-Rol actions"), boolean=True)
def off_rol(row: ScifiResources) -> bool:
    return row.off_rol_allowed


@admin.display(description=_("Distances"))
def distances(row: ScifiResources) -> str:
    return gettext(
        "Swimming %(swim_m)d m per action; vertical jump %(vertical_jump_cm)d cm; "
        "running long jump %(running_jump_m)d m; standing long jump %(standing_jump_m)d m."
    ) % row.distances()
