"""Writing: a change at the table recorded in the transaction that makes it; its viewers hear of it at commit."""

from __future__ import annotations

from django.db import connection, transaction

from gmtools.live.waking import CHANNEL, wake
from gmtools.live.writers import WritersDrawing
from gmtools.discord.outbox import wake_discord
from gmtools.models import Campaign, Change, ChangeKind, Character, DiscordPost, Roll


def announce(campaign_id: int, kind: str, *, roll: Roll | None = None, character: Character | None = None,
             public: bool = True, streams: WritersDrawing | None = None) -> Change:
    """Record a change at the table, inside the transaction that makes it; viewers hear of it at commit.

    ``streams``: the drawing of the request that logs this roll (``WritersDrawing``), handed down
    by its workflow: the change is claimed for it before commit, so that the streams wait for it.
    """
    # The campaign row's lock, held until commit, orders the campaign's changes by commit: a
    # stream that has read up to change N can never later find a change numbered below N.
    webhook = Campaign.objects.select_for_update().filter(pk=campaign_id).values_list("discord_webhook", flat=True).first()
    change = Change.objects.create(campaign_id=campaign_id, kind=kind, roll=roll, character=character, public=public)
    if webhook and roll is not None and kind in (ChangeKind.ROLL, ChangeKind.REVEAL):
        # Discord hears of the roll (posted, revealed, voided) from the same transaction: the outbox
        # row commits with it or not at all; the worker posts it after commit, off this request.
        DiscordPost.objects.create(campaign_id=campaign_id, roll=roll)
        transaction.on_commit(wake_discord)
    if streams is not None:
        streams.claim(change)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, str(campaign_id)])
    else:
        transaction.on_commit(lambda: wake(campaign_id))
    return change
