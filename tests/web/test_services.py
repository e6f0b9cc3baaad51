"""The table's workflows (gmtools.services), fed by a real ComposerForm and scripted dice.

Every roll here draws from ``Faces``: a random source that returns the faces given, in order,
and fails the test if the roll asks for more (or, at the end, fewer) than were scripted. No
test depends on luck.
"""

from __future__ import annotations

import random

import pytest
from django.core.exceptions import ValidationError

from gmtools import games, services
from gmtools.composer import ComposerForm, Composition
from gmtools.games.fate.models import Aspect
from gmtools.models import Campaign, Character, Roll
from gmtools.games.exalted.models import ExaltedResources
from gmtools.games.fate.models import FateResources, FateState
from gmtools.games.v5.models import V5Resources
from gmtools.services import Refused
from tests.games import Game
from rules import fate
from tests.web.helpers import named_aspect, COMMON, DEFAULTS, Faces

pytestmark = pytest.mark.django_db


class Boom:
    """A random source that fails: whatever was paid before the dice must be undone."""

    def randint(self, a: int, b: int) -> int:
        raise RuntimeError("the dice fell off the table")


# Fields of other games (and of later issues) are ignored by the form of a game that lacks them.


def trait(character: Character, key: str) -> int:
    return character.traits.get(key=key).pk


def composition(campaign: Campaign, **data) -> Composition:
    """What the composer hands the roll service for this submitted data (the form must accept it)."""
    form = ComposerForm(campaign, {**COMMON, **DEFAULTS[campaign.game], **data})
    assert form.is_valid(), form.errors
    return form.cleaned_data["composition"]


def fresh(character: Character) -> Character:
    return Character.objects.get(pk=character.pk)


def resources(character: Character) -> dict:
    row = fresh(character)
    return {name: getattr(row.resources, name) for name in games.get(row.game).resources.fields}


def add(campaign: Campaign, name: str, **fields) -> Character:
    return Character.objects.create_with_sheet(campaign=campaign, name=name, **fields)


# --- exalted ---------------------------------------------------------------------------------


@pytest.fixture
def solar(make_character, set_ratings) -> Character:
    character = make_character(Game.EXALTED, name="Harmonious Jade", exalted_willpower=5,
                               exalted_willpower_temporary=3, exalted_motes_max=10, exalted_motes=4)
    set_ratings(character, dexterity=3, melee=2)
    return character


def test_exalted_roll_keeps_faces_in_order_outcome_and_request(solar):
    comp = composition(solar.campaign, character=solar.pk, first=trait(solar, "dexterity"),
                       second=trait(solar, "melee"), difficulty=2, stunt=1)
    rng = Faces(7, 1, 10, 3, 8, 2)
    roll = services.record_roll(solar.campaign, comp, rng)
    assert rng.spent
    roll = Roll.objects.get(pk=roll.pk)
    assert roll.kind == "roll" and roll.system == Game.EXALTED
    assert roll.character == solar and roll.actor == "Harmonious Jade"
    assert roll.label == "Dexterity + Melee"
    main = roll.result["main"]
    assert main["faces"] == [7, 1, 10, 3, 8, 2]  # draw order kept, 10 as 10
    assert main["successes"] == 4 and main["margin"] == 2 and main["ones"] == 1
    assert roll.outcome == "success"
    assert roll.request["pool"] == 5 and roll.request["stunt"] == 1 and roll.request["difficulty"] == 2
    assert roll.request["shortcut"] == "roll"
    assert roll.spends == []
    assert resources(solar)["willpower_temporary"] == 3  # nothing spent


def test_exalted_botch_is_stored_as_such(solar):
    comp = composition(solar.campaign, character=solar.pk, first=trait(solar, "dexterity"),
                       second=trait(solar, "melee"))
    roll = services.record_roll(solar.campaign, comp, Faces(1, 4, 6, 1, 2))
    assert roll.outcome == "botch"
    assert roll.result["main"]["ones"] == 2 and roll.result["main"]["successes"] == 0


def test_exalted_willpower_is_spent_with_the_roll(solar):
    comp = composition(solar.campaign, character=solar.pk, first=trait(solar, "dexterity"),
                       second=trait(solar, "melee"), difficulty=2, willpower="on")
    roll = services.record_roll(solar.campaign, comp, Faces(7, 2, 3, 4, 5))
    assert resources(solar)["willpower_temporary"] == 2
    assert roll.result["main"]["successes"] == 2  # one die + Willpower's automatic success
    assert roll.outcome == "success"
    assert [s["what"] for s in roll.spends] == ["willpower"]
    assert roll.spends[0]["character"] == solar.pk


def test_exalted_willpower_with_none_left_is_refused_and_nothing_recorded(solar):
    comp = composition(solar.campaign, character=solar.pk, first=trait(solar, "dexterity"),
                       second=trait(solar, "melee"), willpower="on")
    # Spent meanwhile (another tab, another click): the composer offered it, the roll must refuse it.
    ExaltedResources.objects.filter(character=solar).update(willpower_temporary=0)
    before = resources(solar)
    rng = Faces(7, 7, 7, 7, 7)
    with pytest.raises(Refused, match="no temporary Willpower"):
        services.record_roll(solar.campaign, comp, rng)
    assert Roll.objects.count() == 0
    assert resources(solar) == before
    assert rng.asked == []  # refused before any die is drawn


def test_a_roll_that_fails_midway_undoes_its_willpower_spend(solar):
    comp = composition(solar.campaign, character=solar.pk, first=trait(solar, "dexterity"),
                       second=trait(solar, "melee"), willpower="on")
    with pytest.raises(RuntimeError):
        services.record_roll(solar.campaign, comp, Boom())
    assert Roll.objects.count() == 0
    assert resources(solar)["willpower_temporary"] == 3


def test_an_unnamed_npc_cannot_spend_willpower(solar):
    form = ComposerForm(solar.campaign, {**COMMON, "character": "", "dice": 5, "difficulty": 1, "stunt": 0,
                                         "willpower": "on"})
    assert "disabled" in form.fields["willpower"].widget.attrs  # not offered
    assert not form.is_valid()  # and refused when asked for anyway
    assert "no Willpower" in str(form.errors)


def test_exalted_calm_scene_with_seven_dice_is_an_automatic_success(solar, set_ratings):
    set_ratings(solar, dexterity=4, melee=3)
    comp = composition(solar.campaign, character=solar.pk, first=trait(solar, "dexterity"),
                       second=trait(solar, "melee"), difficulty=3, calm="on")
    rng = Faces()
    roll = services.record_roll(solar.campaign, comp, rng)
    assert rng.asked == []
    assert roll.request["shortcut"] == "automatic"
    assert roll.outcome == "success" and roll.result["main"]["faces"] == []
    assert roll.result["main"]["successes"] == 3 and roll.result["main"]["margin"] == 0


def test_exalted_opposed_roll_stores_both_sides_and_the_net(solar):
    comp = composition(solar.campaign, character=solar.pk, first=trait(solar, "dexterity"),
                       second=trait(solar, "melee"), opponent_dice=4, opponent="Wyld hunter")
    # First side 1,3,5,7,8 (2 successes); the opposition 3,6,9,1 (1): the seed's "wins by 1" shape.
    rng = Faces(1, 3, 5, 7, 8, 3, 6, 9, 1)
    roll = services.record_roll(solar.campaign, comp, rng)
    assert rng.spent
    assert roll.result["main"]["faces"] == [1, 3, 5, 7, 8]
    assert roll.result["opponent"]["faces"] == [3, 6, 9, 1]
    assert roll.result["opponent"]["name"] == "Wyld hunter"
    assert roll.result["opponent"]["successes"] == 1
    assert roll.result["opposed"] == {"net": 1, "winner": "first"}


def test_exalted_opposed_roll_lost(solar):
    comp = composition(solar.campaign, character=solar.pk, first=trait(solar, "dexterity"),
                       second=trait(solar, "melee"), opponent_dice=2)
    roll = services.record_roll(solar.campaign, comp, Faces(2, 3, 4, 5, 7, 10, 10))
    assert roll.result["opposed"] == {"net": -3, "winner": "second"}


def test_exalted_teamwork_adds_the_helpers_successes(solar, set_ratings):
    bo = add(solar.campaign, "Bo")
    set_ratings(bo, dexterity=2, melee=1)
    cy = add(solar.campaign, "Cy")  # Dexterity 1, Melee 0: one die
    comp = composition(solar.campaign, character=solar.pk, first=trait(solar, "dexterity"),
                       second=trait(solar, "melee"), difficulty=3, team=[bo.pk, cy.pk, solar.pk])
    # The actor's 5 dice (3 successes), then each helper's own pool in the composer's order (Bo, Cy).
    rng = Faces(7, 7, 7, 1, 1, 10, 2, 3, 8)
    roll = services.record_roll(solar.campaign, comp, rng)
    assert rng.spent
    assert roll.result["main"]["successes"] == 3
    assert [(h["name"], h["faces"], h["successes"]) for h in roll.result["team"]] == [
        ("Bo", [10, 2, 3], 2), ("Cy", [8], 1)
    ]
    assert roll.result["team_total"] == 6
    assert roll.result["helpers"] == ["Bo", "Cy"]  # the actor never helps themself


# --- exalted stunt rewards ------------------------------------------------------------------


def stunted(solar: Character, stunt: int, faces: tuple[int, ...], **data) -> Roll:
    comp = composition(solar.campaign, character=solar.pk, first=trait(solar, "dexterity"),
                       second=trait(solar, "melee"), stunt=stunt, **data)
    return services.record_roll(solar.campaign, comp, Faces(*faces))


def test_stunt_reward_motes_once_per_roll(solar):
    roll = stunted(solar, 2, (7, 1, 1, 1, 1, 1, 1))
    reward = services.follow_up(roll, "reward", choice="motes")
    assert reward.kind == "reward" and reward.parent == roll and reward.outcome == "motes"
    assert reward.result["reward"] == {"motes": 2, "willpower": 0}
    assert resources(solar)["motes"] == 6
    with pytest.raises(Refused):
        services.follow_up(roll, "reward", choice="motes")
    with pytest.raises(Refused):
        services.follow_up(roll, "reward", choice="willpower")  # one reward, whichever it was
    assert resources(solar)["motes"] == 6
    assert resources(solar)["willpower_temporary"] == 3
    assert Roll.objects.filter(kind="reward").count() == 1


def test_stunt_reward_motes_are_capped_at_the_pool(solar):
    ExaltedResources.objects.filter(character=solar).update(motes=9)
    roll = stunted(solar, 3, (7, 1, 1, 1, 1, 1, 1, 1))
    services.follow_up(roll, "reward", choice="motes")
    assert resources(solar)["motes"] == 10


def test_stunt_reward_willpower_for_two_dice_capped_at_permanent(solar):
    roll = stunted(solar, 2, (7, 1, 1, 1, 1, 1, 1))
    services.follow_up(roll, "reward", choice="willpower")
    assert resources(solar)["willpower_temporary"] == 4
    ExaltedResources.objects.filter(character=solar).update(willpower_temporary=5)
    again = stunted(solar, 3, (7, 1, 1, 1, 1, 1, 1, 1))
    # Never past the permanent rating: a reward that would regain nothing is refused, not logged.
    with pytest.raises(Refused, match="already at its permanent rating"):
        services.follow_up(again, "reward", choice="willpower")
    assert resources(solar)["willpower_temporary"] == 5
    assert not Roll.objects.filter(parent=again).exists()
    services.follow_up(again, "reward", choice="motes")  # the motes are still on offer
    assert Roll.objects.filter(parent=again, kind="reward").exists()


def test_stunt_reward_not_on_offer(solar):
    one_die = stunted(solar, 1, (7, 1, 1, 1, 1, 1))
    with pytest.raises(Refused, match="not on offer"):
        services.follow_up(one_die, "reward", choice="willpower")  # Willpower needs a 2- or 3-die stunt
    failed = stunted(solar, 2, (2, 3, 4, 5, 6, 2, 3), difficulty=1)
    unstunted = stunted(solar, 0, (7, 7, 7, 7, 7))
    for roll in (failed, unstunted):
        with pytest.raises(Refused):
            services.follow_up(roll, "reward", choice="motes")
    assert Roll.objects.filter(kind="reward").count() == 0
    assert resources(solar)["motes"] == 4


def test_stunt_reward_only_for_exalted_rolls(make_character):
    vampire = make_character(Game.V5)
    roll = services.record_roll(vampire.campaign, composition(vampire.campaign, character=vampire.pk, dice=1),
                                Faces(6))
    with pytest.raises(Refused):
        services.follow_up(roll, "reward", choice="motes")


# --- v5 --------------------------------------------------------------------------------------


@pytest.fixture
def vampire(make_character, set_ratings) -> Character:
    character = make_character(Game.V5, name="Lucía", v5_hunger=2)
    set_ratings(character, strength=3, brawl=2, composure=2, resolve=2)  # 4 Willpower boxes
    return character


def v5_roll(vampire: Character, faces: tuple[int, ...], **data) -> Roll:
    comp = composition(vampire.campaign, character=vampire.pk, first=trait(vampire, "strength"),
                       second=trait(vampire, "brawl"), **data)
    rng = Faces(*faces)
    roll = services.record_roll(vampire.campaign, comp, rng)
    assert rng.spent
    return roll


def test_v5_roll_takes_hunger_from_the_sheet_and_keeps_normal_and_hunger_faces(vampire):
    # 5 dice, Hunger 2: 3 normal dice drawn first, then 2 hunger dice.
    roll = v5_roll(vampire, (10, 6, 2, 10, 1), difficulty=3)
    main = roll.result["main"]
    assert main["faces"] == [10, 6, 2] and main["hunger_faces"] == [10, 1]
    assert main["successes"] == 5  # 3 + a pair of 10s
    assert roll.outcome == "win" and main["critical"] and main["messy"]
    assert roll.request["hunger"] == 2 and roll.request["pool"] == 5


def test_v5_bestial_failure(vampire):
    roll = v5_roll(vampire, (2, 3, 4, 1, 5), difficulty=2)
    assert roll.outcome == "failure" and roll.result["main"]["bestial"]


def test_v5_opposed_roll(vampire):
    roll = v5_roll(vampire, (6, 7, 2, 3, 4, 6, 1, 1), opponent_dice=3, opponent="Sheriff")
    assert roll.result["opponent"]["faces"] == [6, 1, 1]
    assert roll.result["opposed"] == {"net": 1, "winner": "first"}


def test_v5_teamwork_actor_without_the_skill_adds_no_die(vampire, set_ratings):
    set_ratings(vampire, brawl=0)  # Strength 3 + Brawl 0 = 3
    helper = add(vampire.campaign, "Helper")
    set_ratings(helper, strength=3, brawl=3)  # 6 dice, rolls
    comp = composition(vampire.campaign, character=vampire.pk, first=trait(vampire, "strength"),
                       second=trait(vampire, "brawl"), team=[helper.pk])
    assert comp.request.pool == 6  # the largest pool; the actor has no dot in Brawl


def test_v5_teamwork_rolls_the_largest_pool_plus_one_per_able_helper(vampire, set_ratings):
    helper = add(vampire.campaign, "Able")
    set_ratings(helper, strength=2, brawl=1)
    idle = add(vampire.campaign, "Idle")  # no dot in Brawl: adds nothing
    comp = composition(vampire.campaign, character=vampire.pk, first=trait(vampire, "strength"),
                       second=trait(vampire, "brawl"), team=[helper.pk, idle.pk])
    assert comp.request.pool == 6
    assert comp.team_names == ("Able", "Idle")


def test_v5_rouse_check_failure_raises_hunger(vampire):
    roll = services.check(vampire, "rouse", Faces(5))
    assert resources(vampire)["hunger"] == 3
    assert roll.kind == "rouse" and roll.outcome == "fail"
    assert roll.result["main"]["faces"] == [5]
    assert roll.spends == [{"what": "hunger", "amount": 1}]


def test_v5_rouse_check_pass_keeps_hunger(vampire):
    roll = services.check(vampire, "rouse", Faces(6))
    assert resources(vampire)["hunger"] == 2
    assert roll.outcome == "pass" and roll.spends == [{"what": "hunger", "amount": 0}]


def test_v5_rouse_check_never_raises_hunger_past_5(vampire):
    V5Resources.objects.filter(character=vampire).update(hunger=5)
    roll = services.check(vampire, "rouse", Faces(1))
    assert resources(vampire)["hunger"] == 5
    assert roll.outcome == "fail" and roll.result["main"]["hunger_after"] == 5


def test_rouse_is_for_vampires_only(solar):
    with pytest.raises(Refused):
        services.check(solar, "rouse", Faces(1))
    assert Roll.objects.count() == 0


def test_v5_willpower_reroll_spends_one_superficial_and_rerolls_normal_dice(vampire):
    parent = v5_roll(vampire, (1, 2, 3, 4, 5), difficulty=2)
    rng = Faces(10, 9)
    child = services.follow_up(parent, "reroll", rng, dice=[0, 2])
    assert rng.spent
    assert child.kind == "reroll" and child.parent == parent
    main = child.result["main"]
    assert main["faces"] == [10, 2, 9] and main["hunger_faces"] == [4, 5]  # hunger dice untouched
    assert main["rerolled"] == [0, 2] and main["rerolled_from"] == [1, 3]
    assert child.outcome == "win"
    assert resources(vampire)["willpower_superficial"] == 1
    assert child.spends == [{"what": "v5_willpower", "character": vampire.pk}]


@pytest.mark.parametrize("indices", [[0, 1, 2, 0], [0, 1, 2, 1], [3], [0, 0], []])
def test_v5_willpower_reroll_bad_dice_are_refused_and_nothing_spent(vampire, indices):
    # 3 normal dice (indices 0-2); index 3 would be a hunger die.
    parent = v5_roll(vampire, (1, 2, 3, 4, 5))
    before = resources(vampire)
    with pytest.raises(Refused):
        services.follow_up(parent, "reroll", Faces(10, 10, 10, 10), dice=indices)
    assert resources(vampire) == before
    assert Roll.objects.count() == 1


def test_v5_willpower_reroll_at_most_once_per_roll(vampire):
    parent = v5_roll(vampire, (1, 2, 3, 4, 5))
    services.follow_up(parent, "reroll", Faces(7), dice=[0])
    with pytest.raises(Refused, match="already"):
        services.follow_up(parent, "reroll", Faces(7), dice=[1])
    assert resources(vampire)["willpower_superficial"] == 1  # the second spend was undone
    assert Roll.objects.count() == 2


def test_v5_willpower_reroll_with_no_willpower_left_is_refused(vampire):
    V5Resources.objects.filter(character=vampire).update(willpower_superficial=3, willpower_aggravated=1)
    parent = v5_roll(vampire, (1, 2, 3, 4, 5))
    with pytest.raises(Refused, match="no Willpower"):
        services.follow_up(parent, "reroll", Faces(7), dice=[0])
    assert resources(vampire)["willpower_superficial"] == 3
    assert Roll.objects.count() == 1


@pytest.mark.parametrize("shortcut", ["take_half", "automatic"])
def test_v5_willpower_reroll_refused_when_nothing_was_rolled(vampire, shortcut):
    parent = v5_roll(vampire, (), shortcut=shortcut)
    assert parent.result["main"]["faces"] == []
    with pytest.raises(Refused):
        services.follow_up(parent, "reroll", Faces(7), dice=[0])
    assert resources(vampire)["willpower_superficial"] == 0
    assert Roll.objects.count() == 1


def test_v5_willpower_reroll_refused_on_a_tracker_roll(vampire):
    # The composer has no tracker rolls yet; a logged Willpower roll (tracker=True) must still refuse.
    parent = Roll.objects.create(
        campaign=vampire.campaign, character=vampire, actor=vampire.name, system=Game.V5, kind="roll",
        label="Willpower", outcome="failure", secret=False, spends=[],
        request={"pool": 4, "hunger": 2, "difficulty": 3, "specialty": False, "tracker": True, "modifiers": [],
                 "shortcut": "roll"},
        result={"main": {"faces": [1, 2, 3, 4], "hunger_faces": [], "automatic": None}},
    )
    with pytest.raises(Refused, match="tracker"):
        services.follow_up(parent, "reroll", Faces(7), dice=[0])
    assert resources(vampire)["willpower_superficial"] == 0
    assert Roll.objects.count() == 1


def test_v5_willpower_reroll_refused_on_a_rouse_check(vampire):
    check = services.check(vampire, "rouse", Faces(3))
    with pytest.raises(Refused):
        services.follow_up(check, "reroll", Faces(7), dice=[0])
    assert resources(vampire)["willpower_superficial"] == 0


def test_v5_take_half_and_automatic_win(vampire):
    half = v5_roll(vampire, (), shortcut="take_half", difficulty=2)
    assert half.result["main"]["successes"] == 2 and half.outcome == "win"
    # 5 dice are not twice difficulty 3: the composer refuses it (the odds say why, Roll is off).
    form = ComposerForm(vampire.campaign, {**COMMON, **DEFAULTS[Game.V5], "character": vampire.pk,
                                           "first": trait(vampire, "strength"), "second": trait(vampire, "brawl"),
                                           "shortcut": "automatic", "difficulty": 3})
    assert not form.is_valid() and "needs at least 6 dice" in str(form.errors)
    assert Roll.objects.count() == 1


# --- fate ------------------------------------------------------------------------------------


@pytest.fixture
def hero(make_character, set_ratings) -> Character:
    character = make_character(Game.FATE, name="Zara", fate_points=2)
    set_ratings(character, forceful=2)
    Aspect.objects.create(character=character, kind="high_concept", text="Free-spirited pilot", free_invocations=1)
    Aspect.objects.create(character=character, kind="trouble", text="Owes the mob")
    return character


def aspects(character: Character) -> tuple[Aspect, Aspect]:
    return tuple(Aspect.objects.filter(character=character).order_by("id"))


def fate_roll(hero: Character, faces: tuple[int, ...], **data) -> Roll:
    comp = composition(hero.campaign, character=hero.pk, first=trait(hero, "forceful"), **data)
    rng = Faces(*faces)
    roll = services.record_roll(hero.campaign, comp, rng)
    assert rng.spent
    return roll


def test_fate_roll_stores_faces_total_shifts_and_effect(hero):
    roll = fate_roll(hero, (-1, 0, 1, 1), difficulty=2, action="attack")
    main = roll.result["main"]
    assert main["faces"] == [-1, 0, 1, 1] and main["total"] == 3 and main["shifts"] == 1
    assert roll.outcome == "success" and roll.label == "Forceful"
    assert roll.result["effect"]["code"] == "attack_success"  # the action's table, with the hit's stress
    assert roll.result["effect"]["hit"] is True and roll.result["effect"]["stress"] == 1


def test_fate_invocation_uses_a_free_invocation_first(hero):
    free, paid = aspects(hero)
    roll = fate_roll(hero, (0, 0, 0, 0), difficulty=3, invoke=[free.pk])
    assert roll.result["main"]["total"] == 4  # Forceful 2 + invoked +2
    assert [s["what"] for s in roll.spends] == ["free_invocation"]
    assert Aspect.objects.get(pk=free.pk).free_invocations == 0
    assert resources(hero)["points"] == 2


def test_fate_invocation_without_a_free_one_costs_a_fate_point(hero):
    free, paid = aspects(hero)
    roll = fate_roll(hero, (0, 0, 0, 0), invoke=[paid.pk, free.pk])
    assert sorted(s["what"] for s in roll.spends) == ["fate_point", "free_invocation"]
    assert roll.result["main"]["total"] == 6
    assert resources(hero)["points"] == 1
    assert Aspect.objects.get(pk=free.pk).free_invocations == 0


def test_fate_invocation_with_nothing_to_pay_is_refused_and_nothing_changes(hero):
    free, paid = aspects(hero)
    comp = composition(hero.campaign, character=hero.pk, first=trait(hero, "forceful"), invoke=[free.pk, paid.pk])
    # The last fate point went meanwhile (another click): the composer offered it, the roll refuses it.
    FateResources.objects.filter(character=hero).update(points=0)
    with pytest.raises(Refused, match="no fate points"):
        services.record_roll(hero.campaign, comp, Faces(0, 0, 0, 0))
    assert Roll.objects.count() == 0
    assert Aspect.objects.get(pk=free.pk).free_invocations == 1  # the free invocation paid first is undone
    assert resources(hero)["points"] == 0


def test_fate_invoke_after_the_roll_bonus_uses_free_then_fate_point(hero):
    free, paid = aspects(hero)
    parent = fate_roll(hero, (-1, -1, 0, 0), difficulty=2)  # total 0: fail by 2
    first = services.follow_up(parent, "invoke", Faces(), aspect=free, mode="bonus")
    assert first.kind == "invoke" and first.parent == parent
    assert first.result["main"]["faces"] == [-1, -1, 0, 0] and first.result["main"]["total"] == 2
    assert first.outcome == "tie"
    assert first.result["invoke"] == {"mode": "bonus", "aspect": free.text, "paid": "free_invocation"}
    assert Aspect.objects.get(pk=free.pk).free_invocations == 0 and resources(hero)["points"] == 2
    # The same aspect again would now cost a fate point: refused. Seed 004 allows one aspect twice on a
    # roll only as a success with style's two free invocations (rules.fate.may_invoke); the looser
    # Fate Core stacking (a free invocation plus a paid one) is not the seed's rule.
    with pytest.raises(Refused, match="already invoked on this roll"):
        services.follow_up(first, "invoke", Faces(), aspect=Aspect.objects.get(pk=free.pk), mode="bonus")
    assert resources(hero)["points"] == 2
    # Invoking again follows the last entry; another aspect, with no free invocation, costs a fate point.
    second = services.follow_up(first, "invoke", Faces(), aspect=paid, mode="bonus")
    assert second.result["main"]["total"] == 4 and second.outcome == "success"
    assert second.result["invoke"]["paid"] == "fate_point"
    assert resources(hero)["points"] == 1


def test_fate_invoke_reroll_rolls_all_four_dice(hero):
    parent = fate_roll(hero, (-1, -1, -1, -1), difficulty=1)
    rng = Faces(1, 1, 0, 1)
    child = services.follow_up(parent, "invoke", rng, aspect=named_aspect(parent), mode="reroll")
    assert rng.spent
    assert child.result["main"]["faces"] == [1, 1, 0, 1] and child.result["main"]["total"] == 5
    assert child.outcome == "style"
    assert resources(hero)["points"] == 1


def test_fate_invoke_with_nothing_to_pay_is_refused(hero):
    FateResources.objects.filter(character=hero).update(points=0)
    free, paid = aspects(hero)
    parent = fate_roll(hero, (0, 0, 0, 0))
    with pytest.raises(Refused, match="no fate points"):
        services.follow_up(parent, "invoke", Faces(), aspect=paid, mode="bonus")
    with pytest.raises(Refused):
        services.follow_up(parent, "invoke", Faces(), aspect=free, mode="sideways")
    assert Roll.objects.count() == 1
    assert Aspect.objects.get(pk=free.pk).free_invocations == 1


def test_fate_invoke_once_per_entry(hero):
    free, paid = aspects(hero)
    parent = fate_roll(hero, (0, 0, 0, 0))
    services.follow_up(parent, "invoke", Faces(), aspect=paid, mode="bonus")
    with pytest.raises(Refused, match="already"):
        services.follow_up(parent, "invoke", Faces(), aspect=free, mode="bonus")
    assert Aspect.objects.get(pk=free.pk).free_invocations == 1  # its spend was undone
    assert resources(hero)["points"] == 1


def test_fate_invoke_refused_on_other_games(vampire):
    parent = v5_roll(vampire, (6, 6, 6, 6, 6))
    with pytest.raises(Refused):
        services.follow_up(parent, "invoke", Faces(), aspect=None, mode="bonus")


def test_fate_deck_draw_removes_the_card(hero):
    FateState.objects.filter(campaign_id=hero.campaign_id).update(uses_deck=True, deck=[80, 0, 40])
    hero.campaign.refresh_from_db()
    roll = fate_roll(hero, (), difficulty=2)  # no die asked for
    assert roll.result["card"] == 80 and roll.result["reshuffled"] is False
    assert roll.result["main"]["faces"] == list(fate.CARDS[80]) == [1, 1, 1, 1]
    assert roll.result["main"]["total"] == 6
    assert Campaign.objects.get(pk=hero.campaign_id).state.deck == [0, 40]
    second = fate_roll(hero, ())
    assert second.result["main"]["faces"] == [-1, -1, -1, -1]
    assert Campaign.objects.get(pk=hero.campaign_id).state.deck == [40]


def test_an_empty_fate_deck_is_reshuffled(hero):
    FateState.objects.filter(campaign_id=hero.campaign_id).update(uses_deck=True, deck=[])
    hero.campaign.refresh_from_db()
    comp = composition(hero.campaign, character=hero.pk, first=trait(hero, "forceful"))
    roll = services.record_roll(hero.campaign, comp, random.Random(4))
    deck = Campaign.objects.get(pk=hero.campaign_id).state.deck
    assert roll.result["reshuffled"] is True
    assert len(deck) == 80 and len(set(deck)) == 80 and roll.result["card"] not in deck
    assert roll.result["main"]["faces"] == list(fate.CARDS[roll.result["card"]])
    assert sorted(deck) != deck  # shuffled, not dealt in order


def test_fate_invoke_reroll_draws_from_the_deck(hero):
    FateState.objects.filter(campaign_id=hero.campaign_id).update(uses_deck=True, deck=[80, 0, 40])
    hero.campaign.refresh_from_db()
    parent = fate_roll(hero, ())
    child = services.follow_up(parent, "invoke", Faces(1, 1, 1, 1), aspect=named_aspect(parent), mode="reroll")
    assert child.result["main"]["faces"] == list(fate.CARDS[0]) == [-1, -1, -1, -1]
    assert Campaign.objects.get(pk=hero.campaign_id).state.deck == [40]


def test_fate_opposed_roll_nets_the_totals(hero):
    # Forceful +2 with 0,0,1,1 (total 4) against an opposition of +1 rolling -1,0,0,0 (total 0).
    roll = fate_roll(hero, (0, 0, 1, 1, -1, 0, 0, 0), opponent_dice=1, opponent="Goon", action="defend")
    assert roll.result["opponent"]["total"] == 0
    assert roll.result["opposed"] == {"net": 4, "winner": "first"}
    # The defence reads the table with the net shifts: +4 is success with style.
    assert roll.result["effect"]["code"] == "defend_style"


def test_fate_opposition_may_be_poor_or_terrible_but_not_below_the_ladder(hero):
    # Forceful +2 rolling 0,0,0,0 against Poor (-1) rolling 0,0,0,0: +3 shifts.
    roll = fate_roll(hero, (0, 0, 0, 0, 0, 0, 0, 0), opponent_dice=-1, opponent="Rat")
    assert roll.result["opponent"]["total"] == -1 and roll.result["opposed"] == {"net": 3, "winner": "first"}
    form = ComposerForm(hero.campaign, {**COMMON, **DEFAULTS[hero.campaign.game], "character": hero.pk, "opponent_dice": -3})
    assert not form.is_valid() and "opponent_dice" in form.errors


def test_fate_defence_against_an_opponent_reads_the_net_shifts(hero):
    # Zara defends with Forceful +2 and rolls -1,-1,0,0 (total 0); the attacker, +2, rolls 0,0,0,0 (total 2).
    roll = fate_roll(hero, (-1, -1, 0, 0, 0, 0, 0, 0), opponent_dice=2, opponent="Thug", action="defend")
    assert roll.result["opposed"] == {"net": -2, "winner": "second"}
    assert roll.result["effect"]["code"] == "defend_fail"  # not a tie against the ladder's Mediocre


def test_fate_invoke_on_an_opposed_roll_re_nets_against_the_opponent(hero):
    free, _ = aspects(hero)
    parent = fate_roll(hero, (-1, -1, 0, 0, 0, 0, 0, 0), opponent_dice=2, opponent="Thug", action="defend")
    child = services.follow_up(parent, "invoke", Faces(), aspect=free, mode="bonus")
    assert child.result["main"]["total"] == 2
    assert child.result["effect"]["code"] == "defend_tie"  # 2 against the attacker's 2, not "defend_success"
    assert child.result["opposed"] == {"net": 0, "winner": "tie"}


# --- scifi -----------------------------------------------------------------------------------


@pytest.fixture
def pilot(make_character, set_ratings) -> Character:
    character = make_character(Game.SCIFI, name="Rook")
    set_ratings(character, agility=3, firearms=2)
    return character


def scifi_roll(pilot: Character, faces: tuple[int, ...], **data) -> Roll:
    comp = composition(pilot.campaign, character=pilot.pk, first=trait(pilot, "agility"),
                       second=trait(pilot, "firearms"), **data)
    rng = Faces(*faces)
    roll = services.record_roll(pilot.campaign, comp, rng)
    assert rng.spent
    return roll


def test_scifi_roll_keeps_pool_faces_and_explosions_in_order(pilot):
    roll = scifi_roll(pilot, (1, 10, 7, 3, 2, 10, 8), difficulty="hard")
    main = roll.result["main"]
    assert main["faces"] == [1, 10, 7, 3, 2] and main["explosions"] == [10, 8]
    assert main["successes"] == 4 and roll.outcome == "success" and main["degree"] == "absolute"


def test_scifi_fumble_on_the_first_die(pilot):
    roll = scifi_roll(pilot, (1, 7, 2, 3, 4), difficulty="very-hard")
    assert roll.outcome == "fumble"
    roll = scifi_roll(pilot, (2, 7, 1, 3, 4), difficulty="very-hard")
    assert roll.outcome == "failure"


def test_scifi_opposed_roll_stores_the_victory(pilot):
    roll = scifi_roll(pilot, (4, 9, 2, 2, 7, 1, 5, 8), opponent_dice=3)
    assert roll.result["opponent"]["faces"] == [1, 5, 8]
    assert roll.result["opposed"] == {"net": 1, "winner": "first", "victory": "narrowly"}


def test_scifi_easy_is_automatic_without_dice(pilot):
    roll = scifi_roll(pilot, (), difficulty="easy")
    assert roll.outcome == "success" and roll.result["main"]["faces"] == []


# --- one-click adjustments -------------------------------------------------------------------


ADJUST_CASES = [
    # game, start, action, expected change (None: refused, nothing changed)
    (Game.EXALTED, {"exalted_willpower_temporary": 3}, "willpower-spend", {"willpower_temporary": 2}),
    (Game.EXALTED, {"exalted_willpower_temporary": 0}, "willpower-spend", None),
    (Game.EXALTED, {"exalted_willpower_temporary": 3}, "willpower-regain", {"willpower_temporary": 4}),
    (Game.EXALTED, {"exalted_willpower_temporary": 5}, "willpower-regain", None),
    (Game.EXALTED, {"exalted_motes_max": 10, "exalted_motes": 4}, "motes-spend", {"motes": 3}),
    (Game.EXALTED, {"exalted_motes_max": 10, "exalted_motes": 0}, "motes-spend", None),
    (Game.EXALTED, {"exalted_motes_max": 10, "exalted_motes": 4}, "motes-regain", {"motes": 5}),
    (Game.EXALTED, {"exalted_motes_max": 10, "exalted_motes": 10}, "motes-regain", None),
    (Game.V5, {"v5_hunger": 2}, "hunger-up", {"hunger": 3}),
    (Game.V5, {"v5_hunger": 5}, "hunger-up", None),
    (Game.V5, {"v5_hunger": 2}, "hunger-down", {"hunger": 1}),
    (Game.V5, {"v5_hunger": 0}, "hunger-down", None),
    (Game.V5, {}, "health-superficial-damage", {"health_superficial": 1}),
    (Game.V5, {}, "health-aggravated-damage", {"health_aggravated": 1}),
    (Game.V5, {"v5_health_superficial": 2}, "health-superficial-heal", {"health_superficial": 1}),
    (Game.V5, {}, "health-superficial-heal", None),
    (Game.V5, {"v5_health_aggravated": 1}, "health-aggravated-heal", {"health_aggravated": 0}),
    (Game.V5, {}, "health-aggravated-heal", None),
    # Health 4 boxes (Stamina 1 + 3): a full track turns superficial into aggravated.
    (Game.V5, {"v5_health_superficial": 4}, "health-superficial-damage",
     {"health_superficial": 3, "health_aggravated": 1}),
    (Game.V5, {"v5_health_aggravated": 4}, "health-aggravated-damage", None),
    (Game.V5, {}, "willpower-superficial-damage", {"willpower_superficial": 1}),
    (Game.V5, {"v5_willpower_aggravated": 2}, "willpower-aggravated-damage", None),  # 2 boxes
    (Game.V5, {"v5_willpower_superficial": 1}, "willpower-superficial-heal", {"willpower_superficial": 0}),
    (Game.V5, {}, "willpower-aggravated-heal", None),
    (Game.FATE, {"fate_points": 2}, "fate-point-spend", {"points": 1}),
    (Game.FATE, {"fate_points": 0}, "fate-point-spend", None),
    (Game.FATE, {"fate_points": 2}, "fate-point-gain", {"points": 3}),
    (Game.FATE, {"fate_points": 99}, "fate-point-gain", None),
    (Game.FATE, {"fate_points": 1, "fate_refresh": 3}, "refresh", {"points": 3}),
    (Game.FATE, {"fate_points": 5, "fate_refresh": 3}, "refresh", {}),  # refresh never takes points away
    (Game.FATE, {}, "stress-1", {"stress_1": True}),
    (Game.FATE, {"fate_stress_3": True}, "stress-3", {"stress_3": False}),
    (Game.SCIFI, {}, "willpower-spend", None),
    (Game.EXALTED, {}, "hunger-up", None),  # another game's action
    (Game.FATE, {}, "", None),
    (Game.V5, {}, "drop-tables", None),
]


@pytest.mark.parametrize(("game", "start", "action", "change"), ADJUST_CASES,
                         ids=[f"{g}-{a or 'empty'}-{i}" for i, (g, _, a, _) in enumerate(ADJUST_CASES)])
def test_adjust(make_character, game, start, action, change):
    character = make_character(game, **start)
    before = resources(character)
    if change is None:
        with pytest.raises(Refused):
            services.adjust(character, action)
        assert resources(character) == before
    else:
        returned = services.adjust(character, action)
        assert resources(character) == {**before, **change}
        assert {name: getattr(returned.resources, name) for name in before} == {**before, **change}
    assert Roll.objects.count() == 0


# --- the log is immutable --------------------------------------------------------------------


def test_a_logged_roll_cannot_be_saved_again(solar):
    roll = stunted(solar, 0, (7, 7, 1, 1, 1))
    roll.outcome = "botch"
    roll.label = "rewritten"
    with pytest.raises(ValidationError):
        roll.save()
    with pytest.raises(ValidationError):
        Roll.objects.get(pk=roll.pk).save(update_fields=["label"])
    stored = Roll.objects.get(pk=roll.pk)
    assert stored.outcome == "success" and stored.label == "Dexterity + Melee"


def test_fate_aspects_that_cannot_be_paid_for_are_not_offered(hero):
    free, paid = aspects(hero)
    FateResources.objects.filter(character=hero).update(points=0)
    form = ComposerForm(hero.campaign, initial={"character": hero.pk})
    offered = set(form.fields["invoke"].queryset)
    assert free in offered and paid not in offered  # only aspects with a free invocation are on offer
    assert offered == set(Aspect.objects.filter(character=hero, free_invocations__gte=1))
    FateResources.objects.filter(character=hero).update(points=1)
    data = {**COMMON, **DEFAULTS[Game.FATE], "character": hero.pk, "first": trait(hero, "forceful")}
    two_paid = Aspect.objects.create(character=hero, text="Another paid aspect")
    form = ComposerForm(hero.campaign, {**data, "invoke": [paid.pk, two_paid.pk]})
    assert not form.is_valid() and "has 1 fate point" in str(form.errors)  # the odds say so; Roll is disabled
    assert ComposerForm(hero.campaign, {**data, "invoke": [paid.pk, free.pk]}).is_valid()


def test_exalted_willpower_is_not_offered_once_spent_this_turn(solar):
    from gmtools.models import Scene
    scene = services.start_scene(solar.campaign)
    comp = composition(solar.campaign, character=solar.pk, first=trait(solar, "dexterity"),
                       second=trait(solar, "melee"), willpower="on")
    services.record_roll(solar.campaign, comp.__class__(**{**comp.__dict__, "scene": scene}), Faces(7, 7, 7, 7, 7))
    form = ComposerForm(solar.campaign, initial={"character": solar.pk}, scene=Scene.objects.current(solar.campaign))
    assert "disabled" in form.fields["willpower"].widget.attrs
