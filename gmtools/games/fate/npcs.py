"""Fate Accelerated's NPCs: nameless ones with one skill and one stress box, and quick ones rated by a bonus."""

from django.utils.translation import gettext_lazy as _

from gmtools.games.base import POOL_NAMES, NpcTemplate, Npcs
from gmtools.games.base import TraitCategory as C

# One skill (an Approach named "Skill" in the GM's language) and one stress box (boxes 2 and 3 start
# taken), no fate points.
NAMELESS = {"points": 0, "refresh": 1, "stress_2": True, "stress_3": True}
NAMELESS_NOTES = _("Nameless NPC: one stress box (boxes 2 and 3 start taken).")

NPCS = Npcs(
    templates=(
        NpcTemplate("average", _("Nameless NPC, average (+1)"), _("Nameless NPC"), standard_sheet=False,
                    traits=((C.APPROACH, POOL_NAMES["single"], 1),), resources=NAMELESS, notes=NAMELESS_NOTES),
        NpcTemplate("fair", _("Nameless NPC, fair (+2)"), _("Nameless NPC"), standard_sheet=False,
                    traits=((C.APPROACH, POOL_NAMES["single"], 2),), resources=NAMELESS, notes=NAMELESS_NOTES),
    ),
    quick_bonus=(_("Skill bonus"), _("A nameless NPC's one skill, from 0 (Mediocre) to +8 (Legendary)."), 2),
)
