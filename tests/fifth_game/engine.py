"""The fifth game's rules: roll ``pool`` d6, count the faces of 5 or more, succeed on ``difficulty`` of them;
a push rolls the misses again.

Written as each ``rules`` module is (frozen dataclasses, a random source injected, exact odds), with
what the table asks of an engine (``Request``, ``roll`` and ``odds``) and the push its game offers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb

from rules import dice
from rules.dice import RandomSource, RulesError, check_int, count_at_least
from rules.dist import Distribution

SIDES = 6
HIT = 5  # a face of 5 or 6 is a success
P_HIT = (SIDES - HIT + 1) / SIDES
MAX_POOL = 100


@dataclass(frozen=True, slots=True)
class Request:
    pool: int
    difficulty: int = 1

    def __post_init__(self) -> None:
        check_int(self.pool, "pool", 0, MAX_POOL)
        check_int(self.difficulty, "difficulty", 0, MAX_POOL)


@dataclass(frozen=True, slots=True)
class Result:
    request: Request
    faces: tuple[int, ...]

    @property
    def successes(self) -> int:
        return count_at_least(self.faces, HIT)

    @property
    def margin(self) -> int:
        return self.successes - self.request.difficulty

    @property
    def outcome(self) -> str:
        return "success" if self.margin >= 0 else "failure"

    def as_json(self) -> dict[str, object]:
        return {"faces": list(self.faces), "successes": self.successes, "margin": self.margin,
                "outcome": self.outcome, "notes": [], "pool": self.request.pool, "difficulty": self.request.difficulty}


def resolve(request: Request, faces: Sequence[int]) -> Result:
    if len(faces) != request.pool or not all(1 <= f <= SIDES for f in faces):
        raise RulesError(f"expected {request.pool} faces from 1 to {SIDES}")
    return Result(request, tuple(faces))


def roll(request: Request, rng: RandomSource | None = None) -> Result:
    source = rng or dice.system_random()  # looked up when rolling, as the rules modules do (tests script it)
    return resolve(request, [source.randint(1, SIDES) for _ in range(request.pool)])


def push(result: Result, rng: RandomSource | None = None) -> Result:
    """The roll with each miss (a face under ``HIT``) rolled again, in its place."""
    source = rng or dice.system_random()
    return resolve(result.request, [face if face >= HIT else source.randint(1, SIDES) for face in result.faces])


@dataclass(frozen=True, slots=True)
class Odds:
    request: Request
    distribution: Distribution  # of successes

    @property
    def p_success(self) -> float:
        return self.distribution.p_at_least(self.request.difficulty)


def odds(request: Request) -> Odds:
    """Exact: the successes of ``pool`` dice are binomial (pool, 1/3)."""
    n = request.pool
    return Odds(request, Distribution(tuple(comb(n, k) * P_HIT**k * (1 - P_HIT) ** (n - k) for k in range(n + 1))))
