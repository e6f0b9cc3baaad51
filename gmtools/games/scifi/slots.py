"""The sci-fi game's two action slots a turn, as the rules count them from the rolls already made.

Apart from the game's composer part (``composer.py``) because it needs no Django model: the
table's turn order counts slots with it too.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from rules import scifi as engine

if TYPE_CHECKING:
    from gmtools.models import Roll


def turn_budget(rolls: Iterable[Roll]) -> engine.TurnBudget:
    """The turn's action slots as the rules see them, from the character's rolls this turn."""
    return engine.TurnBudget(taken=tuple(
        (engine.ActionKind.SPECIAL, "fire") if r.action == "fire" else (engine.ActionKind(r.action), None)
        for r in rolls if r.action
    ))
