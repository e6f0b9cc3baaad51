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
streams by the request that made it, from the reads of its own answer (``WritersDrawing``, which
the view hands to the workflow and the workflow to ``announce``): 50 phones and the GM's tab
watching one table on two workers cost one query per worker and no drawing per roll.

One module per topic, each importing only those below it (the contract "The live push's modules
run one way" in pyproject.toml): ``writing`` (``announce``), ``writers`` (a roll drawn for the
streams by the request that made it), ``answers`` (the views' answers), ``streaming`` (the stream and
the polling fallback), ``waking`` (the hubs and PostgreSQL's listener), ``reads`` (database calls
from the event loop, a change drawn once for every process), ``drawing`` (a change or a page drawn
for a viewer, the drawings kept); the views, the services and the tests import them from here, as
before the split (issue 21). Each piece of state (the drawings kept, the hubs) is one object, in
the module that defines it; the request's drawing is an argument, never ambient state. A test that
changes a setting or replaces a function changes it in the module that reads it
(``live.streaming.KEEPALIVE``, ``live.drawing._draw``).
"""

from gmtools.live.answers import cursor_of, poll_response, response, viewer_of
from gmtools.live.drawing import (
    PAGE_SHARED_TIMEOUT,
    Audience,
    Kept,
    Row,
    Viewer,
    cached,
    render_change,
    render_drawn,
    render_page,
)
from gmtools.live.drawing import _cache as _cache, _draw as _draw
from gmtools.live.reads import SHARED_POLL, SHARED_TIMEOUT, SHARED_WAIT, lookup, read
from gmtools.live.reads import _claim as _claim, _drawn as _drawn, _drawn_once as _drawn_once, _start as _start
from gmtools.live.streaming import KEEPALIVE, RETRY_MS, backlog, event, stream
from gmtools.live.waking import CHANNEL, REPLAY_LIMIT, Hub, hub, wake
from gmtools.live.writers import WritersDrawing
from gmtools.live.writing import announce

__all__ = [
    "CHANNEL", "KEEPALIVE", "PAGE_SHARED_TIMEOUT", "REPLAY_LIMIT", "RETRY_MS", "SHARED_POLL", "SHARED_TIMEOUT",
    "SHARED_WAIT", "Audience", "Hub", "Kept", "Row", "Viewer", "WritersDrawing", "announce", "backlog",
    "cached", "cursor_of", "event", "hub", "lookup", "poll_response", "read", "render_change",
    "render_drawn", "render_page", "response", "stream", "viewer_of", "wake",
]
