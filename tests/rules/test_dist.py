from hypothesis import given
from hypothesis import strategies as st

import pytest

from rules.dist import Distribution, binomial, contest, sum_of_weighted
from tests.rules.stats import chi_square_critical

D6 = Distribution((1 / 6,) * 6, 1)


# The plain way, by repeated convolution: the slow oracle for the engine's big-integer power.
def sum_of(die: Distribution, n: int) -> Distribution:
    """The total of ``n`` independent copies of ``die`` (n >= 0)."""
    if n == 0:
        return Distribution.point(0)
    result = die
    for _ in range(n - 1):
        result = result.convolve(die)
    return result



def test_two_d6_sum_to_seven_one_time_in_six():
    assert abs(sum_of(D6, 2).p(7) - 1 / 6) < 1e-12


def test_binomial_matches_known_values():
    assert binomial(2, 0.5) == (0.25, 0.5, 0.25)


@given(st.integers(0, 40), st.floats(0, 1))
def test_binomial_sums_to_one(n, p):
    assert abs(sum(binomial(n, p)) - 1) < 1e-9


@given(st.integers(1, 12), st.integers(1, 12))
def test_contest_probabilities_sum_to_one_and_are_symmetric(n, m):
    a, b = sum_of(D6, n), sum_of(D6, m)
    ab, ba = contest(a, b), contest(b, a)
    assert abs(ab.p_win + ab.p_tie + ab.p_lose - 1) < 1e-9
    assert abs(ab.p_win - ba.p_lose) < 1e-12


def test_contest_tail_is_reported_apart_never_counted_as_a_win():
    # Issue 11, item 2: mass cut off above a distribution may or may not beat the other side.
    a = Distribution((0.5,), 0, tail=0.5)
    odds = contest(a, Distribution.point(3))
    assert (odds.p_win, odds.p_tie, odds.p_lose, odds.tail) == (0.0, 0.0, 0.5, 0.5)
    assert odds.as_json()["tail"] == 0.5


def test_p_at_least_counts_the_tail_only_where_all_of_it_qualifies():
    a = Distribution((0.25, 0.25), 0, tail=0.5)
    assert (a.p_at_least(2), a.p_at_least(3), a.p_below(5)) == (0.5, 0.0, 0.5)


def test_chi_square_critical_value_is_close_to_tables():
    # Published 0.1% critical values: df 1 → 10.83, df 10 → 29.59.
    assert abs(chi_square_critical(10) - 29.59) < 0.3
    assert abs(chi_square_critical(1) - 10.83) < 0.6


@given(st.lists(st.integers(0, 9), min_size=1, max_size=6).filter(any), st.integers(0, 40), st.integers(-3, 3))
def test_weighted_power_matches_repeated_convolution(weights, n, offset):
    total = sum(weights)
    die = Distribution(tuple(w / total for w in weights), offset)
    fast, slow = sum_of_weighted(tuple(weights), n, offset), sum_of(die, n)
    assert fast.offset == slow.offset
    assert fast.probs == pytest.approx(slow.probs, abs=1e-12)
