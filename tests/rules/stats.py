"""Goodness-of-fit helpers shared by the rules tests (standard library only).

The chi-square tests roll with a fixed seed, so they are deterministic: they pass or fail
the same way every run. The threshold is the 0.1% critical value, so a correct roller
fails with a fixed seed only by a 1-in-1000 accident of that seed, which we would see at once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping
from math import sqrt

Z_999 = 3.090232306167813  # the standard normal's 99.9th percentile


def chi_square_critical(df: int, z: float = Z_999) -> float:
    """Wilson–Hilferty approximation of the chi-square quantile (good to ~1% for df >= 1)."""
    h = 2.0 / (9.0 * df)
    return df * (1.0 - h + z * sqrt(h)) ** 3


def chi_square(observed: Iterable[Hashable], expected: Mapping[Hashable, float], min_expected: float = 5.0) -> tuple[float, int]:
    """Chi-square statistic and degrees of freedom of ``observed`` samples against ``expected``.

    Categories expected fewer than ``min_expected`` times are pooled into one bin, as usual.
    """
    samples = list(observed)
    n = len(samples)
    counts = Counter(samples)
    unknown = set(counts) - set(expected)
    assert not unknown, f"observed values with zero expected probability: {sorted(unknown)[:5]}"
    stat, bins = 0.0, 0
    pooled_obs, pooled_exp = 0, 0.0
    for value, p in expected.items():
        e = n * p
        if e < min_expected:
            pooled_obs += counts[value]
            pooled_exp += e
            continue
        stat += (counts[value] - e) ** 2 / e
        bins += 1
    if pooled_exp > 0:
        stat += (pooled_obs - pooled_exp) ** 2 / pooled_exp
        bins += 1
    return stat, bins - 1


def assert_fits(observed: Iterable[Hashable], expected: Mapping[Hashable, float]) -> None:
    stat, df = chi_square(observed, expected)
    assert df >= 1, "need at least two bins to test a fit"
    limit = chi_square_critical(df)
    assert stat < limit, f"chi-square {stat:.1f} over {df} df exceeds the 0.1% critical value {limit:.1f}"
