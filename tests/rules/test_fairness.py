"""rules.fairness: the chi-square's tail against reference values, fair and biased dice and decks,
special results seen against expected, the mean percentile, streaks.

Fair sequences come from fixed seeds (random.Random(1234) and the like), never from luck: each
test passes or fails the same way every run.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import groupby, product
from math import comb, erfc, exp, factorial, sqrt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import fate, v5
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
])
def test_streaks(outcomes, longest):
    got = streaks(outcomes)
    assert (got.successes, got.failures) == longest and got.as_json() == dict(zip(("successes", "failures"), longest))


@given(st.lists(st.booleans()))
def test_streaks_are_the_longest_runs(outcomes):
    def longest(value: bool) -> int:
        return max((len(list(run)) for got, run in groupby(outcomes) if got == value), default=0)

    assert streaks(outcomes) == Streaks(longest(True), longest(False))
