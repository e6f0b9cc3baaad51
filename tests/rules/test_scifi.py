"""The science-fiction d10 game: seed examples, properties, icepool as the odds oracle, chi-square."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import scifi
from rules.dice import RulesError
from rules.extended import BotchPolicy, ExtendedState
from rules.scifi import (
    ActionKind,
    Degree,
    Difficulty,
    Outcome,
    Request,
    Side,
    Sphere,
    TurnBudget,
    Victory,
    odds,
    resolve,
    resolve_opposed,
)
from tests.rules.stats import assert_fits, assert_luck_exact

# --- the oracle: icepool's exploding d10 ------------------------------------------------------

DEPTH = 12  # explosions past this depth carry 0.1**13 per die: far below the 1e-9 we check
EXPLODING = icepool.d10.explode(depth=DEPTH)  # the faces of one die and its explosions, summed


def _run_successes(total: int) -> int:
    """Successes of one exploded die from its summed faces: its 10s, plus its last face if 7+."""
    tens, last = divmod(total - 1, 10)
    return tens + (last + 1 >= 7)


SUCCESS_DIE = EXPLODING.map(_run_successes)
FIRST_DIE = EXPLODING.map(lambda total: -1 if total == 1 else _run_successes(total))  # -1: a face of 1


@cache
def oracle_pool(n: int) -> icepool.Die:
    return n @ SUCCESS_DIE


def oracle_p_fumble(n: int, needed: int) -> float:
    """P(the roll fails and its first die shows 1), from the whole roll."""
    rest = oracle_pool(n - 1)
    return float(icepool.map(lambda first, others: first == -1 and others < needed, FIRST_DIE, rest).probability(True))


# --- seed examples ---------------------------------------------------------------------------


def test_seed_example_1_three_dice_plus_four_rolls_six():
    request = Request(3, modifiers=(4,))
    assert request.dice == 6
    assert len(scifi.roll(request, random.Random(1)).faces) == 6


def test_seed_example_2_three_dice_minus_four_rolls_none_and_fails_without_a_fumble():
    request = Request(3, modifiers=(-4,))
    result = resolve(request, ())
    assert request.dice == 0
    assert (result.outcome, result.faces, result.successes) == (Outcome.FAILURE, (), 0)
    assert "no_dice" in {n.code for n in result.notes}


def test_seed_example_3_three_dice_plus_four_minus_five_rolls_two():
    assert Request(3, modifiers=(4, -5)).dice == 2


def test_seed_example_opposed_first_side_wins_narrowly():
    contest = resolve_opposed(Request(5), [4, 9, 2, 2, 7], Request(3), [1, 5, 8])
    assert (contest.first.successes, contest.second.successes) == (2, 1)
    assert (contest.winner, contest.victory, contest.margin) == (Side.FIRST, Victory.NARROWLY, 1)


def test_seed_example_opposed_loser_with_a_first_die_of_one_fumbles():
    # The seed's second side lost with [1, 5, 8]: the digest makes that a fumble.
    assert resolve_opposed(Request(5), [4, 9, 2, 2, 7], Request(3), [1, 5, 8]).fumble is Side.SECOND


def test_opposed_win_by_two_is_clear_and_by_three_overwhelming():
    assert resolve_opposed(Request(3), [8, 8, 2], Request(1), [3]).victory is Victory.CLEARLY
    assert resolve_opposed(Request(1), [3], Request(3), [8, 8, 8]).victory is Victory.OVERWHELMINGLY
    assert resolve_opposed(Request(1), [3], Request(3), [8, 8, 8]).winner is Side.SECOND


def test_opposed_stalemate_has_no_winner_and_no_fumble():
    contest = resolve_opposed(Request(2), [1, 8], Request(2), [1, 9])
    assert (contest.winner, contest.victory, contest.fumble) == (None, None, None)
    assert [n.code for n in contest.notes] == ["stalemate"]


def test_easy_is_automatic_without_a_roll():
    for skill in (None, 0, 2, 5):
        result = scifi.roll(Request(3, Difficulty.EASY, skill=skill), random.Random(3))
        assert (result.outcome, result.faces, result.degree) == (Outcome.SUCCESS, (), None)


def test_easy_needs_one_success_with_a_skill_of_exactly_one():
    request = Request(3, Difficulty.EASY, skill=1)
    assert request.needed == 1
    assert resolve(request, [2, 3, 4]).outcome is Outcome.FAILURE
    assert resolve(request, [2, 3, 7]).outcome is Outcome.SUCCESS


@pytest.mark.parametrize(
    "difficulty, needed",
    [(Difficulty.COMMON, 1), (Difficulty.HARD, 2), (Difficulty.VERY_HARD, 3), (Difficulty.EXTREME, 4)],
)
def test_ladder_successes_needed(difficulty, needed):
    request = Request(6, difficulty, skill=2)
    assert request.needed == needed
    assert resolve(request, [8] * needed + [2] * (6 - needed)).outcome is Outcome.SUCCESS
    assert resolve(request, [8] * (needed - 1) + [2] * (7 - needed)).outcome is Outcome.FAILURE


def test_seed_a_simple_action_that_needs_specific_knowledge_needs_a_level_in_the_skill():
    # Seed 001, "Comprobación de Acciones": no telling a rare alien animal from another without
    # Trato con Animales, no talking chemistry without Ciencia. Easy is then no automatic success.
    for difficulty in (Difficulty.EASY, Difficulty.COMMON, Difficulty.HARD):
        request = Request(4, difficulty, skill=0, knowledge=True)
        result = scifi.roll(request, random.Random(2))
        assert (result.outcome, result.faces, result.degree) == (Outcome.FAILURE, (), None)
        assert not request.automatic and not request.rolls and odds(request).p_success == 0
    assert "knowledge_needed" in {n.code for n in scifi.resolve(Request(4, Difficulty.EASY, skill=0, knowledge=True)).notes}
    # With a level in the skill, the ladder as usual; unmarked, Easy stays automatic without the skill.
    assert Request(4, Difficulty.EASY, skill=2, knowledge=True).automatic
    assert Request(4, Difficulty.EASY, skill=1, knowledge=True).needed == 1
    assert Request(4, Difficulty.COMMON, skill=1, knowledge=True).rolls
    assert odds(Request(4, Difficulty.EASY, skill=0)).p_success == 1.0
    assert Request(4, Difficulty.EASY, knowledge=True).automatic  # skill not checked (None)


@pytest.mark.parametrize("difficulty", [Difficulty.HARD, Difficulty.VERY_HARD, Difficulty.EXTREME, 5])
def test_hard_and_above_are_impossible_without_the_skill(difficulty):
    request = Request(8, difficulty, skill=0)
    result = scifi.roll(request, random.Random(5))
    assert (result.outcome, result.faces) == (Outcome.FAILURE, ())
    assert "impossible" in {n.code for n in result.notes}
    assert odds(request).p_success == 0
    assert Request(8, difficulty, skill=1).rolls


def test_common_is_rolled_without_the_skill():
    assert Request(3, Difficulty.COMMON, skill=0).rolls


def test_degrees_barely_clean_absolute():
    request = Request(4, Difficulty.HARD, skill=1)
    assert resolve(request, [8, 8, 2, 2]).degree is Degree.BARELY
    assert resolve(request, [8, 8, 8, 2]).degree is Degree.CLEAN
    assert resolve(request, [8, 8, 8, 8]).degree is Degree.ABSOLUTE
    assert resolve(request, [8, 2, 2, 2]).degree is None


def test_fumble_needs_the_first_die_to_be_one():
    request = Request(3, Difficulty.HARD, skill=2)
    assert resolve(request, [1, 5, 8]).outcome is Outcome.FUMBLE
    assert resolve(request, [5, 1, 8]).outcome is Outcome.FAILURE
    assert resolve(request, [1, 8, 9]).outcome is Outcome.SUCCESS


def test_a_ten_explodes_and_the_explosion_scores_on_seven_or_more():
    result = resolve(Request(2), [10, 3, 7])
    assert (result.faces, result.explosions, result.successes) == ((10, 3), (7,), 2)
    assert resolve(Request(2), [10, 3, 6]).successes == 1


def test_an_exploded_ten_explodes_again():
    result = resolve(Request(1), [10, 10, 10, 4])
    assert (result.explosions, result.successes) == ((10, 10, 4), 3)


def test_an_explosion_die_of_one_is_not_a_fumble():
    assert resolve(Request(2, Difficulty.HARD, skill=1), [10, 2, 1]).outcome is Outcome.FAILURE


@pytest.mark.parametrize("faces", [[10, 3], [10, 3, 10], [5, 3, 8], [10, 3, 4, 10], [3]])
def test_faces_must_match_the_explosions_owed(faces):
    with pytest.raises(RulesError):
        resolve(Request(2), faces)


def test_an_unrolled_action_takes_no_faces():
    with pytest.raises(RulesError):
        resolve(Request(3, modifiers=(-3,)), [5])


def test_the_json_carries_the_contract_keys():
    answer = resolve(Request(2, "hard", skill=1), [10, 3, 10, 8]).as_json()
    assert {"system", "faces", "explosions", "successes", "margin", "outcome", "degree"} <= set(answer)
    assert (answer["system"], answer["faces"], answer["explosions"]) == ("scifi", [10, 3], [10, 8])
    assert (answer["margin"], answer["outcome"], answer["degree"]) == (1, "success", "clean")


def test_capped_modifiers_are_explained():
    (capped,) = resolve(Request(3, modifiers=(4,)), [2] * 6).notes
    assert capped.code == "modifiers_capped" and dict(capped.params)["applied"] == 3


@pytest.mark.parametrize(
    "text, value",
    [("easy", Difficulty.EASY), ("common", Difficulty.COMMON), ("hard", Difficulty.HARD),
     ("very-hard", Difficulty.VERY_HARD), ("Very Hard", Difficulty.VERY_HARD), ("extreme", Difficulty.EXTREME),
     ("0", 0), ("3", 3), (7, 7)],
)
def test_parse_difficulty(text, value):
    assert scifi.parse_difficulty(text) == value
    assert type(scifi.parse_difficulty(text)) is type(value)


@pytest.mark.parametrize("bad", ["impossible", "-1", -1, 1.5, True])
def test_parse_difficulty_refuses(bad):
    with pytest.raises(RulesError):
        scifi.parse_difficulty(bad)


@pytest.mark.parametrize("kwargs", [{"pool": -1}, {"pool": 101}, {"pool": 3, "skill": -1},
                                    {"pool": 3, "modifiers": (1.5,)}, {"pool": 3, "difficulty": "legendary"}])
def test_bad_requests_are_refused(kwargs):
    with pytest.raises(RulesError):
        Request(**kwargs)


def test_a_named_difficulty_given_as_text_makes_the_same_request():
    assert Request(3, "very-hard") == Request(3, Difficulty.VERY_HARD)


def test_numeric_difficulty_zero_is_rolled_and_cannot_fail():
    result = resolve(Request(2, 0), [1, 2])
    assert (result.outcome, result.degree) == (Outcome.SUCCESS, Degree.BARELY)
    assert odds(Request(2, 0)).p_success == 1


def test_derived_distances():
    d = scifi.distances(res=3, fue=4)
    assert (d.swim_m, d.vertical_jump_cm, d.running_long_jump_m, d.standing_long_jump_m) == (6, 120, 8, 4)


# --- action economy and On-Rol / Off-Rol -----------------------------------------------------


def test_two_short_actions_fill_a_turn():
    turn = TurnBudget().take("short").take("short")
    assert turn.left == 0
    ok, reason = turn.can_take(ActionKind.SHORT)
    assert not ok and "slot" in reason


def test_a_long_action_takes_the_whole_turn():
    assert TurnBudget().take("long").left == 0
    assert not TurnBudget().take("short").can_take("long")[0]


@pytest.mark.parametrize("kind, phrase", [("long", "a long action"), ("extended", "an extended action")])
def test_a_refusal_names_the_action_with_its_article(kind, phrase):
    ok, reason = TurnBudget().take("short").can_take(kind)
    assert not ok and reason.startswith(f"{phrase} needs 2 action slots, 1 of 2 left"), reason


def test_firing_costs_one_slot_once_a_turn():
    turn = TurnBudget().take("special", "fire")
    assert turn.can_take("short") == (True, "")
    ok, reason = turn.can_take("special", "fire")
    assert not ok and "at most 1 a turn" in reason
    with pytest.raises(RulesError, match="fire"):
        turn.take("special", "fire")


def test_an_extended_action_takes_both_slots_of_every_turn_while_it_runs():
    turn = TurnBudget().take("extended")
    assert not turn.can_take("short")[0]
    following = turn.next_turn()
    assert not following.can_take("short")[0]
    assert "extended" in following.can_take("short")[1]
    assert turn.next_turn(extended_continues=False).can_take("long") == (True, "")


def test_a_turn_without_an_extended_action_starts_afresh():
    assert TurnBudget().take("short").take("short").next_turn() == TurnBudget()


@pytest.mark.parametrize("kind, name", [("dance", None), ("special", "teleport"), ("special", None), ("short", "fire")])
def test_unknown_actions_are_bad_input(kind, name):
    with pytest.raises(RulesError):
        TurnBudget().can_take(kind, name)


@given(st.lists(st.sampled_from([("short", None), ("long", None), ("extended", None), ("special", "fire")]), max_size=6))
def test_a_turn_never_spends_more_than_two_slots(actions):
    turn = TurnBudget()
    for kind, name in actions:
        ok, reason = turn.can_take(kind, name)
        if ok:
            turn = turn.take(kind, name)
        else:
            assert reason
            with pytest.raises(RulesError):
                turn.take(kind, name)
        assert 0 <= turn.used <= scifi.SLOTS_PER_TURN


@pytest.mark.parametrize("sphere", list(Sphere))
@pytest.mark.parametrize("adventure_open", [False, True])
@pytest.mark.parametrize("scene_staged", [False, True])
def test_off_rol_is_refused_only_inside_an_open_adventure_without_a_staged_scene(sphere, adventure_open, scene_staged):
    refused = sphere is Sphere.OFF_ROL and adventure_open and not scene_staged
    ok, reason = scifi.can_act(sphere, adventure_open, scene_staged)
    assert ok is not refused and bool(reason) is refused
    if refused:
        with pytest.raises(RulesError):
            scifi.check_act(sphere, adventure_open, scene_staged)


# --- properties ------------------------------------------------------------------------------

difficulties = st.one_of(st.integers(0, 8), st.sampled_from(list(Difficulty)))
skills = st.one_of(st.none(), st.integers(0, 5))
requests = st.builds(Request, pool=st.integers(0, 20), difficulty=difficulties, skill=skills,
                     modifiers=st.lists(st.integers(-8, 8), max_size=4).map(tuple))


@given(st.integers(0, 100), st.lists(st.integers(-10, 10), max_size=6))
def test_net_modifier_never_adds_more_than_three_and_the_pool_never_drops_below_zero(pool, modifiers):
    dice = Request(pool, modifiers=tuple(modifiers)).dice
    assert 0 <= dice <= pool + 3
    assert dice == max(0, pool + min(3, sum(modifiers)))


@st.composite
def rolled(draw):
    """A rolled request and valid faces: the pool, then one more die for every 10."""
    request = draw(requests.filter(lambda r: r.rolls))
    faces = draw(st.lists(st.integers(1, 10), min_size=request.dice, max_size=request.dice))
    owed = faces.count(10)
    while owed:
        face = draw(st.integers(1, 10))
        faces.append(face)
        owed += (face == 10) - 1
    return request, faces


@given(rolled())
def test_successes_count_every_face_of_seven_or_more_explosions_included(case):
    request, faces = case
    result = resolve(request, faces)
    assert result.successes == sum(f >= 7 for f in faces)
    assert len(result.explosions) == faces.count(10)
    assert result.faces + result.explosions == tuple(faces)


@given(rolled())
def test_outcome_degree_and_fumble_follow_the_margin_and_the_first_die(case):
    request, faces = case
    result = resolve(request, faces)
    assert result.margin == result.successes - request.needed
    if result.margin >= 0:
        assert result.outcome is Outcome.SUCCESS
        assert result.degree is [Degree.BARELY, Degree.CLEAN, Degree.ABSOLUTE][min(result.margin, 2)]
    else:
        assert result.degree is None
        assert (result.outcome is Outcome.FUMBLE) == (faces[0] == 1)


@given(requests, st.integers(0, 2**32))
def test_roll_is_resolve_of_what_it_drew(request, seed):
    drawn = scifi.draw(request.dice, random.Random(seed)) if request.rolls else ()
    assert scifi.roll(request, random.Random(seed)) == resolve(request, drawn)


@given(requests)
def test_odds_are_a_distribution_with_a_tiny_tail(request):
    o = odds(request)
    assert abs(sum(o.distribution.probs) + o.tail - 1) < 1e-12
    assert 0 <= o.tail < 1e-12
    assert 0 <= o.p_fumble <= 1 - o.p_success + 1e-12


@given(st.integers(0, 29), difficulties, skills)
def test_another_die_never_hurts(pool, difficulty, skill):
    a, b = Request(pool, difficulty, skill), Request(pool + 1, difficulty, skill)
    assert odds(b).p_success >= odds(a).p_success - 1e-12


@given(rolled(), rolled())
def test_swapping_the_sides_of_an_opposed_action_swaps_the_winner(one, two):
    (a, a_faces), (b, b_faces) = one, two
    ab, ba = resolve_opposed(a, a_faces, b, b_faces), resolve_opposed(b, b_faces, a, a_faces)
    assert ab.margin == -ba.margin and ab.victory == ba.victory
    assert {ab.winner, ba.winner} in ({None}, {Side.FIRST, Side.SECOND})


@given(st.integers(0, 30), st.integers(0, 30))
def test_contest_sums_to_one_and_is_symmetric(n, m):
    ab, ba = scifi.contest(Request(n), Request(m)), scifi.contest(Request(m), Request(n))
    assert abs(ab.p_win + ab.p_tie + ab.p_lose - 1) < 1e-9
    assert abs(ab.p_win - ba.p_lose) < 1e-12


# --- exact odds against icepool ---------------------------------------------------------------


@pytest.mark.parametrize("pool", range(1, 31))
def test_odds_agree_with_icepool(pool):
    oracle = oracle_pool(pool)
    for needed in range(0, 9):
        o = odds(Request(pool, needed))
        assert abs(o.p_success - float(oracle.probability(">=", needed))) < 1e-9
    o = odds(Request(pool))
    for value, p in zip(oracle.outcomes(), oracle.probabilities()):
        assert abs(o.distribution.p(value) - float(p)) < 1e-9
    assert abs(o.mean - float(oracle.mean())) < 1e-9


@pytest.mark.parametrize("pool", range(1, 31))
def test_fumble_odds_agree_with_icepool(pool):
    for needed in range(1, 6):
        assert abs(odds(Request(pool, needed)).p_fumble - oracle_p_fumble(pool, needed)) < 1e-9


def test_easy_with_skill_one_has_the_odds_of_common():
    for pool in (1, 4, 9):
        easy, common = odds(Request(pool, Difficulty.EASY, skill=1)), odds(Request(pool, Difficulty.COMMON))
        assert (easy.p_success, easy.p_fumble) == (common.p_success, common.p_fumble)
        assert abs(easy.p_fumble - oracle_p_fumble(pool, 1)) < 1e-9


@pytest.mark.parametrize("n", [1, 2, 4, 7, 12, 20, 30])
def test_contest_odds_agree_with_icepool(n):
    for m in (1, 3, 5, 8, 13, 21, 30):
        got = scifi.contest(Request(n), Request(m))
        a, b = oracle_pool(n), oracle_pool(m)
        assert abs(got.p_win - float((a > b).probability(True))) < 1e-9
        assert abs(got.p_lose - float((a < b).probability(True))) < 1e-9
        assert abs(got.p_tie - float((a == b).probability(True))) < 1e-9


def test_contest_odds_use_the_pools_after_modifiers():
    assert scifi.contest(Request(2, modifiers=(5,)), Request(4)).p_win == scifi.contest(Request(5), Request(4)).p_win


def test_unrolled_odds_are_certain():
    assert (odds(Request(3, "easy", skill=2)).p_success, odds(Request(3, "hard", skill=0)).p_success) == (1, 0)
    assert odds(Request(3, modifiers=(-3,))).p_success == 0


# --- extended actions ------------------------------------------------------------------------


def test_an_extended_roll_that_adds_nothing_with_a_first_die_of_one_is_a_fumble_and_resets():
    state = ExtendedState(goal=10, total=6, rolls=2)
    fumbled = scifi.advance_extended(state, scifi.read_roll(3, [1, 4, 5]))
    assert (fumbled.total, fumbled.rolls) == (0, 3)
    gained = scifi.advance_extended(state, scifi.read_roll(3, [1, 8, 9]))
    assert gained.total == 8


def test_extended_fumble_counts_successes_up_to_the_difficulty():
    assert scifi.extended_fumble(scifi.read_roll(3, [1, 8, 2]), difficulty=1)
    assert not scifi.extended_fumble(scifi.read_roll(3, [1, 8, 2]), difficulty=0)


@pytest.mark.parametrize("pool, difficulty", [(1, 0), (3, 0), (5, 1), (8, 2)])
def test_extended_ruin_odds_agree_with_icepool(pool, difficulty):
    # Goal 1: every roll completes (more than `difficulty` successes), is ruined (a fumble) or repeats.
    done = float(oracle_pool(pool).probability(">", difficulty))
    ruined = oracle_p_fumble(pool, difficulty + 1)
    got = scifi.extended(Request(pool), goal=1, difficulty=difficulty, policy=BotchPolicy.RUIN)
    assert abs(got.p_complete - done / (done + ruined)) < 1e-9
    assert abs(got.p_done_by[0] - done) < 1e-9


def test_extended_policies_order_the_chance_to_finish():
    by = {p: scifi.extended(Request(4), goal=8, policy=p, rolls=6).p_done_by[-1] for p in BotchPolicy}
    assert by[BotchPolicy.RUIN] < by[BotchPolicy.RESET] < by[BotchPolicy.IGNORE]


def test_extended_without_dice_never_finishes():
    assert scifi.extended(Request(2, modifiers=(-2,)), goal=3).expected_rolls is None


# --- the roller against the exact odds --------------------------------------------------------


def test_rolled_successes_fit_the_exact_distribution():
    request = Request(6, Difficulty.HARD, skill=2)
    rng = random.Random(20240601)
    observed = [scifi.roll(request, rng).successes for _ in range(25_000)]
    assert_fits(observed, odds(request).distribution.as_dict())


def test_rolled_outcomes_fit_the_exact_odds():
    request = Request(4, Difficulty.VERY_HARD, skill=3)
    rng = random.Random(77)
    observed = [scifi.roll(request, rng).outcome for _ in range(25_000)]
    o = odds(request)
    assert_fits(observed, {Outcome.SUCCESS: o.p_success, Outcome.FUMBLE: o.p_fumble,
                           Outcome.FAILURE: 1 - o.p_success - o.p_fumble})
    assert Counter(observed)[Outcome.FUMBLE] > 0


def test_rolled_contests_fit_the_exact_odds():
    a, b = Request(5), Request(3)
    rng = random.Random(4242)
    observed = [scifi.roll_opposed(a, b, rng).winner for _ in range(20_000)]
    c = scifi.contest(a, b)
    assert_fits(observed, {Side.FIRST: c.p_win, None: c.p_tie, Side.SECOND: c.p_lose})


# --- luck -------------------------------------------------------------------------------------


def oracle_ranks(n: int, needed: int) -> dict[int, float]:
    """P(each rank) from the whole roll: its successes, or -1 for a fumble (a failure whose first die is 1)."""
    rest = oracle_pool(n - 1) if n > 1 else icepool.Die([0])
    ranks = icepool.map(lambda first, others: -1 if first == -1 and others < needed else max(first, 0) + others,
                        FIRST_DIE, rest)
    return {rank: float(p) for rank, p in zip(ranks.outcomes(), ranks.probabilities()) if p > 1e-13}


def faces_scoring(dice: int, successes: int, first_one: bool) -> list[int]:
    """Faces in draw order scoring ``successes``, the first die a 1 if asked (its 1 scores nothing)."""
    pool = [1] if first_one else []
    rest = dice - len(pool)
    if successes <= rest:
        return pool + [7] * successes + [2] * (rest - successes)
    # Every other pool die a 10, the explosions 10s for the extra successes, then a 2 ending each run.
    return pool + [10] * rest + [10] * (successes - rest) + [2] * rest


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 4), st.integers(0, 6))
def test_luck_matches_every_rank_of_the_whole_roll(dice, needed):
    request = Request(pool=dice, difficulty=needed)
    outcomes = []
    for rank, chance in oracle_ranks(dice, needed).items():
        result = resolve(request, faces_scoring(dice, max(rank, 0), first_one=rank == -1))
        assert (result.outcome is Outcome.FUMBLE) == (rank == -1)
        outcomes.append((chance, rank, scifi.luck(request, result), {"fumble": rank == -1}))
    assert_luck_exact(outcomes, tol=1e-9)  # icepool explodes 12 deep: it leaves out ~1e-13


def test_a_fumble_ranks_below_a_failure_with_more_successes():
    request = Request(pool=5, difficulty=3)
    fumble, failure = (scifi.luck(request, resolve(request, faces)) for faces in ([1, 7, 8, 2, 2], [2, 2, 2, 2, 2]))
    assert fumble.percentile < failure.percentile and fumble.below == 0
    assert fumble.special("fumble").happened and fumble.special("fumble").prior == odds(request).p_fumble
    assert fumble.equal == pytest.approx(odds(request).p_fumble)


def test_a_roll_past_the_end_of_the_distribution_ranks_above_all_of_it():
    request = Request(pool=1)
    luck = scifi.luck(request, resolve(request, faces_scoring(1, 30, first_one=False)))
    assert luck.equal == 0 and luck.below == pytest.approx(1, abs=1e-14) and luck.band == "very_lucky"


def test_the_largest_pool_has_luck_at_every_difficulty():
    for needed in (0, 1, 50, 100):
        request = Request(pool=100, modifiers=(3,), difficulty=needed)
        result = scifi.roll(request, random.Random(needed))
        assert 0 < scifi.luck(request, result).percentile < 1


def test_unrolled_actions_have_no_luck():
    for request in (Request(pool=3, difficulty="easy"), Request(pool=3, difficulty="hard", skill=0), Request(pool=0)):
        assert scifi.luck(request, resolve(request)) is None


def test_luck_refuses_a_result_of_another_request():
    with pytest.raises(RulesError):
        scifi.luck(Request(pool=2), resolve(Request(pool=2, difficulty=2), [2, 2]))
