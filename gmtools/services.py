"""Workflows across several rows: a roll with its spends, follow-ups, one-click changes, time at the table.

Each runs in one transaction. A character (or campaign) row is locked with
``select_for_update`` before any check-then-write, so two requests that both try to spend the
last Willpower queue up and the second is refused: never a resource spent twice, never a roll
logged without its spend. Anything refused raises ``Refused`` with the message for the GM,
and the transaction leaves nothing behind.

These workflows name no game. What a game adds to them (its shortcuts, the resources its rolls
spend, the follow-ups its cards offer, its one-click changes) is its ``TablePlay``
(``gmtools.games.<game>.table``), which they ask through ``games.get(...).at_table`` and which
builds on the helpers here (``lock_character``, ``pay``, ``log_follow_up``, ``step``...),
inside the transaction of the workflow that calls it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.db import IntegrityError, transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _

from gmtools import games
from gmtools.composer import Composition, Spend
from gmtools.games.base import CharacterCheck, FollowUp, Ledger, SpendKind, TablePlay
from gmtools.live import announce
from gmtools.luck import stored
from gmtools.notes import refusal_text
from gmtools.models import (
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
from rules.dice import RandomSource, RulesError


class Refused(Exception):
    """The action cannot be done as asked; the message says why, for the GM."""


def lock_character(character_id: int) -> Character:
    return Character.objects.select_for_update().select_related("campaign").get(pk=character_id)


def locked_or_none(character_id: int | None) -> Character | None:
    """The character locked, or None when there is none (deleted since)."""
    if character_id is None:
        return None
    return Character.objects.select_for_update().select_related("campaign").filter(pk=character_id).first()


def update_character(character: Character, **fields: Any) -> None:
    for name, value in fields.items():
        setattr(character, name, value)
    Character.objects.filter(pk=character.pk).update(**fields)


# --- what rolls spend -------------------------------------------------------------------------

def pay(spend: Spend) -> dict[str, Any]:
    """Pay one spend, as the character's game pays that kind; what the log records of it (a Fate
    boost used up records what it was, so that voiding the roll can put it back)."""
    character = lock_character(spend.character_id)
    kind = games.get(character.game).at_table.spends.get(spend.what)
    if kind is None or kind.pay is None:  # pragma: no cover - the composer only makes the game's kinds
        raise ValueError(spend.what)
    return {**spend.as_json(), **kind.pay(character, spend)}


def character_spend(give_back: Callable[[Character, dict[str, Any]], dict[str, Any]],
                    pay: Callable[[Character], dict[str, Any]] | None = None) -> SpendKind:
    """A spend of the paying character's own resource: ``pay`` says what the character's fields
    become (or raises ``Refused``: none left), ``give_back`` what they become again when the
    entry is voided (each within the sheet's bounds; a character deleted since gets nothing)."""
    def paid(character: Character, spend: Spend) -> dict[str, Any]:
        update_character(character, **pay(character))
        return {}

    def given_back(entry: Roll, spend: dict[str, Any], ledger: Ledger) -> None:
        character = ledger.character(spend.get("character") or entry.character_id)
        if character is not None:
            ledger.update(character, **give_back(character, spend))

    return SpendKind(pay=paid if pay is not None else None, give_back=given_back)


class Database:
    """The ``Ledger`` of a void: what an entry spent is given back to the rows themselves, each
    locked before it is read (in the void's transaction)."""

    def character(self, pk: int | None) -> Character | None:
        return locked_or_none(pk)

    def update(self, character: Character, **fields: Any) -> None:
        update_character(character, **fields)

    def aspect(self, pk: int | None) -> Aspect | None:
        return Aspect.objects.select_for_update().filter(pk=pk).first() if pk is not None else None

    def update_aspect(self, aspect: Aspect, **fields: Any) -> None:
        Aspect.objects.filter(pk=aspect.pk).update(**fields)

    def delete_aspect(self, aspect: Aspect) -> None:
        Aspect.objects.filter(pk=aspect.pk).delete()

    def make_aspect(self, **fields: Any) -> None:
        Aspect.objects.create(**fields)

    def scene_open(self, pk: int | None) -> bool:
        return pk is not None and Scene.objects.filter(pk=pk, ended_at__isnull=True).exists()


# --- rolling ----------------------------------------------------------------------------------

def request_doc(request: Any) -> dict[str, Any]:
    """A rules request as JSON-ready arguments; ``rebuild`` turns them back into the request."""
    return dataclasses.asdict(request)


def logged_request(roll: Roll) -> dict[str, Any]:
    """The arguments of the rules request a logged entry was rolled with (the composer's shortcut aside)."""
    return request_args(roll.request)


def request_args(stored: dict[str, Any]) -> dict[str, Any]:
    """The arguments of a rules request from an entry's stored ``request`` (the shortcut aside)."""
    return {k: v for k, v in stored.items() if k != "shortcut"}


def rebuild(system: str, doc: dict[str, Any]) -> Any:
    return games.get(system).engine.Request(**{**doc, "modifiers": tuple(doc.get("modifiers", ()))})


def contest(net: int) -> dict[str, Any]:
    """A contest's summary in the log: the first side's net and who won."""
    return {"net": net, "winner": "first" if net > 0 else "second" if net < 0 else "tie"}


def _opposed(game: str, first: Any, second: Any, handicap: tuple[int, int] = (0, 0)) -> dict[str, Any]:
    """Who won: the game's own reading of a contest, else the difference of what its verdicts judge."""
    system = games.get(game)
    if system.at_table.opposed is not None:
        return system.at_table.opposed(first, second, handicap)
    return contest(getattr(first, system.judged_field) - getattr(second, system.judged_field))


def _roll_main(campaign: Campaign, comp: Composition, play: TablePlay,
               rng: RandomSource | None) -> tuple[Any, dict[str, Any]]:
    """The acting side's result, and what the log adds of how it fell (a Fate card drawn)."""
    shortcut = play.shortcuts.get(comp.shortcut)
    if shortcut is not None:
        # The shortcuts are never for a stressful (combat) scene.
        return shortcut(comp.request, comp.scene is not None and comp.scene.combat), {}
    if play.roll is not None:
        return play.roll(campaign.pk, comp.request, rng)
    return comp.module.roll(comp.request, rng), {}


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


def _advance_extended(comp: Composition, play: TablePlay, main: Any, document: dict[str, Any]) -> dict[str, Any]:
    """Roll into an extended action (locked): add the roll's gain, apply a botch, settle a contest."""
    action = ExtendedAction.objects.select_for_update().get(pk=comp.extended.pk)
    if action.over:
        raise Refused(_("“%(name)s” is already over.") % {"name": action.name})
    successes = document.get("team_total", main.successes)
    botched = (play.extended_botch(main, action.difficulty) if play.extended_botch is not None
               else str(main.outcome) == "botch")
    # What voiding this roll needs to replay the action without it (see ``_replay_extended``).
    before = {"total": action.total, "opponent_total": action.opponent_total, "rolls": action.rolls,
              "ruined": action.ruined, "tie_winner": action.tie_winner}
    rolled: dict[str, Any] = {"successes": successes, "botched": botched}
    other = document["opponent"]["successes"] if action.kind != ExtendedKind.SOLO else None
    if other is not None:
        rolled["opponent"] = other
    if action.rolling_off:
        rolled["roll_off"] = True
    fields: dict[str, Any] = action.after_roll(successes, botched, other)
    # The first roll tells who rolls it, with what and how many dice, unless the GM said so.
    if action.character_id is None and comp.character is not None:
        fields["character"] = comp.character
    if not action.traits:
        fields["traits"] = comp.label[:200]
    if not action.pool:
        fields["pool"] = min(100, comp.request.dice)
    if action.kind != ExtendedKind.SOLO and not action.opponent_pool:
        fields["opponent_pool"] = min(100, comp.opponent.dice)
    ExtendedAction.objects.filter(pk=action.pk).update(**fields)
    for name, value in fields.items():
        setattr(action, name, value)
    return {"id": action.pk, "name": action.name, "total": action.total, "opponent_total": action.opponent_total,
            "rolls": action.rolls, "ruined": action.ruined, "winner": action.winner, "tie_winner": action.tie_winner,
            "before": before, "rolled": rolled}


@transaction.atomic
def record_roll(campaign: Campaign, comp: Composition, rng: RandomSource | None = None) -> Roll:
    """Pay the spends, roll, and log it: all of it or none of it."""
    if comp.character is not None:
        lock_character(comp.character.pk)  # one roll of a character at a time: budgets and spends stay exact
    scene, turn = _check_turn(comp)
    play = games.get(comp.game).at_table
    paid = [pay(spend) for spend in comp.spends]
    try:
        main, extra = _roll_main(campaign, comp, play, rng)
        document: dict[str, Any] = {"main": main.as_json(), **extra}
        if comp.opponent is not None:
            other = comp.module.roll(comp.opponent, rng)
            document["opponent"] = {"name": comp.opponent_name, **other.as_json()}
            document["opposed"] = _opposed(comp.game, main, other, comp.handicap)
        if comp.team:
            # Each helper rolls their own pool apart; the engine adds up the team (Exalted teamwork).
            helpers = [(name, comp.module.roll(req, rng)) for name, req in comp.team]
            document["team"] = [{"name": name, **r.as_json()} for name, r in helpers]
            document["team_total"] = comp.module.teamwork([main, *(r for _, r in helpers)])
        if comp.team_names:
            document["helpers"] = list(comp.team_names)
        if play.logged is not None:
            document.update(play.logged(campaign, scene, comp, main, document))
        if comp.notes:
            document["turn_notes"] = list(comp.notes)
        if comp.extended is not None:
            document["extended"] = _advance_extended(comp, play, main, document)
        # Where the acting side's dice fell, against their exact odds (issue 14, ``gmtools.luck``).
        luck = play.luck(campaign.pk, comp.request, main, document) if play.luck is not None else None
    except RulesError as error:
        raise Refused(refusal_text(error)) from None
    logged = Roll.objects.create(
        campaign=campaign, character=comp.character, actor=comp.actor, system=comp.game, kind=RollKind.ROLL,
        label=comp.label, label_parts=list(comp.label_parts),
        request={**request_doc(comp.request), "shortcut": comp.shortcut},
        result=document, outcome=str(main.outcome), spends=paid, secret=comp.secret,
        hidden=comp.hidden, scene=scene, turn=turn, extended=comp.extended,
        action=play.logged_action if play.logged_action is not None else comp.action,
        willpower_spent=any(s.what == "willpower" for s in comp.spends), luck=stored(luck),
    )
    announce(campaign.pk, ChangeKind.ROLL, roll=logged, public=not logged.hidden)
    return logged


# --- follow-ups and checks: what a game's cards offer besides the composer ---------------------
#
# Each game declares its follow-ups (``TablePlay.follow_ups``: V5's Willpower reroll, Fate's
# invocation, Exalted's stunt reward) and its character checks (``TablePlay.checks``: V5's rouse
# check); the workflows below find the one asked for, refuse it for a game without it in the
# words of the game that has it, lock the roll and let the game take it. The named functions
# (``willpower_reroll``, ``invoke``, ``claim_stunt_reward``, ``rouse``) are the views' and the
# tests' ways in.


def _lock_roll(roll_id: int) -> None:
    """Lock a logged roll before following it up (before any character row: the order voiding
    locks in too), so a follow-up and a void of the same roll queue up; a voided roll is refused."""
    if Roll.objects.select_for_update().filter(pk=roll_id).values_list("voided_at", flat=True).get() is not None:
        raise Refused(_("This roll has been voided: it can no longer be followed up."))


def log_follow_up(parent: Roll, kind: str, **fields: Any) -> Roll:
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


def _offer[T: (FollowUp, CharacterCheck)](game: str, kind: str, offers: Callable[[TablePlay], tuple[T, ...]]) -> T:
    """The game's own follow-up (or check) of that kind; for a game without one, ``Refused`` in
    the words of the game that has it ("Rouse checks are for Vampire characters.")."""
    own = next((offer for offer in offers(games.get(game).at_table) if offer.kind == kind), None)
    if own is not None:
        return own
    words = next((offer.refusal for system in games.systems() for offer in offers(system.at_table)
                  if offer.kind == kind), _("Unknown change for this game."))
    raise Refused(words)


@transaction.atomic
def follow_up(parent: Roll, kind: str, rng: RandomSource | None = None, **choice: Any) -> Roll:
    """Follow a logged roll up the way its game offers (its card's form posts ``choice``)."""
    offer = _offer(parent.system, kind, lambda play: play.follow_ups)
    if not offer.applies(parent):
        raise Refused(offer.refusal)
    _lock_roll(parent.pk)
    return offer.take(parent, rng, **choice)


def willpower_reroll(parent: Roll, indices: list[int], rng: RandomSource | None = None) -> Roll:
    """V5: spend 1 Willpower to reroll up to 3 normal dice of a roll (``gmtools.games.v5.table``)."""
    return follow_up(parent, RollKind.REROLL, rng, indices=indices)


def invoke(parent: Roll, aspect: Aspect | None, mode: str, rng: RandomSource | None = None) -> Roll:
    """Fate: invoke an aspect after the roll, for +2 or a reroll (``gmtools.games.fate.table``)."""
    return follow_up(parent, RollKind.INVOKE, rng, aspect=aspect, mode=mode)


def claim_stunt_reward(parent: Roll, choice: str) -> Roll:
    """Exalted: a successful stunted roll's motes or Willpower (``gmtools.games.exalted.table``)."""
    return follow_up(parent, RollKind.REWARD, choice=choice)


@transaction.atomic
def rouse(character: Character, rng: RandomSource | None = None) -> Roll:
    """V5: a rouse check (``gmtools.games.v5.table``)."""
    return _offer(character.game, RollKind.ROUSE, lambda play: play.checks).take(character, rng)


# --- one-click resource changes ------------------------------------------------------------
# Each game's are its ``TablePlay.adjustments``, mostly made with these two.

def step(field: str, delta: int, low: int | Callable[[Character], int], high: int | Callable[[Character], int],
         message: str | Promise) -> Callable[[Character], dict[str, Any]]:
    """A count moved by ``delta`` within [low, high] (either may depend on the character), or refused."""
    def change(c: Character) -> dict[str, Any]:
        value = getattr(c, field) + delta
        lo = low(c) if callable(low) else low
        hi = high(c) if callable(high) else high
        if not lo <= value <= hi:
            raise Refused(message % {"name": c.name})
        return {field: value}
    return change


def toggle(field: str) -> Callable[[Character], dict[str, Any]]:
    return lambda c: {field: not getattr(c, field)}


NO_NUL = ProhibitNullCharactersValidator()


@transaction.atomic
def adjust(character: Character, action: str, value: str = "") -> Character:
    """Apply one click (spend, regain, damage, heal, refresh) or one text (a consequence) to a character."""
    try:
        NO_NUL(value)  # PostgreSQL cannot store one (a 500), SQLite would keep it: refused on both
    except ValidationError as error:
        raise Refused(error.messages[0]) from None
    character = lock_character(character.pk)
    play = games.get(character.game).at_table
    if action in play.text_adjustments:
        fields = play.text_adjustments[action](character, value)
    elif action in play.adjustments:
        fields = play.adjustments[action](character)
    else:
        raise Refused(_("Unknown change for this game."))
    before = {name: getattr(character, name) for name in fields}
    update_character(character, **fields)
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
        lock_character(character.pk)
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
    game = games.get(campaign.game)
    if not game.extended_actions:
        raise Refused(game.at_table.extended_refusal)
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
    for name in ("total", "opponent_total", "rolls", "ruined", "tie_winner"):
        setattr(action, name, start.get(name, ExtendedAction._meta.get_field(name).get_default()))
    for entry in rolls:
        if entry.voided_at is None:
            if action.winner is not None or action.ruined:
                break  # over sooner without the voided roll: what came after adds nothing
            for name, value in action.after_roll(*_extended_inputs(entry)).items():
                setattr(action, name, value)
    ExtendedAction.objects.filter(pk=action.pk).update(total=action.total, rolls=action.rolls, ruined=action.ruined,
                                                       opponent_total=action.opponent_total,
                                                       tie_winner=action.tie_winner)


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
        games.get(entry.system).at_table.give_back(entry, Database())
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
    character = locked_or_none(newest.character_id)  # the character first, as adjust locks it
    change = ResourceChange.objects.select_for_update().get(pk=newest.pk)
    latest = ResourceChange.objects.filter(campaign=campaign, undone_at__isnull=True).order_by("-id").first()
    if change.undone_at is not None or latest is None or latest.pk != change.pk or (
            expected is not None and expected != change.pk):
        raise Refused(_("The table has changed since: look at the Undo button again."))
    if character is None or any(getattr(character, name) != value for name, value in change.after.items()):
        raise Refused(_("%(name)s has changed since: nothing was undone.")
                      % {"name": character.name if character else "?"})
    update_character(character, **change.before)
    ResourceChange.objects.filter(pk=change.pk).update(undone_at=timezone.now())
    announce(campaign.pk, ChangeKind.CHARACTER, character=character)
    return change


# --- aspects and the scene --------------------------------------------------------------------

@transaction.atomic
def add_scene_aspect(scene: Scene, text: str, free_invocations: int = 0, boost: bool = False) -> Aspect:
    """Fate: a situation aspect (or a boost: one free invocation, gone once used) on the scene in play."""
    campaign = scene.episode.story.campaign
    if not games.get(campaign.game).at_table.situation_aspects:
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
