"""Exalted's stunt reward on a roll's card: only what the character's pools have room for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import template

from gmtools.games.exalted.table import on_offer

if TYPE_CHECKING:  # the table's rows are named, never imported, here
    from gmtools.models import Roll

register = template.Library()


@register.simple_tag
def stunt_rewards(roll: Roll) -> dict[str, int]:
    """The rewards the card offers, by choice, with what each would regain (``table.on_offer``)."""
    return on_offer(roll)
