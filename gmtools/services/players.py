"""What the players see: the deck's switch, a secret roll revealed, the player link renewed; and what they may
do: roll their own characters from their phones (the campaign's switch, each character's own link)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gmtools.live import announce
from gmtools.models import (
    Campaign,
    ChangeKind,
    Character,
    Roll,
    new_player_token,
)
from gmtools.services.locks import Refused


@transaction.atomic
def reveal(roll: Roll) -> None:
    """Show the players a secret roll (or a roll's secret difficulty), with its follow-ups."""
    if not roll.private:
        raise Refused(_("This roll is not secret."))
    family = roll.family()
    Roll.objects.filter(pk__in=family, revealed_at__isnull=True).update(revealed_at=timezone.now())
    announce(roll.campaign_id, ChangeKind.REVEAL, roll=roll)


@transaction.atomic
def regenerate_player_link(campaign: Campaign) -> None:
    """A new player link; the old one stops working at once, its open streams included."""
    campaign.regenerate_player_token()
    announce(campaign.pk, ChangeKind.LINK)


@transaction.atomic
def set_players_roll(campaign: Campaign, on: bool) -> None:
    """Let the players roll their own characters from their phones (each character's link), or not."""
    Campaign.objects.filter(pk=campaign.pk).update(players_roll=on)
    campaign.players_roll = on
    announce(campaign.pk, ChangeKind.LINK)  # every GM tab redraws the switch


@transaction.atomic
def set_character_link(character: Character, open_link: bool) -> None:
    """A new link of the character's own (the old one, if any, stops working at once, open streams
    included), or none: its player is cut off until the GM makes another."""
    character.player_token = new_player_token() if open_link else None
    Character.objects.filter(pk=character.pk).update(player_token=character.player_token)
    announce(character.campaign_id, ChangeKind.LINK)


@transaction.atomic
def ask_difficulty(character: Character, difficulty: str, secret: bool) -> None:
    """The difficulty the character's next roll from the phone faces, kept from the player when
    ``secret``; "" asks none (the player picks the one the GM announces). Its roll takes it, once."""
    character.asked_difficulty, character.asked_secret = difficulty, secret and bool(difficulty)
    Character.objects.filter(pk=character.pk).update(asked_difficulty=character.asked_difficulty,
                                                     asked_secret=character.asked_secret)
    announce(character.campaign_id, ChangeKind.CHARACTER, character=character)
