"""The registry of the games the table plays: the game apps among ``INSTALLED_APPS`` (issue 21).

Each game is a package of its own and a Django app whose ``AppConfig`` is a
``gmtools.games.base.apps.GameConfig`` (``exalted``, ``v5``, ``fate``, ``scifi`` here), with its
own tables and migrations, the way each Django database backend is one folder behind one small
interface found from a setting. The core asks ``get(campaign.game)`` and branches on no game, and
this module names none: a fifth game is its folder and one line of ``INSTALLED_APPS`` (README,
"Adding a game"). The games are read from the apps when first asked, once the models are loaded.
"""

from django.apps import apps

from gmtools.games.base import GameSystem
from gmtools.games.base.apps import GameConfig

_SYSTEMS: dict[str, GameSystem] = {}


def _installed() -> dict[str, GameSystem]:
    if not _SYSTEMS:
        for config in apps.get_app_configs():
            if isinstance(config, GameConfig):
                system = config.system
                if system.id != config.label:
                    raise ValueError(f"The game app {config.name} is labelled {config.label!r}, its game {system.id!r}.")
                _SYSTEMS[system.id] = system
    return _SYSTEMS


def register(system: GameSystem) -> GameSystem:
    """Make a game known to the table, under its id; registering an id again replaces that game."""
    _installed()[system.id] = system
    return system


def unregister(game: str) -> None:
    """Forget a game (a test's own, once the test is done)."""
    del _installed()[game]


def get(game: str) -> GameSystem:
    """The game a campaign plays; KeyError for an id no app installs."""
    return _installed()[game]


def systems() -> tuple[GameSystem, ...]:
    """Every game, in the order of ``INSTALLED_APPS``."""
    return tuple(_installed().values())
