"""A fifth game, made from the tests alone (issue 12): a plain pool of d6s, each 5 or 6 a success.

Its engine (``engine.py``) is pure Python, as each ``rules`` module is; ``SYSTEM`` is all the table
needs to know of it. Nothing under ``gmtools/`` names it: ``registered`` puts it in the registry
for one test, as a package of its own would at start-up.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.utils.translation import gettext_lazy as _

from gmtools import games
from gmtools.games.base import BaseGame, BasePlay, DemoCampaign, DemoCharacter, TraitCategory, sheet_part
from tests.fifth_game import engine


class D6PoolPlay(BasePlay):
    hit_face = engine.HIT  # the card marks the 5s and 6s


class D6Pool(BaseGame):
    id = "d6pool"
    label = "D6 pool"
    engine = engine
    play_class = D6PoolPlay
    categories = (TraitCategory.ATTRIBUTE,)  # one trait and extra dice make a pool
    standard_sheet = sheet_part(TraitCategory.ATTRIBUTE, 1, ("body", "Body"), ("mind", "Mind"))
    demo = DemoCampaign(name="Demo · d6 pool", characters=(DemoCharacter(name="Rook", ratings={"body": 3}),))
    outcome_words = {"success": (_("Success"), "good"), "failure": (_("Failure"), "bad")}  # msgids the table has


SYSTEM = D6Pool()


@contextmanager
def registered() -> Iterator[BaseGame]:
    """The fifth game in the registry while the block runs; the four alone after it."""
    games.register(SYSTEM)
    try:
        yield SYSTEM
    finally:
        games.unregister(SYSTEM.id)
