"""Refusals and row locks: what every workflow here starts with."""

from __future__ import annotations

from typing import Any

from gmtools.games.base import Refused as Refused  # the games raise it too
from gmtools.models import (
    Character,
)


def lock_character(character_id: int) -> Character:
    """The character, locked until the transaction ends, with its game's resources as the last writer
    left them (read once the lock is held: every writer of them holds it)."""
    character = locked_or_none(character_id)
    if character is None:
        raise Character.DoesNotExist(character_id)
    return character


def locked_or_none(character_id: int | None) -> Character | None:
    """The character locked (as ``lock_character``), or None when there is none (deleted since)."""
    if character_id is None:
        return None
    character = Character.objects.select_for_update().select_related("campaign").filter(pk=character_id).first()
    if character is not None:
        character.resources  # noqa: B018 - read now, under the lock
    return character


def update_resources(character: Character, **fields: Any) -> None:
    """Write the (locked) character's resource columns, on its row and on the object."""
    row = character.resources
    for name, value in fields.items():
        setattr(row, name, value)
    type(row).objects.filter(pk=row.pk).update(**fields)
