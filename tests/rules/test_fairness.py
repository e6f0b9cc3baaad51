"""rules.fairness: the chi-square's tail against reference values, fair and biased dice and decks,
special results seen against expected, the mean percentile, streaks.

Fair sequences come from fixed seeds (random.Random(1234) and the like), never from luck: each
test passes or fails the same way every run.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction
from itertools import accumulate, groupby, product
from math import comb, erfc, exp, factorial, sqrt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import fairness, fate, v5
from rules.dice import RulesError
from rules.fairness import (
    D10,
    DECK_GROUPS,
    FATE_DIE,
    GROUP_SIZES,
    Streaks,
    chi_square_p,
    fair_deck,
    fair_dice,
    gamma_q,
    mean_percentile,
    streaks,
    tally,
    verdict,
)

# --- the chi-square's tail -----------------------------------------------------------------------

# (x, degrees of freedom, P(χ² ≥ x)): mpmath 1.3.0, gammainc(df/2, x/2, inf, regularized=True) at 40
# digits; scipy 1.17.1's chi2.sf(x, df) agrees with each within 5e-15 relative. The table's
# critical values are among them (3.84 at 5 % for 1 df, 21.666 at 1 % for 9 df, 27.877 at 0.1 %).
CHI_SQUARE_TAILS = [
    (0.5, 1, 0.47950012218695346),
    (3.84, 1, 0.050043521248705103),
    (10.0, 1, 0.0015654022580025497),
    (1.0, 2, 0.60653065971263342),
    (9.21, 2, 0.010001702004705478),
    (2.5, 3, 0.47529108334302059),
    (11.34, 3, 0.010022517616912462),
    (0.001, 4, 0.99999987504165886),
    (14.86, 4, 0.0050005707253792725),
    (4.0, 9, 0.91141252683167917),
    (8.343, 9, 0.49998354839918624),
    (21.666, 9, 0.0099999798834983211),
    (27.877, 9, 0.0010000633577572736),
    (60.0, 9, 1.3406780483959613e-9),
    (200.0, 9, 3.3129923939095531e-38),
    (80.0, 80, 0.47897113893894484),
    (112.329, 80, 0.0099996504985501328),
    (150.0, 80, 3.5711707331331338e-6),
]

# (a, x, Q(a, x)): mpmath 1.3.0, gammainc(a, x, inf, regularized=True), 40 digits (scipy's gammaincc agrees).
GAMMA_Q = [
    (0.3, 0.1, 0.4540871504082035),
    (0.3, 5.0, 0.00065131875071845155),
    (7.25, 3.0, 0.97385668584714994),
    (7.25, 20.0, 0.00034168057139332509),
    (40.0, 39.0, 0.54244871712870402),
    (40.0, 41.5, 0.38711626784477474),
    (0.001, 0.001, 0.0063123532911397099),
]


@pytest.mark.parametrize("x, df, tail", CHI_SQUARE_TAILS)
def test_the_chi_square_tail_matches_reference_values(x, df, tail):
    assert chi_square_p(x, df) == pytest.approx(tail, rel=1e-9, abs=0)


@pytest.mark.parametrize("a, x, q", GAMMA_Q)
def test_gamma_q_matches_reference_values(a, x, q):
    assert gamma_q(a, x) == pytest.approx(q, rel=1e-9, abs=0)


@given(st.integers(1, 40), st.floats(0, 300))
def test_even_degrees_of_freedom_match_the_closed_form(k, x):
    # With 2k degrees of freedom the tail is e^(−x/2) Σ_{i<k} (x/2)^i / i! (a Poisson's lower tail).
    closed = exp(-x / 2) * sum((x / 2) ** i / factorial(i) for i in range(k))
    assert chi_square_p(x, 2 * k) == pytest.approx(closed, rel=1e-9, abs=1e-300)


@given(st.floats(0, 600))
def test_one_degree_of_freedom_is_the_normal_tail(x):
    assert chi_square_p(x, 1) == pytest.approx(erfc(sqrt(x / 2)), rel=1e-9, abs=1e-300)


def test_the_tail_at_its_ends_and_bad_input():
    assert chi_square_p(0.0, 3) == 1.0 and chi_square_p(float("inf"), 3) == 0.0
    for a, x in ((0, 1), (-1, 1), (1, -1), (float("nan"), 1), (1, float("nan"))):
        with pytest.raises(RulesError):
            gamma_q(a, x)


@pytest.mark.parametrize("p, word", [(None, "too_few"), (0.5, "nothing_unusual"), (0.01, "nothing_unusual"),
                                     (0.0099, "unusual"), (0.001, "unusual"), (0.00099, "very_unusual")])
def test_verdict(p, word):
    assert verdict(p) == word


# --- the faces -----------------------------------------------------------------------------------


def d10s(n: int, rng: random.Random, weights: list[int] | None = None) -> Counter:
    return Counter(rng.choices(D10, weights=weights, k=n))


def test_fair_d10s_from_a_fixed_seed_are_nothing_unusual():
    fit = fair_dice(d10s(2000, random.Random(1234)), 10)
    assert fit.p_value > 0.01 and fit.verdict == "nothing_unusual"
    assert (fit.dice, fit.df, dict(fit.expected)[10]) == (2000, 9, 200.0)


def test_d10s_showing_ten_twice_as_often_are_flagged():
    fit = fair_dice(d10s(2000, random.Random(1234), weights=[1] * 9 + [2]), 10)
    assert fit.p_value < 0.001 and fit.verdict == "very_unusual"


def test_a_slight_bias_needs_many_dice():
    slight = [10] * 9 + [11]  # 10s a tenth more likely than the rest
    assert fair_dice(d10s(500, random.Random(7), weights=slight)).verdict == "nothing_unusual"
    assert fair_dice(d10s(50_000, random.Random(7), weights=slight)).verdict == "very_unusual"


def test_the_statistic_is_pearsons():
    fit = fair_dice({1: 10, 2: 20, 3: 30}, 3)
    assert fit.statistic == pytest.approx((100 + 0 + 100) / 20) and fit.df == 2
    assert fit.p_value == pytest.approx(exp(-10 / 2))  # 2 df: the tail is e^(−x/2)


def test_fate_dice_have_three_faces():
    rng = random.Random(1234)
    fit = fair_dice(Counter(rng.choice(FATE_DIE) for _ in range(600)), FATE_DIE)
    assert fit.verdict == "nothing_unusual" and [face for face, _ in fit.counts] == [-1, 0, 1]
    loaded = Counter({-1: 150, 0: 200, 1: 250})
    assert fair_dice(loaded, FATE_DIE).verdict == "very_unusual"


def test_too_few_dice_to_tell():
    assert fair_dice({10: 49}).verdict == "too_few"  # 49 tens in a row, but under 5 a face expected
    fit = fair_dice({10: 50})
    assert fit.verdict == "very_unusual" and fit.counts[0] == (1, 0)  # every face listed, seen or not
    assert fair_dice({}).as_json()["verdict"] == "too_few"


def test_faces_a_die_does_not_have_are_refused():
    for counts, sides in (({0: 3}, 10), ({11: 1}, 10), ({2: 1}, FATE_DIE), ({1: -1}, 10)):
        with pytest.raises(RulesError):
            fair_dice(counts, sides)
    with pytest.raises(RulesError):
        fair_dice({1: 1}, 1)


def test_a_fair_die_is_flagged_about_as_often_as_it_should_be():
    rng = random.Random(1234)
    flagged = sum(fair_dice(d10s(200, rng)).p_value < 0.05 for _ in range(1000))
    assert 30 <= flagged <= 70  # 5 % of 1,000, give or take 3 standard deviations


# --- the Fate deck -----------------------------------------------------------------------------


def deal(draws: int, rng: random.Random) -> list[tuple[int, bool]]:
    """The engine's own deck, drawn ``draws`` times (an empty deck first: the first draw shuffles)."""
    deck, out = fate.Deck(), []
    for _ in range(draws):
        drawn = fate.draw(deck, rng)
        out.append((drawn.card, drawn.reshuffled))
        deck = drawn.deck
    return out


def test_a_fair_deck_from_a_fixed_seed_is_nothing_unusual():
    fit = fair_deck(deal(5 * 81 + 30, random.Random(1234)))
    assert fit.p_value > 0.01 and fit.verdict == "nothing_unusual" and fit.repeats == 0
    assert [group for group, _ in fit.counts] == list(DECK_GROUPS) and sum(n for _, n in fit.counts) == 435
    assert dict(fit.expected)[0] == pytest.approx(435 * 19 / 81)


def test_a_fair_deck_is_flagged_about_as_often_as_it_should_be():
    # Lengths ending mid-cycle and at a cycle's end: the test holds its rate at 1 % for either.
    for draws in (40, 81, 200):
        flagged = sum(fair_deck(deal(draws, random.Random(seed))).p_value < 0.01 for seed in range(600))
        assert flagged <= 12, (draws, flagged)  # 6 expected; more would be false alarms


def test_a_card_twice_in_one_cycle_is_impossible():
    draws = deal(100, random.Random(1234))
    draws[90] = (draws[85][0], False)  # dealt again before the deck ran out
    fit = fair_deck(draws)
    assert (fit.repeats, fit.verdict) == (1, "impossible")
    # The same card after a reshuffle is fair.
    assert fair_deck([(5, True), (5, True)]).repeats == 0


def test_more_than_81_cards_without_a_reshuffle_repeat_one():
    cycle = [(card, i == 0) for i, card in enumerate(random.Random(3).sample(range(81), 81))]
    assert fair_deck(cycle + [(cycle[0][0], False)]).verdict == "impossible"


def test_a_deck_dealt_in_order_is_flagged_in_one_cycle():
    fit = fair_deck([(card, card == 0) for card in range(fate.DECK_SIZE)])
    assert fit.verdict == "very_unusual"


def test_a_deck_dealing_its_best_cards_early_is_flagged():
    rng = random.Random(1234)
    draws, left = [], []
    for _ in range(3 * 81):
        reshuffled = not left
        left = left or list(range(fate.DECK_SIZE))
        # One draw in five takes the best card left.
        card = max(left, key=lambda c: sum(fate.CARDS[c])) if rng.random() < 0.2 else rng.choice(left)
        left.remove(card)
        draws.append((card, reshuffled))
    assert fair_deck(draws).verdict in ("unusual", "very_unusual")


def test_a_deck_missing_its_worst_cards_is_flagged():
    worst = {card for card in range(fate.DECK_SIZE) if sum(fate.CARDS[card]) <= -2}
    rng = random.Random(1234)
    short = [card for card in range(fate.DECK_SIZE) if card not in worst]
    draws = []
    for _ in range(2):  # the short deck runs out after 66 cards and is reshuffled
        cycle = rng.sample(short, len(short))
        draws += [(card, i == 0) for i, card in enumerate(cycle)]
    assert fair_deck(draws).verdict == "very_unusual"


def test_the_groups_are_the_cards_dice_sums():
    assert GROUP_SIZES == (15, 16, 19, 16, 15) and sum(GROUP_SIZES) == fate.DECK_SIZE
    assert fair_deck(deal(20, random.Random(1))).verdict == "too_few"
    assert fair_deck([]).verdict == "too_few"
    with pytest.raises(RulesError):
        fair_deck([(81, True)])


def test_the_statistic_is_kruskal_wallis_on_a_full_cycle():
    # One full cycle, no ties: H = 12 / (N(N+1)) Σ R_g² / n_g − 3(N+1), the textbook form.
    order = random.Random(9).sample(range(fate.DECK_SIZE), fate.DECK_SIZE)
    n = fate.DECK_SIZE
    rank_sums = [0] * 5
    for position, card in enumerate(order, 1):
        rank_sums[max(-2, min(2, sum(fate.CARDS[card]))) + 2] += position
    h = 12 / (n * (n + 1)) * sum(r * r / size for r, size in zip(rank_sums, GROUP_SIZES)) - 3 * (n + 1)
    assert fair_deck([(card, i == 0) for i, card in enumerate(order)]).statistic == pytest.approx(h)


# --- special results seen against expected ---------------------------------------------------------


def poisson_binomial_oracle(priors: list[Fraction]) -> list[Fraction]:
    """P(exactly k), exact, by summing over every subset of the rolls."""
    out = [Fraction(0)] * (len(priors) + 1)
    for got in product((False, True), repeat=len(priors)):
        chance = Fraction(1)
        for p, g in zip(priors, got):
            chance *= p if g else 1 - p
        out[sum(got)] += chance
    return out


@given(st.lists(st.fractions(0, 1, max_denominator=50), max_size=10), st.data())
def test_tally_matches_every_subset_of_the_rolls(priors, data):
    seen = data.draw(st.integers(0, len(priors)))
    exact = poisson_binomial_oracle(priors)
    got = tally([float(p) for p in priors], seen)
    assert got.p_at_most == pytest.approx(float(sum(exact[: seen + 1])), abs=1e-12)
    assert got.p_at_least == pytest.approx(float(sum(exact[seen:])), abs=1e-12)
    assert got.expected == pytest.approx(float(sum(priors)))
    assert got.variance == pytest.approx(float(sum(p * (1 - p) for p in priors)))


def test_tally_of_equal_priors_is_binomial():
    got = tally([0.1] * 50, 12)
    exact_tail = sum(comb(50, k) * 0.1**k * 0.9 ** (50 - k) for k in range(12, 51))
    assert got.p_at_least == pytest.approx(exact_tail, rel=1e-12)
    assert (got.expected, got.variance) == (pytest.approx(5.0), pytest.approx(4.5))
    assert got.verdict == "unusual"  # 12 botches where 5 are expected: 0.0032 or more, two-sided 0.0064


def test_a_far_tail_keeps_its_precision():
    got = tally([0.01] * 1000, 60)  # 60 where 10 are expected
    exact = sum(comb(1000, k) * Fraction(1, 100) ** k * Fraction(99, 100) ** (1000 - k) for k in range(60, 1001))
    assert got.p_at_least == pytest.approx(float(exact), rel=1e-9) and got.p_at_least < 1e-20
    assert got.verdict == "very_unusual"


def test_tally_of_a_campaigns_botches():
    priors = [0.05] * 20 + [0.02] * 30  # 1.6 expected
    assert tally(priors, 2).verdict == "nothing_unusual"
    assert tally(priors, 0).as_json()["p_at_most"] == pytest.approx(0.95**20 * 0.98**30)
    assert tally([], 0).p_value == 1.0
    with pytest.raises(RulesError):
        tally([0.5], 2)
    with pytest.raises(RulesError):
        tally([1.5], 0)


def test_the_specials_of_fair_rolls_are_as_expected():
    # V5 rolls from a fixed seed: criticals, messy criticals and bestial failures seen against their priors.
    rng = random.Random(1234)
    priors: dict[str, list[float]] = {"critical": [], "messy_critical": [], "bestial_failure": []}
    seen = Counter()
    for _ in range(1000):
        request = v5.Request(pool=rng.randint(1, 10), hunger=rng.randint(0, 5), difficulty=rng.randint(1, 5))
        for special in v5.luck(request, v5.roll(request, rng)).specials:
            priors[special.code].append(special.prior)
            seen[special.code] += special.happened
    for code, ps in priors.items():
        assert tally(ps, seen[code]).verdict == "nothing_unusual", code


# --- tally past the exact budget -----------------------------------------------------------------
#
# The accuracy the module's docstring promises: each tail within 1e-5 absolute; within 1e-3 relative
# between 1e-4 and 1e-2 (where the verdict's cuts are: tails of 5e-3 and 5e-4); within 20 % below.
ABSOLUTE = 1e-5
RELATIVE_NEAR_CUTS = 1e-3
RELATIVE_TINY = 0.2


def exact_tails(ps: list[float], ks: list[int]) -> dict[int, tuple[float, float]]:
    """{k: (P(X ≤ k), P(X ≥ k))} by the exact convolution, one pass for all ks from each end."""
    n, out = len(ps), {}
    for low in (True, False):
        wanted = [k for k in ks if (k <= n - k) == low]
        if not wanted:
            continue
        cap = max(wanted) if low else n - min(wanted)
        counted = fairness._capped(ps if low else [1.0 - p for p in ps], cap)  # P(0 … cap), P(> cap)
        at_most = list(accumulate(counted[:-1]))
        at_least = list(accumulate(reversed(counted)))[::-1]
        for k in wanted:
            j = k if low else n - k
            out[k] = (min(1.0, at_most[j]), min(1.0, at_least[j])) if low else (min(1.0, at_least[j]), min(1.0, at_most[j]))
    return out


def prior_families(rng: random.Random, n: int) -> dict[str, list[float]]:
    """Prior vectors of every shape the approximation treats apart: symmetric and skewed, a few
    distinct chances or all distinct, a tiny variance (Poisson-like, or chances near 0 and near 1
    at once), certain and impossible rolls mixed in."""
    def draw(chance):
        return [chance() for _ in range(n)]

    return {
        "uniform": draw(rng.random),
        "small": draw(lambda: rng.random() * 0.05),
        "v5_criticals": draw(lambda: rng.choice([0.01, 0.05, 0.1, 0.17, 0.26, 0.35])),
        "rare": draw(lambda: rng.random() * 30 / n),
        "very_rare": draw(lambda: rng.random() * 3 / n),
        "near_0_and_1": draw(lambda: rng.choice([rng.random() * 20 / n, 1 - rng.random() * 20 / n])),
        "a_few_halves": draw(lambda: 0.5 if rng.random() < 40 / n else 1e-4),
        "u_shaped": draw(lambda: rng.betavariate(0.2, 0.2)),
        "with_certain": draw(lambda: rng.choice([0.0, 1.0, rng.random() * 0.3, 1e-120])),
        "halves": [0.5] * n,  # n odd: a count 1/2 from the mean (the first order there past variance 400)
    }


@pytest.mark.parametrize("seed, n", [(1, 301), (2, 801), (3, 2001)])
def test_tally_past_the_budget_is_within_its_stated_accuracy(monkeypatch, seed, n):
    # Every count from 14 standard deviations below the mean to 14 above, for every family, all
    # through the approximation (a budget of 0) and against the exact convolution.
    monkeypatch.setattr(fairness, "EXACT_BUDGET", 0)
    rng = random.Random(seed)
    for family, ps in prior_families(rng, n).items():
        mean, sd = sum(ps), sqrt(sum(p * (1 - p) for p in ps))
        ks = list(range(max(0, int(mean - 14 * sd) - 5), min(n, int(mean + 14 * sd) + 6) + 1))
        ks = sorted(set(ks[:: max(1, len(ks) // 80)]) | {int(mean), int(mean) + 1})
        exact = exact_tails(ps, ks)
        for k in ks:
            got = tally(ps, k)
            for approx, true in zip((got.p_at_most, got.p_at_least), exact[k]):
                where = (family, n, k, approx, true)
                assert abs(approx - true) <= ABSOLUTE, where
                if 1e-4 <= true <= 1e-2:
                    assert abs(approx / true - 1) <= RELATIVE_NEAR_CUTS, where
                elif 1e-300 < true < 1e-4:
                    assert abs(approx / true - 1) <= RELATIVE_TINY, where
            exact_p = min(1.0, 2 * min(exact[k]))
            if all(abs(exact_p / cut - 1) > RELATIVE_NEAR_CUTS for cut in (0.01, 0.001)):
                assert got.verdict == verdict(exact_p), (family, n, k)


def test_every_branch_of_the_approximation_is_exercised(monkeypatch):
    # What the test above goes through: the second-order formula, the neighbouring count at the
    # mean, the first order at the mean (variance over NEIGHBOUR_BELOW), the exact tilted sum.
    monkeypatch.setattr(fairness, "EXACT_BUDGET", 0)
    used = Counter()
    for name in ("_mass", "_tilted_tails"):
        original = getattr(fairness, name)
        monkeypatch.setattr(fairness, name, lambda *a, _f=original, _n=name: used.update([_n]) or _f(*a))
    original_correction = fairness._correction
    monkeypatch.setattr(fairness, "_correction", lambda point: used.update(
        ["second" if abs(point.w) >= fairness._CENTRE else "first"]) or original_correction(point))
    tally([0.5] * 2001, 1000)  # variance 500, the mean 1000.5: the first order at the mean
    tally([100.5 / 600] * 600, 100)  # variance 84, the mean 100.5: the neighbouring count
    tally([0.001] * 3000, 3)  # variance 3: the tilted sum
    assert {"_mass", "_tilted_tails", "second", "first"} <= set(used)


def test_a_tiny_tail_keeps_its_order_of_magnitude():
    # 5,000 rolls at 10 %: 500 expected. The binomial's tails, exact in integers, against tally's.
    n, rolls = 5000, [0.1] * 5000

    def binomial_at_least(k: int) -> float:
        total, term = 0, comb(n, k) * 9 ** (n - k)  # C(n, j)·9^(n − j), j from k up
        for j in range(k, n + 1):
            total, term = total + term, term * (n - j) // ((j + 1) * 9)
        return float(Fraction(total, 10**n))

    for k, about in ((630, 1.8e-9), (700, 2e-19), (900, 3e-66), (1400, 1.3e-279)):
        got = tally(rolls, k)
        true = binomial_at_least(k)
        assert true == pytest.approx(about, rel=0.9)
        assert got.p_at_least == pytest.approx(true, rel=1e-3) and got.p_at_least > 0
        assert got.verdict == "very_unusual"
    got = tally(rolls, 630)
    assert 1e-10 < got.p_value < 1e-8  # neither 0 nor anywhere near the cuts
    # Distinct priors, against the convolution: the far tails both ways.
    rng = random.Random(8)
    ps = [rng.uniform(0.02, 0.3) for _ in range(4000)]
    for k in (480, 780):
        exact = exact_tails(ps, [k])[k]
        got = tally(ps, k)
        assert got.p_at_most == pytest.approx(exact[0], rel=1e-3) and got.p_at_least == pytest.approx(exact[1], rel=1e-3)
        assert min(exact) < 1e-6


def test_one_rare_result_in_a_huge_campaign():
    # One roll in 300,000 got a result of chance 1e-10 (P = 3e-5): a count next to the end of the
    # possible ones, where the saddlepoint's formula errs most (+66 % here); the sum tilted to the
    # point, summed exactly, answers instead.
    for chance in (1e-10, 1e-9, 1e-6):
        n = 300_000
        got = tally([chance] * n, 1)
        none = math.exp(n * math.log1p(-chance))
        assert got.p_at_least == pytest.approx(-math.expm1(n * math.log1p(-chance)), rel=1e-9)
        assert got.p_at_most == pytest.approx(none + n * chance * none / (1 - chance), rel=1e-9)


def test_tally_within_the_budget_is_the_convolution_unchanged():
    # 5,000 rolls seen 20 times is at the budget: the exact convolution, to the last bit.
    rng = random.Random(3)
    ps = [rng.uniform(0.001, 0.01) for _ in range(5000)]
    assert len(ps) * 20 <= fairness.EXACT_BUDGET < len(ps) * 21
    counted = fairness._capped(ps, 20)
    got = tally(ps, 20)
    assert (got.p_at_most, got.p_at_least) == (math.fsum(counted[:-1]), counted[-2] + counted[-1])


@given(st.lists(st.sampled_from([1e-9, 0.01, 0.2, 0.5, 0.7, 0.99, 1 - 1e-12]) | st.floats(1e-6, 1 - 1e-6), min_size=1,
                max_size=40), st.data())
def test_the_tilted_sum_is_exact(priors, data):
    # Where the saddlepoint's formula would err, the sum tilted to the point is summed exactly:
    # from any tilt, the same tails as the convolution.
    events = fairness._Events(Counter(priors))
    k = data.draw(st.integers(0, len(priors)))
    x = data.draw(st.sampled_from([k - 0.5, k + 0.5]).filter(lambda x: 0 < x < len(priors)) if 0 < k < len(priors)
                  else st.just(0.5 if k == 0 else len(priors) - 0.5))
    got = fairness._tilted_tails(events, k, events.saddle(x, 0.0))
    assert got == pytest.approx(fairness._exact_tails(priors, k), rel=1e-9, abs=1e-15)


def test_past_the_budget_at_the_ends():
    tails = fairness._beyond_budget
    assert tails([1.0, 1.0, 0.0, 1e-200], 1) == (0.0, 1.0)  # fewer than the certain rolls
    assert tails([1.0, 1.0, 0.0, 1e-200], 2) == (1.0, 1.0)  # exactly the certain ones
    assert tails([1.0, 1.0, 0.0, 1e-200], 3) == (1.0, 0.0)  # more than can happen (1e-200: never)
    assert tails([0.3] * 10, 0)[1] == 1.0 and tails([0.3] * 10, 10)[0] == 1.0
    at_most, at_least = tails([0.3] * 10 + [1.0] * 5, 15)  # all of them: 0.3^10
    assert at_most == 1.0 and at_least == pytest.approx(0.3**10, rel=1e-9)
    # A lump inside the counts: all 31 even chances and none of the 1e-20 ones (2^-31).
    assert tails([0.5] * 31 + [1e-20] * 31, 31)[1] == pytest.approx(0.5**31, rel=1e-9)


def binomial_window(n: int, p: float, low: int, high: int) -> list[float]:
    """P(Binomial(n, p) = j) for j = low … high, from lgamma (relative error ~1e-10 at n = 50,000)."""
    return [math.exp(math.lgamma(n + 1) - math.lgamma(j + 1) - math.lgamma(n - j + 1) + j * math.log(p)
                     + (n - j) * math.log1p(-p)) for j in range(low, high + 1)]


def test_a_hundred_thousand_rolls():
    # As many rolls as the page may see, the budget untouched: 50,000 rolls at 10 % and 50,000 at
    # 30 %, against the two binomials convolved (each within 8 standard deviations of its mean).
    ps = [0.1, 0.3] * 50_000
    windows = []
    for p in (0.1, 0.3):
        mean, sd = 50_000 * p, sqrt(50_000 * p * (1 - p))
        low = int(mean - 8 * sd)
        windows.append((low, binomial_window(50_000, p, low, int(mean + 8 * sd))))
    (low_a, a), (low_b, b) = windows
    pmf = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            pmf[i + j] += x * y
    mean, sd = sum(ps), sqrt(sum(p * (1 - p) for p in ps))
    for z in (-6, -3, -1, 0, 1, 3, 6):
        k = round(mean + z * sd)
        got = tally(ps, k)
        at = k - low_a - low_b
        assert got.p_at_most == pytest.approx(math.fsum(pmf[: at + 1]), rel=1e-3, abs=1e-9), z
        assert got.p_at_least == pytest.approx(math.fsum(pmf[at:]), rel=1e-3, abs=1e-9), z


# --- the mean percentile, streaks ------------------------------------------------------------------


def test_the_mean_percentile_of_fair_rolls_is_nothing_unusual_and_a_lucky_campaigns_is_flagged():
    rng = random.Random(1234)
    fair, lucky = [], []
    for _ in range(400):
        request = v5.Request(pool=rng.randint(1, 8), difficulty=rng.randint(1, 4))
        luck = v5.luck(request, v5.roll(request, rng))
        fair.append((luck.percentile, luck.variance))
        # The lucky table keeps the better of two rolls.
        other = v5.luck(request, v5.roll(request, rng))
        lucky.append(max((luck.percentile, luck.variance), (other.percentile, other.variance)))
    assert mean_percentile(fair).verdict == "nothing_unusual" and abs(mean_percentile(fair).mean - 0.5) < 0.03
    assert mean_percentile(lucky).verdict == "very_unusual" and mean_percentile(lucky).z > 5


def test_the_mean_percentile_needs_rolls():
    assert mean_percentile([]).as_json() == {"rolls": 0, "mean": None, "z": None, "p_value": None, "verdict": "too_few"}
    assert mean_percentile([(0.95, 1 / 12)] * 29).verdict == "too_few"
    assert mean_percentile([(0.5, 0.0)] * 40).p_value is None  # only certain results: nothing to tell


@pytest.mark.parametrize("outcomes, longest", [
    ([], (0, 0)), ([True], (1, 0)), ([False, False], (0, 2)),
    ([True, True, False, True, True, True, False, False], (3, 2)),
    # A tie is neither: it ends the run it falls in (issue 23: Fate's ties counted as successes).
    ([True, True, None, True, False, None, False], (2, 1)), ([None, None], (0, 0)),
])
def test_streaks(outcomes, longest):
    got = streaks(outcomes)
    assert (got.successes, got.failures) == longest and got.as_json() == dict(zip(("successes", "failures"), longest))


@given(st.lists(st.one_of(st.booleans(), st.none())))
def test_streaks_are_the_longest_runs(outcomes):
    def longest(value: bool) -> int:
        return max((len(list(run)) for got, run in groupby(outcomes) if got == value), default=0)

    assert streaks(outcomes) == Streaks(longest(True), longest(False))
