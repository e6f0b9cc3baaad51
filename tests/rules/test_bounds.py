"""Issue 11, items 1, 2 and 5: every input bounded, the explosion tail never counted as success,
every probability in [0, 1] and every distribution summing to 1.

The oracles here take other routes than the engine: exact fractions convolved die by die for
scifi, and a plain float walk over every state for the extended actions.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import exalted, fate, scifi, v5
from rules.cli import main
from rules.dice import RulesError
from rules.dist import Distribution
from rules.extended import MAX_GOAL, MAX_ROLLS, MAX_TUG_ROUNDS, extended_odds, race_odds, tug_of_war_odds

# --- item 1: bounds --------------------------------------------------------------------------


@pytest.mark.parametrize("argv, option", [
    ("odds scifi --pool 3 --difficulty 99999999999999999999", "--difficulty"),
    ("odds scifi --pool 1 --difficulty 1000000000000", "--difficulty"),
    ("odds scifi --pool 1 --difficulty 101", "--difficulty"),
    ("odds exalted --pool 1 --difficulty 101", "--difficulty"),
    ("odds v5 --pool 1 --difficulty 101", "--difficulty"),
    ("odds fate --bonus 1 --difficulty 51", "--difficulty"),
    ("odds exalted --pool 101", "--pool"),
    ("odds exalted --pool 5 --modifier 101", "--modifier"),
    ("odds scifi --pool 5 --modifier=-101", "--modifier"),
    ("odds v5 --pool 5 --modifier 101", "--modifier"),
    ("odds scifi --pool 5 --skill 101", "--skill"),
    ("odds exalted --pool 5 --stunt 4", "--stunt"),
    ("odds v5 --pool 5 --hunger 6", "--hunger"),
    ("odds fate --bonus 51", "--bonus"),
    ("roll exalted --pool 5 --times 1000001", "--times"),
    ("extended exalted --pool 100 --goal 10000 --rolls 10000", "--goal"),
    ("extended exalted --pool 100 --goal 200 --rolls 1001", "--rolls"),
    ("extended exalted --pool 10 --goal 20 --difficulty 101", "--difficulty"),
    ("extended exalted --pool 10 --goal 20 --progress 21", "--progress"),
    ("extended exalted --pool 10 --goal 201 --tug --vs 10", "--goal"),
    ("extended exalted --pool 10 --goal 20 --tug --vs 10 --rolls 501", "--rolls"),
])
def test_out_of_bounds_input_is_refused_naming_the_option(argv, option, capsys):
    assert main(argv.split()) == 2
    err = capsys.readouterr().err
    assert option in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_the_largest_accepted_inputs_answer(capsys):
    # Timed in `make bench`; here only that they are accepted and answer sanely.
    for argv in ("extended exalted --pool 100 --goal 200 --rolls 1000 --difficulty 100",
                 "extended scifi --pool 1 --goal 200 --rolls 1000 --difficulty 100 --botch ruin",
                 "odds scifi --pool 100 --difficulty 100", "odds v5 --pool 100 --hunger 5 --difficulty 100"):
        assert main(argv.split()) == 0, argv
    capsys.readouterr()


@pytest.mark.parametrize("call", [
    lambda: exalted.Request(pool=5, difficulty=101),
    lambda: v5.Request(pool=5, difficulty=101),
    lambda: scifi.Request(pool=5, difficulty=101),
    lambda: scifi.Request(pool=5, skill=101),
    lambda: scifi.Request(pool=5, modifiers=(10**30,)),
    lambda: exalted.Request(pool=5, modifiers=(-101,)),
    lambda: exalted.extended(exalted.Request(pool=5), goal=MAX_GOAL + 1),
    lambda: exalted.extended(exalted.Request(pool=5), goal=10, rolls=MAX_ROLLS + 1),
    lambda: scifi.extended(scifi.Request(pool=5), goal=10, difficulty=101),
    lambda: tug_of_war_odds(Distribution((0.5, 0.5), -1), MAX_GOAL + 1),
    lambda: tug_of_war_odds(Distribution((0.5, 0.5), -1), 5, rounds=MAX_TUG_ROUNDS + 1),
])
def test_the_python_api_has_the_same_bounds(call):
    with pytest.raises(RulesError):
        call()


# --- item 2: scifi's explosion tail ----------------------------------------------------------


def scifi_oracle(dice: int, top: int) -> list[Fraction]:
    """P(S = s) for s < top, exact: one die scores s with (1/10)^s·6/10 + (1/10)^(s-1)·3/10."""
    die = [Fraction(6, 10)] + [Fraction(1, 10) ** s * Fraction(6, 10) + Fraction(1, 10) ** (s - 1) * Fraction(3, 10)
                               for s in range(1, top)]
    total = [Fraction(1)] + [Fraction(0)] * (top - 1)
    for _ in range(dice):
        total = [sum(total[i] * die[s - i] for i in range(s + 1)) for s in range(top)]
    return total


def p_at_least_oracle(dice: int, needed: int) -> Fraction:
    return 1 - sum(scifi_oracle(dice, needed), Fraction(0))


@pytest.mark.parametrize("dice, needed", [(3, 40), (1, 1000 // 10), (2, 17), (5, 3), (10, 25), (1, 1)])
def test_scifi_success_far_beyond_reach_is_the_exact_tiny_chance(dice, needed):
    # Issue 11, item 2: `odds scifi --pool 3 --difficulty 40` said 5.9e-13, the cut-off tail.
    exact = float(p_at_least_oracle(dice, needed))
    assert scifi.odds(scifi.Request(pool=dice, difficulty=needed)).p_success == pytest.approx(exact, rel=1e-9)


def test_scifi_fumble_odds_match_the_oracle():
    rest = scifi_oracle(2, 4)
    assert scifi.odds(scifi.Request(pool=3, difficulty=4)).p_fumble == pytest.approx(float(sum(rest) / 10), rel=1e-12)


def test_scifi_contest_reports_the_tail_apart():
    odds = scifi.contest(scifi.Request(pool=30), scifi.Request(pool=30))
    assert 0 <= odds.tail < 1e-14
    assert odds.p_win + odds.p_tie + odds.p_lose + odds.tail == pytest.approx(1, abs=1e-15)


def test_an_unreachable_scifi_extended_goal_is_not_completed_by_the_tail():
    # Each roll must score 41 or more to add anything: the exact chance, not the cut-off tail.
    odds = scifi.extended(scifi.Request(pool=3), goal=10, difficulty=40, rolls=3)
    # The walk's masses are counts of 2**-64: the chance within 3 rolls (~1e-45) reads 0, not 1e-12.
    assert odds.p_done_by == (0.0, 0.0, 0.0)
    # The expected rolls are solved in floating point from the exact per-roll chances.
    assert odds.expected_rolls > 1 / float(p_at_least_oracle(3, 41)) > 1e35  # not 1.7e12


def test_scifi_extended_matches_a_float_walk_oracle():
    request = scifi.Request(pool=2)
    per_roll = scifi_oracle(2, 12)
    fumble = [Fraction(1, 10) * p for p in scifi_oracle(1, 2)]  # first die 1, the other adds <= difficulty 1
    goal, difficulty, rolls = 6, 1, 8
    # Walk: gain = max(0, s - 1); a fumble (first die 1 and s <= 1) resets.
    state = {0: Fraction(1)}
    done, done_by = Fraction(0), []
    for _ in range(rolls):
        nxt: dict[int, Fraction] = {}
        for total, mass in state.items():
            for s, p in enumerate(per_roll):
                if s <= difficulty:
                    p -= fumble[s]
                    nxt[0] = nxt.get(0, Fraction(0)) + mass * fumble[s]
                reached = total + max(0, s - difficulty)
                if reached >= goal:
                    done += mass * p
                else:
                    nxt[reached] = nxt.get(reached, Fraction(0)) + mass * p
            done += mass * (1 - sum(per_roll))  # 12 or more successes: done
        state, done_by = nxt, done_by + [done]
    odds = scifi.extended(request, goal=goal, difficulty=difficulty, rolls=rolls)
    assert odds.p_done_by == pytest.approx([float(x) for x in done_by], abs=1e-13)


# --- the fast walk against a plain float walk --------------------------------------------------


def plain_tug(margin: Distribution, lead: int, rounds: int) -> list[tuple[float, float]]:
    width, state, p1, p2, out = 2 * lead - 1, None, 0.0, 0.0, []
    state = [0.0] * width
    state[lead - 1] = 1.0
    for _ in range(rounds):
        nxt = [0.0] * width
        for i, mass in enumerate(state):
            for k, p in enumerate(margin.probs):
                j = i + margin.offset + k
                if j >= width:
                    p1 += mass * p
                elif j < 0:
                    p2 += mass * p
                else:
                    nxt[j] += mass * p
        state = nxt
        out.append((p1, p2))
    return out


def test_a_large_tug_of_war_matches_the_plain_walk():
    margin = exalted.contest(exalted.Request(pool=40, difficulty=0), exalted.Request(pool=35, difficulty=0)).margin
    odds = tug_of_war_odds(margin, 25, rounds=30)
    for t, (p1, p2) in enumerate(plain_tug(margin, 25, 30)):
        assert (odds.p_first_by[t], odds.p_second_by[t]) == pytest.approx((p1, p2), abs=1e-13)


def test_a_large_extended_action_matches_the_plain_walk():
    request = exalted.Request(pool=30, difficulty=0)
    odds = exalted.extended(request, goal=120, policy="reset", rolls=40)
    dist, p_botch = exalted.successes_distribution(request), exalted._p_botch(request)
    state, done, out = [1.0] + [0.0] * 119, 0.0, []
    for _ in range(40):
        nxt = [0.0] * 120
        for i, mass in enumerate(state):
            for s, p in enumerate(dist.probs):
                p = p - p_botch if s == 0 else p
                if i + s >= 120:
                    done += mass * p
                else:
                    nxt[i + s] += mass * p
            nxt[0] += mass * p_botch
        state = nxt
        out.append(done)
    assert odds.p_done_by == pytest.approx(out, abs=1e-13)


# --- item 5: probabilities in [0, 1], distributions summing to 1 -------------------------------


def check_odds(answer: dict) -> None:
    for key, value in answer.items():
        if key.startswith("p_") and isinstance(value, float):
            assert 0.0 <= value <= 1.0, (key, value)
    if "distribution" in answer:
        total = sum(answer["distribution"].values()) + answer.get("tail", 0.0)
        assert abs(total - 1) <= 1e-12, total


def test_v5_p_win_never_passes_one():
    # Issue 11, item 5: this gave p_win 1.0000000000000027.
    odds = v5.odds(v5.Request(pool=100, hunger=5, difficulty=1))
    assert odds.p_win <= 1.0
    check_odds(odds.as_json())


pools = st.integers(0, 100)
d10_difficulty = st.integers(0, 100)


@st.composite
def any_odds(draw) -> dict:
    game = draw(st.sampled_from(["exalted", "scifi", "v5", "fate"]))
    if game == "exalted":
        request = exalted.Request(pool=draw(st.integers(1, 100)), difficulty=draw(d10_difficulty),
                                  stunt=draw(st.integers(0, 3)), willpower=draw(st.booleans()))
        return draw(st.sampled_from([exalted.odds, lambda r: exalted.contest(r, exalted.Request(pool=r.pool))]))(request).as_json()
    if game == "scifi":
        request = scifi.Request(pool=draw(pools), difficulty=draw(d10_difficulty))
        return draw(st.sampled_from([scifi.odds, lambda r: scifi.contest(r, scifi.Request(pool=r.pool))]))(request).as_json()
    if game == "v5":
        request = v5.Request(pool=draw(pools), hunger=draw(st.integers(0, 5)), difficulty=draw(st.integers(1, 100)))
        return draw(st.sampled_from([v5.odds, lambda r: v5.contest(r, v5.Request(pool=r.pool))]))(request).as_json()
    request = fate.Request(bonus=draw(st.integers(-50, 50)), difficulty=draw(st.integers(-50, 50)))
    return draw(st.sampled_from([fate.odds, lambda r: fate.contest(r, fate.Request(bonus=0))]))(request).as_json()


@settings(max_examples=150, deadline=None)
@given(any_odds())
def test_every_games_odds_are_probabilities_and_sum_to_one(answer):
    check_odds(answer)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["exalted", "scifi", "v5"]), st.integers(0, 100), st.integers(1, 60), st.integers(0, 30),
       st.sampled_from(["reset", "ruin", "ignore"]))
def test_extended_odds_stay_probabilities(game, pool, goal, difficulty, policy):
    module = {"exalted": exalted, "scifi": scifi, "v5": v5}[game]
    if game == "exalted" and pool == 0:
        pool = 1
    odds = module.extended(module.Request(pool=pool), goal=goal, difficulty=difficulty, policy=policy, rolls=30)
    assert all(0.0 <= p <= 1.0 for p in odds.p_done_by) and 0.0 <= odds.p_complete <= 1.0
    assert list(odds.p_done_by) == sorted(odds.p_done_by)
    assert odds.p_done_by[-1] <= odds.p_complete + 1e-12


def test_race_and_tug_odds_stay_probabilities():
    one = extended_odds(Distribution((0.2, 0.5, 0.3)), 0.0, goal=10, rolls=50)
    race = race_odds(one, one)
    assert race.p_first_by[-1] + race.p_second_by[-1] + race.p_tie_by[-1] <= 1.0 + 1e-12
    tug = tug_of_war_odds(Distribution((0.3, 0.4, 0.3), -1), 5, rounds=200)
    assert 0.0 <= tug.p_first_by[-1] + tug.p_second_by[-1] <= 1.0
