"""Vampire V5 at the table: taking half and the automatic win, Willpower spent on a roll and its
reroll, the rouse check, and the character card's one-click changes (Hunger, the two trackers).

It calls back into the table only through the ``Table`` each callback is handed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy

from gmtools.games.base import (
    D10, ROLL, AdjustmentWords, BasePlay, CharacterCheck, FollowUp, FollowUpForm, Refused, Spend, Spent, Table,
    character_spend, rebuild, request_args, step,
)
from gmtools.games.v5.models import resources_of
from gmtools.games.v5.words import TERMS
from rules import v5
from rules.dice import Entry, RandomSource, RulesError
from rules.luck import Luck

if TYPE_CHECKING:  # the table's rows are named, never imported, here
    from gmtools.models import Character, Roll

# The kinds of log entry its follow-up and its check make (a composed roll's is ``ROLL``).
REROLL_KIND = "reroll"
ROUSE_KIND = "rouse"


def _tracker(c: Character, track: str) -> v5.Tracker:
    row = resources_of(c)
    boxes = row.health_boxes if track == "health" else row.willpower_boxes
    return v5.Tracker(boxes, getattr(row, f"{track}_superficial"), getattr(row, f"{track}_aggravated"))


def _track(track: str, kind: str, heal: bool) -> Callable[[Character], dict[str, Any]]:
    def change(c: Character) -> dict[str, Any]:
        tracker = _tracker(c, track)
        if heal:
            if getattr(tracker, kind) == 0:
                raise Refused(_("No %(kind)s damage to heal.") % {"kind": _(kind)})
            tracker = tracker.heal_superficial(1) if kind == "superficial" else tracker.heal_aggravated(1)
        else:
            if tracker.overwhelmed:
                raise Refused(_("Every box is already aggravated."))
            tracker = tracker.damage(kind, 1)
        return {f"{track}_superficial": tracker.superficial, f"{track}_aggravated": tracker.aggravated}
    return change


def _no_hunger(c: Character) -> str:
    """Why a mortal or a ghoul has no Hunger to change or to rouse, in words."""
    if resources_of(c).nature == "ghoul":
        return _("%(name)s is a ghoul: ghouls have no Hunger and make no rouse check.") % {"name": c.name}
    return _("%(name)s is a mortal: mortals have no Hunger and make no rouse check.") % {"name": c.name}


def _vampires(change: Callable[[Character], dict[str, Any]]) -> Callable[[Character], dict[str, Any]]:
    """A change of Hunger, refused to a mortal or a ghoul."""
    def hunger(c: Character) -> dict[str, Any]:
        if not resources_of(c).has_hunger:
            raise Refused(_no_hunger(c))
        return change(c)
    return hunger


ADJUSTMENTS = {
    "hunger-up": _vampires(step("hunger", 1, 0, 5, gettext_lazy("%(name)s is already at Hunger 5."))),
    "hunger-down": _vampires(step("hunger", -1, 0, 5, gettext_lazy("%(name)s is already at Hunger 0."))),
    **{f"{track}-{kind}-{verb}": _track(track, kind, verb == "heal")
       for track in ("health", "willpower") for kind in ("superficial", "aggravated") for verb in ("damage", "heal")},
}
ADJUSTMENT_WORDS = {
    "hunger-up": AdjustmentWords(gettext_lazy("Hunger +1")),
    "hunger-down": AdjustmentWords(gettext_lazy("Hunger −1")),
    "health-superficial-damage": AdjustmentWords(gettext_lazy("Health +1 superficial")),
    "health-aggravated-damage": AdjustmentWords(gettext_lazy("Health +1 aggravated")),
    "health-superficial-heal": AdjustmentWords(gettext_lazy("Health −1 superficial")),
    "health-aggravated-heal": AdjustmentWords(gettext_lazy("Health −1 aggravated")),
    "willpower-superficial-damage": AdjustmentWords(gettext_lazy("Willpower +1 superficial")),
    "willpower-aggravated-damage": AdjustmentWords(gettext_lazy("Willpower +1 aggravated")),
    "willpower-superficial-heal": AdjustmentWords(gettext_lazy("Willpower −1 superficial")),
    "willpower-aggravated-heal": AdjustmentWords(gettext_lazy("Willpower −1 aggravated")),
}


def _spend_willpower(c: Character) -> dict[str, Any]:
    """1 superficial Willpower damage, while a box is undamaged."""
    tracker = _tracker(c, "willpower")
    if tracker.undamaged < 1:
        raise Refused(_("%(name)s has no Willpower left to spend.") % {"name": c.name})
    spent = v5.spend_willpower(tracker)
    return {"willpower_superficial": spent.superficial, "willpower_aggravated": spent.aggravated}


SPENDS = {
    # Spending marked 1 superficial damage (there was an undamaged box): voiding heals it.
    "v5_willpower": character_spend(
        pay=_spend_willpower,
        give_back=lambda c, spend: {"willpower_superficial": max(0, resources_of(c).willpower_superficial - 1)},
        words=lambda spend: pgettext("v5", "1 Willpower")),
    # A rouse check: the Hunger it added goes. Its card says it already ("Hunger 1 → 2"): no words.
    "hunger": character_spend(give_back=lambda c, spend: {"hunger": max(0, resources_of(c).hunger - int(spend.get("amount", 0)))},
                              words=lambda spend: ""),
}


def _request(logged: Mapping[str, Any]) -> v5.Request:
    """The request a logged entry was rolled with, from its stored ``request``."""
    doc = request_args(logged)
    if doc.get("tracker") and "remorse" not in doc:
        # Logged before Willpower rolls took Hunger dice (issue 11): it rolled none, as a remorse roll does.
        doc = {**doc, "remorse": True}
    request: v5.Request = rebuild(v5, doc)
    return request


class RerollForm(FollowUpForm):
    dice = forms.TypedMultipleChoiceField(choices=[(i, i) for i in range(100)], coerce=int,
                                          error_messages={"required": gettext_lazy("Pick up to 3 normal dice to reroll.")})


def _willpower_reroll(table: Table, parent: Roll, rng: RandomSource | None, dice: list[int]) -> Roll:
    """Spend 1 Willpower (1 superficial damage) to reroll up to 3 normal dice of a roll, by their
    places (the engine refuses dice that are not there or more than 3)."""
    request = _request(parent.request)
    main = parent.main
    result = v5.resolve(request, main["faces"], main["hunger_faces"])
    if main.get("automatic") or parent.request.get("shortcut") != "roll":
        raise Refused(_("An automatic win or taking half rolls no dice to reroll."))
    rerolled = v5.roll_reroll(request, result, dice, rng)
    assert parent.character_id is not None  # ``REROLL.applies`` to a character's roll alone
    table.pay(Spend("v5_willpower", parent.character_id))
    # A roll of its own, ranked among what the rerolled dice could do beside the kept ones (``v5.luck``).
    return table.log_follow_up(parent, REROLL_KIND, luck=v5.luck(request, rerolled), label=parent.label,
                               request=parent.request, result={"main": rerolled.as_json()},
                               outcome=str(rerolled.outcome),
                               spends=[{"what": "v5_willpower", "character": parent.character_id}])


REROLL = FollowUp(
    kind=REROLL_KIND,
    label=gettext_lazy("Willpower reroll"),
    form="games/v5/card.html#reroll",
    form_class=RerollForm,
    # Dice to reroll (not an automatic win nor taking half, not a tracker roll), and Willpower to pay.
    offered=lambda roll: (roll.kind == ROLL and bool(roll.main.get("faces")) and not roll.main.get("automatic")
                          and not roll.request.get("tracker") and roll.character is not None
                          and bool(resources_of(roll.character).willpower_left)),
    applies=lambda roll: roll.kind == ROLL and roll.character_id is not None,
    take=_willpower_reroll,
    refusal=gettext_lazy("Only a Vampire character's own roll can be rerolled with Willpower."),
    entry=lambda parent, choice: Entry(dice=len(choice.get("dice", ()))),  # the normal dice picked
)


def _rouse(table: Table, character: Character, rng: RandomSource | None) -> Roll:
    """A rouse check: a failure raises Hunger by 1 (never past 5). A mortal or a ghoul has no Hunger:
    refused, nothing rolled or written."""
    character = table.lock(character.pk)
    try:
        v5.check_rouse(resources_of(character).nature)
    except RulesError:
        raise Refused(_no_hunger(character)) from None
    check = v5.roll_rouse(resources_of(character).hunger, rng)
    table.update(character, hunger=check.hunger_after)
    return table.log_check(
        character, ROUSE_KIND, luck=v5.rouse_luck(check),
        label=_("Rouse check"), label_parts=["term:rouse_check"], request={"hunger": check.hunger_before},
        result={"main": check.as_json()}, outcome=str(check.outcome),
        spends=[{"what": "hunger", "amount": check.hunger_after - check.hunger_before}],
    )


ROUSE = CharacterCheck(kind=ROUSE_KIND, label=gettext_lazy("Rouse check"), take=_rouse,
                       refusal=gettext_lazy("Rouse checks are for Vampire characters."),
                       entry=Entry(dice=1))  # one d10, not a Hunger die (RULES.md)

# --- luck and fair dice (issue 14) -------------------------------------------------------------


class V5Play(BasePlay):
    """Vampire at the table."""

    shortcuts = {"take_half": lambda request, stressful: v5.take_half(request, stressful=stressful),
                 "automatic": lambda request, stressful: v5.automatic_win(request, stressful=stressful)}
    spends = SPENDS
    follow_ups = (REROLL,)
    checks = (ROUSE,)
    adjustments = ADJUSTMENTS
    adjustment_words = ADJUSTMENT_WORDS
    hit_face = 6
    ten_words = pgettext_lazy("die", "critical")
    party_card = "games/v5/play.html#party-card"
    dice = (D10,)
    # A Willpower reroll's point; the one-click Willpower damage is damage too (a social blow), so it is not counted.
    spent = (Spent(label=TERMS["Willpower"], spends=("v5_willpower",)),)

    def entry(self, request: v5.Request) -> Entry:
        """The normal dice, then the Hunger dice, entered apart (the engine draws them in that order)."""
        return Entry(dice=request.normal_dice, hunger=request.hunger_dice)

    # --- luck and fair dice (issue 14) ---

    def luck(self, campaign_id: int, request: v5.Request, result: v5.Result, document: Mapping[str, Any]) -> Luck | None:
        """The dice against their exact odds (None when nothing was rolled: taking half, an automatic win)."""
        return v5.luck(request, result)

    def stored_luck(self, entry: Mapping[str, Any], state: dict[str, Any]) -> Luck | None:
        """A logged roll, Willpower reroll or rouse check replayed from its stored request and faces."""
        main = entry["result"].get("main", {})
        if entry["kind"] == ROUSE_KIND:
            return v5.rouse_luck(v5.rouse(main["faces"][0], main["hunger_before"]))
        if entry["kind"] not in (ROLL, REROLL_KIND) or main.get("automatic"):
            return None
        request = _request(entry["request"])
        if entry["kind"] == ROLL:
            return v5.luck(request, v5.resolve(request, main["faces"], main["hunger_faces"]))
        # The roll it followed: the rerolled dice as they first fell.
        indices, faces = main["rerolled"], list(main["faces"])
        first = list(faces)
        for i, face in zip(indices, main["rerolled_from"], strict=True):
            first[i] = face
        before = v5.resolve(request, first, main["hunger_faces"])
        return v5.luck(request, v5.reroll(request, before, indices, [faces[i] for i in indices]))

    def thrown(self, kind: str, result: Mapping[str, Any]) -> Iterator[tuple[str, list[int]]]:
        """Every d10 thrown, Hunger dice and rouse checks included; a Willpower reroll's new dice only."""
        main = result.get("main", {})
        if kind == REROLL_KIND:
            yield D10.code, [main["faces"][i] for i in main.get("rerolled", ())]
        elif kind in (ROLL, ROUSE_KIND):
            for side in (main, result.get("opponent"), *result.get("team", ())):
                if side:
                    yield D10.code, [*side.get("faces", ()), *side.get("hunger_faces", ())]
