"""Exalted 2e: the seed's examples, RULES.md's facts, properties, and exact odds against icepool."""

import random
from fractions import Fraction
from functools import cache
from itertools import product
from math import prod

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import RulesError, roll_d10
from rules.exalted import (
    Action,
    Opposed,
    Outcome,
    Request,
    StuntReward,
    Willpower,
    automatic_success,
    contest,
    extended,
    luck,
    movement,
    multiple_action_penalties,
    odds,
    plan_turn,
    resolve,
    resolve_opposed,
    roll,
    second_chance_difficulty,
    stunt_rewards,
    teamwork,
    teamwork_odds,
)
from rules.extended import BotchPolicy, ExtendedState, advance
from tests.rules.stats import assert_fits, assert_luck_exact

TOL = 1e-9


def rolled(faces, difficulty=1, **kw):
    """A replay of ``faces`` as a plain pool of that many dice."""
    return resolve(Request(pool=len(faces), difficulty=difficulty, **kw), faces)


# --- the seed's examples -------------------------------------------------------------------


def test_seed_jump_into_the_oak_two_successes_at_difficulty_1():
    # The seed says "six dice" but lists seven faces; the faces are the example, so 7 dice.
    result = rolled([1, 4, 4, 6, 6, 7, 9])
    assert (result.successes, result.outcome, result.margin) == (2, Outcome.SUCCESS, 1)


def test_seed_jump_faces_must_match_the_dice_rolled():
    with pytest.raises(RulesError, match="expected 6 dice, got 7"):
        resolve(Request(pool=6), [1, 4, 4, 6, 6, 7, 9])


def test_seed_climb_with_the_soldier_meets_difficulty_3_exactly():
    result = rolled([1, 2, 4, 7, 7, 8], difficulty=3)
    assert (result.successes, result.outcome, result.margin) == (3, Outcome.SUCCESS, 0)


def test_seed_judging_the_distance_botches_with_one_1():
    result = rolled([1, 2, 3, 3, 4, 4, 4, 6])
    assert (result.successes, result.outcome, result.ones) == (0, Outcome.BOTCH, 1)
    assert [n.code for n in result.notes] == ["botch"]


def test_seed_leap_between_trees_two_tens_make_six_successes():
    result = rolled([1, 2, 4, 6, 8, 9, 10, 10], difficulty=4)
    assert (result.successes, result.outcome, result.margin) == (6, Outcome.SUCCESS, 2)
    assert dict(result.notes[0].params) == {"tens": 2}
    assert result.as_json()["notes"][-1] == {"code": "met", "text": "difficulty 4 met with 2 extra", "extra": 2}


def test_seed_extended_climb_completes_on_the_third_roll_with_11():
    state = ExtendedState(goal=10)
    totals = []
    for faces in ([1, 3, 3, 7, 8, 10], [2, 3, 3, 5, 5, 6, 9], [1, 1, 3, 7, 7, 10, 10]):
        result = rolled(faces, difficulty=0)
        state = advance(state, result.successes, result.botched)
        totals.append(state.total)
    assert totals == [4, 5, 11]
    assert state.done and state.rolls == 3


def test_seed_opposed_stealth_first_side_wins_by_1():
    opposed = resolve_opposed(rolled([1, 3, 5, 7, 8, 8]), rolled([3, 6, 8, 9]))
    assert (opposed.first.successes, opposed.second.successes) == (3, 2)
    assert (opposed.outcome, opposed.net) == (Opposed.WIN, 1)


def test_seed_teamwork_deciphering_gives_4_towards_5():
    koi, smith = rolled([1, 3, 4, 6, 7, 9, 9]), rolled([1, 1, 3, 6, 7])
    assert (koi.successes, smith.successes) == (3, 1)
    state = advance(ExtendedState(goal=5), teamwork([koi, smith]), botched=False)
    assert state.total == 4 and not state.done


def test_seed_three_actions_lose_3_4_and_5_dice():
    assert multiple_action_penalties(3) == (3, 4, 5)


def test_seed_a_stunt_does_not_revive_an_action_the_penalty_took_to_zero():
    # Seed 000: "Si el total de acciones reduce tu reserva para cualquier tarea a cero, esa acción
    # no podrá llevarse a cabo". Koi's three actions lose 3, 4, 5 dice: a pool of 4 keeps only the first.
    first, second, third = multiple_action_penalties(3)
    assert Request(pool=4, actions_penalty=first, stunt=2).dice == 3
    for penalty in (second, third):
        with pytest.raises(RulesError, match="cannot be taken") as refused:
            Request(pool=4, actions_penalty=penalty, stunt=3)
        assert refused.value.code == "actions_unrollable"
    # A wound penalty on top counts too; without the turn's penalty a stunt still adds its dice.
    with pytest.raises(RulesError, match="cannot be taken"):
        Request(pool=5, modifiers=(-1,), actions_penalty=4, stunt=2)
    assert Request(pool=1, modifiers=(-1,), stunt=2).dice == 2
    # The penalty shows among the dice modifiers, as it always did.
    result = resolve(Request(pool=6, actions_penalty=3, stunt=1), (7, 8, 1, 2))
    assert ("dice_modifier", -3) in [(n.code, dict(n.params).get("dice")) for n in result.notes]
    assert result.request.as_json()["actions_penalty"] == 3


def test_seed_the_drunk_guard_takes_successes_off_his_own_roll():
    # Seed 000: the drunk "podría restar un éxito o más de su tirada de Percepción".
    koi, guard = rolled([1, 3, 5, 7, 8, 8]), rolled([3, 8, 9, 9])  # 3 against 3: a tie
    assert resolve_opposed(koi, guard).outcome is Opposed.TIE
    drunk = resolve_opposed(koi, guard, second_penalty=1)
    assert (drunk.outcome, drunk.net) == (Opposed.WIN, 1)
    assert (drunk.as_json()["second_successes"], drunk.as_json()["second_penalty"]) == (2, 1)
    # Never below 0 successes; either side may be the one handicapped.
    assert resolve_opposed(koi, guard, second_penalty=9).net == 3
    assert resolve_opposed(koi, guard, first_penalty=2).outcome is Opposed.LOSE


@pytest.mark.parametrize(("a", "b", "first_penalty", "second_penalty"),
                         [(6, 4, 0, 1), (4, 6, 2, 0), (5, 5, 1, 3), (3, 8, 0, 20)])
def test_contest_odds_with_successes_taken_away_agree_with_icepool(a, b, first_penalty, second_penalty):
    def side(n: int, penalty: int):
        return (n @ icepool.Die([0] * 6 + [1] * 3 + [2])).map(lambda s: max(0, s - penalty))

    margin = side(a, first_penalty) - side(b, second_penalty)
    c = contest(Request(a), Request(b), first_penalty=first_penalty, second_penalty=second_penalty)
    p = {v: q / margin.denominator() for v, q in margin.items()}
    assert abs(c.p_win - sum(q for v, q in p.items() if v > 0)) < 1e-12
    assert abs(c.p_tie - p.get(0, 0.0)) < 1e-12
    assert abs(c.p_lose - sum(q for v, q in p.items() if v < 0)) < 1e-12
    with_willpower = contest(Request(a, willpower=True), Request(b), first_penalty=1)
    assert abs(with_willpower.p_win - contest(Request(a), Request(b)).p_win) < 1e-12  # +1 then −1


def test_seed_two_die_stunt_offers_2_motes_or_1_willpower():
    hit = resolve(Request(pool=4, stunt=2), [7, 2, 3, 4, 5, 6])
    assert stunt_rewards(hit) == (StuntReward(motes=2), StuntReward(willpower=1))


def test_seed_walk_run_and_sprint_distances():
    moves = movement(dexterity=3)
    assert (moves.walk, moves.run, moves.sprint) == (5, 15, 39)


def test_seed_half_the_run_still_allows_a_dice_action():
    moves = movement(dexterity=4)  # runs 16 m
    assert moves.allows_action(8) and not moves.allows_action(8.5)


def test_seed_willpower_roll_uses_permanent_dots_not_boxes():
    request = Willpower(permanent=7, temporary=3).roll_request()
    assert request.dice == 7


# --- RULES.md's facts -----------------------------------------------------------------------


@pytest.mark.parametrize(("face", "successes"), [(1, 0), (6, 0), (7, 1), (9, 1), (10, 2)])
def test_seven_to_nine_score_one_and_ten_scores_two(face, successes):
    assert rolled([face], difficulty=0).successes == successes


def test_default_difficulty_is_1():
    assert Request(pool=3).difficulty == 1
    assert rolled([7, 2, 2]).outcome is Outcome.SUCCESS


def test_short_of_the_difficulty_without_a_1_is_a_failure():
    result = rolled([7, 2, 2], difficulty=2)
    assert (result.outcome, result.margin) == (Outcome.FAILURE, -1)


def test_a_success_beside_ones_is_no_botch():
    result = rolled([1, 1, 7], difficulty=3)
    assert result.outcome is Outcome.FAILURE and result.ones == 2


def test_botch_severity_is_the_number_of_ones():
    result = rolled([1, 1, 1, 4])
    assert result.ones == 3 and result.notes[-1].text == "botch (3 ones)"


def test_willpower_adds_one_success_and_prevents_the_botch():
    result = rolled([1, 1, 3], willpower=True)
    assert (result.successes, result.outcome) == (1, Outcome.SUCCESS)
    assert "willpower" in [n.code for n in result.notes]


def test_difficulty_0_met_by_zero_successes_unless_it_botches():
    assert rolled([2, 3], difficulty=0).outcome is Outcome.SUCCESS
    assert rolled([1, 3], difficulty=0).outcome is Outcome.BOTCH


def test_penalties_remove_dice_and_stunts_add_them():
    request = Request(pool=6, stunt=2, modifiers=(-1, -4))
    assert request.dice == 3
    assert [n.code for n in resolve(request, [7, 7, 7]).notes][:2] == ["stunt", "dice_modifier"]


def test_a_pool_below_one_die_cannot_be_rolled():
    with pytest.raises(RulesError, match="cannot be rolled"):
        Request(pool=3, modifiers=(-4,))
    with pytest.raises(RulesError, match="cannot be rolled"):
        Request(pool=0)


@pytest.mark.parametrize(
    "kwargs",
    [{"pool": 101}, {"pool": -1}, {"pool": 5, "stunt": 4}, {"pool": 5, "difficulty": -1},
     {"pool": 5, "willpower": 1}, {"pool": 5, "modifiers": (1.5,)}, {"pool": 100, "modifiers": (101,)}],
)
def test_bad_requests_are_refused(kwargs):
    with pytest.raises(RulesError):
        Request(**kwargs)


def test_modifiers_given_as_a_list_are_kept_as_a_tuple():
    assert Request(pool=5, modifiers=[-1]).modifiers == (-1,)


def test_removing_two_dice_is_roughly_one_more_difficulty():
    worst = max(
        abs(odds(Request(pool=n + 2, difficulty=d + 1)).p_success - odds(Request(pool=n, difficulty=d)).p_success)
        for n in range(1, 29)
        for d in range(1, 6)
    )
    assert worst < 0.1


def test_stunt_rewards_motes_only_for_one_die_and_nothing_on_failure():
    assert stunt_rewards(resolve(Request(pool=1, stunt=1), [7, 2])) == (StuntReward(motes=1),)
    assert stunt_rewards(resolve(Request(pool=1, stunt=3), [2, 2, 2, 2])) == ()
    assert stunt_rewards(rolled([7, 7])) == ()


def test_automatic_success_only_where_the_pool_could_reach_the_difficulty():
    # Seven dice score at most 14 (every die a 10): difficulty 14 may be ruled met, 15 never.
    assert automatic_success(Request(pool=7, difficulty=14)).successes == 14
    with pytest.raises(RulesError) as refused:
        automatic_success(Request(pool=7, difficulty=15))
    assert refused.value.code == "automatic_unreachable"


def test_automatic_success_meets_the_difficulty_with_no_extra():
    result = automatic_success(Request(pool=7, difficulty=3))
    assert (result.faces, result.successes, result.margin, result.outcome) == ((), 3, 0, Outcome.SUCCESS)
    assert result.automatic and result.as_json()["faces"] == []


@pytest.mark.parametrize(
    ("request_", "stressful", "message"),
    [(Request(pool=6), False, "7 or more dice"), (Request(pool=9), True, "combat"),
     (Request(pool=9, willpower=True), False, "rolls nothing"),
     (Request(pool=7, difficulty=15), False, "can never reach difficulty 15")],
)
def test_automatic_success_is_refused(request_, stressful, message):
    with pytest.raises(RulesError, match=message):
        automatic_success(request_, stressful=stressful)


def test_opposed_equal_successes_is_a_tie():
    opposed = resolve_opposed(rolled([7, 2]), rolled([8, 3, 3]))
    assert (opposed.outcome, opposed.net) == (Opposed.TIE, 0)
    assert opposed.as_json()["notes"][0]["code"] == "opposed_tie"


def test_opposed_second_side_wins_with_net_successes():
    opposed = resolve_opposed(rolled([7]), rolled([10, 10, 8]))
    assert (opposed.outcome, opposed.net) == (Opposed.LOSE, 4)


def test_a_single_action_takes_no_penalty():
    assert multiple_action_penalties(1) == (0,)


def test_reflexive_actions_take_no_penalty_and_do_not_count():
    plan = plan_turn([Action(8), Action(5, reflexive=True), Action(6), Action(3)])
    assert [p.penalty for p in plan] == [3, 0, 4, 5]
    assert [p.allowed for p in plan] == [True, True, True, False]


def test_second_chances_add_one_per_earlier_failure_but_not_in_combat():
    assert second_chance_difficulty(1, 2) == 3
    assert second_chance_difficulty(1, 2, combat=True) == 1


def test_willpower_spend_uses_a_box():
    assert Willpower(7, 1).spend() == Willpower(7, 0)
    with pytest.raises(RulesError, match="no temporary Willpower"):
        Willpower(7, 0).spend()


# --- properties -----------------------------------------------------------------------------

requests = st.builds(
    Request,
    pool=st.integers(1, 20),
    difficulty=st.integers(0, 8),
    stunt=st.integers(0, 3),
    willpower=st.booleans(),
)


@st.composite
def requests_and_faces(draw):
    request = draw(requests)
    return request, draw(st.lists(st.integers(1, 10), min_size=request.dice, max_size=request.dice))


@given(requests_and_faces())
def test_resolve_is_consistent(case):
    request, faces = case
    result = resolve(request, faces)
    assert result.successes >= int(request.willpower)
    assert result.margin == result.successes - request.difficulty
    assert result.ones == faces.count(1)
    assert result.botched == (result.successes == 0 and result.ones > 0)
    if not result.botched:
        assert (result.outcome is Outcome.SUCCESS) == (result.margin >= 0)
    assert result.as_json()["faces"] == faces


@given(requests_and_faces())
def test_willpower_never_botches(case):
    request, faces = case
    spent = Request(request.pool, request.difficulty, request.stunt, True)
    assert resolve(spent, faces).outcome is not Outcome.BOTCH


@given(requests, st.integers(0, 2**32))
def test_roll_is_resolve_of_the_drawn_faces(request, seed):
    assert roll(request, random.Random(seed)) == resolve(request, roll_d10(request.dice, random.Random(seed)))


@given(requests_and_faces())
def test_wrong_number_of_faces_is_refused(case):
    request, faces = case
    with pytest.raises(RulesError):
        resolve(request, faces + [5])


@given(requests)
def test_odds_are_a_distribution(request):
    o = odds(request)
    assert abs(sum(o.distribution.probs) - 1) < TOL
    assert all(0 <= p <= 1 + TOL for p in (o.p_success, o.p_botch, o.p_failure))
    assert abs(o.p_success + o.p_botch + o.p_failure - 1) < TOL


@given(requests)
def test_more_dice_never_hurt_and_higher_difficulty_never_helps(request):
    if request.difficulty == 0:
        # At difficulty 0 only a botch fails, and a small pool's botch chance grows with its dice.
        request = Request(request.pool, 1, request.stunt, request.willpower)
    base = odds(request).p_success
    more = Request(request.pool + 1, request.difficulty, request.stunt, request.willpower)
    harder = Request(request.pool, request.difficulty + 1, request.stunt, request.willpower)
    assert odds(more).p_success >= base - TOL
    assert odds(harder).p_success <= base + TOL


@given(requests, requests)
def test_contest_is_symmetric(a, b):
    ab, ba = contest(a, b), contest(b, a)
    assert abs(ab.p_win + ab.p_tie + ab.p_lose - 1) < TOL
    assert abs(ab.p_win - ba.p_lose) < TOL and abs(ab.p_tie - ba.p_tie) < TOL


@given(requests_and_faces(), requests_and_faces())
def test_opposed_is_antisymmetric(a, b):
    first, second = resolve(*a), resolve(*b)
    ab, ba = resolve_opposed(first, second), resolve_opposed(second, first)
    assert ab.net == ba.net >= 0
    assert {ab.outcome, ba.outcome} in ({Opposed.TIE}, {Opposed.WIN, Opposed.LOSE})


@given(st.lists(st.tuples(st.integers(0, 30), st.booleans()), max_size=8))
def test_turn_penalties_climb_by_one_from_the_number_of_actions(actions):
    plan = plan_turn([Action(pool, reflexive) for pool, reflexive in actions])
    penalties = [p.penalty for p in plan if not p.action.reflexive]
    n = len(penalties)
    assert penalties == ([0] if n == 1 else list(range(n, 2 * n)))
    assert all(p.penalty == 0 for p in plan if p.action.reflexive)
    assert all(p.allowed == (p.dice >= 1) for p in plan)


@given(st.integers(0, 10), st.integers(0, 10))
def test_movement_grows_with_dexterity(dexterity, more):
    slow, fast = movement(dexterity), movement(dexterity + more)
    assert slow.walk == fast.walk == 5
    assert slow.run <= fast.run and slow.sprint <= fast.sprint
    assert slow.run_with_action < slow.run < slow.sprint


@given(requests, st.integers(1, 12), st.sampled_from(list(BotchPolicy)))
def test_extended_completion_only_grows(request, goal, policy):
    result = extended(request, goal, policy=policy, rolls=10)
    assert all(a <= b + TOL for a, b in zip(result.p_done_by, result.p_done_by[1:]))
    assert result.p_done_by[-1] <= result.p_complete + TOL


# --- exact odds against icepool --------------------------------------------------------------

# One die as (successes, is it a 1); a pool sums these vectors.
ICEPOOL_DIE = icepool.d10.map(lambda f: icepool.Vector((2 if f == 10 else 1 if f >= 7 else 0, int(f == 1))))


@cache
def icepool_roll(dice: int, willpower: bool) -> tuple[dict[int, Fraction], Fraction]:
    """icepool's exact successes distribution and botch chance (Fractions)."""
    pool = dice @ ICEPOOL_DIE
    total = pool.denominator()
    dist: dict[int, Fraction] = {}
    botch = Fraction(0)
    for (successes, ones), quantity in pool.items():
        successes += willpower
        p = Fraction(quantity, total)
        dist[successes] = dist.get(successes, 0) + p
        if successes == 0 and ones:
            botch += p
    return dist, botch


@pytest.mark.parametrize("willpower", [False, True])
@pytest.mark.parametrize("stunt", [0, 1, 2, 3])
@pytest.mark.parametrize("pool", range(1, 31))
def test_odds_agree_with_icepool(pool, stunt, willpower):
    dist, botch = icepool_roll(pool + stunt, willpower)
    for difficulty in range(0, 9):
        o = odds(Request(pool, difficulty, stunt, willpower))
        success = sum(p for s, p in dist.items() if s >= difficulty) - (botch if difficulty == 0 else 0)
        assert abs(o.p_success - float(success)) < TOL
        assert abs(o.p_botch - float(botch)) < TOL
    assert abs(o.mean - float(sum(s * p for s, p in dist.items()))) < TOL
    assert o.distribution.as_dict().keys() <= dist.keys()
    assert all(abs(o.distribution.p(s) - float(p)) < TOL for s, p in dist.items())


def test_odds_agree_with_icepool_through_modifiers():
    o = odds(Request(pool=9, difficulty=2, stunt=1, modifiers=(-4, 1)))
    dist, botch = icepool_roll(7, False)
    assert abs(o.p_success - float(sum(p for s, p in dist.items() if s >= 2))) < TOL
    assert abs(o.p_botch - float(botch)) < TOL


def icepool_successes(dice: int, willpower: bool) -> icepool.Die:
    return (dice @ ICEPOOL_DIE.map(lambda v: v[0])) + int(willpower)


@pytest.mark.parametrize(("wp_a", "wp_b"), [(False, False), (True, False), (False, True), (True, True)])
def test_contest_agrees_with_icepool(wp_a, wp_b):
    for a in range(1, 16, 2):
        for b in range(1, 16, 3):
            got = contest(Request(a, willpower=wp_a), Request(b, willpower=wp_b))
            margin = icepool_successes(a, wp_a) - icepool_successes(b, wp_b)
            assert abs(got.p_win - float(margin.probability(">", 0))) < TOL
            assert abs(got.p_tie - float(margin.probability("==", 0))) < TOL
            assert abs(got.p_lose - float(margin.probability("<", 0))) < TOL


def test_contest_agrees_with_icepool_at_thirty_dice():
    got = contest(Request(30), Request(27, stunt=3))
    margin = icepool_successes(30, False) - icepool_successes(30, False)
    assert abs(got.p_tie - float(margin.probability("==", 0))) < TOL
    assert abs(got.p_win - got.p_lose) < TOL


def _solve(matrix: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction]:
    """Gauss–Jordan elimination on exact fractions (the matrix is I − Q, invertible)."""
    n = len(rhs)
    rows = [row[:] + [b] for row, b in zip(matrix, rhs)]
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        rows[col] = [x / rows[col][col] for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col])]
    return [row[n] for row in rows]


def markov_oracle(dice, willpower, goal, difficulty, policy, rolls, progress):
    """Extended odds from icepool's per-roll joint distribution and a plain absorbing Markov chain.

    Transient states are the totals 0..goal-1; absorbing states are "done" and (under ruin)
    "ruined". With N = (I − Q)⁻¹: P(complete) = N·r and E[rolls · 1{complete}] = N·P(complete).
    """
    dist, botch = icepool_roll(dice, willpower)
    moves = [(p - (botch if s == 0 else 0), max(0, s - difficulty)) for s, p in dist.items()]
    moves.append((botch, {"reset": "reset", "ruin": "ruin", "ignore": 0}[policy.value]))

    def successors(i):
        for p, move in moves:
            if move == "ruin" or not p:
                continue
            yield p, (0 if move == "reset" else min(goal, i + move))

    start = min(progress, goal)
    # p_done_by: push the state distribution forward roll by roll.
    mass = {start: Fraction(1)}
    done_by = []
    for _ in range(rolls):
        nxt: dict[int, Fraction] = {}
        for i, m in mass.items():
            if i == goal:
                nxt[goal] = nxt.get(goal, 0) + m
                continue
            for p, j in successors(i):
                nxt[j] = nxt.get(j, 0) + m * p
        mass = nxt
        done_by.append(mass.get(goal, Fraction(0)))
    if start == goal:
        return 0.0, 1.0, done_by
    if not any(p and isinstance(gain, int) and gain > 0 for p, gain in moves):
        return None, 0.0, done_by
    q = [[Fraction(int(i == j)) for j in range(goal)] for i in range(goal)]
    r = [Fraction(0)] * goal
    for i in range(goal):
        for p, j in successors(i):
            if j == goal:
                r[i] += p
            else:
                q[i][j] -= p
    complete = _solve(q, r)
    weighted = _solve(q, complete)
    return weighted[start] / complete[start], complete[start], done_by


EXTENDED_GRID = [
    (pool, willpower, goal, difficulty)
    for pool in (1, 3, 6, 10)
    for willpower in (False, True)
    for goal in (1, 4, 9)
    for difficulty in (0, 1, 2)
]


@pytest.mark.parametrize("policy", list(BotchPolicy))
def test_extended_odds_agree_with_icepool_and_a_markov_chain(policy):
    for pool, willpower, goal, difficulty in EXTENDED_GRID:
        for progress in (0, goal // 2):
            got = extended(Request(pool, willpower=willpower), goal, difficulty, policy, rolls=12, progress=progress)
            expected, complete, done_by = markov_oracle(pool, willpower, goal, difficulty, policy, 12, progress)
            case = (pool, willpower, goal, difficulty, progress)
            assert abs(got.p_complete - float(complete)) < TOL, case
            assert all(abs(a - float(b)) < TOL for a, b in zip(got.p_done_by, done_by, strict=True)), case
            if expected is None:
                assert got.expected_rolls is None, case
            else:
                assert abs(got.expected_rolls - float(expected)) <= TOL * max(1.0, float(expected)), case


def test_extended_policy_may_be_given_by_name():
    assert extended(Request(5), 6, policy="ruin") == extended(Request(5), 6, policy=BotchPolicy.RUIN)


def test_extended_ignores_the_requests_own_difficulty():
    assert extended(Request(5, difficulty=4), 6) == extended(Request(5, difficulty=0), 6)


# --- the roller against the exact odds -------------------------------------------------------


@pytest.mark.parametrize(
    "request_",
    [Request(pool=6, difficulty=2), Request(pool=4, difficulty=3, stunt=2, willpower=True, modifiers=(-1,))],
    ids=["plain", "stunt-willpower-penalty"],
)
def test_roller_fits_the_exact_odds(request_):
    rng = random.Random(20_240_601)
    samples = [(r.outcome.value, r.successes) for r in (roll(request_, rng) for _ in range(25_000))]
    o = odds(request_)
    expected = {}
    for successes, p in o.distribution.as_dict().items():
        if successes == 0:
            p -= o.p_botch
            expected[("botch", 0)] = o.p_botch
        verdict = Outcome.SUCCESS if successes >= request_.difficulty else Outcome.FAILURE
        expected[(verdict.value, successes)] = p
    assert_fits(samples, {k: p for k, p in expected.items() if p > 0})


# --- teamwork odds --------------------------------------------------------------------------------

@pytest.mark.parametrize("lead_pool, helper_pools, difficulty, willpower", [
    (2, (2,), 1, False), (2, (1, 1), 2, False), (1, (2,), 0, False), (3, (1,), 3, True), (1, (), 1, False),
])
def test_teamwork_odds_match_every_outcome(lead_pool, helper_pools, difficulty, willpower):
    """Brute force over every face of every die: the team's total against the lead's difficulty, and
    a botch only when the total is zero and the lead rolled a 1."""
    from itertools import product

    lead = Request(pool=lead_pool, difficulty=difficulty, willpower=willpower)
    helpers = [Request(pool=p, difficulty=0) for p in helper_pools]

    def hits(faces):
        return sum(2 if f == 10 else 1 if f >= 7 else 0 for f in faces)

    success = botch = 0.0
    dice = lead_pool + sum(helper_pools)
    for faces in product(range(1, 11), repeat=dice):
        lead_faces, rest = faces[:lead_pool], faces[lead_pool:]
        total = hits(lead_faces) + int(willpower) + hits(rest)
        botched = total == 0 and 1 in lead_faces
        botch += botched
        success += total >= difficulty and not botched
    n = 10 ** dice
    team = teamwork_odds(lead, helpers)
    assert team.p_success == pytest.approx(success / n, abs=1e-12)
    assert team.p_botch == pytest.approx(botch / n, abs=1e-12)
    assert team.p_success + team.p_failure + team.p_botch == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("lead_pool, helper_pools, opponent_pool, penalties, willpower", [
    (2, (1,), 2, (0, 0), False), (1, (1, 1), 2, (0, 0), True), (2, (2,), 1, (1, 0), False), (1, (), 2, (0, 1), False),
])
def test_a_team_in_a_contest_matches_every_outcome(lead_pool, helper_pools, opponent_pool, penalties, willpower):
    """A team on the first side of a contest: its total (each helper rolling apart) against the other
    side's successes, by brute force over every face of every die (the walkthrough's opposed
    teamwork roll was priced and judged without its helper)."""
    from itertools import product

    def hits(faces):
        return sum(2 if f == 10 else 1 if f >= 7 else 0 for f in faces)

    first_dice = lead_pool + sum(helper_pools)
    win = tie = 0
    for faces in product(range(1, 11), repeat=first_dice + opponent_pool):
        ours = max(0, hits(faces[:first_dice]) + int(willpower) - penalties[0])
        theirs = max(0, hits(faces[first_dice:]) - penalties[1])
        win += ours > theirs
        tie += ours == theirs
    n = 10 ** (first_dice + opponent_pool)
    odds_ = contest(Request(pool=lead_pool, willpower=willpower), Request(pool=opponent_pool), *penalties,
                    helpers=[Request(pool=p, difficulty=0) for p in helper_pools])
    assert (odds_.p_win, odds_.p_tie) == (pytest.approx(win / n, abs=1e-12), pytest.approx(tie / n, abs=1e-12))


def test_teamwork_without_helpers_is_the_lead_alone():
    lead = Request(pool=6, difficulty=2)
    alone, team = odds(lead), teamwork_odds(lead, [])
    assert (team.p_success, team.p_botch, team.distribution.as_dict()) == (alone.p_success, alone.p_botch,
                                                                            alone.distribution.as_dict())


# --- luck -------------------------------------------------------------------------------------

# A face for each thing a die can do, with its chance: a 1, another failure, a success, a 10.
FACES_BY_KIND = ((1, 0.1), (2, 0.5), (7, 0.3), (10, 0.1))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 4), st.integers(0, 1), st.integers(0, 6), st.booleans())
def test_luck_matches_every_roll_of_the_request(pool, stunt, difficulty, willpower):
    request = Request(pool=pool, stunt=stunt, difficulty=difficulty, willpower=willpower)
    outcomes = []
    for dice in product(FACES_BY_KIND, repeat=request.dice):
        result = resolve(request, [face for face, _ in dice])
        rank = -1 if result.botched else result.successes  # a botch below every other roll
        outcomes.append((prod(p for _, p in dice), rank, luck(request, result), {"botch": result.botched}))
    assert_luck_exact(outcomes)


def test_a_botch_ranks_below_a_plain_failure_and_says_its_chance():
    request = Request(pool=3)
    botch, failure = luck(request, resolve(request, [1, 2, 3])), luck(request, resolve(request, [2, 3, 4]))
    assert botch.below == 0 and botch.equal == pytest.approx(0.6**3 - 0.5**3)
    assert failure.below == pytest.approx(botch.equal)
    assert botch.special("botch").happened and not failure.special("botch").happened
    assert botch.special("botch").prior == pytest.approx(odds(request).p_botch)


def test_willpower_and_a_stunt_are_part_of_the_request_ranked_against():
    # Rolled with a 2-die stunt and Willpower: 5 dice and a success before the dice.
    request = Request(pool=3, stunt=2, willpower=True)
    result = resolve(request, [2, 3, 4, 5, 7])
    assert luck(request, result).below == pytest.approx(odds(request).distribution.p_below(2))
    assert luck(request, result).special("botch").prior == 0.0


def test_an_automatic_success_has_no_luck():
    request = Request(pool=8)
    assert luck(request, automatic_success(request)) is None


def test_luck_refuses_a_result_of_another_request():
    with pytest.raises(RulesError):
        luck(Request(pool=3), resolve(Request(pool=3, difficulty=2), [1, 2, 3]))
