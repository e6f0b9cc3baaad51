"""The four games the project ships, by id, as the tests name them (the core names none: its games are
the game apps of ``INSTALLED_APPS``, ``gmtools.games``)."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Game(models.TextChoices):
    EXALTED = "exalted", _("Exalted 2e")
    V5 = "v5", _("Vampire: The Masquerade 5e")
    FATE = "fate", _("Fate Accelerated")
    SCIFI = "scifi", _("Sci-fi d10")
