from django.utils.translation import gettext_lazy as _

from gmtools.games.base.apps import GameConfig


class ScifiConfig(GameConfig):
    default = True  # beside the GameConfig it imports
    name = "gmtools.games.scifi"
    label = "scifi"  # the game's id
    verbose_name = _("Sci-fi d10")
