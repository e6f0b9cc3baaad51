"""The table's Undo button: which one-click change it would undo, in words.

``services.adjust`` keeps each one-click change (``ResourceChange``: the fields before and after);
``services.undo_last_change`` undoes the campaign's newest one not undone yet. This module says
what that is ("Undo: Koi, Health +1 superficial") for the GM's table, and whether it can still be
undone (the character still shows what the change made of it).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext

from gmtools import games
from gmtools.models import Campaign, ResourceChange


@dataclass(frozen=True)
class Offer:
    change: ResourceChange
    text: str  # "Koi, Health +1 superficial"
    stale: bool  # the character has changed since: undoing it would be refused


def offer(campaign: Campaign) -> Offer | None:
    """The change the Undo button would undo now (None: nothing to undo); one query."""
    system = games.get(campaign.game)
    change = (ResourceChange.objects.filter(campaign=campaign, undone_at__isnull=True)
              .select_related(f"character__{system.resources.relation}" if system.resources.model else "character")
              .order_by("-id").first())
    if change is None:
        return None
    character = change.character
    character.campaign = campaign  # its game, without a query
    what = system.play.adjustment_done(change.action)
    text = gettext("%(name)s, %(what)s") % {"name": character.name, "what": what}
    stale = any(getattr(character.resources, name) != value for name, value in change.after.items())
    return Offer(change, text, stale)
