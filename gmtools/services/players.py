"""What the players see: the deck's switch, a secret roll revealed, the player link renewed."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gmtools.live import announce
from gmtools.models import (
    Campaign,
    ChangeKind,
    Roll,
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
