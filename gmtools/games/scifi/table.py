"""The scifi d10 game at the table: how its contests are won, its fumble in an extended action, the
turn's two action slots, the adventure (On-Rol) switch, and the character card's one-click changes."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_lazy, pgettext_lazy

from gmtools.games.scifi.models import resources_of
from gmtools.games.scifi.slots import turn_budget
from gmtools.games.base import ROLL, D10, AdjustmentWords, BasePlay, contest, rebuild, request_args, step, toggle
from rules import scifi
from rules.dice import Entry
from rules.luck import Luck

if TYPE_CHECKING:  # the table's rows are named, never imported, here
    from gmtools.models import Character, Roll

ADJUSTMENTS = {
    "adventure": toggle("in_adventure"),
    "health-damage": step("health", -1, 0, 99, gettext_lazy("%(name)s has no health left to lose.")),
    "health-heal": step("health", 1, 0, lambda c: resources_of(c).health_max,
                        gettext_lazy("%(name)s is already at full health.")),
}
ADJUSTMENT_WORDS = {
    "adventure": AdjustmentWords(gettext_lazy("In the adventure")),
    "health-damage": AdjustmentWords(gettext_lazy("Health −1"), gettext_lazy("Lose 1 health")),
    "health-heal": AdjustmentWords(gettext_lazy("Health +1"), gettext_lazy("Heal 1 health")),
}


# --- luck and fair dice (issue 14) -------------------------------------------------------------


class ScifiPlay(BasePlay):
    """The scifi game at the table."""

    adjustments = ADJUSTMENTS
    adjustment_words = ADJUSTMENT_WORDS
    hit_face = 7
    ten_words = pgettext_lazy("die", "success, one more die")
    switch = "games/scifi/play.html#switch"
    party_card = "games/scifi/play.html#party-card"
    player_where = "games/scifi/play.html#player-where"
    card_details = "games/scifi/card.html#details"  # the kind of action, of the turn's two slots
    dice = (D10,)

    def entry(self, request: scifi.Request) -> Entry:
        """The pool's d10s, then one more for every 10 as it comes (an action not rolled throws none)."""
        return Entry(dice=request.dice if request.rolls else 0, explodes=10)

    def opposed(self, first: scifi.Result, second: scifi.Result, handicap: tuple[int, int]) -> dict[str, Any]:
        """More successes wins, narrowly, clearly or overwhelmingly."""
        return {**contest(first.successes - second.successes),
                "victory": scifi.Opposed(first.roll, second.roll).as_json().get("victory")}

    def extended_botch(self, main: scifi.Result, difficulty: int) -> bool:
        """A fumble is judged against the extended action's own difficulty, as its odds are."""
        return scifi.extended_fumble(main.roll, difficulty)

    def turn_done(self, character: Character, rolls: list[Roll]) -> bool:
        """Its action slots are taken."""
        return turn_budget(rolls).used >= resources_of(character).action_slots

    def turn_slots(self, rolls: list[Roll]) -> int:
        return turn_budget(rolls).used

    # --- luck and fair dice (issue 14) ---

    def luck(self, campaign_id: int, request: scifi.Request, result: scifi.Result, document: Mapping[str, Any]) -> Luck | None:
        """The dice against their exact odds, explosions included (None when the action was not rolled)."""
        return scifi.luck(request, result)

    def stored_luck(self, entry: Mapping[str, Any], state: dict[str, Any]) -> Luck | None:
        """A logged roll replayed from its stored request and faces (the pool, then the explosions)."""
        if entry["kind"] != ROLL:
            return None
        main = entry["result"].get("main", {})
        request = rebuild(scifi, request_args(entry["request"]))
        faces = (*main.get("faces", ()), *main.get("explosions", ()))
        return scifi.luck(request, scifi.resolve(request, faces))

    def thrown(self, kind: str, result: Mapping[str, Any]) -> Iterator[tuple[str, list[int]]]:
        """Every d10 of a roll, each explosion a fresh one: the acting side's and the opposition's."""
        if kind != ROLL:
            return
        for side in (result.get("main"), result.get("opponent"), *result.get("team", ())):
            if side:
                yield D10.code, [*side.get("faces", ()), *side.get("explosions", ())]
