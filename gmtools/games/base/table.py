"""What a game's table code calls back into: the ``Table`` the core hands it, and the pure helpers
its callbacks are written with (issue 21).

As a database backend's operations call back only through the connection they were given, a
game's follow-ups, checks, spends and log additions reach the table (locking and writing a
character, paying a spend, logging an entry, telling the viewers) only through the ``Table``
argument of each callback; the core's is a ``gmtools.services.table.LiveTable`` (carrying the drawing of
the request that logs an entry, for the live streams). So no game imports
``gmtools.services``, ``gmtools.live`` or ``gmtools.luck``, and an IDE follows a call from the
workflows into a game and back through this one typed protocol.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from django.utils.functional import Promise

from rules.luck import Luck

if TYPE_CHECKING:  # the table's rows are named, never imported, here
    from gmtools.games.base.composer import Spend
    from gmtools.models import Character, Roll


class Refused(Exception):
    """The action cannot be done as asked; the message says why, for the GM."""


class Table(Protocol):
    """The table as a game's callbacks see it: every method runs in the caller's transaction."""

    def lock(self, character_id: int) -> Character:
        """The character, locked until the transaction ends (before any check-then-write)."""

    def update(self, character: Character, **fields: Any) -> None:
        """Write the (locked) character's resource columns (``character.resources``), on the row and
        on the object."""

    def pay(self, spend: Spend) -> dict[str, Any]:
        """Pay one spend as its game pays that kind (or raise ``Refused``): what the log records of it."""

    def log_follow_up(self, parent: Roll, kind: str, *, luck: Luck | None = None, **fields: Any) -> Roll:
        """Log an entry that follows ``parent`` (as secret as it), with its luck, and tell the viewers.
        A second follow-up of the same kind is refused."""

    def log_check(self, character: Character, kind: str, *, luck: Luck | None = None, **fields: Any) -> Roll:
        """Log a roll made from the character's card (a rouse check) in the scene and turn in play,
        with its luck, and tell the viewers."""

    def character_changed(self, character: Character) -> None:
        """Tell the viewers that a character other than the roller's changed (its card is redrawn)."""


# --- the one-click changes: most are one of these two ------------------------------------------

def step(field: str, delta: int, low: int | Callable[[Character], int], high: int | Callable[[Character], int],
         message: str | Promise) -> Callable[[Character], dict[str, Any]]:
    """A resource column moved by ``delta`` within [low, high] (either may depend on the character),
    or refused."""
    def change(c: Character) -> dict[str, Any]:
        value = getattr(c.resources, field) + delta
        lo = low(c) if callable(low) else low
        hi = high(c) if callable(high) else high
        if not lo <= value <= hi:
            raise Refused(message % {"name": c.name})
        return {field: value}
    return change


def toggle(field: str) -> Callable[[Character], dict[str, Any]]:
    """A resource column flipped."""
    return lambda c: {field: not getattr(c.resources, field)}


# --- a logged entry's request and contest, as the log stores them ------------------------------

def request_doc(request: Any) -> dict[str, Any]:
    """A rules request as JSON-ready arguments; ``rebuild`` turns them back into the request."""
    return dataclasses.asdict(request)


def request_args(stored: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments of a rules request from an entry's stored ``request`` (the shortcut aside)."""
    return {k: v for k, v in stored.items() if k != "shortcut"}


def logged_request(roll: Roll) -> dict[str, Any]:
    """The arguments of the rules request a logged entry was rolled with (the composer's shortcut aside)."""
    return request_args(roll.request)


def rebuild(engine: Any, doc: dict[str, Any]) -> Any:
    """The engine's (a ``rules`` module's) request from its stored arguments."""
    return engine.Request(**({**doc, "modifiers": tuple(doc["modifiers"])} if "modifiers" in doc else doc))


def contest(net: int) -> dict[str, Any]:
    """A contest's summary in the log: the first side's net and who won."""
    return {"net": net, "winner": "first" if net > 0 else "second" if net < 0 else "tie"}
