"""Vampire V5's side of a character: its rating ranges, the Disciplines and Backgrounds it names, and
its Hunger, Humanity, Blood Potency and the Health and Willpower trackers."""

from typing import Any

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from gmtools.games.base import Columns, SheetRules, bounded
from gmtools.sheets import TraitCategory as C

RATING_BOUNDS = {
    C.ATTRIBUTE: (1, 5),
    C.SKILL: (0, 5),
    C.DISCIPLINE: (0, 5),
    C.BACKGROUND: (0, 5),
    C.MERIT: (0, 5),
    C.FLAW: (0, 5),
}

# Traits a GM adds by hand but that the book names: its Disciplines and Backgrounds. A hand-added
# trait called one of these (in English, as the demo and most character sheets write them) reads in
# the active language; any other name is the GM's text and shows as typed.
KNOWN_NAMES = {
    "animalism": pgettext_lazy("v5", "Animalism"), "auspex": pgettext_lazy("v5", "Auspex"),
    "blood sorcery": pgettext_lazy("v5", "Blood Sorcery"), "celerity": pgettext_lazy("v5", "Celerity"),
    "dominate": pgettext_lazy("v5", "Dominate"), "fortitude": pgettext_lazy("v5", "Fortitude"),
    "obfuscate": pgettext_lazy("v5", "Obfuscate"), "oblivion": pgettext_lazy("v5", "Oblivion"),
    "potence": pgettext_lazy("v5", "Potence"), "presence": pgettext_lazy("v5", "Presence"),
    "protean": pgettext_lazy("v5", "Protean"), "thin-blood alchemy": pgettext_lazy("v5", "Thin-blood Alchemy"),
    "allies": pgettext_lazy("v5", "Allies"), "contacts": pgettext_lazy("v5", "Contacts"),
    "fame": pgettext_lazy("v5", "Fame"), "haven": pgettext_lazy("v5", "Haven"), "herd": pgettext_lazy("v5", "Herd"),
    "influence": pgettext_lazy("v5", "Influence"), "mask": pgettext_lazy("v5", "Mask"),
    "resources": pgettext_lazy("v5", "Resources"), "retainers": pgettext_lazy("v5", "Retainers"),
    "status": pgettext_lazy("v5", "Status"),
}

# Tracker damage also has a bound set by the traits (the boxes): see ``check_trackers``.
BOUNDS = {
    "v5_hunger": (0, 5),
    "v5_humanity": (0, 10),
    "v5_blood_potency": (0, 10),
    "v5_health_superficial": (0, 15),
    "v5_health_aggravated": (0, 15),
    "v5_willpower_superficial": (0, 15),
    "v5_willpower_aggravated": (0, 15),
}


class V5Resources(models.Model):
    """Columns of every character (``gmtools.models.Character`` inherits them); only Vampire's use them.

    The trackers' boxes come from the character's standard traits (``Character.standard_ratings``).
    """

    v5_hunger = bounded(BOUNDS, "v5_hunger", _("Hunger"), 1)
    v5_humanity = bounded(BOUNDS, "v5_humanity", _("Humanity"), 7)
    v5_blood_potency = bounded(BOUNDS, "v5_blood_potency", _("Blood Potency"), 1)
    v5_health_superficial = bounded(BOUNDS, "v5_health_superficial", _("Health: superficial damage"), 0)
    v5_health_aggravated = bounded(BOUNDS, "v5_health_aggravated", _("Health: aggravated damage"), 0)
    v5_willpower_superficial = bounded(
        BOUNDS,
        "v5_willpower_superficial",
        _("Willpower: superficial damage"),
        0,
        _("Spending 1 Willpower marks 1 superficial damage."),
    )
    v5_willpower_aggravated = bounded(BOUNDS, "v5_willpower_aggravated", _("Willpower: aggravated damage"), 0)

    class Meta:
        abstract = True

    @property
    def v5_health_boxes(self) -> int:
        return self.standard_ratings().get("stamina", 0) + 3

    @property
    def v5_willpower_boxes(self) -> int:
        ratings = self.standard_ratings()
        return ratings.get("composure", 0) + ratings.get("resolve", 0)

    @property
    def v5_willpower_left(self) -> int:
        """Undamaged Willpower boxes: what a Willpower reroll can still spend."""
        return max(0, self.v5_willpower_boxes - self.v5_willpower_superficial - self.v5_willpower_aggravated)

    @property
    def v5_willpower_dice(self) -> int:
        """A Willpower roll uses the undamaged boxes, never fewer than 1 die."""
        damage = self.v5_willpower_superficial + self.v5_willpower_aggravated
        return max(1, self.v5_willpower_boxes - damage)

    def _v5_track(self, boxes: int, superficial: int, aggravated: int) -> list[str]:
        """Each box's state as the sheet draws it: aggravated (X) first, then superficial (/)."""
        return ["aggravated"] * aggravated + ["superficial"] * superficial + [""] * max(0, boxes - aggravated - superficial)

    @property
    def v5_health_track(self) -> list[str]:
        return self._v5_track(self.v5_health_boxes, self.v5_health_superficial, self.v5_health_aggravated)

    @property
    def v5_willpower_track(self) -> list[str]:
        return self._v5_track(self.v5_willpower_boxes, self.v5_willpower_superficial, self.v5_willpower_aggravated)


def check_trackers(character: Any) -> None:
    """The damage on each tracker fits its boxes (Stamina + 3; Composure + Resolve)."""
    errors = {}
    if character.v5_health_superficial + character.v5_health_aggravated > character.v5_health_boxes:
        errors["v5_health_aggravated"] = gettext(
            "Health has %(boxes)d boxes (Stamina + 3); the damage does not fit."
        ) % {"boxes": character.v5_health_boxes}
    if character.v5_willpower_superficial + character.v5_willpower_aggravated > character.v5_willpower_boxes:
        errors["v5_willpower_aggravated"] = gettext(
            "Willpower has %(boxes)d boxes (Composure + Resolve); the damage does not fit."
        ) % {"boxes": character.v5_willpower_boxes}
    if errors:
        raise ValidationError(errors)


# The derived values the admin shows beside the trackers (read-only).

@admin.display(description=_("Health boxes"))
def v5_health_boxes(character: Any) -> int:
    return character.v5_health_boxes


@admin.display(description=_("Willpower boxes"))
def v5_willpower_boxes(character: Any) -> int:
    return character.v5_willpower_boxes


@admin.display(description=_("Willpower roll dice"))
def v5_willpower_dice(character: Any) -> int:
    return character.v5_willpower_dice


SHEET = SheetRules(rating_bounds=RATING_BOUNDS, known_names=KNOWN_NAMES)

RESOURCES = Columns(
    model=V5Resources,
    bounds=BOUNDS,
    title=_("Hunger, Humanity and trackers"),
    rows=(
        ("v5_hunger", "v5_humanity", "v5_blood_potency"),
        (v5_health_boxes, "v5_health_superficial", "v5_health_aggravated"),
        (v5_willpower_boxes, "v5_willpower_superficial", "v5_willpower_aggravated", v5_willpower_dice),
    ),
    check=check_trackers,
)
