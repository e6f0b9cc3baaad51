"""Fate's odds panel: the four outcomes on the Ladder (from the deck's cards left when the
campaign draws from it), and what invoking an aspect buys."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules import fate as engine

from gmtools.games.base import Buy, Chance, OddsPanel, bars

if TYPE_CHECKING:  # named only: the composer imports this module
    from gmtools.games.fate.composer import FateComposition


def panel(comp: FateComposition) -> OddsPanel:
    req = comp.request
    # Drawing from the deck, the odds are those of the cards left (without replacement).
    deck = engine.Deck.from_list(comp.deck) if comp.deck is not None else None
    o = engine.deck_odds(req, deck) if deck is not None else engine.odds(req)
    invoked = replace(req, bonus=req.bonus + engine.INVOKE_BONUS)
    up = engine.deck_odds(invoked, deck) if deck is not None else engine.odds(invoked)
    buys = ((Buy(_("Invoke an aspect (+2)"), o.p_success + o.p_style, up.p_success + up.p_style),)
            if comp.invocation_on_offer else ())
    return OddsPanel(
        chances=(Chance(_("Success"), o.p_success), Chance(_("Success with style"), o.p_style, "good"),
                 Chance(_("Tie"), o.p_tie), Chance(_("Fail"), o.p_fail, "bad")),
        # A total equal to the difficulty is a tie, not a success: only higher totals count as passing.
        bars=bars(o.distribution, lambda v: v > req.difficulty), buys=buys,
        axis=_("total"), mean=o.mean,
        # Why the odds and the mean are not four dice's, and move from one draw to the next (issue 23:
        # a GM read the mean shift as a mistake).
        message=ngettext("From the %(n)s card left in the Fate deck: a card drawn stays out until the deck is "
                         "shuffled, so the odds and the mean change with every draw.",
                         "From the %(n)s cards left in the Fate deck: a card drawn stays out until the deck is "
                         "shuffled, so the odds and the mean change with every draw.", o.cards) % {"n": o.cards}
        if o.cards is not None else "",
    )
