"""Exalted 2e's NPC templates: extras, mortals with a few good dice, Essence 1, no motes."""

from django.utils.translation import gettext_lazy as _

from gmtools.games.base import NpcTemplate, Npcs

NPCS = Npcs(templates=(
    NpcTemplate("soldier", _("Extra: soldier"), _("Soldier"),
                ratings={"strength": 2, "dexterity": 2, "stamina": 2, "perception": 2, "wits": 2,
                         "melee": 3, "archery": 1, "athletics": 2, "awareness": 2, "dodge": 2,
                         "resistance": 2, "war": 1},
                resources={"willpower": 4, "willpower_temporary": 4, "valor": 2,
                           "conviction": 2}),
    NpcTemplate("bandit", _("Extra: bandit"), _("Bandit"),
                ratings={"strength": 2, "dexterity": 2, "stamina": 2, "wits": 2, "melee": 2, "archery": 2,
                         "athletics": 1, "awareness": 1, "dodge": 1, "stealth": 2, "survival": 1, "larceny": 1},
                resources={"willpower": 3, "willpower_temporary": 3}),
    NpcTemplate("townsfolk", _("Extra: townsfolk"), _("Townsperson"),
                ratings={"charisma": 2, "perception": 2, "wits": 2, "craft": 2, "awareness": 1, "socialize": 1,
                         "bureaucracy": 1},
                resources={"willpower": 3, "willpower_temporary": 3, "compassion": 2}),
))
