"""Extended actions: the state machine and its exact odds against an independent oracle.

The oracle builds the full transition matrix with exact fractions and solves it by Gaussian
elimination and repeated multiplication, a different route from the engine's recursions.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import RulesError
from rules.dist import Distribution
from rules.extended import BotchPolicy, ExtendedState, advance, botch_policy, extended_odds, gain


def test_gain_subtracts_the_difficulty_and_never_goes_negative():
    assert (gain(4), gain(4, 1), gain(1, 3)) == (4, 3, 0)


def test_reset_policy_sends_the_total_back_to_zero():
    s = advance(ExtendedState(goal=10, total=7, rolls=2), 0, botched=True)
    assert (s.total, s.rolls, s.ruined) == (0, 3, False)


def test_ruin_policy_ends_the_task():
    s = advance(ExtendedState(goal=10, total=7), 0, botched=True, policy=BotchPolicy.RUIN)
    assert s.ruined and s.over and not s.done
    with pytest.raises(RulesError, match="ruined"):
        advance(s, 3, botched=False)


def test_ignore_policy_keeps_the_total():
    assert advance(ExtendedState(goal=10, total=7), 0, botched=True, policy=BotchPolicy.IGNORE).total == 7


def test_a_finished_task_takes_no_more_rolls():
    with pytest.raises(RulesError, match="complete"):
        advance(ExtendedState(goal=3, total=3), 1, botched=False)


def test_unknown_policy_is_refused():
    with pytest.raises(RulesError):
        botch_policy("sometimes")


def oracle(per_roll: list[Fraction], p_botch: Fraction, goal: int, difficulty: int, policy: BotchPolicy, rolls: int):
    """States 0..goal-1, then `done` (goal) and `ruined` (goal+1); exact fractions throughout."""
    size = goal + 2
    T = [[Fraction(0)] * size for _ in range(size)]
    T[goal][goal] = T[goal + 1][goal + 1] = Fraction(1)
    for i in range(goal):
        for s, p in enumerate(per_roll):
            T[i][min(goal, i + max(0, s - difficulty))] += p
        target = {BotchPolicy.RESET: 0, BotchPolicy.RUIN: goal + 1, BotchPolicy.IGNORE: i}[policy]
        T[i][target] += p_botch
    row = [Fraction(1)] + [Fraction(0)] * (size - 1)
    done_by = []
    for _ in range(rolls):
        row = [sum(row[i] * T[i][j] for i in range(size)) for j in range(size)]
        done_by.append(row[goal])
    # P(complete) and E[rolls · 1{complete}] by solving (I - Q) x = b over the transient states.
    Q = [[T[i][j] for j in range(goal)] for i in range(goal)]
    P = solve([[(i == j) - Q[i][j] for j in range(goal)] for i in range(goal)], [T[i][goal] for i in range(goal)])
    M = solve([[(i == j) - Q[i][j] for j in range(goal)] for i in range(goal)], P)
    return done_by, P[0], (M[0] / P[0] if P[0] else None)


def solve(A, b):
    n = len(b)
    A = [row[:] + [b[i]] for i, row in enumerate(A)]
    for c in range(n):
        pivot = next((r for r in range(c, n) if A[r][c] != 0), None)
        if pivot is None:
            return [Fraction(0)] * n
        A[c], A[pivot] = A[pivot], A[c]
        for r in range(n):
            if r != c and A[r][c] != 0:
                f = A[r][c] / A[c][c]
                A[r] = [x - f * y for x, y in zip(A[r], A[c])]
    return [A[i][n] / A[i][i] for i in range(n)]


# A small die-like per-roll distribution: weights for 0..3 successes, botch weight apart.
weights = st.lists(st.integers(0, 5), min_size=2, max_size=4).filter(lambda w: sum(w[1:]) > 0)


@given(weights, st.integers(0, 4), st.integers(1, 7), st.integers(0, 1), st.sampled_from(list(BotchPolicy)))
def test_odds_match_the_exact_oracle(w, botch_weight, goal, difficulty, policy):
    total = sum(w) + botch_weight
    per_roll = [Fraction(x, total) for x in w]
    p_botch = Fraction(botch_weight, total)
    done_by, p_complete, expected = oracle(per_roll, p_botch, goal, difficulty, policy, 6)
    odds = extended_odds(Distribution(tuple(map(float, per_roll))), float(p_botch), goal, difficulty, policy, rolls=6)
    assert odds.p_done_by == pytest.approx([float(x) for x in done_by], abs=1e-12)
    assert odds.p_complete == pytest.approx(float(p_complete), abs=1e-12)
    if expected is None or max(0, len(w) - 1 - difficulty) == 0:
        assert odds.expected_rolls is None
    else:
        assert odds.expected_rolls == pytest.approx(float(expected), rel=1e-9)


def test_a_task_that_cannot_progress_never_finishes():
    odds = extended_odds(Distribution((0.5, 0.5)), 0.0, goal=3, difficulty=1)
    assert odds.expected_rolls is None and odds.p_complete == 0 and odds.p_done_by[-1] == 0


def test_progress_already_made_shortens_the_task():
    d = Distribution((0.5, 0.5))
    assert extended_odds(d, 0.0, goal=4, progress=3).expected_rolls == pytest.approx(2.0)
    assert extended_odds(d, 0.0, goal=4, progress=4).p_done_by[0] == 1.0


# --- extended opposed -----------------------------------------------------------------------

from rules.dist import contest  # noqa: E402
from rules.extended import TugOfWar, race_odds, race_winner, tug_of_war_odds  # noqa: E402


def brute_race(d1: Distribution, d2: Distribution, goal: int, rounds: int, rule: str = "tie", difficulty: int = 0,
               start: tuple[int, int] = (0, 0)):
    """Enumerate joint totals round by round (no botches): an independent route to the answer.
    A dead heat under ``roll`` goes to the one that rolled more on that roll; under ``rolloff``
    both roll again until one rolls more, enumerated as a geometric series of roll-offs."""
    states = {start: 1.0}
    p1 = p2 = tie = 0.0
    out = []
    win = sum(pa * pb for i, pa in enumerate(d1.probs) for j, pb in enumerate(d2.probs) if i > j)
    lose = sum(pa * pb for i, pa in enumerate(d1.probs) for j, pb in enumerate(d2.probs) if i < j)
    level = 1.0 - win - lose
    for _ in range(rounds):
        nxt: dict[tuple[int, int], float] = {}
        for (a, b), m in states.items():
            for i, pa in enumerate(d1.probs):
                for j, pb in enumerate(d2.probs):
                    na, nb = min(goal, a + max(0, i - difficulty)), min(goal, b + max(0, j - difficulty))
                    p = m * pa * pb
                    if na >= goal and nb >= goal and rule == "roll" and i != j:
                        p1, p2 = (p1 + p, p2) if i > j else (p1, p2 + p)
                    elif na >= goal and nb >= goal and rule == "rolloff" and level < 1:
                        # sum over n roll-offs level, then one decided: level**n * win, 1/(1-level) in all
                        p1, p2 = p1 + p * win / (1 - level), p2 + p * lose / (1 - level)
                    elif na >= goal and nb >= goal:
                        tie += p
                    elif na >= goal:
                        p1 += p
                    elif nb >= goal:
                        p2 += p
                    else:
                        nxt[(na, nb)] = nxt.get((na, nb), 0.0) + p
        states = nxt
        out.append((p1, p2, tie))
    return out


@given(st.lists(st.integers(0, 4), min_size=2, max_size=4).filter(lambda w: sum(w[1:]) > 0),
       st.lists(st.integers(0, 4), min_size=2, max_size=4).filter(lambda w: sum(w[1:]) > 0),
       st.integers(1, 6))
def test_race_odds_match_brute_force(w1, w2, goal):
    d1 = Distribution(tuple(x / sum(w1) for x in w1))
    d2 = Distribution(tuple(x / sum(w2) for x in w2))
    odds = race_odds(extended_odds(d1, 0.0, goal, rolls=5), extended_odds(d2, 0.0, goal, rolls=5))
    for t, (p1, p2, tie) in enumerate(brute_race(d1, d2, goal, 5)):
        assert (odds.p_first_by[t], odds.p_second_by[t], odds.p_tie_by[t]) == pytest.approx((p1, p2, tie), abs=1e-12)


@given(st.lists(st.integers(0, 4), min_size=2, max_size=5).filter(lambda w: sum(w[1:]) > 0),
       st.lists(st.integers(0, 4), min_size=2, max_size=5).filter(lambda w: sum(w[1:]) > 0),
       st.integers(1, 6), st.sampled_from(["tie", "roll", "rolloff"]), st.integers(0, 1), st.integers(0, 3),
       st.integers(0, 3))
def test_race_odds_with_a_tie_break_match_brute_force(w1, w2, goal, rule, difficulty, mine, theirs):
    d1 = Distribution(tuple(x / sum(w1) for x in w1))
    d2 = Distribution(tuple(x / sum(w2) for x in w2))
    mine, theirs = min(mine, goal - 1), min(theirs, goal - 1)
    odds = race_odds(extended_odds(d1, 0.0, goal, difficulty, rolls=5, progress=mine),
                     extended_odds(d2, 0.0, goal, difficulty, rolls=5, progress=theirs),
                     rule, contest(d1, d2), difficulty)
    for t, expected in enumerate(brute_race(d1, d2, goal, 5, rule, difficulty, (mine, theirs))):
        assert (odds.p_first_by[t], odds.p_second_by[t], odds.p_tie_by[t]) == pytest.approx(expected, abs=1e-12)


def test_a_broken_tie_goes_by_the_rule():
    from rules.extended import TieBreak, broken_tie

    # The roll on which both reached the goal: only "most successes on that roll" looks at it.
    assert broken_tie(TieBreak.ROLL, 4, 3, roll_off=False) == 1
    assert broken_tie(TieBreak.ROLL, 2, 3, roll_off=False) == 2
    assert broken_tie(TieBreak.ROLL, 3, 3, roll_off=False) is None  # as many: a tie
    assert broken_tie(TieBreak.TIE, 4, 3, roll_off=False) is None
    assert broken_tie(TieBreak.ROLL_OFF, 4, 3, roll_off=False) is None  # the roll-off comes after
    # A roll-off's roll: the one that rolls more; level, they roll again.
    assert broken_tie(TieBreak.ROLL_OFF, 1, 3, roll_off=True) == 2
    assert broken_tie(TieBreak.ROLL_OFF, 2, 2, roll_off=True) is None


def test_a_tie_break_needs_the_sides_rolls():
    one = extended_odds(Distribution((0.5, 0.5)), 0.0, 2, rolls=3)
    with pytest.raises(RulesError, match="needs both sides' rolls"):
        race_odds(one, one, "roll")
    with pytest.raises(RulesError, match="tie-break"):
        race_odds(one, one, "coin", contest(Distribution((0.5, 0.5)), Distribution((0.5, 0.5))))


def brute_tug(d1: Distribution, d2: Distribution, lead: int, rounds: int):
    states = {0: 1.0}
    p1 = p2 = 0.0
    out = []
    for _ in range(rounds):
        nxt: dict[int, float] = {}
        for diff, m in states.items():
            for i, pa in enumerate(d1.probs):
                for j, pb in enumerate(d2.probs):
                    n, p = diff + i - j, m * pa * pb
                    if n >= lead:
                        p1 += p
                    elif n <= -lead:
                        p2 += p
                    else:
                        nxt[n] = nxt.get(n, 0.0) + p
        states = nxt
        out.append((p1, p2))
    return out


@given(st.lists(st.integers(0, 4), min_size=1, max_size=4).filter(any),
       st.lists(st.integers(0, 4), min_size=1, max_size=4).filter(any), st.integers(1, 5))
def test_tug_of_war_odds_match_brute_force(w1, w2, lead):
    d1 = Distribution(tuple(x / sum(w1) for x in w1))
    d2 = Distribution(tuple(x / sum(w2) for x in w2))
    odds = tug_of_war_odds(contest(d1, d2).margin, lead, rounds=5)
    for t, (p1, p2) in enumerate(brute_tug(d1, d2, lead, 5)):
        assert (odds.p_first_by[t], odds.p_second_by[t]) == pytest.approx((p1, p2), abs=1e-12)


def test_seed_tug_of_war_is_won_by_leading_by_five():
    # The seed's log-pushing duel: whoever gets five successes over the other wins.
    t = TugOfWar(lead=5).pull(4, 1).pull(2, 1)
    assert (t.difference, t.winner) == (4, None)
    t = t.pull(3, 2)
    assert (t.difference, t.winner, t.rounds) == (5, 1, 3)
    with pytest.raises(RulesError):
        t.pull(1, 1)


def test_race_winner_and_dead_heat():
    running, done = ExtendedState(goal=5, total=3), ExtendedState(goal=5, total=6)
    assert (race_winner(running, running), race_winner(done, running), race_winner(running, done)) == (None, 1, 2)
    assert race_winner(done, done) == 0


def test_tug_of_war_from_a_lead_is_the_same_walk_shifted():
    # Leading by 2 of 3, one more winning round settles it: a coin-flip margin of ±1.
    coin = Distribution((0.5, 0.0, 0.5), -1)
    assert tug_of_war_odds(coin, 3, rounds=1, start=2).p_first_by[0] == pytest.approx(0.5)
    assert tug_of_war_odds(coin, 3, rounds=1, start=0).p_first_by[0] == 0.0
    with pytest.raises(RulesError):
        tug_of_war_odds(coin, 3, start=3)
