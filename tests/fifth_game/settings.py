"""The settings ``make run`` gives, with the fifth game installed: its folder and this one line."""

from gmtools.settings import *  # noqa: F403

INSTALLED_APPS = [*INSTALLED_APPS, "tests.fifth_game"]  # noqa: F405
