"""Fate aspects on the table's cards: what a roll invoked and created, and what its Invoke may still use."""

from __future__ import annotations

from typing import Any

from django import template

from gmtools.games.fate import aspects
from gmtools.games.fate.models import Aspect, resources_of
from gmtools.models import Character, Roll, Scene

register = template.Library()


@register.filter
def invoked_text(spends: list[dict[str, Any]]) -> str:
    """"Invoked “On fire” (free), “Daring pilot” (fate point)"."""
    return aspects.invoked_text(spends or ())


@register.filter
def advantage_text(entry: Roll) -> str:
    """What a Create an advantage has put in play, as this entry of its roll's chain stands."""
    return aspects.advantage_text(entry.result.get("advantage") or {})


def _in_play_around(campaign: Any) -> list[Aspect]:
    """The scene's aspects and those of the characters in its turn order: once per drawing of the
    page (kept on the campaign object the drawing uses), whatever the number of cards."""
    cached = getattr(campaign, "_aspects_in_play", None)
    if cached is None:
        cached = list(aspects.in_play(campaign, Scene.objects.current(campaign), None))
        campaign._aspects_in_play = cached
    return cached


def _consequences_around(campaign: Any) -> list[aspects.Consequence]:
    """The consequences taken by the characters in the scene's turn order, once per drawing (as ``_in_play_around``)."""
    cached = getattr(campaign, "_consequences_in_play", None)
    if cached is None:
        cached = aspects.consequences_in_play(campaign, Scene.objects.current(campaign), None)
        campaign._consequences_in_play = cached
    return cached


@register.simple_tag
def cast_names(campaign: Any) -> list[tuple[int, str]]:
    """The campaign's characters (id, name), for a consequence's "free for" choice: once per drawing
    of the page, whatever the number of cards (kept as ``_in_play_around`` keeps its own)."""
    cached = getattr(campaign, "_cast_names", None)
    if cached is None:
        cached = list(Character.objects.filter(campaign=campaign).in_table_order().values_list("pk", "name"))
        campaign._cast_names = cached
    return cached


@register.simple_tag(takes_context=True)
def invoke_choices(context: template.Context, roll: Roll) -> list[tuple[str, str]]:
    """What the card's Invoke may use on this roll, as (value, label): an aspect in play or a
    consequence taken by a character in play that the character can pay for, that the rule of one
    roll still allows (gmtools.games.fate.aspects), never the aspect this roll made."""
    character = roll.character
    if character is None or context.get("campaign") is None:
        return []
    points = resources_of(character).points
    own = list(character.aspects.all())
    pool = own + [a for a in _in_play_around(context["campaign"]) if a.character_id != character.pk]
    earlier = roll.result.get("invoked") or aspects.invocations(roll.spends)
    made = (roll.result.get("advantage") or {}).get("aspect")

    def allowed(key: Any, paying: str) -> bool:
        return aspects.may_invoke_again([i["paid"] for i in earlier if i["aspect"] == key], paying)

    offered = []
    for aspect in pool:
        paying = aspects.payable(aspect, points)
        if aspect.pk != made and paying is not None and allowed(aspect.pk, paying):
            offered.append((str(aspect.pk), aspects.label(aspect, character.pk)))
    mine = [aspects.Consequence(character.pk, character.name, slot.severity, slot.text, slot.free_for)
            for slot in resources_of(character).consequences if slot.text]
    others = [c for c in _consequences_around(context["campaign"]) if c.character_id != character.pk]
    for consequence in mine + others:
        paying = consequence.payable(character.pk, points)
        if paying is not None and allowed(consequence.key, paying):
            offered.append((consequence.key, consequence.label(character.pk)))
    return offered
