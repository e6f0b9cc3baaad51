"""Vampire V5 at the table: taking half and the automatic win, Willpower spent on a roll and its
reroll, the rouse check, and the character card's one-click changes (Hunger, the two trackers).

Imported when first asked (``GameSystem.at_table``): it uses the models and ``gmtools.services``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from gmtools.composer import Spend
from gmtools.games.base import CharacterCheck, FollowUp, TablePlay
from gmtools.live import announce
from gmtools.models import ChangeKind, Character, Roll, RollKind, Scene
from gmtools.notes import refusal_text
from gmtools.services import (
    Refused, character_spend, lock_character, log_follow_up, logged_request, pay, rebuild, step, update_character,
)
from rules import v5
from rules.dice import RandomSource, RulesError


def _tracker(c: Character, track: str) -> v5.Tracker:
    boxes = c.v5_health_boxes if track == "health" else c.v5_willpower_boxes
    return v5.Tracker(boxes, getattr(c, f"v5_{track}_superficial"), getattr(c, f"v5_{track}_aggravated"))


def _track(track: str, kind: str, heal: bool) -> Callable[[Character], dict[str, Any]]:
    def change(c: Character) -> dict[str, Any]:
        tracker = _tracker(c, track)
        if heal:
            if getattr(tracker, kind) == 0:
                raise Refused(_("No %(kind)s damage to heal.") % {"kind": _(kind)})
            tracker = tracker.heal_superficial(1) if kind == "superficial" else tracker.heal_aggravated(1)
        else:
            if tracker.overwhelmed:
                raise Refused(_("Every box is already aggravated."))
            tracker = tracker.damage(kind, 1)
        return {f"v5_{track}_superficial": tracker.superficial, f"v5_{track}_aggravated": tracker.aggravated}
    return change


ADJUSTMENTS = {
    "hunger-up": step("v5_hunger", 1, 0, 5, gettext_lazy("%(name)s is already at Hunger 5.")),
    "hunger-down": step("v5_hunger", -1, 0, 5, gettext_lazy("%(name)s is already at Hunger 0.")),
    **{f"{track}-{kind}-{verb}": _track(track, kind, verb == "heal")
       for track in ("health", "willpower") for kind in ("superficial", "aggravated") for verb in ("damage", "heal")},
}


def _spend_willpower(c: Character) -> dict[str, Any]:
    """1 superficial Willpower damage, while a box is undamaged."""
    tracker = _tracker(c, "willpower")
    if tracker.undamaged < 1:
        raise Refused(_("%(name)s has no Willpower left to spend.") % {"name": c.name})
    spent = v5.spend_willpower(tracker)
    return {"v5_willpower_superficial": spent.superficial, "v5_willpower_aggravated": spent.aggravated}


SPENDS = {
    # Spending marked 1 superficial damage (there was an undamaged box): voiding heals it.
    "v5_willpower": character_spend(
        pay=_spend_willpower,
        give_back=lambda c, spend: {"v5_willpower_superficial": max(0, c.v5_willpower_superficial - 1)}),
    # A rouse check: the Hunger it added goes.
    "hunger": character_spend(give_back=lambda c, spend: {"v5_hunger": max(0, c.v5_hunger - int(spend.get("amount", 0)))}),
}


def _willpower_reroll(parent: Roll, rng: RandomSource | None, indices: list[int]) -> Roll:
    """Spend 1 Willpower (1 superficial damage) to reroll up to 3 normal dice of a roll."""
    doc = logged_request(parent)
    if doc.get("tracker") and "remorse" not in doc:
        # Logged before Willpower rolls took Hunger dice (issue 11): it rolled none, as a remorse roll does.
        doc = {**doc, "remorse": True}
    request = rebuild(parent.system, doc)
    main = parent.main
    try:
        result = v5.resolve(request, main["faces"], main["hunger_faces"])
        if main.get("automatic") or parent.request.get("shortcut") != "roll":
            raise RulesError(_("An automatic win or taking half rolls no dice to reroll."))
        rerolled = v5.roll_reroll(request, result, indices, rng)
    except RulesError as error:
        raise Refused(refusal_text(error)) from None
    pay(Spend("v5_willpower", parent.character_id))
    return log_follow_up(parent, RollKind.REROLL, label=parent.label, request=parent.request,
                         result={"main": rerolled.as_json()}, outcome=str(rerolled.outcome),
                         spends=[{"what": "v5_willpower", "character": parent.character_id}])


REROLL = FollowUp(
    kind=RollKind.REROLL,
    form="games/v5/card.html#reroll",
    # Dice to reroll (not an automatic win nor taking half, not a tracker roll), and Willpower to pay.
    offered=lambda roll: (roll.kind == RollKind.ROLL and bool(roll.main.get("faces")) and not roll.main.get("automatic")
                          and not roll.request.get("tracker") and bool(roll.character.v5_willpower_left)),
    applies=lambda roll: roll.kind == RollKind.ROLL and roll.character_id is not None,
    take=_willpower_reroll,
    refusal=gettext_lazy("Only a Vampire character's own roll can be rerolled with Willpower."),
)


def _rouse(character: Character, rng: RandomSource | None) -> Roll:
    """A rouse check: a failure raises Hunger by 1 (never past 5)."""
    character = lock_character(character.pk)
    check = v5.roll_rouse(character.v5_hunger, rng)
    update_character(character, v5_hunger=check.hunger_after)
    scene = Scene.objects.current(character.campaign)
    logged = Roll.objects.create(
        campaign=character.campaign, character=character, actor=character.name, system=character.game,
        scene=scene, turn=scene.turn if scene else None,
        kind=RollKind.ROUSE, label=_("Rouse check"), label_parts=["term:rouse_check"], request={"hunger": check.hunger_before},
        result={"main": check.as_json()}, outcome=str(check.outcome),
        spends=[{"what": "hunger", "amount": check.hunger_after - check.hunger_before}],
    )
    announce(character.campaign_id, ChangeKind.ROLL, roll=logged)
    return logged


ROUSE = CharacterCheck(kind=RollKind.ROUSE, take=_rouse,
                       refusal=gettext_lazy("Rouse checks are for Vampire characters."))

PLAY = TablePlay(
    shortcuts={"take_half": lambda request, stressful: v5.take_half(request, stressful=stressful),
               "automatic": lambda request, stressful: v5.automatic_win(request, stressful=stressful)},
    spends=SPENDS,
    follow_ups=(REROLL,),
    checks=(ROUSE,),
    adjustments=ADJUSTMENTS,
    hit_face=6,
    party_card="games/v5/play.html#party-card",
)
