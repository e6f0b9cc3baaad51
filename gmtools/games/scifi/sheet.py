"""The science-fiction d10 game's side of a character and of a campaign: its rating ranges, health,
action slots and distances, and the adventure (On-Rol) being open."""

from django.utils.translation import gettext_lazy as _

from gmtools.games.base import Bounds, Columns, SheetRules, StateColumns
from gmtools.games.scifi.models import ScifiResources, ScifiState, distances, off_rol
from gmtools.games.base import TraitCategory as C

RATING_BOUNDS: dict[str, Bounds] = {
    C.ATTRIBUTE: (1, 5),
    C.SKILL: (0, 5),
    # Positive modifiers never add more than 3 dice, so a larger rating would mean nothing.
    C.ADVANTAGE: (0, 3),
    C.DISADVANTAGE: (0, 3),
    C.AUGMENTATION: (0, 3),
    C.MUTATION: (0, 3),
}


SHEET = SheetRules(rating_bounds=RATING_BOUNDS)

RESOURCES = Columns(
    model=ScifiResources,
    title=_("Health, actions and distances"),
    rows=(("health", "health_max"), ("action_slots", "in_adventure", off_rol), (distances,)),
)

STATE = StateColumns(
    model=ScifiState,
    title=_("On-Rol / Off-Rol"),
    rows=("adventure_open",),
    switch="adventure_open",
)
