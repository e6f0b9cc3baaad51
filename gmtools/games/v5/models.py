"""Vampire V5's own table: each character's Hunger, Humanity, Blood Potency, and the damage on its
Health and Willpower trackers, whose boxes its traits give (Stamina + 3; Composure + Resolve)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from gmtools.games.base.models import CharacterResources, bounded, own_row, range_constraints
from rules import v5 as engine

if TYPE_CHECKING:  # the table's rows are named, never imported, here
    from gmtools.models import Character

# Tracker damage also has a bound set by the traits (the boxes): see ``V5Resources.clean``.
BOUNDS = {
    "hunger": (0, 5),
    "humanity": (0, 10),
    "blood_potency": (0, 10),
    "health_superficial": (0, 15),
    "health_aggravated": (0, 15),
    "willpower_superficial": (0, 15),
    "willpower_aggravated": (0, 15),
}


class Nature(models.TextChoices):
    """What a character is (``rules.v5.Nature``): only a vampire has Hunger."""

    VAMPIRE = engine.Nature.VAMPIRE.value, _("Vampire")
    GHOUL = engine.Nature.GHOUL.value, _("Ghoul")
    MORTAL = engine.Nature.MORTAL.value, _("Mortal")


class V5Resources(CharacterResources):
    """A Vampire character's resources (``character.v5``, ``character.resources``)."""

    nature = models.CharField(_("nature"), max_length=8, choices=Nature.choices, default=Nature.VAMPIRE,
                              help_text=_("Mortals and ghouls have no Hunger: no Hunger dice, no rouse check."))
    hunger = bounded(BOUNDS, "hunger", _("Hunger"), 1)
    humanity = bounded(BOUNDS, "humanity", _("Humanity"), 7)
    blood_potency = bounded(BOUNDS, "blood_potency", _("Blood Potency"), 1)
    health_superficial = bounded(BOUNDS, "health_superficial", _("Health: superficial damage"), 0)
    health_aggravated = bounded(BOUNDS, "health_aggravated", _("Health: aggravated damage"), 0)
    willpower_superficial = bounded(BOUNDS, "willpower_superficial", _("Willpower: superficial damage"), 0,
                                    _("Spending 1 Willpower marks 1 superficial damage."))
    willpower_aggravated = bounded(BOUNDS, "willpower_aggravated", _("Willpower: aggravated damage"), 0)

    class Meta:
        verbose_name = _("Hunger, Humanity and trackers")
        verbose_name_plural = _("Hunger, Humanity and trackers")
        constraints = [*range_constraints("v5", BOUNDS),
                       models.CheckConstraint(condition=Q(nature__in=Nature.values), name="v5_nature_known")]

    @property
    def has_hunger(self) -> bool:
        """A vampire: Hunger dice in its pools, rouse checks. A mortal or a ghoul has neither."""
        return engine.nature(self.nature).has_hunger

    @property
    def pool_hunger(self) -> int:
        """The Hunger its pools take: its rating if a vampire, else none."""
        return engine.hunger_of(self.nature, self.hunger)

    @staticmethod
    def _tracker(boxes: int, superficial: int, aggravated: int) -> engine.Tracker:
        """The rules' tracker; damage that no longer fits its boxes (a trait lowered since) fills them."""
        boxes = max(1, boxes)
        aggravated = min(aggravated, boxes)
        return engine.Tracker(boxes, min(superficial, boxes - aggravated), aggravated)

    @property
    def health_tracker(self) -> engine.Tracker:
        return self._tracker(self.health_boxes, self.health_superficial, self.health_aggravated)

    @property
    def willpower_tracker(self) -> engine.Tracker:
        return self._tracker(self.willpower_boxes, self.willpower_superficial, self.willpower_aggravated)

    @property
    def health_impaired(self) -> bool:
        """Every Health box damaged: −2 dice to Physical pools."""
        return self.health_tracker.impaired

    @property
    def willpower_impaired(self) -> bool:
        """Every Willpower box damaged: −2 dice to Social and Mental pools."""
        return self.willpower_tracker.impaired

    # The trackers' boxes come from the character's standard traits (``Character.standard_ratings``).

    @property
    def health_boxes(self) -> int:
        return self.character.standard_ratings().get("stamina", 0) + 3

    @property
    def willpower_boxes(self) -> int:
        ratings = self.character.standard_ratings()
        return ratings.get("composure", 0) + ratings.get("resolve", 0)

    @property
    def willpower_left(self) -> int:
        """Undamaged Willpower boxes: what a Willpower reroll can still spend."""
        return max(0, self.willpower_boxes - self.willpower_superficial - self.willpower_aggravated)

    @property
    def willpower_dice(self) -> int:
        """A Willpower roll uses the undamaged boxes, never fewer than 1 die."""
        return max(1, self.willpower_boxes - self.willpower_superficial - self.willpower_aggravated)

    @staticmethod
    def _track(boxes: int, superficial: int, aggravated: int) -> list[str]:
        """Each box's state as the sheet draws it: aggravated (X) first, then superficial (/)."""
        return ["aggravated"] * aggravated + ["superficial"] * superficial + [""] * max(0, boxes - aggravated - superficial)

    @property
    def health_track(self) -> list[str]:
        return self._track(self.health_boxes, self.health_superficial, self.health_aggravated)

    @property
    def willpower_track(self) -> list[str]:
        return self._track(self.willpower_boxes, self.willpower_superficial, self.willpower_aggravated)

    @staticmethod
    def _track_words(track: str, boxes: int, superficial: int, aggravated: int) -> str:
        """A tracker in words, for a screen reader (the card draws its boxes): "Health 5: 2 superficial, 1 aggravated"."""
        return gettext("%(track)s %(boxes)s: %(superficial)s superficial, %(aggravated)s aggravated") % {
            "track": track, "boxes": boxes, "superficial": superficial, "aggravated": aggravated}

    @property
    def health_words(self) -> str:
        return self._track_words(gettext("Health"), self.health_boxes, self.health_superficial, self.health_aggravated)

    @property
    def willpower_words(self) -> str:
        return self._track_words(pgettext("v5", "Willpower"), self.willpower_boxes, self.willpower_superficial,
                                 self.willpower_aggravated)

    def clean(self) -> None:
        """The damage on each tracker fits its boxes. Checked once the character's traits are written
        (a new character's sheet, an import: ``gmtools.characters``, ``gmtools.backup``): a character
        not saved yet has none to count."""
        if self.character.pk is None:
            # Django's stubs type a row's pk as an int, saved or not.
            return  # type: ignore[unreachable]
        errors = {}
        if self.health_superficial + self.health_aggravated > self.health_boxes:
            errors["health_aggravated"] = gettext(
                "Health has %(boxes)d boxes (Stamina + 3); the damage does not fit."
            ) % {"boxes": self.health_boxes}
        if self.willpower_superficial + self.willpower_aggravated > self.willpower_boxes:
            errors["willpower_aggravated"] = gettext(
                "Willpower has %(boxes)d boxes (Composure + Resolve); the damage does not fit."
            ) % {"boxes": self.willpower_boxes}
        if self.hunger and not self.has_hunger:
            errors["hunger"] = gettext("A %(nature)s has no Hunger: set it to 0, or make the character a vampire.") % {
                "nature": self.get_nature_display().lower()}
        if errors:
            raise ValidationError(errors)


def resources_of(character: Character) -> V5Resources:
    """A Vampire character's row of this table (``character.resources``)."""
    return own_row(character.resources, V5Resources)


# The derived values the admin shows beside the trackers (read-only).

@admin.display(description=_("Health boxes"))
def health_boxes(row: V5Resources) -> int:
    return row.health_boxes


@admin.display(description=_("Willpower boxes"))
def willpower_boxes(row: V5Resources) -> int:
    return row.willpower_boxes


@admin.display(description=_("Willpower roll dice"))
def willpower_dice(row: V5Resources) -> int:
    return row.willpower_dice
