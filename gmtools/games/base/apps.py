"""What makes a Django app a game: its ``AppConfig`` is a ``GameConfig``.

The registry (``gmtools.games``) is the games among ``INSTALLED_APPS``, in their order: a fifth game is
its folder (a package with an ``apps.py`` like the four's) and one line of the setting. The app's label
is the game's id, which campaigns store, and the name of its tables' links from a character and a
campaign (``gmtools.games.base.models``).

Imported while Django reads the settings, before any model: this module imports nothing of gmtools.
"""

from __future__ import annotations

from functools import cached_property
from importlib import import_module
from typing import TYPE_CHECKING

from django.apps import AppConfig

if TYPE_CHECKING:  # named only: imported at run time once the models are loaded
    from gmtools.games.base.game import BaseGame


class GameConfig(AppConfig):
    """A game's app: its ``game`` module's ``GAME`` (a ``gmtools.games.base.BaseGame``) is what the
    table asks of it, imported when first asked (once the models are loaded), as Django imports a
    database backend's ``base`` module from its ENGINE."""

    default_auto_field = "django.db.models.BigAutoField"

    @cached_property
    def game(self) -> BaseGame:
        game: BaseGame = import_module(f"{self.name}.game").GAME
        return game
