"""Refusals and row locks: what every workflow here starts with."""

from __future__ import annotations

from typing import Any

from gmtools.games.base import Refused as Refused  # the games raise it too
from gmtools.models import (
    Character,
)


def lock_character(character_id: int) -> Character:
    return Character.objects.select_for_update().select_related("campaign").get(pk=character_id)


def locked_or_none(character_id: int | None) -> Character | None:
    """The character locked, or None when there is none (deleted since)."""
    if character_id is None:
        return None
    return Character.objects.select_for_update().select_related("campaign").filter(pk=character_id).first()


def update_character(character: Character, **fields: Any) -> None:
    for name, value in fields.items():
        setattr(character, name, value)
    Character.objects.filter(pk=character.pk).update(**fields)
