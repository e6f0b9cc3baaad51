"""Fate Accelerated's side of a character and of a campaign: its rating ranges, aspects, fate points,
stress and consequences, and the campaign's deck of Fate cards."""

from typing import Any

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from gmtools.games.base import Bounds, Columns, SheetRules, StateColumns, bounded
from gmtools.sheets import AspectKind, CharacterKind
from gmtools.sheets import TraitCategory as C

# A Fate Accelerated stunt gives +2 or a once-per-session effect (rated 0).
RATING_BOUNDS = {C.APPROACH: (0, 3), C.STUNT: (0, 2)}

# Fate's 0 to +3 is for player characters; an NPC can be as good as Legendary (+8).
NPC_APPROACH_MAX = 8


def rating_bounds_for(category: str, bounds: Bounds, character: Any) -> Bounds:
    """An NPC's Approaches reach +8."""
    if category == C.APPROACH and character.kind == CharacterKind.NPC:
        return bounds[0], NPC_APPROACH_MAX
    return bounds


BOUNDS = {
    "fate_points": (0, 99),
    # Fate Accelerated: refresh never drops below 1.
    "fate_refresh": (1, 10),
}


class FateResources(models.Model):
    """Columns of every character (``gmtools.models.Character`` inherits them); only Fate's use them."""

    fate_points = bounded(BOUNDS, "fate_points", _("fate points"), 3)
    fate_refresh = bounded(BOUNDS, "fate_refresh", _("refresh"), 3)
    fate_stress_1 = models.BooleanField(_("stress box 1"), default=False)
    fate_stress_2 = models.BooleanField(_("stress box 2"), default=False)
    fate_stress_3 = models.BooleanField(_("stress box 3"), default=False)
    fate_consequence_mild = models.CharField(_("mild consequence (2)"), max_length=120, blank=True)
    fate_consequence_moderate = models.CharField(_("moderate consequence (4)"), max_length=120, blank=True)
    fate_consequence_severe = models.CharField(_("severe consequence (6)"), max_length=120, blank=True)

    class Meta:
        abstract = True

    def invocable_aspects(self) -> list[Any]:
        """The aspects this character can invoke now: with a free invocation, or any while it has a
        fate point to pay with (from the prefetched aspects)."""
        return [a for a in self.aspects.all() if a.free_invocations > 0 or self.fate_points > 0]

    @property
    def fate_stress_boxes(self) -> list[tuple[int, bool]]:
        return [(1, self.fate_stress_1), (2, self.fate_stress_2), (3, self.fate_stress_3)]

    @property
    def fate_consequences(self) -> list[tuple[str, Promise, str]]:
        return [("mild", _("Mild (2)"), self.fate_consequence_mild),
                ("moderate", _("Moderate (4)"), self.fate_consequence_moderate),
                ("severe", _("Severe (6)"), self.fate_consequence_severe)]


# One card per ordered combination of four Fate dice (3 ** 4).
DECK_SIZE = 81


class FateState(models.Model):
    """Columns of every campaign (``gmtools.models.Campaign`` inherits them); only Fate's use them."""

    fate_uses_deck = models.BooleanField(
        _("draw from the Fate deck"),
        default=False,
        help_text=_("Draw a card from the 81-card Fate deck instead of rolling four Fate dice."),
    )
    fate_deck = models.JSONField(
        _("Fate deck cards left"),
        # Empty: the next draw shuffles a full deck (a deck listed in order would deal 0, 1, 2, ...).
        default=list,
        blank=True,
        help_text=_("The indices (0-80) of the cards not yet drawn, next card first; an empty deck is shuffled at the next draw."),
    )

    class Meta:
        abstract = True

    @property
    def fate_cards_left(self) -> int:
        """An empty deck is shuffled whole at the next draw."""
        return len(self.fate_deck) or DECK_SIZE


def check_deck(campaign: Any) -> None:
    deck = campaign.fate_deck
    if not (
        isinstance(deck, list)
        and all(type(card) is int and 0 <= card < DECK_SIZE for card in deck)
        and len(set(deck)) == len(deck)
    ):
        raise ValidationError({"fate_deck": _("The Fate deck must be a list of distinct card numbers from 0 to 80.")})


@admin.display(description=_("cards left"))
def fate_cards_left(campaign: Any) -> int:
    return len(campaign.fate_deck)


# A new character's sheet asks first for its high concept and trouble (FAE's first two aspects).
SHEET = SheetRules(
    rating_bounds=RATING_BOUNDS,
    rating_bounds_for=rating_bounds_for,
    aspects=True,
    starting_aspects=(AspectKind.HIGH_CONCEPT, AspectKind.TROUBLE),
)

RESOURCES = Columns(
    model=FateResources,
    bounds=BOUNDS,
    title=_("Fate points, stress and consequences"),
    rows=(
        ("fate_points", "fate_refresh"),
        ("fate_stress_1", "fate_stress_2", "fate_stress_3"),
        "fate_consequence_mild",
        "fate_consequence_moderate",
        "fate_consequence_severe",
    ),
)

STATE = StateColumns(
    model=FateState,
    title=_("Fate deck"),
    rows=("fate_uses_deck", (fate_cards_left,)),
    check=check_deck,
    switch="fate_uses_deck",
)
