"""Live push: every change at a table reaches each open GM tab and player view, in order, once.

The database is the source of truth. Each write that viewers must see appends a ``Change`` row
in its own transaction (``announce``), after locking the campaign row: one campaign's changes
are therefore committed in the order of their ids, and "everything after change N" is a plain
query. A viewer's cursor is the id of the last change it applied; reconnecting with it (the
``after`` query parameter, or the ``Last-Event-ID`` header) resumes exactly there.

Waking the streams:
- PostgreSQL: ``pg_notify`` inside the writing transaction, which PostgreSQL delivers at commit to
  every process LISTENing, so a roll made through one server process reaches viewers connected
  to another. One listening connection per process.
- SQLite (one process): the commit wakes the streams of this process directly.
Either way a stream also re-reads the database every ``KEEPALIVE`` seconds, so a lost
notification costs a few seconds, never a missed change.

Per process and campaign, one ``Hub`` reads the new changes once per wake and keeps the recent
ones for every stream of that campaign; each change is drawn once per audience and language
(``render_change``, cached), not once per viewer, and once for all the processes that share
the "live" cache (Redis under ``make serve``: ``_drawn_once``). A roll is drawn for the
streams by the request that made it, from the reads of its own answer (``WritersDrawing``): 50
phones and the GM's tab watching one table on two workers cost one query per worker and no
drawing per roll.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import sys
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from asgiref.sync import SyncToAsync, sync_to_async
from django.core.cache import caches
from django.core.cache.backends.dummy import DummyCache
from django.core.handlers.asgi import ASGIRequest
from django.db import connection, connections, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.template.loader import render_to_string
from django.utils import translation

from gmtools import board, links
from gmtools.models import Campaign, Change, ChangeKind, Character, Roll

log = logging.getLogger(__name__)

Audience = Literal["gm", "player"]
CHANNEL = "gmtools_changes"
# Seconds between keep-alive comments; each one also re-reads the database.
KEEPALIVE = 15.0
# A viewer further behind than this reloads its page instead of replaying the changes one by one.
REPLAY_LIMIT = 200
RETRY_MS = 2000


# --- writing -------------------------------------------------------------------------------------

def announce(campaign_id: int, kind: str, *, roll: Roll | None = None, character: Character | None = None,
             public: bool = True) -> Change:
    """Record a change at the table, inside the transaction that makes it; viewers hear of it at commit."""
    # The campaign row's lock, held until commit, orders the campaign's changes by commit: a
    # stream that has read up to change N can never later find a change numbered below N.
    list(Campaign.objects.select_for_update().filter(pk=campaign_id).values_list("pk"))
    change = Change.objects.create(campaign_id=campaign_id, kind=kind, roll=roll, character=character, public=public)
    drawing = _drawing_here.get()
    if drawing is not None and kind == ChangeKind.ROLL:
        drawing.claim(change)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, str(campaign_id)])
    else:
        transaction.on_commit(lambda: wake(campaign_id))
    return change


# --- drawing a change for a viewer --------------------------------------------------------------

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


# --- a roll drawn for the streams by the request that made it ----------------------------------

@dataclass
class WritersDrawing:
    """The rolls a request makes, drawn for the live streams by that request (``drawn_here``).

    The request has just read what its roll redraws, for its own answer (``board.Redraw``); the
    streams' versions come from the same reads: the GM's (its other tabs', its own stream included)
    is the answer itself (``render_drawn``), the players' one template more, where each process's
    streams would read the database again and draw them. So ``announce`` claims each roll in the
    live cache before commit, as ``_drawn_once`` would, in the request's language (the table's, most likely the
    phones'), and the streams of every process that wake at commit wait for the drawing instead of
    making their own; after commit the request draws and stores it (``store``). A claim not stored
    (another roll's, or a drawing that failed) is released at once, and one never released (a
    process killed meanwhile) lapses after ``SHARED_WAIT``.
    """

    viewers: tuple[Viewer, ...]
    claimed: list[tuple[Change, Viewer]] = field(default_factory=list)

    def claim(self, change: Change) -> None:
        for viewer in self.viewers:
            if (change.public or viewer.audience == "gm") and _claim_for_a_wait(_shared(change.id, viewer)):
                self.claimed.append((change, viewer))

    def store(self, roll: Roll, draw: Callable[[Viewer], str]) -> None:
        """Draw (``draw``: the ``live-change`` of ``roll`` for a viewer) what was claimed for ``roll``."""
        stored = []
        try:
            for change, viewer in self.claimed:
                if change.roll_id == roll.pk:
                    html = draw(viewer)
                    _cache.keep((change.id, viewer), html)
                    caches["live"].set(_shared(change.id, viewer), html, SHARED_TIMEOUT)
                    stored.append((change, viewer))
        finally:
            released = [_claimed(_shared(change.id, viewer)) for change, viewer in self.claimed
                        if (change, viewer) not in stored]
            if released:
                caches["live"].delete_many(released)


_drawing_here: ContextVar[WritersDrawing | None] = ContextVar("gmtools_writers_drawing", default=None)


@contextmanager
def drawn_here(request: HttpRequest) -> Iterator[WritersDrawing]:
    """Within this block, the rolls announced are claimed for this request to draw for the streams
    (``WritersDrawing``); the caller must ``store`` (or the streams wait ``SHARED_WAIT``).

    Only where the "live" cache is shared (Redis, settings.CACHES): without it a claim holds no
    stream back, each process's streams draw the roll themselves as soon as they wake, and the
    request's drawing would be work done twice.
    """
    shared = not isinstance(caches["live"], DummyCache)
    drawing = WritersDrawing((viewer_of(request, "player"), viewer_of(request, "gm")) if shared else ())
    token = _drawing_here.set(drawing)
    try:
        yield drawing
    finally:
        _drawing_here.reset(token)


# --- waking the streams ----------------------------------------------------------------------

class Hub:
    """One campaign's recent changes as this process knows them, shared by that campaign's streams."""

    KEEP = 256

    def __init__(self, campaign_id: int, loop: asyncio.AbstractEventLoop) -> None:
        self.campaign_id = campaign_id
        self.loop = loop
        self.floor = 0  # every change above this id is in ``recent`` (once loaded)
        self.recent: list[Row] = []
        self.token = ""
        self.loaded = False
        self.waiters: set[asyncio.Event] = set()
        self.lock = asyncio.Lock()
        self.poked = False

    @property
    def latest(self) -> int:
        return self.recent[-1].id if self.recent else self.floor

    def subscribe(self) -> asyncio.Event:
        waiter = asyncio.Event()
        self.waiters.add(waiter)
        return waiter

    def unsubscribe(self, waiter: asyncio.Event) -> None:
        self.waiters.discard(waiter)

    async def refresh(self) -> None:
        """Read the changes committed since the last read (one query), then wake every stream."""
        async with self.lock:
            if not self.loaded:
                self.floor, self.token = await read(_start, self.campaign_id)
                self.loaded = True
            rows, token = await read(_after, self.campaign_id, self.latest, None)
            if token is not None:
                self.token = token
            self.recent.extend(rows)
            if len(self.recent) > self.KEEP:
                self.floor = self.recent[-self.KEEP - 1].id
                del self.recent[: -self.KEEP]
        for waiter in self.waiters:
            waiter.set()

    async def after(self, cursor: int) -> list[Row] | None:
        """The changes after a viewer's cursor, oldest first; None when it is too far behind."""
        if not self.loaded:
            await self.refresh()
        if cursor >= self.floor:
            return [row for row in self.recent if row.id > cursor]
        rows, token = await read(_after, self.campaign_id, cursor, REPLAY_LIMIT + 1)
        if token is not None:  # a new link among the replayed changes: its streams end before they send them
            self.token = token
        return None if len(rows) > REPLAY_LIMIT else rows

    def poke(self) -> None:
        """Called in the hub's loop when something changed (or may have); a burst of pokes reads once."""
        if not self.poked:
            self.poked = True
            self.loop.create_task(self._after_poke())

    async def _after_poke(self) -> None:
        self.poked = False
        await self.refresh()


_hubs: dict[tuple[asyncio.AbstractEventLoop, int], Hub] = {}
_hubs_lock = threading.Lock()
_listeners: dict[asyncio.AbstractEventLoop, asyncio.Task] = {}


def hub(campaign_id: int) -> Hub:
    """The hub of this campaign in the running loop (created, and the listener started, on first use)."""
    loop = asyncio.get_running_loop()
    with _hubs_lock:
        found = _hubs.get((loop, campaign_id))
        if found is None:
            found = _hubs[(loop, campaign_id)] = Hub(campaign_id, loop)
        if connections["default"].vendor == "postgresql" and loop not in _listeners:
            _listeners[loop] = loop.create_task(_listen())
    return found


def wake(campaign_id: int) -> None:
    """Wake this process's streams of a campaign; safe from any thread."""
    with _hubs_lock:
        targets = [h for (_loop, cid), h in _hubs.items() if cid == campaign_id]
    for target in targets:
        if not target.loop.is_closed():
            target.loop.call_soon_threadsafe(target.poke)


async def _listen() -> None:
    """PostgreSQL: LISTEN for every process's changes and wake the hubs of this loop."""
    import psycopg

    settings = connections["default"].settings_dict
    params = {"dbname": settings["NAME"], "user": settings["USER"] or None, "password": settings["PASSWORD"] or None,
              "host": settings["HOST"] or None, "port": settings["PORT"] or None}
    loop = asyncio.get_running_loop()
    while True:
        listener = None
        try:
            listener = await psycopg.AsyncConnection.connect(**{k: v for k, v in params.items() if v}, autocommit=True)
            await listener.execute(f"LISTEN {CHANNEL}")
            # Whatever was committed while no one listened is read now.
            for (hub_loop, _cid), each in list(_hubs.items()):
                if hub_loop is loop:
                    each.poke()
            async for note in listener.notifies():
                wake(int(note.payload))
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - the listener must outlive a database restart
            log.warning("The change listener lost its connection; retrying in 1 s.", exc_info=True)
            await asyncio.sleep(1)
        finally:
            if listener is not None:
                await listener.close()


# --- database calls from the event loop ----------------------------------------------------------

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


def _start(campaign_id: int) -> tuple[int, str]:
    token = Campaign.objects.filter(pk=campaign_id).values_list("player_token", flat=True).first() or ""
    latest = Change.objects.filter(campaign_id=campaign_id).order_by("-id").values_list("id", flat=True).first() or 0
    return latest, token


def _after(campaign_id: int, cursor: int, limit: int | None) -> tuple[list[Row], str | None]:
    rows = Change.objects.filter(campaign_id=campaign_id, id__gt=cursor).order_by("id").values_list("id", "kind", "public")
    found = [Row(*row) for row in (rows[:limit] if limit else rows)]
    token = None
    if any(row.kind == ChangeKind.LINK for row in found):
        token = Campaign.objects.filter(pk=campaign_id).values_list("player_token", flat=True).first() or ""
    return found, token


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


# --- the stream -------------------------------------------------------------------------------

def event(name: str, data: str = "", id: int | None = None) -> str:
    lines = [f"event: {name}"] + ([f"id: {id}"] if id is not None else [])
    # Indentation and blank lines of the templates are dropped: nothing we draw is preformatted.
    lines += [f"data: {line.strip()}" for line in data.splitlines() if line.strip()] or ["data: "]
    return "\n".join(lines) + "\n\n"


@lru_cache(maxsize=64)
def _change_event(change_id: int, html: str) -> str:
    """A change's event, written once for the streams that send the same drawing (a roll wakes
    every phone at once; they share one ``html`` object, whose hash Python keeps)."""
    return event("change", html, id=change_id)


async def stream(campaign_id: int, cursor: int, viewer: Viewer, token: str = "") -> AsyncIterator[str]:
    """Server-sent events: each change after ``cursor`` drawn for the audience, then each new one.

    A player stream ends with a ``gone`` event as soon as its link is regenerated; a viewer too
    far behind gets ``reload``.
    """
    audience = viewer.audience
    _release_request_thread()
    shared = hub(campaign_id)
    waiter = shared.subscribe()
    try:
        yield f"retry: {RETRY_MS}\n\n"
        while True:
            waiter.clear()
            if audience == "player" and shared.loaded and shared.token != token:
                yield event("gone")
                return
            rows = await shared.after(cursor)
            if rows is None:
                yield event("reload")
                return
            if audience == "player" and shared.token != token:
                yield event("gone")
                return
            for row in rows:
                cursor = row.id
                if audience == "player" and not row.public:
                    continue
                html = cached(row.id, viewer) or await _drawn(row.id, viewer)
                yield _change_event(row.id, html)
            try:
                await asyncio.wait_for(waiter.wait(), KEEPALIVE)
            except TimeoutError:
                yield ": keep-alive\n\n"
                await shared.refresh()
    finally:
        shared.unsubscribe(waiter)


def _release_request_thread() -> None:
    """Give back the thread Django's ASGI handler keeps for this request, for as long as it streams.

    Each request runs in its own ``ThreadSensitiveContext``: its first thread-sensitive call (every
    ``MiddlewareMixin`` middleware's process_request and process_response, the session, the view's
    own ``sync_to_async``) starts a one-thread executor for that request, shut down only when the
    request ends. A stream's request ends when the phone leaves: 200 phones held ~208 threads
    (issue 28, 13a). By the time the stream is read, the middleware and the view are done, and the
    stream itself reads through ``read`` (a shared pool), so the executor is dropped here; the one
    thread-sensitive call left, closing the response, starts another for a moment at the end.
    """
    context = SyncToAsync.thread_sensitive_context.get(None)
    if context is None:
        return
    executor = SyncToAsync.context_to_thread_executor.pop(context, None)
    if executor is not None:
        executor.shutdown(wait=False)  # idle: its thread ends now


def backlog(campaign_id: int, cursor: int, viewer: Viewer) -> tuple[int, list[dict]] | None:
    """The polling fallback: the new cursor and the changes after ``cursor``, drawn; None when too far behind."""
    rows, _token = _after(campaign_id, cursor, REPLAY_LIMIT + 1)
    if len(rows) > REPLAY_LIMIT:
        return None
    drawn = [{"id": row.id, "html": render_change(row.id, viewer)}
             for row in rows if viewer.audience == "gm" or row.public]
    return (rows[-1].id if rows else cursor), drawn


# --- the views' answers -------------------------------------------------------------------------

def cursor_of(request: HttpRequest) -> int:
    """The last change the viewer applied: ``?after=`` (our reconnects) or ``Last-Event-ID`` (the browser's)."""
    best = 0
    for raw in (request.GET.get("after"), request.headers.get("Last-Event-ID")):
        # ASCII digits only: "²".isdigit() is True, but int("²") fails.
        if raw and raw.isascii() and raw.isdigit() and len(raw) < 19:
            best = max(best, int(raw))
    return best


def viewer_of(request: HttpRequest, audience: Audience) -> Viewer:
    return Viewer(audience, translation.get_language(), links.base_url(request) if audience == "gm" else "")


def response(request: HttpRequest, campaign_id: int, audience: Audience, token: str = "") -> HttpResponse:
    """The stream; under a WSGI server (which would hold a thread per viewer) a 204 sends the page to polling."""
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)
    answer = StreamingHttpResponse(stream(campaign_id, cursor_of(request), viewer_of(request, audience), token),
                                   content_type="text/event-stream")
    answer["Cache-Control"] = "no-cache"
    answer["X-Accel-Buffering"] = "no"  # a reverse proxy must pass each event on at once
    return answer


def poll_response(request: HttpRequest, campaign_id: int, audience: Audience) -> HttpResponse:
    after = cursor_of(request)
    found = backlog(campaign_id, after, viewer_of(request, audience))
    if found is None:
        return JsonResponse({"reload": True})
    cursor, events = found
    if cursor == after:
        return HttpResponse(status=204)
    return JsonResponse({"cursor": cursor, "events": events})

