"""The fifth game as the table sees it (``D6Pool``): its sheet and demo, its grit (a resource of its own,
``models.D6Resources``), a roll's push (a follow-up: the misses rolled again, for 1 grit) and the
card's one-click changes of grit, each drawn by its own partials (``templates/games/d6pool/``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _

from gmtools.games.base import (
    ROLL, AdjustmentWords, BaseGame, BasePlay, Columns, DemoCampaign, DemoCharacter, FollowUp, FollowUpForm, Spend,
    Table, TraitCategory, character_spend, logged_request, rebuild, sheet_part, step,
)
from rules.dice import RandomSource
from tests.fifth_game import engine
from tests.fifth_game.models import BOUNDS, D6Resources

if TYPE_CHECKING:
    from gmtools.models import Roll

PUSH_KIND = "push"

ADJUSTMENTS = {
    "grit-spend": step("grit", -1, *BOUNDS["grit"], "%(name)s has no grit left."),
    "grit-regain": step("grit", 1, *BOUNDS["grit"], "%(name)s's grit is full."),
}

GRIT = character_spend(pay=ADJUSTMENTS["grit-spend"],
                       give_back=lambda c, spend: {"grit": min(BOUNDS["grit"][1], c.resources.grit + 1)},
                       words=lambda spend: "1 grit")


def _push(table: Table, parent: Roll, rng: RandomSource | None) -> Roll:
    """Spend 1 grit to roll the roll's misses again (once per roll: a follow-up of each kind)."""
    paid = table.pay(Spend("grit", parent.character_id))  # first: no grit, no dice thrown
    request = rebuild(engine, logged_request(parent))
    result = engine.push(engine.resolve(request, parent.main["faces"]), rng)
    return table.log_follow_up(parent, PUSH_KIND, label=parent.label, request=parent.request,
                               result={"main": result.as_json()}, outcome=result.outcome, spends=[paid])


PUSH = FollowUp(
    kind=PUSH_KIND,
    label="Push",
    form="games/d6pool/card.html#push",
    form_class=FollowUpForm,  # nothing to choose: the misses are rolled again
    offered=lambda roll: roll.kind == ROLL and roll.outcome == "failure" and roll.character.resources.grit > 0,
    applies=lambda roll: roll.kind == ROLL and roll.character_id is not None,
    take=_push,
    refusal="Only a D6 pool character's own roll can be pushed.",
)


class D6PoolPlay(BasePlay):
    hit_face = engine.HIT  # the card marks the 5s and 6s
    spends = {"grit": GRIT}
    follow_ups = (PUSH,)
    adjustments = ADJUSTMENTS
    adjustment_words = {"grit-spend": AdjustmentWords("Grit −1", "Spend 1 grit"),
                        "grit-regain": AdjustmentWords("Grit +1", "Regain 1 grit")}
    party_card = "games/d6pool/play.html#party-card"


class D6Pool(BaseGame):
    id = "d6pool"
    label = "D6 pool"
    engine = engine
    play_class = D6PoolPlay
    categories = (TraitCategory.ATTRIBUTE,)  # one trait and extra dice make a pool
    standard_sheet = sheet_part(TraitCategory.ATTRIBUTE, 1, ("body", "Body"), ("mind", "Mind"))
    resources = Columns(model=D6Resources, title="Grit", rows=("grit",))
    demo = DemoCampaign(name="Demo · d6 pool", characters=(DemoCharacter(name="Rook", ratings={"body": 3}),))
    outcome_words = {"success": (_("Success"), "good"), "failure": (_("Failure"), "bad")}  # msgids the table has


GAME = D6Pool()
