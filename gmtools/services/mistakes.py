"""Mistakes: voiding a roll (and what it spent, and the extended action it moved), undoing a click."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gmtools import games
from gmtools.games.base import ROLL
from gmtools.live import WritersDrawing, announce
from gmtools.models import (
    Campaign,
    ChangeKind,
    Character,
    ExtendedAction,
    ResourceChange,
    Roll,
)
from gmtools.services.locks import Refused, locked_or_none, update_resources
from gmtools.services.spending import Database

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
    rolls = list(Roll.objects.filter(extended=action, kind=ROLL).order_by("id"))
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
def void_roll(roll: Roll, user: Any, *, streams: WritersDrawing | None = None) -> list[Roll]:
    """Void a logged roll and the follow-ups below it: struck through, kept in the log, and what
    they spent or gained given back (see the comment above). The entries voided, newest first; the
    roll's card, redrawn, is claimed for ``streams`` (the request's drawing, as ``record_roll``'s)."""
    chain = _chain_locked(roll)
    target = next((entry for entry in chain if entry.pk == roll.pk), None)
    if target is None:
        raise Refused(_("This roll is no longer in the log."))
    if target.voided_at is not None:
        raise Refused(_("This roll has already been voided."))
    voiding = [entry for entry in chain if entry.voided_at is None]  # a follow-up voided before stays as it was
    ledger = Database()
    for entry in voiding:
        games.get(entry.system).play.give_back(entry, ledger)
    Roll.objects.filter(pk__in=[entry.pk for entry in voiding]).update(
        voided_at=timezone.now(), voided_by=user if getattr(user, "is_authenticated", False) else None)
    for action_id in sorted({entry.extended_id for entry in voiding if entry.extended_id}):
        _replay_extended(action_id)
    for pk in sorted(ledger.touched - {target.character_id}):  # the roll's own card is redrawn with it
        announce(target.campaign_id, ChangeKind.CHARACTER, character=Character(pk=pk, campaign_id=target.campaign_id))
    announce(target.campaign_id, ChangeKind.ROLL, roll=target, public=not (target.hidden and target.revealed_at is None),
             streams=streams)
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
    if character is None or any(getattr(character.resources, name) != value for name, value in change.after.items()):
        raise Refused(_("%(name)s has changed since: nothing was undone.")
                      % {"name": character.name if character else "?"})
    before = dict(change.before)
    linked = {column: pk for column, pk in before.items() if column in games.get(campaign.game).resources.links and pk}
    if linked:  # a character named (Fate: whose free invocation a consequence was) deleted since: nobody now
        kept = set(campaign.characters.filter(pk__in=linked.values()).values_list("pk", flat=True))
        before.update({column: None for column, pk in linked.items() if pk not in kept})
    update_resources(character, **before)
    ResourceChange.objects.filter(pk=change.pk).update(undone_at=timezone.now())
    announce(campaign.pk, ChangeKind.CHARACTER, character=character)
    return change
