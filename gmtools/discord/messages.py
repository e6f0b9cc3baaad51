"""What is posted to Discord, in the campaign's language and time zone: a log entry as an embed, a
scene's recap as messages under Discord's 2,000 characters.

The words are the card's and the recap's (``gmtools.recap``: the dice, the verdict, the lines under
it, "voided by"), as the players read them (no secret difficulty's verdict, "by the GM"); nothing here
says a game's dice again. User text is escaped for Markdown (``recap.md``) and every message allows
no mention, so a character called ``@everyone`` pings nobody.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext

from gmtools import recap, stats
from gmtools.discord.outbox import wake_discord
from gmtools.models import Campaign, DiscordPost, Roll, Scene
from gmtools.verdicts import headline

# Discord's limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits).
TITLE_LIMIT, DESCRIPTION_LIMIT, FOOTER_LIMIT, CONTENT_LIMIT = 256, 4096, 2048, 2000
NO_MENTIONS = {"parse": []}
COLOURS = {"best": 0x198754, "good": 0x2E9E6B, "neutral": 0x6C757D, "bad": 0xC0392B, "worst": 0x8B0000}
VOIDED_COLOUR = 0x495057


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def rolled_by(roll: Roll) -> str:
    """The card's "rolled by" (a phone's roll), "" for the GM's own."""
    if not roll.rolled_by:
        return ""
    if roll.rolled_by == roll.actor:
        return gettext("rolled from the phone")
    return gettext("rolled by %(who)s") % {"who": roll.rolled_by}


def where(roll: Roll) -> str:
    """"Story 1 · Episode 2 · Scene 3: The docks · turn 4"."""
    place = recap._where(roll)
    return f"{place} · " + gettext("turn %(n)d") % {"n": roll.turn} if roll.turn else place


def embed(roll: Roll) -> dict[str, Any]:
    """A log entry (a roll, a follow-up, a check) as the players' card says it; struck through once voided."""
    label = roll.display_label + (f" · {roll.kind_label}" if roll.parent_id else "")
    title = recap.md(roll.actor) + (f" — {recap.md(label)}" if label.strip() else "")
    lines = []
    if by := rolled_by(roll):
        lines.append(f"_{recap.md(by)}_")
    faces = recap.dice_text(roll) if not roll.follow_up_verdict else ""
    verdict = recap.md(recap.result_text(roll, True))
    lines.append((f"`{faces}` → " if faces else "") + f"**{verdict}**")
    if (luck := roll.luck_line(player=True)) is not None:
        lines.append(recap.md(luck.sentence))
    lines += [recap.md(line) for line in recap.extras(roll, True)]
    colour = COLOURS.get(headline(roll, True).tone, COLOURS["neutral"])
    if roll.voided_at is not None:
        title = f"~~{title}~~"
        lines = [f"~~{line}~~" for line in lines] + [f"_{recap.md(recap.voided_text(roll, True))}_"]
        colour = VOIDED_COLOUR
    return {"title": _cut(title, TITLE_LIMIT), "description": _cut("\n".join(lines), DESCRIPTION_LIMIT),
            "color": colour, "footer": {"text": _cut(where(roll), FOOTER_LIMIT)},
            "timestamp": roll.created_at.isoformat()}


def roll_message(roll: Roll) -> dict[str, Any]:
    return {"embeds": [embed(roll)], "allowed_mentions": NO_MENTIONS}


def text_message(text: str) -> dict[str, Any]:
    return {"content": text, "allowed_mentions": NO_MENTIONS}


def scene_recap(campaign: Campaign, scene: Scene) -> str:
    """The scene's recap as the players' Markdown export says it (no secret roll, the luck at its end)."""
    rolls = (Roll.objects.filter(campaign=campaign, scene=scene).for_players()
             .select_related("scene__episode__story", "voided_by").order_by("id"))
    luck = recap.luck_lines(stats.of_rolls(Roll.objects.all(), campaign, stats.Scope(frozenset({scene.pk}), player=True)))
    heading = f"# {recap.md(campaign.name)} — {recap.md(recap._scene_title(scene))}"
    return heading + "\n" + recap.to_markdown(rolls, True, luck)


def split(text: str, limit: int = CONTENT_LIMIT - 1) -> Iterator[str]:
    """Messages of at most ``limit`` characters, cut at line ends (a line longer than that alone is
    cut within it); blank messages dropped."""
    chunk: list[str] = []
    size = 0
    for line in text.splitlines():
        while len(line) > limit:  # a line longer than a message: cut it where it must be
            if chunk:
                yield "\n".join(chunk)
                chunk, size = [], 0
            yield line[:limit]
            line = line[limit:]
        if size + len(line) + (1 if chunk else 0) > limit:
            if "\n".join(chunk).strip():
                yield "\n".join(chunk)
            chunk, size = [], 0
        size += len(line) + (1 if chunk else 0)
        chunk.append(line)
    if "\n".join(chunk).strip():
        yield "\n".join(chunk)


def queue_scene_recap(campaign: Campaign, scene: Scene) -> int:
    """Queue the scene's recap for the campaign's Discord, in its language and zone, as messages in
    order after every roll already queued; how many."""
    with translation.override(campaign.language), timezone.override(campaign.zone):
        parts = list(split(scene_recap(campaign, scene)))
    with transaction.atomic():
        DiscordPost.objects.bulk_create([DiscordPost(campaign=campaign, text=part) for part in parts])
        transaction.on_commit(wake_discord)
    return len(parts)
