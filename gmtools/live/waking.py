"""Waking the streams: one ``Hub`` per campaign and event loop, woken at commit (SQLite) or by
PostgreSQL's NOTIFY (one listening connection per process)."""

from __future__ import annotations

import asyncio
import logging
import threading

from django.db import connections

from gmtools.live.drawing import Row
from gmtools.live.reads import _after, _start, read

log = logging.getLogger(__name__)

CHANNEL = "gmtools_changes"
# A viewer further behind than this reloads its page instead of replaying the changes one by one.
REPLAY_LIMIT = 200


class Hub:
    """One campaign's recent changes as this process knows them, shared by that campaign's streams."""

    KEEP = 256

    def __init__(self, campaign_id: int, loop: asyncio.AbstractEventLoop) -> None:
        self.campaign_id = campaign_id
        self.loop = loop
        self.floor = 0  # every change above this id is in ``recent`` (once loaded)
        self.recent: list[Row] = []
        self.tokens: frozenset[str] = frozenset()  # the open player links (``reads._tokens``)
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
                self.floor, self.tokens = await read(_start, self.campaign_id)
                self.loaded = True
            rows, tokens = await read(_after, self.campaign_id, self.latest, None)
            if tokens is not None:
                self.tokens = tokens
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
        rows, tokens = await read(_after, self.campaign_id, cursor, REPLAY_LIMIT + 1)
        if tokens is not None:  # a new link among the replayed changes: its streams end before they send them
            self.tokens = tokens
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
