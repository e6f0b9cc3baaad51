"""Luck: where one roll fell in its own exact distribution, and the chances of its special results.

Every game ranks a roll on one scale of whole numbers, more being better (its successes, or
Fate's total), and hands that scale's exact distribution, for the request as rolled, to
``luck_of``. The result is a ``Luck``:

- ``below``: P(a roll of the same request scores strictly worse), ``equal``: P(it scores the
  same), ``above`` the rest; ``percentile = below + equal / 2``, the *mid-rank*. Over fair rolls
  of any request its mean is exactly 1/2 (Σ pᵥ(Fᵥ⁻ + pᵥ/2) = (Σ pᵥ)²/2), so the percentiles of a
  whole campaign, mixing pools and games, average 1/2 when the dice are fair: a mean above it is
  luck. ``variance`` is the percentile's variance over fair rolls of that request, (1 − Σ pᵥ³)/12
  (1/12 for a continuous scale; a coarse scale varies less), which lets ``rules.fairness`` tell
  whether a campaign's mean percentile is surprising.
- ``specials``: each special result the game has (``Special``: its code, its chance before the
  roll, whether this roll got it), always all of the game's, in a fixed order, even when a
  request cannot get one (its prior is then 0): "a messy critical, 9 % before the roll".

What each game ranks, and how it treats its follow-ups, is written in its own ``luck``:
``exalted.luck``, ``v5.luck`` and ``v5.rouse_luck``, ``scifi.luck``, ``fate.luck``. Two games
have a result worse than any plain failure, a botch (Exalted) and a fumble (scifi): it ranks
below every other roll of the request, a failure with 2 successes and a fumble with 2 ranked
apart (``below_all``). A roll that was not rolled (an automatic success, taking half, a task
impossible without a roll) has no luck: the games answer None.

The card's word: ``band`` turns a percentile into a code the web translates. The bands are
symmetric (a percentile p and 1 − p fall in mirrored bands) and cut at 10 %, 30 %, 70 % and 90 %:
on a fine scale a roll is "very lucky" one time in ten and "lucky" or better three in ten, often
enough to be worth a word, rarely enough to mean something. On a coarse scale the mid-rank keeps
a likely outcome in the middle: a roll that half of all rolls tie with is at most 25 % from 1/2
("unlucky" or "lucky", never "very"), and a certain result is "average". For the number on the
card, "better than N % of rolls like it" is ``below`` (strictly better), "worse than" ``above``.

Cost: the games' ``odds`` (O(n²) at worst for n dice, a few milliseconds for the largest pools)
and one pass over the distribution.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rules.dist import Distribution, clamp

VERY = 0.10  # a roll this far from the middle, or further, is "very" lucky or unlucky
RATHER = 0.30  # ... this far, "lucky" or "unlucky"


def band(percentile: float) -> str:
    """The card's word for a percentile: very_unlucky < 10 % ≤ unlucky < 30 % ≤ average ≤ 70 %
    < lucky ≤ 90 % < very_lucky. The cuts mirror each other: 30 % and 70 % are both average."""
    if percentile < VERY:
        return "very_unlucky"
    if percentile < RATHER:
        return "unlucky"
    if percentile <= 1 - RATHER:
        return "average"
    return "lucky" if percentile <= 1 - VERY else "very_lucky"


@dataclass(frozen=True, slots=True)
class Special:
    """One of a game's special results: its code, its chance before the roll, and whether the roll got it."""

    code: str  # "botch", "critical", "messy_critical", "bestial_failure", "success_with_style", "fumble"
    prior: float
    happened: bool

    def as_json(self) -> dict[str, object]:
        return {"code": self.code, "prior": self.prior, "happened": self.happened}


@dataclass(frozen=True, slots=True)
class Luck:
    """Where a roll fell among the rolls of its request (see the module's docstring)."""

    below: float  # P(a roll of the same request scores strictly worse)
    equal: float  # P(it scores the same)
    variance: float  # of the percentile, over fair rolls of the same request
    specials: tuple[Special, ...] = ()

    @property
    def above(self) -> float:
        return clamp(1.0 - self.below - self.equal)

    @property
    def percentile(self) -> float:
        """The mid-rank: ``below + equal / 2``, whose mean over fair rolls is exactly 1/2."""
        return clamp(self.below + self.equal / 2)

    @property
    def band(self) -> str:
        return band(self.percentile)

    def special(self, code: str) -> Special:
        """This roll's special of that code; a KeyError if the game has none by that name."""
        for special in self.specials:
            if special.code == code:
                return special
        raise KeyError(code)

    def as_json(self) -> dict[str, object]:
        return {
            "below": self.below,
            "equal": self.equal,
            "above": self.above,
            "percentile": self.percentile,
            "band": self.band,
            "variance": self.variance,
            "specials": [s.as_json() for s in self.specials],
        }


def luck_of(scale: Distribution, value: int, specials: Iterable[Special] = ()) -> Luck:
    """The luck of a roll scoring ``value`` on a scale whose exact distribution is ``scale``.

    A value past the end of the scale (scifi's explosions cut at 1e-15) is above every listed
    one: its ``below`` is what the scale lists, its ``equal`` 0.
    """
    variance = (1.0 - sum(p * p * p for p in scale.probs)) / 12
    return Luck(scale.p_below(value), clamp(scale.p(value)), max(0.0, variance), tuple(specials))


def below_all(scale: Distribution, worst: Mapping[int, float]) -> Distribution:
    """``scale`` with a worst result (a botch, a fumble) ranked below every other roll.

    ``worst`` maps each value to P(the worst result and that value); that mass moves from its
    value to a new lowest rung, ``scale.offset - 1``, where a roll that got it is ranked.
    """
    probs = list(scale.probs)
    for value, p in worst.items():
        if p:  # a request that cannot botch has nothing to move (and may have no 0 to move it from)
            probs[value - scale.offset] -= p
    return Distribution((sum(worst.values()), *(max(0.0, p) for p in probs)), scale.offset - 1, scale.tail)
