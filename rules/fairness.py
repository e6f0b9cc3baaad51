"""Fair dice: goodness of fit for the faces a campaign rolled, and luck seen against luck expected.

Everything answers one question, "would fair dice do this?", with a p-value (the chance that
fair dice do at least as strangely) and a ``verdict`` code the web translates:

- ``too_few``: too few dice to tell (below, per test);
- ``nothing_unusual``: p ≥ 1 %;
- ``unusual``: p < 1 %;
- ``very_unusual``: p < 0.1 %;
- ``impossible``: fair play cannot give it at all (a card twice in one deck cycle).

The cuts are stricter than the textbook 5 % on purpose: the page is read again and again as the
campaign grows, and each die type and each special result is a test of its own, so at 5 % a
fair campaign would be "unusual" somewhere most evenings. At 1 % with a dozen tests on the page
a false alarm shows about one look in ten; 0.1 % is the one to act on.

**The faces** (``fair_dice``): Pearson's chi-square of every face rolled against equal chances,
each die type apart: d10s (``D10``: every die of Exalted, V5's normal and Hunger dice and rouse
checks, scifi's pool and explosion dice, each explosion being a fresh d10) and Fate dice rolled
as dice (``FATE_DIE``: faces -1, 0, +1). Count only faces that were thrown: a V5 Willpower
reroll adds the rerolled dice's new faces, a Fate reroll its four new dice, a +2 invocation or an
automatic success nothing. The p-value is the chi-square distribution's upper tail, the
regularized upper incomplete gamma function Q(df/2, x/2) (``gamma_q``, standard library only).
Below 5 dice expected per face (50 d10s, 15 Fate dice) the chi-square's tail is no longer a good
approximation and the verdict is ``too_few``: an exact multinomial test would be valid there,
but so few dice only show a gross bias, and a table rolls past 50 d10s in its first evening.
A chi-square sees frequencies only: dice that cycle 1, 2, … 10 in order pass it.

**The Fate deck** (``fair_deck``): 81 cards dealt without replacement, reshuffled when empty. A
card drawn twice within one cycle (between reshuffles) is ``impossible``. Beyond that, counting
cards says nothing: a full cycle deals every card exactly once, fair or not. What a fair deck
promises is a uniformly random order, so the test is on *when* the cards come: a Kruskal-Wallis
test of the cards' positions in their cycle, the cards grouped by their dice's sum (-2 or
less, -1, 0, +1, +2 or more: 15, 16, 19, 16 and 15 of the 81, what matters at the table). The
cards not yet drawn from the last cycle (or from a deck reshuffled early) all sit at the mean
of the positions left, as ties. Under a uniform order each group's positions are a sample
without replacement, so their sums' covariance is exact, s·(diag(n) − nnᵀ/81) with s the
positions' sum of squares over 80; summed over the cycles (independent shuffles), the statistic
Σ D_g² / (n_g Σ s) is chi-square with 4 degrees of freedom. It catches good cards coming first,
a deck dealt in order (p = 2e-7 in one cycle), and cards missing from the deck (they never come:
one cycle is enough); a deck whose draws take the best card left one time in five is flagged
at 1 % in 96 % of three-cycle runs. Simulated fair decks (2,000 runs of 27 to 1,000 draws) are
flagged at 1 % in 0.65 % to 0.85 % of runs. ``counts`` and ``expected`` are the cards drawn per
group and the cards a fair deck deals on average; ``too_few`` below 5 expected per group (27
draws). The sequential alternative, each draw against the cards left, was tried and dropped: it
flags fair decks at 1 % twice as often as it says when the draws end near a cycle's end.

**Special results seen against expected** (``tally``): given each roll's prior chance of, say, a
botch (``rules.luck``), the number seen is a Poisson-binomial variable X. Its two tails are
exact when that is cheap: convolution over the rolls, counted from the nearer end and cut at the
count seen, n·min(k, n − k) float operations for n rolls and k seen, up to ``EXACT_BUDGET``
(100,000: ~5 ms, 5,000 rolls seen up to 20 times). Past it (the convolution took 0.2 to 0.7 s
for 5,000 rolls of a common special, V5's criticals or Fate's successes with style, and grows as
n²), the saddlepoint approximation, ~1 ms for 5,000 rolls of a few distinct priors (a campaign's
take a few dozen values: equal ones are counted once) and ~5 ms if all 5,000 differ:

- the Lugannani-Rice tail with Daniels' (1987) second continuity correction, P(X ≥ k) from the
  saddlepoint of k − ½ and P(X ≤ k) from that of k + ½, with its second-order term (the
  continuous case's, from the inversion integral, with 1/(2 sinh(s/2)) in place of 1/s); at a
  point within |w| < 0.02 of the mean that term is a difference of terms in 1/w³, so the
  neighbouring count answers (P(X ≥ k) = P(X ≥ k + 1) + P(X = k), P(X = k) by the saddlepoint
  density), or past a variance of 400 the first-order term (error ~1e-2/σ³, under 1e-6 there).
  The refined normal approximation (Volkova 1996) that Hong (2013, "On computing the
  distribution function for the Poisson binomial distribution") compares errs by ~1e-3 at
  σ = 5, and on tails between 1e-4 and 1e-2 by up to 87 % at σ = 5, 3 % at σ = 21;
- where the sum tilted to the saddlepoint is lumpy (K'' < 16, or a tilt so strong that u ≫ w:
  a few rolls far past their chances, a count next to the end of the possible ones) the
  formula's error grows without bound (one roll of a result expected 1e-6 times: 4 times too
  likely), and the tilted sum is summed exactly instead: P(X = j) = e^{K(s) − sj}·P_s(T = j)
  for any tilt s, and T, whose variance is that small K'', is two short convolutions (the rolls
  likely or not once tilted), each cut where Bennett's inequality leaves under 1e-15: up to ~50
  operations a roll, fewer for rolls of equal priors.

The accuracy promised, and tested against the exact convolution over seeded random prior vectors
of every shape (even and skewed, a few values or all distinct, tiny variances, chances near 0
and 1 at once, certain rolls among them), every count within 14 standard deviations of the mean,
and over hypothesis' prior vectors: each tail within 1e-5 absolute (the worst seen 1.3e-6); a
tail between 1e-4 and 1e-2 within 1e-3 relative (worst seen 2.5e-5), so that past the budget a
verdict is the exact one unless the exact p-value lies within 0.1 % of a cut; a smaller tail
within 20 % relative (worst seen 4.5e-4), never 0 unless under ~1e-300 (or only chances under
1e-100, taken as 0 past the budget, can give it). Two-sided p-value: twice the smaller tail, at
most 1.

**The mean percentile** (``mean_percentile``): each roll's percentile has mean 1/2 and a known
variance under fair dice (``Luck.variance``), so the z-score of their sum says whether a
campaign is luckier than its dice should make it; a normal approximation, ``too_few`` below
30 rolls. **Streaks** (``streaks``): the longest runs of successes and of failures (a tie ends both).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from math import ceil, copysign, cosh, erfc, exp, expm1, fsum, isfinite, lgamma, log, log1p, pi, sinh, sqrt
from operator import mul, sub

from rules.dice import RulesError, check_int
from rules.dist import clamp
from rules.fate import CARDS, DECK_SIZE

D10 = tuple(range(1, 11))
FATE_DIE = (-1, 0, 1)
MIN_EXPECTED = 5.0  # per face or group: below, the chi-square's tail is not trusted
MIN_ROLLS = 30  # for the mean percentile's normal approximation
UNUSUAL = 0.01
VERY_UNUSUAL = 0.001


def verdict(p_value: float | None) -> str:
    """The code for a p-value; None (no test possible) is ``too_few``."""
    if p_value is None:
        return "too_few"
    if p_value < VERY_UNUSUAL:
        return "very_unusual"
    return "unusual" if p_value < UNUSUAL else "nothing_unusual"


# --- the chi-square's tail ---------------------------------------------------------------------

_EPS = 1e-16
_MAX_TERMS = 100_000  # both expansions need O(√a) terms; this only stops a runaway


def gamma_q(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a), the regularized upper incomplete gamma function (a > 0, x ≥ 0).

    The series of P = 1 − Q below x = a + 1, where it converges fast and Q is not small; the
    continued fraction of Q above, by the modified Lentz method, so a tiny Q keeps its relative
    precision. About 1e-15 relative for the degrees of freedom a chi-square test has here.
    """
    if not (a > 0 and isfinite(a)) or not x >= 0:
        raise RulesError(f"gamma_q needs a > 0 and x >= 0, got a={a!r}, x={x!r}")
    if x == 0:
        return 1.0
    if x == float("inf"):
        return 0.0
    if x < a + 1:
        return clamp(1.0 - _p_series(a, x))
    return clamp(_q_fraction(a, x))


def _weight(a: float, x: float) -> float:
    """e^−x · x^a / Γ(a), in logarithms so that neither factor overflows."""
    return exp(a * log(x) - x - lgamma(a))


def _p_series(a: float, x: float) -> float:
    # P(a, x) = e^−x x^a / Γ(a+1) · Σₙ xⁿ / ((a+1)…(a+n))
    term = total = 1.0 / a
    n = a
    for _ in range(_MAX_TERMS):
        n += 1
        term *= x / n
        total += term
        if term < total * _EPS:
            break
    return total * _weight(a, x)


def _q_fraction(a: float, x: float) -> float:
    # Q(a, x) = e^−x x^a / Γ(a) · 1/(x+1−a− 1·(1−a)/(x+3−a− 2·(2−a)/(x+5−a− …)))
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, _MAX_TERMS):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = b + an / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        if abs(d * c - 1.0) < _EPS:
            break
    return h * _weight(a, x)


def chi_square_p(statistic: float, df: int) -> float:
    """P(a chi-square variable with ``df`` degrees of freedom is at least ``statistic``)."""
    check_int(df, "degrees of freedom", 1)
    return gamma_q(df / 2, max(0.0, statistic) / 2)


# --- the faces ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fit:
    """A goodness-of-fit test of faces (or the deck's card groups) against fair play."""

    dice: int  # faces (or cards) counted
    counts: tuple[tuple[int, int], ...]  # (face, times seen), every face, in order
    expected: tuple[tuple[int, float], ...]  # (face, times fair play expects)
    statistic: float
    df: int
    p_value: float | None  # None: too few to tell
    repeats: int = 0  # the deck: cards drawn again within one cycle

    @property
    def verdict(self) -> str:
        return "impossible" if self.repeats else verdict(self.p_value)

    def as_json(self) -> dict[str, object]:
        return {
            "dice": self.dice,
            "counts": dict(self.counts),
            "expected": dict(self.expected),
            "statistic": self.statistic,
            "df": self.df,
            "p_value": self.p_value,
            "repeats": self.repeats,
            "verdict": self.verdict,
        }


def fair_dice(counts: Mapping[int, int], sides: int | Sequence[int] = D10) -> Fit:
    """Chi-square of the faces rolled (face → times seen) against a fair die.

    ``sides``: the number of faces of a die numbered from 1 (10 for a d10), or the faces
    themselves (``FATE_DIE``). A face the die does not have is refused, not ignored.
    """
    faces = tuple(range(1, check_int(sides, "sides", 2) + 1)) if isinstance(sides, int) else tuple(sides)
    if len(set(faces)) != len(faces) or len(faces) < 2:
        raise RulesError(f"a die has two or more distinct faces, got {faces!r}")
    unknown = sorted(set(counts) - set(faces))
    if unknown:
        raise RulesError(f"face {unknown[0]!r} is not a face of this die ({', '.join(map(str, faces))})")
    seen = tuple((face, check_int(counts.get(face, 0), f"count of face {face}", 0)) for face in faces)
    n = sum(count for _, count in seen)
    each = n / len(faces)
    statistic = fsum((count - each) ** 2 / each for _, count in seen) if n else 0.0
    df = len(faces) - 1
    p_value = chi_square_p(statistic, df) if each >= MIN_EXPECTED else None
    return Fit(n, seen, tuple((face, each) for face in faces), statistic, df, p_value)


# --- the Fate deck -----------------------------------------------------------------------------

DECK_GROUPS = (-2, -1, 0, 1, 2)  # a card's dice sum, -2 or less and +2 or more pooled


def _group(card: int) -> int:
    return max(-2, min(2, sum(CARDS[card]))) + 2  # the index into DECK_GROUPS


GROUP_SIZES = tuple(sum(_group(card) == g for card in range(DECK_SIZE)) for g in range(len(DECK_GROUPS)))


def fair_deck(draws: Iterable[tuple[int, bool]]) -> Fit:
    """Test the Fate deck's draws, in order: (card index 0-80, whether the deck was reshuffled
    before it, as ``rules.fate.Draw`` says). The draws before the first reshuffle come from a
    full deck. A deck edited by hand between draws breaks the reconstruction of what was left:
    the test then sees cards dealt twice (``impossible``) or a deck not dealt fairly.
    """
    cycles: list[list[int]] = []
    repeats = 0
    for card, reshuffled in draws:
        check_int(card, "card", 0, DECK_SIZE - 1)
        if reshuffled or not cycles:
            cycles.append([])
        if card in cycles[-1]:
            repeats += 1  # no fair deal gives it; it takes no position in the cycle
        else:
            cycles[-1].append(card)
    middle = (DECK_SIZE + 1) / 2  # every cycle's mean position
    deviation = [0.0] * len(DECK_GROUPS)  # Σ over each group's cards of (position − middle)
    spread = 0.0  # Σ over the cycles of the positions' sum of squares / (N − 1)
    for cycle in cycles:
        # The cards still in the deck come later, in an order unknown: each at their mean position.
        position = [(len(cycle) + 1 + DECK_SIZE) / 2] * DECK_SIZE
        for place, card in enumerate(cycle, 1):  # a whole place, named apart from ``at`` (a float position)
            position[card] = place
        for card, at in enumerate(position):
            deviation[_group(card)] += at - middle
        spread += fsum((at - middle) ** 2 for at in position) / (DECK_SIZE - 1)
    statistic = fsum(d * d / (size * spread) for d, size in zip(deviation, GROUP_SIZES)) if spread else 0.0
    drawn = sum(len(cycle) for cycle in cycles)
    counts = [0] * len(DECK_GROUPS)
    for card in (card for cycle in cycles for card in cycle):
        counts[_group(card)] += 1
    expected = [drawn * size / DECK_SIZE for size in GROUP_SIZES]
    df = len(DECK_GROUPS) - 1
    p_value = chi_square_p(statistic, df) if min(expected) >= MIN_EXPECTED else None
    return Fit(drawn + repeats, tuple(zip(DECK_GROUPS, counts)), tuple(zip(DECK_GROUPS, expected)), statistic, df,
               p_value, repeats)


# --- special results seen against expected -----------------------------------------------------

EXACT_BUDGET = 100_000  # rolls × the count from the nearer end: the convolution, ~5 ms at most
LUMPY_BELOW = 16.0  # K₂(ŝ) below (or u over _LUMPY_TILT·w while K₂ < 100): the tilted sum, exactly
NEIGHBOUR_BELOW = 400.0  # variance below which a point at the mean borrows its neighbour's formula
_LUMPY_TILT = 20.0
_NEGLIGIBLE = 1e-100  # a chance below: a roll that never gets it, past the budget
_CENTRE = 0.02  # |w| below: the second-order term is a difference of terms in 1/w³
_SERIES = 1e-3  # |ŝ| below: the first-order term from the series of w in ŝ
_CAP_TAIL = 1e-15  # what the exact sums of the tilted rolls leave out, past Bennett's bound
_INV_SQRT_2PI = 1.0 / sqrt(2.0 * pi)
_SQRT2 = sqrt(2.0)


@dataclass(frozen=True, slots=True)
class Tally:
    """How many rolls got a special result, against the number their priors expect."""

    rolls: int
    seen: int
    expected: float  # Σ p
    variance: float  # Σ p(1 − p)
    p_at_most: float  # P(seen or fewer) with fair dice
    p_at_least: float  # P(seen or more)

    @property
    def p_value(self) -> float:
        """Two-sided: twice the smaller tail, at most 1."""
        return min(1.0, 2 * min(self.p_at_most, self.p_at_least))

    @property
    def verdict(self) -> str:
        return verdict(self.p_value)

    def as_json(self) -> dict[str, object]:
        return {
            "rolls": self.rolls,
            "seen": self.seen,
            "expected": self.expected,
            "variance": self.variance,
            "p_at_most": self.p_at_most,
            "p_at_least": self.p_at_least,
            "p_value": self.p_value,
            "verdict": self.verdict,
        }


def tally(priors: Iterable[float], seen: int) -> Tally:
    """``seen`` special results over rolls whose chances of one were ``priors`` (each roll's
    ``Luck.special(code).prior``): "3 botches seen, 1.4 expected", and how surprising that is.
    Exact within ``EXACT_BUDGET``, else the saddlepoint (the module's docstring says how close)."""
    ps = list(priors)
    for p in ps:
        if not 0.0 <= p <= 1.0:
            raise RulesError(f"a prior chance is between 0 and 1, got {p!r}")
    check_int(seen, "results seen", 0, len(ps))
    expected = fsum(ps)
    variance = fsum([p * (1.0 - p) for p in ps])
    if len(ps) * min(seen, len(ps) - seen) <= EXACT_BUDGET:
        p_at_most, p_at_least = _exact_tails(ps, seen)
    else:
        p_at_most, p_at_least = _beyond_budget(ps, seen)
    return Tally(len(ps), seen, expected, variance, clamp(p_at_most), clamp(p_at_least))


def _exact_tails(ps: list[float], seen: int) -> tuple[float, float]:
    """(P(X ≤ seen), P(X ≥ seen)) by convolution, counted from whichever end is nearer (the rolls
    that got it, or those that did not) and cut there."""
    if seen <= len(ps) - seen:
        counted = _capped(ps, seen)
        return fsum(counted[:-1]), counted[-2] + counted[-1]
    counted = _capped([1.0 - p for p in ps], len(ps) - seen)
    return counted[-2] + counted[-1], fsum(counted[:-1])


def _capped(ps: Iterable[float], k: int) -> list[float]:
    """[P(X = 0), …, P(X = k), P(X > k)] for the number X of independent events with chances ``ps``
    that happen: the Poisson-binomial distribution, convolved one event at a time, its values past
    k kept together in the last entry. Every entry is a sum of positive terms, so both tails keep
    their precision however small (never 1 minus the rest). O(len(ps) · k)."""
    counted = [1.0] + [0.0] * (k + 1)
    for p in ps:
        if p:  # an impossible event changes nothing
            q = 1.0 - p
            counted = [counted[0] * q, *(a * q + b * p for a, b in zip(counted[1:-1], counted)),
                       counted[-1] + counted[-2] * p]
    return counted


# Past the budget. X is a sum of independent Bernoulli(p) events; its cumulant generating function
# is K(s) = Σ log(1 − p + p·eˢ). Tilting by s gives each event the chance r = ρeˢ / (1 + ρeˢ)
# (ρ = p / (1 − p)), so that K′(s) = Σ r, K₂ = K″(s) = Σ r(1 − r), K₃ = K‴(s) = Σ r(1 − r)(1 − 2r)
# and K₄ = K⁗(s) = Σ r(1 − r)(1 − 6r(1 − r)). The saddlepoint ŝ of a point x solves K′(ŝ) = x;
# the deviance ŝx − K(ŝ) = Σ [ŝr − log(1 − p + p·eˢ)] is a sum of relative entropies, each ≥ 0,
# and w = sign(ŝ)·√(2 × deviance).


@dataclass(frozen=True, slots=True)
class _Point:
    s: float  # the saddlepoint ŝ
    w: float  # the signed root of twice the deviance
    deviance: float
    mean: float  # K′(ŝ): the point, to Newton's tolerance
    k2: float  # K₂, K₃, K₄ at ŝ
    k3: float
    k4: float


class _Events:
    """The rolls of a Poisson-binomial sum, equal chances counted once (a campaign's priors take
    few distinct values), chances 0 and 1 and under ``_NEGLIGIBLE`` left out by the caller. The
    sums over the chances run in map() and sum(), a few times faster than a loop in Python."""

    def __init__(self, counts: Mapping[float, int]) -> None:
        self.ps = list(counts)
        self.counts = list(counts.values())
        self.rhos = [p / (1.0 - p) for p in self.ps]
        self.weights = None if len(self.ps) == sum(self.counts) else [float(c) for c in self.counts]
        self.size = sum(self.counts)
        self.mean = self.sum(self.ps)  # Newton's start, and which way to go at the mean: no fsum needed
        self.variance = self.sum([p * (1.0 - p) for p in self.ps])
        self.log_rho = (log(min(self.rhos)), log(max(self.rhos)))
        self.p_max = max(self.ps)

    def sum(self, values: Iterable[float], exact: bool = False) -> float:
        """Σ over the rolls of a value each distinct chance gives (fsum's if ``exact``)."""
        weighted = values if self.weights is None else map(mul, self.weights, values)
        return fsum(weighted) if exact else sum(weighted)

    def tilted(self, s: float) -> tuple[list[float], list[float]]:
        """Each distinct chance tilted by s: (r, 1 − r), both to full precision."""
        t = exp(s)
        vs = [1.0 / (1.0 + t * rho) for rho in self.rhos]
        return [t * rho * v for rho, v in zip(self.rhos, vs)], vs

    def saddle(self, x: float, s: float) -> _Point:
        """The saddlepoint of x (0 < x < size), by Newton's method from s, kept inside a bracket
        (bisection when a step leaves it): K′ is increasing, and as each r lies between the least
        and the greatest roll's, the root lies within log(x / (size − x)) − log ρ."""
        base = log(x / (self.size - x))
        lo, hi = base - self.log_rho[1], base - self.log_rho[0]
        s = min(max(s, lo), hi)
        for _ in range(200):
            rs, vs = self.tilted(s)
            # f = K′(s) − x from the side where neither term dwarfs it. Stopped under 1e-7, the
            # tails are those of a point 1e-7 away (~4e-8/σ, or 1e-7·|ŝ| relative, off);
            # rounding keeps f within ~1e-16 × size.
            if x <= self.size / 2:
                mean = self.sum(rs, exact=True)
                f = mean - x
            else:
                unlikely = self.sum(vs, exact=True)
                mean, f = self.size - unlikely, (self.size - x) - unlikely
            k2 = self.sum(map(mul, rs, vs))
            if abs(f) <= 1e-7:
                break
            if f > 0:
                hi = s
            else:
                lo = s
            if hi - lo <= 1e-15 * (1.0 + abs(s)):  # the root, to a float's precision
                break
            s = s - f / k2 if k2 > 0 and lo < s - f / k2 < hi else 0.5 * (lo + hi)
        rvs = list(map(mul, rs, vs))
        k3 = self.sum(map(mul, rvs, map(sub, vs, rs)))
        k4 = k2 - 6.0 * self.sum(map(mul, rvs, rvs))
        # log(1 − p + p·eˢ) as log1p(p(eˢ − 1)), but as log of the sum where that is small (p near
        # 1, ŝ < 0), which log1p would take as 1 minus nearly 1
        tm1 = expm1(s)
        if s >= 0 or self.p_max * tm1 >= -0.5:
            logs = [log1p(p * tm1) for p in self.ps]
        else:
            t = exp(s)
            logs = [log1p(p * tm1) if p * tm1 >= -0.5 else log((1.0 - p) + p * t) for p in self.ps]
        deviance = max(0.0, self.sum([s * r - g for r, g in zip(rs, logs)], exact=True))
        return _Point(s, copysign(sqrt(2.0 * deviance), s), deviance, mean, k2, k3, k4)


def _beyond_budget(ps: Iterable[float], k: int) -> tuple[float, float]:
    """(P(X ≤ k), P(X ≥ k)) for the number X of independent events with chances ``ps`` that
    happen, past the budget: the saddlepoint's formula where the tilted sum is smooth, the tilted
    sum itself, exactly, where it is lumpy (the module's docstring). Unclamped."""
    counts = Counter(ps)
    k -= counts.pop(1.0, 0)
    for p in [p for p in counts if p <= _NEGLIGIBLE]:
        del counts[p]
    size = sum(counts.values())
    if k < 0 or k > size:
        return (0.0, 1.0) if k < 0 else (1.0, 0.0)
    if size == 0:
        return 1.0, 1.0
    events = _Events(counts)
    # P(X ≥ k) from the point k − ½, P(X ≤ k) from k + ½ (Daniels' second continuity correction).
    # Newton starts where the saddlepoint would be were the chances all equal; the second point,
    # a step of 1 / K₂ past the first.
    centre = log(events.mean / (size - events.mean)) if 0 < events.mean < size else 0.0
    above = below = None
    if k > 0:
        above = events.saddle(k - 0.5, log((k - 0.5) / (size - k + 0.5)) - centre)
        if above.s >= 0 and _lumpy(above):
            return _tilted_tails(events, k, above)
    if k < size:
        start = above.s + 1 / max(above.k2, 1e-300) if above else log((k + 0.5) / (size - k - 0.5)) - centre
        below = events.saddle(k + 0.5, start)
        if below.s <= 0 and _lumpy(below):
            return _tilted_tails(events, k, below)
    for point in (above, below):  # the mean between the two points: either tilt will do
        if point and _lumpy(point):
            return _tilted_tails(events, k, point)
    if events.variance < NEIGHBOUR_BELOW and above and below:
        # At the mean the first order would answer, erring by up to ~1e-2/σ³; the neighbouring
        # point, 1/σ > 0.05 away in w, takes the second: P(X ≥ k) = P(X ≥ k + 1) + P(X = k) and
        # P(X ≤ k) = P(X ≤ k − 1) + P(X = k).
        if abs(above.w) < _CENTRE:
            return _below(below), _above(below) + _mass(events, k, above.s)
        if abs(below.w) < _CENTRE:
            return _below(above) + _mass(events, k, below.s), _above(above)
    return (_below(below) if below else 1.0), (_above(above) if above else 1.0)


def _lumpy(point: _Point) -> bool:
    """Whether the sum tilted to the point is too lumpy for the tail's formula: a small K₂, or a
    tilt so strong that u outgrows w (a few rare rolls far past their mean), where the formula's
    error grows without bound. (With K₂ ≥ 100 that strong a tilt puts the tail under 1e-300.)"""
    if point.k2 < LUMPY_BELOW:
        return True
    return point.k2 < 100 and 2 * sinh(abs(point.s) / 2) * sqrt(point.k2) > _LUMPY_TILT * abs(point.w)


def _correction(point: _Point) -> tuple[float, float]:
    """(w, D): the tail above the point is Q(w) + φ(w)·D, the one below Φ(w) − φ(w)·D.

    Second order, with g(s) = 1 / (2 sinh(s/2)) in place of the continuous case's 1/s:
    D = [g·(1 + λ₄/8 − 5λ₃²/24) + K₃·g′ / (2K₂²) − g″ / (2K₂)] / √K₂ − 1/w + 1/w³, with
    λ₃ = K₃ / K₂^{3/2} and λ₄ = K₄ / K₂². Near the mean (|w| < ``_CENTRE``) that is a difference
    of terms in 1/w³, and the first order answers (Daniels' second continuity correction):
    D = 1/u − 1/w with u = 2 sinh(ŝ/2)·√K₂, from the series of w in ŝ when ŝ is tiny."""
    s, w, a, b, c = point.s, point.w, point.k2, point.k3, point.k4
    if abs(w) >= _CENTRE:
        sh, ch = sinh(s / 2), cosh(s / 2)
        g, g1, g2 = 1 / (2 * sh), -ch / (4 * sh * sh), (2 * ch * ch - sh * sh) / (8 * sh ** 3)
        inner = g * (1 + c / (8 * a * a) - 5 * b * b / (24 * a ** 3)) + b * g1 / (2 * a * a) - g2 / (2 * a)
        return w, inner / sqrt(a) - 1 / w + 1 / w ** 3
    if abs(s) >= _SERIES:
        return w, 1 / (2 * sinh(s / 2) * sqrt(a)) - 1 / w
    # w² = ŝ²K₂(1 + ŝe), e = −K₃/(3K₂) + ŝK₄/(12K₂) + O(ŝ²); 2 sinh(ŝ/2) = ŝ(1 + ŝ²/24 + ŝ⁴/1920 + …)
    e = -b / (3 * a) + s * c / (12 * a)
    root = sqrt(1 + s * e)
    sh = 1 + s * s / 24 + s ** 4 / 1920
    return s * sqrt(a) * root, (e / (1 + root) - s / 24 - s ** 3 / 1920) / (sqrt(a) * root * sh)


def _above(point: _Point) -> float:
    w, d = _correction(point)
    return 0.5 * erfc(w / _SQRT2) + exp(-0.5 * w * w) * _INV_SQRT_2PI * d


def _below(point: _Point) -> float:
    w, d = _correction(point)
    return 0.5 * erfc(-w / _SQRT2) - exp(-0.5 * w * w) * _INV_SQRT_2PI * d


def _mass(events: _Events, k: int, s: float) -> float:
    """P(X = k) by the saddlepoint, with its second-order term: φ(w)/√K₂·(1 + λ₄/8 − 5λ₃²/24)."""
    point = events.saddle(k, s)
    a = point.k2
    return exp(-point.deviance) * _INV_SQRT_2PI / sqrt(a) * (1 + point.k4 / (8 * a * a) - 5 * point.k3 ** 2 / (24 * a ** 3))


def _tilted_tails(events: _Events, k: int, point: _Point) -> tuple[float, float]:
    """(P(X ≤ k), P(X ≥ k)) from the sum tilted to the point, exactly: for any s,
    P(X = j) = e^{K(s) − sj}·P_s(T = j), T the sum of the rolls with their tilted chances r. Its
    mean is the point, its variance K₂ small, so T = A + (the rolls with r > ½) − B, A counting
    the others that happen and B those that do not, is known exactly from two short convolutions:
    each cut where Bennett's bound leaves under ``_CAP_TAIL``. The smaller tail is a sum of
    positive terms; the other, 1 minus the smaller past k."""
    s = point.s
    rs, vs = events.tilted(s)
    rare = [(r, c) for r, c in zip(rs, events.counts) if r <= 0.5]
    likely = [(v, c) for r, v, c in zip(rs, vs, events.counts) if r > 0.5]
    offset = sum(c for _, c in likely)
    a, b = _binomials(rare), _binomials(likely)
    # log P(X = j) = K(s) − sj + log P_s(T = j), with K(s) − sk = s(K′(s) − k) − deviance
    log_factor = s * (point.mean - k) - point.deviance
    terms = []
    for j in range(offset - len(b) + 1, offset + len(a)):
        mass = fsum(a[j - offset + i] * b[i] for i in range(max(0, offset - j), min(len(b), len(a) + offset - j)))
        terms.append((j, mass))
    if s >= 0:  # the upper tail: j ≥ k
        at_least = exp(log_factor) * fsum(m * exp(-s * (j - k)) for j, m in terms if j >= k)
        at_k = exp(log_factor) * next((m for j, m in terms if j == k), 0.0)
        return 1.0 - (at_least - at_k), at_least
    at_most = exp(log_factor) * fsum(m * exp(-s * (j - k)) for j, m in terms if j <= k)
    at_k = exp(log_factor) * next((m for j, m in terms if j == k), 0.0)
    return at_most, 1.0 - (at_most - at_k)


def _binomials(groups: list[tuple[float, int]]) -> list[float]:
    """[P(S = 0), …, P(S = cap)] for S the sum of independent Binomial(c, r), (r, c) in
    ``groups`` (each r ≤ ½), cut at the cap where Bennett's bound puts P(S > cap) under
    ``_CAP_TAIL``: a Binomial(c, r) by the ratio of its successive terms, convolved in."""
    mean = fsum(r * c for r, c in groups)
    variance = fsum(r * (1.0 - r) * c for r, c in groups)
    cap = ceil(mean + _bennett_deviation(variance))
    dist = [1.0] + [0.0] * cap
    for r, c in groups:
        if c == 1:
            v = 1.0 - r
            dist = [dist[0] * v, *(x * v + y * r for x, y in zip(dist[1:], dist))]
            continue
        terms = [exp(c * log1p(-r))]
        ratio = r / (1.0 - r)
        for i in range(min(c, cap)):
            terms.append(terms[-1] * (c - i) / (i + 1) * ratio)
        dist = [fsum(dist[j - i] * t for i, t in enumerate(terms[: j + 1])) for j in range(cap + 1)]
    return dist


def _bennett_deviation(variance: float) -> float:
    """A deviation t above the mean that a sum of events with this variance passes with a chance
    under ``_CAP_TAIL``, by Bennett's inequality: P(S − μ ≥ t) ≤ exp(−V·h(t/V)), with
    h(u) = (1 + u)·log(1 + u) − u (written (V + t)·log(1 + t/V) − t, finite for a tiny V)."""
    if variance == 0:
        return 0.0
    target = -log(_CAP_TAIL)
    lo, hi = 0.0, 1.0
    while (variance + hi) * log1p(hi / variance) - hi < target:
        lo, hi = hi, 2 * hi
    while hi - lo > 0.25:
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if (variance + mid) * log1p(mid / variance) - mid >= target else (mid, hi)
    return hi


# --- the mean percentile, streaks ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MeanPercentile:
    """The rolls' mean percentile, against the 1/2 fair dice give."""

    rolls: int
    mean: float | None  # None without rolls
    z: float | None  # (Σ percentile − rolls/2) / √Σ variance
    p_value: float | None  # two-sided, normal approximation; None below MIN_ROLLS rolls

    @property
    def verdict(self) -> str:
        return verdict(self.p_value)

    def as_json(self) -> dict[str, object]:
        return {"rolls": self.rolls, "mean": self.mean, "z": self.z, "p_value": self.p_value, "verdict": self.verdict}


def mean_percentile(lucks: Iterable[tuple[float, float]]) -> MeanPercentile:
    """From each roll's (``Luck.percentile``, ``Luck.variance``): is the campaign luckier than fair dice?"""
    rolls = list(lucks)
    if not rolls:
        return MeanPercentile(0, None, None, None)
    total = fsum(percentile for percentile, _ in rolls)
    variance = fsum(v for _, v in rolls)
    z = (total - len(rolls) / 2) / sqrt(variance) if variance > 0 else None
    p_value = erfc(abs(z) / sqrt(2)) if z is not None and len(rolls) >= MIN_ROLLS else None
    return MeanPercentile(len(rolls), total / len(rolls), z, p_value)


@dataclass(frozen=True, slots=True)
class Streaks:
    successes: int  # the longest run of successes in a row
    failures: int  # ... of failures

    def as_json(self) -> dict[str, int]:
        return {"successes": self.successes, "failures": self.failures}


def streaks(outcomes: Iterable[bool | None]) -> Streaks:
    """The longest runs of successes (True) and of failures (False), in order. None (a tie: neither
    a success nor a failure) ends either run and starts none."""
    longest = {True: 0, False: 0}
    run, previous = 0, None
    for outcome in outcomes:
        if outcome is None:
            run, previous = 0, None
            continue
        outcome = bool(outcome)
        run = run + 1 if outcome == previous else 1
        previous = outcome
        longest[outcome] = max(longest[outcome], run)
    return Streaks(longest[True], longest[False])
