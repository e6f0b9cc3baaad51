"""The web tests' fixtures (users, clients, scripted dice, a fresh cache per test), for the fifth game's
tests, which run with its settings (``settings.py``: ``make test``'s second run)."""

from tests.web.conftest import *  # noqa: F403
