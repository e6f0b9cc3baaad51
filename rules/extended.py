"""Extended actions, shared by every game: accumulate successes over repeated rolls.

Each roll adds ``max(0, successes - difficulty)`` to the running total until it reaches the
goal. What a botch does is the GM's choice (``BotchPolicy``): reset the total to 0 (the
default, per Exalted 2e), ruin the task for good, or be ignored (a zero-gain roll).

The odds treat the task as a Markov chain over the running total 0..goal. ``expected_rolls``
under ``ruin`` is the expectation *given that the task completes* (the unconditional one is
infinite whenever a botch is possible); ``p_complete`` says how likely completion is at all.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from rules.dice import RulesError, check_int
from rules.dist import Distribution


class BotchPolicy(StrEnum):
    RESET = "reset"
    RUIN = "ruin"
    IGNORE = "ignore"


def botch_policy(value: str | BotchPolicy) -> BotchPolicy:
    try:
        return BotchPolicy(value)
    except ValueError:
        raise RulesError(f"botch policy must be reset, ruin or ignore, got {value!r}") from None


@dataclass(frozen=True, slots=True)
class ExtendedState:
    """Where an extended action stands after some rolls."""

    goal: int
    total: int = 0
    rolls: int = 0
    ruined: bool = False

    @property
    def done(self) -> bool:
        return self.total >= self.goal

    @property
    def over(self) -> bool:
        return self.done or self.ruined


def gain(successes: int, difficulty: int = 0) -> int:
    """What one roll adds to the running total."""
    return max(0, successes - difficulty)


def advance(
    state: ExtendedState,
    successes: int,
    botched: bool,
    difficulty: int = 0,
    policy: BotchPolicy = BotchPolicy.RESET,
) -> ExtendedState:
    """The state after one more roll. Rolling into a finished or ruined task is an error."""
    if state.over:
        raise RulesError("this extended action is already " + ("complete" if state.done else "ruined"))
    rolled = replace(state, rolls=state.rolls + 1)
    if botched and policy is BotchPolicy.RESET:
        return replace(rolled, total=0)
    if botched and policy is BotchPolicy.RUIN:
        return replace(rolled, ruined=True)
    return replace(rolled, total=state.total + gain(successes, difficulty))


@dataclass(frozen=True, slots=True)
class ExtendedOdds:
    goal: int
    policy: BotchPolicy
    expected_rolls: float | None  # None: the task can never be completed
    p_complete: float  # chance of ever completing (1 unless it can be ruined or never progresses)
    p_done_by: tuple[float, ...]  # p_done_by[k-1]: completed within k rolls

    def as_json(self) -> dict[str, object]:
        return {
            "goal": self.goal,
            "botch": self.policy.value,
            "expected_rolls": self.expected_rolls,
            "p_complete": self.p_complete,
            "p_done_by": list(self.p_done_by),
        }


def extended_odds(
    per_roll: Distribution,
    p_botch: float,
    goal: int,
    difficulty: int = 0,
    policy: BotchPolicy = BotchPolicy.RESET,
    rolls: int = 20,
    progress: int = 0,
) -> ExtendedOdds:
    """Exact odds of an extended action.

    ``per_roll`` is the distribution of one roll's successes *excluding* botches, whose
    probability ``p_botch`` is given apart (``per_roll`` sums to ``1 - p_botch``). A botch
    always scores zero successes. ``progress`` is the total already accumulated.
    """
    check_int(goal, "goal", 1, 10_000)
    check_int(difficulty, "difficulty", 0)
    check_int(rolls, "rolls", 1, 10_000)
    check_int(progress, "progress", 0)
    # g[k]: probability that a (non-botch) roll adds k, capped at the goal since more is the same.
    g = [0.0] * (goal + 1)
    for i, p in enumerate(per_roll.probs):
        g[min(goal, gain(per_roll.offset + i, difficulty))] += p
    g[goal] += per_roll.tail
    if policy is BotchPolicy.IGNORE:
        g[0] += p_botch
        p_botch = 0.0
    start = min(progress, goal)
    return ExtendedOdds(
        goal=goal,
        policy=policy,
        expected_rolls=_expected_rolls(g, p_botch, goal, policy, start),
        p_complete=_p_complete(g, p_botch, goal, policy, start),
        p_done_by=_p_done_by(g, p_botch, goal, policy, rolls, start),
    )


def _p_done_by(g: list[float], p_botch: float, goal: int, policy: BotchPolicy, rolls: int, start: int) -> tuple[float, ...]:
    # Forward over the running total 0..goal-1; mass reaching the goal is banked in `done`.
    state = [0.0] * goal
    done = 1.0 if start >= goal else 0.0
    if start < goal:
        state[start] = 1.0
    nonzero = [(k, p) for k, p in enumerate(g) if p]
    out = []
    for _ in range(rolls):
        nxt = [0.0] * goal
        for i, mass in enumerate(state):
            if not mass:
                continue
            for k, p in nonzero:
                j = i + k
                if j >= goal:
                    done += mass * p
                else:
                    nxt[j] += mass * p
            if policy is BotchPolicy.RESET:
                nxt[0] += mass * p_botch
        state = nxt
        out.append(min(1.0, done))
    return tuple(out)


def _p_complete(g: list[float], p_botch: float, goal: int, policy: BotchPolicy, start: int) -> float:
    if start >= goal:
        return 1.0
    progress = sum(g[1:])
    if progress == 0:
        return 0.0
    if policy is not BotchPolicy.RUIN:
        return 1.0  # progress is always possible, so the goal is reached with probability 1
    return _ruin_sums(g, goal)[0][start]


def _ruin_sums(g: list[float], goal: int) -> tuple[list[float], list[float]]:
    """Under ``ruin``: P_i = P(complete from i), M_i = E[rolls · 1{complete}] from i."""
    stay = 1.0 - g[0]
    P = [0.0] * goal + [1.0]
    M = [0.0] * (goal + 1)
    for i in range(goal - 1, -1, -1):
        P[i] = sum(g[k] * P[min(goal, i + k)] for k in range(1, goal + 1)) / stay
        M[i] = (P[i] + sum(g[k] * M[min(goal, i + k)] for k in range(1, goal + 1))) / stay
    return P, M


def _expected_rolls(g: list[float], p_botch: float, goal: int, policy: BotchPolicy, start: int) -> float | None:
    if start >= goal:
        return 0.0
    if sum(g[1:]) == 0:
        return None
    if policy is BotchPolicy.RUIN:
        P, M = _ruin_sums(g, goal)
        return M[start] / P[start]
    # E_i = a_i + b_i·E_0 (a botch under `reset` sends the total back to 0), solved from the goal down.
    stay = 1.0 - g[0]
    a = [0.0] * (goal + 1)
    b = [0.0] * (goal + 1)
    for i in range(goal - 1, -1, -1):
        a[i] = (1.0 + sum(g[k] * a[min(goal, i + k)] for k in range(1, goal + 1))) / stay
        b[i] = (p_botch + sum(g[k] * b[min(goal, i + k)] for k in range(1, goal + 1))) / stay
    e0 = a[0] / (1.0 - b[0])
    return a[start] + b[start] * e0
