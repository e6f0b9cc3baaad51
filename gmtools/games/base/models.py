"""The tables a game keeps of its own, in its own app: a character's resources, a campaign's state.

Each is one row per character (campaign) of the game's campaigns, linked one-to-one and named by the
game's id: ``character.v5`` is a Vampire character's row of Hunger, Humanity and trackers,
``campaign.fate`` a Fate campaign's deck. The core reaches them as ``character.resources`` and
``campaign.state`` (``gmtools.models``), and a game's code too; only the game's own templates and
tests name them by the game's id. Real columns, each bounded by a validator and a CheckConstraint
(``bounded``, ``range_constraints``), so that the database checks what every way in checks; no
text holds a NUL character (``gmtools.nulfree``).

A column's public name, in the forms and the campaign file, is the game's id and the column's name
(``v5_hunger``): the name it had while every game's columns stood on the shared tables (issue 21).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from gmtools.nulfree import NulFree

if TYPE_CHECKING:
    from django.db.models.expressions import Combinable
    from django_stubs_ext import StrPromise  # what gettext_lazy returns, to Django's stubs

# A rating's inclusive (low, high).
Bounds = tuple[int, int]


def bounded(bounds: Mapping[str, Bounds], name: str, verbose_name: StrPromise, default: int,
            help_text: StrPromise | str = "") -> models.PositiveSmallIntegerField[float | int | str | Combinable, int]:
    """A numeric column held to ``bounds[name]``: a validator here, a CheckConstraint on the model."""
    low, high = bounds[name]
    return models.PositiveSmallIntegerField(
        verbose_name,
        default=default,
        validators=[MinValueValidator(low), MaxValueValidator(high)],
        help_text=help_text,
    )


def range_constraints(game: str, bounds: Mapping[str, Bounds]) -> list[models.BaseConstraint]:
    """The database's own check of each bounded column (names unique in the database: the game's id first)."""
    return [models.CheckConstraint(condition=Q(**{f"{name}__gte": low, f"{name}__lte": high}),
                                   name=f"{game}_{name}_range")
            for name, (low, high) in bounds.items()]


def own_row[R: models.Model](row: models.Model | None, model: type[R]) -> R:
    """A character's ``resources`` (a campaign's ``state``) as its game's own model: the core knows it
    as any game's row, or none; the game that asks knows which it is."""
    if not isinstance(row, model):
        raise TypeError(f"{row!r} is not a {model.__name__}.")
    return row


class CharacterResources(NulFree):
    """A character's row of its game's own columns (Willpower, Hunger, fate points, health...)."""

    character = models.OneToOneField("gmtools.Character", on_delete=models.CASCADE, primary_key=True,
                                     related_name="%(app_label)s", verbose_name=_("character"))

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return str(self.character)


class CampaignState(NulFree):
    """A campaign's row of its game's own state (Fate's deck, the scifi adventure being open)."""

    campaign = models.OneToOneField("gmtools.Campaign", on_delete=models.CASCADE, primary_key=True,
                                    related_name="%(app_label)s", verbose_name=_("campaign"))

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return str(self.campaign)
