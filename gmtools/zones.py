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

from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.deprecation import MiddlewareMixin

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


class CampaignTimeZone(MiddlewareMixin):
    """The campaign's zone for its requests (async-capable, as the stack's others: a player's stream
    stays a coroutine)."""

    def process_request(self, request: HttpRequest) -> None:
        timezone.deactivate()  # nothing carried over from another request served by this worker

    def process_view(self, request: HttpRequest, view: Callable[..., HttpResponse], args: tuple,
                     kwargs: dict[str, Any]) -> None:
        zone = zone_of(request, kwargs)
        if zone is not None:
            timezone.activate(zone)

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        timezone.deactivate()
        return response
