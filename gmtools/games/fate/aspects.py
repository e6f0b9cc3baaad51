"""Fate: which aspects are in play, who may invoke what on one roll, and what Create an advantage makes.

Queries and rules only (no writes: those are in ``gmtools.services``, each in one transaction).

Decisions, where seed 004 and RULES.md leave room:

- **In play** for a roll: the rolling character's own aspects, the current scene's situation
  aspects and boosts, and the aspects of the other characters in the scene's turn order. With no
  scene in play, only the character's own. An ended scene's aspects are gone (the end of a scene
  deletes them, those put on a character included).
- **The same aspect twice on one roll** (the roll and its invocations after it): seed 004 allows
  it only as the exception of a success with style's two free invocations ("normalmente no se
  puede invocar dos veces el mismo aspecto en una tirada"). The rule is the engine's
  (``rules.fate.may_invoke``): an aspect is invoked at most twice on one roll, and twice only when
  both invocations are free; a fate point never pays for a second invocation of it (Fate Core's
  stacking of a paid invocation on a free one is not Fate Accelerated's seed), never a third
  invocation. The composer offers the second invocation only of an aspect with two free
  invocations or more (the style case); after the roll, the card's Invoke offers only what this
  rule allows, and the server refuses anything else.
- **A boost** has one free invocation and is deleted when it is used.
- **A consequence** ("Broken nose") is an aspect too (seed 004 and FAE): anyone whose roll has it in
  play invokes it, the GM for the opposition as its owner, in the composer and on the card after
  the roll, by the rule of one roll as any aspect. It is invoked with a fate point, but for Fate
  Core's rule: whoever inflicted it invokes it once for free. The GM names who that is where the
  consequence is written (its card, the sheet: ``FateResources.consequence_<severity>_free_for``,
  None once used); voiding that invocation gives it back, while the consequence is still taken and
  nobody else's free invocation stands on it. In play as the character's aspects are: the
  roller's own, and with a scene those of the characters in its turn order.
- **Create an advantage** names its aspect in the composer and puts it on the scene (by default)
  or on a character. A name that matches an aspect already there (case aside, boosts aside) is a
  known aspect: tie or success +1 free invocation, style +2. A new aspect: tie a boost, success
  the aspect with 1 free invocation, style with 2, fail nothing (the GM may still add it by hand).
  An advantage made on a character in a scene ends with the scene too.
- **An invocation after a Create an advantage roll** brings the advantage up to what the new
  result gives (a fail turned into a success creates the aspect; a tie's boost becomes the aspect
  with one free invocation; success turned into style adds the second). It only ever goes up: a
  reroll that lowers the result takes nothing back (the GM removes the aspect by hand if so).
  The aspect a roll made cannot be invoked on that same roll.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Case, IntegerField, Q, QuerySet, Value, When
from django.utils.translation import gettext, gettext_lazy, ngettext

from gmtools.games.base import Spend
from gmtools.games.fate.models import SEVERITIES, Aspect, FateResources
from gmtools.models import Campaign, Character, Scene, SceneParticipant
from rules import fate

FREE, PAID = fate.Paid.FREE.value, fate.Paid.FATE_POINT.value  # "free_invocation", "fate_point"
# At most this many invocations of one aspect on one roll (seed 004: success with style's two).
MOST_PER_ROLL = fate.MOST_PER_ASPECT


def in_play(campaign: Campaign | int, scene: Scene | None, character: Character | int | None) -> QuerySet[Aspect]:
    """The aspects a character's roll may invoke: its own first, then the scene's, then the others'."""
    character_id = getattr(character, "pk", character)
    where = Q(character_id=character_id) if character_id is not None else Q(pk__in=[])
    if scene is not None:
        taking_part = SceneParticipant.objects.filter(scene=scene).values("character_id")
        where |= Q(scene=scene, character__isnull=True) | Q(character_id__in=taking_part)
    campaign_id = getattr(campaign, "pk", campaign)
    where &= Q(character__campaign_id=campaign_id) | Q(character__isnull=True, scene__episode__story__campaign_id=campaign_id)
    place = Case(When(character_id=character_id, then=Value(0)), When(character__isnull=True, then=Value(1)),
                 default=Value(2), output_field=IntegerField())
    return Aspect.objects.filter(where).select_related("character").annotate(place=place).order_by("place", "id")


@dataclass(frozen=True)
class Consequence:
    """A consequence a character has taken, as an aspect to invoke (with a fate point, or free for
    whoever inflicted it, once)."""

    character_id: int
    owner: str  # the character's name
    severity: str  # "mild", "moderate", "severe" (``FateResources.consequences``)
    text: str
    free_for: int | None = None  # the character whose next invocation of it is free

    PREFIX = "consequence"

    @property
    def key(self) -> str:
        """How a form names it (and the log's invocations count it): "consequence:12:moderate"."""
        return f"{self.PREFIX}:{self.character_id}:{self.severity}"

    def label(self, roller_id: int | None = None) -> str:
        """"Broken nose (Fortress guard, moderate consequence)"; the roller's own without its name;
        ", free" when the roller's invocation of it is."""
        parts = [] if self.character_id == roller_id else [self.owner]
        parts.append(str(SEVERITY_WORDS[self.severity]))
        if roller_id is not None and self.free_for == roller_id:
            parts.append(gettext("free"))
        return f"{self.text} ({', '.join(parts)})"

    def payable(self, roller_id: int, fate_points: int) -> str | None:
        """How the roller's next invocation of it is paid: free for whoever inflicted it, else a fate point."""
        if self.free_for == roller_id:
            return FREE
        return PAID if fate_points > 0 else None


SEVERITY_WORDS = {"mild": gettext_lazy("mild consequence"), "moderate": gettext_lazy("moderate consequence"),
                  "severe": gettext_lazy("severe consequence")}


def consequences_in_play(campaign: Campaign | int, scene: Scene | None,
                         character: Character | int | None) -> list[Consequence]:
    """The consequences a character's roll may invoke, from the characters whose aspects are in
    play (``in_play``): its own first, then those of the others in the scene's turn order."""
    character_id = getattr(character, "pk", character)
    who = Q(pk=character_id) if character_id is not None else Q(pk__in=[])
    if scene is not None:
        who |= Q(pk__in=SceneParticipant.objects.filter(scene=scene).values("character_id"))
    campaign_id = getattr(campaign, "pk", campaign)
    rows = (FateResources.objects.filter(character__in=Character.objects.filter(who, campaign_id=campaign_id))
            .exclude(consequence_mild="", consequence_moderate="", consequence_severe="")
            .select_related("character").order_by("character_id"))
    found = [Consequence(row.character_id, row.character.name, slot.severity, slot.text, slot.free_for)
             for row in rows for slot in row.consequences if slot.text]
    return sorted(found, key=lambda c: c.character_id != character_id)


@dataclass(frozen=True)
class ConsequenceSpend(Spend):
    """A fate point paid to invoke a consequence: the log keeps which one (its key), so that the
    rule of one roll counts it as it counts an aspect."""

    consequence: str = ""

    def as_json(self) -> dict[str, Any]:
        return {**super().as_json(), "consequence": self.consequence}


def paying_for(character_id: int, consequence: Consequence) -> ConsequenceSpend:
    """Its free invocation when it is this character's, else a fate point."""
    paid = FREE if consequence.free_for == character_id else PAID
    return ConsequenceSpend(paid, character_id, None, consequence.text, consequence=consequence.key)


def consequence_slot(key: str) -> tuple[int, str] | None:
    """A consequence's key as the log keeps it ("consequence:12:moderate"): its character and severity."""
    prefix, _sep, rest = key.partition(":")
    character, _sep, severity = rest.partition(":")
    if prefix != Consequence.PREFIX or not (character.isascii() and character.isdigit()) or severity not in SEVERITIES:
        return None
    return int(character), severity


def consequence_of(key: str, campaign: Campaign | int, scene: Scene | None,
                   character: Character | int | None) -> Consequence | None:
    """The consequence a form named, if it is still in play for this roll (its text as it is now)."""
    return next((c for c in consequences_in_play(campaign, scene, character) if c.key == key), None)


def payable(aspect: Aspect, fate_points: int) -> str | None:
    """How the next invocation of this aspect is paid: a free invocation first, else a fate point."""
    if aspect.free_invocations > 0:
        return FREE
    return PAID if fate_points > 0 else None


def may_invoke_again(earlier: list[str], paying: str) -> bool:
    """``earlier``: how this aspect was already paid for on this roll; ``paying``: how it would be now.
    The engine's rule (seed 004): twice only when both are free invocations, never a third time."""
    return fate.may_invoke(earlier, paying)


def twice_refusal(text: str) -> str:
    return gettext("“%(aspect)s” is already invoked on this roll: the same aspect twice only with two free "
                   "invocations (a success with style's), and never a third time.") % {"aspect": text}


def invocations(spends: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The aspects a list of spends invoked: [{"aspect": id, "paid": what}, ...]; a consequence's
    id is its key ("consequence:12:moderate")."""
    return [{"aspect": s.get("aspect") or s.get("consequence"), "paid": s["what"]} for s in spends
            if s.get("what") in (FREE, PAID) and (s.get("aspect") or s.get("consequence")) is not None]


def label(aspect: Aspect, roller_id: int | None = None) -> str:
    """An aspect as a choice: "On fire (scene, 2 free)", "Daring pilot (Ana)"."""
    parts = []
    if aspect.character_id is None and not aspect.boost:
        parts.append(gettext("scene"))
    elif aspect.character_id not in (None, roller_id) and aspect.character is not None:
        parts.append(aspect.character.name)
    if aspect.boost:
        parts.append(gettext("boost"))
    elif aspect.free_invocations:
        parts.append(ngettext("%(n)d free", "%(n)d free", aspect.free_invocations) % {"n": aspect.free_invocations})
    return f"{aspect.text} ({', '.join(parts)})" if parts else aspect.text


# --- Create an advantage ------------------------------------------------------------------------


@dataclass(frozen=True)
class Grant:
    """What a Create an advantage result gives: free invocations, as a boost or not."""

    free: int = 0
    boost: bool = False

    def better_than(self, other: Grant) -> bool:
        return self.free > other.free or (self.free == other.free and other.boost and not self.boost)


def grant(effect: dict[str, Any], known: bool) -> Grant:
    """From the action's effect (``rules.fate.effects``): a boost, or N free invocations."""
    if known:
        return Grant(free=effect.get("free_invokes", 0))
    if effect.get("boost"):
        return Grant(free=1, boost=True)
    return Grant(free=effect.get("free_invokes", 0)) if effect.get("aspect_created") else Grant()


def known_aspect(campaign: Campaign | int, scene: Scene | None, on: Character | None, text: str) -> Aspect | None:
    """An aspect already there with this name (not a boost): on the character, or the scene's own."""
    rows = Aspect.objects.filter(boost=False, text__iexact=text)
    if on is not None:
        return rows.filter(character=on).first()
    return rows.filter(scene=scene, character__isnull=True).first() if scene is not None else None


def advantage_text(advantage: dict[str, Any]) -> str:
    """The card's line: what a Create an advantage put in play (empty when nothing yet)."""
    free, text = advantage.get("free", 0), advantage.get("text", "")
    where = advantage.get("on_name") or gettext("the scene")
    if advantage.get("boost"):
        return gettext("Boost “%(aspect)s” on %(where)s (gone once invoked)") % {"aspect": text, "where": where}
    if advantage.get("known") and free:
        return ngettext("“%(aspect)s” on %(where)s: +%(n)d free invocation",
                        "“%(aspect)s” on %(where)s: +%(n)d free invocations", free) % {
            "aspect": text, "where": where, "n": free}
    if advantage.get("aspect") is not None and not advantage.get("known"):
        return ngettext("New aspect “%(aspect)s” on %(where)s, %(n)d free invocation",
                        "New aspect “%(aspect)s” on %(where)s, %(n)d free invocations", free) % {
            "aspect": text, "where": where, "n": free}
    return ""


def invoked_text(spends: Iterable[dict[str, Any]]) -> str:
    """The card's line: which aspects the entry invoked, and how each was paid."""
    counted: dict[tuple[str, str], int] = {}
    for spend in spends:
        what, text = spend.get("what"), spend.get("label", "")
        if what == FREE or (what == PAID and text):
            counted[(text, what)] = counted.get((text, what), 0) + 1
    parts = []
    for (text, what), n in counted.items():
        if what == PAID:
            parts.append(gettext("“%(aspect)s” (fate point)") % {"aspect": text})
        elif n > 1:  # success with style's two free invocations on one roll
            parts.append(gettext("“%(aspect)s” (free, twice)") % {"aspect": text})
        else:
            parts.append(gettext("“%(aspect)s” (free)") % {"aspect": text})
    return gettext("Invoked %(aspects)s") % {"aspects": ", ".join(parts)} if parts else ""
