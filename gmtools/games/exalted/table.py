"""Exalted 2e at the table: its automatic success, contests with successes taken away, Willpower
spent on a roll, stunt rewards, the character card's one-click changes and its declared actions.

It calls back into the table only through the ``Table`` each callback is handed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from gmtools.games.base import (
    D10, ROLL, AdjustmentWords, BasePlay, FollowUp, FollowUpForm, Ledger, Refused, Spent, Table, character_spend,
    contest, logged_request, rebuild, request_args, step,
)
from gmtools.games.exalted.models import ExaltedResources, resources_of
from gmtools.games.exalted.words import TERMS
from rules import exalted
from rules.dice import Entry, RandomSource
from rules.luck import Luck

if TYPE_CHECKING:  # the table's rows are named, never imported, here
    from gmtools.models import Character, Roll

# The kinds of log entry its follow-up make (a composed roll's is ``ROLL``).
REWARD_KIND = "reward"

ADJUSTMENTS = {
    "willpower-spend": step("willpower_temporary", -1, 0, 10,
                            gettext_lazy("%(name)s has no temporary Willpower left.")),
    "willpower-regain": step("willpower_temporary", 1, 0, lambda c: resources_of(c).willpower,
                             gettext_lazy("%(name)s's temporary Willpower is already at its permanent rating.")),
    "motes-spend": step("motes", -1, 0, 100, gettext_lazy("%(name)s has no motes left.")),
    "motes-regain": step("motes", 1, 0, lambda c: resources_of(c).motes_max,
                         gettext_lazy("%(name)s's mote pool is already full.")),
}
ADJUSTMENT_WORDS = {
    "willpower-spend": AdjustmentWords(gettext_lazy("Willpower −1"), gettext_lazy("Spend 1 Willpower")),
    "willpower-regain": AdjustmentWords(gettext_lazy("Willpower +1"), gettext_lazy("Regain 1 Willpower")),
    "motes-spend": AdjustmentWords(gettext_lazy("Motes −1"), gettext_lazy("Spend 1 mote")),
    "motes-regain": AdjustmentWords(gettext_lazy("Motes +1"), gettext_lazy("Regain 1 mote")),
}

# 1 temporary Willpower for +1 success, as the card's "Spend 1 Willpower" takes it.
WILLPOWER = character_spend(
    pay=ADJUSTMENTS["willpower-spend"],
    give_back=lambda c, spend: {"willpower_temporary": min(resources_of(c).willpower,
                                                           resources_of(c).willpower_temporary + 1)},
    words=lambda spend: pgettext("exalted", "1 Willpower"),
)


# --- the stunt reward -------------------------------------------------------------------------

class RewardForm(FollowUpForm):
    choice = forms.ChoiceField(choices=[("motes", gettext_lazy("Motes")), ("willpower", gettext_lazy("Willpower"))])


def earned(roll: Roll) -> dict[str, exalted.StuntReward]:
    """The rewards a logged roll earned, by the card's choice ("motes", "willpower"): none unless a
    successful stunted roll (``rules.exalted.stunt_rewards``)."""
    request = rebuild(exalted, logged_request(roll))
    result = exalted.resolve(request, roll.main["faces"]) if roll.main.get("faces") else exalted.automatic_success(request)
    return {("willpower" if r.willpower else "motes"): r for r in exalted.stunt_rewards(result)}


def regains(row: ExaltedResources, reward: exalted.StuntReward) -> dict[str, int]:
    """What the reward would regain, by column: as much as the pool has room for (a full one, none)."""
    if reward.willpower:
        return {"willpower_temporary": min(row.willpower, row.willpower_temporary + 1) - row.willpower_temporary}
    return {"motes": min(row.motes_max, row.motes + reward.motes) - row.motes}


def on_offer(roll: Roll) -> dict[str, int]:
    """What the card offers, by choice: each reward earned that the character's pools have room for,
    with what it would regain (as the card's character row was read: the workflow checks again
    under the character's lock)."""
    if roll.character is None:
        return {}
    row = resources_of(roll.character)
    offer = {choice: sum(regains(row, reward).values()) for choice, reward in earned(roll).items()}
    return {choice: amount for choice, amount in offer.items() if amount}


def _stunt_reward(table: Table, parent: Roll, rng: RandomSource | None, choice: str) -> Roll:
    """After a successful stunted roll, regain motes (1 per stunt die) or 1 Willpower (2–3 dice)."""
    options = earned(parent)
    if choice not in options:
        raise Refused(_("That reward is not on offer for this roll."))
    assert parent.character_id is not None  # ``REWARD.applies`` to a character's roll alone
    character = table.lock(parent.character_id)
    row = resources_of(character)
    reward = options[choice]
    # What is really regained (a nearly full pool takes less), so that voiding takes back exactly that.
    regained = regains(row, reward)
    if not any(regained.values()):
        raise Refused((_("%(name)s's temporary Willpower is already at its permanent rating: take the motes.")
                       if reward.willpower else _("%(name)s's mote pool is already full.")) % {"name": character.name})
    table.update(character, **{field: getattr(row, field) + amount for field, amount in regained.items()})
    return table.log_follow_up(parent, REWARD_KIND, label=parent.label, request=parent.request,
                               result={"reward": reward.as_json(), "regained": regained}, outcome=choice, spends=[])


def _regained(entry: Roll) -> str:
    """A stunt reward in words, on its card and in the exports (it throws no dice): what it regained
    (a nearly full pool takes less than the reward); older entries stored the reward alone."""
    regained = entry.result.get("regained") or {"motes": entry.result.get("reward", {}).get("motes")}
    motes = regained.get("motes", regained.get("exalted_motes"))
    return (ngettext("Regained %(n)s mote", "Regained %(n)s motes", motes) % {"n": motes} if motes
            else _("Regained 1 Willpower"))


REWARD = FollowUp(
    kind=REWARD_KIND,
    label=gettext_lazy("Stunt reward"),
    form="games/exalted/card.html#reward",
    form_class=RewardForm,
    offered=lambda roll: roll.kind == ROLL and bool(roll.request.get("stunt")) and roll.outcome == "success",
    applies=lambda roll: roll.kind == ROLL and roll.character_id is not None,
    take=_stunt_reward,
    refusal=gettext_lazy("Only an Exalted character's stunted roll earns a reward."),
    verdict=_regained,
    by_players=False,  # a reward is the GM's to give (RULES.md), never the player's to take
)


# --- luck and fair dice (issue 14) -------------------------------------------------------------


class ExaltedPlay(BasePlay):
    """Exalted at the table."""

    shortcuts = {"automatic": lambda request, stressful: exalted.automatic_success(request)}
    spends = {"willpower": WILLPOWER}
    follow_ups = (REWARD,)
    adjustments = ADJUSTMENTS
    adjustment_words = ADJUSTMENT_WORDS
    hit_face = 7
    ten_words = pgettext_lazy("die", "double")
    party_card = "games/exalted/play.html#party-card"
    dice = (D10,)
    spent = (Spent(label=TERMS["Willpower"], spends=("willpower",), adjustments=("willpower-spend",)),
             Spent(label=pgettext_lazy("exalted", "Stunts"), spends=("stunt",)))

    def entry(self, request: exalted.Request) -> Entry:
        """The pool's d10s; a 10 is two successes, not one more die (RULES.md): nothing explodes."""
        return Entry(dice=request.dice)

    def opposed(self, first: exalted.Result, second: exalted.Result, handicap: tuple[int, int]) -> dict[str, Any]:
        """More successes wins; ``handicap``: the successes taken from each side's roll first (never below 0)."""
        if not any(handicap):
            return contest(first.successes - second.successes)
        result = exalted.resolve_opposed(first, second, *handicap)
        return {**contest(result.net if result.outcome is exalted.Opposed.WIN else -result.net),
                "handicap": list(handicap)}

    def take_back(self, entry: Roll, ledger: Ledger) -> None:
        """A stunt reward given back: what it regained goes again (never below 0)."""
        if entry.kind != REWARD_KIND:
            return
        character = ledger.character(entry.character_id)
        reward = entry.result.get("reward", {})
        # Older rewards did not store what they regained: the reward itself, as near as it gets. Those
        # logged while the columns stood on every character name them as they were (``exalted_motes``).
        regained = entry.result.get("regained") or (
            {"willpower_temporary": 1} if reward.get("willpower") else {"motes": reward.get("motes", 0)})
        if character is not None:
            row = resources_of(character)
            taken = {name.removeprefix("exalted_"): int(amount) for name, amount in regained.items()}
            ledger.update(character, **{name: max(0, getattr(row, name) - amount) for name, amount in taken.items()})

    def turn_done(self, character: Character, rolls: list[Roll]) -> bool:
        """Its declared actions are taken (reflexive actions take none)."""
        return sum(r.action != "reflexive" for r in rolls) >= character.turn_declared

    # --- luck and fair dice (issue 14) ---

    def luck(self, campaign_id: int, request: exalted.Request, result: exalted.Result,
             document: Mapping[str, Any]) -> Luck | None:
        """The dice against their exact odds, stunt and Willpower included (None for an automatic success)."""
        return exalted.luck(request, result)

    def stored_luck(self, entry: Mapping[str, Any], state: dict[str, Any]) -> Luck | None:
        """A logged roll replayed from its stored request and faces; a reward threw no dice."""
        main = entry["result"].get("main", {})
        if entry["kind"] != ROLL or main.get("automatic") or not main.get("faces"):
            return None
        request = rebuild(exalted, request_args(entry["request"]))
        return exalted.luck(request, exalted.resolve(request, main["faces"]))

    def used(self, kind: str, result: Mapping[str, Any]) -> Iterator[str]:
        """A stunted roll's stunt (its dice are the GM's award, not a spend the roll holds)."""
        if kind == ROLL and (result.get("main") or {}).get("stunt"):
            yield "stunt"

    def thrown(self, kind: str, result: Mapping[str, Any]) -> Iterator[tuple[str, list[int]]]:
        """Every d10 of a roll: the acting side's, the opposition's, each helper's. A reward threw none."""
        if kind != ROLL:
            return
        for side in (result.get("main"), result.get("opponent"), *result.get("team", ())):
            if side:
                yield D10.code, side.get("faces", [])
