"""Template helpers of the GM's table: verdicts, dice faces, percentages."""

from __future__ import annotations

from datetime import datetime

from django import forms, template
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from gmtools import games, links, luck, models, verdicts
from gmtools.formatting import grouped, percent, signed
from gmtools.games.base import FollowUp, BaseGame, BasePlay

register = template.Library()


@register.simple_tag(takes_context=True)
def headline(context: template.Context, roll: models.Roll) -> verdicts.Headline:
    """The roll's verdict and count, for the players when the card is drawn for them."""
    return verdicts.headline(roll, bool(context.get("player")))


@register.simple_tag(takes_context=True)
def luck_line(context: template.Context, roll: models.Roll) -> luck.Line | None:
    """What the card says of the roll's luck, for the players when the card is drawn for them."""
    return roll.luck_line(bool(context.get("player")))


@register.simple_tag
def dice(system: str, result: dict) -> list[dict]:
    """Each die of a stored result, in draw order: its face, label and CSS class, as its game draws
    them (``BasePlay.card_dice``)."""
    return games.get(system).play.card_dice(result)


@register.filter
def game_system(game: str) -> BaseGame:
    """The game a campaign plays (``campaign.game|game_system``), to ask what it has."""
    return games.get(game)


@register.filter
def at_table(game: str) -> BasePlay:
    """How the game plays at the table (``roll.system|at_table``, its ``BaseGame.play``): the partials
    its card and time bar include."""
    return games.get(game).play


@register.filter
def drawn_by_game(field: forms.BoundField) -> str:
    """The game's own partial that draws this composer field (``BaseComposer.drawn_by``); "" for one
    the table draws."""
    return field.form.part.drawn_by.get(field.name, "")


@register.filter
def follow_ups(roll: models.Roll) -> list[FollowUp]:
    """The follow-ups a roll's card offers (``Roll.offers``)."""
    return roll.offers()


@register.simple_tag(takes_context=True)
def follow_up_url(context: template.Context, roll: models.Roll, kind: str) -> str:
    """Where a follow-up's form posts: on a character's link (the player's composer, which alone draws
    these forms for a player) the player's own URL, else the GM's."""
    token = context.get("player_token")
    if token:
        return reverse("player-follow-up", args=[token, roll.pk, kind])
    return reverse("follow-up", args=[roll.campaign_id, roll.pk, kind])


register.filter("percent", percent)
register.filter("grouped", grouped)
register.filter("signed", signed)


@register.filter
def player_link(campaign: models.Campaign, base: str) -> links.PlayerLink:
    return links.player_link(campaign, base)


@register.filter
def character_links(campaign: models.Campaign, base: str) -> list[links.CharacterLink]:
    return links.character_links(campaign, base)


@register.filter
def spends_text(roll: models.Roll) -> str:
    """What a roll spent, in its game's words: "1 Willpower, Daring pilot" (never a stored key)."""
    return ", ".join(games.get(roll.system).play.spends_text(roll.spends))


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


@register.filter
def adjust_label(action: str, game: str) -> str:
    """What a one-click −/+ button does, in the game's words (its tooltip and its name for screen readers)."""
    return games.get(game).play.adjustment_button(action)
