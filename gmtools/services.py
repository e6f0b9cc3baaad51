"""Workflows across several rows: a roll with its spends, rouse checks, follow-ups, one-click changes.

Each runs in one transaction. A character (or campaign) row is locked with
``select_for_update`` before any check-then-write, so two requests that both try to spend the
last Willpower queue up and the second is refused: never a resource spent twice, never a roll
logged without its spend. Anything refused raises ``Refused`` with the message for the GM,
and the transaction leaves nothing behind.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext as _

from gmtools.composer import MODULES, Composition, Spend
from gmtools.models import Aspect, Campaign, Character, Roll, RollKind
from gmtools.sheets import Game
from rules import exalted, fate, scifi, v5
from rules.dice import RandomSource, RulesError


class Refused(Exception):
    """The action cannot be done as asked; the message says why, for the GM."""


def _lock(character_id: int) -> Character:
    return Character.objects.select_for_update().select_related("campaign").get(pk=character_id)


def _update(character: Character, **fields: Any) -> None:
    for name, value in fields.items():
        setattr(character, name, value)
    Character.objects.filter(pk=character.pk).update(**fields)


def _pay(spend: Spend) -> None:
    character = _lock(spend.character_id)
    if spend.what == "willpower":
        if character.exalted_willpower_temporary < 1:
            raise Refused(_("%(name)s has no temporary Willpower left.") % {"name": character.name})
        _update(character, exalted_willpower_temporary=character.exalted_willpower_temporary - 1)
    elif spend.what == "free_invocation":
        if not Aspect.objects.filter(pk=spend.aspect_id, character=character, free_invocations__gte=1).update(
            free_invocations=F("free_invocations") - 1
        ):
            raise Refused(_("“%(aspect)s” has no free invocation left.") % {"aspect": spend.label})
    elif spend.what == "fate_point":
        if character.fate_points < 1:
            raise Refused(_("%(name)s has no fate points left.") % {"name": character.name})
        _update(character, fate_points=character.fate_points - 1)
    elif spend.what == "v5_willpower":
        tracker = _v5_willpower(character)
        if tracker.undamaged < 1:
            raise Refused(_("%(name)s has no Willpower left to spend.") % {"name": character.name})
        spent = v5.spend_willpower(tracker)
        _update(character, v5_willpower_superficial=spent.superficial, v5_willpower_aggravated=spent.aggravated)
    else:  # pragma: no cover - the composer only makes the kinds above
        raise ValueError(spend.what)


def _v5_willpower(character: Character) -> v5.Tracker:
    return v5.Tracker(character.v5_willpower_boxes, character.v5_willpower_superficial,
                      character.v5_willpower_aggravated)


def request_doc(request: Any) -> dict[str, Any]:
    """A rules request as JSON-ready arguments; ``rebuild`` turns them back into the request."""
    return dataclasses.asdict(request)


def rebuild(system: str, doc: dict[str, Any]) -> Any:
    return MODULES[system].Request(**{**doc, "modifiers": tuple(doc.get("modifiers", ()))})


def _score(game: str, result: Any) -> int:
    return result.total if game == Game.FATE else result.successes


def _opposed(game: str, first: Any, second: Any) -> dict[str, Any]:
    net = _score(game, first) - _score(game, second)
    summary = {"net": net, "winner": "first" if net > 0 else "second" if net < 0 else "tie"}
    if game == Game.SCIFI:
        summary["victory"] = scifi.Opposed(first.roll, second.roll).as_json().get("victory")
    return summary


def _roll_main(campaign: Campaign, comp: Composition, rng: RandomSource | None) -> tuple[Any, dict[str, Any]]:
    """The acting side's result, and anything the roll changed on the campaign (the Fate deck)."""
    req = comp.request
    if comp.game == Game.EXALTED and comp.shortcut == "automatic":
        return exalted.automatic_success(req), {}
    if comp.game == Game.V5 and comp.shortcut == "take_half":
        return v5.take_half(req), {}
    if comp.game == Game.V5 and comp.shortcut == "automatic":
        return v5.automatic_win(req), {}
    if comp.game == Game.FATE and campaign.fate_uses_deck:
        # Lock the campaign: two draws at once must not take the same card.
        deck = Campaign.objects.select_for_update().values_list("fate_deck", flat=True).get(pk=campaign.pk)
        result, drawn = fate.roll_deck(req, fate.Deck.from_list(deck), rng)
        Campaign.objects.filter(pk=campaign.pk).update(fate_deck=drawn.deck.as_list())
        return result, {"card": drawn.card, "reshuffled": drawn.reshuffled}
    return comp.module.roll(req, rng), {}


@transaction.atomic
def record_roll(campaign: Campaign, comp: Composition, rng: RandomSource | None = None) -> Roll:
    """Pay the spends, roll, and log it: all of it or none of it."""
    for spend in comp.spends:
        _pay(spend)
    try:
        main, extra = _roll_main(campaign, comp, rng)
        document: dict[str, Any] = {"main": main.as_json(), **extra}
        if comp.opponent is not None:
            other = comp.module.roll(comp.opponent, rng)
            document["opponent"] = {"name": comp.opponent_name, **other.as_json()}
            document["opposed"] = _opposed(comp.game, main, other)
        if comp.team:
            helpers = [(name, exalted.roll(req, rng)) for name, req in comp.team]
            document["team"] = [{"name": name, **r.as_json()} for name, r in helpers]
            document["team_total"] = exalted.teamwork([main, *(r for _, r in helpers)])
        if comp.team_names:
            document["helpers"] = list(comp.team_names)
        if comp.game == Game.FATE:
            # Against an opponent the shifts are the difference of the totals (e.g. defending an attack).
            shifts = document["opposed"]["net"] if comp.opponent is not None else main.shifts
            document["effect"] = {**fate.effects(fate.Action(comp.action), fate.outcome_of(shifts), shifts=shifts).as_json(),
                                  "action": comp.action}
    except RulesError as error:
        raise Refused(str(error)) from None
    return Roll.objects.create(
        campaign=campaign, character=comp.character, actor=comp.actor, system=comp.game, kind=RollKind.ROLL,
        label=comp.label, request={**request_doc(comp.request), "shortcut": comp.shortcut},
        result=document, outcome=str(main.outcome), spends=[s.as_json() for s in comp.spends], secret=comp.secret,
    )


def _child(parent: Roll, kind: str, **fields: Any) -> Roll:
    try:
        with transaction.atomic():  # a savepoint, so a duplicate does not poison the outer transaction
            return Roll.objects.create(campaign=parent.campaign, character=parent.character, actor=parent.actor,
                                       system=parent.system, kind=kind, parent=parent, **fields)
    except IntegrityError:
        raise Refused(_("This roll has already been followed up that way.")) from None


@transaction.atomic
def rouse(character: Character, rng: RandomSource | None = None) -> Roll:
    """A rouse check: a failure raises Hunger by 1 (never past 5)."""
    character = _lock(character.pk)
    if character.game != Game.V5:
        raise Refused(_("Rouse checks are for Vampire characters."))
    check = v5.roll_rouse(character.v5_hunger, rng)
    _update(character, v5_hunger=check.hunger_after)
    return Roll.objects.create(
        campaign=character.campaign, character=character, actor=character.name, system=Game.V5,
        kind=RollKind.ROUSE, label=_("Rouse check"), request={"hunger": check.hunger_before},
        result={"main": check.as_json()}, outcome=str(check.outcome),
        spends=[{"what": "hunger", "amount": check.hunger_after - check.hunger_before}],
    )


@transaction.atomic
def willpower_reroll(parent: Roll, indices: list[int], rng: RandomSource | None = None) -> Roll:
    """V5: spend 1 Willpower (1 superficial damage) to reroll up to 3 normal dice of a roll."""
    if parent.system != Game.V5 or parent.kind != RollKind.ROLL or parent.character_id is None:
        raise Refused(_("Only a Vampire character's own roll can be rerolled with Willpower."))
    request = rebuild(Game.V5, {k: v for k, v in parent.request.items() if k != "shortcut"})
    main = parent.main
    try:
        result = v5.resolve(request, main["faces"], main["hunger_faces"])
        if main.get("automatic") or parent.request.get("shortcut") != "roll":
            raise RulesError(_("An automatic win or taking half rolls no dice to reroll."))
        rerolled = v5.roll_reroll(request, result, indices, rng)
    except RulesError as error:
        raise Refused(str(error)) from None
    _pay(Spend("v5_willpower", parent.character_id))
    return _child(parent, RollKind.REROLL, label=parent.label, request=parent.request,
                  result={"main": rerolled.as_json()}, outcome=str(rerolled.outcome),
                  spends=[{"what": "v5_willpower", "character": parent.character_id}])


@transaction.atomic
def invoke(parent: Roll, aspect: Aspect | None, mode: str, rng: RandomSource | None = None) -> Roll:
    """Fate: invoke an aspect after the roll, for +2 or to reroll all four dice.

    A free invocation on the aspect is used first, else a fate point. The new entry's request
    carries the +2 in its bonus, so every entry replays on its own.
    """
    if parent.system != Game.FATE or parent.character_id is None or parent.kind not in (RollKind.ROLL, RollKind.INVOKE):
        raise Refused(_("Only a Fate character's roll can be improved by an invocation."))
    if mode not in ("bonus", "reroll"):
        raise Refused(_("Choose +2 or a reroll."))
    if aspect is not None and aspect.free_invocations > 0:
        spend = Spend("free_invocation", parent.character_id, aspect.pk, aspect.text)
    else:
        spend = Spend("fate_point", parent.character_id, getattr(aspect, "pk", None), getattr(aspect, "text", ""))
    _pay(spend)
    request = rebuild(Game.FATE, {k: v for k, v in parent.request.items() if k != "shortcut"})
    if mode == "bonus":
        request = dataclasses.replace(request, bonus=request.bonus + fate.INVOKE_BONUS)
        result = fate.resolve(request, parent.main["faces"])
    else:
        result = fate.roll(request, rng)
    document = {"main": result.as_json(), "invoke": {"mode": mode, "aspect": spend.label, "paid": spend.what}}
    if "effect" in parent.result:
        action = parent.result["effect"].get("action") or parent.request.get("action")
        if action:
            document["effect"] = fate.effects(fate.Action(action), result.outcome, shifts=result.shifts).as_json()
    return _child(parent, RollKind.INVOKE, label=parent.label, request={**request_doc(request), "shortcut": "roll"},
                  result=document, outcome=str(result.outcome), spends=[spend.as_json()])


@transaction.atomic
def claim_stunt_reward(parent: Roll, choice: str) -> Roll:
    """Exalted: after a successful stunted roll, regain motes (1 per stunt die) or 1 Willpower (2–3 dice)."""
    if parent.system != Game.EXALTED or parent.kind != RollKind.ROLL or parent.character_id is None:
        raise Refused(_("Only an Exalted character's stunted roll earns a reward."))
    request = rebuild(Game.EXALTED, {k: v for k, v in parent.request.items() if k != "shortcut"})
    result = exalted.resolve(request, parent.main["faces"]) if parent.main["faces"] else exalted.automatic_success(request)
    options = {("willpower" if r.willpower else "motes"): r for r in exalted.stunt_rewards(result)}
    if choice not in options:
        raise Refused(_("That reward is not on offer for this roll."))
    character = _lock(parent.character_id)
    reward = options[choice]
    if reward.willpower:
        _update(character, exalted_willpower_temporary=min(character.exalted_willpower,
                                                           character.exalted_willpower_temporary + 1))
    else:
        _update(character, exalted_motes=min(character.exalted_motes_max, character.exalted_motes + reward.motes))
    return _child(parent, RollKind.REWARD, label=parent.label, request=parent.request,
                  result={"reward": reward.as_json()}, outcome=choice, spends=[])


# --- one-click resource changes ------------------------------------------------------------

def _step(field: str, delta: int, low: int | Callable[[Character], int], high: int | Callable[[Character], int],
          message: str) -> Callable[[Character], dict[str, Any]]:
    def change(c: Character) -> dict[str, Any]:
        value = getattr(c, field) + delta
        lo = low(c) if callable(low) else low
        hi = high(c) if callable(high) else high
        if not lo <= value <= hi:
            raise Refused(message % {"name": c.name})
        return {field: value}
    return change


def _v5_track(track: str, kind: str, heal: bool) -> Callable[[Character], dict[str, Any]]:
    def change(c: Character) -> dict[str, Any]:
        boxes = c.v5_health_boxes if track == "health" else c.v5_willpower_boxes
        tracker = v5.Tracker(boxes, getattr(c, f"v5_{track}_superficial"), getattr(c, f"v5_{track}_aggravated"))
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


def _fate_refresh(c: Character) -> dict[str, Any]:
    return {"fate_points": max(c.fate_points, c.fate_refresh)}


def _toggle(field: str) -> Callable[[Character], dict[str, Any]]:
    return lambda c: {field: not getattr(c, field)}


ADJUSTMENTS: dict[str, dict[str, Callable[[Character], dict[str, Any]]]] = {
    Game.EXALTED: {
        "willpower-spend": _step("exalted_willpower_temporary", -1, 0, 10, _("%(name)s has no temporary Willpower left.")),
        "willpower-regain": _step("exalted_willpower_temporary", 1, 0, lambda c: c.exalted_willpower,
                                  _("%(name)s's temporary Willpower is already at its permanent rating.")),
        "motes-spend": _step("exalted_motes", -1, 0, 100, _("%(name)s has no motes left.")),
        "motes-regain": _step("exalted_motes", 1, 0, lambda c: c.exalted_motes_max,
                              _("%(name)s's mote pool is already full.")),
    },
    Game.V5: {
        "hunger-up": _step("v5_hunger", 1, 0, 5, _("%(name)s is already at Hunger 5.")),
        "hunger-down": _step("v5_hunger", -1, 0, 5, _("%(name)s is already at Hunger 0.")),
        **{f"{track}-{kind}-{verb}": _v5_track(track, kind, verb == "heal")
           for track in ("health", "willpower") for kind in ("superficial", "aggravated") for verb in ("damage", "heal")},
    },
    Game.FATE: {
        "fate-point-spend": _step("fate_points", -1, 0, 99, _("%(name)s has no fate points left.")),
        "fate-point-gain": _step("fate_points", 1, 0, 99, _("%(name)s cannot hold more fate points.")),
        "refresh": _fate_refresh,
        **{f"stress-{n}": _toggle(f"fate_stress_{n}") for n in (1, 2, 3)},
    },
    Game.SCIFI: {},
}


@transaction.atomic
def adjust(character: Character, action: str) -> Character:
    """Apply one click (spend, regain, damage, heal, refresh) to a character's resources."""
    character = _lock(character.pk)
    change = ADJUSTMENTS[character.game].get(action)
    if change is None:
        raise Refused(_("Unknown change for this game."))
    _update(character, **change(character))
    return character
