"""Follow-ups, checks and scene changes: what a game's cards and time bar offer besides the composer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from gmtools import games
from gmtools.games.base import BasePlay, CharacterCheck, FollowUp, SceneChange
from gmtools.live import WritersDrawing, announce
from gmtools.models import Campaign, ChangeKind, Character, Roll, Scene
from gmtools.notes import refusal_text
from gmtools.physical import Physical, thrown
from gmtools.services.locks import Refused
from gmtools.services.table import LiveTable
from rules.dice import RandomSource, RulesError

#
# Each game declares its follow-ups (``BasePlay.follow_ups``: V5's Willpower reroll, Fate's
# invocation, Exalted's stunt reward), its character checks (``BasePlay.checks``: V5's rouse
# check) and its changes to the scene (``BasePlay.scene_changes``: Fate's situation aspects);
# the workflows below find the one asked for, refuse it for a game without it in the words of
# the game that has it, lock the roll (or the scene) and let the game take it, through the
# ``Table`` (``gmtools.services.table``); the engine's refusals read in the GM's language.


def _lock_roll(roll_id: int) -> None:
    """Lock a logged roll before following it up (before any character row: the order voiding
    locks in too), so a follow-up and a void of the same roll queue up; a voided roll is refused."""
    if Roll.objects.select_for_update().filter(pk=roll_id).values_list("voided_at", flat=True).get() is not None:
        raise Refused(_("This roll has been voided: it can no longer be followed up."))


def _offer[T: (FollowUp, CharacterCheck, SceneChange)](game: str, kind: str, offers: Callable[[BasePlay], tuple[T, ...]]) -> T:
    """The game's own follow-up (or check) of that kind; for a game without one, ``Refused`` in
    the words of the game that has it ("Rouse checks are for Vampire characters.")."""
    own = next((offer for offer in offers(games.get(game).play) if offer.kind == kind), None)
    if own is not None:
        return own
    words = next((offer.refusal for system in games.systems() for offer in offers(system.play)
                  if offer.kind == kind), _("Unknown change for this game."))
    raise Refused(words)


def follow_up_of(game: str, kind: str) -> FollowUp:
    """The game's follow-up of that kind (its card's form and what it takes), or ``Refused``."""
    return _offer(game, kind, lambda play: play.follow_ups)


def scene_change_of(game: str, kind: str) -> SceneChange:
    """The game's change of the scene of that kind (the time bar's form and what it takes), or ``Refused``."""
    return _offer(game, kind, lambda play: play.scene_changes)


@transaction.atomic
def follow_up(parent: Roll, kind: str, rng: RandomSource | None = None, *, streams: WritersDrawing | None = None,
              physical: Physical | None = None, rolled_by: str = "", **choice: Any) -> Roll:
    """Follow a logged roll up the way its game offers (its card's form posts ``choice``); the
    entry it logs is claimed for ``streams`` (the request's drawing, as ``record_roll``'s).
    ``physical``: the faces of the real dice it throws (a roll thrown at the table is rerolled at the
    table), checked against what it throws for ``choice`` before anything is written; ignored when it
    throws none (Fate's +2). ``rolled_by``: the player who took it from their phone."""
    offer = follow_up_of(parent.system, kind)
    if not offer.applies(parent):
        raise Refused(offer.refusal)
    entry = offer.entry(parent, choice) if physical is not None else None
    if entry is not None:
        rng = thrown(entry, physical)
    # Its card shows real dice: those it threw, or (Fate's +2) the roll's own, when they were real.
    real = entry is not None or (physical is not None and bool(parent.result.get("physical")))
    _lock_roll(parent.pk)
    if Roll.objects.filter(parent=parent, kind=kind, voided_at__isnull=True).exists():  # under the roll's lock
        raise Refused(_("This roll has already been followed up that way."))
    try:
        return offer.take(LiveTable(streams, physical=real, rolled_by=rolled_by), parent, rng, **choice)
    except RulesError as error:
        raise Refused(refusal_text(error)) from None


@transaction.atomic
def check(character: Character, kind: str, rng: RandomSource | None = None, *,
          streams: WritersDrawing | None = None, physical: Physical | None = None) -> Roll:
    """A roll made from the character's card the way its game offers (V5's rouse check), claimed
    for ``streams`` (the request's drawing, as ``record_roll``'s); ``physical``: its die thrown at the
    table, as ``follow_up``'s."""
    offer = _offer(character.game, kind, lambda play: play.checks)
    if physical is not None:
        rng = thrown(offer.entry, physical)
    return offer.take(LiveTable(streams, physical=physical is not None), character, rng)


@transaction.atomic
def change_scene(scene: Scene, kind: str, **choice: Any) -> object:
    """Change the scene in play the way its game offers (Fate: add a situation aspect, remove one),
    the scene row locked so that it cannot end meanwhile: what the change made."""
    campaign_id = scene.episode.story.campaign_id
    change = scene_change_of(Campaign.objects.values_list("game", flat=True).get(pk=campaign_id), kind)
    if not Scene.objects.select_for_update().filter(pk=scene.pk, ended_at__isnull=True).exists():
        raise Refused(_("This scene has ended; start a new one."))
    made = change.take(scene, **choice)
    announce(campaign_id, ChangeKind.TIME)
    return made
