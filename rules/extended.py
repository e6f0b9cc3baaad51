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

from rules.dice import RulesError, check_int, parse_choice
from rules.dist import Distribution


class BotchPolicy(StrEnum):
    RESET = "reset"
    RUIN = "ruin"
    IGNORE = "ignore"


def botch_policy(value: str | BotchPolicy) -> BotchPolicy:
    return parse_choice(BotchPolicy, value, "botch policy")


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
    policy: BotchPolicy | str = BotchPolicy.RESET,
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
    policy = botch_policy(policy)  # a name ("reset") is as good as the enum
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


# --- extended opposed actions -------------------------------------------------------------
#
# Two ways to run an extended contest (Exalted 2e, "acciones prolongadas y enfrentadas"):
# a race, won by the first side to accumulate `goal` successes, and a tug-of-war, won by the
# first side to lead by `lead`. Both sides roll every round. When both reach the goal in the
# same round of a race it is a dead heat (``tie``): the GM rules or they roll on.


@dataclass(frozen=True, slots=True)
class OpposedOdds:
    """Chances for the first side within 1, 2, … rounds (cumulative)."""

    p_first_by: tuple[float, ...]
    p_second_by: tuple[float, ...]
    p_tie_by: tuple[float, ...]

    def as_json(self) -> dict[str, object]:
        return {"p_first_by": list(self.p_first_by), "p_second_by": list(self.p_second_by), "p_tie_by": list(self.p_tie_by)}


def race_odds(first: ExtendedOdds, second: ExtendedOdds) -> OpposedOdds:
    """A race: each side's progress is its own extended action, independent of the other's.

    So the first side wins in round t when it finishes then and the second has not yet, and
    the round-by-round answer follows from each side's ``p_done_by`` alone.
    """
    rounds = min(len(first.p_done_by), len(second.p_done_by))
    p1 = p2 = tie = 0.0
    done1_before = done2_before = 0.0
    by1, by2, byt = [], [], []
    for t in range(rounds):
        f1, f2 = first.p_done_by[t] - done1_before, second.p_done_by[t] - done2_before
        p1 += f1 * (1.0 - second.p_done_by[t])
        p2 += f2 * (1.0 - first.p_done_by[t])
        tie += f1 * f2
        done1_before, done2_before = first.p_done_by[t], second.p_done_by[t]
        by1.append(p1)
        by2.append(p2)
        byt.append(tie)
    return OpposedOdds(tuple(by1), tuple(by2), tuple(byt))


def tug_of_war_odds(margin: Distribution, lead: int, rounds: int = 20, start: int = 0) -> OpposedOdds:
    """A tug-of-war: the running difference moves by each round's margin (first − second)
    and the first side to lead by ``lead`` wins. ``margin`` is a contest's margin distribution;
    ``start`` is the difference so far (strictly between −lead and lead).
    """
    check_int(lead, "lead", 1, 1000)
    check_int(rounds, "rounds", 1, 10_000)
    check_int(start, "start", -lead + 1, lead - 1)
    # States: the running difference -lead+1 .. lead-1, stored at index difference + lead - 1.
    width = 2 * lead - 1
    state = [0.0] * width
    state[start + lead - 1] = 1.0
    moves = [(margin.offset + i, p) for i, p in enumerate(margin.probs) if p]
    p1 = p2 = 0.0
    by1, by2 = [], []
    for _ in range(rounds):
        nxt = [0.0] * width
        for i, mass in enumerate(state):
            if not mass:
                continue
            for step, p in moves:
                j = i + step
                if j >= width:
                    p1 += mass * p
                elif j < 0:
                    p2 += mass * p
                else:
                    nxt[j] += mass * p
        state = nxt
        by1.append(p1)
        by2.append(p2)
    return OpposedOdds(tuple(by1), tuple(by2), (0.0,) * rounds)


@dataclass(frozen=True, slots=True)
class TugOfWar:
    """Where a tug-of-war stands: the running difference (first − second) and its winner."""

    lead: int
    difference: int = 0
    rounds: int = 0

    @property
    def winner(self) -> int | None:
        """1 or 2 once a side leads by ``lead``, else None."""
        if self.difference >= self.lead:
            return 1
        if self.difference <= -self.lead:
            return 2
        return None

    def pull(self, first_successes: int, second_successes: int) -> TugOfWar:
        if self.winner is not None:
            raise RulesError("this tug-of-war is already won")
        return replace(self, difference=self.difference + first_successes - second_successes, rounds=self.rounds + 1)


def race_winner(first: ExtendedState, second: ExtendedState) -> int | None:
    """1 or 2 when exactly one side has reached its goal, 0 for a dead heat, None while running."""
    if first.done and second.done:
        return 0
    if first.done or second.done:
        return 1 if first.done else 2
    return None
