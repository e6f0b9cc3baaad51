"""Extended actions, shared by every game: accumulate successes over repeated rolls.

Each roll adds ``max(0, successes - difficulty)`` to the running total until it reaches the
goal. What a botch does is the GM's choice (``BotchPolicy``): reset the total to 0 (the
default, per Exalted 2e), ruin the task for good, or be ignored (a zero-gain roll).

The odds treat the task as a Markov chain over the running total 0..goal. ``expected_rolls``
under ``ruin`` is the expectation *given that the task completes* (the unconditional one is
infinite whenever a botch is possible); ``p_complete`` says how likely completion is at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from rules.dice import RulesError, check_int, parse_choice
from rules.dist import ContestOdds, Distribution


# Bounds of the odds (the command line's too): beyond them a query is refused, not computed.
# Together they keep the slowest accepted query within a second (see ``make bench``).
MAX_GOAL = 200  # successes to accumulate, or the lead that wins a tug-of-war
MAX_ROLLS = 1000  # rolls (rounds) looked ahead
MAX_DIFFICULTY = 100  # each roll's own difficulty
MAX_TUG_ROUNDS = 500  # a tug-of-war's rounds looked ahead: its walk spans twice the lead


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
    # What the walk was given (the moves ``g``, a botch's way back, where it started), so that a
    # race can look at the totals round by round (``race_odds``' tie-breaks); not part of the answer.
    walk: tuple[tuple[float, ...], float, int] = field(default=((), 0.0, 0), compare=False, repr=False)

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
    always scores zero successes. ``progress`` is the total already accumulated (0 to ``goal``).

    A ``tail`` of ``per_roll`` (mass left out above its last value) is never counted as
    completion: it gains at least ``high + 1 - difficulty``, and only that is credited. The
    games hand over a distribution long enough that the tail reaches the goal in one roll
    (``rules.scifi`` extends its explosions that far), so this is exact for them.
    """
    check_int(goal, "goal", 1, MAX_GOAL)
    check_int(difficulty, "difficulty", 0, MAX_DIFFICULTY)
    check_int(rolls, "rolls", 1, MAX_ROLLS)
    check_int(progress, "progress", 0, goal)
    policy = botch_policy(policy)  # a name ("reset") is as good as the enum
    # g[k]: probability that a (non-botch) roll adds k, capped at the goal since more is the same.
    g = [0.0] * (goal + 1)
    for i, p in enumerate(per_roll.probs):
        g[min(goal, gain(per_roll.offset + i, difficulty))] += max(0.0, p)
    if per_roll.tail > 0:
        g[min(goal, gain(per_roll.high + 1, difficulty))] += per_roll.tail
    p_botch = max(0.0, p_botch)
    if policy is BotchPolicy.IGNORE:
        g[0] += p_botch
        p_botch = 0.0
    return ExtendedOdds(
        goal=goal,
        policy=policy,
        expected_rolls=_expected_rolls(g, p_botch, goal, policy, progress),
        p_complete=_p_complete(g, p_botch, goal, policy, progress),
        p_done_by=_p_done_by(g, p_botch, goal, policy, rolls, progress),
        walk=(tuple(g), p_botch if policy is BotchPolicy.RESET else 0.0, progress),
    )


# --- the walk: a Markov chain over a row of states, in 64-bit fixed point ----------------------
#
# Each round the mass on the states 0..width-1 is convolved with the moves' distribution; what
# falls below 0 or reaches ``width`` is banked. The convolution is one big-integer product
# (Kronecker substitution, as in ``rules.dist.sum_of_weighted``): every mass is an integer count
# of 2**-64, packed 17 bytes apart so that no sum of products spills into its neighbour. Masses
# are rounded down, so nothing is ever created: what is banked never passes 1, and the rounding
# loses at most (states + moves) · 2**-64 a round, about 3e-14 over 1000 rounds of 200 states.

_BITS = 64
_ONE = 1 << _BITS
_SLOT = 17  # bytes per coefficient: a sum of products of two masses of at most 2**64 stays below 2**129
_LOW = _BITS // 8  # the bytes below the binary point of a product, dropped when it becomes a mass again


def _fixed(probs: list[float]) -> list[int]:
    """Probabilities as integer counts of 2**-64, rounded down, summing to at most 1."""
    ints = [int(p * _ONE) if p > 0 else 0 for p in probs]
    excess = sum(ints) - _ONE
    if excess > 0:
        ints[ints.index(max(ints))] -= excess
    return ints


def _slot_sum(raw: bytes | bytearray) -> int:
    """The sum of the 17-byte little-endian slots packed in ``raw``, column by column in C."""
    # A product's bytes, or a window of the state (a bytearray, which the walk writes in place).
    return sum(sum(raw[k::_SLOT]) << (8 * k) for k in range(_SLOT)) if raw else 0


def _walk(width: int, start: int, moves: list[float], offset: int, rounds: int,
          back: float = 0.0, rows: list[list[int]] | None = None) -> tuple[list[int], list[int]]:
    """Cumulative mass (in 2**-64) banked below state 0 and at or above ``width``, round by round.

    ``moves[m]`` is the chance of moving by ``offset + m``; ``back`` the chance of going back to
    state 0 (a botch under ``reset``); whatever is left of 1 leaves the row uncounted (ruin).
    The row itself stays packed as bytes between rounds: each round is one multiplication and a
    few slice copies, with no Python loop over the states. ``rows``, when given, gets the mass on
    each state at the start of each round (a Python loop over the states: only a race's
    tie-break asks for it).
    """
    kernel = _fixed([*moves, back])  # the moves and the way back together never pass 1
    back_int = kernel.pop()
    while kernel and not kernel[-1]:
        kernel.pop()
    first = next((m for m, k in enumerate(kernel) if k), len(kernel))
    kernel, offset = kernel[first:], offset + first
    if not kernel:
        return [0] * rounds, [0] * rounds  # nothing ever moves
    packed_kernel = int.from_bytes(b"".join(k.to_bytes(_SLOT, "little") for k in kernel), "little")
    state = bytearray(width * _SLOT)
    state[start * _SLOT:(start + 1) * _SLOT] = _ONE.to_bytes(_SLOT, "little")
    low = high = 0
    lows: list[int] = []
    highs: list[int] = []
    for _ in range(rounds):
        if rows is not None:
            rows.append([int.from_bytes(state[i * _SLOT:(i + 1) * _SLOT], "little") for i in range(width)])
        body = state.rstrip(b"\0")
        if not body:  # nothing left in play: the rest of the rounds change nothing
            break
        hi = -(-len(body) // _SLOT)
        lo = (len(body) - len(body.lstrip(b"\0"))) // _SLOT
        window = state[lo * _SLOT:hi * _SLOT]
        size = hi - lo + len(kernel) - 1
        raw = (int.from_bytes(window, "little") * packed_kernel).to_bytes(size * _SLOT, "little")
        # Coefficient c of the product is the mass arriving at state base + c.
        base = lo + offset
        c0 = min(size, max(0, -base))
        c1 = max(c0, min(size, width - base))
        low += _slot_sum(raw[:c0 * _SLOT]) >> _BITS
        high += _slot_sum(raw[c1 * _SLOT:]) >> _BITS
        nxt = bytearray(width * _SLOT)
        if c1 > c0:
            region, j0, j1 = raw[c0 * _SLOT:c1 * _SLOT], base + c0, base + c1
            for k in range(_SLOT - _LOW):  # each mass keeps its bytes above the binary point
                nxt[j0 * _SLOT + k:j1 * _SLOT:_SLOT] = region[_LOW + k::_SLOT]
        if back_int:
            zero = int.from_bytes(nxt[:_SLOT], "little") + ((_slot_sum(window) * back_int) >> _BITS)
            nxt[:_SLOT] = zero.to_bytes(_SLOT, "little")
        state = nxt
        lows.append(low)
        highs.append(high)
    lows += [low] * (rounds - len(lows))
    highs += [high] * (rounds - len(highs))
    if rows is not None:
        rows += [[0] * width for _ in range(rounds - len(rows))]
    return lows, highs


def _p_done_by(g: list[float], p_botch: float, goal: int, policy: BotchPolicy, rolls: int, start: int) -> tuple[float, ...]:
    if start >= goal:
        return (1.0,) * rolls
    back = p_botch if policy is BotchPolicy.RESET else 0.0
    _, done = _walk(goal, start, g, 0, rolls, back)
    return tuple(min(1.0, d / _ONE) for d in done)


def _moves(g: list[float]) -> list[tuple[int, float]]:
    return [(k, p) for k, p in enumerate(g) if k and p > 0]


def _p_complete(g: list[float], p_botch: float, goal: int, policy: BotchPolicy, start: int) -> float:
    if start >= goal:
        return 1.0
    if not _moves(g):
        return 0.0
    if policy is not BotchPolicy.RUIN:
        return 1.0  # progress is always possible, so the goal is reached with probability 1
    return min(1.0, _ruin_sums(g, p_botch, goal)[0][start])


def _ruin_sums(g: list[float], p_botch: float, goal: int) -> tuple[list[float], list[float]]:
    """Under ``ruin``: P_i = P(complete from i), M_i = E[rolls · 1{complete}] from i.

    Every sum has positive terms only (the chance of leaving a state is the sum of the moves
    and the botch, never 1 minus the chance of staying), so tiny chances keep their precision.
    """
    moves = _moves(g)
    leave = sum(p for _, p in moves) + p_botch
    P = [0.0] * goal + [1.0]
    M = [0.0] * (goal + 1)
    for i in range(goal - 1, -1, -1):
        P[i] = sum(p * P[min(goal, i + k)] for k, p in moves) / leave
        M[i] = (P[i] + sum(p * M[min(goal, i + k)] for k, p in moves)) / leave
    return P, M


def _expected_rolls(g: list[float], p_botch: float, goal: int, policy: BotchPolicy, start: int) -> float | None:
    if start >= goal:
        return 0.0
    moves = _moves(g)
    if not moves:
        return None
    if policy is BotchPolicy.RUIN:
        P, M = _ruin_sums(g, p_botch, goal)
        return M[start] / P[start] if P[start] else None
    # E_i = a_i + (1 - c_i)·E_0: a_i, the rolls until the goal or a botch (which under `reset`
    # sends the total back to 0); c_i, the chance of the goal first. O(goal × moves).
    leave = sum(p for _, p in moves) + p_botch
    a = [0.0] * (goal + 1)
    c = [0.0] * goal + [1.0]
    for i in range(goal - 1, -1, -1):
        a[i] = (1.0 + sum(p * a[min(goal, i + k)] for k, p in moves)) / leave
        c[i] = sum(p * c[min(goal, i + k)] for k, p in moves) / leave
    if not c[0]:
        return None  # the goal is out of floating-point reach
    return a[start] + (1.0 - c[start]) * (a[0] / c[0])


# --- extended opposed actions -------------------------------------------------------------
#
# Two ways to run an extended contest (Exalted 2e, "acciones prolongadas y enfrentadas"):
# a race, won by the first side to accumulate `goal` successes, and a tug-of-war, won by the
# first side to lead by `lead`. Both sides roll every round. When both reach the goal in the
# same round of a race the seed says nothing: the GM chooses beforehand (``TieBreak``).


class TieBreak(StrEnum):
    """What a race's dead heat (both sides reach the goal on the same roll) comes to."""

    TIE = "tie"  # a tie: the GM rules
    ROLL = "roll"  # the side with more successes on that roll wins; as many is a tie
    ROLL_OFF = "rolloff"  # both roll again, as often as it takes, until one rolls more successes


def tie_break(value: str | TieBreak) -> TieBreak:
    return parse_choice(TieBreak, value, "tie-break")


def broken_tie(rule: TieBreak, first_successes: int, second_successes: int, roll_off: bool) -> int | None:
    """Who a dead heat goes to on this roll: 1, 2, or None (a tie, or a roll-off still level).

    ``roll_off``: the race was level before this roll, so this is a roll-off's roll; else it is
    the roll on which both sides reached the goal."""
    if rule is TieBreak.TIE or (rule is TieBreak.ROLL_OFF) != roll_off or first_successes == second_successes:
        return None
    return 1 if first_successes > second_successes else 2


@dataclass(frozen=True, slots=True)
class OpposedOdds:
    """Chances for the first side within 1, 2, … rounds (cumulative)."""

    p_first_by: tuple[float, ...]
    p_second_by: tuple[float, ...]
    p_tie_by: tuple[float, ...]

    def as_json(self) -> dict[str, object]:
        return {"p_first_by": list(self.p_first_by), "p_second_by": list(self.p_second_by), "p_tie_by": list(self.p_tie_by)}


def race_odds(first: ExtendedOdds, second: ExtendedOdds, rule: TieBreak = TieBreak.TIE,
              rolls: ContestOdds | None = None, difficulty: int = 0) -> OpposedOdds:
    """A race: each side's progress is its own extended action, independent of the other's.

    So the first side wins in round t when it finishes then and the second has not yet, and
    the round-by-round answer follows from each side's ``p_done_by`` alone. A dead heat in
    round t stays one (``p_tie_by``) unless the ``rule`` breaks it, from one roll of each side
    (``rolls``, the contest of the two pools, which the rule needs; ``difficulty``, each roll's):

    - ``ROLL``: the side that rolled more successes on the finishing roll takes it. Both sides
      finish from where their totals stood (``_finishing``), independently, so the chance that
      the first finishes with k successes and the second with fewer is a sum over k.
    - ``ROLL_OFF``: the roll-offs repeat until one side rolls more, so the first side takes
      ``p_win / (p_win + p_lose)`` of every dead heat; the roll-offs are not counted as rounds.
    """
    rule = tie_break(rule)
    if rule is not TieBreak.TIE and rolls is None:
        raise RulesError(f"the tie-break {rule.value!r} needs both sides' rolls")
    rounds = min(len(first.p_done_by), len(second.p_done_by))
    if rule is TieBreak.ROLL:
        assert rolls is not None  # refused above: every rule but TIE needs the rolls
        mine, theirs = _finishing(first, rolls.first, difficulty, rounds), _finishing(second, rolls.second, difficulty, rounds)
    p_win = p_lose = 0.0  # ROLL_OFF's chances that a roll-off goes either way; no other rule looks at them
    if rule is TieBreak.ROLL_OFF:
        assert rolls is not None  # refused above, as for ROLL
        p_win, p_lose = rolls.p_win, rolls.p_lose
    decided = p_win + p_lose if rule is TieBreak.ROLL_OFF else 0.0
    p1 = p2 = tie = 0.0
    done1_before = done2_before = 0.0
    by1, by2, byt = [], [], []
    for t in range(rounds):
        f1, f2 = first.p_done_by[t] - done1_before, second.p_done_by[t] - done2_before
        p1 += f1 * (1.0 - second.p_done_by[t])
        p2 += f2 * (1.0 - first.p_done_by[t])
        if rule is TieBreak.ROLL:
            won, lost = _more(mine[t], theirs[t]), _more(theirs[t], mine[t])
            p1, p2, tie = p1 + won, p2 + lost, tie + max(0.0, f1 * f2 - won - lost)
        elif rule is TieBreak.ROLL_OFF and decided > 0:
            p1, p2 = p1 + f1 * f2 * p_win / decided, p2 + f1 * f2 * p_lose / decided
        else:
            tie += f1 * f2  # a tie, or a roll-off that can never be decided (neither pool ever wins)
        done1_before, done2_before = first.p_done_by[t], second.p_done_by[t]
        by1.append(p1)
        by2.append(p2)
        byt.append(tie)
    return OpposedOdds(tuple(by1), tuple(by2), tuple(byt))


def _finishing(odds: ExtendedOdds, roll: Distribution, difficulty: int, rounds: int) -> list[dict[int, float]]:
    """For each round, the chance that the side finishes in it with each number of successes.

    Finishing with k successes takes a roll of k (not a botch: a botch adds nothing) from a total
    of at least ``goal - gain(k)``, so it is ``P(k) · P(total at least that, not finished, not
    ruined)`` at the round's start: the walk's states, summed from the top. ``roll`` is one
    roll's successes whatever else it is, which for every roll that adds something is the same
    as the walk's non-botch roll (a botch scores nothing above the difficulty).
    """
    g, back, start = odds.walk
    goal = odds.goal
    if start >= goal:
        return [{} for _ in range(rounds)]
    rows: list[list[int]] = []
    _walk(goal, start, list(g), 0, rounds, back, rows)
    found = []
    for row in rows:
        at_least = [0.0] * (goal + 1)  # at_least[m]: mass on the totals m..goal-1
        for m in range(goal - 1, -1, -1):
            at_least[m] = at_least[m + 1] + row[m] / _ONE
        found.append({k: p * at_least[max(0, goal - gain(k, difficulty))]
                      for k, p in zip(range(roll.offset, roll.high + 1), roll.probs) if p > 0 and gain(k, difficulty) > 0})
    return found


def _more(mine: dict[int, float], theirs: dict[int, float]) -> float:
    """The chance that this side finishes with more successes than the other, both this round."""
    total = below = 0.0
    for k in sorted(mine.keys() | theirs.keys()):  # theirs summed from the fewest successes up
        total += mine.get(k, 0.0) * below
        below += theirs.get(k, 0.0)
    return total


def tug_of_war_odds(margin: Distribution, lead: int, rounds: int = 20, start: int = 0) -> OpposedOdds:
    """A tug-of-war: the running difference moves by each round's margin (first − second)
    and the first side to lead by ``lead`` wins. ``margin`` is a contest's margin distribution;
    ``start`` is the difference so far (strictly between −lead and lead).
    """
    check_int(lead, "lead", 1, MAX_GOAL)
    check_int(rounds, "rounds", 1, MAX_TUG_ROUNDS)
    check_int(start, "start", -lead + 1, lead - 1)
    # States: the running difference -lead+1 .. lead-1, stored at index difference + lead - 1.
    second, first = _walk(2 * lead - 1, start + lead - 1, list(margin.probs), margin.offset, rounds)
    return OpposedOdds(tuple(min(1.0, p / _ONE) for p in first), tuple(min(1.0, p / _ONE) for p in second),
                       (0.0,) * rounds)


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
