"""The registry of the games the table plays: the game apps among ``INSTALLED_APPS`` (issue 21).

Each game is a package of its own and a Django app whose ``AppConfig`` is a
``gmtools.games.base.apps.GameConfig`` (``exalted``, ``v5``, ``fate``, ``scifi`` here), with its
own tables and migrations, the way each Django database backend is one folder behind one small
interface found from a setting. The core asks ``get(campaign.game)`` and branches on no game, and
this module names none: a fifth game is its folder and one line of ``INSTALLED_APPS`` (README,
"Adding a game"). The games are read from the apps when first asked, once the models are loaded.
"""

from django.apps import apps

from gmtools.games.base.apps import GameConfig
from gmtools.games.base.game import BaseGame

_SYSTEMS: dict[str, BaseGame] = {}


def _installed() -> dict[str, BaseGame]:
    if not _SYSTEMS:
        for config in apps.get_app_configs():
            if isinstance(config, GameConfig):
                game = config.game
                if game.id != config.label:
                    raise ValueError(f"The game app {config.name} is labelled {config.label!r}, its game {game.id!r}.")
                _SYSTEMS[game.id] = game
    return _SYSTEMS


def get(game: str) -> BaseGame:
    """The game a campaign plays; KeyError for an id no app installs."""
    return _installed()[game]


def systems() -> tuple[BaseGame, ...]:
    """Every game, in the order of ``INSTALLED_APPS``."""
    return tuple(_installed().values())
