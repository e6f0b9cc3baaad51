from django.utils.translation import gettext_lazy as _

from gmtools.games.base.apps import GameConfig


class V5Config(GameConfig):
    default = True  # beside the GameConfig it imports
    name = "gmtools.games.v5"
    label = "v5"  # the game's id
    verbose_name = _("Vampire: The Masquerade 5e")
