"""Exact probability distributions over whole numbers (successes, totals, shifts).

Everything here is computed, never simulated: per-die distributions are convolved, so a
pool of n dice costs O(n²) float operations, well under a millisecond for the pools a
table sees. Floats carry about 1e-15 of rounding, far below what the UI shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb


@dataclass(frozen=True, slots=True)
class Distribution:
    """``probs[i]`` is the probability of the value ``offset + i``.

    ``tail`` is probability mass left out above the last value (the scifi engine truncates
    endless explosions there and reports it); it is zero for every finite roll.
    """

    probs: tuple[float, ...]
    offset: int = 0
    tail: float = 0.0

    @classmethod
    def point(cls, value: int) -> Distribution:
        return cls((1.0,), value)

    @classmethod
    def from_dict(cls, mapping: dict[int, float]) -> Distribution:
        low, high = min(mapping), max(mapping)
        return cls(tuple(mapping.get(v, 0.0) for v in range(low, high + 1)), low)

    @property
    def high(self) -> int:
        return self.offset + len(self.probs) - 1

    def p(self, value: int) -> float:
        i = value - self.offset
        return self.probs[i] if 0 <= i < len(self.probs) else 0.0

    def p_at_least(self, value: int) -> float:
        """P(X >= value), in [0, 1]. The tail counts only where all of it is at least ``value``
        (every value past the last one is); above that its share is unknown and left out."""
        i = max(0, value - self.offset)
        tail = self.tail if value <= self.high + 1 else 0.0
        return clamp(sum(self.probs[i:]) + tail)

    def p_below(self, value: int) -> float:
        """P(X < value), in [0, 1]."""
        i = max(0, value - self.offset)
        return clamp(sum(self.probs[:i]))

    def normalised(self) -> Distribution:
        """The same distribution with its rounding removed: the values and the tail sum to 1."""
        total = sum(self.probs) + self.tail
        if not total or total == 1.0:
            return self
        return Distribution(tuple(max(0.0, p) / total for p in self.probs), self.offset, self.tail / total)

    @property
    def mean(self) -> float:
        return sum((self.offset + i) * p for i, p in enumerate(self.probs))

    def shifted(self, k: int) -> Distribution:
        return Distribution(self.probs, self.offset + k, self.tail)

    def convolve(self, other: Distribution) -> Distribution:
        """The distribution of X + Y for independent X and Y."""
        a, b = self.probs, other.probs
        if len(a) < len(b):
            a, b = b, a
        # Loop over the shorter side (a die has 2–10 faces) and add whole shifted rows at once:
        # list comprehensions over slices run several times faster than an element loop.
        n = len(a)
        out = [0.0] * (n + len(b) - 1)
        for j, pb in enumerate(b):
            if pb:
                out[j : j + n] = [o + pb * x for o, x in zip(out[j : j + n], a)]
        tail = self.tail + other.tail - self.tail * other.tail
        return Distribution(tuple(out), self.offset + other.offset, tail)

    def as_dict(self, cutoff: float = 0.0) -> dict[int, float]:
        return {self.offset + i: p for i, p in enumerate(self.probs) if p > cutoff}


def clamp(p: float) -> float:
    """A probability computed in floating point, kept in [0, 1] (rounding may pass 1 by ~1e-15)."""
    return min(1.0, max(0.0, p))


def sum_of_weighted(weights: tuple[int, ...], n: int, offset: int = 0) -> Distribution:
    """The total of ``n`` dice whose faces score ``offset + i`` with integer weight ``weights[i]``.

    Exact and fast: the polynomial power (Σ wᵢxⁱ)ⁿ is computed as one big-integer power by
    Kronecker substitution (x = 2^bits, wide enough that no coefficient spills into the next),
    then each coefficient is divided by (Σ wᵢ)ⁿ once. A 30-die pool costs a few microseconds.
    """
    if n == 0:
        return Distribution.point(0)
    total = sum(weights)
    bits = (total**n).bit_length() + 1  # every coefficient is at most total**n
    x = sum(w << (bits * i) for i, w in enumerate(weights))
    packed = x**n
    mask = (1 << bits) - 1
    denominator = total**n
    length = n * (len(weights) - 1) + 1
    probs = tuple(((packed >> (bits * k)) & mask) / denominator for k in range(length))
    return Distribution(probs, offset * n)


def binomial(n: int, p: float) -> tuple[float, ...]:
    """P(k of n trials succeed) for k = 0..n."""
    q = 1.0 - p
    return tuple(comb(n, k) * p**k * q ** (n - k) for k in range(n + 1))


@dataclass(frozen=True, slots=True)
class ContestOdds:
    """Both sides roll; the chances for the first side. A tie is a stalemate."""

    p_win: float
    p_tie: float
    p_lose: float
    first: Distribution
    second: Distribution
    tail: float = 0.0  # undecided: either side's mass cut off above its distribution (scifi, < 1e-14)

    @property
    def margin(self) -> Distribution:
        """The first side's result minus the second's (computed on demand: O(n·m))."""
        negated = Distribution(tuple(reversed(self.second.probs)), -self.second.high)
        return Distribution(self.first.probs, self.first.offset).convolve(negated)

    def as_json(self) -> dict[str, object]:
        return {
            "p_win": self.p_win,
            "p_tie": self.p_tie,
            "p_lose": self.p_lose,
            "tail": self.tail,
            "distribution": self.margin.as_dict(),
        }


def _beats(a: Distribution, b: Distribution) -> tuple[float, float]:
    """P(a > b) and P(a = b) over the values both distributions hold, in O(n + m)."""
    p_win = p_tie = 0.0
    below = 0.0  # P(b < value), grown as value rises
    j = 0
    for i, pa in enumerate(a.probs):
        value = a.offset + i
        while j < len(b.probs) and b.offset + j < value:
            below += b.probs[j]
            j += 1
        p_win += pa * below
        p_tie += pa * b.p(value)
    return p_win, p_tie


def contest(a: Distribution, b: Distribution) -> ContestOdds:
    """Odds of ``a`` beating ``b`` (more is better), in O(n + m) with running sums.

    Mass cut off above a distribution (scifi explosions, below 1e-15) is counted for neither
    side: it is reported apart as ``tail``, so ``p_win + p_tie + p_lose + tail`` is 1.
    """
    p_win, p_tie = _beats(a, b)
    tail = a.tail + b.tail - a.tail * b.tail
    # With a tail the first side's loss is summed from what is known, like its win.
    p_lose = _beats(b, a)[0] if tail else 1.0 - p_win - p_tie
    total = p_win + p_tie + p_lose + tail
    return ContestOdds(clamp(p_win / total), clamp(p_tie / total), clamp(p_lose / total), a, b, tail)

