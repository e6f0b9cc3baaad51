"""The composer's live odds: exact chances from ``rules``, a bar chart, and what a choice buys.

Everything here is computed from a ``Composition`` with the pure engine; nothing touches the
database, so the odds fragment costs no query beyond parsing the form. A roll against the
difficulty is priced by its game's composer (``BaseComposer.odds``: a plain pool's is
``gmtools.games.base.odds.pool_panel``), a contest here; an extended action's odds too.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext as _

from gmtools import games
from gmtools.formatting import percent
from gmtools.games.base.composer import Composition
from gmtools.games.base.odds import Chance, OddsPanel, bars
from rules import extended as rules_extended


def odds_panel(comp: Composition) -> OddsPanel:
    panel = _contest(comp) if comp.opponent is not None else games.get(comp.game).composer.odds(comp)
    # A choice that changes nothing (already certain) is not worth a line.
    buys = tuple(buy for buy in panel.buys if percent(buy.before) != percent(buy.after))
    return replace(panel, turn_notes=comp.notes, buys=buys)


def _contest(comp: Composition) -> OddsPanel:
    # Successes taken from either side first (Exalted's drunk guard), by an engine whose contests take them.
    # A team on the first side (Exalted's teamwork: each helper rolls apart), by an engine that rolls teams.
    team = {"helpers": [helper for _name, helper in comp.team]} if comp.team else {}
    c = (comp.engine.contest(comp.request, comp.opponent, *comp.handicap, **team) if any(comp.handicap) or team
         else comp.engine.contest(comp.request, comp.opponent))
    margin = c.margin
    return OddsPanel(
        chances=(Chance(_("Win"), c.p_win), Chance(_("Tie"), c.p_tie, "bad"), Chance(_("Lose"), c.p_lose, "bad")),
        bars=bars(margin, lambda v: v > 0),
        axis=str(games.get(comp.game).composer.contest_axis),
        mean=margin.mean,
    )


@dataclass(frozen=True)
class ExtendedPanel:
    """Beside an extended action's progress bar: how likely it ends well, and how soon."""

    p_done: float | None  # within the limit (or the next 20 rolls); None when no pool is set
    expected_rolls_left: float | None
    horizon: int  # the rolls p_done looks ahead
    p_lose: float | None = None  # race and tug-of-war: the other side first
    roll_off: bool = False  # a race's dead heat being rolled off: the chances of winning it


# Which fields of an extended action its odds depend on: a new value is a new state to compute.
_PANEL_STATE = ("kind", "goal", "difficulty", "botch", "limit", "pool", "opponent_pool", "total", "opponent_total",
                "rolls", "ruined", "stopped", "tie_break", "tie_winner")
PANEL_TIMEOUT = 24 * 3600


def extended_panel(action: Any, game: str) -> ExtendedPanel | None:
    """Exact odds of an extended action from where it stands, computed once per state of the
    action (Django's cache, keyed by its id and every field the odds read): the table, its
    lists and its live redraws show the same action many times between two rolls into it."""
    if action.pool < 1 or not games.get(game).extended_actions or action.over:
        return None
    if action.pk is None:
        return compute_extended_panel(action, game)
    state = ":".join(str(getattr(action, name)) for name in _PANEL_STATE)
    key = f"gmtools:extended-panel:v2:{action.pk}:{game}:{state}"
    panel = cache.get(key, _MISSING)
    if panel is _MISSING:
        panel = compute_extended_panel(action, game)
        cache.set(key, panel, PANEL_TIMEOUT)
    return panel


_MISSING = object()


def compute_extended_panel(action: Any, game: str) -> ExtendedPanel | None:
    """The odds themselves (``rules.extended``): the slowest accepted case, a tug-of-war of
    100 dice a side to a lead of 200 over 500 rounds, answers within a second."""
    module = games.get(game).engine
    horizon = action.limit - action.rolls if action.limit else 20
    if action.kind == "tug":  # rows saved before the bound keep a longer limit: look that far at most
        horizon = min(horizon, rules_extended.MAX_TUG_ROUNDS)
    # A bare pool: its odds of progress do not depend on the request's own difficulty.
    mine = module.Request(pool=action.pool)
    if action.kind == "solo":
        odds = module.extended(mine, goal=action.goal, difficulty=action.difficulty, policy=action.botch,
                               rolls=horizon, progress=action.total)
        return ExtendedPanel(odds.p_done_by[-1], odds.expected_rolls, horizon)
    if action.opponent_pool < 1:
        return None
    theirs = module.Request(pool=action.opponent_pool)
    rolls = module.contest(mine, theirs)
    if action.rolling_off:  # repeated until one side rolls more
        decided = rolls.p_win + rolls.p_lose
        return ExtendedPanel(rolls.p_win / decided, None, 1, rolls.p_lose / decided, roll_off=True)
    if action.kind == "race":
        race = rules_extended.race_odds(
            module.extended(mine, action.goal, action.difficulty, action.botch, horizon, action.total),
            module.extended(theirs, action.goal, action.difficulty, action.botch, horizon, action.opponent_total),
            rule=action.tie_break, rolls=rolls, difficulty=action.difficulty)
        return ExtendedPanel(race.p_first_by[-1], None, horizon, race.p_second_by[-1])
    tug = rules_extended.tug_of_war_odds(rolls.margin, action.goal, horizon,
                                         start=action.total - action.opponent_total)
    return ExtendedPanel(tug.p_first_by[-1], None, horizon, tug.p_second_by[-1])
