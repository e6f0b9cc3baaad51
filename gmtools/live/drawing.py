"""Drawing a change for a viewer: who it is drawn for, the drawings this process keeps (bounded by
their size in memory), a change's fragments and a page's body, each drawn once."""

from __future__ import annotations

import hashlib
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from django.core.cache import caches
from django.template.loader import render_to_string
from django.utils import timezone, translation

from gmtools import board
from gmtools.models import Campaign, Change

Audience = Literal["gm", "player"]


@dataclass(frozen=True)
class Viewer:
    """Who a change is drawn for: the GM or the players, in a language; ``base`` is the address the
    GM's player link panel shows (the GM's view only)."""

    audience: Audience
    language: str
    base: str = ""


@dataclass(frozen=True)
class Row:
    """What a stream needs of a change, without a model instance."""

    id: int
    kind: str
    public: bool


class Kept:
    """The drawings this process keeps (changes, pages, exports), bounded by their size in memory,
    the least recently used dropped first.

    Bounded by bytes, not by entries: a change's fragments take a few KB, but a table of 1,197
    characters draws a page of 9.5 MB (18 MB as a Python string: "—" makes it two bytes a
    character) for every change at the table: kept 512 deep, they grew a worker by 17 MB a click
    (437 -> 643 MB in 12 clicks). ``LIMIT`` holds three such pages, a few whole-campaign exports of
    20,000 rolls, or the fragments of thousands of changes; with ``make serve``'s four workers that
    is 256 MB at most. A drawing bigger than ``LIMIT`` alone is not kept.
    """

    LIMIT = 64 * 1024 * 1024
    # What an entry costs beside its string (its key's tuple, the dict's slot and links), so that
    # many empty drawings (the players' of a GM-only change) count too.
    ENTRY = 256

    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self.size = 0
        self._kept: OrderedDict[tuple, str] = OrderedDict()
        self._lock = threading.Lock()
        self._drawing: dict[tuple, threading.Event] = {}  # keys being drawn now, by ``once``

    @classmethod
    def cost(cls, html: str) -> int:
        return sys.getsizeof(html) + cls.ENTRY

    def get(self, key: tuple) -> str | None:
        with self._lock:
            html = self._kept.get(key)
            if html is not None:
                self._kept.move_to_end(key)
            return html

    def keep(self, key: tuple, html: str) -> None:
        cost = self.cost(html)
        if cost > self.limit:
            return
        with self._lock:
            old = self._kept.pop(key, None)
            if old is not None:
                self.size -= self.cost(old)
            self._kept[key] = html
            self.size += cost
            while self.size > self.limit:
                _key, dropped = self._kept.popitem(last=False)
                self.size -= self.cost(dropped)

    def once(self, key: tuple, draw: Callable[[], str]) -> str:
        """What ``draw`` gives for ``key``, drawn once however many threads ask at the same moment: the
        others wait for that drawing (a whole-campaign export takes seconds; six at once were six).
        Never from the event loop, which it would block while it waits."""
        while True:
            with self._lock:
                html = self._kept.get(key)
                if html is not None:
                    self._kept.move_to_end(key)
                    return html
                drawing = self._drawing.get(key)
                if drawing is None:
                    drawing = self._drawing[key] = threading.Event()
                    break
            drawing.wait()  # then read what it kept (or, if it failed or was too big, draw in turn)
        try:
            html = draw()
            self.keep(key, html)
            return html
        finally:
            with self._lock:
                del self._drawing[key]
            drawing.set()

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self.size = 0

    def __len__(self) -> int:
        return len(self._kept)


_cache = Kept()


def cached(change_id: int, viewer: Viewer) -> str | None:
    return _cache.get((change_id, viewer))


def render_change(change_id: int, viewer: Viewer) -> str:
    """The fragments a change redraws, for one audience in one language (cached per process).

    A change is drawn from the database as it is when first drawn; every later change is drawn
    later, so a viewer who applies the changes in order ends with the table as it stands.
    """
    def draw() -> str:
        with translation.override(viewer.language):
            return _draw(change_id, viewer)
    return _cache.once((change_id, viewer), draw)


def render_page(page: str, campaign: Campaign, cursor: int, viewer: Viewer, draw: Callable[[], str], *,
                shared: bool = False) -> str:
    """A page's body as the table stood at change ``cursor``, drawn once per process and viewer.

    Every write a viewer could see announces a change, so the table at a cursor never changes:
    the body drawn for it holds until the next change (the same rule as ``render_change``). The
    campaign row's own values are part of the key, for an edit of the campaign that announces
    nothing. The body carries nothing of the request (no CSRF token, no user): ``draw`` renders it
    without one. ``shared``: a page that costs seconds to draw (a whole-campaign export) is drawn once
    for every process that shares the "live" cache, not once in each.
    """
    row = repr([getattr(campaign, field.attname) for field in Campaign._meta.concrete_fields])  # lists too
    key = (page, row, cursor, viewer)
    return _cache.once(key, _through_shared(key, draw) if shared else draw)


# Seconds a page drawn by one process stays in the shared cache for the others: long enough for
# each worker to read it once, short enough that a busy table's past pages (a whole-campaign export is
# a few MB) do not pile up in Redis.
PAGE_SHARED_TIMEOUT = 120


def _through_shared(key: tuple, draw: Callable[[], str]) -> Callable[[], str]:
    """``draw`` for a page another process may have drawn already: read from the "live" cache
    (Redis), else drawn and put there. Without Redis that cache keeps nothing: ``draw`` it is."""
    name = "gmtools:page:" + hashlib.sha256(repr(key).encode()).hexdigest()

    def drawn() -> str:
        html = caches["live"].get(name)
        if html is None:
            html = draw()
            caches["live"].set(name, html, PAGE_SHARED_TIMEOUT)
        return html
    return drawn


def _draw(change_id: int, viewer: Viewer) -> str:
    change = Change.objects.select_related("campaign", "roll").filter(pk=change_id).first()
    if change is None or (viewer.audience == "player" and not change.public):
        return ""
    return render_drawn(board.Redraw(change.campaign, change.kind, roll=change.roll, character_id=change.character_id),
                        viewer)


def render_drawn(drawn: board.Redraw, viewer: Viewer) -> str:
    """``_render_drawn`` in the campaign's time zone (issue 25): a stream's reader draws outside any
    request of the campaign (gmtools.zones), after its own has answered."""
    with timezone.override(drawn.table.campaign.zone):
        return _render_drawn(drawn, viewer)


def _render_drawn(drawn: board.Redraw, viewer: Viewer) -> str:
    """A change's fragments for a viewer, from what was read of it (``board.Redraw``).

    A roll's change is drawn for the GM as the answer to the click that made it: its card, then
    the rest out of band. So that answer and the GM's streams (the GM's other tabs, and the echo
    in the tab that clicked) share one drawing (gmtools.views._after_roll); a tab applies a
    stream's event the same either way (static/live.js drops ``hx-swap-oob``).
    """
    if viewer.audience == "player":
        return render_to_string("player.html#live-change", drawn.context(player=True) | {"base_url": viewer.base})
    main = drawn.main_card
    context = drawn.context(oob=main is not None) | {"base_url": viewer.base}
    if main is None:
        return render_to_string("table.html#live-change", context)
    return render_to_string("table.html#roll-response", context | {"roll": main, "main": main.pk})
