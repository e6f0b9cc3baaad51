"""Helpers shared by the rules tests (standard library only): goodness of fit, and the luck oracle.

The chi-square tests roll with a fixed seed, so they are deterministic: they pass or fail
the same way every run. The threshold is the 0.1% critical value, so a correct roller
fails with a fixed seed only by a 1-in-1000 accident of that seed, which we would see at once.

``assert_luck_exact`` checks a game's ``luck`` against every outcome of one request, enumerated.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Mapping
from math import sqrt

from rules.luck import Luck

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


def assert_luck_exact(outcomes: Iterable[tuple[float, object, Luck, Mapping[str, bool]]], tol: float = 1e-12) -> None:
    """Brute force for one request: ``outcomes`` are all its rolls, each as (its chance, its rank on
    the game's scale (any ordered key, more is better), the engine's luck of it, the specials it got).

    Checks each roll's ``below`` and ``equal`` and each special's prior against sums over the
    outcomes, and that the mid-rank percentile averages exactly 1/2 with the stated variance.
    """
    outcomes = list(outcomes)
    assert abs(sum(p for p, *_ in outcomes) - 1) < tol, "the outcomes must cover every roll"
    by_rank: dict[object, float] = defaultdict(float)
    priors: dict[str, float] = defaultdict(float)
    for p, rank, _, got in outcomes:
        by_rank[rank] += p
        for code, happened in got.items():
            priors[code] += p * happened
    mean = spread = 0.0
    for p, rank, luck, got in outcomes:
        below = sum(q for r, q in by_rank.items() if r < rank)  # type: ignore[operator]
        assert abs(luck.below - below) < tol and abs(luck.equal - by_rank[rank]) < tol, (rank, luck, below)
        assert {s.code: s.happened for s in luck.specials} == dict(got)
        for special in luck.specials:
            assert abs(special.prior - priors[special.code]) < tol, (special, priors[special.code])
        mean += p * luck.percentile
        spread += p * (luck.percentile - 0.5) ** 2
    assert abs(mean - 0.5) < tol, mean
    assert all(abs(luck.variance - spread) < tol for _, _, luck, _ in outcomes), spread
