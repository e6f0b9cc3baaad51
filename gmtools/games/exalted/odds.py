"""Exalted's odds panel: success and botch, teamwork, and what Willpower or a bigger stunt buys."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from rules import exalted as engine

from gmtools.games.base import Buy, Chance, OddsPanel, bars, percent

# Below this chance of meeting the difficulty by rolling, the composer warns that an automatic
# success gives what the dice seldom would.
LOW_ROLLING_ODDS = 0.5

if TYPE_CHECKING:  # named only: the composer imports this module
    from gmtools.games.exalted.composer import ExaltedComposition


def panel(comp: ExaltedComposition) -> OddsPanel:
    req = comp.request
    helpers = [helper for _name, helper in comp.team]

    def price(r: engine.Request) -> engine.Odds:
        # Teamwork: the helpers' successes count too (with none, the roll's own odds).
        return engine.teamwork_odds(r, helpers)

    o = price(req)
    if comp.shortcut == "automatic":
        # Seed 000: "se tratará de un éxito normal", read as the difficulty met with no extra successes
        # (RULES.md), and only "si el Narrador lo juzga apropiado": the dice's odds beside it inform that call.
        low = (_("Rolled, these dice would meet the difficulty %(p)s of the time: an automatic success is your "
                 "call, for a task the character does as a matter of course.") % {"p": percent(o.p_success)},)
        return OddsPanel((Chance(_("Automatic success"), 1.0), Chance(_("If rolled"), o.p_success)),
                         message=_("No roll: the difficulty is met, no extra successes."),
                         pool_notes=low if o.p_success < LOW_ROLLING_ODDS else ())
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
