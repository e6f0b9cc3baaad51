"""The science-fiction d10 game's NPCs: mooks, with a short health track and one trade."""

from django.utils.translation import gettext_lazy as _

from gmtools.games.base import NpcTemplate, Npcs

NPCS = Npcs(templates=(
    NpcTemplate("mook", _("Mook"), _("Mook"),
                ratings={"strength": 2, "agility": 2, "endurance": 2, "perception": 2, "firearms": 2,
                         "melee": 1, "athletics": 1},
                resources={"health": 5, "health_max": 5}),
    NpcTemplate("veteran", _("Mook: veteran"), _("Veteran"),
                ratings={"strength": 3, "agility": 3, "endurance": 3, "perception": 3, "intelligence": 2,
                         "firearms": 3, "melee": 2, "athletics": 2, "stealth": 1},
                resources={"health": 8, "health_max": 8}),
))
