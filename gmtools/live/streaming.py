"""The stream: a viewer's server-sent events, each change drawn for its audience, and the polling
fallback's backlog."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from functools import lru_cache

from asgiref.sync import SyncToAsync

from gmtools.live.drawing import Viewer, cached, render_change
from gmtools.live.reads import _after, _drawn
from gmtools.live.waking import REPLAY_LIMIT, hub

# Seconds between keep-alive comments; each one also re-reads the database.
KEEPALIVE = 15.0
RETRY_MS = 2000


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

    A player stream ends with a ``gone`` event as soon as its link (the campaign's or a character's)
    is regenerated or cut off; a viewer too
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
            if audience == "player" and shared.loaded and token not in shared.tokens:
                yield event("gone")
                return
            rows = await shared.after(cursor)
            if rows is None:
                yield event("reload")
                return
            if audience == "player" and token not in shared.tokens:
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
