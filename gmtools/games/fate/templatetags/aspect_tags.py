"""Fate aspects on the table's cards: what a roll invoked and created, and what its Invoke may still use."""

from __future__ import annotations

from typing import Any

from django import template

from gmtools.games.fate import aspects
from gmtools.games.fate.models import Aspect, resources_of
from gmtools.models import Roll, Scene

register = template.Library()


@register.filter
def invoked_text(spends: list[dict[str, Any]]) -> str:
    """"Invoked “On fire” (free), “Daring pilot” (fate point)"."""
    return aspects.invoked_text(spends or ())


@register.filter
def advantage_text(advantage: dict[str, Any]) -> str:
    return aspects.advantage_text(advantage or {})


def _in_play_around(campaign: Any) -> list[Aspect]:
    """The scene's aspects and those of the characters in its turn order: once per drawing of the
    page (kept on the campaign object the drawing uses), whatever the number of cards."""
    cached = getattr(campaign, "_aspects_in_play", None)
    if cached is None:
        cached = list(aspects.in_play(campaign, Scene.objects.current(campaign), None))
        campaign._aspects_in_play = cached
    return cached


@register.simple_tag(takes_context=True)
def invoke_choices(context: template.Context, roll: Roll) -> list[tuple[Aspect, str]]:
    """What the card's Invoke may use on this roll: an aspect in play the character can pay for,
    that the rule of one roll still allows (gmtools.games.fate.aspects), never the aspect this roll made."""
    character = roll.character
    if character is None or context.get("campaign") is None:
        return []
    own = list(character.aspects.all())
    pool = own + [a for a in _in_play_around(context["campaign"]) if a.character_id != character.pk]
    earlier = roll.result.get("invoked") or aspects.invocations(roll.spends)
    made = (roll.result.get("advantage") or {}).get("aspect")
    offered = []
    for aspect in pool:
        paying = aspects.payable(aspect, resources_of(character).points)
        if aspect.pk == made or paying is None:
            continue
        if aspects.may_invoke_again([i["paid"] for i in earlier if i["aspect"] == aspect.pk], paying):
            offered.append((aspect, aspects.label(aspect, character.pk)))
    return offered
