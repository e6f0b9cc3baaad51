from django.utils.translation import gettext_lazy as _

from gmtools.games.base.apps import GameConfig


class FateConfig(GameConfig):
    default = True  # beside the GameConfig it imports
    name = "gmtools.games.fate"
    label = "fate"  # the game's id
    verbose_name = _("Fate Accelerated")
