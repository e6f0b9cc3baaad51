"""The science-fiction d10 game's side of a character and of a campaign: its rating ranges, health,
action slots and distances, and the adventure (On-Rol) being open."""

from typing import Any

from django.contrib import admin
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from gmtools.games.base import Columns, SheetRules, StateColumns, bounded
from gmtools.sheets import TraitCategory as C

RATING_BOUNDS = {
    C.ATTRIBUTE: (1, 5),
    C.SKILL: (0, 5),
    # Positive modifiers never add more than 3 dice, so a larger rating would mean nothing.
    C.ADVANTAGE: (0, 3),
    C.DISADVANTAGE: (0, 3),
    C.AUGMENTATION: (0, 3),
    C.MUTATION: (0, 3),
}

BOUNDS = {
    # Two per turn by the rules; an advantage or augmentation may change a character's.
    "scifi_action_slots": (1, 4),
    # The seed prints no health rules: a plain track of points that the GM sizes.
    "scifi_health": (0, 99),
    "scifi_health_max": (1, 99),
}


class ScifiResources(models.Model):
    """Columns of every character (``gmtools.models.Character`` inherits them); only the scifi game's use them."""

    scifi_action_slots = bounded(BOUNDS, "scifi_action_slots", _("action slots per turn"), 2)
    scifi_health = bounded(BOUNDS, "scifi_health", _("health"), 10)
    scifi_health_max = bounded(BOUNDS, "scifi_health_max", _("maximum health"), 10)
    scifi_in_adventure = models.BooleanField(
        _("in the adventure"),
        default=False,
        help_text=_("Takes part in the campaign's adventure (On-Rol) when it is open."),
    )

    class Meta:
        abstract = True
        # Not inherited by Character's own Meta: gmtools.models adds it to it.
        constraints = [
            models.CheckConstraint(
                condition=Q(scifi_health__lte=models.F("scifi_health_max")),
                name="character_scifi_health_within_max",
                violation_error_message=_("Health cannot exceed maximum health."),
            ),
        ]

    def scifi_distances(self) -> dict[str, int]:
        """The seed's derived distances: swimming RES x 2 m, jumps from FUE."""
        ratings = self.standard_ratings()
        strength, endurance = ratings.get("strength", 0), ratings.get("endurance", 0)
        return {
            "swim_m": endurance * 2,
            "vertical_jump_cm": strength * 30,
            "running_jump_m": strength * 2,
            "standing_jump_m": strength,
        }

    @property
    def scifi_off_rol_allowed(self) -> bool:
        """Off-Rol actions are closed to a character while its adventure is open."""
        return not (self.scifi_in_adventure and self.campaign.scifi_adventure_open)


class ScifiState(models.Model):
    """A column of every campaign (``gmtools.models.Campaign`` inherits it); only the scifi game's use it."""

    scifi_adventure_open = models.BooleanField(
        _("adventure open"),
        default=False,
        help_text=_("While an adventure is open, the characters in it cannot take Off-Rol actions."),
    )

    class Meta:
        abstract = True


# The derived values the admin shows beside the resources (read-only).

@admin.display(description=_("Off-Rol actions"), boolean=True)
def scifi_off_rol(character: Any) -> bool:
    return character.scifi_off_rol_allowed


@admin.display(description=_("Distances"))
def scifi_distances(character: Any) -> str:
    return gettext(
        "Swimming %(swim_m)d m per action; vertical jump %(vertical_jump_cm)d cm; "
        "running long jump %(running_jump_m)d m; standing long jump %(standing_jump_m)d m."
    ) % character.scifi_distances()


SHEET = SheetRules(rating_bounds=RATING_BOUNDS)

RESOURCES = Columns(
    model=ScifiResources,
    bounds=BOUNDS,
    title=_("Health, actions and distances"),
    rows=(("scifi_health", "scifi_health_max"), ("scifi_action_slots", "scifi_in_adventure", scifi_off_rol),
          (scifi_distances,)),
)

STATE = StateColumns(
    model=ScifiState,
    title=_("On-Rol / Off-Rol"),
    rows=("scifi_adventure_open",),
    switch="scifi_adventure_open",
)
