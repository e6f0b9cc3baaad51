"""The sci-fi game's odds panel: success and fumble, what one more die buys, and why an action
is not rolled at all (impossible without the skill, easy, no dice left)."""

from __future__ import annotations

from dataclasses import replace

from django.utils.translation import gettext as _

from rules import scifi as engine

from gmtools.games.base import Buy, Chance, Composition, OddsPanel, bars


def panel(comp: Composition) -> OddsPanel:
    req = comp.request
    o = engine.odds(req)
    buys: tuple[Buy, ...] = ()
    if req.rolls:
        more = engine.odds(replace(req, pool=req.pool + 1))
        buys = (Buy(_("One more die"), o.p_success, more.p_success),)
    return OddsPanel(
        chances=(Chance(_("Success"), o.p_success), Chance(_("Fumble"), o.p_fumble, "bad")),
        bars=bars(o.distribution, lambda v: v >= req.needed) if req.rolls else (), buys=buys,
        axis=_("successes"), mean=o.mean if req.rolls else None,
        message="" if req.rolls else _("No roll: %(why)s") % {"why": _no_roll(req)},
    )


def _no_roll(req: engine.Request) -> str:
    if req.impossible:
        return _("impossible without the skill")
    if req.automatic:
        return _("easy, an automatic success")
    return _("no dice left, a failure")
