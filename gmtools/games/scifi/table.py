"""The scifi d10 game at the table: how its contests are won, its fumble in an extended action, the
turn's two action slots, the adventure (On-Rol) switch, and the character card's one-click changes.

Imported when first asked (``GameSystem.at_table``): it uses the models and ``gmtools.services``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy

from gmtools.games.scifi.slots import turn_budget
from gmtools.games.base import TablePlay
from gmtools.models import Character, Roll
from gmtools.services import contest, step, toggle
from rules import scifi

ADJUSTMENTS = {
    "adventure": toggle("scifi_in_adventure"),
    "health-damage": step("scifi_health", -1, 0, 99, gettext_lazy("%(name)s has no health left to lose.")),
    "health-heal": step("scifi_health", 1, 0, lambda c: c.scifi_health_max,
                        gettext_lazy("%(name)s is already at full health.")),
}


def opposed(first: scifi.Result, second: scifi.Result, handicap: tuple[int, int]) -> dict[str, Any]:
    """More successes wins, narrowly, clearly or overwhelmingly."""
    return {**contest(first.successes - second.successes),
            "victory": scifi.Opposed(first.roll, second.roll).as_json().get("victory")}


def turn_done(character: Character, rolls: list[Roll]) -> bool:
    """Its action slots are taken."""
    return turn_budget(rolls).used >= character.scifi_action_slots


PLAY = TablePlay(
    opposed=opposed,
    # A fumble is judged against the extended action's own difficulty, as its odds are.
    extended_botch=lambda main, difficulty: scifi.extended_fumble(main.roll, difficulty),
    adjustments=ADJUSTMENTS,
    turn_done=turn_done,
    turn_slots=lambda rolls: turn_budget(rolls).used,
    hit_face=7,
    switch="games/scifi/play.html#switch",
    party_card="games/scifi/play.html#party-card",
    player_where="games/scifi/play.html#player-where",
)
