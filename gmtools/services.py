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

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Max
from django.db.models.functions import Greatest, Least
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _, gettext_lazy

from gmtools import aspects, games
from gmtools.composer import Composition, Spend
from gmtools.live import announce
from gmtools.notes import refusal_text
from gmtools.models import (
    CHARACTER_BOUNDS,
    Aspect,
    Campaign,
    ChangeKind,
    Character,
    Episode,
    ExtendedAction,
    ExtendedKind,
    ResourceChange,
    Roll,
    RollKind,
    Scene,
    SceneParticipant,
    Story,
    TurnDeclaration,
)
from gmtools.sheets import Game
from rules import exalted, fate, scifi, v5
from rules.dice import RandomSource, RulesError
from rules.extended import ExtendedState, advance, botch_policy, gain


class Refused(Exception):
    """The action cannot be done as asked; the message says why, for the GM."""


def _lock(character_id: int) -> Character:
    return Character.objects.select_for_update().select_related("campaign").get(pk=character_id)


def _update(character: Character, **fields: Any) -> None:
    for name, value in fields.items():
        setattr(character, name, value)
    Character.objects.filter(pk=character.pk).update(**fields)


def _pay(spend: Spend) -> dict[str, Any]:
    """Pay one spend; what the log records of it (a boost used up records what it was, so that
    voiding the roll can put it back)."""
    character = _lock(spend.character_id)
    record = spend.as_json()
    if spend.what == "willpower":
        if character.exalted_willpower_temporary < 1:
            raise Refused(_("%(name)s has no temporary Willpower left.") % {"name": character.name})
        _update(character, exalted_willpower_temporary=character.exalted_willpower_temporary - 1)
    elif spend.what == "free_invocation":
        record.update(_use_free_invocation(character, spend))
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
    return record


def _use_free_invocation(character: Character, spend: Spend) -> dict[str, Any]:
    """Fate: one free invocation of an aspect in play for this character's roll; a boost is gone once used."""
    campaign = character.campaign
    aspect = aspects.in_play(campaign, Scene.objects.current(campaign), character).filter(pk=spend.aspect_id).first()
    if aspect is None:
        raise Refused(_("“%(aspect)s” is no longer in play.") % {"aspect": spend.label})
    rows = Aspect.objects.filter(pk=aspect.pk, free_invocations__gte=1)
    # Atomic in the database: two rolls never use the same last free invocation (or the same boost).
    done = rows.filter(boost=True).delete()[0] if aspect.boost else rows.update(free_invocations=F("free_invocations") - 1)
    if not done:
        raise Refused(_("“%(aspect)s” has no free invocation left.") % {"aspect": spend.label})
    if aspect.character_id not in (None, character.pk):
        # Another character's card shows the invocation used (the roller's and the scene's are redrawn with the roll).
        announce(campaign.pk, ChangeKind.CHARACTER, character=aspect.character)
    return {"boost": {"text": aspect.text, "scene": aspect.scene_id, "character": aspect.character_id}} if aspect.boost else {}


def _v5_willpower(character: Character) -> v5.Tracker:
    return v5.Tracker(character.v5_willpower_boxes, character.v5_willpower_superficial,
                      character.v5_willpower_aggravated)


def request_doc(request: Any) -> dict[str, Any]:
    """A rules request as JSON-ready arguments; ``rebuild`` turns them back into the request."""
    return dataclasses.asdict(request)


def rebuild(system: str, doc: dict[str, Any]) -> Any:
    if system == Game.V5 and doc.get("tracker") and "remorse" not in doc:
        # Logged before Willpower rolls took Hunger dice (issue 11): it rolled none, as a remorse roll does.
        doc = {**doc, "remorse": True}
    return games.get(system).engine.Request(**{**doc, "modifiers": tuple(doc.get("modifiers", ()))})


def _score(game: str, result: Any) -> int:
    return result.total if game == Game.FATE else result.successes


def _opposed(game: str, first: Any, second: Any, handicap: tuple[int, int] = (0, 0)) -> dict[str, Any]:
    """Who won; ``handicap``: exalted's successes taken from each side's roll first (never below 0)."""
    if any(handicap):
        opposed = exalted.resolve_opposed(first, second, *handicap)
        net = opposed.net if opposed.outcome is exalted.Opposed.WIN else -opposed.net
        return {"net": net, "winner": "first" if net > 0 else "second" if net < 0 else "tie",
                "handicap": list(handicap)}
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
    combat = comp.scene is not None and comp.scene.combat  # the shortcuts are never for a combat scene
    if comp.game == Game.V5 and comp.shortcut == "take_half":
        return v5.take_half(req, stressful=combat), {}
    if comp.game == Game.V5 and comp.shortcut == "automatic":
        return v5.automatic_win(req, stressful=combat), {}
    if comp.game == Game.FATE:
        return _draw_fate(campaign.pk, req, rng)
    return comp.module.roll(req, rng), {}


def _draw_fate(campaign_id: int, req: Any, rng: RandomSource | None) -> tuple[Any, dict[str, Any]]:
    """Four Fate dice, or the campaign's next card when it draws from the Fate deck.

    The campaign row is locked first: two draws at once must not take the same card.
    """
    uses_deck, deck = Campaign.objects.select_for_update().values_list("fate_uses_deck", "fate_deck").get(pk=campaign_id)
    if not uses_deck:
        return fate.roll(req, rng), {}
    result, drawn = fate.roll_deck(req, fate.Deck.from_list(deck), rng)
    Campaign.objects.filter(pk=campaign_id).update(fate_deck=drawn.deck.as_list())
    return result, {"card": drawn.card, "reshuffled": drawn.reshuffled}


def _fate_effect(action: str, result: Any, opponent_total: int | None, known: bool = False) -> dict[str, Any]:
    """The action's effect by the Fate table; against an opponent the shifts are the totals' difference.
    ``known``: a Create an advantage on an aspect already there (gmtools.aspects)."""
    shifts = result.total - opponent_total if opponent_total is not None else result.shifts
    effect = fate.effects(fate.Action(action), fate.outcome_of(shifts), known_aspect=known, shifts=shifts)
    return {**effect.as_json(), "action": action}


def _start_advantage(campaign: Campaign, scene: Scene | None, comp: Composition) -> dict[str, Any]:
    """What a Create an advantage roll will make, before its result: its aspect, where, and whether it is known."""
    on = comp.advantage_on
    if on is None and scene is None:
        raise Refused(_("No scene is in play to hold “%(aspect)s”: start one, or put the aspect on a character.")
                      % {"aspect": comp.advantage})
    known = aspects.known_aspect(campaign, scene, on, comp.advantage)
    return {"text": known.text if known else comp.advantage, "on": getattr(on, "pk", None),
            "on_name": on.name if on else "", "scene": getattr(scene, "pk", None), "known": known is not None,
            "aspect": known.pk if known else None, "free": 0, "boost": False}


def _advance_advantage(campaign_id: int, roller_id: int | None, state: dict[str, Any],
                       effect: dict[str, Any]) -> dict[str, Any]:
    """Bring a Create an advantage up to what its latest result gives (only ever up: see gmtools.aspects)."""
    now = aspects.grant(effect, state["known"])
    before = aspects.Grant(state["free"], state["boost"])
    if not now.better_than(before):
        return state
    more = now.free - before.free
    row = Aspect.objects.filter(pk=state["aspect"]) if state["aspect"] else Aspect.objects.none()
    if state["known"] or (state["aspect"] and row.exists()):
        row.update(free_invocations=Least(F("free_invocations") + more, 9), boost=now.boost and not state["known"])
    elif not (state["aspect"] and now.boost):  # never made yet, or made and gone since (a boost used elsewhere)
        free = now.free if state["aspect"] is None else max(0, more)
        made = Aspect.objects.create(character_id=state["on"], scene_id=state["scene"] if not state["known"] else None,
                                     text=state["text"], free_invocations=min(free, 9), boost=now.boost)
        state = {**state, "aspect": made.pk}
    if state["on"] not in (None, roller_id):
        # Its card shows the new aspect (the roller's card and the scene are redrawn with the roll).
        announce(campaign_id, ChangeKind.CHARACTER, character=Character(pk=state["on"], campaign_id=campaign_id))
    return {**state, "free": now.free, "boost": now.boost}


def _check_turn(comp: Composition) -> tuple[Scene | None, int | None]:
    """Re-check, under the character's lock, that the turn is as the composer priced it."""
    if comp.scene is None:
        return None, None
    scene = Scene.objects.get(pk=comp.scene.pk)
    if scene.ended_at is not None:
        raise Refused(_("This scene has ended; start a new one."))
    if comp.character is not None and Roll.objects.this_turn(scene, comp.character).count() != comp.earlier_actions:
        raise Refused(_("%(name)s has just acted this turn; compose the roll again.") % {"name": comp.character.name})
    return scene, scene.turn


def _advance_extended(comp: Composition, main: Any, document: dict[str, Any]) -> dict[str, Any]:
    """Roll into an extended action (locked): add the roll's gain, apply a botch, settle a contest."""
    action = ExtendedAction.objects.select_for_update().get(pk=comp.extended.pk)
    if action.over:
        raise Refused(_("“%(name)s” is already over.") % {"name": action.name})
    successes = document.get("team_total", main.successes)
    # A scifi fumble is judged against the extended action's own difficulty, as its odds are.
    botched = scifi.extended_fumble(main.roll, action.difficulty) if comp.game == Game.SCIFI else str(main.outcome) == "botch"
    # What voiding this roll needs to replay the action without it (see ``_replay_extended``).
    before = {"total": action.total, "opponent_total": action.opponent_total, "rolls": action.rolls,
              "ruined": action.ruined}
    rolled: dict[str, Any] = {"successes": successes, "botched": botched}
    state = advance(ExtendedState(goal=action.goal if action.kind == ExtendedKind.SOLO else 10**6, total=action.total,
                                  rolls=action.rolls), successes, botched, action.difficulty, botch_policy(action.botch))
    fields: dict[str, Any] = {"total": state.total, "rolls": state.rolls, "ruined": state.ruined}
    # The first roll tells who rolls it, with what and how many dice, unless the GM said so.
    if action.character_id is None and comp.character is not None:
        fields["character"] = comp.character
    if not action.traits:
        fields["traits"] = comp.label[:200]
    if not action.pool:
        fields["pool"] = min(100, comp.request.dice)
    if action.kind != ExtendedKind.SOLO and not action.opponent_pool:
        fields["opponent_pool"] = min(100, comp.opponent.dice)
    if action.kind != ExtendedKind.SOLO:
        other = document["opponent"]["successes"]
        fields["opponent_total"] = action.opponent_total + gain(other, action.difficulty)
        rolled["opponent"] = other
    ExtendedAction.objects.filter(pk=action.pk).update(**fields)
    for name, value in fields.items():
        setattr(action, name, value)
    return {"id": action.pk, "name": action.name, "total": action.total, "opponent_total": action.opponent_total,
            "rolls": action.rolls, "ruined": action.ruined, "winner": action.winner, "before": before, "rolled": rolled}


@transaction.atomic
def record_roll(campaign: Campaign, comp: Composition, rng: RandomSource | None = None) -> Roll:
    """Pay the spends, roll, and log it: all of it or none of it."""
    if comp.character is not None:
        _lock(comp.character.pk)  # one roll of a character at a time: budgets and spends stay exact
    scene, turn = _check_turn(comp)
    paid = [_pay(spend) for spend in comp.spends]
    try:
        main, extra = _roll_main(campaign, comp, rng)
        document: dict[str, Any] = {"main": main.as_json(), **extra}
        if comp.opponent is not None:
            other = comp.module.roll(comp.opponent, rng)
            document["opponent"] = {"name": comp.opponent_name, **other.as_json()}
            document["opposed"] = _opposed(comp.game, main, other, comp.handicap)
        if comp.team:
            helpers = [(name, exalted.roll(req, rng)) for name, req in comp.team]
            document["team"] = [{"name": name, **r.as_json()} for name, r in helpers]
            document["team_total"] = exalted.teamwork([main, *(r for _, r in helpers)])
        if comp.team_names:
            document["helpers"] = list(comp.team_names)
        if comp.game == Game.FATE:
            opponent_total = document["opponent"]["total"] if comp.opponent is not None else None
            advantage = _start_advantage(campaign, scene, comp) if comp.advantage else None
            document["effect"] = _fate_effect(comp.action, main, opponent_total, known=bool(advantage and advantage["known"]))
            if invoked := aspects.invocations(spend.as_json() for spend in comp.spends):
                document["invoked"] = invoked  # the aspects invoked on this roll so far (its follow-ups add theirs)
            if advantage is not None:
                document["advantage"] = _advance_advantage(campaign.pk, getattr(comp.character, "pk", None),
                                                           advantage, document["effect"])
        if comp.notes:
            document["turn_notes"] = list(comp.notes)
        if comp.extended is not None:
            document["extended"] = _advance_extended(comp, main, document)
    except RulesError as error:
        raise Refused(refusal_text(error)) from None
    logged = Roll.objects.create(
        campaign=campaign, character=comp.character, actor=comp.actor, system=comp.game, kind=RollKind.ROLL,
        label=comp.label, label_parts=list(comp.label_parts),
        request={**request_doc(comp.request), "shortcut": comp.shortcut},
        result=document, outcome=str(main.outcome), spends=paid, secret=comp.secret,
        hidden=comp.hidden, scene=scene, turn=turn, extended=comp.extended,
        action=comp.action if comp.game != Game.FATE else "action",
        willpower_spent=any(s.what == "willpower" for s in comp.spends),
    )
    announce(campaign.pk, ChangeKind.ROLL, roll=logged, public=not logged.hidden)
    return logged


def _lock_roll(roll_id: int) -> None:
    """Lock a logged roll before following it up (before any character row: the order voiding
    locks in too), so a follow-up and a void of the same roll queue up; a voided roll is refused."""
    if Roll.objects.select_for_update().filter(pk=roll_id).values_list("voided_at", flat=True).get() is not None:
        raise Refused(_("This roll has been voided: it can no longer be followed up."))


def _child(parent: Roll, kind: str, **fields: Any) -> Roll:
    """A follow-up entry; it is as secret as the roll it follows (and revealed with it)."""
    try:
        with transaction.atomic():  # a savepoint, so a duplicate does not poison the outer transaction
            child = Roll.objects.create(campaign=parent.campaign, character=parent.character, actor=parent.actor,
                                        system=parent.system, kind=kind, parent=parent, hidden=parent.hidden,
                                        secret=parent.secret, revealed_at=parent.revealed_at, scene=parent.scene,
                                        turn=parent.turn, label_parts=parent.label_parts, **fields)
    except IntegrityError:
        raise Refused(_("This roll has already been followed up that way.")) from None
    announce(parent.campaign_id, ChangeKind.ROLL, roll=child, public=not (child.hidden and child.revealed_at is None))
    return child


@transaction.atomic
def rouse(character: Character, rng: RandomSource | None = None) -> Roll:
    """A rouse check: a failure raises Hunger by 1 (never past 5)."""
    character = _lock(character.pk)
    if character.game != Game.V5:
        raise Refused(_("Rouse checks are for Vampire characters."))
    check = v5.roll_rouse(character.v5_hunger, rng)
    _update(character, v5_hunger=check.hunger_after)
    scene = Scene.objects.current(character.campaign)
    logged = Roll.objects.create(
        campaign=character.campaign, character=character, actor=character.name, system=Game.V5,
        scene=scene, turn=scene.turn if scene else None,
        kind=RollKind.ROUSE, label=_("Rouse check"), label_parts=["term:rouse_check"], request={"hunger": check.hunger_before},
        result={"main": check.as_json()}, outcome=str(check.outcome),
        spends=[{"what": "hunger", "amount": check.hunger_after - check.hunger_before}],
    )
    announce(character.campaign_id, ChangeKind.ROLL, roll=logged)
    return logged


@transaction.atomic
def willpower_reroll(parent: Roll, indices: list[int], rng: RandomSource | None = None) -> Roll:
    """V5: spend 1 Willpower (1 superficial damage) to reroll up to 3 normal dice of a roll."""
    if parent.system != Game.V5 or parent.kind != RollKind.ROLL or parent.character_id is None:
        raise Refused(_("Only a Vampire character's own roll can be rerolled with Willpower."))
    _lock_roll(parent.pk)
    request = rebuild(Game.V5, {k: v for k, v in parent.request.items() if k != "shortcut"})
    main = parent.main
    try:
        result = v5.resolve(request, main["faces"], main["hunger_faces"])
        if main.get("automatic") or parent.request.get("shortcut") != "roll":
            raise RulesError(_("An automatic win or taking half rolls no dice to reroll."))
        rerolled = v5.roll_reroll(request, result, indices, rng)
    except RulesError as error:
        raise Refused(refusal_text(error)) from None
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
    _lock_roll(parent.pk)
    if mode not in ("bonus", "reroll"):
        raise Refused(_("Choose +2 or a reroll."))
    if aspect is not None and aspect.free_invocations > 0:
        spend = Spend("free_invocation", parent.character_id, aspect.pk, aspect.text)
    else:
        spend = Spend("fate_point", parent.character_id, getattr(aspect, "pk", None), getattr(aspect, "text", ""))
    # The aspects invoked on this roll so far: the roll's own and each invocation after it.
    earlier = [invoked for spends in Roll.objects.filter(pk__in=parent.family()).order_by("id").values_list("spends", flat=True)
               for invoked in aspects.invocations(spends)]
    advantage = parent.result.get("advantage")
    if aspect is not None:
        if advantage and advantage.get("aspect") == aspect.pk:
            raise Refused(_("“%(aspect)s” comes from this roll: invoke it on a later roll.") % {"aspect": aspect.text})
        if not aspects.may_invoke_again([i["paid"] for i in earlier if i["aspect"] == aspect.pk], spend.what):
            raise Refused(aspects.twice_refusal(aspect.text))
    paid = _pay(spend)
    request = rebuild(Game.FATE, {k: v for k, v in parent.request.items() if k != "shortcut"})
    extra: dict[str, Any] = {}
    if mode == "bonus":
        request = dataclasses.replace(request, bonus=request.bonus + fate.INVOKE_BONUS)
        result = fate.resolve(request, parent.main["faces"])
    else:
        result, extra = _draw_fate(parent.campaign_id, request, rng)
    document = {"main": result.as_json(), **extra, "invoke": {"mode": mode, "aspect": spend.label, "paid": spend.what}}
    if invoked := earlier + aspects.invocations([spend.as_json()]):
        document["invoked"] = invoked
    opponent = parent.result.get("opponent")
    if opponent is not None:
        # Still against the same opposition: re-net the new total against the opponent's.
        net = result.total - opponent["total"]
        document["opponent"] = opponent
        document["opposed"] = {"net": net, "winner": "first" if net > 0 else "second" if net < 0 else "tie"}
    if "effect" in parent.result:
        action = parent.result["effect"].get("action")
        if action:
            document["effect"] = _fate_effect(action, result, opponent["total"] if opponent else None,
                                              known=bool(advantage and advantage.get("known")))
            if advantage:
                # An invocation that improves a Create an advantage improves the advantage (gmtools.aspects).
                document["advantage"] = _advance_advantage(parent.campaign_id, parent.character_id, advantage,
                                                           document["effect"])
    return _child(parent, RollKind.INVOKE, label=parent.label, request={**request_doc(request), "shortcut": "roll"},
                  result=document, outcome=str(result.outcome), spends=[paid])


@transaction.atomic
def claim_stunt_reward(parent: Roll, choice: str) -> Roll:
    """Exalted: after a successful stunted roll, regain motes (1 per stunt die) or 1 Willpower (2–3 dice)."""
    if parent.system != Game.EXALTED or parent.kind != RollKind.ROLL or parent.character_id is None:
        raise Refused(_("Only an Exalted character's stunted roll earns a reward."))
    _lock_roll(parent.pk)
    request = rebuild(Game.EXALTED, {k: v for k, v in parent.request.items() if k != "shortcut"})
    result = exalted.resolve(request, parent.main["faces"]) if parent.main["faces"] else exalted.automatic_success(request)
    options = {("willpower" if r.willpower else "motes"): r for r in exalted.stunt_rewards(result)}
    if choice not in options:
        raise Refused(_("That reward is not on offer for this roll."))
    character = _lock(parent.character_id)
    reward = options[choice]
    if reward.willpower and character.exalted_willpower_temporary >= character.exalted_willpower:
        raise Refused(_("%(name)s's temporary Willpower is already at its permanent rating: take the motes.")
                      % {"name": character.name})
    if not reward.willpower and character.exalted_motes >= character.exalted_motes_max:
        raise Refused(_("%(name)s's mote pool is already full.") % {"name": character.name})
    if reward.willpower:
        field, value = "exalted_willpower_temporary", min(character.exalted_willpower,
                                                           character.exalted_willpower_temporary + 1)
    else:
        field, value = "exalted_motes", min(character.exalted_motes_max, character.exalted_motes + reward.motes)
    # What was really regained (a nearly full pool takes less), so that voiding takes back exactly that.
    regained = {field: value - getattr(character, field)}
    _update(character, **{field: value})
    return _child(parent, RollKind.REWARD, label=parent.label, request=parent.request,
                  result={"reward": reward.as_json(), "regained": regained}, outcome=choice, spends=[])


# --- one-click resource changes ------------------------------------------------------------

def _step(field: str, delta: int, low: int | Callable[[Character], int], high: int | Callable[[Character], int],
          message: str | Promise) -> Callable[[Character], dict[str, Any]]:
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


def _consequence(severity: str) -> Callable[[Character, str], dict[str, Any]]:
    field = f"fate_consequence_{severity}"

    def change(c: Character, value: str = "") -> dict[str, Any]:
        text = " ".join(value.split())
        if len(text) > Character._meta.get_field(field).max_length:
            raise Refused(_("A consequence is a short aspect: at most 120 characters."))
        return {field: text}
    return change


ADJUSTMENTS: dict[str, dict[str, Callable[..., dict[str, Any]]]] = {
    Game.EXALTED: {
        "willpower-spend": _step("exalted_willpower_temporary", -1, 0, 10, gettext_lazy("%(name)s has no temporary Willpower left.")),
        "willpower-regain": _step("exalted_willpower_temporary", 1, 0, lambda c: c.exalted_willpower,
                                  gettext_lazy("%(name)s's temporary Willpower is already at its permanent rating.")),
        "motes-spend": _step("exalted_motes", -1, 0, 100, gettext_lazy("%(name)s has no motes left.")),
        "motes-regain": _step("exalted_motes", 1, 0, lambda c: c.exalted_motes_max,
                              gettext_lazy("%(name)s's mote pool is already full.")),
    },
    Game.V5: {
        "hunger-up": _step("v5_hunger", 1, 0, 5, gettext_lazy("%(name)s is already at Hunger 5.")),
        "hunger-down": _step("v5_hunger", -1, 0, 5, gettext_lazy("%(name)s is already at Hunger 0.")),
        **{f"{track}-{kind}-{verb}": _v5_track(track, kind, verb == "heal")
           for track in ("health", "willpower") for kind in ("superficial", "aggravated") for verb in ("damage", "heal")},
    },
    Game.FATE: {
        "fate-point-spend": _step("fate_points", -1, 0, 99, gettext_lazy("%(name)s has no fate points left.")),
        "fate-point-gain": _step("fate_points", 1, 0, 99, gettext_lazy("%(name)s cannot hold more fate points.")),
        "refresh": _fate_refresh,
        **{f"stress-{n}": _toggle(f"fate_stress_{n}") for n in (1, 2, 3)},
        **{f"consequence-{severity}": _consequence(severity) for severity in ("mild", "moderate", "severe")},
    },
    Game.SCIFI: {
        "adventure": _toggle("scifi_in_adventure"),
        "health-damage": _step("scifi_health", -1, 0, 99, gettext_lazy("%(name)s has no health left to lose.")),
        "health-heal": _step("scifi_health", 1, 0, lambda c: c.scifi_health_max, gettext_lazy("%(name)s is already at full health.")),
    },
}


@transaction.atomic
def adjust(character: Character, action: str, value: str = "") -> Character:
    """Apply one click (spend, regain, damage, heal, refresh) or one text (a consequence) to a character."""
    character = _lock(character.pk)
    change = ADJUSTMENTS[character.game].get(action)
    if change is None:
        raise Refused(_("Unknown change for this game."))
    fields = change(character, value) if action.startswith("consequence-") else change(character)
    before = {name: getattr(character, name) for name in fields}
    _update(character, **fields)
    if before != fields:  # kept for the table's Undo (a refresh at full fate points changed nothing)
        ResourceChange.objects.create(campaign_id=character.campaign_id, character=character, action=action,
                                      before=before, after=fields)
    announce(character.campaign_id, ChangeKind.CHARACTER, character=character)
    return character


# --- time at the table ------------------------------------------------------------------------

def _lock_campaign(campaign: Campaign) -> Campaign:
    """Serialise the time workflows of one campaign, so two clicks never make two scene 3s."""
    return Campaign.objects.select_for_update().get(pk=campaign.pk)


def _open_story(campaign: Campaign) -> Story | None:
    return campaign.stories.filter(ended_at__isnull=True).order_by("-number").first()


def _open_episode(campaign: Campaign) -> Episode | None:
    return Episode.objects.filter(story__campaign=campaign, ended_at__isnull=True).order_by("-id").first()


def _end(rows) -> int:
    return rows.filter(ended_at__isnull=True).update(ended_at=timezone.now())


def _end_scenes(campaign: Campaign, scenes) -> None:
    """End these scenes (those still open), and clear what the game clears when a scene ends."""
    # Situation aspects and boosts end with their scene, those put on a character too (gmtools.aspects).
    Aspect.objects.filter(scene__in=scenes.filter(ended_at__isnull=True)).delete()
    # What the game resets on its characters (games.get(...).scene_clears: Fate's stress boxes).
    # Exalted's and scifi's per-turn budgets (declared actions, Willpower once a turn, action
    # slots, an extended action carried into the next turn) belong to the scene they were taken
    # in, so a new scene starts without them.
    if _end(scenes) and (clears := games.get(campaign.game).scene_clears):
        Character.objects.filter(campaign=campaign).update(**clears)


@transaction.atomic
def start_story(campaign: Campaign, title: str = "") -> Story:
    """A new story (ending the one in play, its episode and scene)."""
    _lock_campaign(campaign)
    _end_scenes(campaign, Scene.objects.filter(episode__story__campaign=campaign))
    _end(Episode.objects.filter(story__campaign=campaign))
    _end(campaign.stories.all())
    number = (campaign.stories.aggregate(n=Max("number"))["n"] or 0) + 1
    announce(campaign.pk, ChangeKind.TIME)
    return Story.objects.create(campaign=campaign, number=number, title=title)


@transaction.atomic
def start_episode(campaign: Campaign, title: str = "") -> Episode:
    """A new episode of the story in play (a first story is started if there is none)."""
    _lock_campaign(campaign)
    story = _open_story(campaign) or start_story(campaign)
    _end_scenes(campaign, Scene.objects.filter(episode__story=story))
    _end(story.episodes.all())
    number = (story.episodes.aggregate(n=Max("number"))["n"] or 0) + 1
    announce(campaign.pk, ChangeKind.TIME)
    return Episode.objects.create(story=story, number=number, title=title)


@transaction.atomic
def start_scene(campaign: Campaign, title: str = "", downtime: bool = False, combat: bool = False,
                calm: bool = False, characters: list[Character] | None = None) -> Scene:
    """A new scene of the episode in play, at turn 1, with the player characters (or those given)."""
    if combat and calm:
        raise Refused(_("A combat scene is never calm."))
    _lock_campaign(campaign)
    episode = _open_episode(campaign) or start_episode(campaign)
    _end_scenes(campaign, episode.scenes.all())
    number = (episode.scenes.aggregate(n=Max("number"))["n"] or 0) + 1
    scene = Scene.objects.create(episode=episode, number=number, title=title, downtime=downtime, combat=combat, calm=calm)
    if characters is None:
        characters = list(campaign.characters.filter(kind="pc").order_by("name"))
    SceneParticipant.objects.bulk_create(
        SceneParticipant(scene=scene, character=c, position=i) for i, c in enumerate(characters)
    )
    announce(campaign.pk, ChangeKind.TIME)
    return scene


@transaction.atomic
def end_scene(scene: Scene) -> None:
    campaign = scene.episode.story.campaign
    _end_scenes(campaign, Scene.objects.filter(pk=scene.pk))
    announce(campaign.pk, ChangeKind.TIME)


@transaction.atomic
def end_episode(campaign: Campaign) -> None:
    _lock_campaign(campaign)
    _end_scenes(campaign, Scene.objects.filter(episode__story__campaign=campaign))
    _end(Episode.objects.filter(story__campaign=campaign))
    announce(campaign.pk, ChangeKind.TIME)


@transaction.atomic
def change_turn(scene: Scene, step: int) -> Scene:
    """Next (+1) or previous (−1) turn, atomically in the database (never below turn 1)."""
    if Scene.objects.filter(pk=scene.pk, ended_at__isnull=False).exists():
        raise Refused(_("This scene has ended."))
    rows = Scene.objects.filter(pk=scene.pk, ended_at__isnull=True)
    if step < 0:
        rows = rows.filter(turn__gt=1)
    if not rows.update(turn=F("turn") + step):
        raise Refused(_("Already at the first turn.") if step < 0 else _("This scene has ended."))
    scene = Scene.objects.select_related("episode__story").get(pk=scene.pk)
    announce(scene.episode.story.campaign_id, ChangeKind.TIME)
    return scene


@transaction.atomic
def reorder(scene: Scene, character_ids: list[int]) -> None:
    """Set the turn order; the list must name exactly the scene's characters."""
    participants = {p.character_id: p for p in scene.participants.select_for_update()}
    if sorted(character_ids) != sorted(participants):
        raise Refused(_("The turn order must list each character of the scene once."))
    for position, character_id in enumerate(character_ids):
        participants[character_id].position = position
    SceneParticipant.objects.bulk_update(participants.values(), ["position"])
    announce(scene.episode.story.campaign_id, ChangeKind.ORDER)


@transaction.atomic
def join_scene(scene: Scene, character: Character) -> None:
    if character.campaign_id != scene.episode.story.campaign_id:
        raise Refused(_("That character is not in this campaign."))
    last = scene.participants.aggregate(n=Max("position"))["n"]
    _participant, created = SceneParticipant.objects.get_or_create(
        scene=scene, character=character, defaults={"position": 0 if last is None else last + 1})
    if not created:
        raise Refused(_("%(name)s is already in the scene.") % {"name": character.name})
    announce(character.campaign_id, ChangeKind.ORDER)


@transaction.atomic
def leave_scene(scene: Scene, character: Character) -> None:
    if not scene.participants.filter(character=character).delete()[0]:
        raise Refused(_("%(name)s is not in the scene.") % {"name": character.name})
    announce(character.campaign_id, ChangeKind.ORDER)


def declare_actions(scene: Scene, character: Character, actions: int) -> TurnDeclaration:
    """Exalted: declare N actions for the current turn (before the first roll of the turn)."""
    if not 1 <= actions <= 10:
        raise Refused(_("Declare from 1 to 10 actions."))
    with transaction.atomic():
        _lock(character.pk)
        if Roll.objects.this_turn(scene, character).exists():
            raise Refused(_("%(name)s has already acted this turn; declare actions before the first roll.")
                          % {"name": character.name})
        declaration, _created = TurnDeclaration.objects.update_or_create(
            scene=scene, turn=scene.turn, character=character, defaults={"actions": actions})
        announce(character.campaign_id, ChangeKind.CHARACTER, character=character)
    return declaration


@transaction.atomic
def stop_extended(action: ExtendedAction) -> None:
    """The GM ends an extended action before its goal (the character stops concentrating on it)."""
    if not ExtendedAction.objects.filter(pk=action.pk, stopped=False, ruined=False).update(stopped=True):
        raise Refused(_("“%(name)s” is already over.") % {"name": action.name})
    announce(action.campaign_id, ChangeKind.EXTENDED)


@transaction.atomic
def create_extended(campaign: Campaign, scene: Scene | None, **fields: Any) -> ExtendedAction:
    if campaign.game == Game.FATE:
        raise Refused(_("Fate Accelerated has no extended actions: play it as a challenge or a contest."))
    action = ExtendedAction(campaign=campaign, scene=scene, **fields)
    action.full_clean()
    action.save()
    announce(campaign.pk, ChangeKind.EXTENDED)
    return action


@transaction.atomic
def flip(campaign: Campaign) -> None:
    """Flip the campaign's table switch: draw from the Fate deck, or open/close the scifi adventure."""
    campaign.flip()
    announce(campaign.pk, ChangeKind.SWITCH)


# --- what the players see ---------------------------------------------------------------------

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
def move_in_order(scene: Scene, character: Character, by: int) -> None:
    """Move a character one place up (−1) or down (+1) in the turn order: the keyboard's drag and drop."""
    order = list(scene.participants.select_for_update().values_list("character_id", flat=True))
    if character.pk not in order:
        raise Refused(_("%(name)s is not in the scene.") % {"name": character.name})
    i = order.index(character.pk)
    j = max(0, min(len(order) - 1, i + by))
    order[i], order[j] = order[j], order[i]
    reorder(scene, order)


# --- mistakes: voiding a roll, undoing a click ------------------------------------------------
#
# Voiding a roll voids it and every follow-up below it (a Willpower reroll, an invocation, a stunt
# reward mean nothing without the roll they follow), newest first, in one transaction; voiding a
# follow-up voids it and what follows it, and leaves the roll it follows standing. Every entry
# voided gives back what it spent and takes back what it gained. The rows are locked roll first,
# then characters, aspects, the extended action and the campaign (the order the follow-ups lock
# in too), so two clicks or two tabs void once and refund once. A voided follow-up keeps its
# place: one follow-up of each kind per roll is a database constraint, so the roll it followed
# does not offer that follow-up again. A Fate card drawn stays drawn (the deck is not a resource).


def _chain_locked(roll: Roll) -> list[Roll]:
    """The roll and every follow-up below it, locked level by level, newest first.

    A follow-up locks the roll it follows before it is written (``_lock_roll``), so once a level
    is locked nothing new can appear below it.
    """
    found = list(Roll.objects.select_for_update().filter(pk=roll.pk))
    frontier = [roll.pk]
    while frontier:
        level = list(Roll.objects.select_for_update().filter(parent__in=frontier).order_by("id"))
        found += level
        frontier = [r.pk for r in level]
    return sorted(found, key=lambda r: r.pk, reverse=True)


def _locked_or_none(character_id: int | None) -> Character | None:
    if character_id is None:
        return None
    return Character.objects.select_for_update().select_related("campaign").filter(pk=character_id).first()


def _give_back(entry: Roll) -> None:
    """What one log entry spent comes back, what it gained goes, each within the sheet's bounds."""
    for spend in entry.spends:
        what = spend.get("what")
        if what == "free_invocation" and spend.get("boost"):
            # A boost used up: back as it was, while its scene is still in play (it would have ended with it).
            boost = spend["boost"]
            if Scene.objects.filter(pk=boost["scene"], ended_at__isnull=True).exists() or (
                    boost["scene"] is None and Character.objects.filter(pk=boost["character"]).exists()):
                Aspect.objects.create(text=boost["text"], scene_id=boost["scene"], character_id=boost["character"],
                                      boost=True, free_invocations=1)
            continue
        if what == "free_invocation":
            # At most 9, as the aspect's constraint says; an aspect deleted since gets nothing back.
            Aspect.objects.filter(pk=spend.get("aspect"), free_invocations__lt=9).update(
                free_invocations=F("free_invocations") + 1)
            continue
        character = _locked_or_none(spend.get("character") or entry.character_id)
        if character is None:  # deleted since: nothing to give back to
            continue
        if what == "willpower":
            _update(character, exalted_willpower_temporary=min(character.exalted_willpower,
                                                               character.exalted_willpower_temporary + 1))
        elif what == "fate_point":
            _update(character, fate_points=min(CHARACTER_BOUNDS["fate_points"][1], character.fate_points + 1))
        elif what == "v5_willpower":  # spending marked 1 superficial damage (there was an undamaged box)
            _update(character, v5_willpower_superficial=max(0, character.v5_willpower_superficial - 1))
        elif what == "hunger":  # a rouse check: the Hunger it added
            _update(character, v5_hunger=max(0, character.v5_hunger - int(spend.get("amount", 0))))
    if entry.result.get("advantage"):
        _take_back_advantage(entry)
    if entry.kind == RollKind.REWARD:
        character = _locked_or_none(entry.character_id)
        reward = entry.result.get("reward", {})
        # Older rewards did not store what they regained: the reward itself, as near as it gets.
        regained = entry.result.get("regained") or (
            {"exalted_willpower_temporary": 1} if reward.get("willpower") else {"exalted_motes": reward.get("motes", 0)})
        if character is not None:
            _update(character, **{field: max(0, getattr(character, field) - int(amount))
                                  for field, amount in regained.items()})


def _take_back_advantage(entry: Roll) -> None:
    """Fate: a Create an advantage (or an invocation that improved one) goes back to what stood
    before it: the aspect it made is deleted, the free invocations it added are taken back (never
    below 0: some may have been used since), a boost it turned into an aspect is a boost again."""
    now = entry.result["advantage"]
    if now.get("aspect") is None:
        return  # it made nothing
    parent = Roll.objects.filter(pk=entry.parent_id).values_list("result", flat=True).first() if entry.parent_id else None
    before = (parent or {}).get("advantage") or {"aspect": now["aspect"] if now.get("known") else None,
                                                  "free": 0, "boost": False}
    if before.get("aspect") != now["aspect"]:
        Aspect.objects.filter(pk=now["aspect"]).delete()
        return
    less = now.get("free", 0) - before.get("free", 0)
    if less > 0 or before.get("boost") != now.get("boost"):
        Aspect.objects.filter(pk=now["aspect"]).update(
            free_invocations=Greatest(F("free_invocations") - max(0, less), 0),
            boost=bool(before.get("boost")) and not now.get("known"))


def _extended_inputs(entry: Roll) -> tuple[int, bool, int | None]:
    """What a roll brought to its extended action: successes, botched, the other side's successes."""
    rolled = entry.result.get("extended", {}).get("rolled")
    if rolled is not None:
        return rolled["successes"], rolled["botched"], rolled.get("opponent")
    # Rolls logged before the inputs were stored: read them off the result.
    successes = entry.result.get("team_total", entry.main.get("successes", 0))
    opponent = entry.result.get("opponent", {}).get("successes") if entry.result.get("opponent") else None
    return successes, entry.outcome in ("botch", "fumble"), opponent


def _replay_extended(action_id: int) -> None:
    """Set an extended action to what its rolls that still stand make of it: from where it stood
    before its first roll, each roll not voided replayed in order (its botch policy included)."""
    action = ExtendedAction.objects.select_for_update().filter(pk=action_id).first()
    if action is None:
        return
    rolls = list(Roll.objects.filter(extended=action, kind=RollKind.ROLL).order_by("id"))
    start = (rolls[0].result.get("extended", {}).get("before") if rolls else None) or {}
    goal = action.goal if action.kind == ExtendedKind.SOLO else 10**6
    state = ExtendedState(goal=goal, total=start.get("total", 0), rolls=start.get("rolls", 0),
                          ruined=start.get("ruined", False))
    opponent_total = start.get("opponent_total", 0)
    for entry in rolls:
        if entry.voided_at is not None:
            continue
        successes, botched, other = _extended_inputs(entry)
        try:
            state = advance(state, successes, botched, action.difficulty, botch_policy(action.botch))
        except RulesError:
            break  # over sooner without the voided roll: what came after adds nothing
        if action.kind != ExtendedKind.SOLO and other is not None:
            opponent_total += gain(other, action.difficulty)
    ExtendedAction.objects.filter(pk=action.pk).update(total=state.total, rolls=state.rolls, ruined=state.ruined,
                                                       opponent_total=opponent_total)


@transaction.atomic
def void_roll(roll: Roll, user: Any) -> list[Roll]:
    """Void a logged roll and the follow-ups below it: struck through, kept in the log, and what
    they spent or gained given back (see the comment above). The entries voided, newest first."""
    chain = _chain_locked(roll)
    target = next((entry for entry in chain if entry.pk == roll.pk), None)
    if target is None:
        raise Refused(_("This roll is no longer in the log."))
    if target.voided_at is not None:
        raise Refused(_("This roll has already been voided."))
    voiding = [entry for entry in chain if entry.voided_at is None]  # a follow-up voided before stays as it was
    for entry in voiding:
        _give_back(entry)
    Roll.objects.filter(pk__in=[entry.pk for entry in voiding]).update(
        voided_at=timezone.now(), voided_by=user if getattr(user, "is_authenticated", False) else None)
    for action_id in sorted({entry.extended_id for entry in voiding if entry.extended_id}):
        _replay_extended(action_id)
    announce(target.campaign_id, ChangeKind.ROLL, roll=target, public=not (target.hidden and target.revealed_at is None))
    return voiding


@transaction.atomic
def undo_last_change(campaign: Campaign, expected: int | None = None) -> ResourceChange:
    """Undo the campaign's newest one-click change not undone yet (repeated calls walk back).

    ``expected`` is the change the GM's Undo button named: if another change came in the
    meantime (another tab), nothing is undone. The character must still show what the change
    made of it, else it has changed since and nothing is undone either.
    """
    newest = ResourceChange.objects.filter(campaign=campaign, undone_at__isnull=True).order_by("-id").first()
    if newest is None:
        raise Refused(_("Nothing to undo."))
    character = _locked_or_none(newest.character_id)  # the character first, as adjust locks it
    change = ResourceChange.objects.select_for_update().get(pk=newest.pk)
    latest = ResourceChange.objects.filter(campaign=campaign, undone_at__isnull=True).order_by("-id").first()
    if change.undone_at is not None or latest is None or latest.pk != change.pk or (
            expected is not None and expected != change.pk):
        raise Refused(_("The table has changed since: look at the Undo button again."))
    if character is None or any(getattr(character, name) != value for name, value in change.after.items()):
        raise Refused(_("%(name)s has changed since: nothing was undone.")
                      % {"name": character.name if character else "?"})
    _update(character, **change.before)
    ResourceChange.objects.filter(pk=change.pk).update(undone_at=timezone.now())
    announce(campaign.pk, ChangeKind.CHARACTER, character=character)
    return change


# --- aspects and the scene --------------------------------------------------------------------

@transaction.atomic
def add_scene_aspect(scene: Scene, text: str, free_invocations: int = 0, boost: bool = False) -> Aspect:
    """Fate: a situation aspect (or a boost: one free invocation, gone once used) on the scene in play."""
    campaign = scene.episode.story.campaign
    if campaign.game != Game.FATE:
        raise Refused(_("Situation aspects and boosts are Fate's."))
    if not Scene.objects.filter(pk=scene.pk, ended_at__isnull=True).exists():
        raise Refused(_("This scene has ended; start a new one."))
    text = " ".join(text.split())
    if not text:
        raise Refused(_("Name the aspect."))
    aspect = Aspect(scene=scene, text=text, boost=boost, free_invocations=1 if boost else free_invocations)
    try:
        aspect.full_clean()
    except ValidationError as error:
        raise Refused(" ".join(error.messages)) from None
    aspect.save()
    announce(campaign.pk, ChangeKind.TIME)
    return aspect


@transaction.atomic
def remove_scene_aspect(scene: Scene, aspect_id: int) -> None:
    """The GM takes a situation aspect or a boost of the scene off the table."""
    if not Aspect.objects.filter(pk=aspect_id, scene=scene, character__isnull=True).delete()[0]:
        raise Refused(_("That aspect is no longer on the scene."))
    announce(scene.episode.story.campaign_id, ChangeKind.TIME)


@transaction.atomic
def set_scene_notes(scene: Scene, notes: str) -> Scene:
    """The scene's notes (what is on fire, who is hidden), in every game."""
    notes = notes.strip().replace("\r\n", "\n")
    limit = Scene._meta.get_field("notes").max_length
    if len(notes) > limit:
        raise Refused(_("Scene notes hold at most %(n)d characters.") % {"n": limit})
    if not Scene.objects.filter(pk=scene.pk, ended_at__isnull=True).update(notes=notes):
        raise Refused(_("This scene has ended; start a new one."))
    scene.notes = notes
    announce(scene.episode.story.campaign_id, ChangeKind.TIME)
    return scene
