"""Follow-ups and checks: what a game's cards offer besides the composer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from gmtools import games
from gmtools.games.base import BasePlay, CharacterCheck, FollowUp
from gmtools.models import (
    Character,
    Roll,
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
# (``gmtools.services.table``); the engine's refusals read in the GM's language.


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


def follow_up_of(game: str, kind: str) -> FollowUp:
    """The game's follow-up of that kind (its card's form and what it takes), or ``Refused``."""
    return _offer(game, kind, lambda play: play.follow_ups)


@transaction.atomic
def follow_up(parent: Roll, kind: str, rng: RandomSource | None = None, **choice: Any) -> Roll:
    """Follow a logged roll up the way its game offers (its card's form posts ``choice``)."""
    offer = follow_up_of(parent.system, kind)
    if not offer.applies(parent):
        raise Refused(offer.refusal)
    _lock_roll(parent.pk)
    if Roll.objects.filter(parent=parent, kind=kind).exists():  # under the roll's lock: before a die is drawn
        raise Refused(_("This roll has already been followed up that way."))
    try:
        return offer.take(TABLE, parent, rng, **choice)
    except RulesError as error:
        raise Refused(refusal_text(error)) from None


@transaction.atomic
def check(character: Character, kind: str, rng: RandomSource | None = None) -> Roll:
    """A roll made from the character's card the way its game offers (V5's rouse check)."""
    return _offer(character.game, kind, lambda play: play.checks).take(TABLE, character, rng)
