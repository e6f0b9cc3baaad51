import random
from collections import Counter
from itertools import product
from math import prod

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import RulesError
from rules.extended import BotchPolicy
from rules.v5 import (
    Difficulty,
    Request,
    Result,
    Tracker,
    automatic_win,
    contest,
    extended,
    health_boxes,
    impossible,
    luck,
    odds,
    opposition_from_pool,
    opposition_from_skill,
    reroll,
    resolve,
    roll,
    roll_reroll,
    roll_rouse,
    rouse,
    rouse_luck,
    spend_willpower,
    take_half,
    teamwork_pool,
    tracker_request,
    willpower_boxes,
)
from tests.rules.stats import assert_fits, assert_luck_exact

TOL = 1e-9


def codes(result) -> list[str]:
    return [n.code for n in result.notes]


# --- Seed examples and facts ---------------------------------------------------------------


def test_seed_six_dice_three_successes_vs_simple_difficulty_wins_with_margin_one():
    # Resolve 3 + Investigation 3 = six dice against difficulty 2 (Simple), three successes.
    request = Request(pool=3 + 3, difficulty=Difficulty.SIMPLE)
    result = resolve(request, (2, 6, 4, 9, 1, 7))
    assert (result.successes, result.outcome, result.margin) == (3, "win", 1)


def test_seed_intelligence_three_plus_occult_two_is_a_five_dice_pool():
    assert Request(pool=3 + 2).dice == 5


def test_seed_ten_dice_pool_scores_a_critical_just_over_a_quarter_of_the_time():
    p = odds(Request(pool=10)).p_critical
    assert abs(p - (1 - 0.9**10 - 10 * 0.1 * 0.9**9)) < 1e-12
    assert 0.25 < p < 0.27


def test_seed_willpower_seven_with_three_spent_rolls_four_dice():
    willpower = Tracker(willpower_boxes(composure=3, resolve=4))
    for _ in range(3):
        willpower = spend_willpower(willpower)
    assert tracker_request(willpower).dice == 4


def test_seed_two_tens_make_four_successes():
    assert resolve(Request(2), (10, 10)).successes == 4


def test_seed_three_tens_make_five_successes():
    assert resolve(Request(3), (10, 10, 10)).successes == 5


def test_seed_four_tens_make_eight_successes():
    assert resolve(Request(4), (10, 10, 10, 10)).successes == 8


def test_seed_margin_is_successes_over_difficulty():
    # Difficulty 4 and seven successes: margin three.
    result = resolve(Request(7, difficulty=4), (6, 6, 7, 7, 8, 8, 9))
    assert (result.successes, result.margin) == (7, 3)


def test_seed_difficulty_table():
    assert [(d.key, int(d)) for d in Difficulty] == [
        ("routine", 1), ("simple", 2), ("moderate", 3), ("challenging", 4),
        ("hard", 5), ("very_hard", 6), ("nearly_impossible", 7),
    ]
    assert Difficulty.of(9) is Difficulty.NEARLY_IMPOSSIBLE
    assert Difficulty.VERY_HARD.label == "Very hard"


def test_seed_specialty_adds_one_die():
    assert Request(pool=4, specialty=True).dice == 5
    assert "specialty" in codes(resolve(Request(1, specialty=True), (3, 3)))


def test_seed_penalties_never_take_a_pool_below_one_die():
    request = Request(pool=2, modifiers=(-3,))
    assert request.dice == 1
    assert "pool_minimum" in codes(resolve(request, (6,)))


def test_seed_ad_hoc_modifiers_beyond_three_dice_warn_but_apply():
    request = Request(pool=3, modifiers=(2, 2))
    assert request.dice == 7
    assert "modifiers_beyond_guideline" in codes(resolve(request, (1,) * 7))
    assert "modifiers_beyond_guideline" not in codes(resolve(Request(pool=3, modifiers=(3,)), (1,) * 6))


def test_seed_specialty_does_not_count_toward_the_modifier_guideline():
    assert "modifiers_beyond_guideline" not in codes(resolve(Request(3, specialty=True, modifiers=(3,)), (1,) * 7))


def test_seed_hunger_replaces_normal_dice():
    request = Request(pool=5, hunger=2)
    assert (request.normal_dice, request.hunger_dice) == (3, 2)
    assert (Request(pool=2, hunger=4).normal_dice, Request(pool=2, hunger=4).hunger_dice) == (0, 2)


def test_seed_health_is_stamina_plus_three_and_willpower_composure_plus_resolve():
    assert health_boxes(3) == 6
    assert willpower_boxes(2, 4) == 6


def test_seed_an_empty_tracker_still_rolls_one_die():
    assert Tracker(5, superficial=3, aggravated=2).roll_pool == 1


def test_seed_automatic_win_needs_twice_the_difficulty_and_has_margin_zero():
    result = automatic_win(Request(pool=6, difficulty=3))
    assert (result.outcome, result.margin, result.faces, result.critical) == ("win", 0, (), False)
    with pytest.raises(RulesError, match="twice"):
        automatic_win(Request(pool=5, difficulty=3))


def test_seed_win_at_cost_when_some_successes_fall_short():
    result = resolve(Request(4, difficulty=3), (6, 2, 3, 8))
    assert result.outcome == "failure" and result.win_at_cost
    assert "win_at_cost" in codes(result)
    assert not resolve(Request(4, difficulty=3), (1, 2, 3, 4)).win_at_cost


def test_seed_total_failure_is_zero_successes():
    result = resolve(Request(3), (1, 2, 5))
    assert (result.total_failure, result.outcome) == (True, "failure")


def test_seed_teamwork_adds_a_die_per_skilled_helper():
    assert teamwork_pool([5, 4, 3], skills=[2, 1, 0]) == 6
    assert teamwork_pool([5, 4, 3]) == 7  # no skill involved: everyone helps


def test_teamwork_prefers_an_unskilled_roller_among_equal_pools():
    assert teamwork_pool([5, 5], skills=[2, 0]) == 6


def test_seed_static_opposition_from_an_npc_pool_or_skill():
    assert opposition_from_pool(7) == 3
    assert opposition_from_skill(3) == 3
    assert opposition_from_skill(0) == 1


def test_seed_willpower_spend_is_one_superficial_damage():
    assert spend_willpower(Tracker(5)) == Tracker(5, superficial=1)


def test_seed_rouse_check_passes_on_six():
    result = rouse(6, hunger=2)
    assert (result.outcome, result.hunger_after) == ("pass", 2)


def test_seed_failed_rouse_check_raises_hunger():
    result = rouse(5, hunger=2)
    assert (result.outcome, result.hunger_before, result.hunger_after) == ("fail", 2, 3)
    assert result.as_json()["faces"] == [5]


def test_rouse_check_at_hunger_five_stays_at_five_and_says_so():
    result = rouse(1, hunger=5)
    assert result.hunger_after == 5
    assert "hunger_at_maximum" in codes(result)
    assert "hunger_at_maximum" not in codes(rouse(1, hunger=4))


def test_a_passed_rouse_check_at_hunger_five_calls_for_no_frenzy_test_but_warns_of_the_risk():
    passed = rouse(6, hunger=5)
    assert (passed.outcome, passed.hunger_after) == ("pass", 5)
    assert "hunger_at_maximum" not in codes(passed)
    assert "hunger_frenzy_risk" in codes(passed)
    assert "hunger_frenzy_risk" not in codes(rouse(6, hunger=4))
    assert "hunger_frenzy_risk" not in codes(rouse(1, hunger=5))  # that one calls for the test itself


def test_rouse_json_keys():
    assert set(rouse(7, 1).as_json()) >= {"system", "faces", "outcome", "hunger_before", "hunger_after"}


def test_rouse_json_carries_every_roll_answers_keys():
    # A check is one die at difficulty 1: a pass is 1 success, margin 0; a failure 0, margin -1.
    passed, failed = rouse(8, 2).as_json(), rouse(3, 2).as_json()
    assert (passed["successes"], passed["margin"], passed["hunger_faces"]) == (1, 0, [])
    assert (failed["successes"], failed["margin"]) == (0, -1)


def test_seed_willpower_cannot_reroll_checks():
    with pytest.raises(RulesError, match="check"):
        reroll(Request(1), rouse(3, 1), [0], [8])


def test_seed_willpower_cannot_reroll_tracker_rolls():
    request = tracker_request(Tracker(4))
    with pytest.raises(RulesError, match="tracker"):
        reroll(request, resolve(request, (1, 2, 3, 4)), [0], [8])


def test_seed_willpower_rerolls_up_to_three_normal_dice():
    request = Request(5, hunger=1, difficulty=3)
    first = resolve(request, (1, 2, 3, 6), (4,))
    result = reroll(request, first, [0, 2, 1], [10, 10, 7])
    assert result.faces == (10, 7, 10, 6)
    assert result.hunger_faces == (4,)
    assert (result.rerolled, result.rerolled_from) == ((0, 2, 1), (1, 3, 2))
    assert (result.successes, result.critical) == (6, True)
    with pytest.raises(RulesError, match="1 to 3"):
        reroll(request, first, [0, 1, 2, 3], [6, 6, 6, 6])


def test_willpower_cannot_reach_hunger_dice():
    request = Request(3, hunger=1)
    first = resolve(request, (1, 2), (1,))
    # Die 2 (counted on past the normal dice, as they are listed) is the Hunger die: said so.
    with pytest.raises(RulesError, match="Hunger dice cannot be rerolled: die 2 is a Hunger die"):
        reroll(request, first, [2], [9])
    with pytest.raises(RulesError, match="reroll index must be at most 1"):  # past every die
        reroll(request, first, [3], [9])
    all_hunger = Request(2, hunger=2)
    with pytest.raises(RulesError, match="hunger"):
        reroll(all_hunger, resolve(all_hunger, (), (1, 1)), [0], [9])


def test_willpower_rerolls_once_and_never_unrolled_results():
    request = Request(4, difficulty=2)
    once = reroll(request, resolve(request, (1, 1, 1, 1)), [0], [9])
    with pytest.raises(RulesError, match="already"):
        reroll(request, once, [1], [9])
    with pytest.raises(RulesError, match="nothing"):
        reroll(request, take_half(request), [0], [9])
    with pytest.raises(RulesError, match="once"):
        reroll(request, resolve(request, (1, 1, 1, 1)), [0, 0], [9, 9])


def test_critical_counts_tens_across_normal_and_hunger_dice_and_is_messy():
    result = resolve(Request(3, hunger=1, difficulty=2), (10, 2), (10,))
    assert (result.successes, result.critical, result.messy) == (4, True, True)


def test_a_hunger_ten_without_a_pair_is_not_messy():
    result = resolve(Request(3, hunger=1), (6, 2), (10,))
    assert (result.critical, result.messy) == (False, False)


def test_a_pair_that_misses_the_difficulty_is_not_a_critical_win():
    result = resolve(Request(2, hunger=1, difficulty=5), (10,), (10,))
    assert (result.successes, result.outcome, result.critical, result.messy) == (4, "failure", False, False)


def test_bestial_failure_needs_a_failure_and_a_hunger_one():
    assert resolve(Request(3, hunger=1, difficulty=2), (6, 2), (1,)).bestial
    assert not resolve(Request(3, hunger=1, difficulty=1), (6, 2), (1,)).bestial
    assert not resolve(Request(3, hunger=1, difficulty=2), (1, 2), (3,)).bestial


def test_bestial_and_total_failure_hold_together():
    result = resolve(Request(3, hunger=2), (3,), (1, 4))
    assert (result.bestial, result.total_failure) == (True, True)
    assert {"bestial_failure", "total_failure"} <= set(codes(result))


def test_seed_willpower_rolls_take_hunger_dice_like_every_pool():
    # Seed 002: "En todas las reservas de dados"; RULES.md: Willpower rolls included.
    request = tracker_request(Tracker(4), hunger=3)
    assert (request.normal_dice, request.hunger_dice) == (1, 3)
    result = resolve(request, (2,), (1, 3, 4))
    assert result.bestial and "tracker_no_hunger" not in codes(result)
    with pytest.raises(RulesError, match="tracker"):  # still no Willpower reroll on it
        reroll(request, result, [0], [9])


def test_the_humanity_remorse_roll_takes_no_hunger_dice():
    # RULES.md: the one exception, from the V5 core book.
    request = Request(4, hunger=3, tracker=True, remorse=True)
    assert (request.normal_dice, request.hunger_dice) == (4, 0)
    assert "tracker_no_hunger" in codes(resolve(request, (1, 2, 3, 4)))
    assert odds(request).p_bestial == 0


def test_take_half_uses_half_the_pool_rounded_down():
    result = take_half(Request(7, difficulty=3))
    assert (result.successes, result.outcome, result.margin, result.automatic) == (3, "win", 0, "take_half")
    assert take_half(Request(5, difficulty=3)).outcome == "failure"


def test_seed_take_half_and_automatic_win_only_outside_stress():
    # RULES.md: take half "outside stress"; an automatic win is "rare in combat": refused under stress.
    request = Request(8, difficulty=3)
    for shortcut, code in ((take_half, "take_half_stress"), (automatic_win, "automatic_win_stress")):
        with pytest.raises(RulesError, match="under stress or in combat") as refused:
            shortcut(request, stressful=True)
        assert refused.value.code == code
        assert shortcut(request, stressful=False).outcome == "win"


def test_the_difficulty_guideline_warns_beyond_two_like_the_dice_one():
    within = Request(5, difficulty=2, difficulty_modifiers=(1, 1))
    beyond = Request(5, difficulty=2, difficulty_modifiers=(2, 1))
    easier = Request(5, difficulty=4, difficulty_modifiers=(-3,))
    assert (within.needed, beyond.needed, easier.needed) == (4, 5, 1)
    assert "difficulty_beyond_guideline" not in codes(resolve(within, (1, 2, 3, 4, 5)))
    warned = [n for n in resolve(beyond, (1, 2, 3, 4, 5)).notes if n.code == "difficulty_beyond_guideline"]
    assert [(dict(n.params)["modifiers"], dict(n.params)["limit"]) for n in warned] == [(3, 2)]
    assert "difficulty_beyond_guideline" in codes(resolve(easier, (1, 2, 3, 4, 5)))
    # A warning, nothing forbidden: the roll is judged against the modified difficulty.
    result = resolve(beyond, (6, 7, 8, 9, 6))
    assert (result.difficulty, result.successes, result.outcome) == (5, 5, "win")
    assert Request(5, difficulty=1, difficulty_modifiers=(-3,)).needed == 1  # never below 1


def test_improvised_equipment_adds_one_to_the_difficulty():
    request = Request(4, difficulty=2, improvised=True)
    assert request.needed == 3
    result = resolve(request, (6, 7, 2, 3))
    assert (result.difficulty, result.outcome, result.margin) == (3, "failure", -1)
    assert "improvised" in codes(result)
    assert odds(request).p_win == pytest.approx(odds(Request(4, difficulty=3)).p_win, abs=1e-15)
    assert automatic_win(Request(6, difficulty=2, improvised=True)).successes == 3
    with pytest.raises(RulesError, match="at least 6 dice"):
        automatic_win(Request(5, difficulty=2, improvised=True))


def test_without_equipment_the_task_is_impossible():
    request = Request(6, hunger=2, difficulty=1, no_equipment=True)
    result = roll(request, random.Random(1))
    assert (result.outcome, result.successes, result.faces, result.hunger_faces) == ("failure", 0, (), ())
    assert result.automatic == "no_equipment" and not result.bestial and "no_equipment" in codes(result)
    assert resolve(request, ()).outcome == "failure"
    with pytest.raises(RulesError, match="give no faces"):
        resolve(request, (6, 6, 6, 6), (6, 6))
    assert (odds(request).p_win, odds(request).p_bestial) == (0.0, 0.0)
    for shortcut in (take_half, automatic_win):
        with pytest.raises(RulesError, match="impossible"):
            shortcut(request)


def test_result_json_carries_the_contract_keys():
    data = resolve(Request(4, hunger=2, difficulty=2), (10, 3), (10, 1)).as_json()
    assert {"system", "faces", "hunger_faces", "successes", "margin", "outcome", "critical", "messy",
            "bestial", "total_failure", "notes", "pool", "hunger", "difficulty"} <= set(data)
    assert (data["system"], data["faces"], data["hunger_faces"], data["outcome"]) == ("v5", [10, 3], [10, 1], "win")
    assert (data["critical"], data["messy"], data["successes"]) == (True, True, 4)


def test_odds_json_carries_the_contract_keys():
    data = odds(Request(5, hunger=2, difficulty=3)).as_json()
    assert {"p_win", "p_critical", "p_messy", "p_bestial", "p_total_failure", "distribution"} <= set(data)
    assert abs(sum(data["distribution"].values()) - 1) < TOL


@pytest.mark.parametrize(
    "kwargs",
    [{"pool": -1}, {"pool": 101}, {"pool": 3, "hunger": 6}, {"pool": 3, "difficulty": 0},
     {"pool": 3, "specialty": 1}, {"pool": 3, "modifiers": (1.5,)}, {"pool": True}],
)
def test_bad_requests_are_rules_errors(kwargs):
    with pytest.raises(RulesError):
        Request(**kwargs)


def test_faces_must_match_the_dice():
    with pytest.raises(RulesError, match="hunger faces"):
        resolve(Request(3, hunger=1), (1, 2), ())
    with pytest.raises(RulesError, match="faces"):
        resolve(Request(3), (1, 2, 11))


# --- Trackers ------------------------------------------------------------------------------


def test_superficial_overflow_turns_superficial_into_aggravated():
    assert Tracker(5, superficial=4).damage("superficial", 3) == Tracker(5, superficial=3, aggravated=2)


def test_aggravated_fills_then_upgrades_superficial():
    assert Tracker(5, superficial=3).damage("aggravated", 4) == Tracker(5, superficial=1, aggravated=4)


def test_impaired_and_overwhelmed():
    full = Tracker(4, superficial=3, aggravated=1)
    assert full.impaired and not full.overwhelmed
    assert full.damage("superficial", 10) == Tracker(4, aggravated=4)
    assert full.damage("superficial", 10).overwhelmed


def test_healing():
    t = Tracker(6, superficial=3, aggravated=2)
    assert t.heal_superficial(2) == Tracker(6, superficial=1, aggravated=2)
    assert t.heal_aggravated(5) == Tracker(6, superficial=3)


def test_bad_tracker_input():
    with pytest.raises(RulesError):
        Tracker(3, superficial=2, aggravated=2)
    with pytest.raises(RulesError, match="superficial, aggravated"):
        Tracker(3).damage("lethal", 1)


tracker_ops = st.lists(
    st.tuples(st.sampled_from(["superficial", "aggravated", "heal_superficial", "heal_aggravated"]), st.integers(0, 8)),
    max_size=12,
)


@given(st.integers(1, 12), tracker_ops)
def test_tracker_damage_stays_within_its_boxes(boxes, ops):
    t = Tracker(boxes)
    for op, amount in ops:
        before = t
        t = t.damage(op, amount) if op in ("superficial", "aggravated") else getattr(t, op)(amount)
        assert 0 <= t.undamaged <= boxes
        if op in ("superficial", "aggravated"):
            assert t.aggravated >= before.aggravated
            marked = min(amount, before.undamaged)
            assert t.superficial + t.aggravated == before.superficial + before.aggravated + marked
            # Overflow beyond the free boxes upgrades superficial boxes, one per point.
            upgraded = min(amount - marked, before.superficial + (marked if op == "superficial" else 0))
            assert t.aggravated == before.aggravated + (marked if op == "aggravated" else 0) + upgraded
        assert t.roll_pool == max(1, t.undamaged)


# --- Properties ----------------------------------------------------------------------------

requests = st.builds(
    Request,
    pool=st.integers(0, 25),
    hunger=st.integers(0, 5),
    difficulty=st.integers(1, 12),
    specialty=st.booleans(),
    tracker=st.booleans(),
    modifiers=st.lists(st.integers(-12, 12), max_size=4).map(tuple),
    remorse=st.booleans(),
)
d10 = st.integers(1, 10)


@st.composite
def rolled(draw):
    request = draw(requests)
    faces = draw(st.lists(d10, min_size=request.normal_dice, max_size=request.normal_dice))
    hunger = draw(st.lists(d10, min_size=request.hunger_dice, max_size=request.hunger_dice))
    return request, resolve(request, faces, hunger)


@given(requests)
def test_pool_never_below_one_and_hunger_dice_replace_normal_ones(request):
    assert request.dice == max(1, request.pool + request.specialty + sum(request.modifiers))
    assert request.normal_dice + request.hunger_dice == request.dice
    assert request.hunger_dice == (0 if request.remorse else min(request.hunger, request.dice))


@given(rolled())
def test_outcome_flags_are_consistent(case):
    request, r = case
    dice = r.faces + r.hunger_faces
    assert r.successes == sum(f >= 6 for f in dice) + 2 * (dice.count(10) // 2) >= 0
    assert r.margin == r.successes - request.difficulty
    assert r.outcome == ("win" if r.successes >= request.difficulty else "failure")
    assert not r.messy or r.critical
    assert not r.critical or (r.outcome == "win" and dice.count(10) >= 2)
    assert r.messy == (r.critical and 10 in r.hunger_faces)
    assert not r.bestial or r.outcome == "failure"
    assert r.bestial == (r.outcome == "failure" and 1 in r.hunger_faces)
    assert r.total_failure == (r.successes == 0)
    assert r.win_at_cost == (0 < r.successes < request.difficulty)


@given(requests, st.integers(0, 2**32))
def test_roll_is_resolve_of_the_drawn_faces(request, seed):
    rolled_result = roll(request, random.Random(seed))
    rng = random.Random(seed)
    faces = [rng.randint(1, 10) for _ in range(request.normal_dice)]
    hunger = [rng.randint(1, 10) for _ in range(request.hunger_dice)]
    assert rolled_result == resolve(request, faces, hunger)


@given(rolled(), st.data())
def test_a_willpower_reroll_replays(case, data):
    request, first = case
    if request.tracker or not first.faces:
        return
    indices = data.draw(st.lists(st.integers(0, len(first.faces) - 1), min_size=1, max_size=3, unique=True))
    new = data.draw(st.lists(d10, min_size=len(indices), max_size=len(indices)))
    again = reroll(request, first, indices, new)
    assert again.hunger_faces == first.hunger_faces
    restored = list(again.faces)
    for i, face in zip(again.rerolled, again.rerolled_from):
        restored[i] = face
    assert resolve(request, restored, again.hunger_faces) == first
    assert verdict_of(again) == verdict_of(resolve(request, again.faces, again.hunger_faces))


def verdict_of(result: Result) -> tuple:
    """A result's dice and verdict, leaving out how it came about."""
    return (result.faces, result.hunger_faces, result.successes, result.outcome, result.critical,
            result.messy, result.bestial, result.total_failure)


@given(st.integers(0, 2**32))
def test_roll_reroll_draws_its_new_faces_from_the_source(seed):
    request = Request(6, hunger=2, difficulty=3)
    first = resolve(request, (1, 2, 3, 4), (5, 6))
    rng = random.Random(seed)
    new = [rng.randint(1, 10) for _ in range(2)]
    assert roll_reroll(request, first, [3, 1], random.Random(seed)) == reroll(request, first, [3, 1], new)


@given(st.integers(0, 5), st.integers(0, 2**32))
def test_roll_rouse_is_rouse_of_the_drawn_face(hunger, seed):
    assert roll_rouse(hunger, random.Random(seed)) == rouse(random.Random(seed).randint(1, 10), hunger)


@given(requests)
def test_odds_are_a_distribution_with_nested_events(request):
    o = odds(request)
    assert abs(sum(o.distribution.probs) - 1) < TOL
    assert min(o.distribution.probs) >= 0
    assert -TOL <= o.p_messy <= o.p_critical + TOL <= o.p_win + 2 * TOL
    assert o.p_bestial <= 1 - o.p_win + TOL
    assert abs(o.p_total_failure - 0.5**request.dice) < TOL
    assert o.p_total_failure <= 1 - o.p_win + TOL


@given(requests)
def test_take_half_and_automatic_win_are_consistent(request):
    half = take_half(request)
    assert half.successes == request.dice // 2 and half.faces == () and not half.critical
    if request.dice >= 2 * request.difficulty:
        assert automatic_win(request).margin == 0
    else:
        with pytest.raises(RulesError):
            automatic_win(request)


# --- Exact odds against icepool --------------------------------------------------------------

NORMAL_DIE = icepool.d10.map(lambda f: icepool.Vector((int(6 <= f <= 9), int(f == 10))))
HUNGER_DIE = icepool.d10.map(lambda f: icepool.Vector((int(6 <= f <= 9), int(f == 10), int(f == 10), int(f == 1))))


def _verdict(normal, hunger):
    scores, tens = normal[0] + hunger[0], normal[1] + hunger[1]
    return scores + tens + 2 * (tens // 2), tens >= 2, hunger[2] > 0, hunger[3] > 0


def oracle(normal_dice: int, hunger_dice: int) -> icepool.Die:
    """(successes, has a pair of 10s, a hunger die shows 10, a hunger die shows 1), jointly."""
    return icepool.map(_verdict, normal_dice @ NORMAL_DIE, hunger_dice @ HUNGER_DIE)


def oracle_odds(joint: icepool.Die, difficulty: int) -> dict[str, object]:
    p = {"p_win": 0.0, "p_critical": 0.0, "p_messy": 0.0, "p_bestial": 0.0, "p_total_failure": 0.0}
    dist: Counter = Counter()
    for (successes, pair, hunger_ten, hunger_one), q in joint.items():
        prob = q / joint.denominator()
        dist[successes] += prob
        win = successes >= difficulty
        p["p_win"] += prob * win
        p["p_critical"] += prob * (win and pair)
        p["p_messy"] += prob * (win and pair and hunger_ten)
        p["p_bestial"] += prob * (not win and hunger_one)
        p["p_total_failure"] += prob * (successes == 0)
    return {**p, "distribution": dist}


def assert_matches(o, expected):
    for key in ("p_win", "p_critical", "p_messy", "p_bestial", "p_total_failure"):
        assert abs(getattr(o, key) - expected[key]) < TOL, (key, getattr(o, key), expected[key])
    ours = o.distribution.as_dict()
    for successes in set(ours) | set(expected["distribution"]):
        assert abs(ours.get(successes, 0.0) - expected["distribution"].get(successes, 0.0)) < TOL


@pytest.mark.parametrize("hunger", range(6))
def test_odds_agree_with_icepool(hunger):
    for pool in range(1, 21):
        joint = oracle(pool - min(hunger, pool), min(hunger, pool))
        for difficulty in range(1, 9):
            assert_matches(odds(Request(pool, hunger=hunger, difficulty=difficulty)), oracle_odds(joint, difficulty))


def test_tracker_odds_agree_with_icepool_hunger_dice_in_willpower_not_in_remorse():
    for pool in (1, 4, 9):
        for difficulty in (1, 3):
            willpower = Request(pool, hunger=4, difficulty=difficulty, tracker=True)
            assert_matches(odds(willpower), oracle_odds(oracle(pool - min(4, pool), min(4, pool)), difficulty))
            remorse = Request(pool, hunger=4, difficulty=difficulty, tracker=True, remorse=True)
            assert_matches(odds(remorse), oracle_odds(oracle(pool, 0), difficulty))


def test_modifiers_and_specialty_reach_the_odds():
    request = Request(3, hunger=2, difficulty=3, specialty=True, modifiers=(2, -1))
    assert_matches(odds(request), oracle_odds(oracle(3, 2), 3))


def successes_die(pool: int, hunger: int) -> icepool.Die:
    h = min(hunger, pool)
    return oracle(pool - h, h).map(lambda verdict: verdict[0])


@pytest.mark.parametrize("hunger_a,hunger_b", [(0, 0), (2, 0), (1, 5)])
def test_contest_agrees_with_icepool(hunger_a, hunger_b):
    for a in range(1, 9):
        for b in range(1, 9):
            ours = contest(Request(a, hunger=hunger_a), Request(b, hunger=hunger_b))
            da, db = successes_die(a, hunger_a), successes_die(b, hunger_b)
            assert abs(ours.p_win - (da > db).probability(True)) < TOL
            assert abs(ours.p_tie - (da == db).probability(True)) < TOL
            assert abs(ours.p_lose - (da < db).probability(True)) < TOL


@given(requests, requests)
def test_contest_is_symmetric(a, b):
    ab, ba = contest(a, b), contest(b, a)
    assert abs(ab.p_win - ba.p_lose) < TOL and abs(ab.p_tie - ba.p_tie) < TOL


def test_extended_has_no_botch_so_every_policy_agrees():
    request = Request(4, hunger=2)
    base = extended(request, goal=6, difficulty=1)
    for policy in BotchPolicy:
        assert extended(request, goal=6, difficulty=1, policy=policy).p_done_by == base.p_done_by
    assert base.p_complete == 1


def test_extended_first_roll_finishes_a_goal_of_one_unless_no_success():
    request = Request(5, hunger=3)
    assert abs(extended(request, goal=1).p_done_by[0] - (1 - odds(request).p_total_failure)) < TOL


# --- The roller against the exact odds ---------------------------------------------------------

ROLLS = 30_000


def category(result: Result) -> str:
    if result.messy:
        return "messy"
    if result.critical:
        return "critical"
    if result.outcome == "win":
        return "win"
    return "bestial" if result.bestial else "failure"


@pytest.mark.parametrize("request_", [Request(7, hunger=3, difficulty=3), Request(4, hunger=5, difficulty=2)])
def test_roller_fits_the_exact_odds(request_):
    rng = random.Random(5005)
    results = [roll(request_, rng) for _ in range(ROLLS)]
    o = odds(request_)
    assert_fits((r.successes for r in results), o.distribution.as_dict())
    assert_fits(
        (category(r) for r in results),
        {
            "messy": o.p_messy,
            "critical": o.p_critical - o.p_messy,
            "win": o.p_win - o.p_critical,
            "bestial": o.p_bestial,
            "failure": 1 - o.p_win - o.p_bestial,
        },
    )
    assert_fits((r.total_failure for r in results), {True: o.p_total_failure, False: 1 - o.p_total_failure})


def test_rouse_roller_passes_on_six_or_more():
    rng = random.Random(77)
    p_pass = sum(face >= 6 for face in range(1, 11)) / 10
    assert_fits((roll_rouse(2, rng).outcome for _ in range(ROLLS)), {"pass": p_pass, "fail": 1 - p_pass})



# --- luck -------------------------------------------------------------------------------------

# A face for each thing a die can do, with its chance: normal dice fail, score or show 10; a
# hunger die's 1 is apart from its other failures.
NORMAL_KINDS = ((1, 0.5), (6, 0.4), (10, 0.1))
HUNGER_KINDS = ((1, 0.1), (2, 0.4), (6, 0.4), (10, 0.1))


def specials_of(result: Result) -> dict[str, bool]:
    return {"critical": result.critical, "messy_critical": result.messy, "bestial_failure": result.bestial}


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 5), st.integers(0, 5), st.integers(1, 7), st.booleans())
def test_luck_matches_every_roll_of_the_request(pool, hunger, difficulty, remorse):
    request = Request(pool=pool, hunger=hunger, difficulty=difficulty, remorse=remorse)
    outcomes = []
    for normal in product(NORMAL_KINDS, repeat=request.normal_dice):
        for hungry in product(HUNGER_KINDS, repeat=request.hunger_dice):
            result = resolve(request, [f for f, _ in normal], [f for f, _ in hungry])
            chance = prod(p for _, p in normal + hungry)
            outcomes.append((chance, result.successes, luck(request, result), specials_of(result)))
    assert_luck_exact(outcomes)


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 5), st.integers(0, 3), st.integers(1, 5), st.data())
def test_a_rerolls_luck_matches_every_face_the_rerolled_dice_could_show(pool, hunger, difficulty, data):
    request = Request(pool=pool + hunger, hunger=hunger, difficulty=difficulty)  # `pool` normal dice
    first = roll(request, random.Random(data.draw(st.integers(0, 10**6))))
    count = data.draw(st.integers(1, min(3, request.normal_dice)))
    indices = data.draw(st.permutations(range(request.normal_dice)))[:count]
    outcomes = []
    for new_faces in product(range(1, 11), repeat=count):
        result = reroll(request, first, indices, new_faces)
        outcomes.append((0.1**count, result.successes, luck(request, result), specials_of(result)))
    assert_luck_exact(outcomes)


def test_a_reroll_is_ranked_once_the_kept_dice_are_known():
    request = Request(pool=4, hunger=2, difficulty=3)
    first = resolve(request, (2, 3), (1, 7))  # a Hunger die shows 1: a failure would be bestial
    rerolled = reroll(request, first, (0, 1), (6, 7))
    got = luck(request, rerolled)
    # Kept: one success and a Hunger 1. The two fresh dice must both succeed (1/4) to win, else bestial.
    assert rerolled.win and got.special("bestial_failure").prior == pytest.approx(0.75)
    assert got.special("critical").prior == pytest.approx(0.01)  # no 10 kept: a pair needs both fresh dice
    assert (got.below, got.equal) == (pytest.approx(0.75), pytest.approx(0.24))  # 2 fresh successes, no pair
    # The first roll keeps its own luck, against the request.
    assert luck(request, first).below == pytest.approx(0.5**4)  # only no success at all is worse than 1
    assert luck(request, first).special("bestial_failure").happened


def test_unrolled_results_have_no_luck():
    request, without_equipment = Request(pool=6, difficulty=2), Request(pool=6, no_equipment=True)
    assert luck(request, automatic_win(request)) is None and luck(request, take_half(request)) is None
    assert luck(without_equipment, impossible(without_equipment)) is None


def test_luck_refuses_a_result_of_another_request():
    with pytest.raises(RulesError):
        luck(Request(pool=3), resolve(Request(pool=4), (1, 2, 3, 4)))


def test_a_rouse_check_ranks_a_pass_above_a_fail():
    assert_luck_exact((0.1, face >= 6, rouse_luck(rouse(face, 2)), {}) for face in range(1, 11))
    assert rouse_luck(rouse(6, 2)).band == "lucky" and rouse_luck(rouse(5, 2)).band == "unlucky"


# --- issue 23: mortals and ghouls, teamwork in words, the impaired state -----------------------

from rules import v5 as _v5  # noqa: E402


@given(st.sampled_from(list(_v5.Nature)), st.integers(0, 5), st.integers(0, 20), st.integers(0, 2**32))
def test_only_a_vampire_takes_hunger_dice(kind, hunger, pool, seed):
    """Item 3: a mortal's or a ghoul's pool has no hunger dice, whatever its Hunger rating says."""
    request = Request(pool=pool, hunger=_v5.hunger_of(kind, hunger))
    result = roll(request, random.Random(seed))
    if kind is _v5.Nature.VAMPIRE:
        assert len(result.hunger_faces) == min(hunger, request.dice)
    else:
        assert result.hunger_faces == () and not result.messy and not result.bestial
        assert odds(request).p_messy == 0.0 and odds(request).p_bestial == 0.0


@pytest.mark.parametrize("kind", ["mortal", "ghoul"])
def test_a_mortal_or_a_ghoul_makes_no_rouse_check(kind):
    with pytest.raises(RulesError) as refused:
        _v5.check_rouse(kind)
    assert refused.value.code == "rouse_no_hunger" and refused.value.params == {"nature": kind}
    _v5.check_rouse("vampire")  # a vampire rouses
    with pytest.raises(RulesError):
        _v5.check_rouse("werewolf")


def test_seed_teamwork_says_who_rolls_and_who_adds_a_die():
    """Item 4: the seed's rule, with who added what (the walkthrough's Bhavna had no Occult: no die)."""
    assert _v5.teamwork([5, 2], skills=[2, 0]) == _v5.Teamwork(dice=5, roller=0, adding=(), idle=(1,))
    assert _v5.teamwork([5, 3], skills=[2, 1]) == _v5.Teamwork(dice=6, roller=0, adding=(1,), idle=())
    assert _v5.teamwork([3, 6, 4], skills=[0, 3, 1]) == _v5.Teamwork(dice=7, roller=1, adding=(2,), idle=(0,))
    assert _v5.teamwork([4, 3]) == _v5.Teamwork(dice=5, roller=0, adding=(1,), idle=())  # no skill: everyone helps


@given(st.lists(st.tuples(st.integers(0, 10), st.integers(0, 5)), min_size=1, max_size=6))
def test_teamwork_is_the_largest_pool_plus_one_per_skilled_helper(team):
    pools, skills = [p for p, _ in team], [s for _, s in team]
    made = _v5.teamwork(pools, skills)
    assert made.dice == teamwork_pool(pools, skills) == max(pools) + len(made.adding)
    assert pools[made.roller] == max(pools)
    assert sorted((*made.adding, *made.idle, made.roller)) == list(range(len(pools)))
    assert all(skills[i] >= 1 for i in made.adding) and all(skills[i] == 0 for i in made.idle)
    # The odds price the pool the team rolls: one more able helper is one more die.
    assert odds(Request(pool=made.dice)).p_win == odds(Request(pool=max(pools) + len(made.adding))).p_win


@pytest.mark.parametrize("attribute, kind", [("strength", "physical"), ("dexterity", "physical"), ("stamina", "physical"),
                                             ("charisma", "social"), ("composure", "social"), ("manipulation", "social"),
                                             ("intelligence", "mental"), ("wits", "mental"), ("resolve", "mental")])
def test_a_pool_is_physical_social_or_mental_by_its_attribute(attribute, kind):
    assert _v5.pool_kind([attribute, "brawl"]) == kind
    assert _v5.pool_kind(["brawl", attribute]) == kind


def test_a_pool_without_an_attribute_is_never_impaired():
    full = Tracker(5, superficial=5)
    assert _v5.pool_kind(["", "brawl"]) is None
    assert not _v5.impaired(None, full, full)


@given(st.integers(1, 12), st.integers(0, 12), st.integers(0, 12), st.sampled_from(list(_v5.PoolKind)))
def test_a_full_tracker_impairs_its_pools_alone(boxes, superficial, aggravated, kind):
    """Item 5: a full Health tracker impairs Physical pools, a full Willpower one Social and Mental ones."""
    superficial, aggravated = min(superficial, boxes), min(aggravated, boxes - min(superficial, boxes))
    damaged, fine = Tracker(boxes, superficial, aggravated), Tracker(boxes)
    full = damaged.undamaged == 0
    assert _v5.impaired(kind, damaged, fine) == (full and kind is _v5.PoolKind.PHYSICAL)
    assert _v5.impaired(kind, fine, damaged) == (full and kind is not _v5.PoolKind.PHYSICAL)


@given(st.integers(0, 20), st.integers(-5, 5), st.booleans(), st.integers(0, 5), st.integers(1, 6))
def test_impaired_takes_two_dice_never_below_one_with_exact_odds(pool, modifier, specialty, hunger, difficulty):
    plain = Request(pool=pool, modifiers=(modifier,), specialty=specialty, hunger=hunger, difficulty=difficulty)
    hurt = Request(pool=pool, modifiers=(modifier,), specialty=specialty, hunger=hunger, difficulty=difficulty,
                   impaired=True)
    assert hurt.dice == max(1, plain._raw_dice - 2)
    assert odds(hurt).p_win == odds(Request(pool=hurt.dice, hunger=hunger, difficulty=difficulty)).p_win
    assert "impaired" in [n.code for n in hurt.notes()]
    # The impairment is no ad-hoc modifier: it never trips the ±3 guideline.
    assert ("modifiers_beyond_guideline" in [n.code for n in hurt.notes()]) == (abs(modifier) > 3)


def test_impaired_seed_pool_from_faces():
    """Seed 002's 6-die pool (Resolve 3 + Investigation 3), impaired: 4 dice, judged from its faces."""
    request = Request(pool=6, difficulty=2, impaired=True)
    result = resolve(request, (6, 7, 2, 3))
    assert result.pool == 4 and result.successes == 2 and result.outcome == "win"
    assert "impaired" in [n["code"] for n in result.as_json()["notes"]]
    with pytest.raises(RulesError):
        resolve(request, (6, 7, 2, 3, 8, 9))  # six faces for a four-die pool
