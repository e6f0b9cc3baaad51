"""A logged roll's luck: where it fell in its own exact distribution when it was rolled (issue 14).

The numbers are the engine's (``rules.luck``): each game's ``TablePlay.luck`` asks its
``rules.<game>.luck`` when a roll is logged, and its follow-ups and checks (a V5 Willpower reroll
or rouse check, a Fate reroll) store theirs as they log them, in the same transaction. What is
stored is ``Luck.as_json()``: ``below``, ``equal``, ``above``, ``percentile`` (the mid-rank),
``band``, ``variance`` and every special result of the game with its chance before the roll
and whether it happened. Nothing rolled, nothing stored: an automatic success, taking half, a
+2 invocation (it threw no dice: its roll's luck stands), a stunt reward.

``backfill`` fills the rolls logged before luck was stored, from their stored request and result
(the data migration ``0011``), where the game's ``TablePlay.stored_luck`` can replay them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import models

from gmtools import games
from rules.luck import Luck

BATCH = 500


def stored(luck: Luck | None) -> dict[str, Any] | None:
    """What ``Roll.luck`` holds for a roll's luck."""
    return luck.as_json() if luck is not None else None


def replayed(system: str, entry: Mapping[str, Any], state: dict[str, Any]) -> dict[str, Any] | None:
    """A logged entry's luck from what the log kept (``{"kind", "request", "result"}``), or None
    when its game cannot tell (no such game any more, or fields an older version wrote otherwise)."""
    try:
        replay = games.get(system).at_table.stored_luck
    except KeyError:
        return None
    try:
        return stored(replay(entry, state))
    except Exception:  # noqa: BLE001 - an entry the engine refuses now keeps no luck, never stops the migration
        return None


def backfill(rolls: type[models.Model]) -> int:
    """Fill ``luck`` for every entry without it that its game can replay, campaign by campaign in
    log order (a Fate deck's draws depend on the draws before them). ``rolls``: the Roll model
    (the migration's historical one). The number of entries filled."""
    filled = 0
    campaigns = rolls.objects.filter(luck__isnull=True).values_list("campaign_id", flat=True).distinct()
    for campaign_id in sorted(set(campaigns)):
        state: dict[str, Any] = {}
        batch = []
        entries = (rolls.objects.filter(campaign_id=campaign_id).order_by("id")
                   .values_list("id", "system", "kind", "request", "result", "luck"))
        for pk, system, kind, request, result, luck in entries.iterator(chunk_size=BATCH):
            again = replayed(system, {"kind": kind, "request": request or {}, "result": result or {}}, state)
            if luck is None and again is not None:
                batch.append(rolls(pk=pk, luck=again))
            if len(batch) >= BATCH:
                filled += len(batch)
                rolls.objects.bulk_update(batch, ["luck"])
                batch = []
        if batch:
            filled += len(batch)
            rolls.objects.bulk_update(batch, ["luck"])
    return filled
