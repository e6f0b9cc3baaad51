"""Rolling: a composed roll logged with its spends, its turn and its extended action, in one transaction."""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from uuid import UUID

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from gmtools import games
from gmtools.composer import Composition
from gmtools.games.base import ROLL, BasePlay, request_doc
from gmtools.live import WritersDrawing, announce
from gmtools.luck import stored
from gmtools.models import (
    Campaign,
    ChangeKind,
    Character,
    ExtendedAction,
    ExtendedKind,
    Roll,
    Scene,
)
from gmtools.notes import refusal_text
from gmtools.physical import Physical, entry_of, thrown
from gmtools.services.locks import Refused, lock_character
from gmtools.services.spending import pay
from gmtools.services.table import TABLE
from rules.dice import RandomSource, RulesError, Thrown


def _roll_main(campaign: Campaign, comp: Composition, play: BasePlay, rng: RandomSource | None,
               physical: Thrown | None) -> tuple[Any, dict[str, Any]]:
    """The acting side's result, and what the log adds of how it fell (a Fate card drawn), from the
    physical dice entered if any (checked by ``gmtools.physical.thrown``), else drawn from ``rng``."""
    shortcut = play.shortcuts.get(comp.shortcut)
    if shortcut is not None:
        # The shortcuts are never for a stressful (combat) scene.
        return shortcut(comp.request, comp.scene is not None and comp.scene.combat), {}
    if physical is None:
        return play.roll(campaign.pk, comp.request, rng)
    rolled = play.roll(campaign.pk, comp.request, physical)
    if physical.left:  # pragma: no cover - ``thrown`` counted them as the engine draws them
        raise Refused(_("The roll read fewer dice than were entered: nothing was rolled."))
    return rolled[0], {**rolled[1], "physical": True}


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


def _lock_extended(comp: Composition) -> ExtendedAction:
    """The extended action the roll goes into, locked until the roll is logged, and still open to it:
    not over, and still its roller's (another roll may have made it another's since it was composed)."""
    # Only the action's row: PostgreSQL locks no nullable side of an outer join (its character may be none).
    action = ExtendedAction.objects.select_for_update(of=("self",)).select_related("character").get(pk=comp.extended.pk)
    if action.over:
        raise Refused(_("“%(name)s” is already over.") % {"name": action.name})
    if refusal := action.refuses_roll_of(comp.character):
        raise Refused(refusal)
    return action


def _advance_extended(action: ExtendedAction, comp: Composition, play: BasePlay, main: Any,
                      document: dict[str, Any]) -> dict[str, Any]:
    """Roll into the extended action (locked): add the roll's gain, apply a botch, settle a contest."""
    successes = document.get("team_total", main.successes)
    botched = play.extended_botch(main, action.difficulty)
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
    if action.first_id is None and action.second_id is None and any(comp.traits):
        fields["first"], fields["second"] = comp.traits  # what picking it in the composer selects
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


def refuse_made(campaign: Campaign, once: UUID | None) -> None:
    """``Refused`` when the roll of this composer's key is in the log already (``Roll.once_key``): a
    second click on Roll, a retry. Asked before anything else is judged (the turn's budget would only
    say the character has acted), and again under the lock (``record_roll``)."""
    if once is not None and Roll.objects.filter(campaign=campaign, once_key=once).exists():
        raise Refused(_("This roll was already made (one click, one roll): nothing was rolled or spent again."))


def record_roll(campaign: Campaign, comp: Composition, rng: RandomSource | None = None, *,
                once: UUID | None = None, streams: WritersDrawing | None = None,
                physical: Physical | None = None, rolled_by: str = "") -> Roll:
    """Pay the spends, roll, and log it: all of it or none of it. ``once``: the composer's key of the
    roll (``Roll.once_key``): a second request with it is refused, nothing rolled or spent again.
    ``streams``: the drawing of the request that rolls, which claims the roll for the live streams
    (``gmtools.live.WritersDrawing``). ``physical``: the faces of real dice thrown for the acting
    side (``gmtools.physical``), read instead of drawing; the opposition's and the helpers' dice are
    still drawn from ``rng``. ``rolled_by``: who rolled it from a phone (``Roll.rolled_by``)."""
    try:
        return _record_roll(campaign, comp, rng, once, streams, physical, rolled_by)
    except IntegrityError:
        # Two requests with one key at once that no character's lock queued (an unnamed NPC's roll):
        # the unique key let the first in and rolled the second back, spends and all.
        refuse_made(campaign, once)
        raise


@transaction.atomic
def _record_roll(campaign: Campaign, comp: Composition, rng: RandomSource | None, once: UUID | None,
                 streams: WritersDrawing | None, entered: Physical | None, rolled_by: str = "") -> Roll:
    if comp.character is not None:
        lock_character(comp.character.pk)  # one roll of a character at a time: budgets and spends stay exact
    refuse_made(campaign, once)  # before the turn's check, which would only say the character has acted
    scene, turn = _check_turn(comp)
    extended = _lock_extended(comp) if comp.extended is not None else None  # before a die is drawn
    play = games.get(comp.game).play
    # The physical dice entered, checked against the roll: a wrong entry is refused before anything is spent.
    physical = thrown(entry_of(comp), entered) if entered is not None else None
    paid = [pay(TABLE, spend) for spend in comp.spends]
    try:
        main, extra = _roll_main(campaign, comp, play, rng, physical)
        document: dict[str, Any] = {"main": main.as_json(), **extra}
        other = comp.engine.roll(comp.opponent, rng) if comp.opponent is not None else None
        first = main
        if comp.team:
            # Each helper rolls their own pool apart; the engine adds up the team (Exalted teamwork),
            # whose total is the first side's in a contest.
            helpers = [(name, comp.engine.roll(req, rng)) for name, req in comp.team]
            document["team"] = [{"name": name, **r.as_json()} for name, r in helpers]
            document["team_total"] = comp.engine.teamwork([main, *(r for _, r in helpers)])
            first = replace(main, successes=document["team_total"])
        if other is not None:
            document["opponent"] = {"name": comp.opponent_name, **other.as_json()}
            if comp.opponent_parts:  # an opposing character's traits, said in each language (Roll.opponent_label)
                document["opponent"]["label_parts"] = list(comp.opponent_parts)
            document["opposed"] = play.opposed(first, other, comp.handicap)
        if comp.team_names:
            document["helpers"] = list(comp.team_names)
            if comp.team_idle:
                document["helpers_idle"] = list(comp.team_idle)
        document.update(play.logged(TABLE, campaign, scene, comp, main, document))
        if comp.notes:
            document["turn_notes"] = list(comp.notes)
        if extended is not None:
            document["extended"] = _advance_extended(extended, comp, play, main, document)
        # Where the acting side's dice fell, against their exact odds (issue 14, ``gmtools.luck``).
        luck = play.luck(campaign.pk, comp.request, main, document)
    except RulesError as error:
        raise Refused(refusal_text(error)) from None
    logged = Roll.objects.create(
        campaign=campaign, character=comp.character, actor=comp.actor, system=comp.game, kind=ROLL,
        label=comp.label, label_parts=list(comp.label_parts),
        request={**request_doc(comp.request), "shortcut": comp.shortcut},
        result=document, outcome=str(main.outcome), spends=paid, secret=comp.secret,
        hidden=comp.hidden, scene=scene, turn=turn, extended=comp.extended,
        action=play.logged_action if play.logged_action is not None else comp.action,
        willpower_spent=any(s.what == "willpower" for s in comp.spends), luck=stored(luck), once_key=once,
        rolled_by=rolled_by,
    )
    if rolled_by and comp.character is not None:  # a phone's roll took the difficulty the GM asked, once
        Character.objects.filter(pk=comp.character.pk).exclude(asked_difficulty="").update(asked_difficulty="",
                                                                                            asked_secret=False)
    announce(campaign.pk, ChangeKind.ROLL, roll=logged, public=not logged.hidden, streams=streams)
    return logged
