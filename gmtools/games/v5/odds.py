"""Vampire's odds panel: a win and what the Hunger dice and the tens make of it, the calm
shortcuts (take half, an automatic win), and what a specialty or one more die buys."""

from __future__ import annotations

from dataclasses import replace

from django.utils.translation import gettext as _

from rules import v5 as engine

from gmtools.games.base import Buy, Chance, Composition, OddsPanel, bars, line_text, percent
from gmtools.games.v5.words import NOTE_TEXTS

# Said before the roll as the card says it after: a guideline passed, improvised equipment, no Hunger dice.
_POOL_NOTES = ("impaired", "modifiers_beyond_guideline", "difficulty_beyond_guideline", "improvised", "pool_minimum",
               "tracker_no_hunger")


def panel(comp: Composition) -> OddsPanel:
    shown = tuple(line_text(NOTE_TEXTS, n.as_json()) for n in comp.request.notes() if n.code in _POOL_NOTES)
    return replace(_chances(comp), pool_notes=shown)


def _chances(comp: Composition) -> OddsPanel:
    req = comp.request
    if req.no_equipment:
        return OddsPanel((Chance(_("Win"), 0.0),),
                         message=line_text(NOTE_TEXTS, {"code": "no_equipment", "text": "impossible without the equipment"}))
    if comp.shortcut == "take_half":
        half = req.dice // 2
        return OddsPanel((Chance(_("Win") if half >= req.needed else _("Failure"), 1.0),),
                         message=_("Take half: %(n)d successes without rolling.") % {"n": half})
    if comp.shortcut == "automatic":  # a pool under twice the difficulty never gets here (the composer refuses it)
        return OddsPanel((Chance(_("Automatic win"), 1.0),))
    o = engine.odds(req)
    buys = []
    if not req.specialty:
        buys.append(Buy(_("Specialty"), o.p_win, engine.odds(replace(req, specialty=True)).p_win))
    buys.append(Buy(_("One more die"), o.p_win, engine.odds(replace(req, pool=req.pool + 1)).p_win))
    # A messy critical is a critical win whose pair has a Hunger 10: among the criticals, not beside
    # them, so it says which share of them it is (2.8% and 1.9% side by side read as 4.7%).
    messy_share = (_("%(share)s of critical wins") % {"share": percent(o.p_messy / o.p_critical)}
                   if o.p_critical and o.p_messy else "")
    return OddsPanel(
        chances=(Chance(_("Win"), o.p_win), Chance(_("Critical win"), o.p_critical, "good"),
                 Chance(_("Messy critical"), o.p_messy, "bad", note=messy_share),
                 Chance(_("Bestial failure"), o.p_bestial, "bad"),
                 Chance(_("Total failure"), o.p_total_failure, "bad")),
        bars=bars(o.distribution, lambda v: v >= req.needed), buys=tuple(buys),
        axis=_("successes"), mean=o.distribution.mean,
    )
