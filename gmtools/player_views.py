"""The player link: what the players see of a table, with no account.

Every view finds the campaign by a player token: the campaign's own, or one of its characters'
(``Character.player_token``, the same page with that character's composer when the campaign lets
players roll: ``gmtools.player_rolls``); 404 for any other string, and for an old token once the GM
makes a new link or cuts one off. Nothing here writes but a player's roll of their own character
(``player_roll``, a POST) and their follow-ups of it (``player_follow_up``); the rolls shown come
through ``Roll.objects.for_players()``, which leaves out the secret rolls not yet revealed.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from functools import wraps

from asgiref.sync import sync_to_async
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import trigger_client_event

from gmtools import board, live, player_rolls, recap, services, stats, throttle
from gmtools.models import Campaign, ChangeKind, Character, Roll, Scene
from gmtools.physical import PhysicalForm
from gmtools.views import REFUSED, take_follow_up

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


def link(token: str) -> tuple[Campaign, Character | None]:
    """The campaign a player token opens, and the character it is the link of (None: the campaign's
    own link). ``Campaign.DoesNotExist`` for a token that is neither (``guarded`` answers 404)."""
    campaign = Campaign.objects.filter(player_token=token).first()
    if campaign is not None:
        return campaign, None
    character = Character.objects.select_related("campaign").filter(player_token=token).first()
    if character is None:
        raise Campaign.DoesNotExist
    return character.campaign, character


def _campaign(token: str) -> Campaign:
    return link(token)[0]


def _log(campaign: Campaign, page: object = 1, size: int = LOG_PAGE):
    return Paginator(Roll.objects.filter(campaign=campaign).for_players().for_log(), size).get_page(page)


def _urls(token: str) -> dict[str, str]:
    return {name: reverse(f"player-{name}", args=[token]) for name in ("stream", "poll", "log", "recap", "luck")}


@require_GET
@guarded
def player(request: HttpRequest, token: str, tv: bool = False) -> HttpResponse:
    campaign, character = link(token)
    cursor = board.cursor(campaign)  # first: the stream resumes after what the page shows
    context = {**board.time_context(campaign, player=True), **board.extended_context(campaign), "cursor": cursor,
               "player": True, "tv": tv, "log": _log(campaign, size=TV_LOG if tv else LOG_PAGE), "urls": _urls(token)}
    if character is not None and not tv:
        context.update(player_rolls.composer_context(campaign, character, token, context["scene"]))
    return render(request, "player.html", context)


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
    def campaign_of() -> int | None:
        try:
            return link(token)[0].pk
        except Campaign.DoesNotExist:
            return None

    campaign_id = await live.lookup(request, campaign_of)
    if campaign_id is None:
        await sync_to_async(throttle.missed)(request)
        raise Http404
    return live.response(request, campaign_id, "player", token)


@require_GET
@guarded
def player_poll(request: HttpRequest, token: str) -> HttpResponse:
    return live.poll_response(request, _campaign(token).pk, "player")


# --- a player rolls their character (gmtools.player_rolls) --------------------------------------

def _roller(token: str) -> tuple[Campaign, Character]:
    """The campaign and the character of a character's link, while the campaign lets players roll;
    ``Refused`` for the campaign's own link (it rolls for no character) or when the GM rolls."""
    campaign, character = link(token)
    if character is None:
        raise services.Refused(_("This link follows the table: it rolls for no character."))
    if not campaign.players_roll:
        raise services.Refused(player_rolls.closed_text())
    return campaign, character


def _refused(request: HttpRequest, message: str, once: bool = False) -> HttpResponse:
    """A refusal beside the player's Roll (static/gmtools.js), the composer kept as it was; ``once``:
    with the composer's key for its next roll, after a refusal that judged the key (views._next_key)."""
    response = render(request, "table.html#refusal", {"message": message}, status=REFUSED)
    if once:
        response.write(render_to_string("table.html#once-key", {"once": uuid.uuid4(), "oob": True}, request))
    return response


@require_GET
@guarded
def player_odds(request: HttpRequest, token: str) -> HttpResponse:
    """The odds of what the player composed, as the GM's composer prices them: their head for the
    composer's foot, beside Roll, the rest (the chart, what each option buys) out of band under it."""
    try:
        campaign, character = _roller(token)
    except services.Refused as refusal:
        return render(request, "player.html#odds", {"odds": None, "odds_errors": [str(refusal)], "odds_answer": True})
    form = player_rolls.PlayerComposerForm(campaign, character, request.GET, scene=Scene.objects.current(campaign))
    return render(request, "player.html#odds", {"campaign": campaign, **player_rolls.odds_context(form),
                                                "odds_answer": True})


@require_GET
@guarded
def player_composer_field(request: HttpRequest, token: str, name: str) -> HttpResponse:
    """A composer field its game draws itself (Fate's aspects to invoke), again, for the player's
    character (``scene_views.composer_field``); empty for any other field, or when rolling is off."""
    try:
        campaign, character = _roller(token)
    except services.Refused:
        return HttpResponse("")
    form = player_rolls.PlayerComposerForm(campaign, character, request.GET, scene=Scene.objects.current(campaign))
    if name not in form.fields or name not in form.part.drawn_by:
        return HttpResponse("")
    return render(request, form.part.drawn_by[name], {"campaign": campaign, "form": form, "field": form[name],
                                                       "player_token": token})


@require_POST
@guarded
def player_roll(request: HttpRequest, token: str) -> HttpResponse:
    """The player's roll of their character, through the GM's own service: into the same log, scene
    and turn, with the same refusals and spends; the GM's table and every phone get it live. The
    answer is the composer again, keeping what the player chose but the one roll's choices
    (``ComposerForm.kept_after_roll``, those the GM's composer resets), the faces entered gone, and
    a new key for the next roll. Only a roll recorded counts toward the link's limit (``_counted``)."""
    try:
        campaign, character = _posted(token)
    except services.Refused as refusal:
        return _refused(request, str(refusal))
    scene = Scene.objects.current(campaign)
    form = player_rolls.PlayerComposerForm(campaign, character, request.POST, scene=scene)
    thrown = PhysicalForm(request.POST)  # "I rolled real dice" on the phone, as on the GM's composer
    valid = form.is_valid() and thrown.is_valid()
    try:
        services.refuse_made(campaign, form.cleaned_data.get("once"))  # a second click is told this first
    except services.Refused as refusal:
        return _refused(request, str(refusal), once=True)
    if not valid:
        return _refused(request, " ".join(form.messages() + thrown.messages()), once=True)
    streams = live.WritersDrawing.of(request)
    try:
        with _counted(character):
            logged = services.record_roll(campaign, form.cleaned_data["composition"], once=form.cleaned_data.get("once"),
                                          streams=streams, physical=thrown.entered(),
                                          rolled_by=character.player or character.name)
    except services.Refused as refusal:
        return _refused(request, str(refusal), once=True)
    _stream(campaign, logged, streams)
    character.refresh_from_db()
    return render(request, "player.html#composer", {"rolled": logged, **player_rolls.composer_context(
        campaign, character, token, scene, kept=form.kept_after_roll(), physical=bool(thrown.cleaned_data.get("physical")))})


@require_POST
@guarded
def player_follow_up(request: HttpRequest, token: str, roll_pk: int, kind: str) -> HttpResponse:
    """The player's follow-up of their own last roll from the phone (a V5 Willpower reroll, a Fate
    invocation: ``player_rolls.followed_by_player`` says which), its form read as the GM's card's and
    taken by the GM's own service: the same spends and refusals, the card redrawn live everywhere.
    The answer says what was done and draws the follow-ups again, the composer left as the player has
    it: its odds and what it offers are asked again (``turn-changed``: what the follow-up spent). Only a
    follow-up taken counts toward the link's limit (``_counted``)."""
    try:
        campaign, character = _posted(token)
        parent = player_rolls.followed_by_player(character, roll_pk, kind)
        with _counted(character):
            logged, streams = take_follow_up(request, campaign, parent, kind, rolled_by=character.player or character.name)
    except services.Refused as refusal:
        return _refused(request, str(refusal))
    _stream(campaign, logged, streams)
    context = {"followed": logged, "oob": True, **player_rolls.follow_ups_context(campaign, character, token)}
    return trigger_client_event(render(request, "player.html#followed", context), "turn-changed")


@require_GET
@guarded
def player_follow_ups(request: HttpRequest, token: str) -> HttpResponse:
    """The follow-ups open to the player, drawn again after a change at the table (the GM voided the
    roll or followed it up): the composer's own part, without the composer, which keeps what was composed."""
    try:
        campaign, character = _roller(token)
    except services.Refused:
        return HttpResponse("")  # rolling is off: the page draws itself again (static/gmtools.js)
    return render(request, "player.html#player-follow-ups",
                  player_rolls.follow_ups_context(campaign, character, token))


def _posted(token: str) -> tuple[Campaign, Character]:
    """``_roller``, and ``Refused`` past the posts' limit of the character's link (``throttle.player_post_refused``:
    every roll and follow-up posted, refused or not, a script's loop of nonsense)."""
    campaign, character = _roller(token)
    if throttle.player_post_refused(character.pk):
        raise services.Refused(_("Too many tries in a minute from this phone: nothing was rolled. "
                                 "Wait a moment, then try again."))
    return campaign, character


@contextmanager
def _counted(character: Character) -> Iterator[None]:
    """A roll or follow-up of the character's link, counted toward its rolls' limit (a stuck button):
    ``Refused`` past it, nothing rolled or spent; given back when the service refuses it (or fails),
    so that only what is recorded counts (``gmtools.throttle``)."""
    if throttle.player_roll_refused(character.pk):
        raise services.Refused(_("Too many rolls in a minute from this phone: nothing was rolled. "
                                 "Wait a moment, then roll again."))
    try:
        yield
    except Exception:
        throttle.player_roll_given_back(character.pk)
        raise


def _stream(campaign: Campaign, logged: Roll, streams: live.WritersDrawing) -> None:
    """What a player's roll or follow-up redrew goes to the GM's table and every phone (``streams``)."""
    campaign.refresh_from_db()  # the roll changed the row (a Fate card drawn): draw what it is now
    drawn = board.Redraw(campaign, ChangeKind.ROLL, roll=logged)
    streams.store(logged, lambda viewer: live.render_drawn(drawn, viewer))
