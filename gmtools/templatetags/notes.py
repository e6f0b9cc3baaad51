"""Template filters for the rules engine's notes and Fate effects in the active language.

``{% load notes %}`` then ``{{ n|note_text }}`` for a note of ``result.notes``,
``{{ roll.result.effect|effect_text }}`` for a Fate action's effect, and
``{{ "Willpower"|term:campaign.game }}`` for a word each game says its own way.
"""

from __future__ import annotations

from typing import Any

from django import template

from gmtools import notes

register = template.Library()


@register.filter
def note_text(note: Any) -> str:
    return notes.note_text(note)


@register.filter
def effect_text(effect: Any) -> str:
    return notes.effect_text(effect)


@register.filter
def term(word: str, game: str) -> str:
    return notes.game_term(str(word), str(game))
