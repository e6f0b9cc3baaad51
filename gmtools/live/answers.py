"""The views' answers: a viewer's cursor and who it is, the stream's response and the polling fallback's."""

from __future__ import annotations

from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils import translation

from gmtools import links
from gmtools.live.drawing import Audience, Viewer
from gmtools.live.streaming import backlog, stream


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
