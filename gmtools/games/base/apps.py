"""What makes a Django app a game: its ``AppConfig`` is a ``GameConfig``.

The registry (``gmtools.games``) is the games among ``INSTALLED_APPS``, in their order: a fifth game is
its folder (a package with an ``apps.py`` like the four's) and one line of the setting. The app's label
is the game's id, which campaigns store, and the name of its tables' links from a character and a
campaign (``gmtools.games.base.models``).

Imported while Django reads the settings, before any model: this module imports nothing of gmtools.
"""

from importlib import import_module
from typing import Any

from django.apps import AppConfig


class GameConfig(AppConfig):
    """A game's app: its ``game`` module's ``SYSTEM`` is what the table asks of it."""

    default_auto_field = "django.db.models.BigAutoField"

    @property
    def system(self) -> Any:
        """The game (``gmtools.games.base.GameSystem``), imported once the models are."""
        return import_module(f"{self.name}.game").SYSTEM
