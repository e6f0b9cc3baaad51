"""Fate Accelerated (Spanish: *Fate Acelerado*): four Fate dice plus a bonus against the Ladder.

Roll four Fate dice (each -1, 0 or +1) or draw a card of the Fate deck, add the bonus — the
approach's rating, stunts, +1 per helping ally and +2 per invoked aspect — and compare the
total with a difficulty on the Ladder or with an opponent's total. ``shifts = total - target``:
below 0 is a **fail**, 0 a **tie**, 1-2 a **success**, 3 or more a **success with style**.
The four actions (overcome, create an advantage, attack, defend) turn that outcome into
effects by the seed's 30-second table, which is data here (``TABLE``), not prose.

Decisions where the seed and RULES.md are silent:

- ``Request.bonus`` is the already-summed bonus (``bonus()`` sums approach, stunt, helpers
  and +2 per aspect invoked before the roll); ``modifiers`` add to it (``total_bonus``).
  Bonus and difficulty are bounded by ``±MAX_BONUS`` to catch typos; the Ladder's names
  cover -2..+8 and values beyond it are named by their signed number ("+9", "-3").
- Invoking after the roll: ``invoke_bonus`` adds +2 and ``reroll`` replaces all four dice; both
  are recorded on the result (``invokes``, ``rerolled``). A reroll keeps the +2s already
  invoked, since those came from other aspects and still apply to the new dice.
- Which aspect each invocation used: ``Invoked`` (the aspect, how it was paid: a free
  invocation or a fate point, and its use: +2 or a reroll). ``Request.invocations`` are those
  made before the roll (+2 each, added to ``total_bonus``); ``invoke_bonus`` and ``reroll`` take
  the one made after the roll and the result keeps them (``Result.invocations``). Only named
  invocations are checked and recorded; the older anonymous form (no ``invocation``) still works.
- **The same aspect twice on one roll** (seed 004: "Normalmente no se puede invocar dos veces el
  mismo aspecto en una tirada", a success with style's two free invocations being the
  exception): an aspect is invoked at most twice on one roll, and twice only when both are free
  invocations (``may_invoke``); a fate point never pays for a second invocation of it. Aspects
  are told apart by their ``aspect`` string, exactly as given.
- Creating an advantage has three rows, not two: a *new* aspect, *discovering* an existing
  one and an aspect already *known*. New and discovered differ only on a tie, where a
  discovery counts as a success (the seed: "se trata como un éxito").
- ``effects(..., shifts=...)``: an attack's hit deals its shifts as stress (``stress`` stays
  ``None`` until the shifts are given); a defence names the outcome its opponent reads on
  its own table (``opponent_outcome``: the mirror of the defender's shifts). Defending tie or
  better stops the attack *per the attacker's own table*: an attacker's tie still earns
  its boost, an overcome tie still reaches the goal at a minor cost.
- The Fate deck holds 81 cards, card ``i`` showing ``CARDS[i]`` (every ordered combination
  of four Fate dice). ``Deck.remaining`` lists the cards left, the next one first. Drawing
  from an empty deck reshuffles all 81 cards first and says so (``Draw.reshuffled``);
  ``deck_odds`` of an empty deck are therefore those of a fresh one. The odds of a deck
  assume the order of its remaining cards is unknown, as it is at the table.
- Stress follows Fate Accelerated, not Fate Core: a hit may check at most one stress box,
  box N absorbs N shifts (a bigger box may soak a smaller hit), a checked box cannot be
  checked again, and the box may combine with any free consequences (mild 2, moderate 4,
  severe 6). A choice that does not absorb the whole hit is refused; choosing nothing
  means being taken out, and then nothing is marked. Each new consequence gives the
  attacker a free invocation on it (``Hit.opponent_free_invokes``).
- Fate points: a session starts with ``max(current, refresh)``. Refresh is 3, less 1 per
  stunt beyond the three free ones, and never below 1. Free invocations are counted on
  the aspect, not per owner; a boost has exactly one and vanishes when it is used.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from itertools import combinations, product

from rules.dice import (
    Note,
    RandomSource,
    RulesError,
    check_fate_faces,
    check_int,
    note,
    parse_choice,
    roll_fate_dice,
    system_random,
)
from rules.dist import ContestOdds, Distribution, contest as contest_odds
from rules.luck import Luck, Special, luck_of

SYSTEM = "fate"
DICE = 4
MAX_BONUS = 50
MAX_HELPERS = 10
MAX_INVOKES = 10
INVOKE_BONUS = 2  # per invoked aspect
STYLE_SHIFTS = 3

def _signed(value: int) -> str:
    return f"{value:+d}"


# --- the Ladder and the approaches --------------------------------------------------------

LADDER: dict[int, str] = {
    8: "Legendary",
    7: "Epic",
    6: "Fantastic",
    5: "Superb",
    4: "Great",
    3: "Good",
    2: "Fair",
    1: "Average",
    0: "Mediocre",
    -1: "Poor",
    -2: "Terrible",
}


def ladder_name(value: int) -> str:
    """The Ladder's English name of ``value`` (the UI translates it); off the Ladder, "+9"."""
    check_int(value, "ladder value")
    return LADDER.get(value, _signed(value))


def parse_ladder(value: int | str) -> int:
    """A Ladder value from an int, "+3", "-1", "Good", or "+3 Good" (the two must agree)."""
    if not isinstance(value, str):
        return check_int(value, "ladder value")
    bad = RulesError(f"not a Ladder value: {value!r} (e.g. +3, Good or +3 Good)")
    by_name = {name.lower(): v for v, name in LADDER.items()}
    words = value.replace("\u2212", "-").lower().split()  # a typographic minus too
    names = [by_name[w] for w in words if w in by_name]
    numbers = [w for w in words if w not in by_name]
    if not words or len(names) > 1 or len(numbers) > 1:
        raise bad
    values = set(names)
    for number in numbers:
        try:
            values.add(int(number))
        except ValueError:
            raise bad from None
    if len(values) != 1:
        raise bad  # "+3 Great": the number and the name disagree
    return values.pop()


class Approach(StrEnum):
    CAREFUL = "careful"
    CLEVER = "clever"
    FLASHY = "flashy"
    FORCEFUL = "forceful"
    QUICK = "quick"
    SNEAKY = "sneaky"


def parse_approach(value: str) -> Approach:
    return parse_choice(Approach, value, "approach")


def bonus(approach_rating: int, stunt: int = 0, helpers: int = 0, invokes: int = 0) -> int:
    """What a roll adds to the dice: approach + stunt + 1 per helping ally + 2 per invoked aspect."""
    check_int(approach_rating, "approach rating", min(LADDER), max(LADDER))
    check_int(stunt, "stunt bonus", 0, MAX_BONUS)
    check_int(helpers, "helpers", 0, MAX_HELPERS)
    check_int(invokes, "invoked aspects", 0, MAX_INVOKES)
    return approach_rating + stunt + helpers + INVOKE_BONUS * invokes


# --- outcomes --------------------------------------------------------------------------------


class Outcome(StrEnum):
    FAIL = "fail"
    TIE = "tie"
    SUCCESS = "success"
    STYLE = "style"  # success with style


def outcome_of(shifts: int) -> Outcome:
    if shifts < 0:
        return Outcome.FAIL
    if shifts == 0:
        return Outcome.TIE
    return Outcome.STYLE if shifts >= STYLE_SHIFTS else Outcome.SUCCESS


def parse_outcome(value: str) -> Outcome:
    return parse_choice(Outcome, value, "outcome")


OUTCOME_TEXT = {
    Outcome.FAIL: "fail",
    Outcome.TIE: "tie",
    Outcome.SUCCESS: "success",
    Outcome.STYLE: "success with style",
}


# --- invocations -----------------------------------------------------------------------------


class Paid(StrEnum):
    """How an invocation is paid (the values are the table's spend kinds)."""

    FREE = "free_invocation"
    FATE_POINT = "fate_point"


class Use(StrEnum):
    BONUS = "bonus"  # +2
    REROLL = "reroll"  # all four dice again


@dataclass(frozen=True, slots=True)
class Invoked:
    """One invocation of an aspect: which aspect, how it was paid, what for."""

    aspect: str
    paid: Paid = Paid.FATE_POINT
    use: Use = Use.BONUS

    def __post_init__(self) -> None:
        if not isinstance(self.aspect, str) or not self.aspect.strip():
            raise RulesError(f"an invocation names its aspect, got {self.aspect!r}")
        object.__setattr__(self, "paid", parse_choice(Paid, self.paid, "paid"))
        object.__setattr__(self, "use", parse_choice(Use, self.use, "use"))

    @classmethod
    def of(cls, value: Invoked | dict[str, object]) -> Invoked:
        """An invocation, or its JSON form (``as_json``) as a stored request keeps it."""
        return value if isinstance(value, Invoked) else cls(**value)  # type: ignore[arg-type]

    def as_json(self) -> dict[str, str]:
        return {"aspect": self.aspect, "paid": self.paid.value, "use": self.use.value}


MOST_PER_ASPECT = 2  # a success with style's two free invocations, on one roll


def may_invoke(earlier: Sequence[Paid | str], paying: Paid | str) -> bool:
    """Whether an aspect may be invoked (paid ``paying``) on a roll where it was already invoked
    ``len(earlier)`` times (each paid as listed): once, or a second time only when both are free
    invocations (seed 004: success with style's exception); never a third time."""
    paid = [parse_choice(Paid, p, "paid") for p in (*earlier, paying)]
    return len(paid) == 1 or (len(paid) <= MOST_PER_ASPECT and all(p is Paid.FREE for p in paid))


def check_invocations(invocations: Iterable[Invoked]) -> tuple[Invoked, ...]:
    """The invocations of one roll, in order, refused if one breaks ``may_invoke``."""
    seen: dict[str, list[Paid]] = {}
    out = tuple(invocations)
    for invocation in out:
        earlier = seen.setdefault(invocation.aspect, [])
        if not may_invoke(earlier, invocation.paid):
            raise RulesError(f"{invocation.aspect!r} is already invoked on this roll: the same aspect twice only with "
                             "two free invocations (a success with style's), never a third time",
                             "invoke_twice", aspect=invocation.aspect)
        earlier.append(invocation.paid)
    if len(out) > MAX_INVOKES:
        raise RulesError(f"at most {MAX_INVOKES} aspects can be invoked on one roll")
    return out


# --- a roll -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Request:
    """One roll as the GM composes it."""

    bonus: int = 0  # approach + stunts + helpers + invokes, already summed (see ``bonus()``)
    difficulty: int = 0  # on the Ladder, or the opponent's total
    modifiers: tuple[int, ...] = ()  # added to the bonus
    invocations: tuple[Invoked, ...] = ()  # aspects invoked before the roll: +2 each, on top of ``bonus``

    def __post_init__(self) -> None:
        check_int(self.bonus, "bonus", -MAX_BONUS, MAX_BONUS)
        check_int(self.difficulty, "difficulty", -MAX_BONUS, MAX_BONUS)
        object.__setattr__(self, "modifiers", tuple(self.modifiers))  # a list would break hashing
        for modifier in self.modifiers:
            check_int(modifier, "modifier", -MAX_BONUS, MAX_BONUS)
        invocations = check_invocations(Invoked.of(i) for i in self.invocations)
        if any(i.use is not Use.BONUS for i in invocations):
            raise RulesError("an invocation before the roll adds +2: there are no dice to reroll yet")
        object.__setattr__(self, "invocations", invocations)

    @property
    def total_bonus(self) -> int:
        """What the dice are added to: the bonus after modifiers, with +2 per aspect invoked before the roll."""
        return self.bonus + sum(self.modifiers) + INVOKE_BONUS * len(self.invocations)

    def as_json(self) -> dict[str, object]:
        return {
            "bonus": self.total_bonus,
            "difficulty": self.difficulty,
            "difficulty_ladder": ladder_name(self.difficulty),
            "modifiers": list(self.modifiers),
        }


def dice_text(faces: Sequence[int]) -> str:
    """Fate dice as printed: ``-+0+``."""
    return "".join("-0+"[f + 1] for f in faces)


@dataclass(frozen=True, slots=True)
class Result:
    request: Request
    faces: tuple[int, ...]
    notes: tuple[Note, ...]
    invokes: int = 0  # aspects invoked after the roll for +2 each
    rerolled: tuple[tuple[int, ...], ...] = ()  # the faces each reroll replaced, oldest first
    invocations: tuple[Invoked, ...] = ()  # the named invocations after the roll, in order

    @property
    def total(self) -> int:
        return sum(self.faces) + self.request.total_bonus + INVOKE_BONUS * self.invokes

    @property
    def shifts(self) -> int:
        return self.total - self.request.difficulty

    @property
    def outcome(self) -> Outcome:
        return outcome_of(self.shifts)

    def as_json(self) -> dict[str, object]:
        return {
            "system": SYSTEM,
            "faces": list(self.faces),
            "total": self.total,
            "shifts": self.shifts,
            "margin": self.shifts,
            "outcome": self.outcome.value,
            "ladder": ladder_name(self.total),
            "dice": sum(self.faces),
            "invokes": self.invokes,
            "rerolled": [list(f) for f in self.rerolled],
            "notes": [n.as_json() for n in self.notes],
            **self.request.as_json(),
            # Every named invocation of the roll, before it and after it, in order.
            "invocations": [i.as_json() for i in (*self.request.invocations, *self.invocations)],
        }


def _notes(result: Result) -> tuple[Note, ...]:
    req, dice = result.request, sum(result.faces)
    notes = [note("dice", f"dice {dice_text(result.faces)}: {_signed(dice)}", dice=dice)]
    if result.rerolled:
        was = ", ".join(dice_text(f) for f in result.rerolled)
        notes.append(note("reroll", f"an invoked aspect rerolled the dice (was {was})", count=len(result.rerolled)))
    if req.total_bonus:
        notes.append(note("bonus", f"bonus {_signed(req.total_bonus)}", bonus=req.total_bonus))
    if result.invokes:
        n = result.invokes
        notes.append(note("invoke", f"{n} aspect(s) invoked after the roll: +{INVOKE_BONUS * n}", count=n))
    notes.append(
        note(
            "total",
            f"total {_signed(result.total)} ({ladder_name(result.total)}) against "
            f"{_signed(req.difficulty)} ({ladder_name(req.difficulty)}): {_signed(result.shifts)} shifts",
            total=result.total,
            difficulty=req.difficulty,
            shifts=result.shifts,
        )
    )
    notes.append(note(f"outcome_{result.outcome.value}", OUTCOME_TEXT[result.outcome]))
    return tuple(notes)


def _result(req: Request, faces: Iterable[int], invokes: int = 0, rerolled: tuple[tuple[int, ...], ...] = (),
            invocations: tuple[Invoked, ...] = ()) -> Result:
    result = Result(req, check_fate_faces(faces, DICE), (), invokes, rerolled, invocations)
    return replace(result, notes=_notes(result))


def resolve(req: Request, faces: Iterable[int]) -> Result:
    """Read four Fate dice (or a deck card's four faces), each -1, 0 or +1."""
    return _result(req, faces)


def roll(req: Request, rng: RandomSource | None = None) -> Result:
    return resolve(req, roll_fate_dice(DICE, rng))


def _check_invocable(req: Request, result: Result, invocation: Invoked | None, use: Use) -> tuple[Invoked, ...]:
    """The result's named invocations with this one added (checked against the whole roll's)."""
    if result.request != req:
        raise RulesError("this result was rolled for another request")
    if result.invokes + len(result.rerolled) >= MAX_INVOKES:
        raise RulesError(f"at most {MAX_INVOKES} aspects can be invoked on one roll")
    if invocation is None:
        return result.invocations
    invocation = replace(Invoked.of(invocation), use=use)
    check_invocations((*req.invocations, *result.invocations, invocation))
    return (*result.invocations, invocation)


def invoke_bonus(req: Request, result: Result, invocation: Invoked | None = None) -> Result:
    """Invoke an aspect after the roll for +2 (``invocation``: which aspect, and how it is paid)."""
    invocations = _check_invocable(req, result, invocation, Use.BONUS)
    return _result(req, result.faces, result.invokes + 1, result.rerolled, invocations)


def reroll(req: Request, result: Result, new_faces: Iterable[int], invocation: Invoked | None = None) -> Result:
    """Invoke an aspect to reroll all four dice; the old faces are kept in ``rerolled``."""
    invocations = _check_invocable(req, result, invocation, Use.REROLL)
    return _result(req, new_faces, result.invokes, (*result.rerolled, result.faces), invocations)


def roll_reroll(req: Request, result: Result, rng: RandomSource | None = None,
                invocation: Invoked | None = None) -> Result:
    return reroll(req, result, roll_fate_dice(DICE, rng), invocation)


# --- opposed rolls --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Opposed:
    """Both sides rolled: the first side's shifts are its total minus the second side's."""

    first: Result
    second: Result

    @property
    def shifts(self) -> int:
        return self.first.total - self.second.total

    @property
    def outcome(self) -> Outcome:
        """For the first side (e.g. the attacker)."""
        return outcome_of(self.shifts)

    @property
    def opponent_outcome(self) -> Outcome:
        """For the second side (e.g. the defender), who reads the shifts the other way."""
        return outcome_of(-self.shifts)

    @property
    def notes(self) -> tuple[Note, ...]:
        return (
            note(
                "opposed",
                f"{_signed(self.first.total)} against {_signed(self.second.total)}: {_signed(self.shifts)} shifts, "
                f"{OUTCOME_TEXT[self.outcome]} for the first side",
                total=self.first.total,
                opponent_total=self.second.total,
                shifts=self.shifts,
            ),
        )

    def as_json(self) -> dict[str, object]:
        return {
            "system": SYSTEM,
            "faces": list(self.first.faces),
            "opponent_faces": list(self.second.faces),
            "total": self.first.total,
            "opponent_total": self.second.total,
            "shifts": self.shifts,
            "margin": self.shifts,
            "outcome": self.outcome.value,
            "opponent_outcome": self.opponent_outcome.value,
            "notes": [n.as_json() for n in self.notes],
        }


def resolve_opposed(first: Result, second: Result) -> Opposed:
    """Compare two totals; each side's own difficulty plays no part."""
    return Opposed(first, second)


# --- exact odds and the dice's distribution -----------------------------------------------

# Card i of the Fate deck; the same 81 ordered combinations are the equally likely rolls of 4dF.
CARDS: tuple[tuple[int, ...], ...] = tuple(product((-1, 0, 1), repeat=DICE))
DECK_SIZE = len(CARDS)


def _dice_distribution(cards: Iterable[int]) -> Distribution:
    """The distribution of the dice's sum over equally likely cards."""
    counts = Counter(sum(CARDS[c]) for c in cards)
    n = sum(counts.values())
    return Distribution.from_dict({s: k / n for s, k in counts.items()})


FOUR_DF = _dice_distribution(range(DECK_SIZE))  # 1, 4, 10, 16, 19, 16, 10, 4, 1 out of 81


@dataclass(frozen=True, slots=True)
class Odds:
    request: Request
    distribution: Distribution  # total → probability
    cards: int | None = None  # drawn from a deck of this many cards; None for dice

    @property
    def p_fail(self) -> float:
        return self.distribution.p_below(self.request.difficulty)

    @property
    def p_tie(self) -> float:
        return self.distribution.p(self.request.difficulty)

    @property
    def p_success(self) -> float:
        """A success without style: 1 or 2 shifts."""
        d = self.request.difficulty
        return self.distribution.p_below(d + STYLE_SHIFTS) - self.distribution.p_below(d + 1)

    @property
    def p_style(self) -> float:
        return self.distribution.p_at_least(self.request.difficulty + STYLE_SHIFTS)

    @property
    def mean(self) -> float:
        return self.distribution.mean

    def as_json(self) -> dict[str, object]:
        return {
            "system": SYSTEM,
            "p_fail": self.p_fail,
            "p_tie": self.p_tie,
            "p_success": self.p_success,
            "p_style": self.p_style,
            "mean": self.mean,
            "distribution": self.distribution.as_dict(),
            "source": "dice" if self.cards is None else "deck",
            "cards": self.cards,
            **self.request.as_json(),
        }


def total_distribution(req: Request) -> Distribution:
    return FOUR_DF.shifted(req.total_bonus)


def odds(req: Request) -> Odds:
    return Odds(req, total_distribution(req))


def contest(a: Request, b: Request) -> ContestOdds:
    """Both sides roll; the first side's chances, its shifts being the difference of the totals."""
    return contest_odds(total_distribution(a), total_distribution(b))


# --- the Fate deck ------------------------------------------------------------------------------


def _shuffle(cards: Sequence[int], rng: RandomSource) -> tuple[int, ...]:
    # Fisher–Yates with randint, the one method every RandomSource has.
    deck = list(cards)
    for i in range(len(deck) - 1, 0, -1):
        j = rng.randint(0, i)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


@dataclass(frozen=True, slots=True)
class Deck:
    """The Fate deck's state: the card indices (0..80) left, the next one first."""

    remaining: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "remaining", tuple(self.remaining))
        for card in self.remaining:
            check_int(card, "card", 0, DECK_SIZE - 1)
        if len(set(self.remaining)) != len(self.remaining):
            raise RulesError("a Fate deck holds each card once")

    @classmethod
    def shuffled(cls, rng: RandomSource | None = None) -> Deck:
        """All 81 cards in random order."""
        return cls(_shuffle(range(DECK_SIZE), rng or system_random()))

    @classmethod
    def from_list(cls, cards: Iterable[int]) -> Deck:
        return cls(tuple(cards))

    def as_list(self) -> list[int]:
        return list(self.remaining)

    def __len__(self) -> int:
        return len(self.remaining)

    def as_json(self) -> dict[str, object]:
        return {"remaining": self.as_list(), "cards_left": len(self)}


@dataclass(frozen=True, slots=True)
class Draw:
    card: int
    deck: Deck  # what is left after this draw
    reshuffled: bool  # the deck was empty and was reshuffled before this draw

    @property
    def faces(self) -> tuple[int, ...]:
        return CARDS[self.card]

    @property
    def notes(self) -> tuple[Note, ...]:
        card = note("card", f"Fate deck card {self.card}: {dice_text(self.faces)}", card=self.card)
        if not self.reshuffled:
            return (card,)
        return (note("deck_reshuffled", "the Fate deck was empty: all 81 cards reshuffled"), card)

    def as_json(self) -> dict[str, object]:
        return {
            "card": self.card,
            "faces": list(self.faces),
            "reshuffled": self.reshuffled,
            "deck": self.deck.as_list(),
            "notes": [n.as_json() for n in self.notes],
        }


def draw(deck: Deck, rng: RandomSource | None = None) -> Draw:
    """The next card; an empty deck is reshuffled first (``rng`` is only used then)."""
    reshuffled = not deck.remaining
    if reshuffled:
        deck = Deck.shuffled(rng)
    return Draw(deck.remaining[0], Deck(deck.remaining[1:]), reshuffled)


def roll_deck(req: Request, deck: Deck, rng: RandomSource | None = None) -> tuple[Result, Draw]:
    """A roll made by drawing a card: the result (noting the card) and the draw (with the new deck)."""
    drawn = draw(deck, rng)
    result = resolve(req, drawn.faces)
    return replace(result, notes=(*drawn.notes, *result.notes)), drawn


def deck_odds(req: Request, deck: Deck) -> Odds:
    """Exact odds of the next card: the remaining cards are equally likely (all 81 if empty)."""
    cards = deck.remaining or range(DECK_SIZE)
    return Odds(req, _dice_distribution(cards).shifted(req.total_bonus), len(cards))


def luck(req: Request, result: Result, deck: Deck | None = None) -> Luck:
    """Where a roll fell among the rolls of its request (``rules.luck``).

    Ranked: the total the dice gave, the request's bonus included but not the aspects invoked
    for +2 after the roll: those are the player's choice, not the dice's luck. The percentile is
    therefore the dice's own (a sum of -1 is unlucky at any bonus). Special: a
    ``success_with_style``, counted on that same total (3 shifts or more before any invocation
    after the roll), so that the style seen and the style expected measure the same thing.

    ``deck``: the deck the card was drawn from, as it was before the draw (an empty deck is a fresh
    one, as for ``deck_odds``); the card is ranked among the cards left then. Without it the roll
    is four Fate dice. A reroll by an invoked aspect is a fresh roll of the same request (from the
    deck as it was then), so it is ranked like one; a result that only added +2 rolled nothing
    new and has the luck of the roll it came from.
    """
    if result.request != req:
        raise RulesError("this result was rolled for another request")
    if deck is not None and deck.remaining and CARDS.index(result.faces) not in deck.remaining:
        raise RulesError("that card is not among the cards left in this deck")
    o = deck_odds(req, deck) if deck is not None else odds(req)
    rolled = sum(result.faces) + req.total_bonus
    style = outcome_of(rolled - req.difficulty) is Outcome.STYLE
    return luck_of(o.distribution, rolled, (Special("success_with_style", o.p_style, style),))


# --- the four actions: the seed's 30-second table as data ------------------------------------


class Action(StrEnum):
    OVERCOME = "overcome"
    CREATE_ADVANTAGE = "create_advantage"
    ATTACK = "attack"
    DEFEND = "defend"


def parse_action(value: str) -> Action:
    return parse_choice(Action, value, "action")


class Cost(StrEnum):
    NONE = "none"
    MINOR = "minor"
    SERIOUS = "serious"


@dataclass(frozen=True, slots=True)
class Effect:
    """What an action's outcome does, by the table. ``code`` is the stable key the UI translates."""

    code: str
    text: str
    goal_achieved: bool = False  # overcome: you get what you wanted (at ``cost``)
    cost: Cost = Cost.NONE  # overcome: the price of the goal (a fail's price if you take the option)
    may_succeed_at_cost: bool = False  # overcome fail: may choose success at a serious cost instead
    aspect_created: bool = False  # create an advantage: the aspect is created or discovered
    free_invokes: int = 0  # free invocations of that aspect for you or an ally
    opponent_free_invoke_option: bool = False  # fail: may create/discover it, but the opponent gets the free invoke
    boost: bool = False  # you gain a boost
    hit: bool = False  # attack: the target takes ``stress``
    stress: int | None = None  # attack hit: its shifts (None until the shifts are given)
    may_trade_shift_for_boost: bool = False  # attack with style: 1 shift less for a boost
    attack_stopped: bool = False  # defend: the opponent's action does not get what it wanted
    opponent_outcome: Outcome | None = None  # defend: the row the opponent reads on its own table

    def as_json(self) -> dict[str, object]:
        return {
            "code": self.code,
            "text": self.text,
            "goal_achieved": self.goal_achieved,
            "cost": self.cost.value,
            "may_succeed_at_cost": self.may_succeed_at_cost,
            "aspect_created": self.aspect_created,
            "free_invokes": self.free_invokes,
            "opponent_free_invoke_option": self.opponent_free_invoke_option,
            "boost": self.boost,
            "hit": self.hit,
            "stress": self.stress,
            "may_trade_shift_for_boost": self.may_trade_shift_for_boost,
            "attack_stopped": self.attack_stopped,
            "opponent_outcome": None if self.opponent_outcome is None else self.opponent_outcome.value,
        }


class Row(StrEnum):
    """The table's rows: creating an advantage splits by what the aspect is to you."""

    ADVANTAGE_NEW = "advantage_new"
    ADVANTAGE_DISCOVERED = "advantage_discovered"
    ADVANTAGE_KNOWN = "advantage_known"
    OVERCOME = "overcome"
    ATTACK = "attack"
    DEFEND = "defend"


# Short names keep the table one row to a line; deleted after it.
F, T, S, W = Outcome.FAIL, Outcome.TIE, Outcome.SUCCESS, Outcome.STYLE

_ADVANTAGE_NEW: dict[Outcome, Effect] = {
    F: Effect("create_advantage_fail", "no aspect, or the aspect with a free invocation for your opponent (not you)",
              opponent_free_invoke_option=True),
    T: Effect("create_advantage_tie_boost", "no aspect, but you get a boost", boost=True),
    S: Effect("create_advantage_success", "you create or discover the aspect with a free invocation",
              aspect_created=True, free_invokes=1),
    W: Effect("create_advantage_style", "you create or discover the aspect with two free invocations",
              aspect_created=True, free_invokes=2),
}
_KNOWN_INVOKE = Effect("create_advantage_known_invoke", "a free invocation of the aspect", free_invokes=1)

TABLE: dict[Row, dict[Outcome, Effect]] = {
    Row.ADVANTAGE_NEW: _ADVANTAGE_NEW,
    # Discovering an existing aspect: a tie counts as a success.
    Row.ADVANTAGE_DISCOVERED: {**_ADVANTAGE_NEW, T: _ADVANTAGE_NEW[S]},
    Row.ADVANTAGE_KNOWN: {
        F: Effect("create_advantage_known_fail", "no further benefit from the aspect"),
        T: _KNOWN_INVOKE,
        S: _KNOWN_INVOKE,
        W: Effect("create_advantage_known_style", "two free invocations of the aspect", free_invokes=2),
    },
    Row.OVERCOME: {
        F: Effect("overcome_fail", "you fail, or succeed at a serious cost",
                  cost=Cost.SERIOUS, may_succeed_at_cost=True),
        T: Effect("overcome_tie", "you succeed at a minor cost", goal_achieved=True, cost=Cost.MINOR),
        S: Effect("overcome_success", "you achieve your goal", goal_achieved=True),
        W: Effect("overcome_style", "you achieve your goal and get a boost", goal_achieved=True, boost=True),
    },
    Row.ATTACK: {
        F: Effect("attack_fail", "the attack misses: no effect"),
        T: Effect("attack_tie", "the attack does no harm, but you get a boost", boost=True),
        S: Effect("attack_success", "the attack hits for its shifts", hit=True),
        W: Effect("attack_style", "the attack hits for its shifts; you may take 1 less for a boost",
                  hit=True, may_trade_shift_for_boost=True),
    },
    Row.DEFEND: {
        F: Effect("defend_fail", "you suffer whatever your opponent's success gives"),
        T: Effect("defend_tie", "your opponent reads a tie on its own action's table",
                  attack_stopped=True, opponent_outcome=T),
        S: Effect("defend_success", "your opponent does not get what it wanted",
                  attack_stopped=True, opponent_outcome=F),
        W: Effect("defend_style", "your opponent does not get what it wanted, and you get a boost",
                  attack_stopped=True, opponent_outcome=F, boost=True),
    },
}

del F, T, S, W


def _row(action: Action, known_aspect: bool, discovering: bool) -> Row:
    if action is not Action.CREATE_ADVANTAGE:
        if known_aspect or discovering:
            raise RulesError("a known or discovered aspect applies only to create an advantage")
        return Row(action.value)
    if known_aspect and discovering:
        raise RulesError("an aspect is either already known or being discovered, not both")
    return Row.ADVANTAGE_KNOWN if known_aspect else Row.ADVANTAGE_DISCOVERED if discovering else Row.ADVANTAGE_NEW


def effects(
    action: Action | str,
    outcome: Outcome | str,
    known_aspect: bool = False,
    discovering: bool = False,
    shifts: int | None = None,
) -> Effect:
    """The table's effect of an action's outcome.

    Creating an advantage: a new aspect by default, ``discovering`` an existing one, or on a
    ``known_aspect``. With ``shifts`` (which must give that outcome) an attack's hit carries its
    stress and a defence the outcome its opponent reads.
    """
    action = parse_action(action)
    outcome = parse_outcome(outcome)
    effect = TABLE[_row(action, known_aspect, discovering)][outcome]
    if shifts is None:
        return effect
    check_int(shifts, "shifts")
    if outcome_of(shifts) is not outcome:
        actual = OUTCOME_TEXT[outcome_of(shifts)]
        raise RulesError(f"{_signed(shifts)} shifts is a {actual}, not a {OUTCOME_TEXT[outcome]}")
    if effect.hit:
        return replace(effect, stress=shifts)
    if action is Action.DEFEND:
        return replace(effect, opponent_outcome=outcome_of(-shifts))
    return effect


def trade_shift_for_boost(effect: Effect) -> Effect:
    """An attack with style takes 1 shift off its hit for a boost."""
    if not effect.may_trade_shift_for_boost:
        raise RulesError("only an attack with style may trade a shift for a boost")
    if effect.stress is None:
        raise RulesError("give the attack's shifts before trading one for a boost")
    return replace(effect, stress=effect.stress - 1, boost=True, may_trade_shift_for_boost=False)


# --- stress and consequences ------------------------------------------------------------------

STRESS_BOXES = (1, 2, 3)


class Severity(StrEnum):
    MILD = "mild"
    MODERATE = "moderate"
    SEVERE = "severe"

    @property
    def shifts(self) -> int:
        """The shifts a consequence of this severity absorbs."""
        return CONSEQUENCE_SHIFTS[self]


CONSEQUENCE_SHIFTS = {Severity.MILD: 2, Severity.MODERATE: 4, Severity.SEVERE: 6}


@dataclass(frozen=True, slots=True)
class StressTrack:
    """Three stress boxes worth 1, 2 and 3 shifts; ``checked`` lists the checked ones."""

    checked: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        checked = tuple(sorted(set(self.checked)))
        for box in checked:
            if box not in STRESS_BOXES:
                raise RulesError(f"stress boxes are 1, 2 and 3, got {box!r}")
        object.__setattr__(self, "checked", checked)

    @property
    def free(self) -> tuple[int, ...]:
        return tuple(b for b in STRESS_BOXES if b not in self.checked)

    def check(self, box: int) -> StressTrack:
        if box not in self.free:
            raise RulesError(f"stress box {box} is not free (free: {', '.join(map(str, self.free)) or 'none'})")
        return StressTrack((*self.checked, box))

    def cleared(self) -> StressTrack:
        """Once the conflict is over and there is a moment to breathe, every box is free again."""
        return StressTrack()

    def as_json(self) -> dict[str, object]:
        return {"boxes": list(STRESS_BOXES), "checked": list(self.checked)}


@dataclass(frozen=True, slots=True)
class Consequences:
    """One slot per severity, holding the consequence's aspect or None when free."""

    mild: str | None = None
    moderate: str | None = None
    severe: str | None = None

    def __post_init__(self) -> None:
        for severity in Severity:
            _check_name(getattr(self, severity.value), f"{severity.value} consequence", optional=True)

    @property
    def free(self) -> tuple[Severity, ...]:
        return tuple(s for s in Severity if getattr(self, s.value) is None)

    def take(self, severity: Severity | str, aspect: str) -> Consequences:
        severity = parse_choice(Severity, severity, "consequence")
        if severity not in self.free:
            raise RulesError(f"the {severity.value} consequence slot is taken")
        return replace(self, **{severity.value: _check_name(aspect, f"{severity.value} consequence")})

    def recover(self, severity: Severity | str) -> Consequences:
        """Clear a slot (mild: after a scene's rest; moderate: after a session; severe: after a scenario)."""
        severity = parse_choice(Severity, severity, "consequence")
        return replace(self, **{severity.value: None})

    def as_json(self) -> dict[str, object]:
        return {s.value: getattr(self, s.value) for s in Severity}


def _check_name(name: object, what: str, optional: bool = False) -> str | None:
    if name is None and optional:
        return None
    if not isinstance(name, str) or not name.strip():
        raise RulesError(f"{what}: an aspect needs a name")
    return name


@dataclass(frozen=True, slots=True)
class HitPlan:
    """How to absorb one hit: at most one stress box and any free consequences."""

    box: int | None = None
    consequences: tuple[Severity, ...] = ()

    def __post_init__(self) -> None:
        if self.box is not None and self.box not in STRESS_BOXES:
            raise RulesError(f"stress boxes are 1, 2 and 3, got {self.box!r}")
        severities = tuple(parse_choice(Severity, s, "consequence") for s in self.consequences)
        if len(set(severities)) != len(severities):
            raise RulesError("each consequence slot can be taken once")
        object.__setattr__(self, "consequences", tuple(sorted(severities, key=lambda s: s.shifts)))

    @property
    def absorbs(self) -> int:
        return (self.box or 0) + sum(s.shifts for s in self.consequences)

    def as_json(self) -> dict[str, object]:
        return {"box": self.box, "consequences": [s.value for s in self.consequences], "absorbs": self.absorbs}


def absorb_options(shifts: int, stress: StressTrack, consequences: Consequences) -> tuple[HitPlan, ...]:
    """Every plan that absorbs the whole hit and needs all its parts (drop one and it falls short).

    Lightest consequences first, then the smallest box; empty when nothing can save the character.
    """
    check_int(shifts, "shifts", 1)
    plans = []
    for box in (None, *stress.free):
        for k in range(len(consequences.free) + 1):
            for taken in combinations(consequences.free, k):
                plan = HitPlan(box, taken)
                parts = [HitPlan(None, taken)] if box else []
                parts += [HitPlan(box, tuple(s for s in taken if s is not drop)) for drop in taken]
                if plan.absorbs >= shifts and all(p.absorbs < shifts for p in parts):
                    plans.append(plan)
    return tuple(sorted(plans, key=lambda p: (p.absorbs - (p.box or 0), p.box or 0)))


@dataclass(frozen=True, slots=True)
class Hit:
    shifts: int
    stress: StressTrack
    consequences: Consequences
    taken_out: bool
    opponent_free_invokes: int  # one on each new consequence, for whoever inflicted it
    notes: tuple[Note, ...]

    def as_json(self) -> dict[str, object]:
        return {
            "shifts": self.shifts,
            "taken_out": self.taken_out,
            "stress": self.stress.as_json(),
            "consequences": self.consequences.as_json(),
            "opponent_free_invokes": self.opponent_free_invokes,
            "notes": [n.as_json() for n in self.notes],
        }


def absorb_hit(
    shifts: int,
    stress: StressTrack,
    consequences: Consequences,
    choices: HitPlan | None,
    names: Sequence[str] = (),
) -> Hit:
    """Absorb a hit as the defender chooses; ``None`` means being taken out.

    ``names`` are the new consequences' aspects, one for each of ``choices.consequences`` (mildest first).
    """
    check_int(shifts, "shifts", 1)
    if choices is None:
        out = note("taken_out", f"a {shifts}-shift hit takes the character out", shifts=shifts)
        return Hit(shifts, stress, consequences, True, 0, (out,))
    if choices.absorbs < shifts:
        raise RulesError(f"that absorbs {choices.absorbs} of the hit's {shifts} shifts: absorb it all or be taken out")
    if len(names) != len(choices.consequences):
        raise RulesError(f"name each new consequence: {len(choices.consequences)} expected, got {len(names)}")
    notes = []
    if choices.box is not None:
        stress = stress.check(choices.box)
        notes.append(note("stress_box", f"stress box {choices.box} checked", box=choices.box))
    for severity, name in zip(choices.consequences, names):
        consequences = consequences.take(severity, name)
        notes.append(note(f"consequence_{severity.value}", f"{severity.value} consequence ({severity.shifts}): {name}",
                          shifts=severity.shifts, aspect=name))
    return Hit(shifts, stress, consequences, False, len(choices.consequences), tuple(notes))


# --- fate points and aspects ---------------------------------------------------------------------

BASE_REFRESH = 3
FREE_STUNTS = 3


def refresh_for_stunts(stunts: int) -> int:
    """Refresh 3, less 1 for each stunt beyond the three free ones; it cannot drop below 1."""
    check_int(stunts, "stunts", 0)
    refresh = BASE_REFRESH - max(0, stunts - FREE_STUNTS)
    if refresh < 1:
        raise RulesError(f"{stunts} stunts would leave a refresh of {refresh}; it must stay at least 1")
    return refresh


@dataclass(frozen=True, slots=True)
class FatePoints:
    current: int
    refresh: int = BASE_REFRESH

    def __post_init__(self) -> None:
        check_int(self.current, "fate points", 0)
        check_int(self.refresh, "refresh", 1)

    def spend(self, n: int = 1) -> FatePoints:
        check_int(n, "fate points to spend", 1)
        if n > self.current:
            raise RulesError(f"not enough fate points: {self.current} left, {n} needed")
        return replace(self, current=self.current - n)

    def gain(self, n: int = 1) -> FatePoints:
        """From a compel accepted, a concession, or an aspect of yours invoked against you."""
        check_int(n, "fate points gained", 1)
        return replace(self, current=self.current + n)

    def refreshed(self) -> FatePoints:
        """A new session: back up to the refresh, keeping any points above it."""
        return replace(self, current=max(self.current, self.refresh))

    def as_json(self) -> dict[str, int]:
        return {"current": self.current, "refresh": self.refresh}


class AspectKind(StrEnum):
    HIGH_CONCEPT = "high_concept"
    TROUBLE = "trouble"
    CHARACTER = "character"  # the character's other aspects
    SITUATION = "situation"
    CONSEQUENCE = "consequence"
    BOOST = "boost"


@dataclass(frozen=True, slots=True)
class Aspect:
    name: str
    kind: AspectKind = AspectKind.CHARACTER
    free_invokes: int = 0

    def __post_init__(self) -> None:
        _check_name(self.name, "aspect")
        object.__setattr__(self, "kind", parse_choice(AspectKind, self.kind, "aspect kind"))
        check_int(self.free_invokes, "free invocations", 0, MAX_INVOKES)
        if self.kind is AspectKind.BOOST and self.free_invokes != 1:
            raise RulesError("a boost has exactly one free invocation, then it vanishes")

    def as_json(self) -> dict[str, object]:
        return {"name": self.name, "kind": self.kind.value, "free_invokes": self.free_invokes}


def boost(name: str) -> Aspect:
    return Aspect(name, AspectKind.BOOST, 1)


def add_free_invokes(aspect: Aspect, n: int) -> Aspect:
    """E.g. from creating an advantage on an aspect already known."""
    check_int(n, "free invocations", 1)
    if aspect.kind is AspectKind.BOOST:
        raise RulesError("a boost cannot gain free invocations")
    return replace(aspect, free_invokes=aspect.free_invokes + n)


@dataclass(frozen=True, slots=True)
class Invocation:
    aspect: Aspect | None  # None: a boost, gone once used
    points: FatePoints
    free: bool  # a free invocation was used rather than a fate point

    def as_json(self) -> dict[str, object]:
        return {
            "aspect": None if self.aspect is None else self.aspect.as_json(),
            "points": self.points.as_json(),
            "free": self.free,
        }


def invoke(aspect: Aspect, points: FatePoints) -> Invocation:
    """Pay for invoking an aspect: a free invocation if it has one, else a fate point."""
    if aspect.free_invokes:
        left = None if aspect.kind is AspectKind.BOOST else replace(aspect, free_invokes=aspect.free_invokes - 1)
        return Invocation(left, points, True)
    return Invocation(aspect, points.spend(), False)
