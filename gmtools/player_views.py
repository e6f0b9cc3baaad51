"""The player link: what the players see of a table, read-only, with no account.

Every view finds the campaign by its player token (404 for any other string, and for the old
token once the GM makes a new link). Nothing here writes: every view is a GET, and the rolls
come through ``Roll.objects.for_players()``, which leaves out the secret rolls not yet revealed.
"""

from __future__ import annotations

from functools import wraps

from asgiref.sync import sync_to_async
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.views.decorators.http import require_GET

from gmtools import board, live, recap, stats, throttle
from gmtools.models import Campaign, Roll, Scene

LOG_PAGE = 25
TV_LOG = 7  # the last roll big, and the six before it


def guarded(view):
    """A player view, closed to an address that guessed too many tokens; a wrong token counts."""
    @wraps(view)
    def guarded_view(request: HttpRequest, token: str, *args, **kwargs) -> HttpResponse:
        if throttle.held_back(request):
            return throttle.held_back_page(request)
        try:
            return view(request, token, *args, **kwargs)
        except Campaign.DoesNotExist:
            throttle.missed(request)
            # Drawn here rather than raised: with DEBUG on (``make run``) Django would show its URL list.
            return render(request, "player_gone.html", status=404)
    return guarded_view


def _campaign(token: str) -> Campaign:
    return Campaign.objects.get(player_token=token)


def _log(campaign: Campaign, page: object = 1, size: int = LOG_PAGE):
    return Paginator(Roll.objects.filter(campaign=campaign).for_players().for_log(), size).get_page(page)


def _urls(token: str) -> dict[str, str]:
    return {name: reverse(f"player-{name}", args=[token]) for name in ("stream", "poll", "log", "recap", "luck")}


@require_GET
@guarded
def player(request: HttpRequest, token: str, tv: bool = False) -> HttpResponse:
    campaign = _campaign(token)
    cursor = board.cursor(campaign)  # first: the stream resumes after what the page shows
    return render(request, "player.html", {
        **board.time_context(campaign, player=True), **board.extended_context(campaign), "cursor": cursor, "player": True,
        "tv": tv, "log": _log(campaign, size=TV_LOG if tv else LOG_PAGE), "urls": _urls(token),
    })


@require_GET
@guarded
def player_log(request: HttpRequest, token: str) -> HttpResponse:
    campaign = _campaign(token)
    return render(request, "player.html#log-page", {"campaign": campaign, "player": True, "urls": _urls(token),
                                                     "log": _log(campaign, request.GET.get("page", 1))})


@require_GET
@guarded
def player_luck(request: HttpRequest, token: str) -> HttpResponse:
    """The campaign's luck and fair dice as the players may see them: no roll still secret."""
    campaign = _campaign(token)
    form = stats.StatsFilter(campaign, request.GET or None, player=True)
    urls = {"page": reverse("player-luck", args=[token]), "back": reverse("player", args=[token])}
    body = stats.drawn(campaign, form, live.Viewer("player", translation.get_language()), urls)
    return render(request, "stats.html#swap" if request.htmx else "stats.html",
                  {"campaign": campaign, "body": body, "urls": urls, "player": True})


@require_GET
@guarded
def player_recap(request: HttpRequest, token: str) -> HttpResponse:
    """The session recap in Markdown, of what the players may see.

    ``part`` is ``scene`` or ``episode`` for the one in play (the last one played if none is),
    the default being the scene; or ``campaign``, or a scene's or episode's own key. A few a minute
    from each address and for the link (gmtools.throttle).
    """
    campaign = _campaign(token)
    part = request.GET.get("part") or "scene"
    if part in ("scene", "episode"):
        last = Scene.objects.filter(episode__story__campaign=campaign).order_by("-id").first()
        part = "campaign" if last is None else f"scene-{last.pk}" if part == "scene" else f"episode-{last.episode_id}"
    form = recap.ExportForm(campaign, {"part": part, "format": "md"}, inline=True)
    if not form.is_valid():
        raise Http404
    if throttle.export_refused(request, link=campaign.pk):
        return throttle.export_refused_page(request)
    return recap.download(campaign, form, player=True)


@require_GET
async def player_stream(request: HttpRequest, token: str) -> HttpResponse:
    if await sync_to_async(throttle.held_back)(request):
        return await sync_to_async(throttle.held_back_page)(request)
    # Not the async ORM: it would hold a connection for as long as the stream is open (live.read).
    campaign_id = await live.lookup(
        request, lambda: Campaign.objects.filter(player_token=token).values_list("pk", flat=True).first())
    if campaign_id is None:
        await sync_to_async(throttle.missed)(request)
        raise Http404
    return live.response(request, campaign_id, "player", token)


@require_GET
@guarded
def player_poll(request: HttpRequest, token: str) -> HttpResponse:
    return live.poll_response(request, _campaign(token).pk, "player")
