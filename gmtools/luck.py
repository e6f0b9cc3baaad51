"""A logged roll's luck: where it fell in its own exact distribution when it was rolled (issue 14).

The numbers are the engine's (``rules.luck``): each game's ``BasePlay.luck`` asks its
``rules.<game>.luck`` when a roll is logged, and its follow-ups and checks (a V5 Willpower reroll
or rouse check, a Fate reroll) store theirs as they log them, in the same transaction. What is
stored is ``Luck.as_json()``: ``below``, ``equal``, ``above``, ``percentile`` (the mid-rank),
``band``, ``variance`` and every special result of the game with its chance before the roll
and whether it happened. Nothing rolled, nothing stored: an automatic success, taking half, a
+2 invocation (it threw no dice: its roll's luck stands), a stunt reward.

``backfill`` fills the rolls logged before luck was stored, from their stored request and result
(the data migration ``0012_fill_roll_luck``), where the game's ``BasePlay.stored_luck`` can replay them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from gmtools import games
from gmtools.formatting import percent
from rules.luck import Luck
from rules.luck import band as band_of

BATCH = 500

# A percentile's band (``rules.luck.band``) in words, and the tone the card draws it in.
BANDS: dict[str, tuple[Promise, str]] = {
    "very_unlucky": (pgettext_lazy("luck", "Very unlucky"), "worst"),
    "unlucky": (pgettext_lazy("luck", "Unlucky"), "bad"),
    "average": (pgettext_lazy("luck", "Average"), "neutral"),
    "lucky": (pgettext_lazy("luck", "Lucky"), "good"),
    "very_lucky": (pgettext_lazy("luck", "Very lucky"), "best"),
}


def band_words(band: str) -> Promise | str:
    return BANDS[band][0] if band in BANDS else band


def special_words(system: str, code: str) -> Promise | str:
    """A special result (``rules.luck.Special.code``) in its game's words; else its code."""
    try:
        return games.get(system).special_words.get(code, code)
    except KeyError:  # a game nobody registers any more
        return code


@dataclass(frozen=True)
class Line:
    """What a roll's card says of its luck: its band in a word, the share of rolls like it that it
    beat (``below``), and the special results it got with their chances before the roll."""

    band: str
    words: Promise | str
    tone: str
    below: float
    special: tuple[Promise | str, float] | None  # the rarest special result it got, with its chance
    # The share of rolls like it that score the same, said when "better than" alone would read as
    # another word (18.7 % "Average": 32.6 % of rolls tie with it); else None.
    tie: float | None = None
    # The follow-up whose dice the line ranks ("Willpower reroll"), or None for the roll's own: a
    # reroll is ranked among the rerolls of its dice beside the kept ones (``rules.v5.luck``), and
    # its specials' chances are those once the kept dice were known, so it says so.
    after: Promise | str | None = None

    @property
    def rank(self) -> str:
        """"better than 62% of rolls like it" (of rerolls like it, after a reroll)."""
        n = percent(self.below)
        if self.below <= 0:
            # Nothing like it scores less (a failed one-die check, a botch): "better than 0%" read as a
            # broken number (issue 23), so it is said in words.
            tie = {"tie": percent(self.tie or 0)}
            if self.after is None:
                if self.tie is None:
                    return _("no roll like it does worse")
                return _("no roll like it does worse, and %(tie)s roll the same") % tie
            if self.tie is None:
                return _("no reroll like it does worse")
            return _("no reroll like it does worse, and %(tie)s reroll the same") % tie
        if self.after is None:
            if self.tie is None:
                return _("better than %(n)s of rolls like it") % {"n": n}
            return _("better than %(n)s of rolls like it, and %(tie)s roll the same") % {"n": n, "tie": percent(self.tie)}
        if self.tie is None:
            return _("better than %(n)s of rerolls like it") % {"n": n}
        return _("better than %(n)s of rerolls like it, and %(tie)s reroll the same") % {"n": n, "tie": percent(self.tie)}

    @property
    def sentence(self) -> str:
        """The card's line as plain text ("Willpower reroll: Lucky · better than 86% of rerolls like it ·
        Messy critical, 9% before the reroll"), for what is not drawn by the card (Discord's embed)."""
        text = " · ".join(filter(None, (str(self.words), self.rank, self.special_text)))
        return f"{self.after}: {text}" if self.after else text

    @property
    def special_text(self) -> str:
        """"Messy critical, 9% before the roll" (before the reroll, after one); "" without one."""
        if self.special is None:
            return ""
        words = {"special": self.special[0], "p": percent(self.special[1])}
        return (_("%(special)s, %(p)s before the roll") if self.after is None
                else _("%(special)s, %(p)s before the reroll")) % words


def specials(luck: Mapping[str, Any], result: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The special results a roll's luck counts: none for an opposed roll, which its contest judges
    (``gmtools.verdicts``), never the difficulty beside it that the specials were priced against
    (a Fate success with style against Mediocre may be a plain success against the ogre)."""
    return [] if result.get("opposed") else list(luck.get("specials", ()))


def line(system: str, luck: Mapping[str, Any], result: Mapping[str, Any], after: Promise | str | None = None) -> Line:
    """The card's line. Of the special results the roll got, the rarest: a messy critical is a
    critical win too, and the card has one line (the verdict above it says the rest). ``after``:
    the follow-up that threw these dice (``Line.after``)."""
    band = luck.get("band", "")
    got = [s for s in specials(luck, result) if s.get("happened")]
    rarest = min(got, key=lambda s: s["prior"], default=None)
    special = (special_words(system, rarest["code"]), rarest["prior"]) if rarest else None
    below, equal = luck.get("below", 0.0), luck.get("equal", 0.0)
    # The word is the mid-rank's (below + equal / 2): with many rolls tying, "better than" alone says otherwise.
    tie = equal if band in BANDS and band_of(below) != band else None
    return Line(band, band_words(band), BANDS.get(band, ("", "neutral"))[1], below, special, tie, after)


def stored(luck: Luck | None) -> dict[str, Any] | None:
    """What ``Roll.luck`` holds for a roll's luck."""
    return luck.as_json() if luck is not None else None


def replayed(system: str, entry: Mapping[str, Any], state: dict[str, Any]) -> dict[str, Any] | None:
    """A logged entry's luck from what the log kept (``{"kind", "request", "result"}``), or None
    when its game cannot tell (no such game any more, or fields an older version wrote otherwise)."""
    try:
        replay = games.get(system).play.stored_luck
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
