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
from django.db.models import F, Max
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _, gettext_lazy

from gmtools.composer import MODULES, Composition, Spend
from gmtools.live import announce
from gmtools.notes import refusal_text
from gmtools.models import (
    Aspect,
    Campaign,
    ChangeKind,
    Character,
    Episode,
    ExtendedAction,
    ExtendedKind,
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


def _fate_effect(action: str, result: Any, opponent_total: int | None) -> dict[str, Any]:
    """The action's effect by the Fate table; against an opponent the shifts are the totals' difference."""
    shifts = result.total - opponent_total if opponent_total is not None else result.shifts
    return {**fate.effects(fate.Action(action), fate.outcome_of(shifts), shifts=shifts).as_json(), "action": action}


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
    ExtendedAction.objects.filter(pk=action.pk).update(**fields)
    for name, value in fields.items():
        setattr(action, name, value)
    return {"id": action.pk, "name": action.name, "total": action.total, "opponent_total": action.opponent_total,
            "rolls": action.rolls, "ruined": action.ruined, "winner": action.winner}


@transaction.atomic
def record_roll(campaign: Campaign, comp: Composition, rng: RandomSource | None = None) -> Roll:
    """Pay the spends, roll, and log it: all of it or none of it."""
    if comp.character is not None:
        _lock(comp.character.pk)  # one roll of a character at a time: budgets and spends stay exact
    scene, turn = _check_turn(comp)
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
            opponent_total = document["opponent"]["total"] if comp.opponent is not None else None
            document["effect"] = _fate_effect(comp.action, main, opponent_total)
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
        result=document, outcome=str(main.outcome), spends=[s.as_json() for s in comp.spends], secret=comp.secret,
        hidden=comp.hidden, scene=scene, turn=turn, extended=comp.extended,
        action=comp.action if comp.game != Game.FATE else "action",
        willpower_spent=any(s.what == "willpower" for s in comp.spends),
    )
    announce(campaign.pk, ChangeKind.ROLL, roll=logged, public=not logged.hidden)
    return logged


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
    if mode not in ("bonus", "reroll"):
        raise Refused(_("Choose +2 or a reroll."))
    if aspect is not None and aspect.free_invocations > 0:
        spend = Spend("free_invocation", parent.character_id, aspect.pk, aspect.text)
    else:
        spend = Spend("fate_point", parent.character_id, getattr(aspect, "pk", None), getattr(aspect, "text", ""))
    _pay(spend)
    request = rebuild(Game.FATE, {k: v for k, v in parent.request.items() if k != "shortcut"})
    extra: dict[str, Any] = {}
    if mode == "bonus":
        request = dataclasses.replace(request, bonus=request.bonus + fate.INVOKE_BONUS)
        result = fate.resolve(request, parent.main["faces"])
    else:
        result, extra = _draw_fate(parent.campaign_id, request, rng)
    document = {"main": result.as_json(), **extra, "invoke": {"mode": mode, "aspect": spend.label, "paid": spend.what}}
    opponent = parent.result.get("opponent")
    if opponent is not None:
        # Still against the same opposition: re-net the new total against the opponent's.
        net = result.total - opponent["total"]
        document["opponent"] = opponent
        document["opposed"] = {"net": net, "winner": "first" if net > 0 else "second" if net < 0 else "tie"}
    if "effect" in parent.result:
        action = parent.result["effect"].get("action")
        if action:
            document["effect"] = _fate_effect(action, result, opponent["total"] if opponent else None)
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
    if reward.willpower and character.exalted_willpower_temporary >= character.exalted_willpower:
        raise Refused(_("%(name)s's temporary Willpower is already at its permanent rating: take the motes.")
                      % {"name": character.name})
    if not reward.willpower and character.exalted_motes >= character.exalted_motes_max:
        raise Refused(_("%(name)s's mote pool is already full.") % {"name": character.name})
    if reward.willpower:
        _update(character, exalted_willpower_temporary=min(character.exalted_willpower,
                                                           character.exalted_willpower_temporary + 1))
    else:
        _update(character, exalted_motes=min(character.exalted_motes_max, character.exalted_motes + reward.motes))
    return _child(parent, RollKind.REWARD, label=parent.label, request=parent.request,
                  result={"reward": reward.as_json()}, outcome=choice, spends=[])


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
    _update(character, **(change(character, value) if action.startswith("consequence-") else change(character)))
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


# What the end of a scene clears, per game: Fate's stress boxes empty after each scene (its
# consequences stay). Exalted's and scifi's per-turn budgets (declared actions, Willpower once a
# turn, action slots, an extended action carried into the next turn) belong to the scene they
# were taken in, so a new scene starts without them.
SCENE_CLEARS: dict[str, dict[str, Any]] = {
    Game.FATE: {"fate_stress_1": False, "fate_stress_2": False, "fate_stress_3": False},
}


def _end_scenes(campaign: Campaign, scenes) -> None:
    """End these scenes (those still open), and clear what the game clears when a scene ends."""
    if _end(scenes) and campaign.game in SCENE_CLEARS:
        Character.objects.filter(campaign=campaign).update(**SCENE_CLEARS[campaign.game])


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
