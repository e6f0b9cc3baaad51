"""Follow-ups and checks: what a game's cards offer besides the composer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from gmtools import games
from gmtools.games.base import BasePlay, CharacterCheck, FollowUp
from gmtools.models import (
    Aspect,
    Character,
    Roll,
    RollKind,
)
from gmtools.notes import refusal_text
from gmtools.services.locks import Refused
from gmtools.services.table import TABLE
from rules.dice import RandomSource, RulesError

#
# Each game declares its follow-ups (``BasePlay.follow_ups``: V5's Willpower reroll, Fate's
# invocation, Exalted's stunt reward) and its character checks (``BasePlay.checks``: V5's rouse
# check); the workflows below find the one asked for, refuse it for a game without it in the
# words of the game that has it, lock the roll and let the game take it, through the ``Table``
# (``gmtools.services.table``); the engine's refusals read in the GM's language. The named functions
# (``willpower_reroll``, ``invoke``, ``claim_stunt_reward``, ``rouse``) are the views' and the
# tests' ways in.


def _lock_roll(roll_id: int) -> None:
    """Lock a logged roll before following it up (before any character row: the order voiding
    locks in too), so a follow-up and a void of the same roll queue up; a voided roll is refused."""
    if Roll.objects.select_for_update().filter(pk=roll_id).values_list("voided_at", flat=True).get() is not None:
        raise Refused(_("This roll has been voided: it can no longer be followed up."))


def _offer[T: (FollowUp, CharacterCheck)](game: str, kind: str, offers: Callable[[BasePlay], tuple[T, ...]]) -> T:
    """The game's own follow-up (or check) of that kind; for a game without one, ``Refused`` in
    the words of the game that has it ("Rouse checks are for Vampire characters.")."""
    own = next((offer for offer in offers(games.get(game).play) if offer.kind == kind), None)
    if own is not None:
        return own
    words = next((offer.refusal for system in games.systems() for offer in offers(system.play)
                  if offer.kind == kind), _("Unknown change for this game."))
    raise Refused(words)


@transaction.atomic
def follow_up(parent: Roll, kind: str, rng: RandomSource | None = None, **choice: Any) -> Roll:
    """Follow a logged roll up the way its game offers (its card's form posts ``choice``)."""
    offer = _offer(parent.system, kind, lambda play: play.follow_ups)
    if not offer.applies(parent):
        raise Refused(offer.refusal)
    _lock_roll(parent.pk)
    try:
        return offer.take(TABLE, parent, rng, **choice)
    except RulesError as error:
        raise Refused(refusal_text(error)) from None


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
    return _offer(character.game, RollKind.ROUSE, lambda play: play.checks).take(TABLE, character, rng)
