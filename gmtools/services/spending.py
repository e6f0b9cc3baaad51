"""What rolls spend: a resource paid inside the roll's transaction, and given back by a void."""

from __future__ import annotations

from typing import Any

from django.db import models

from gmtools import games
from gmtools.composer import Spend
from gmtools.games.base import Table
from gmtools.models import (
    Character,
    Scene,
)
from gmtools.services.locks import lock_character, locked_or_none, update_resources


def pay(table: Table, spend: Spend) -> dict[str, Any]:
    """Pay one spend, as the character's game pays that kind (through ``table``); what the log
    records of it (a Fate boost used up records what it was, so that voiding the roll can put it back)."""
    character = lock_character(spend.character_id)
    kind = games.get(character.game).play.spends.get(spend.what)
    if kind is None or kind.pay is None:  # pragma: no cover - the composer only makes the game's kinds
        raise ValueError(spend.what)
    return {**spend.as_json(), **kind.pay(table, character, spend)}


class Database:
    """The ``Ledger`` of a void: what an entry spent is given back to the rows themselves, each
    locked before it is read (in the void's transaction). ``touched``: the characters whose resources
    it wrote (their cards to redraw: Fate gives a consequence's free invocation back on another's)."""

    def __init__(self) -> None:
        self.touched: set[int] = set()

    def character(self, pk: int | None) -> Character | None:
        return locked_or_none(pk)

    def update(self, character: Character, **fields: Any) -> None:
        update_resources(character, **fields)
        self.touched.add(character.pk)

    def row[M: models.Model](self, model: type[M], pk: int | None) -> M | None:
        return model._default_manager.select_for_update().filter(pk=pk).first() if pk is not None else None

    def update_row(self, row: models.Model, **fields: Any) -> None:
        type(row)._default_manager.filter(pk=row.pk).update(**fields)

    def delete_row(self, row: models.Model) -> None:
        type(row)._default_manager.filter(pk=row.pk).delete()

    def make_row(self, model: type[models.Model], **fields: Any) -> None:
        model._default_manager.create(**fields)

    def scene_open(self, pk: int | None) -> bool:
        return pk is not None and Scene.objects.filter(pk=pk, ended_at__isnull=True).exists()
