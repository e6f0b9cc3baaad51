"""One place per game: the registry of the games the table plays (issue 12).

Each game is one package of this one (``exalted``, ``v5``, ``fate``, ``scifi``) that fills in
the interface of ``gmtools.games.base``, the way each Django database backend is one folder behind
one small interface. The core asks ``get(campaign.game)`` and branches on no game; this registry
is the one place that names them all. Adding a game: a new package with its ``SYSTEM`` and one
line here (README, "Layout"); ``tests/fifth_game`` registers one from the tests alone.
"""

from gmtools.games import exalted, fate, scifi, v5
from gmtools.games.base import GameSystem

_SYSTEMS: dict[str, GameSystem] = {}


def register(system: GameSystem) -> GameSystem:
    """Make a game known to the table, under its id; registering an id again replaces that game."""
    _SYSTEMS[system.id] = system
    return system


def unregister(game: str) -> None:
    """Forget a game (a test's own, once the test is done)."""
    del _SYSTEMS[game]


def get(game: str) -> GameSystem:
    """The game a campaign plays; KeyError for an id no module registered."""
    return _SYSTEMS[game]


def systems() -> tuple[GameSystem, ...]:
    """Every registered game, in registration order."""
    return tuple(_SYSTEMS.values())


for _module in (exalted, v5, fate, scifi):
    register(_module.SYSTEM)
