"""Every time shown in the campaign's own time zone (issue 25), the times stored staying UTC.

``CampaignTimeZone`` makes the zone of the campaign a request is about the request's, before its
view runs: every ``timezone.localtime`` then reads in it (the cards' ``when``, the recap, the CSV, the
luck page), and so do the live drawings, made in the writer's request for its campaign's viewers. A
request is about a campaign by its URL: ``campaigns/<pk>/...`` (the GM's), a player link's
``<token>`` (the campaign's own or a character's), or the admin's pages of one campaign or character
(its change page and its history, whose times are the admin's own). Any other request reads in the
server's zone (``settings.TIME_ZONE``).
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from gmtools.models import Campaign


def zone_of(request: HttpRequest, kwargs: dict[str, Any]) -> zoneinfo.ZoneInfo | None:
    """The zone of the campaign the request's URL names, or None (no campaign, or none by that key)."""
    match = request.resolver_match
    route = match.route if match is not None else ""
    if route.startswith("campaigns/<int:pk>") and isinstance(kwargs.get("pk"), int):
        found = Campaign.objects.filter(pk=kwargs["pk"])
    elif isinstance(kwargs.get("token"), str):
        token = kwargs["token"]
        found = Campaign.objects.filter(Q(player_token=token) | Q(characters__player_token=token))
    elif match is not None and match.namespace == "admin" and str(kwargs.get("object_id", "")).isdigit():
        object_id = int(kwargs["object_id"])
        if match.url_name.startswith("gmtools_campaign_"):
            found = Campaign.objects.filter(pk=object_id)
        elif match.url_name.startswith("gmtools_character_"):
            found = Campaign.objects.filter(characters__pk=object_id)
        else:
            return None
    else:
        return None
    name = found.values_list("time_zone", flat=True).first()
    return zoneinfo.ZoneInfo(name) if name else None


class CampaignTimeZone:
    """The campaign's zone for its requests. Async-capable without a thread hop of its own: under the
    ASGI server a sync middleware's hooks each cross to the one thread of the sync code, and the
    streams' views, opened by every phone at once, queued behind them (30 phones opening their
    streams timed out). A stream's view is async and needs no zone from here: its drawings are made in
    the campaign's zone by ``gmtools.live.render_drawn``."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)
            self.process_view = self._aprocess_view  # Django then awaits it as it is, no hop of its own

    def __call__(self, request: HttpRequest) -> Any:
        if iscoroutinefunction(self):
            return self._acall(request)
        timezone.deactivate()  # nothing carried over from another request served by this worker
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        timezone.deactivate()  # the request's own context: asgiref's Local, no thread involved
        try:
            return await self.get_response(request)
        finally:
            timezone.deactivate()

    def process_view(self, request: HttpRequest, view: Callable[..., Any], args: tuple,
                     kwargs: dict[str, Any]) -> None:
        if iscoroutinefunction(view):
            return  # a stream: see the class's note (no query, no hop)
        zone = zone_of(request, kwargs)
        if zone is not None:
            timezone.activate(zone)

    async def _aprocess_view(self, request: HttpRequest, view: Callable[..., Any], args: tuple,
                             kwargs: dict[str, Any]) -> None:
        if iscoroutinefunction(view):
            return  # a stream: see the class's note (no query, no hop)
        zone = await sync_to_async(zone_of)(request, kwargs)
        if zone is not None:
            timezone.activate(zone)  # this request's context, which its sync view runs in
