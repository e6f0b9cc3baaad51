"""Template helpers of the GM's table: verdicts, dice faces, percentages."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext_lazy as _

from gmtools import links, models, recap, verdicts
from gmtools.sheets import Game

register = template.Library()

# What a face means, per game, as a CSS class: the card draws dice, not numbers in a list.
_HIT = {Game.EXALTED: 7, Game.SCIFI: 7, Game.V5: 6}


def _d10_class(system: str, face: int, hunger: bool = False) -> str:
    classes = ["die"]
    if face >= _HIT.get(system, 11):
        classes.append("die-hit")
    if face == 10:
        classes.append("die-ten")
    if face == 1:
        classes.append("die-one")
    if hunger:
        classes.append("die-hunger")
    return " ".join(classes)


@register.simple_tag(takes_context=True)
def headline(context: template.Context, roll: models.Roll) -> verdicts.Headline:
    """The roll's verdict and count, for the players when the card is drawn for them."""
    return verdicts.headline(roll, bool(context.get("player")))


@register.simple_tag
def dice(system: str, result: dict) -> list[dict]:
    """Each die of a stored result, in draw order: its face, label and CSS class."""
    if system == Game.FATE:
        symbol = {-1: "−", 0: "\u00a0", 1: "+"}
        return [{"face": f, "label": symbol[f], "css": f"die die-fate die-fate-{f + 1}"} for f in result.get("faces", [])]
    rerolled = set(result.get("rerolled", []))
    out = [{"face": f, "label": f, "css": _d10_class(system, f) + (" die-rerolled" if i in rerolled else ""), "index": i}
           for i, f in enumerate(result.get("faces", []))]
    # Hunger dice are set apart, explosions chained after the pool: the first of each group
    # gets a class the stylesheet spaces out (and marks with an arrow for explosions).
    out += [{"face": f, "label": f, "css": _d10_class(system, f, hunger=True) + (" die-group" if i == 0 else "")}
            for i, f in enumerate(result.get("hunger_faces", []))]
    out += [{"face": f, "label": f, "css": _d10_class(system, f) + " die-explosion" + (" die-group" if i == 0 else "")}
            for i, f in enumerate(result.get("explosions", []))]
    return out


@register.filter
def follow_up_done(roll: models.Roll, kind: str) -> bool:
    return roll.follow_up(kind) is not None


@register.filter
def percent(p: float) -> str:
    """A chance as the active language writes it: 62.5% in English, 62,5% in Spanish (like the mean beside it)."""
    if p is None:
        return ""
    if 0 < p < 0.001:
        return "<" + number_format(0.1, 1) + "%"
    if 0.999 < p < 1:
        return ">" + number_format(99.9, 1) + "%"
    value = round(p * 100, 1)
    return number_format(value, 0 if value == int(value) else 1) + "%"


@register.filter
def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value).replace("-", "−")


@register.filter
def player_link(campaign: models.Campaign, base: str) -> links.PlayerLink:
    return links.player_link(campaign, base)


@register.filter
def spends_text(spends: list[dict]) -> str:
    """What a roll spent, in words: "1 Willpower, Daring pilot" (never a stored key)."""
    return ", ".join(text for text in map(recap.spend_text, spends) if text)


@register.filter
def when(moment: datetime) -> str:
    """A roll's time; its date too when it was not rolled today (a log that spans sessions)."""
    local = timezone.localtime(moment)
    if local.date() == timezone.localdate():
        return date_format(local, "H:i:s")
    return date_format(local, "SHORT_DATE_FORMAT") + " " + date_format(local, "H:i")


@register.simple_tag(takes_context=True)
def card_notes(context: template.Context, roll: models.Roll) -> list[dict]:
    return verdicts.notes_shown(roll, bool(context.get("player")))


_ADJUST_LABELS = {
    "willpower-spend": _("Spend 1 Willpower"), "willpower-regain": _("Regain 1 Willpower"),
    "motes-spend": _("Spend 1 mote"), "motes-regain": _("Regain 1 mote"),
    "hunger-down": _("Hunger −1"), "hunger-up": _("Hunger +1"),
    "fate-point-spend": _("Spend a fate point"), "fate-point-gain": _("Gain a fate point"),
    "health-damage": _("Lose 1 health"), "health-heal": _("Heal 1 health"),
}


@register.filter
def adjust_label(action: str) -> str:
    """What a one-click −/+ button does, in words (its tooltip and its name for screen readers)."""
    return str(_ADJUST_LABELS.get(action, action))
