"""Exalted 2nd edition (Spanish: *Exaltado*): d10 pools counting successes.

Each die showing 7, 8 or 9 is one success and a 10 is two. Difficulty is the number of
successes needed (default 1); ``margin = successes - difficulty`` are the extra successes.
A roll with zero successes and at least one 1 is a **botch** (its severity is the number of
1s); a Willpower success counts, so a roll with Willpower spent never botches.

Decisions where the seed and RULES.md are silent:

- The dice rolled are ``pool + sum(modifiers) - actions_penalty + stunt`` (``Request.dice``);
  fewer than 1 die cannot be rolled, and more than ``MAX_DICE`` is refused as a typo rather than
  computed. ``actions_penalty`` is the multiple-action penalty: when it takes the pool (after the
  other modifiers) to 0 or below, the action cannot be taken at all, and a stunt's dice do not
  bring it back (seed 000: "Si el total de acciones reduce tu reserva para cualquier tarea a
  cero, esa acción no podrá llevarse a cabo").
- Difficulty 0 is allowed (extended actions roll at 0): zero successes then still meets it with
  margin 0, unless a 1 shows, which is a botch. A botch always wins over "success".
- ``ones`` is reported on every roll, not just on botches, so the UI can show the 1s.
- Opposed actions compare successes only (each side's own difficulty plays no part); a botch
  scores zero successes like any other roll with none.
- ``extended`` uses the request's dice, stunt and Willpower on every roll (Willpower spent each
  roll) but not the request's difficulty: the extended action's own ``difficulty`` argument,
  default 0, is subtracted from each roll.
- Multiple actions: a single action takes no penalty (the N, N+1, ... ladder starts at two
  actions). Reflexive actions neither take a penalty nor count towards N.
- The automatic success counts the dice after modifiers and stunt; it is refused in stressful
  situations (always in combat), with Willpower spent, which only adds to a roll, and where no
  roll of the pool could reach the difficulty (more than 2 successes a die, every die a 10).
  Seed 000's "se tratará de un éxito normal" is read as the difficulty met with no extra
  successes (margin 0), whatever the difficulty: the seed leaves it to the GM ("si el Narrador lo
  juzga apropiado"), so the table shows the rolling odds beside it and warns when they are low.
- Opposed actions may take successes away from either side (the seed's drunk guard "podría
  restar un éxito o más de su tirada de Percepción"): ``contest`` and ``resolve_opposed`` take
  ``first_penalty`` / ``second_penalty``, subtracted from that side's successes, never below 0.
- Second chances do not apply in combat: the required successes stay as they were.
- Movement is in metres; the half-run distance that still allows a dice action may be fractional.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from rules.dice import Note, RandomSource, RulesError, check_d10_faces, check_int, note, roll_d10
from rules.dist import ContestOdds, Distribution, clamp, contest as contest_odds, sum_of_weighted
from rules.extended import BotchPolicy, ExtendedOdds, botch_policy, extended_odds
from rules.luck import Luck, Special, below_all, luck_of

SYSTEM = "exalted"
MAX_POOL = 100
MAX_DICE = 200
MAX_STUNT = 3
MAX_DIFFICULTY = 100  # successes needed; beyond, a typo rather than a task
AUTOMATIC_SUCCESS_DICE = 7

# One die's successes, as integer weights out of 10: faces 1-6 score 0, 7-9 score 1, a 10 scores 2.
DIE_WEIGHTS = (6, 3, 1)


def die_successes(face: int) -> int:
    return 2 if face == 10 else 1 if face >= 7 else 0


class Outcome(StrEnum):
    SUCCESS = "success"
    FAILURE = "failure"
    BOTCH = "botch"


@dataclass(frozen=True, slots=True)
class Request:
    """One dice action as the GM composes it."""

    pool: int  # Attribute + Ability, before modifiers
    difficulty: int = 1
    stunt: int = 0  # bonus dice for a stunt, 0-3
    willpower: bool = False  # 1 temporary Willpower spent before rolling: +1 automatic success
    modifiers: tuple[int, ...] = ()  # dice added or removed (wounds, footing, ...)
    actions_penalty: int = 0  # dice lost to the turn's multiple actions (no stunt brings them back)

    def __post_init__(self) -> None:
        check_int(self.pool, "pool", 0, MAX_POOL)
        check_int(self.difficulty, "difficulty", 0, MAX_DIFFICULTY)
        check_int(self.stunt, "stunt", 0, MAX_STUNT)
        if not isinstance(self.willpower, bool):
            raise RulesError(f"willpower must be true or false, got {self.willpower!r}")
        object.__setattr__(self, "modifiers", tuple(self.modifiers))  # a list would break hashing
        for modifier in self.modifiers:
            check_int(modifier, "modifier", -MAX_POOL, MAX_POOL)
        check_int(self.actions_penalty, "multiple-action penalty", 0, MAX_DICE)
        if self.actions_penalty and self.pool + sum(self.modifiers) - self.actions_penalty < 1:
            left = self.pool + sum(self.modifiers) - self.actions_penalty
            raise RulesError(f"the multiple-action penalty takes the pool to {left} dice: this action cannot be taken "
                             "(a stunt does not bring it back)", "actions_unrollable", dice=left)
        if self.dice < 1:
            raise RulesError(f"a pool of {self.dice} dice after modifiers cannot be rolled", "pool_unrollable", dice=self.dice)
        if self.dice > MAX_DICE:
            raise RulesError(f"at most {MAX_DICE} dice can be rolled, got {self.dice}")

    @property
    def dice(self) -> int:
        """The dice actually rolled: the pool after modifiers, plus the stunt's dice."""
        return self.pool + sum(self.modifiers) - self.actions_penalty + self.stunt

    def as_json(self) -> dict[str, object]:
        return {
            "pool": self.pool,
            "dice": self.dice,
            "difficulty": self.difficulty,
            "stunt": self.stunt,
            "willpower": self.willpower,
            "modifiers": list(self.modifiers),
            "actions_penalty": self.actions_penalty,
        }


@dataclass(frozen=True, slots=True)
class Result:
    request: Request
    faces: tuple[int, ...]  # in draw order; empty for an automatic success
    successes: int  # Willpower's success included
    ones: int
    outcome: Outcome
    notes: tuple[Note, ...]
    automatic: bool = False  # an automatic success: nothing was rolled

    @property
    def margin(self) -> int:
        return self.successes - self.request.difficulty

    @property
    def botched(self) -> bool:
        return self.outcome is Outcome.BOTCH

    def as_json(self) -> dict[str, object]:
        return {
            "system": SYSTEM,
            "faces": list(self.faces),
            "successes": self.successes,
            "margin": self.margin,
            "outcome": self.outcome.value,
            "ones": self.ones,
            "automatic": self.automatic,
            "notes": [n.as_json() for n in self.notes],
            **self.request.as_json(),
        }


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def _pool_notes(req: Request) -> tuple[Note, ...]:
    notes = []
    if req.stunt:
        notes.append(note("stunt", f"{req.stunt}-die stunt: +{req.stunt} dice", dice=req.stunt))
    removed = sum(req.modifiers) - req.actions_penalty  # the multiple-action penalty shows among them
    if removed:
        notes.append(note("dice_modifier", f"dice modifiers: {removed:+d}", dice=removed))
    return tuple(notes)


def _verdict(req: Request, successes: int, ones: int) -> tuple[Outcome, Note]:
    if successes == 0 and ones:
        return Outcome.BOTCH, note("botch", f"botch ({_plural(ones, 'one')})", ones=ones)
    extra = successes - req.difficulty
    if extra >= 0:
        return Outcome.SUCCESS, note("met", f"difficulty {req.difficulty} met with {extra} extra", extra=extra)
    return Outcome.FAILURE, note("short", f"{-extra} short of difficulty {req.difficulty}", short=-extra)


def resolve(req: Request, faces: Iterable[int]) -> Result:
    """Read a roll of ``req.dice`` d10s (10 for a 0)."""
    faces = check_d10_faces(faces, req.dice)
    tens = faces.count(10)
    ones = faces.count(1)
    successes = sum(die_successes(f) for f in faces) + int(req.willpower)
    notes = list(_pool_notes(req))
    if tens:
        verb = "counts" if tens == 1 else "count"
        notes.append(note("tens_double", f"{_plural(tens, 'ten')} {verb} double: +{tens}", tens=tens))
    if req.willpower:
        notes.append(note("willpower", "1 Willpower: +1 success"))
    outcome, verdict = _verdict(req, successes, ones)
    return Result(req, faces, successes, ones, outcome, (*notes, verdict))


def roll(req: Request, rng: RandomSource | None = None) -> Result:
    return resolve(req, roll_d10(req.dice, rng))


def could_reach(req: Request) -> bool:
    """Whether a roll of the request could meet its difficulty at all (every die a 10 scores 2)."""
    return 2 * req.dice + int(req.willpower) >= req.difficulty


def automatic_success(req: Request, stressful: bool = False) -> Result:
    """Skip the roll (GM's call): 7+ dice outside stress meets the difficulty, no extra successes."""
    if stressful:
        raise RulesError("no automatic success in stressful situations or combat: roll the dice", "automatic_stress")
    if req.willpower:
        raise RulesError("Willpower adds a success to a roll; an automatic success rolls nothing")
    if req.dice < AUTOMATIC_SUCCESS_DICE:
        raise RulesError(f"an automatic success needs {AUTOMATIC_SUCCESS_DICE} or more dice, got {req.dice}",
                         "automatic_pool", needed=AUTOMATIC_SUCCESS_DICE, dice=req.dice)
    if not could_reach(req):
        raise RulesError(f"{req.dice} dice can never reach difficulty {req.difficulty}: no automatic success",
                         "automatic_unreachable", dice=req.dice, difficulty=req.difficulty)
    notes = (
        *_pool_notes(req),
        note("automatic_success", f"automatic success with {req.dice} dice: no roll, no extra successes", dice=req.dice),
    )
    return Result(req, (), req.difficulty, 0, Outcome.SUCCESS, notes, automatic=True)


# --- exact odds -------------------------------------------------------------------------


def successes_distribution(req: Request) -> Distribution:
    """Successes of one roll, Willpower included; botches are among the zeros."""
    return sum_of_weighted(DIE_WEIGHTS, req.dice).shifted(int(req.willpower))


def _p_botch(req: Request) -> float:
    # No success anywhere (every die 1-6) minus no 1 either (every die 2-6).
    return 0.0 if req.willpower else 0.6**req.dice - 0.5**req.dice


@dataclass(frozen=True, slots=True)
class Odds:
    request: Request
    distribution: Distribution  # successes → probability, botches counted at 0
    p_success: float
    p_failure: float
    p_botch: float

    @property
    def mean(self) -> float:
        return self.distribution.mean

    def as_json(self) -> dict[str, object]:
        return {
            "system": SYSTEM,
            "p_success": self.p_success,
            "p_botch": self.p_botch,
            "p_failure": self.p_failure,
            "mean": self.mean,
            "distribution": self.distribution.as_dict(),
            **self.request.as_json(),
        }


def odds(req: Request) -> Odds:
    dist = successes_distribution(req)
    p_botch = _p_botch(req)
    # A botch scores 0 successes: it is among the rolls below the difficulty, except at
    # difficulty 0, where it is among those that would meet it.
    zero_meets = req.difficulty == 0
    p_success = clamp(dist.p_at_least(req.difficulty) - (p_botch if zero_meets else 0.0))
    p_failure = clamp(dist.p_below(req.difficulty) - (0.0 if zero_meets else p_botch))
    return Odds(req, dist, p_success, p_failure, p_botch)


def luck(req: Request, result: Result) -> Luck | None:
    """Where a roll fell among the rolls of its request (``rules.luck``); None for an automatic success.

    Ranked: the successes, Willpower's included, with a botch below every other roll (zero
    successes showing a 1 is worse than zero successes without). The request is the one rolled,
    stunt dice and Willpower included: they were chosen before the roll, so the luck is the dice's
    against what they could do. Special: the botch.
    """
    if result.request != req:
        raise RulesError("this result was rolled for another request")
    if result.automatic:
        return None
    o = odds(req)
    scale = below_all(o.distribution, {0: o.p_botch})
    return luck_of(scale, scale.offset if result.botched else result.successes,
                   (Special("botch", o.p_botch, result.botched),))


def teamwork_odds(lead: Request, helpers: Sequence[Request]) -> Odds:
    """Teamwork: the lead and each helper roll apart and add their successes, against the lead's
    difficulty. The team botches when its total is zero and the lead's dice show a 1 (a helper's
    1s alone do not make the team's action a botch)."""
    dist = successes_distribution(lead)
    nobody_else = 1.0
    for helper in helpers:
        helping = successes_distribution(helper)
        dist = dist.convolve(helping)
        nobody_else *= helping.p(0)
    p_botch = _p_botch(lead) * nobody_else
    zero_meets = lead.difficulty == 0
    p_success = clamp(dist.p_at_least(lead.difficulty) - (p_botch if zero_meets else 0.0))
    p_failure = clamp(dist.p_below(lead.difficulty) - (0.0 if zero_meets else p_botch))
    return Odds(lead, dist, p_success, p_failure, p_botch)


def _less(dist: Distribution, penalty: int) -> Distribution:
    """Successes with ``penalty`` of them taken away, never below 0."""
    check_int(penalty, "successes subtracted", 0, 2 * MAX_DICE)
    low = dist.offset - penalty  # the lowest value, once the successes are taken away
    if low >= 0:
        return Distribution(dist.probs, low, dist.tail)
    at_zero = -low  # values from the lowest up to this index fall to 0
    return Distribution((sum(dist.probs[: at_zero + 1]), *dist.probs[at_zero + 1 :]), 0, dist.tail)


def contest(a: Request, b: Request, first_penalty: int = 0, second_penalty: int = 0,
            helpers: Sequence[Request] = ()) -> ContestOdds:
    """Opposed action: the side with more successes wins (for the first side).

    ``first_penalty`` / ``second_penalty``: successes taken from that side's roll (a drunk
    guard's Perception, say), never below 0. ``helpers``: teamwork on the first side, each helper
    rolling apart and adding their successes to the lead's (``teamwork``).
    """
    first = successes_distribution(a)
    for helper in helpers:
        first = first.convolve(successes_distribution(helper))
    return contest_odds(_less(first, first_penalty), _less(successes_distribution(b), second_penalty))


def extended(
    req: Request,
    goal: int,
    difficulty: int = 0,
    policy: BotchPolicy | str = BotchPolicy.RESET,
    rolls: int = 20,
    progress: int = 0,
) -> ExtendedOdds:
    """Odds of accumulating ``goal`` successes; each roll adds ``max(0, successes - difficulty)``."""
    dist = successes_distribution(req)
    p_botch = _p_botch(req)
    # extended_odds wants the botches apart: they are all among the zero-success rolls.
    per_roll = Distribution((dist.probs[0] - p_botch, *dist.probs[1:]), dist.offset)
    return extended_odds(per_roll, p_botch, goal, difficulty, botch_policy(policy), rolls, progress)


# --- opposed actions, teamwork, second chances -------------------------------------------


class Opposed(StrEnum):
    WIN = "win"
    TIE = "tie"
    LOSE = "lose"


@dataclass(frozen=True, slots=True)
class OpposedResult:
    first: Result
    second: Result
    outcome: Opposed  # for the first side
    net: int  # the winner's successes minus the loser's; 0 on a tie
    first_penalty: int = 0  # successes taken from the first side's roll
    second_penalty: int = 0

    @property
    def notes(self) -> tuple[Note, ...]:
        if self.outcome is Opposed.TIE:
            return (note("opposed_tie", "equal successes: a tie, nobody prevails"),)
        side = "first" if self.outcome is Opposed.WIN else "second"
        return (note("opposed_win", f"{side} side wins by {self.net}", side=side, net=self.net),)

    def as_json(self) -> dict[str, object]:
        return {
            "system": SYSTEM,
            "outcome": self.outcome.value,
            "net": self.net,
            "first_successes": max(0, self.first.successes - self.first_penalty),
            "second_successes": max(0, self.second.successes - self.second_penalty),
            "first_penalty": self.first_penalty,
            "second_penalty": self.second_penalty,
            "notes": [n.as_json() for n in self.notes],
            "first": self.first.as_json(),
            "second": self.second.as_json(),
        }


def resolve_opposed(first: Result, second: Result, first_penalty: int = 0, second_penalty: int = 0) -> OpposedResult:
    """More successes wins; the loser's successes are subtracted from the winner's.

    ``first_penalty`` / ``second_penalty`` take successes from that side first (never below 0).
    """
    check_int(first_penalty, "successes subtracted", 0, 2 * MAX_DICE)
    check_int(second_penalty, "successes subtracted", 0, 2 * MAX_DICE)
    diff = max(0, first.successes - first_penalty) - max(0, second.successes - second_penalty)
    outcome = Opposed.WIN if diff > 0 else Opposed.LOSE if diff < 0 else Opposed.TIE
    return OpposedResult(first, second, outcome, abs(diff), first_penalty, second_penalty)


def teamwork(results: Iterable[Result]) -> int:
    """Characters who roll separately add their successes (usually towards an extended goal)."""
    return sum(r.successes for r in results)


def second_chance_difficulty(difficulty: int, earlier_failures: int, combat: bool = False) -> int:
    """Successes required after failing the same task before: +1 per failure, never in combat."""
    check_int(difficulty, "difficulty", 0)
    check_int(earlier_failures, "earlier failures", 0)
    return difficulty if combat else difficulty + earlier_failures


# --- multiple actions ---------------------------------------------------------------------


def multiple_action_penalties(n: int) -> tuple[int, ...]:
    """Dice lost by each of ``n`` actions in one turn: n, n+1, ...; a lone action loses none."""
    check_int(n, "actions", 0, MAX_POOL)
    return (0,) if n == 1 else tuple(range(n, 2 * n))


@dataclass(frozen=True, slots=True)
class Action:
    pool: int
    reflexive: bool = False  # e.g. resisting poison: outside the turn's actions

    def __post_init__(self) -> None:
        check_int(self.pool, "pool", 0, MAX_POOL)
        if not isinstance(self.reflexive, bool):
            raise RulesError(f"reflexive must be true or false, got {self.reflexive!r}")


@dataclass(frozen=True, slots=True)
class PlannedAction:
    action: Action
    penalty: int

    @property
    def dice(self) -> int:
        return self.action.pool - self.penalty

    @property
    def allowed(self) -> bool:
        """An action whose pool falls to 0 or below cannot be taken."""
        return self.dice >= 1

    def as_json(self) -> dict[str, object]:
        return {
            "pool": self.action.pool,
            "reflexive": self.action.reflexive,
            "penalty": self.penalty,
            "dice": self.dice,
            "allowed": self.allowed,
        }


def plan_turn(actions: Sequence[Action]) -> tuple[PlannedAction, ...]:
    """The turn's actions in the player's order, each with its multiple-action penalty."""
    penalties = iter(multiple_action_penalties(sum(not a.reflexive for a in actions)))
    return tuple(PlannedAction(a, 0 if a.reflexive else next(penalties)) for a in actions)


# --- stunts, Willpower, movement ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StuntReward:
    motes: int = 0  # of Essence
    willpower: int = 0  # temporary

    def as_json(self) -> dict[str, int]:
        return {"motes": self.motes, "willpower": self.willpower}


def stunt_rewards(result: Result) -> tuple[StuntReward, ...]:
    """The rewards to choose one from after a stunted action: none unless it succeeded.

    A mote of Essence per stunt die; a 2- or 3-die stunt may take 1 temporary Willpower instead.
    """
    stunt = result.request.stunt
    if not stunt or result.outcome is not Outcome.SUCCESS:
        return ()
    return (StuntReward(motes=stunt),) + ((StuntReward(willpower=1),) if stunt >= 2 else ())


@dataclass(frozen=True, slots=True)
class Willpower:
    permanent: int  # dots, 1-10
    temporary: int  # boxes, 0-10

    def __post_init__(self) -> None:
        check_int(self.permanent, "permanent Willpower", 1, 10)
        check_int(self.temporary, "temporary Willpower", 0, 10)

    def roll_request(self, difficulty: int = 1, modifiers: tuple[int, ...] = ()) -> Request:
        """A Willpower roll rolls the permanent dots, never the temporary boxes."""
        return Request(pool=self.permanent, difficulty=difficulty, modifiers=modifiers)

    def spend(self) -> Willpower:
        if not self.temporary:
            raise RulesError("no temporary Willpower left to spend")
        return Willpower(self.permanent, self.temporary - 1)


@dataclass(frozen=True, slots=True)
class Movement:
    """Metres per turn. Using the full distance takes the turn."""

    walk: int
    run: int
    sprint: int

    @property
    def run_with_action(self) -> float:
        """Half the run distance still leaves room for a dice action."""
        return self.run / 2

    def allows_action(self, metres: float) -> bool:
        return metres <= self.run_with_action

    def as_json(self) -> dict[str, float]:
        return {"walk": self.walk, "run": self.run, "sprint": self.sprint, "run_with_action": self.run_with_action}


def movement(dexterity: int) -> Movement:
    check_int(dexterity, "dexterity", 0, MAX_POOL)
    return Movement(walk=5, run=dexterity + 12, sprint=dexterity * 3 + 30)
