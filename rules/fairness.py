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
botch (``rules.luck``), the number seen is a Poisson-binomial variable, computed exactly by
convolution over the rolls, counted from the nearer end and cut at the count seen: O(n·min(k,
n − k)) float operations for n rolls and k seen. A rare result costs little (5,000 rolls seen
50 times: 14 ms); the worst case, k = n/2, takes 0.1 s for 2,000 rolls and 0.6 s for 5,000.
Two-sided p-value: twice the smaller tail, at most 1.

**The mean percentile** (``mean_percentile``): each roll's percentile has mean 1/2 and a known
variance under fair dice (``Luck.variance``), so the z-score of their sum says whether a
campaign is luckier than its dice should make it; a normal approximation, ``too_few`` below
30 rolls. **Streaks** (``streaks``): the longest runs of successes and of failures.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from math import erfc, exp, fsum, isfinite, lgamma, log, sqrt

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
        for at, card in enumerate(cycle, 1):
            position[card] = at
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
    ``Luck.special(code).prior``): "3 botches seen, 1.4 expected", and how surprising that is."""
    ps = list(priors)
    for p in ps:
        if not 0.0 <= p <= 1.0:
            raise RulesError(f"a prior chance is between 0 and 1, got {p!r}")
    check_int(seen, "results seen", 0, len(ps))
    expected = fsum(ps)
    # Counted from whichever end is nearer (the rolls that got it, or those that did not), cut there.
    if seen <= len(ps) - seen:
        counted = _capped(ps, seen)
        p_at_most, p_at_least = fsum(counted[:-1]), counted[-2] + counted[-1]
    else:
        counted = _capped([1.0 - p for p in ps], len(ps) - seen)
        p_at_least, p_at_most = fsum(counted[:-1]), counted[-2] + counted[-1]
    return Tally(len(ps), seen, expected, fsum(p * (1.0 - p) for p in ps), clamp(p_at_most), clamp(p_at_least))


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


def streaks(outcomes: Iterable[bool]) -> Streaks:
    """The longest runs of successes (True) and of failures (False), in order."""
    longest = {True: 0, False: 0}
    run, previous = 0, None
    for outcome in outcomes:
        outcome = bool(outcome)
        run = run + 1 if outcome == previous else 1
        previous = outcome
        longest[outcome] = max(longest[outcome], run)
    return Streaks(longest[True], longest[False])
