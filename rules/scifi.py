"""The science-fiction d10 game ("Sci-fi d10"): exploding success pools, fumbles, turns.

The rules (RULES.md, section ``scifi``, from the Spanish seed):

- The pool is Attribute + Skill d10s; each die showing 7 or more is a success.
- **Exploding 10s**: a 10 is a success and is rolled again; the extra die is a success on 7+
  and explodes again on a 10, without limit.
- **Difficulty** is the number of successes needed: Easy (``Difficulty.EASY``) is an automatic
  success unless the skill rating is exactly 1, then 1 success; Common 1; Hard 2; Very hard 3;
  Extreme 4. Hard and above are impossible (no roll) without a level in the skill.
- **Specific knowledge** (seed, "Comprobación de Acciones"): a simple action that needs specific
  knowledge needs at least one level in that skill; ``Request.knowledge`` marks it, and with
  ``skill == 0`` it is impossible at any difficulty, Easy included (no automatic success).
- **Degree**: successes equal to the difficulty = barely (ajustado), one over = clean (justo),
  two or more over = absolute (absoluto).
- **Modifiers** are summed first; a positive net is capped at +3 and the pool never drops below
  0 dice. A 0-dice action fails without a roll.
- **Fumble** (pifia): the action fails and the first die of the pool shows 1.
- **Opposed**: more successes wins (by 1 narrowly, 2 clearly, 3+ overwhelmingly); equal is a
  stalemate; the losing side fumbles if its first die is 1.
- **Turns**: 2 action slots; short 1 slot, long 2, an extended action both slots every turn while
  it runs, special actions their own limit (firing: 1 slot, once a turn). Off-Rol actions are
  refused while an adventure is open unless the GM stages a scene for them.

Decisions where the digest and the seed are silent:

- ``skill=None`` means "not checked": Easy is then automatic and nothing is impossible.
- Any difficulty needing 2 or more successes (a name or a number) counts as Hard or above, so it
  is impossible with ``skill == 0``. A numeric difficulty 0 is rolled but cannot fail; only the
  name Easy makes an action automatic.
- Order of the no-roll cases: impossible, then automatic (an easy task needs no dice, so it
  succeeds even if penalties took the pool to 0), then a 0-dice pool (fails, never fumbles).
- Results that were not rolled have no degree (``None``): the degrees grade a roll, and an
  automatic success was not rolled. Their margin is still ``successes - needed`` with 0 successes.
- Faces are given in draw order: the pool first, then each explosion die as drawn (the roller
  draws the explosions for the pool's 10s in order, then for the 10s among the explosions).
  Every explosion die must be owed to an earlier 10, and there are exactly as many as 10s.
- In a stalemate nobody loses, so nobody fumbles: the GM may still run another round.
- Opposed actions and contests roll each side's pool after modifiers; difficulty and skill do
  not apply to them.
- Extended actions: a roll adds ``max(0, successes - difficulty)``; a roll that adds nothing
  with a first die of 1 is a fumble, and the fumble is the botch for the ``BotchPolicy``
  (reset by default). Only the request's dice matter there, not its difficulty or skill.
- Pools are 0 to 100 dice (the command line's bound).

Exact odds: a die's successes are its run of 10s plus one more if the die that ends the run shows
7-9, so n dice score ``T + H`` with T negative binomial (10s, p=0.1) and H binomial (n, 1/3)
independent. The series is endless: the distribution shown is cut where less than 1e-15 is left
out, that mass being its ``tail`` (reported apart, never counted as a success or a win); the chance
of success is summed from the needed successes up (``p_at_least``), so far beyond reach it is the
exact tiny value, and extended actions carry the series as far as their goal.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import islice
from types import MappingProxyType

from rules.dice import (
    Note, RandomSource, RulesError, check_d10_faces, check_int, count_at_least, note, roll_d10, system_random,
)
from rules.dist import ContestOdds, Distribution, binomial
from rules.dist import contest as contest_odds
from rules.extended import MAX_DIFFICULTY as MAX_EXTENDED_DIFFICULTY
from rules.extended import MAX_GOAL, BotchPolicy, ExtendedOdds, ExtendedState, advance, extended_odds
from rules.luck import Luck, Special, below_all, luck_of

SYSTEM = "scifi"
TITLE = "Sci-fi d10"
MAX_POOL = 100
MAX_BONUS = 3  # a positive net modifier adds at most 3 dice
SUCCESS_FACE = 7
TAIL = 1e-15  # the shown distribution is cut where less than this is left out (reported as its tail)
MAX_DIFFICULTY = 100  # successes needed: beyond, a typo rather than a task (RULES.md bounds)


class Difficulty(StrEnum):
    """The named ladder; the value is how the command line spells it."""

    EASY = "easy"
    COMMON = "common"
    HARD = "hard"
    VERY_HARD = "very-hard"
    EXTREME = "extreme"

    def needed(self, skill: int | None) -> int:
        """Successes needed: Easy needs 1 only with a skill rating of exactly 1, else none."""
        if self is Difficulty.EASY:
            return 1 if skill == 1 else 0
        return _LADDER[self]


_LADDER = {Difficulty.COMMON: 1, Difficulty.HARD: 2, Difficulty.VERY_HARD: 3, Difficulty.EXTREME: 4}
_NEEDS_SKILL = _LADDER[Difficulty.HARD]  # from Hard up, impossible without a level in the skill


def parse_difficulty(value: int | str | Difficulty) -> int | Difficulty:
    """A number of successes (>= 0) or a ladder name: easy, common, hard, very-hard, extreme."""
    if isinstance(value, Difficulty):
        return value
    if isinstance(value, str):
        text = value.strip().lower().replace("_", "-").replace(" ", "-")
        if text.isascii() and text.isdigit():  # int() would read a fullwidth "５" too
            return check_int(int(text), "difficulty", 0, MAX_DIFFICULTY)
        try:
            return Difficulty(text)
        except ValueError:
            names = ", ".join(d.value for d in Difficulty)
            raise RulesError(f"difficulty must be a number of successes or one of {names}, got {value!r}") from None
    return check_int(value, "difficulty", 0, MAX_DIFFICULTY)


def apply_modifiers(pool: int, modifiers: Iterable[int]) -> int:
    """The dice rolled: all modifiers summed first, a positive net capped at +3, never below 0."""
    return max(0, pool + min(MAX_BONUS, sum(modifiers)))


@dataclass(frozen=True, slots=True)
class Request:
    """One action as the GM composes it. ``pool`` is Attribute + Skill before modifiers."""

    pool: int
    difficulty: int | Difficulty = Difficulty.COMMON
    skill: int | None = None  # None: not checked
    modifiers: tuple[int, ...] = ()
    knowledge: bool = False  # needs specific knowledge: impossible without a level in the skill


    def __post_init__(self) -> None:
        check_int(self.pool, "pool", 0, MAX_POOL)
        # Normalised in place so that "hard" and Difficulty.HARD make equal requests.
        object.__setattr__(self, "difficulty", parse_difficulty(self.difficulty))
        if self.skill is not None:
            check_int(self.skill, "skill", 0, MAX_POOL)
        object.__setattr__(self, "modifiers", tuple(self.modifiers))
        for modifier in self.modifiers:
            check_int(modifier, "modifier", -MAX_POOL, MAX_POOL)
        if not isinstance(self.knowledge, bool):
            raise RulesError(f"knowledge must be true or false, got {self.knowledge!r}")

    @property
    def dice(self) -> int:
        """The pool after modifiers: the number of dice rolled."""
        return apply_modifiers(self.pool, self.modifiers)

    @property
    def needed(self) -> int:
        """Successes needed to succeed."""
        if isinstance(self.difficulty, Difficulty):
            return self.difficulty.needed(self.skill)
        return self.difficulty

    @property
    def impossible(self) -> bool:
        """Hard or above, or an action needing specific knowledge, without a level in the skill:
        it fails without a roll."""
        return self.skill == 0 and (self.knowledge or self.needed >= _NEEDS_SKILL)

    @property
    def automatic(self) -> bool:
        """An Easy action succeeds without a roll, unless the skill rating is exactly 1 (or the action
        needs specific knowledge the character lacks: then it is impossible)."""
        return self.difficulty is Difficulty.EASY and self.needed == 0 and not self.impossible

    @property
    def rolls(self) -> bool:
        return not (self.impossible or self.automatic) and self.dice > 0


class Outcome(StrEnum):
    SUCCESS = "success"
    FAILURE = "failure"
    FUMBLE = "fumble"


class Degree(StrEnum):
    BARELY = "barely"  # éxito ajustado: exactly the difficulty
    CLEAN = "clean"  # éxito justo: one over
    ABSOLUTE = "absolute"  # éxito absoluto: two or more over


def degree(margin: int) -> Degree | None:
    """The degree of a rolled success with this margin; None for a failure."""
    if margin < 0:
        return None
    return (Degree.BARELY, Degree.CLEAN)[margin] if margin < 2 else Degree.ABSOLUTE


@dataclass(frozen=True, slots=True)
class Roll:
    """The dice of one roll: the pool's faces in draw order, then the explosion dice as drawn."""

    faces: tuple[int, ...]
    explosions: tuple[int, ...] = ()

    @property
    def successes(self) -> int:
        return count_at_least(self.faces + self.explosions, SUCCESS_FACE)

    @property
    def first_die_one(self) -> bool:
        """What makes a failed roll a fumble: the first die of the pool shows 1."""
        return bool(self.faces) and self.faces[0] == 1

    def as_json(self) -> dict[str, object]:
        return {"faces": list(self.faces), "explosions": list(self.explosions), "successes": self.successes}


def read_roll(dice: int, faces: Iterable[int]) -> Roll:
    """Split faces in draw order into the pool's ``dice`` faces and the explosion dice.

    Every explosion die must be owed to a 10 drawn before it, and every 10 gets its die.
    """
    faces = check_d10_faces(faces)
    if len(faces) < dice:
        raise RulesError(f"faces: expected at least {dice} dice for the pool, got {len(faces)}")
    owed = faces[:dice].count(10)
    for i, face in enumerate(faces[dice:]):
        if owed == 0:
            raise RulesError(f"faces: explosion die {i + 1} follows no 10; only 10s are rolled again")
        owed += (face == 10) - 1
    if owed:
        raise RulesError(f"faces: {owed} more explosion {'die is' if owed == 1 else 'dice are'} missing; every 10 is rolled again")
    return Roll(faces[:dice], faces[dice:])


def draw(dice: int, rng: RandomSource | None = None) -> tuple[int, ...]:
    """Faces in draw order: ``dice`` pool dice, then one more die for every 10, without limit."""
    rng = rng or system_random()
    faces = list(roll_d10(dice, rng))
    owed = faces.count(10)
    while owed:
        (face,) = roll_d10(1, rng)
        faces.append(face)
        owed += (face == 10) - 1
    return tuple(faces)


@dataclass(frozen=True, slots=True)
class Result:
    request: Request
    roll: Roll
    outcome: Outcome
    degree: Degree | None
    notes: tuple[Note, ...]

    @property
    def faces(self) -> tuple[int, ...]:
        return self.roll.faces

    @property
    def explosions(self) -> tuple[int, ...]:
        return self.roll.explosions

    @property
    def successes(self) -> int:
        return self.roll.successes

    @property
    def margin(self) -> int:
        return self.successes - self.request.needed

    @property
    def succeeded(self) -> bool:
        return self.outcome is Outcome.SUCCESS

    def as_json(self) -> dict[str, object]:
        difficulty = self.request.difficulty
        return {
            "system": SYSTEM,
            "faces": list(self.faces),
            "explosions": list(self.explosions),
            "successes": self.successes,
            "margin": self.margin,
            "outcome": self.outcome.value,
            "degree": self.degree.value if self.degree else None,
            "notes": [n.as_json() for n in self.notes],
            "pool": self.request.dice,
            "difficulty": self.request.needed,
            "difficulty_name": difficulty.value if isinstance(difficulty, Difficulty) else None,
            "rolled": self.request.rolls,
        }


def _modifier_notes(request: Request) -> tuple[Note, ...]:
    if not request.modifiers:
        return ()
    net = sum(request.modifiers)
    if net > MAX_BONUS:
        return (note("modifiers_capped", f"modifiers {net:+d}: only +{MAX_BONUS} dice count", net=net, applied=MAX_BONUS),)
    if request.pool + net < 0:
        return (note("modifiers_floor", f"modifiers {net:+d}: the pool stops at 0 dice", net=net, applied=-request.pool),)
    return (note("modifiers", f"modifiers {net:+d} dice", net=net, applied=net),)


def resolve(request: Request, faces: Sequence[int] = ()) -> Result:
    """The result of ``request`` from the faces drawn (pool first, then explosions as drawn)."""
    notes = _modifier_notes(request)
    if not request.rolls:
        if faces:
            raise RulesError("faces: this action is not rolled, give no faces")
        if request.impossible and request.knowledge and request.needed < _NEEDS_SKILL:
            why = note("knowledge_needed", "needs specific knowledge: impossible without a level in the skill, no roll")
            return Result(request, Roll(()), Outcome.FAILURE, None, (*notes, why))
        if request.impossible:
            why = note("impossible", f"{request.needed} successes needed without the skill: impossible, no roll",
                       needed=request.needed)
            return Result(request, Roll(()), Outcome.FAILURE, None, (*notes, why))
        if request.automatic:
            return Result(request, Roll(()), Outcome.SUCCESS, None, (*notes, note("automatic", "easy: automatic success, no roll")))
        return Result(request, Roll(()), Outcome.FAILURE, None, (*notes, note("no_dice", "no dice left: failure without a roll")))
    roll = read_roll(request.dice, faces)
    if roll.explosions:
        notes += (note("explosion", f"{len(roll.explosions)} explosion dice for the 10s", dice=len(roll.explosions)),)
    margin = roll.successes - request.needed
    if margin >= 0:
        return Result(request, roll, Outcome.SUCCESS, degree(margin), notes)
    if roll.first_die_one:
        return Result(request, roll, Outcome.FUMBLE, None, (*notes, note("fumble", "failed with a first die of 1: fumble")))
    return Result(request, roll, Outcome.FAILURE, None, notes)


def roll(request: Request, rng: RandomSource | None = None) -> Result:
    return resolve(request, draw(request.dice, rng) if request.rolls else ())


# --- opposed actions -------------------------------------------------------------------------


class Side(StrEnum):
    FIRST = "first"
    SECOND = "second"


class Victory(StrEnum):
    NARROWLY = "narrowly"  # by 1 success
    CLEARLY = "clearly"  # by 2
    OVERWHELMINGLY = "overwhelmingly"  # by 3 or more


@dataclass(frozen=True, slots=True)
class Opposed:
    """Both sides of an opposed action; ``margin`` is the first side's successes minus the second's."""

    first: Roll
    second: Roll

    @property
    def margin(self) -> int:
        return self.first.successes - self.second.successes

    @property
    def winner(self) -> Side | None:
        """None is a stalemate: nobody gets it, or the contest goes on another round."""
        if self.margin == 0:
            return None
        return Side.FIRST if self.margin > 0 else Side.SECOND

    @property
    def victory(self) -> Victory | None:
        gap = abs(self.margin)
        return (None, Victory.NARROWLY, Victory.CLEARLY)[gap] if gap < 3 else Victory.OVERWHELMINGLY

    @property
    def fumble(self) -> Side | None:
        """The losing side, if its first die shows 1."""
        if self.winner is Side.FIRST and self.second.first_die_one:
            return Side.SECOND
        if self.winner is Side.SECOND and self.first.first_die_one:
            return Side.FIRST
        return None

    @property
    def notes(self) -> tuple[Note, ...]:
        if self.winner is None:
            return (note("stalemate", "equal successes: stalemate"),)
        victory = self.victory
        assert victory is not None  # a winner means a margin, and any margin is a victory
        won = note("opposed_win", f"{self.winner} side wins {victory}", side=self.winner.value,
                   victory=victory.value, by=abs(self.margin))
        if self.fumble:
            return (won, note("fumble", f"{self.fumble} side lost with a first die of 1: fumble", side=self.fumble.value))
        return (won,)

    def as_json(self) -> dict[str, object]:
        return {
            "system": SYSTEM,
            "first": self.first.as_json(),
            "second": self.second.as_json(),
            "margin": self.margin,
            "winner": self.winner.value if self.winner else None,
            "victory": self.victory.value if self.victory else None,
            "fumble": self.fumble.value if self.fumble else None,
            "notes": [n.as_json() for n in self.notes],
        }


def resolve_opposed(a: Request, a_faces: Sequence[int], b: Request, b_faces: Sequence[int]) -> Opposed:
    """Each side rolls its pool after modifiers (faces in draw order, explosions after the pool)."""
    return Opposed(read_roll(a.dice, a_faces), read_roll(b.dice, b_faces))


def roll_opposed(a: Request, b: Request, rng: RandomSource | None = None) -> Opposed:
    rng = rng or system_random()
    return resolve_opposed(a, draw(a.dice, rng), b, draw(b.dice, rng))


# --- exact odds ------------------------------------------------------------------------------


def _pool_pmf(n: int) -> Iterator[float]:
    """P(S = 0), P(S = 1), ... for the successes S of n dice: an endless, exact series.

    S = T + H: T, the 10s rolled, is negative binomial (each run of 10s ends on a non-10, p 0.9);
    H, the runs ending on 7-9 rather than 1-6, is binomial(n, 1/3).
    """
    hits = binomial(n, 1 / 3)
    tens: list[float] = []
    p_tens = 0.9**n
    while True:
        t = len(tens)
        tens.append(p_tens)
        yield sum(hits[h] * tens[t - h] for h in range(min(n, t) + 1))
        p_tens *= (n + t) / (t + 1) * 0.1


def successes(dice: int) -> Distribution:
    """The distribution of the successes of ``dice`` dice, cut where less than 1e-12 is left out."""
    probs: list[float] = []
    for p in _pool_pmf(dice):
        probs.append(p)
        # S is log-concave (a sum of log-concave variables), so past the mode the terms fall at
        # least geometrically with ratio r: what follows is below p·r/(1-r), negligible here.
        if len(probs) > 1 and p < probs[-2] and p * p / (probs[-2] - p) < TAIL * 1e-8:
            break
    left_out = 0.0
    while len(probs) > 1 and left_out + probs[-1] < TAIL:
        left_out += probs.pop()
    return Distribution(tuple(probs), 0, left_out)


def _fumbles(dice: int, below: int) -> list[float]:
    """P(the first die shows 1 and the pool scores s) for s = 0 .. below-1: the first die's 1 scores
    nothing, so the other dice score the s. Every such roll that fails is a fumble."""
    return [0.1 * p for p in islice(_pool_pmf(dice - 1), below)] if dice else []


def _p_rest_below(dice: int, needed: int) -> float:
    """P(the pool's dice other than the first score fewer than ``needed`` successes)."""
    return min(1.0, sum(islice(_pool_pmf(dice - 1), needed)))


def p_at_least(dice: int, needed: int) -> float:
    """P(``dice`` dice score ``needed`` or more successes), summed from ``needed`` up, never as
    1 minus the rest: the endless explosion tail is carried until it no longer changes the sum
    (past the mode the terms fall at least geometrically), so a chance of 1e-37 reads 1e-37."""
    if needed <= 0:
        return 1.0
    total = previous = 0.0
    for k, p in enumerate(_pool_pmf(dice)):
        if k >= needed:
            total += p
            if p == 0.0 or (p < previous and p <= total * 1e-18):
                break
        previous = p
    return min(1.0, total)


@dataclass(frozen=True, slots=True)
class Odds:
    request: Request
    distribution: Distribution  # successes; tail: the mass cut above the last value
    p_success: float
    p_fumble: float
    mean: float

    @property
    def tail(self) -> float:
        return self.distribution.tail

    def as_json(self) -> dict[str, object]:
        return {
            "system": SYSTEM,
            "p_success": self.p_success,
            "p_fumble": self.p_fumble,
            "mean": self.mean,
            "distribution": self.distribution.as_dict(),
            "tail": self.tail,
            "pool": self.request.dice,
            "difficulty": self.request.needed,
        }


def odds(request: Request) -> Odds:
    """Exact odds of ``request`` (an unrolled action is certain: 0 successes)."""
    if not request.rolls:
        return Odds(request, Distribution.point(0), 1.0 if request.automatic else 0.0, 0.0, 0.0)
    n, needed = request.dice, request.needed
    dist = successes(n)
    return Odds(
        request,
        dist,
        p_success=p_at_least(n, needed),  # exact: the cut-off tail is never counted as success
        # The first die shows 1 (0.1), scoring nothing, and the other dice fall short.
        p_fumble=0.1 * _p_rest_below(n, needed),
        mean=n * 4 / 9,  # per die: 1/9 expected 10s plus 1/3 for the 7-9 that ends the run
    )


def luck(request: Request, result: Result) -> Luck | None:
    """Where a roll fell among the rolls of its request (``rules.luck``); None when it was not
    rolled (impossible, automatic, or no dice left).

    Ranked: the successes, explosions included, with a fumble below every other roll (a failure
    with a first die of 1 is worse than any plain failure, whatever its successes). Special: the
    fumble. The scale is the engine's distribution, cut where less than 1e-15 is left: a roll past
    its end ranks above all of it. An opposed roll's luck is each side's, against its own request.
    """
    if result.request != request:
        raise RulesError("this result was rolled for another request")
    if not request.rolls:
        return None
    o = odds(request)
    # Only the values the scale lists can move to the fumble's rung; past them less than 1e-15 is left.
    fumbles = _fumbles(request.dice, min(request.needed, len(o.distribution.probs)))
    scale = below_all(o.distribution, dict(enumerate(fumbles)))
    fumbled = result.outcome is Outcome.FUMBLE
    return luck_of(scale, scale.offset if fumbled else result.successes, (Special("fumble", o.p_fumble, fumbled),))


def contest(a: Request, b: Request) -> ContestOdds:
    """Odds of an opposed action for the first side: each side rolls its pool after modifiers."""
    return contest_odds(successes(a.dice), successes(b.dice))


# --- extended actions ------------------------------------------------------------------------


def extended_fumble(roll: Roll, difficulty: int = 0) -> bool:
    """A roll of an extended action fails when it adds nothing; with a first die of 1 it fumbles."""
    return roll.first_die_one and roll.successes <= difficulty


def advance_extended(
    state: ExtendedState, roll: Roll, difficulty: int = 0, policy: BotchPolicy = BotchPolicy.RESET
) -> ExtendedState:
    """The extended action after one more roll; a fumble is the botch the policy acts on."""
    return advance(state, roll.successes, extended_fumble(roll, difficulty), difficulty, policy)


def extended(
    request: Request,
    goal: int,
    difficulty: int = 0,
    policy: BotchPolicy = BotchPolicy.RESET,
    rolls: int = 20,
    progress: int = 0,
) -> ExtendedOdds:
    """Exact odds of an extended action rolling ``request``'s dice each time (see ``extended_fumble``)."""
    check_int(goal, "goal", 1, MAX_GOAL)
    check_int(difficulty, "difficulty", 0, MAX_EXTENDED_DIFFICULTY)
    n = request.dice
    # P(fumble and s successes) = P(first die 1) · P(the other dice score s), for s <= difficulty.
    # The distribution is carried exactly up to a gain of the whole goal; what lies beyond (its
    # exact tail sum) completes the task in one roll, which is all the walk needs to know.
    reach = goal + difficulty
    head = list(islice(_pool_pmf(n), reach)) if n else [1.0]
    head.append(p_at_least(n, reach) if n else 0.0)
    fumbles = _fumbles(n, min(difficulty + 1, len(head)))
    per_roll = Distribution(tuple(max(0.0, p - (fumbles[s] if s < len(fumbles) else 0.0)) for s, p in enumerate(head)))
    return extended_odds(per_roll, sum(fumbles), goal, difficulty, policy, rolls, progress)


# --- the action economy ----------------------------------------------------------------------

SLOTS_PER_TURN = 2


class ActionKind(StrEnum):
    SHORT = "short"  # 1 slot, so at most 2 a turn
    LONG = "long"  # both slots, so at most 1 a turn
    EXTENDED = "extended"  # both slots of every turn while it runs
    SPECIAL = "special"  # its own cost and limit


@dataclass(frozen=True, slots=True)
class SpecialAction:
    name: str
    slots: int
    per_turn: int


SPECIAL_ACTIONS = MappingProxyType({
    "fire": SpecialAction("fire", slots=1, per_turn=1),  # firing a weapon: 1 slot, once a turn
})
_SLOTS = {ActionKind.SHORT: 1, ActionKind.LONG: 2, ActionKind.EXTENDED: 2}


def _action(kind: ActionKind | str, special_name: str | None) -> tuple[ActionKind, SpecialAction | None]:
    try:
        kind = ActionKind(kind)
    except ValueError:
        raise RulesError(f"action kind must be short, long, extended or special, got {kind!r}") from None
    if kind is not ActionKind.SPECIAL:
        if special_name is not None:
            raise RulesError(f"a {kind} action takes no special name")
        return kind, None
    if special_name is None or special_name not in SPECIAL_ACTIONS:  # None is no name: refused as one unknown
        names = ", ".join(SPECIAL_ACTIONS)
        raise RulesError(f"special action must be one of {names}, got {special_name!r}")
    return kind, SPECIAL_ACTIONS[special_name]


@dataclass(frozen=True, slots=True)
class TurnBudget:
    """One character's turn: the actions taken so far, as (kind, special name or None)."""

    taken: tuple[tuple[ActionKind, str | None], ...] = ()

    @property
    def used(self) -> int:
        return sum(_slots(*_action(kind, name)) for kind, name in self.taken)

    @property
    def left(self) -> int:
        return SLOTS_PER_TURN - self.used

    def can_take(self, kind: ActionKind | str, special_name: str | None = None) -> tuple[bool, str]:
        """Whether the action fits in what is left of the turn, and if not, why."""
        refusal = self._refusal(kind, special_name)
        return (False, str(refusal)) if refusal else (True, "")

    def _refusal(self, kind: ActionKind | str, special_name: str | None) -> RulesError | None:
        kind, special = _action(kind, special_name)
        if any(k is ActionKind.EXTENDED for k, _ in self.taken):
            return RulesError("concentrating on an extended action: it takes the whole turn", "budget_concentrating")
        cost = _slots(kind, special)
        if cost > self.left:
            slots = "slot" if cost == 1 else "slots"
            action = special_name or str(kind)
            article = "an" if action[0] in "aeiou" else "a"
            return RulesError(f"{article} {action} action needs {cost} action {slots}, {self.left} of {SLOTS_PER_TURN} left",
                              "budget_slots", action=action, cost=cost, left=self.left,
                              slots=SLOTS_PER_TURN)
        if special and sum(name == special.name for _, name in self.taken) >= special.per_turn:
            return RulesError(f"{special.name}: at most {special.per_turn} a turn", "budget_special",
                              action=special.name, most=special.per_turn)
        return None

    def take(self, kind: ActionKind | str, special_name: str | None = None) -> TurnBudget:
        """This turn with the action taken; a RulesError (with its code) if it does not fit."""
        refusal = self._refusal(kind, special_name)
        if refusal:
            raise refusal
        return TurnBudget((*self.taken, (ActionKind(kind), special_name)))

    def next_turn(self, extended_continues: bool = True) -> TurnBudget:
        """The next turn: an extended action under way takes both its slots again."""
        if extended_continues and any(k is ActionKind.EXTENDED for k, _ in self.taken):
            return TurnBudget(((ActionKind.EXTENDED, None),))
        return TurnBudget()


def _slots(kind: ActionKind, special: SpecialAction | None) -> int:
    return special.slots if special else _SLOTS[kind]


class Sphere(StrEnum):
    ON_ROL = "on-rol"  # narrative actions inside the adventure
    OFF_ROL = "off-rol"  # shopping, healing between adventures, crafting, selling


def can_act(sphere: Sphere | str, adventure_open: bool, scene_staged: bool = False) -> tuple[bool, str]:
    """Off-Rol actions wait until the adventure closes, unless the GM staged a scene for them."""
    try:
        sphere = Sphere(sphere)
    except ValueError:
        raise RulesError(f"action sphere must be on-rol or off-rol, got {sphere!r}") from None
    if sphere is Sphere.OFF_ROL and adventure_open and not scene_staged:
        return False, "Off-Rol actions are closed while the adventure is open, unless the GM stages a scene for them"
    return True, ""


def check_act(sphere: Sphere | str, adventure_open: bool, scene_staged: bool = False) -> None:
    ok, reason = can_act(sphere, adventure_open, scene_staged)
    if not ok:
        raise RulesError(reason, "off_rol_closed")


# --- derived distances -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Distances:
    """Distances from Resistance (RES) and Strength (FUE), under Earth's gravity."""

    swim_m: int  # per action, on or under water: RES × 2 m
    vertical_jump_cm: int  # FUE × 30 cm
    running_long_jump_m: int  # FUE × 2 m
    standing_long_jump_m: int  # FUE m

    def as_json(self) -> dict[str, int]:
        return {
            "swim_m": self.swim_m,
            "vertical_jump_cm": self.vertical_jump_cm,
            "running_long_jump_m": self.running_long_jump_m,
            "standing_long_jump_m": self.standing_long_jump_m,
        }


def distances(res: int, fue: int) -> Distances:
    check_int(res, "RES", 0)
    check_int(fue, "FUE", 0)
    return Distances(swim_m=res * 2, vertical_jump_cm=fue * 30, running_long_jump_m=fue * 2, standing_long_jump_m=fue)
