"""Random sources, faces and the structured notes that explain a result."""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Protocol, TypeVar

E = TypeVar("E", bound=Enum)


class RulesError(ValueError):
    """Bad input to a rule: the message is shown to the user as is (one line).

    A refusal a player meets at the table (not a typo on the command line) also carries a
    stable ``code`` and its ``params``, so the UI can say it in the player's language.
    """

    def __init__(self, message: str, code: str = "", **params: int | str) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class RandomSource(Protocol):
    """What a roll needs from a random source; ``random.Random`` and ``secrets.SystemRandom`` fit."""

    def randint(self, a: int, b: int) -> int: ...


def system_random() -> RandomSource:
    """The default source: the operating system's secure generator."""
    return secrets.SystemRandom()


def roll_d10(n: int, rng: RandomSource | None = None) -> tuple[int, ...]:
    """``n`` ten-sided dice in draw order; a face of 10 is 10, never 0."""
    rng = rng or system_random()
    return tuple(rng.randint(1, 10) for _ in range(n))


def roll_fate_dice(n: int = 4, rng: RandomSource | None = None) -> tuple[int, ...]:
    """``n`` Fate dice, each -1, 0 or +1."""
    rng = rng or system_random()
    return tuple(rng.randint(-1, 1) for _ in range(n))


def check_d10_faces(faces: Iterable[int], count: int | None = None, what: str = "faces") -> tuple[int, ...]:
    """Validate d10 faces (1..10), optionally their number; return them as a tuple."""
    faces = tuple(faces)
    for face in faces:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 10:
            raise RulesError(f"{what}: a d10 face is 1 to 10 (10 for a 0), got {face!r}")
    if count is not None and len(faces) != count:
        raise RulesError(f"{what}: expected {count} dice, got {len(faces)}")
    return faces


def check_fate_faces(faces: Iterable[int], count: int = 4) -> tuple[int, ...]:
    faces = tuple(faces)
    for face in faces:
        if isinstance(face, bool) or face not in (-1, 0, 1):
            raise RulesError(f"faces: a Fate die is -1, 0 or 1, got {face!r}")
    if len(faces) != count:
        raise RulesError(f"faces: expected {count} Fate dice, got {len(faces)}")
    return faces


def check_int(value: int, name: str, low: int | None = None, high: int | None = None) -> int:
    """An integer within bounds, else a RulesError naming the parameter."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"{name} must be a whole number, got {value!r}")
    if low is not None and value < low:
        raise RulesError(f"{name} must be at least {low}, got {value}")
    if high is not None and value > high:
        raise RulesError(f"{name} must be at most {high}, got {value}")
    return value


def parse_choice(enum: type[E], value: object, what: str) -> E:
    """One of an enum's members, from itself or its value; else a RulesError listing the choices."""
    try:
        return enum(value)
    except ValueError:
        choices = ", ".join(str(member.value) for member in enum)
        raise RulesError(f"{what} must be one of {choices}, got {value!r}") from None


@dataclass(frozen=True, slots=True)
class Note:
    """One line of a result's explanation.

    ``code`` is a stable key the UI translates (with ``params`` as its format arguments);
    ``text`` is the English line the command line prints, e.g. "two 10s: critical, +2".
    """

    code: str
    text: str
    params: tuple[tuple[str, int | str], ...] = ()

    def as_json(self) -> dict[str, object]:
        return {"code": self.code, "text": self.text, **dict(self.params)}


def note(code: str, text: str, **params: int | str) -> Note:
    return Note(code, text, tuple(sorted(params.items())))


def count_at_least(faces: Sequence[int], threshold: int) -> int:
    return sum(1 for face in faces if face >= threshold)


class Thrown:
    """A random source that gives the faces of physical dice, as they were entered, in draw order:
    the rules read a roll of real dice exactly as one drawn. Asked for more, or for a face outside
    the die asked for, it raises ``RulesError`` (the entry is checked against the roll before)."""

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = list(faces)
        self.used = 0

    def randint(self, a: int, b: int) -> int:
        if self.used >= len(self.faces):
            raise RulesError(f"the roll asked for die {self.used + 1}; {len(self.faces)} were entered")
        face = self.faces[self.used]
        if not a <= face <= b:
            raise RulesError(f"die {self.used + 1}: {face} is not a face from {a} to {b}")
        self.used += 1
        return face

    @property
    def left(self) -> int:
        """The faces entered that the roll did not read."""
        return len(self.faces) - self.used


@dataclass(frozen=True, slots=True)
class Entry:
    """The physical dice a roll reads, as a thrower enters them: ``dice`` normal dice, then ``hunger``
    Hunger dice (V5, entered apart); Fate dice (−1, 0, +1) when ``fate``, else d10s. ``explodes``: the
    face that asks for one more die, that die too (scifi's 10s), so the count grows as they are entered."""

    dice: int
    hunger: int = 0
    fate: bool = False
    explodes: int | None = None

    def wanted(self, faces: Sequence[int]) -> int:
        """How many normal dice the faces entered so far call for: the pool, and one more for each
        exploding face among the dice it calls for (an explosion die's own included)."""
        wanted, i = self.dice, 0
        while self.explodes is not None and i < min(wanted, len(faces)):
            wanted += faces[i] == self.explodes
            i += 1
        return wanted
