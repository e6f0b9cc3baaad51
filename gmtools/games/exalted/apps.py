from django.utils.translation import gettext_lazy as _

from gmtools.games.base.apps import GameConfig


class ExaltedConfig(GameConfig):
    default = True  # beside the GameConfig it imports
    name = "gmtools.games.exalted"
    label = "exalted"  # the game's id
    verbose_name = _("Exalted 2e")
