"""What a roll's odds panel shows (the composer's live odds), and the panel of a plain pool.

Values only, computed from a ``Composition`` with the pure engine: a game's composer builds its own
panel from them (``BaseComposer.odds``), the core draws it (``gmtools.odds``, ``table.html#odds``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from gmtools.formatting import percent
from rules.dist import Distribution

if TYPE_CHECKING:
    from gmtools.games.base.composer import Composition

CHART_WIDTH, CHART_HEIGHT = 320, 90


@dataclass(frozen=True)
class Chance:
    label: str
    p: float
    tone: str = "main"  # main | good | bad
    note: str = ""  # a line under the label: what the chance is part of (V5: "68% of critical wins")


@dataclass(frozen=True)
class Buy:
    """What a choice changes: "Willpower: 62% → 81%"."""

    label: str
    before: float
    after: float

    @property
    def text(self) -> str:
        return f"{self.label}: {percent(self.before)} → {percent(self.after)}"


@dataclass(frozen=True)
class Bar:
    value: int
    p: float
    passes: bool
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class OddsPanel:
    chances: tuple[Chance, ...]
    bars: tuple[Bar, ...] = ()
    buys: tuple[Buy, ...] = ()
    axis: str = ""  # what the bars count
    mean: float | None = None
    message: str = ""
    width: int = CHART_WIDTH
    height: int = CHART_HEIGHT
    turn_notes: tuple[str, ...] = ()  # what the turn did to this roll (e.g. the multiple-action penalty)
    pool_notes: tuple[str, ...] = ()  # what the options did to the pool or the difficulty (V5's guidelines, say)


def bars(dist: Distribution, passes: Callable[[Any], bool], cutoff: float = 0.0005) -> tuple[Bar, ...]:
    """Bars for the values holding visible mass, scaled to the chart."""
    shown = [(v, p) for v, p in dist.as_dict().items() if p >= cutoff]
    if not shown:
        return ()
    top = max(p for _, p in shown)
    step = CHART_WIDTH / len(shown)
    return tuple(
        Bar(v, p, passes(v), x=i * step + 1, y=CHART_HEIGHT - CHART_HEIGHT * p / top,
            width=max(1.0, step - 2), height=CHART_HEIGHT * p / top)
        for i, (v, p) in enumerate(shown)
    )


def pool_panel(comp: Composition) -> OddsPanel:
    """A plain pool's panel: its engine's chance of success (``odds(request).p_success``) and, when the
    odds give it, the chart of their ``distribution`` of successes against the difficulty."""
    req = comp.request
    o = comp.engine.odds(req)
    dist: Distribution | None = getattr(o, "distribution", None)
    return OddsPanel(
        chances=(Chance(_("Success"), o.p_success),),
        bars=bars(dist, lambda v: v >= req.difficulty) if dist is not None else (),
        axis=_("successes"), mean=dist.mean if dist is not None else None,
    )
