"""Vampire: The Masquerade 5th edition: simple tests, Hunger, criticals, rouse checks, trackers.

A test rolls a pool of d10s; each die showing 6 or more is a success and the roll wins when
the successes reach the difficulty (Routine 1 … Nearly impossible 7+). Every pair of 10s, on
normal or hunger dice in any mix, adds 2 successes (two 10s = 4, three = 5, four = 8). A win
with a pair is a critical win; if a hunger die shows one of the 10s it is a messy critical.
A failure with a hunger die showing 1 is a bestial failure; zero successes is a total failure
(both can hold at once). Odds are exact (see ``odds``), never simulated.

Decisions where the rules digest and the seed are silent (what a V5 table expects):

- **Pool**: ``Request.pool`` is the Traits' dots; ``Request.dice`` adds the Specialty's die and
  the modifiers and never drops below 1 die (a pool of 0 still rolls one). The ±3-dice guideline
  applies to the GM's *net* ad-hoc modifiers (the Specialty is not ad hoc): beyond it a note
  warns, nothing is forbidden. ``difficulty`` is the difficulty the GM sets; the GM's ad-hoc
  ``difficulty_modifiers`` (net beyond ±2 warns, like the dice) and ``improvised`` equipment
  (+1) add to it, and ``Request.needed`` is the result, at least 1: the successes the roll must
  reach (a result's ``difficulty``). ``no_equipment`` marks a task that is impossible without
  equipment the character lacks: it fails without a roll (0 successes, a total failure, never
  bestial), and neither shortcut can win it.
- **Hunger dice** replace ``min(Hunger, dice)`` normal dice in every pool (seed 002), Willpower
  rolls included (RULES.md). The one exception is the Humanity roll (remorse, from the V5 core
  book): a ``remorse`` request rolls no hunger dice (a note says so when Hunger is above 0).
  ``tracker`` marks a Willpower or Humanity roll: Willpower cannot reroll it.
- **Willpower reroll**: once per roll (a rerolled result cannot be rerolled again), 1 to 3
  distinct *normal* dice chosen by index into ``faces``; ``new_faces`` are in the order of the
  indices. Never hunger dice, tracker rolls, checks, or results where nothing was rolled. The
  result keeps ``rerolled`` (the indices) and ``rerolled_from`` (their faces before), so the
  first roll is ``faces`` with those restored, and the whole sequence replays. The Willpower
  cost (1 superficial damage) is the caller's to mark with ``spend_willpower``.
- **Automatic win**: needs ``dice >= 2 × difficulty``; successes = difficulty, margin 0, never
  critical. Blood Surge dice should not count toward it; leave them out of the request.
- **Take half**: ``dice // 2`` successes, judged against the difficulty like a roll (so it can
  fail, and 0 successes is a total failure); no dice, so never critical, messy or bestial.
- Both shortcuts are for a calm moment: ``stressful=True`` (under stress, always in combat)
  refuses them, as Exalted's automatic success is refused.
  Checks (rouse) are a different function, so neither shortcut can apply to them.
- **Trackers**: superficial damage fills undamaged boxes; once none are left, each further
  point turns an existing superficial box aggravated. Aggravated damage fills undamaged boxes,
  then turns superficial boxes aggravated. Damage beyond a tracker full of aggravated is lost
  (``overwhelmed``: torpor or death for Health, a breakdown for Willpower). ``impaired`` means
  every box is damaged. Spending Willpower is exactly 1 superficial Willpower damage, so on a
  full tracker it follows the same overflow rule. A tracker roll uses the undamaged boxes,
  minimum 1 die.
- **Rouse check**: one die, 6+ passes, a failure raises Hunger by 1 up to 5. At Hunger 5 a
  vampire cannot rouse the Blood by choice; a forced check is still resolved, with a note
  calling for a hunger frenzy test (difficulty 4) if it fails, and one warning of that risk if it
  passes (Hunger stays 5: the next failure calls for the test).
- **Teamwork**: the largest pool rolls; when several tie for it, an unskilled one rolls so that
  skilled helpers still add their die (``teamwork``: the dice, who rolls, who adds a die, and who
  adds none for lack of a dot in the skill).
- **Mortals and ghouls** (``Nature``) have no Hunger: no hunger dice in any pool, no rouse check
  (``check_rouse`` refuses it).
- **Impaired** (from the V5 core book; the seed names the trackers, not this state): a Health
  tracker with every box damaged takes 2 dice from every Physical pool (an Attribute of Strength,
  Dexterity or Stamina), a full Willpower tracker 2 dice from every Social and Mental pool (any
  other Attribute). ``Request.impaired`` is that penalty, apart from the GM's modifiers (it is no
  ad-hoc modifier, so it never counts against the ±3 guideline); the pool still never drops below
  1 die. A pool with no Attribute (a quick NPC's, a tracker roll) is neither: nothing is taken.
- **Static opposition**: half the NPC's pool rounded down, or the NPC's skill rating; either
  way at least 1, the lowest difficulty a test has.
- **Contest**: the side with more successes (critical bonuses included) wins; equal successes
  is a stalemate (``p_tie``): nobody gets their way, and the GM says whether it goes on.
- **Extended**: V5 has no botch, so ``p_botch`` is 0 and the botch policy has no effect (it is
  accepted only for the shared signature). Each roll adds ``max(0, successes − difficulty)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import IntEnum, StrEnum
from itertools import product
from math import comb

from rules.dice import (
    Note,
    RandomSource,
    RulesError,
    check_d10_faces,
    check_int,
    count_at_least,
    note,
    parse_choice,
    roll_d10,
)
from rules.dist import ContestOdds, Distribution, clamp
from rules.dist import contest as contest_of
from rules.extended import BotchPolicy, ExtendedOdds, botch_policy, extended_odds
from rules.luck import Luck, Special, luck_of

SYSTEM = "v5"
SUCCESS = 6  # a die showing 6 or more is a success, on every roll and check
MAX_HUNGER = 5
MAX_POOL = 100
MAX_DIFFICULTY = 100  # successes needed; beyond, a typo rather than a task
AD_HOC_DICE_GUIDELINE = 3  # the GM's ad-hoc modifiers should stay within ±3 dice
AD_HOC_DIFFICULTY_GUIDELINE = 2  # ... and within ±2 difficulty
IMPROVISED_DIFFICULTY = 1  # improvised equipment: +1 difficulty
MAX_REROLL = 3  # dice one Willpower point rerolls
HUNGER_FRENZY_DIFFICULTY = 4  # a forced rouse check at Hunger 5
IMPAIRED_DICE = 2  # a full Health or Willpower tracker takes 2 dice from the pools it governs


class Difficulty(IntEnum):
    """The difficulty table: successes needed. Anything from 7 up is nearly impossible."""

    ROUTINE = 1
    SIMPLE = 2
    MODERATE = 3
    CHALLENGING = 4
    HARD = 5
    VERY_HARD = 6
    NEARLY_IMPOSSIBLE = 7

    @property
    def key(self) -> str:
        """Stable key for the UI's translations, e.g. ``very_hard``."""
        return self.name.lower()

    @property
    def label(self) -> str:
        return self.name.replace("_", " ").capitalize()

    @classmethod
    def of(cls, difficulty: int) -> Difficulty:
        """The named band of any difficulty (8 is still nearly impossible)."""
        return cls(min(check_int(difficulty, "difficulty", 1), cls.NEARLY_IMPOSSIBLE))


@dataclass(frozen=True, slots=True)
class Request:
    """A test as the GM composes it: Traits' dots, Hunger, difficulty and modifiers."""

    pool: int
    hunger: int = 0
    difficulty: int = 1
    specialty: bool = False
    tracker: bool = False  # a Willpower or Humanity roll: no Willpower reroll
    modifiers: tuple[int, ...] = ()
    remorse: bool = False  # the Humanity (remorse) roll: no hunger dice
    difficulty_modifiers: tuple[int, ...] = ()  # the GM's ad-hoc changes to the difficulty
    improvised: bool = False  # improvised equipment: +1 difficulty
    no_equipment: bool = False  # impossible without equipment the character lacks: no roll, a failure
    impaired: bool = False  # a full Health (Physical pools) or Willpower (Social, Mental) tracker: −2 dice

    def __post_init__(self) -> None:
        check_int(self.pool, "pool", 0, MAX_POOL)
        check_int(self.hunger, "hunger", 0, MAX_HUNGER)
        check_int(self.difficulty, "difficulty", 1, MAX_DIFFICULTY)
        for flag in ("specialty", "tracker", "remorse", "improvised", "no_equipment", "impaired"):
            if not isinstance(getattr(self, flag), bool):
                raise RulesError(f"{flag} must be true or false, got {getattr(self, flag)!r}")
        object.__setattr__(self, "modifiers", tuple(self.modifiers))
        for modifier in self.modifiers:
            check_int(modifier, "modifier", -MAX_POOL, MAX_POOL)
        object.__setattr__(self, "difficulty_modifiers", tuple(self.difficulty_modifiers))
        for modifier in self.difficulty_modifiers:
            check_int(modifier, "difficulty modifier", -MAX_POOL, MAX_POOL)

    @property
    def needed(self) -> int:
        """The successes to reach: the difficulty after its modifiers, at least 1."""
        return max(1, self.difficulty + sum(self.difficulty_modifiers) + IMPROVISED_DIFFICULTY * self.improvised)

    @property
    def dice(self) -> int:
        """The pool rolled: dots + Specialty + modifiers, never below 1 die."""
        return max(1, self._raw_dice)

    @property
    def _raw_dice(self) -> int:
        return self.pool + int(self.specialty) + sum(self.modifiers) - IMPAIRED_DICE * self.impaired

    @property
    def hunger_dice(self) -> int:
        return 0 if self.remorse else min(self.hunger, self.dice)

    @property
    def normal_dice(self) -> int:
        return self.dice - self.hunger_dice

    def notes(self) -> tuple[Note, ...]:
        """How the pool was built, for the result's explanation."""
        out = []
        if self.specialty:
            out.append(note("specialty", "Specialty: +1 die"))
        ad_hoc = sum(self.modifiers)
        if abs(ad_hoc) > AD_HOC_DICE_GUIDELINE:
            out.append(
                note(
                    "modifiers_beyond_guideline",
                    f"modifiers {ad_hoc:+d} dice: beyond the ±{AD_HOC_DICE_GUIDELINE} guideline",
                    modifiers=ad_hoc,
                    limit=AD_HOC_DICE_GUIDELINE,
                )
            )
        if self.impaired:
            out.append(note("impaired", f"impaired: −{IMPAIRED_DICE} dice", dice=IMPAIRED_DICE))
        if self._raw_dice < 1:
            out.append(note("pool_minimum", "a pool never drops below 1 die", dice=1))
        harder = sum(self.difficulty_modifiers)
        if abs(harder) > AD_HOC_DIFFICULTY_GUIDELINE:
            out.append(
                note(
                    "difficulty_beyond_guideline",
                    f"difficulty modifiers {harder:+d}: beyond the ±{AD_HOC_DIFFICULTY_GUIDELINE} guideline",
                    modifiers=harder,
                    limit=AD_HOC_DIFFICULTY_GUIDELINE,
                )
            )
        if self.improvised:
            out.append(note("improvised", f"improvised equipment: +{IMPROVISED_DIFFICULTY} difficulty",
                            difficulty=IMPROVISED_DIFFICULTY))
        if self.remorse and self.hunger:
            # The code is the older "tracker roll" one: the Humanity roll is the one tracker roll without them.
            out.append(note("tracker_no_hunger", "Humanity (remorse) roll: no hunger dice"))
        return tuple(out)


@dataclass(frozen=True, slots=True)
class Result:
    """A resolved test. ``pool`` is the dice rolled; ``hunger`` the Hunger rating."""

    pool: int
    hunger: int
    difficulty: int
    faces: tuple[int, ...]  # the normal dice, in draw order
    hunger_faces: tuple[int, ...]
    successes: int
    critical: bool
    messy: bool
    bestial: bool
    total_failure: bool
    notes: tuple[Note, ...]
    rerolled: tuple[int, ...] = ()  # indices into ``faces`` rerolled with Willpower
    rerolled_from: tuple[int, ...] = ()  # what those dice showed before the reroll
    automatic: str | None = None  # "automatic_win", "take_half" or "no_equipment": nothing was rolled

    @property
    def win(self) -> bool:
        return self.successes >= self.difficulty

    @property
    def outcome(self) -> str:
        return "win" if self.win else "failure"

    @property
    def margin(self) -> int:
        return self.successes - self.difficulty

    @property
    def win_at_cost(self) -> bool:
        """Some successes but short of the difficulty: the GM may offer a win at a cost."""
        return 0 < self.successes < self.difficulty

    def as_json(self) -> dict[str, object]:
        return {
            "system": SYSTEM,
            "faces": list(self.faces),
            "hunger_faces": list(self.hunger_faces),
            "successes": self.successes,
            "margin": self.margin,
            "outcome": self.outcome,
            "critical": self.critical,
            "messy": self.messy,
            "bestial": self.bestial,
            "total_failure": self.total_failure,
            "win_at_cost": self.win_at_cost,
            "pool": self.pool,
            "hunger": self.hunger,
            "difficulty": self.difficulty,
            "difficulty_name": Difficulty.of(self.difficulty).key,
            "automatic": self.automatic,
            "rerolled": list(self.rerolled),
            "rerolled_from": list(self.rerolled_from),
            "notes": [n.as_json() for n in self.notes],
        }


def _outcome_notes(successes: int, difficulty: int) -> list[Note]:
    if successes >= difficulty:
        margin = successes - difficulty
        return [note("win", f"win: {successes} successes vs difficulty {difficulty}, margin {margin}",
                     successes=successes, difficulty=difficulty, margin=margin)]
    out = [note("failure", f"failure: {successes} successes vs difficulty {difficulty}",
                successes=successes, difficulty=difficulty)]
    if successes == 0:
        out.append(note("total_failure", "no successes: total failure"))
    else:
        short = difficulty - successes
        out.append(note("win_at_cost", f"{short} short: the GM may offer a win at a cost", short=short))
    return out


def _judge(
    request: Request, faces: tuple[int, ...], hunger_faces: tuple[int, ...], preface: tuple[Note, ...]
) -> Result:
    dice = faces + hunger_faces
    tens = dice.count(10)
    pairs = tens // 2
    successes = count_at_least(dice, SUCCESS) + 2 * pairs
    win = successes >= request.needed
    critical = win and pairs > 0
    messy = critical and 10 in hunger_faces
    bestial = not win and 1 in hunger_faces
    notes = list(preface)
    if pairs:
        notes.append(note("critical_pairs", f"{tens} tens: {pairs} critical pair{'s' * (pairs > 1)}, +{2 * pairs}",
                          tens=tens, pairs=pairs))
    notes += _outcome_notes(successes, request.needed)
    if critical:
        notes.append(note("critical_win", "critical win"))
    if messy:
        notes.append(note("messy_critical", "a hunger die shows 10: messy critical"))
    if bestial:
        notes.append(note("bestial_failure", "a hunger die shows 1: bestial failure"))
    return Result(
        pool=request.dice,
        hunger=request.hunger,
        difficulty=request.needed,
        faces=faces,
        hunger_faces=hunger_faces,
        successes=successes,
        critical=critical,
        messy=messy,
        bestial=bestial,
        total_failure=successes == 0,
        notes=tuple(notes),
    )


def resolve(request: Request, faces: Iterable[int], hunger_faces: Iterable[int] = ()) -> Result:
    """Judge a test from its faces: ``faces`` the normal dice, ``hunger_faces`` the hunger dice."""
    if request.no_equipment:
        if tuple(faces) or tuple(hunger_faces):
            raise RulesError("faces: a task impossible without equipment is not rolled, give no faces")
        return impossible(request)
    faces = check_d10_faces(faces, request.normal_dice, "faces")
    hunger_faces = check_d10_faces(hunger_faces, request.hunger_dice, "hunger faces")
    return _judge(request, faces, hunger_faces, request.notes())


def roll(request: Request, rng: RandomSource | None = None) -> Result:
    """Roll the normal dice, then the hunger dice, and judge them."""
    if request.no_equipment:
        return impossible(request)
    faces = roll_d10(request.normal_dice, rng)
    return resolve(request, faces, roll_d10(request.hunger_dice, rng))


def _calm(request: Request, stressful: bool, what: str, code: str) -> None:
    if stressful:
        raise RulesError(f"no {what} under stress or in combat: roll the dice", code)
    if request.no_equipment:
        raise RulesError("the task is impossible without equipment: nothing to win", "no_equipment_shortcut")


def impossible(request: Request) -> Result:
    """A task impossible without equipment the character lacks: a failure, nothing rolled."""
    why = note("no_equipment", "impossible without the equipment: failure without a roll")
    return _unrolled(request, 0, "no_equipment", why)


def automatic_win(request: Request, stressful: bool = False) -> Result:
    """The GM skips the roll: a pool of at least twice the difficulty wins with margin 0 (never under stress)."""
    _calm(request, stressful, "automatic win", "automatic_win_stress")
    n, d = request.dice, request.needed
    if n < 2 * d:
        raise RulesError(f"an automatic win needs at least {2 * d} dice (twice difficulty {d}), the pool has {n}",
                         "automatic_win_pool", needed=2 * d, difficulty=d, dice=n)
    text = f"automatic win: {n} dice, at least twice difficulty {d}"
    return _unrolled(request, d, "automatic_win", note("automatic_win", text, dice=n, difficulty=d))


def take_half(request: Request, stressful: bool = False) -> Result:
    """Instead of rolling, half the pool (rounded down) counts as the successes (never under stress)."""
    _calm(request, stressful, "taking half", "take_half_stress")
    successes = request.dice // 2
    text = f"took half: {successes} successes from {request.dice} dice"
    return _unrolled(request, successes, "take_half", note("take_half", text, dice=request.dice, successes=successes))


def _unrolled(request: Request, successes: int, automatic: str, why: Note) -> Result:
    return Result(
        pool=request.dice,
        hunger=request.hunger,
        difficulty=request.needed,
        faces=(),
        hunger_faces=(),
        successes=successes,
        critical=False,
        messy=False,
        bestial=False,
        total_failure=successes == 0,
        notes=request.notes() + (why, *_outcome_notes(successes, request.needed)),
        automatic=automatic,
    )


def reroll(request: Request, result: Result | RouseResult, indices: Iterable[int], new_faces: Iterable[int]) -> Result:
    """Spend 1 Willpower to reroll up to 3 normal dice (by index into ``result.faces``).

    A rouse check is taken too, to be refused by name: a stored roll handed back may be either.
    """
    if isinstance(result, RouseResult):
        raise RulesError("Willpower cannot reroll a check")
    if request.tracker:
        raise RulesError("Willpower cannot reroll a tracker roll (Willpower, Humanity)", "reroll_tracker")
    if result.automatic:
        raise RulesError("nothing was rolled, so there is nothing to reroll")
    if result.rerolled:
        raise RulesError("this roll was already rerolled with Willpower", "reroll_again")
    _check_rolled_for(request, result)
    if not result.faces:
        raise RulesError("every die is a hunger die, and Willpower cannot reroll hunger dice", "reroll_hunger_only")
    indices = tuple(indices)
    if not 1 <= len(indices) <= MAX_REROLL:
        raise RulesError(f"Willpower rerolls 1 to {MAX_REROLL} normal dice, got {len(indices)}", "reroll_count",
                         most=MAX_REROLL, dice=len(indices))
    for i in indices:
        check_int(i, "reroll index", 0)
        if len(result.faces) <= i < len(result.faces) + len(result.hunger_faces):
            # Counted on through the Hunger dice, as the dice are listed: normal first, then Hunger.
            raise RulesError(f"Hunger dice cannot be rerolled: die {i} is a Hunger die "
                             f"(Willpower rerolls the normal dice, 0 to {len(result.faces) - 1})")
        check_int(i, "reroll index", 0, len(result.faces) - 1)
    if len(set(indices)) != len(indices):
        raise RulesError("each die can be rerolled only once")
    new_faces = check_d10_faces(new_faces, len(indices), "new faces")
    faces = list(result.faces)
    for i, face in zip(indices, new_faces):
        faces[i] = face
    spent = note("willpower_reroll", f"Willpower: rerolled {len(indices)} normal dice (1 superficial Willpower damage)",
                 dice=len(indices))
    rerolled = _judge(request, tuple(faces), result.hunger_faces, request.notes() + (spent,))
    return replace(rerolled, rerolled=indices, rerolled_from=tuple(result.faces[i] for i in indices))


def _check_rolled_for(request: Request, result: Result) -> None:
    if (len(result.faces), len(result.hunger_faces), result.difficulty) != (
        request.normal_dice, request.hunger_dice, request.needed
    ):
        raise RulesError("this result was not rolled for this request")


def roll_reroll(request: Request, result: Result, indices: Iterable[int], rng: RandomSource | None = None) -> Result:
    indices = tuple(indices)
    return reroll(request, result, indices, roll_d10(len(indices), rng))


@dataclass(frozen=True, slots=True)
class RouseResult:
    """A rouse check: one die, 6+ passes; a failure raises Hunger by 1 (at most 5)."""

    face: int
    hunger_before: int
    hunger_after: int
    notes: tuple[Note, ...]

    @property
    def passed(self) -> bool:
        return self.face >= SUCCESS

    @property
    def outcome(self) -> str:
        return "pass" if self.passed else "fail"

    def as_json(self) -> dict[str, object]:
        return {
            "system": SYSTEM,
            "check": "rouse",
            "faces": [self.face],
            "hunger_faces": [],  # the rouse die is not a Hunger die
            "successes": int(self.passed),
            "margin": int(self.passed) - 1,  # a check's difficulty is 1: one die showing 6+
            "outcome": self.outcome,
            "hunger_before": self.hunger_before,
            "hunger_after": self.hunger_after,
            "notes": [n.as_json() for n in self.notes],
        }


def rouse(face: int, hunger: int) -> RouseResult:
    (face,) = check_d10_faces((face,), 1)
    check_int(hunger, "hunger", 0, MAX_HUNGER)
    passed = face >= SUCCESS
    after = hunger if passed else min(MAX_HUNGER, hunger + 1)
    notes = []
    if hunger == MAX_HUNGER and not passed:  # only a failed check at Hunger 5 calls for the test
        notes.append(note("hunger_at_maximum",
                          f"Hunger is already {MAX_HUNGER}: a forced rouse check calls for a hunger frenzy test "
                          f"(difficulty {HUNGER_FRENZY_DIFFICULTY})",
                          hunger=hunger, difficulty=HUNGER_FRENZY_DIFFICULTY))
    if passed:
        notes.append(note("rouse_pass", f"rouse check {face}: Hunger stays {hunger}", hunger=hunger))
        if hunger == MAX_HUNGER:
            notes.append(note("hunger_frenzy_risk",
                              f"Hunger is still {MAX_HUNGER}: the next failed rouse check calls for a hunger "
                              f"frenzy test (difficulty {HUNGER_FRENZY_DIFFICULTY})",
                              hunger=hunger, difficulty=HUNGER_FRENZY_DIFFICULTY))
    elif after > hunger:
        notes.append(note("rouse_fail", f"rouse check {face}: Hunger rises to {after}", hunger=after))
    else:
        notes.append(note("rouse_fail_at_maximum", f"rouse check {face}: failed, Hunger stays {after}", hunger=after))
    return RouseResult(face, hunger, after, tuple(notes))


class Nature(StrEnum):
    """What a character is: only a vampire has Hunger (hunger dice, rouse checks)."""

    VAMPIRE = "vampire"
    GHOUL = "ghoul"
    MORTAL = "mortal"

    @property
    def has_hunger(self) -> bool:
        return self is Nature.VAMPIRE


def nature(value: str | Nature) -> Nature:
    return parse_choice(Nature, value, "nature")


def hunger_of(kind: str | Nature, hunger: int) -> int:
    """The Hunger a character's pools take: a vampire's rating, a mortal's or a ghoul's none."""
    check_int(hunger, "hunger", 0, MAX_HUNGER)
    return hunger if nature(kind).has_hunger else 0


def check_rouse(kind: str | Nature) -> None:
    """Refuse a rouse check to a mortal or a ghoul: they have no Hunger to raise."""
    kind = nature(kind)
    if not kind.has_hunger:
        raise RulesError(f"a {kind.value} has no Hunger: no rouse check", "rouse_no_hunger", nature=kind.value)


def roll_rouse(hunger: int, rng: RandomSource | None = None) -> RouseResult:
    check_int(hunger, "hunger", 0, MAX_HUNGER)
    return rouse(roll_d10(1, rng)[0], hunger)


# --- Trackers: Health and Willpower ------------------------------------------------------


class DamageKind(StrEnum):
    SUPERFICIAL = "superficial"
    AGGRAVATED = "aggravated"


def damage_kind(value: str | DamageKind) -> DamageKind:
    return parse_choice(DamageKind, value, "damage")


@dataclass(frozen=True, slots=True)
class Tracker:
    """A Health or Willpower tracker: ``boxes`` in all, some marked superficial or aggravated."""

    boxes: int
    superficial: int = 0
    aggravated: int = 0

    def __post_init__(self) -> None:
        check_int(self.boxes, "boxes", 1, MAX_POOL)
        check_int(self.superficial, "superficial damage", 0)
        check_int(self.aggravated, "aggravated damage", 0)
        if self.superficial + self.aggravated > self.boxes:
            raise RulesError(f"a tracker of {self.boxes} boxes cannot hold {self.superficial + self.aggravated} damage")

    @property
    def undamaged(self) -> int:
        return self.boxes - self.superficial - self.aggravated

    @property
    def impaired(self) -> bool:
        """Every box is damaged (the trait's penalties apply)."""
        return self.undamaged == 0

    @property
    def overwhelmed(self) -> bool:
        """Every box is aggravated: torpor or death for Health, a breakdown for Willpower."""
        return self.aggravated == self.boxes

    @property
    def roll_pool(self) -> int:
        """A roll of this tracker uses its undamaged boxes, minimum 1 die."""
        return max(1, self.undamaged)

    def damage(self, kind: str | DamageKind, amount: int) -> Tracker:
        kind = damage_kind(kind)
        check_int(amount, "damage", 0)
        fill = min(amount, self.undamaged)
        superficial, aggravated = self.superficial, self.aggravated
        if kind is DamageKind.SUPERFICIAL:
            superficial += fill
        else:
            aggravated += fill
        # With no undamaged box left, each further point of either kind turns a superficial box aggravated.
        upgrade = min(amount - fill, superficial)
        return Tracker(self.boxes, superficial - upgrade, aggravated + upgrade)

    def heal_superficial(self, amount: int) -> Tracker:
        check_int(amount, "healing", 0)
        return replace(self, superficial=max(0, self.superficial - amount))

    def heal_aggravated(self, amount: int) -> Tracker:
        check_int(amount, "healing", 0)
        return replace(self, aggravated=max(0, self.aggravated - amount))

    def as_json(self) -> dict[str, object]:
        return {
            "boxes": self.boxes,
            "superficial": self.superficial,
            "aggravated": self.aggravated,
            "undamaged": self.undamaged,
            "impaired": self.impaired,
            "overwhelmed": self.overwhelmed,
            "roll_pool": self.roll_pool,
        }


def health_boxes(stamina: int) -> int:
    return check_int(stamina, "stamina", 1) + 3


def willpower_boxes(composure: int, resolve: int) -> int:
    return check_int(composure, "composure", 1) + check_int(resolve, "resolve", 1)


class PoolKind(StrEnum):
    """Which tracker's impairment a pool takes, by its Attribute (``pool_kind``)."""

    PHYSICAL = "physical"
    SOCIAL = "social"
    MENTAL = "mental"


ATTRIBUTE_KINDS = {
    "strength": PoolKind.PHYSICAL, "dexterity": PoolKind.PHYSICAL, "stamina": PoolKind.PHYSICAL,
    "charisma": PoolKind.SOCIAL, "manipulation": PoolKind.SOCIAL, "composure": PoolKind.SOCIAL,
    "intelligence": PoolKind.MENTAL, "wits": PoolKind.MENTAL, "resolve": PoolKind.MENTAL,
}


def pool_kind(attributes: Iterable[str]) -> PoolKind | None:
    """A pool's kind from its Attributes (their keys, ``strength``...): the first one named; None
    for a pool without an Attribute (a quick NPC's, a tracker roll)."""
    for key in attributes:
        if key in ATTRIBUTE_KINDS:
            return ATTRIBUTE_KINDS[key]
    return None


def impaired(kind: PoolKind | None, health: Tracker, willpower: Tracker) -> bool:
    """Whether a pool of ``kind`` takes the impairment's dice: a full Health tracker impairs Physical
    pools, a full Willpower tracker Social and Mental ones."""
    if kind is None:
        return False
    return health.impaired if kind is PoolKind.PHYSICAL else willpower.impaired


def spend_willpower(willpower: Tracker) -> Tracker:
    """Spending 1 Willpower marks 1 superficial Willpower damage."""
    return willpower.damage(DamageKind.SUPERFICIAL, 1)


def tracker_request(tracker: Tracker, difficulty: int = 1, modifiers: tuple[int, ...] = (), hunger: int = 0) -> Request:
    """A Willpower (or other tracker) roll: undamaged boxes, hunger dice as in every pool, no reroll."""
    return Request(pool=tracker.roll_pool, hunger=hunger, difficulty=difficulty, tracker=True, modifiers=modifiers)



# --- Pools from several characters --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Teamwork:
    """A teamwork pool: ``dice`` rolled, the pool of ``roller`` (an index into the pools) plus one
    die per other character in ``adding``; ``idle`` are those without a dot in the skill."""

    dice: int
    roller: int
    adding: tuple[int, ...]
    idle: tuple[int, ...]


def teamwork(pools: Sequence[int], skills: Sequence[int] | None = None) -> Teamwork:
    """The largest pool rolls, +1 die per helper with a dot in the skill (``skills=None``: no skill
    involved, every helper adds one). Index 0 is the character who asked for help."""
    if not pools:
        raise RulesError("teamwork needs at least one character")
    for p in pools:
        check_int(p, "pool", 0, MAX_POOL)
    if skills is not None:
        if len(skills) != len(pools):
            raise RulesError(f"teamwork: {len(pools)} pools but {len(skills)} skill ratings")
        for s in skills:
            check_int(s, "skill", 0)
    able = [True] * len(pools) if skills is None else [s >= 1 for s in skills]
    # Among equal largest pools an unable helper rolls, so that an able one can still add a die.
    roller = max(range(len(pools)), key=lambda i: (pools[i], not able[i]))
    others = [i for i in range(len(pools)) if i != roller]
    adding = tuple(i for i in others if able[i])
    return Teamwork(pools[roller] + len(adding), roller, adding,
                    tuple(i for i in others if not able[i]))


def teamwork_pool(pools: Sequence[int], skills: Sequence[int] | None = None) -> int:
    """The dice a teamwork roll rolls (``teamwork``)."""
    return teamwork(pools, skills).dice


def opposition_from_pool(npc_pool: int) -> int:
    """Static difficulty from an NPC's pool: half, rounded down, at least 1."""
    return max(1, check_int(npc_pool, "NPC pool", 0) // 2)


def opposition_from_skill(npc_skill: int) -> int:
    """Static difficulty from an NPC's skill rating; even a rating of 0 makes it 1."""
    return max(1, check_int(npc_skill, "NPC skill", 0))


# --- Exact odds ---------------------------------------------------------------------------

P_TEN = 0.1  # a die shows 10
P_SCORE = 0.4  # a die shows 6-9
P_FAIL = 0.5  # a die shows 1-5
P_NOT_ONE_GIVEN_FAIL = 4 / 5  # a failing die is a 1 one time in five


@dataclass(frozen=True, slots=True)
class Odds:
    pool: int
    hunger: int
    hunger_dice: int
    difficulty: int
    p_win: float
    p_critical: float
    p_messy: float
    p_bestial: float
    p_total_failure: float
    distribution: Distribution  # of successes, critical pairs included

    def as_json(self) -> dict[str, object]:
        return {
            "system": SYSTEM,
            "pool": self.pool,
            "hunger": self.hunger,
            "hunger_dice": self.hunger_dice,
            "difficulty": self.difficulty,
            "p_win": self.p_win,
            "p_critical": self.p_critical,
            "p_messy": self.p_messy,
            "p_bestial": self.p_bestial,
            "p_total_failure": self.p_total_failure,
            "mean": self.distribution.mean,
            "distribution": self.distribution.as_dict(),
        }


def odds(request: Request) -> Odds:
    """Exact odds of a test, in O(n²) for n dice.

    All dice, normal or hunger, share one face distribution, so the number of 10s T and of
    6-9s S over the whole pool are multinomial, and successes = S + T + 2·⌊T/2⌋. Given (S, T)
    the dice are exchangeable: the T tens avoid all h hunger dice with probability
    C(n−h, T)/C(n, T), and among the F = n−S−T failing dice the number of hunger dice is
    hypergeometric, each failing die being a 1 with probability 1/5 independently.
    """
    n, h, d = request.dice, request.hunger_dice, request.needed
    if request.no_equipment:
        return Odds(pool=n, hunger=request.hunger, hunger_dice=h, difficulty=d, p_win=0.0, p_critical=0.0, p_messy=0.0,
                    p_bestial=0.0, p_total_failure=1.0, distribution=Distribution.point(0))
    probs = [0.0] * (n + 2 * (n // 2) + 1)
    p_critical = p_messy = p_bestial = 0.0
    no_hunger_one = _no_hunger_one(n, h)
    for tens in range(n + 1):
        rest = n - tens
        bonus = tens + 2 * (tens // 2)
        # p = P(T = tens, S = scores), multinomial, walked along S by its term ratio from S = 0.
        p = comb(n, tens) * P_TEN**tens * P_FAIL**rest
        p_win_here = 0.0
        for scores in range(rest + 1):
            successes = bonus + scores
            probs[successes] += p
            if successes >= d:
                p_win_here += p
            elif h:
                p_bestial += p * (1.0 - no_hunger_one[rest - scores])
            p *= (rest - scores) / (scores + 1) * (P_SCORE / P_FAIL)
        if tens >= 2:
            p_critical += p_win_here
            if h:
                p_messy += p_win_here * (1.0 - comb(n - h, tens) / comb(n, tens))
    # The term walk rounds a little (up to ~3e-15 for 100 dice): normalise at the source, so the
    # distribution sums to 1 and every chance stays in [0, 1].
    total = sum(probs)
    distribution = Distribution(tuple(probs)).normalised()
    return Odds(
        pool=n,
        hunger=request.hunger,
        hunger_dice=h,
        difficulty=d,
        p_win=distribution.p_at_least(d),
        p_critical=clamp(p_critical / total),
        p_messy=clamp(p_messy / total),
        p_bestial=clamp(p_bestial / total),
        p_total_failure=distribution.p(0),
        distribution=distribution,
    )


def _no_hunger_one(n: int, h: int) -> list[float]:
    """[F] = P(no hunger die shows 1 | F failing dice among n, h of the n being hunger dice)."""
    if not h:
        return []
    return [
        sum(comb(h, k) * comb(n - h, fails - k) * P_NOT_ONE_GIVEN_FAIL**k for k in range(min(h, fails) + 1))
        / comb(n, fails)
        for fails in range(n + 1)
    ]


def contest(a: Request, b: Request) -> ContestOdds:
    """Both sides roll; more successes wins, equal successes is a stalemate (``p_tie``)."""
    return contest_of(odds(a).distribution, odds(b).distribution)


def extended(
    request: Request,
    goal: int,
    difficulty: int = 0,
    policy: BotchPolicy | str = BotchPolicy.RESET,
    rolls: int = 20,
    progress: int = 0,
) -> ExtendedOdds:
    """Extended test odds; V5 has no botch, so ``policy`` never comes into play."""
    return extended_odds(odds(request).distribution, 0.0, goal, difficulty, botch_policy(policy), rolls, progress)


# --- Luck ---------------------------------------------------------------------------------


def luck(request: Request, result: Result) -> Luck | None:
    """Where a test fell among the tests of its request (``rules.luck``); None when nothing was
    rolled (an automatic win, taking half, a task impossible without equipment).

    Ranked: the successes, critical pairs included. The Hunger dice's results are not ranked
    apart: a messy critical is a critical win and a bestial failure a failure (one that may even
    have successes towards a win at a cost), so the successes say how well the dice did and the
    specials say what the Hunger dice made of it. Specials: ``critical`` (a critical win),
    ``messy_critical`` and ``bestial_failure``.

    A Willpower reroll is a roll of its own, ranked among the outcomes it could have had: the
    kept dice as they fell and the rerolled ones fresh, and the specials' priors are the chances
    once the kept dice were known (a bestial failure is likely when a Hunger die already shows 1).
    Ranking it against the original request instead would credit the dice with the player's
    choice of which to reroll: a campaign rerolling its failures would look lucky, and its
    criticals seen would outrun the criticals expected, with fair dice. The first roll keeps the
    luck it had when it was rolled, so each die thrown is counted once.
    """
    if result.automatic:
        return None
    _check_rolled_for(request, result)
    if result.rerolled:
        return _reroll_luck(request, result)
    o = odds(request)
    return luck_of(o.distribution, result.successes, _specials(result, o.p_critical, o.p_messy, o.p_bestial))


# What a rerolled normal die can do, with a face standing for each: fail (1-5), score (6-9), a 10.
_REROLLED = ((1, P_FAIL), (SUCCESS, P_SCORE), (10, P_TEN))


def _reroll_luck(request: Request, result: Result) -> Luck:
    """Every outcome of the rerolled dice (3³ at most), judged by the rules themselves."""
    successes: dict[int, float] = {}
    p_critical = p_messy = p_bestial = 0.0
    for fresh in product(_REROLLED, repeat=len(result.rerolled)):
        faces = list(result.faces)
        p = 1.0
        for i, (face, chance) in zip(result.rerolled, fresh):
            faces[i] = face
            p *= chance
        could = _judge(request, tuple(faces), result.hunger_faces, ())
        successes[could.successes] = successes.get(could.successes, 0.0) + p
        p_critical += p * could.critical
        p_messy += p * could.messy
        p_bestial += p * could.bestial
    return luck_of(Distribution.from_dict(successes), result.successes,
                   _specials(result, p_critical, p_messy, p_bestial))


def _specials(result: Result, p_critical: float, p_messy: float, p_bestial: float) -> tuple[Special, ...]:
    return (Special("critical", p_critical, result.critical), Special("messy_critical", p_messy, result.messy),
            Special("bestial_failure", p_bestial, result.bestial))


def rouse_luck(result: RouseResult) -> Luck:
    """A rouse check's luck: a pass ranks above a fail (percentiles 0.75 and 0.25), the face
    meaning nothing more. No specials: a failed check's Hunger is the failure itself."""
    return luck_of(Distribution((P_FAIL, 1.0 - P_FAIL)), int(result.passed))
