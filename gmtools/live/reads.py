"""Database calls from the event loop: reads on a shared pool of threads, each giving its connection
back at once, and a change drawn once for the streams of a loop and for every process that shares the
"live" cache."""

from __future__ import annotations

import asyncio

from asgiref.sync import sync_to_async
from django.core.cache import caches
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import HttpRequest

from gmtools.live.drawing import Row, Viewer, _cache, cached, render_change
from gmtools.models import Campaign, Change, ChangeKind, Character


async def read(function, *args):
    """Run a database read off the event loop and give its connection back at once.

    The streams and their views use this, never Django's async ORM: that runs in the request's
    own thread and keeps its connection until the response ends, and a stream's response does
    not end, so 50 open phones would hold 50 database connections. Here a shared pool of a few
    threads (thread_sensitive=False) does the reads.
    """
    return await sync_to_async(_kept(function), thread_sensitive=False)(*args)


async def lookup(request: HttpRequest, function):
    """A stream view's own read (may this visitor open it?): through ``read`` under ASGI; under a
    WSGI server (and the test client) the async view runs inside the request's thread, where the
    request's connection lives and is closed at its end, so the read goes there."""
    if isinstance(request, ASGIRequest):
        return await read(function)
    return await sync_to_async(function)()


def _kept(function):
    """Each call hands its connection back when done, as a request does: to PostgreSQL's
    connection pool (cheap to take again), or closed (SQLite, where opening one is cheap)."""
    def call(*args):
        try:
            return function(*args)
        finally:
            connection.close()
    return call


# The changes after which a campaign's open player links are read again.
LINKS_CHANGED = frozenset({ChangeKind.LINK, ChangeKind.CHARACTER})


def _tokens(campaign_id: int) -> frozenset[str]:
    """The campaign's open player links: its own, and each of its characters' (``Character.player_token``)."""
    own = Campaign.objects.filter(pk=campaign_id).values_list("player_token", flat=True)
    characters = Character.objects.filter(campaign_id=campaign_id, player_token__isnull=False).values_list(
        "player_token", flat=True)
    return frozenset((*own, *characters))


def _start(campaign_id: int) -> tuple[int, frozenset[str]]:
    tokens = _tokens(campaign_id)
    latest = Change.objects.filter(campaign_id=campaign_id).order_by("-id").values_list("id", flat=True).first() or 0
    return latest, tokens


def _after(campaign_id: int, cursor: int, limit: int | None) -> tuple[list[Row], frozenset[str] | None]:
    """The changes after ``cursor``, and the open player links when a link changed among them, or the
    cast (a character deleted takes its link with it), else None."""
    rows = Change.objects.filter(campaign_id=campaign_id, id__gt=cursor).order_by("id").values_list("id", "kind", "public")
    found = [Row(*row) for row in (rows[:limit] if limit else rows)]
    tokens = _tokens(campaign_id) if any(row.kind in LINKS_CHANGED for row in found) else None
    return found, tokens


_drawing: dict[tuple[asyncio.AbstractEventLoop, int, Viewer], asyncio.Future] = {}


async def _drawn(change_id: int, viewer: Viewer) -> str:
    """Draw a change once for all the streams of this loop that want it at the same moment.

    A roll wakes every phone at once; without this each would miss the cache together and draw
    the same change in parallel.
    """
    key = (asyncio.get_running_loop(), change_id, viewer)
    drawing = _drawing.get(key)
    if drawing is None:
        drawing = _drawing[key] = asyncio.ensure_future(_drawn_once(change_id, viewer))
        drawing.add_done_callback(lambda _done: _drawing.pop(key, None))
    return await asyncio.shield(drawing)


# How long a process waits for another's drawing of a change before drawing it itself (a drawing
# takes 10-50 ms; the other process may have died).
SHARED_WAIT = 2.0
SHARED_POLL = 0.01
SHARED_TIMEOUT = 600  # seconds a drawing stays in the shared cache


async def _drawn_once(change_id: int, viewer: Viewer) -> str:
    """Draw a change once for every process that shares Django's cache.

    One NOTIFY wakes the streams of every worker of ``make serve`` at once; with the "live" cache in
    Redis (README, "Production") the first worker to claim a change draws it and the others read its
    drawing; a roll is claimed by the request that made it, before it is committed (``WritersDrawing``).
    Without REDIS_URL that cache keeps nothing (settings.CACHES): every claim succeeds and
    each process draws, as before.
    """
    shared = _shared(change_id, viewer)
    waited = 0.0
    while True:
        html = cached(change_id, viewer)  # drawn meanwhile by this process's writer (``WritersDrawing``)
        if html is not None:
            return html
        html, mine = await read(_claim, shared)
        if html is not None:
            _cache.keep((change_id, viewer), html)  # in this process's memory too
            return html
        if mine or waited >= SHARED_WAIT:
            break
        await asyncio.sleep(SHARED_POLL)
        waited += SHARED_POLL
    return await read(_draw_shared, change_id, viewer, shared)


def _shared(change_id: int, viewer: Viewer) -> str:
    return f"gmtools:drawn:{change_id}:{viewer.audience}:{viewer.language}:{viewer.base}"


def _claim(shared: str) -> tuple[str | None, bool]:
    """The change as another process drew it, or whether this process may draw it (a lock that
    lasts as long as a process waits)."""
    cache = caches["live"]
    html = cache.get(shared)
    return html, html is None and _claim_for_a_wait(shared)


def _claimed(shared: str) -> str:
    return f"{shared}:claimed"


def _claim_for_a_wait(shared: str) -> bool:
    """Claim a drawing for as long as a process waits for another's (False: claimed already)."""
    return caches["live"].add(_claimed(shared), True, round(SHARED_WAIT) + 1)


def _draw_shared(change_id: int, viewer: Viewer, shared: str) -> str:
    html = render_change(change_id, viewer)
    caches["live"].set(shared, html, SHARED_TIMEOUT)
    return html
