"""The composer's live odds: exact chances from ``rules``, a bar chart, and what a choice buys.

Everything here is computed from a ``Composition`` with the pure engine; nothing touches the
database, so the odds fragment costs no query beyond parsing the form.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext as _

from gmtools import games
from gmtools.composer import Composition
from gmtools.notes import note_text
from gmtools.sheets import Game
from gmtools.templatetags.table import percent
from rules import exalted, fate, scifi, v5
from rules import extended as rules_extended
from rules.dist import Distribution

CHART_WIDTH, CHART_HEIGHT = 320, 90


@dataclass(frozen=True)
class Chance:
    label: str
    p: float
    tone: str = "main"  # main | good | bad



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


def bars(dist: Distribution, passes: Any, cutoff: float = 0.0005) -> tuple[Bar, ...]:
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


def odds_panel(comp: Composition) -> OddsPanel:
    if comp.opponent is not None:
        panel = _contest(comp)
    else:
        panel = {Game.EXALTED: _exalted, Game.V5: _v5, Game.FATE: _fate, Game.SCIFI: _scifi}[comp.game](comp)
    # A choice that changes nothing (already certain) is not worth a line.
    buys = tuple(buy for buy in panel.buys if percent(buy.before) != percent(buy.after))
    return replace(panel, turn_notes=comp.notes, buys=buys)


def _contest(comp: Composition) -> OddsPanel:
    # Exalted: successes taken from either side first (the drunk guard).
    c = (exalted.contest(comp.request, comp.opponent, *comp.handicap) if any(comp.handicap)
         else comp.module.contest(comp.request, comp.opponent))
    margin = c.margin
    return OddsPanel(
        chances=(Chance(_("Win"), c.p_win), Chance(_("Tie"), c.p_tie, "bad"), Chance(_("Lose"), c.p_lose, "bad")),
        bars=bars(margin, lambda v: v > 0),
        axis=_("net successes") if comp.game != Game.FATE else _("shifts"),
        mean=margin.mean,
    )


def _exalted(comp: Composition) -> OddsPanel:
    req = comp.request
    if comp.shortcut == "automatic":
        return OddsPanel((Chance(_("Automatic success"), 1.0),), message=_("No roll: the difficulty is met, no extra successes."))
    helpers = [helper for _name, helper in comp.team]

    def price(r: exalted.Request) -> exalted.Odds:
        # Teamwork: the helpers' successes count too (with none, the roll's own odds).
        return exalted.teamwork_odds(r, helpers)

    o = price(req)
    buys = []
    if not req.willpower and comp.willpower_on_offer:
        buys.append(Buy(_("Willpower"), o.p_success, price(replace(req, willpower=True)).p_success))
    for stunt in range(req.stunt + 1, 4):
        buys.append(Buy(_("Stunt %(n)d") % {"n": stunt}, o.p_success, price(replace(req, stunt=stunt)).p_success))
    return OddsPanel(
        chances=(Chance(_("Success"), o.p_success), Chance(_("Botch"), o.p_botch, "bad")),
        bars=bars(o.distribution, lambda v: v >= req.difficulty), buys=tuple(buys),
        axis=_("successes"), mean=o.mean, pool_notes=(comp.calm_note,) if comp.calm_note else (),
    )


# Said before the roll as the card says it after: a guideline passed, improvised equipment, no Hunger dice.
_V5_POOL_NOTES = ("modifiers_beyond_guideline", "difficulty_beyond_guideline", "improvised", "pool_minimum",
                  "tracker_no_hunger")


def _v5(comp: Composition) -> OddsPanel:
    panel = _v5_chances(comp)
    shown = tuple(note_text(n.as_json()) for n in comp.request.notes() if n.code in _V5_POOL_NOTES)
    return replace(panel, pool_notes=shown)


def _v5_chances(comp: Composition) -> OddsPanel:
    req = comp.request
    if req.no_equipment:
        return OddsPanel((Chance(_("Win"), 0.0),),
                         message=note_text({"code": "no_equipment", "text": "impossible without the equipment"}))
    if comp.shortcut == "take_half":
        half = req.dice // 2
        return OddsPanel((Chance(_("Win") if half >= req.needed else _("Failure"), 1.0),),
                         message=_("Take half: %(n)d successes without rolling.") % {"n": half})
    if comp.shortcut == "automatic":
        ok = req.dice >= 2 * req.needed
        return OddsPanel((Chance(_("Automatic win"), 1.0 if ok else 0.0),),
                         message=_("Needs a pool of at least twice the difficulty.") if not ok else "")
    o = v5.odds(req)
    buys = []
    if not req.specialty:
        buys.append(Buy(_("Specialty"), o.p_win, v5.odds(replace(req, specialty=True)).p_win))
    buys.append(Buy(_("One more die"), o.p_win, v5.odds(replace(req, pool=req.pool + 1)).p_win))
    return OddsPanel(
        chances=(Chance(_("Win"), o.p_win), Chance(_("Critical"), o.p_critical, "good"),
                 Chance(_("Messy critical"), o.p_messy, "bad"), Chance(_("Bestial failure"), o.p_bestial, "bad"),
                 Chance(_("Total failure"), o.p_total_failure, "bad")),
        bars=bars(o.distribution, lambda v: v >= req.needed), buys=tuple(buys),
        axis=_("successes"), mean=o.distribution.mean,
    )


def _fate(comp: Composition) -> OddsPanel:
    req = comp.request
    # Drawing from the deck, the odds are those of the cards left (without replacement).
    deck = fate.Deck.from_list(comp.deck) if comp.deck is not None else None
    o = fate.deck_odds(req, deck) if deck is not None else fate.odds(req)
    invoked = replace(req, bonus=req.bonus + fate.INVOKE_BONUS)
    up = fate.deck_odds(invoked, deck) if deck is not None else fate.odds(invoked)
    buys = ((Buy(_("Invoke an aspect (+2)"), o.p_success + o.p_style, up.p_success + up.p_style),)
            if comp.invocation_on_offer else ())
    return OddsPanel(
        chances=(Chance(_("Success"), o.p_success), Chance(_("Success with style"), o.p_style, "good"),
                 Chance(_("Tie"), o.p_tie), Chance(_("Fail"), o.p_fail, "bad")),
        # A total equal to the difficulty is a tie, not a success: only higher totals count as passing.
        bars=bars(o.distribution, lambda v: v > req.difficulty), buys=buys,
        axis=_("total"), mean=o.mean,
    )


def _scifi(comp: Composition) -> OddsPanel:
    req = comp.request
    o = scifi.odds(req)
    buys = ()
    if req.rolls:
        more = scifi.odds(replace(req, pool=req.pool + 1))
        buys = (Buy(_("One more die"), o.p_success, more.p_success),)
    return OddsPanel(
        chances=(Chance(_("Success"), o.p_success), Chance(_("Fumble"), o.p_fumble, "bad")),
        bars=bars(o.distribution, lambda v: v >= req.needed) if req.rolls else (), buys=buys,
        axis=_("successes"), mean=o.mean if req.rolls else None,
        message="" if req.rolls else _("No roll: %(why)s") % {"why": _scifi_no_roll(req)},
    )


def _scifi_no_roll(req: scifi.Request) -> str:
    if req.impossible:
        return _("impossible without the skill")
    if req.automatic:
        return _("easy, an automatic success")
    return _("no dice left, a failure")


@dataclass(frozen=True)
class ExtendedPanel:
    """Beside an extended action's progress bar: how likely it ends well, and how soon."""

    p_done: float | None  # within the limit (or the next 20 rolls); None when no pool is set
    expected_rolls_left: float | None
    horizon: int  # the rolls p_done looks ahead
    p_lose: float | None = None  # race and tug-of-war: the other side first


_BARE = {Game.EXALTED: lambda n: exalted.Request(pool=n, difficulty=0), Game.V5: lambda n: v5.Request(pool=n),
         Game.SCIFI: lambda n: scifi.Request(pool=n, difficulty=0)}


# Which fields of an extended action its odds depend on: a new value is a new state to compute.
_PANEL_STATE = ("kind", "goal", "difficulty", "botch", "limit", "pool", "opponent_pool", "total", "opponent_total",
                "rolls", "ruined", "stopped")
PANEL_TIMEOUT = 24 * 3600


def extended_panel(action: Any, game: str) -> ExtendedPanel | None:
    """Exact odds of an extended action from where it stands, computed once per state of the
    action (Django's cache, keyed by its id and every field the odds read): the table, its
    lists and its live redraws show the same action many times between two rolls into it."""
    if action.pool < 1 or game not in _BARE or action.over:
        return None
    if action.pk is None:
        return compute_extended_panel(action, game)
    state = ":".join(str(getattr(action, name)) for name in _PANEL_STATE)
    key = f"gmtools:extended-panel:v1:{action.pk}:{game}:{state}"
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
    mine = _BARE[game](action.pool)
    if action.kind == "solo":
        odds = module.extended(mine, goal=action.goal, difficulty=action.difficulty, policy=action.botch,
                               rolls=horizon, progress=action.total)
        return ExtendedPanel(odds.p_done_by[-1], odds.expected_rolls, horizon)
    if action.opponent_pool < 1:
        return None
    theirs = _BARE[game](action.opponent_pool)
    if action.kind == "race":
        race = rules_extended.race_odds(
            module.extended(mine, action.goal, action.difficulty, action.botch, horizon, action.total),
            module.extended(theirs, action.goal, action.difficulty, action.botch, horizon, action.opponent_total))
        return ExtendedPanel(race.p_first_by[-1], None, horizon, race.p_second_by[-1])
    tug = rules_extended.tug_of_war_odds(module.contest(mine, theirs).margin, action.goal, horizon,
                                         start=action.total - action.opponent_total)
    return ExtendedPanel(tug.p_first_by[-1], None, horizon, tug.p_second_by[-1])
