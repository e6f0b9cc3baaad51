"""Numbers as the table prints them, in the active language: the bottom of the core.

One module for what the odds, the verdicts, the exports, the games' notes and the templates all
print (the template filters of ``templatetags.table`` are these functions), so that none of them
imports another for a formatting helper (issue 21: the odds imported the template tags for
``percent``, which made one import circle of the core). It imports Django's formatting only.
"""

from __future__ import annotations

from django.utils.formats import number_format


def percent(p: float | None) -> str:
    """A chance as the active language writes it: 62.5% in English, 62,5% in Spanish (like the mean beside it)."""
    if p is None:
        return ""
    if 0 < p < 0.001:
        return "<" + number_format(0.1, 1) + "%"
    if 0.999 < p < 1:
        return ">" + number_format(99.9, 1) + "%"
    value = round(p * 100, 1)
    return number_format(value, 0 if value == int(value) else 1) + "%"


def grouped(value: int | float) -> str:
    """A count with the active language's thousands separator: 1,204 in English, 1 204 (a no-break space) in Spanish."""
    return number_format(value, force_grouping=True)


def signed(value: int) -> str:
    """+2, 0, −1: the typographic minus, as the roll card prints numbers."""
    return f"{value:+d}".replace("-", "\u2212") if value else "0"
