"""A roll drawn for the streams by the request that made it, from the reads of its own answer."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.core.cache import caches
from django.core.cache.backends.dummy import DummyCache
from django.http import HttpRequest

from gmtools.live.answers import viewer_of
from gmtools.live.drawing import Viewer, _cache
from gmtools.live.reads import SHARED_TIMEOUT, _claim_for_a_wait, _claimed, _shared
from gmtools.models import Change, Roll


@dataclass
class WritersDrawing:
    """The rolls a request makes, drawn for the live streams by that request (``of``).

    The request has just read what its roll redraws, for its own answer (``board.Redraw``); the
    streams' versions come from the same reads: the GM's (its other tabs', its own stream included)
    is the answer itself (``render_drawn``), the players' one template more, where each process's
    streams would read the database again and draw them. So ``announce`` claims each roll in the
    live cache before commit, as ``_drawn_once`` would, in the request's language (the table's, most likely the
    phones'), and the streams of every process that wake at commit wait for the drawing instead of
    making their own; after commit the request draws and stores it (``store``). The view hands this
    object to the workflow it calls (``streams=``), which hands it to the ``announce`` of the roll it
    logs: nothing reaches ``announce`` that its caller did not pass. A claim not stored
    (another roll's, or a drawing that failed) is released at once, and one never released (a
    process killed meanwhile) lapses after ``SHARED_WAIT``.
    """

    viewers: tuple[Viewer, ...]
    claimed: list[tuple[Change, Viewer]] = field(default_factory=list)

    @classmethod
    def of(cls, request: HttpRequest) -> WritersDrawing:
        """The drawing of the rolls ``request`` makes, to hand to the workflow that logs them; the
        caller must ``store`` (or the streams wait ``SHARED_WAIT``).

        Only where the "live" cache is shared (Redis, settings.CACHES): without it a claim holds no
        stream back, each process's streams draw the roll themselves as soon as they wake, and the
        request's drawing would be work done twice; there it claims nothing.
        """
        shared = not isinstance(caches["live"], DummyCache)
        return cls((viewer_of(request, "player"), viewer_of(request, "gm")) if shared else ())

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
