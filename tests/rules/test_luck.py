"""rules.luck: the mid-rank, its mean of exactly 1/2 over fair rolls, the worst rung, the card's word.

Each game's ``luck`` is checked against every roll of a request, enumerated, in its own test
module (``assert_luck_exact`` in tests/rules/stats.py).
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from rules.dist import Distribution
from rules.luck import Luck, Special, band, below_all, luck_of
from tests.rules.stats import assert_luck_exact

weights = st.lists(st.integers(0, 20), min_size=1, max_size=12).filter(any)


def scale_of(ws: list[int], offset: int = 0) -> Distribution:
    return Distribution(tuple(w / sum(ws) for w in ws), offset)


@given(weights, st.integers(-5, 5))
def test_the_mid_rank_averages_one_half_over_any_scale(ws, offset):
    scale = scale_of(ws, offset)
    values = range(offset, scale.high + 1)
    assert_luck_exact((scale.p(v), v, luck_of(scale, v), {}) for v in values if scale.p(v))


@given(weights)
def test_below_equal_and_above_make_one(ws):
    scale = scale_of(ws)
    for v in range(-1, scale.high + 2):
        luck = luck_of(scale, v)
        assert luck.below + luck.equal + luck.above == pytest.approx(1, abs=1e-12)
        assert luck.percentile == pytest.approx(luck.below + luck.equal / 2)


def test_a_certain_result_is_average_and_never_lucky():
    luck = luck_of(Distribution.point(3), 3)
    assert (luck.below, luck.equal, luck.percentile, luck.variance, luck.band) == (0.0, 1.0, 0.5, 0.0, "average")


def test_a_fine_scale_has_the_continuous_variance_and_a_coin_less():
    fine = Distribution((1 / 1000,) * 1000)
    assert luck_of(fine, 0).variance == pytest.approx(1 / 12, rel=1e-5)
    assert luck_of(Distribution((0.5, 0.5)), 1).variance == pytest.approx(1 / 16)


def test_a_value_past_the_end_of_the_scale_is_above_all_of_it():
    cut = Distribution((0.5, 0.5 - 1e-15), 0, 1e-15)  # scifi's explosions, cut
    luck = luck_of(cut, 7)
    assert (luck.below, luck.equal) == (pytest.approx(1 - 1e-15, abs=1e-18), 0.0)


def test_below_all_moves_the_worst_results_to_a_rung_under_the_scale():
    scale = Distribution((0.5, 0.3, 0.2))
    ranked = below_all(scale, {0: 0.1, 1: 0.05})
    assert ranked.offset == -1
    assert ranked.probs == pytest.approx((0.15, 0.4, 0.25, 0.2))
    # A failure with 1 success ranks above every botch or fumble, whatever its successes.
    assert luck_of(ranked, -1).percentile < luck_of(ranked, 0).percentile


def test_below_all_with_nothing_to_move_adds_an_empty_rung():
    scale = Distribution((0.4, 0.6), 1)  # Willpower's success: no 0 to move a botch from
    assert below_all(scale, {0: 0.0}).probs == (0.0, 0.4, 0.6)


@pytest.mark.parametrize("percentile, word", [
    (0.0, "very_unlucky"), (0.0999, "very_unlucky"), (0.1, "unlucky"), (0.2999, "unlucky"), (0.3, "average"),
    (0.5, "average"), (0.7, "average"), (0.7001, "lucky"), (0.9, "lucky"), (0.9001, "very_lucky"), (1.0, "very_lucky"),
])
def test_band(percentile, word):
    assert band(percentile) == word


@given(st.floats(0, 1))
def test_the_bands_mirror_each_other(p):
    mirror = {"very_unlucky": "very_lucky", "unlucky": "lucky", "average": "average"}
    mirror |= {v: k for k, v in mirror.items()}
    assume(all(abs(p - cut) > 1e-9 for cut in (0.1, 0.3, 0.7, 0.9)))  # 1 - p may round across a cut
    assert band(1 - p) == mirror[band(p)]


def test_luck_as_json_and_its_specials():
    luck = Luck(0.8, 0.1, 0.08, (Special("botch", 0.05, False),))
    assert luck.as_json() == {
        "below": 0.8, "equal": 0.1, "above": pytest.approx(0.1), "percentile": pytest.approx(0.85),
        "band": "lucky", "variance": 0.08, "specials": [{"code": "botch", "prior": 0.05, "happened": False}],
    }
    assert luck.special("botch").prior == 0.05
    with pytest.raises(KeyError):
        luck.special("critical")
