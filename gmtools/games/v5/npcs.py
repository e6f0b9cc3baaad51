"""Vampire V5's NPCs: mortals have no Hunger and no Blood Potency; a ghoul adds a dot of a Discipline
(and has no Hunger either: ``V5Resources.nature``)."""

from django.utils.translation import gettext_lazy as _

from gmtools.games.base import NpcTemplate, Npcs
from gmtools.games.base import TraitCategory as C

# A quick NPC is a mortal (no Hunger dice in its pool); a vampire NPC is made from the full sheet.
MORTAL = {"hunger": 0, "blood_potency": 0, "nature": "mortal"}

NPCS = Npcs(
    templates=(
        NpcTemplate("mortal", _("Mortal"), _("Mortal"),
                    ratings={"strength": 2, "dexterity": 2, "stamina": 2, "charisma": 2, "composure": 2,
                             "wits": 2, "resolve": 2, "athletics": 1, "brawl": 2, "drive": 1, "firearms": 1,
                             "awareness": 2, "streetwise": 1, "insight": 1},
                    resources={**MORTAL, "humanity": 7}),
        NpcTemplate("thug", _("Mortal: thug"), _("Thug"),
                    ratings={"strength": 3, "dexterity": 2, "stamina": 3, "composure": 2, "wits": 2, "resolve": 2,
                             "athletics": 2, "brawl": 3, "firearms": 2, "melee": 2, "intimidation": 2,
                             "streetwise": 2, "awareness": 1},
                    resources={**MORTAL, "humanity": 6}),
        NpcTemplate("ghoul", _("Ghoul"), _("Ghoul"),
                    ratings={"strength": 3, "dexterity": 2, "stamina": 3, "composure": 2, "wits": 2, "resolve": 3,
                             "athletics": 2, "brawl": 3, "firearms": 2, "melee": 2, "awareness": 2,
                             "intimidation": 2, "stealth": 1},
                    resources={**MORTAL, "nature": "ghoul", "humanity": 6},
                    traits=((C.DISCIPLINE, "Potence", 1),)),
    ),
    quick_resources=MORTAL,
)
