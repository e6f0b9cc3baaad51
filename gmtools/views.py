"""Pages and htmx fragments of the GM's table.

Each view finds the campaign among those the user may open (404 otherwise: another GM's
campaign does not exist for you), parses one form, calls one function, renders one template
or partial. Everything that writes is a POST (CSRF-checked) through ``gmtools.services``.
"""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap, retarget, trigger_client_event

from gmtools import board, links, live, recap, services, stats, throttle, undo
from gmtools.composer import ComposerForm, initial_values
from gmtools.models import Campaign, ChangeKind, Character, Roll, Scene
from gmtools.models.campaigns import default_time_zone, validate_time_zone
from gmtools.forms import ExtendedForm, LogFilter, SceneForm
from gmtools.odds import odds_panel
from gmtools.physical import PhysicalForm, as_priced, entry_of

LOG_PAGE = 25


class CampaignForm(forms.ModelForm):
    class Meta:
        model = Campaign
        fields = ["name", "game", "time_zone"]
        # The GM's browser's zone (static/gmtools.js fills it in), else the server's.
        widgets = {"time_zone": forms.HiddenInput(attrs={"data-browser-zone": ""})}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].required = False
        self.fields["time_zone"].show_hidden_initial = False  # the model's default is a callable: no second input

    def clean_time_zone(self) -> str:
        """The zone the browser told, or the server's when it told none or one this machine does not
        know (an old browser's name): the GM sees every time in it and can change it."""
        name = self.cleaned_data.get("time_zone") or ""
        try:
            validate_time_zone(name)
        except ValidationError:
            return default_time_zone()
        return name

    def validate_unique(self) -> None:
        super().validate_unique()
        # A ModelForm checks the constraints on its own fields only; the GM is the instance's (the
        # view sets it), so (gm, name) is checked here: a name used twice is an error beside the
        # name, not an IntegrityError.
        others = {f.name for f in Campaign._meta.concrete_fields} - {"gm", "name"}
        try:
            self.instance.validate_constraints(exclude=others)
        except ValidationError as error:
            self.add_error("name", error.messages)


def home(request: HttpRequest) -> HttpResponse:
    campaigns = Campaign.objects.for_gm(request.user).annotate(character_count=Count("characters"))
    return render(request, "home.html", {"campaigns": campaigns, "form": CampaignForm()})


@login_required
@require_POST
def campaign_create(request: HttpRequest) -> HttpResponse:
    # What it posts to Discord is in the GM's language when it is made (the campaign's settings change it).
    language = translation.get_language() if translation.get_language() in dict(settings.LANGUAGES) else "en"
    form = CampaignForm(request.POST, instance=Campaign(gm=request.user, language=language))
    if not form.is_valid():
        campaigns = Campaign.objects.for_gm(request.user).annotate(character_count=Count("characters"))
        return render(request, "home.html", {"campaigns": campaigns, "form": form}, status=400)
    campaign = form.save()
    return redirect("table", pk=campaign.pk)


def _campaign(request: HttpRequest, pk: int) -> Campaign:
    return get_object_or_404(Campaign.objects.visible_to(request.user), pk=pk)


def _log_page(campaign: Campaign, params=None):
    log_filter = LogFilter(campaign, params or None)
    page = Paginator(log_filter.rolls(campaign).for_log(), LOG_PAGE).get_page((params or {}).get("page", 1))
    return {"log": page, "log_filter": log_filter, "log_query": _query_without_page(params)}


def _query_without_page(params) -> str:
    if not params:
        return ""
    query = params.copy()
    query.pop("page", None)
    return query.urlencode()


@login_required
@require_GET
def table(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    cursor = board.cursor(campaign)  # first: the live stream resumes after what the page shows
    viewer = live.Viewer("gm", translation.get_language(), links.base_url(request))
    body = live.render_page("table", campaign, cursor, viewer, lambda: render_to_string(
        "table.html#body", _table_context(campaign, cursor, viewer.base)))
    return render(request, "table.html", {"campaign": campaign, "body": body})


def _table_context(campaign: Campaign, cursor: int, base_url: str) -> dict:
    context = board.time_context(campaign)
    characters = context["characters"]
    # The composer starts with the character to act (as it follows the turn order), else the first PC.
    to_act = next((p.character_id for p in context["participants"] if p.current), None)
    first = to_act or next((c for c in characters if c.kind == "pc"), characters[0] if characters else None)
    return {
        **context, **_log_page(campaign), **_composer(campaign, first, context["scene"]), **board.extended_context(campaign),
        "cursor": cursor, "base_url": base_url, "export_form": recap.ExportForm(campaign),
    }


def _composer(campaign: Campaign, character: Character | int | None, scene: Scene | None,
              asked: dict | None = None) -> dict:
    """A fresh composer for a character, with the odds of its initial values (``asked``: the traits
    clicked on its card, or a saved roll's fields)."""
    form = ComposerForm(campaign, initial={**(asked or {}), "character": character}, scene=scene)
    bound = ComposerForm(campaign, initial_values(form), scene=scene)
    composition = bound.cleaned_data["composition"] if bound.is_valid() else None
    return {"form": form, "odds": odds_panel(composition) if composition else None, "odds_errors": bound.messages(),
            "physical": PhysicalForm(), "physical_entry": entry_of(composition) if composition else None,
            "phone": _phone(campaign, form)}


def _phone(campaign: Campaign, form: ComposerForm) -> Character | None:
    """The character whose phone the composer may ask a difficulty of: one with a link, while players
    roll (None: none), with what it was asked in words (``asked_said``)."""
    character = form.chosen
    if not (campaign.players_roll and character is not None and character.player_token):
        return None
    character.asked_said = form.difficulty_said(character.asked_difficulty)
    return character


@login_required
@require_POST
def ask_phone(request: HttpRequest, pk: int) -> HttpResponse:
    """Ask the composed-for character's next roll from the phone to face the composer's difficulty
    (kept secret when it is: V5), or (``clear``) take the ask back; the composer's line again."""
    campaign = _campaign(request, pk)
    form = ComposerForm(campaign, request.POST, scene=Scene.objects.current(campaign))
    phone = _phone(campaign, form)
    if phone is None:
        return _refused(request, _("Only a character with a phone link, while players roll, can be asked."))
    clear = bool(request.POST.get("clear"))
    form.is_valid()  # the difficulty's own field judges it, whatever else the composer holds yet
    wrong = {name: form.errors[name] for name in ("difficulty", "secret") if name in form.errors}
    if not clear and (wrong or "difficulty" not in form.cleaned_data):
        return _refused(request, errors_text(form, wrong) if wrong else _("This game's composer has no difficulty to ask."))
    services.ask_difficulty(phone, "" if clear else str(form.data["difficulty"]),
                            not clear and bool(form.cleaned_data.get("secret")))
    phone.asked_said = form.difficulty_said(phone.asked_difficulty)
    return render(request, "table.html#ask-phone", {"campaign": campaign, "phone": phone})


@login_required
@require_GET
def composer(request: HttpRequest, pk: int) -> HttpResponse:
    """The composer again, for another character (its traits and options); ``first``, ``second`` and
    ``pool_from``: a trait or pool clicked on the character's card. ``part=opposition``: the opposing
    character's box alone, its traits those of ``opponent_character`` (its best pool chosen), the
    dice typed beside it kept."""
    campaign = _campaign(request, pk)
    scene = Scene.objects.current(campaign)
    if request.GET.get("part") == "opposition":
        asked = ("character", "opponent_character", "opponent_dice")
        form = ComposerForm(campaign, initial={name: request.GET.get(name) for name in asked}, scene=scene)
        return render(request, "table.html#opposition", {"campaign": campaign, "form": form})
    asked = {name: request.GET[name] for name in ("first", "second", "pool_from") if request.GET.get(name)}
    return render(request, "table.html#composer",
                  {"campaign": campaign, **_composer(campaign, request.GET.get("character"), scene, asked)})


@login_required
@require_GET
def odds(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    form = ComposerForm(campaign, request.GET, scene=Scene.objects.current(campaign))
    composition = as_priced(form.cleaned_data["composition"], request.GET) if form.is_valid() else None
    response = render(request, "table.html#odds", {"campaign": campaign, "odds": odds_panel(composition) if composition else None,
                                                   "odds_errors": form.messages(),
                                                   "turn_notes": composition.notes if composition else (),
                                                   "physical_entry": entry_of(composition) if composition else None,
                                                   "disabled_fields": form.disabled_fields})
    # The odds follow each change at the table (static/live.js), and so does the ask of the character's
    # phone (out of band): an ask its roll spent goes from the GM's line.
    response.write(render_to_string("table.html#ask-phone", {"campaign": campaign, "phone": _phone(campaign, form),
                                                             "ask_oob": True}, request))
    return response


# A refusal is a 422 (the request was understood and refused), never a 400: under DEBUG, which
# ``make run`` ships, django-htmx's debug script replaces the whole page with any 400/403/404/500
# answer. The page shows the message beside what was clicked (static/gmtools.js); the table's
# message bar is where it goes when nothing nearer can hold it.
REFUSED = 422


def errors_text(form: forms.Form, errors: dict[str, list[str]] | None = None) -> str:
    """A refused form's errors (all of them, or those given) as one line, each after its field's label."""
    errors = form.errors if errors is None else errors
    return " ".join(f"{form.fields[name].label}: {e}" if name in form.fields else str(e)
                    for name, messages in errors.items() for e in messages)


def _refused(request: HttpRequest, message: str) -> HttpResponse:
    response = render(request, "table.html#refusal", {"message": message}, status=REFUSED)
    return reswap(retarget(response, "#table-messages"), "innerHTML")


def _after_roll(request: HttpRequest, campaign: Campaign, roll: Roll, streams: live.WritersDrawing) -> HttpResponse:
    """The new log card, and out of band all that the roll redrew: the cards it follows, the
    character's card, the turn order, the extended actions, the Fate deck's count. The same
    drawing goes to the GM's streams, and the same reads draw the players' (``streams``,
    gmtools.live.WritersDrawing)."""
    campaign.refresh_from_db()  # the roll changed the row (a Fate card drawn): draw what it is now
    drawn = board.Redraw(campaign, ChangeKind.ROLL, roll=roll)
    gm = live.viewer_of(request, "gm")
    answer = live.render_drawn(drawn, gm)
    streams.store(roll, lambda viewer: answer if viewer == gm else live.render_drawn(drawn, viewer))
    return trigger_client_event(HttpResponse(answer), "turn-changed")


def _next_key(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """The answer to a Roll click, with the composer's key for its next roll (out of band): that roll
    is another (``ComposerForm.once``). Only in this answer: the live streams' drawing of the roll is
    every tab's, and two tabs with one key would refuse each other's rolls."""
    response.write(render_to_string("table.html#once-key", {"once": uuid.uuid4(), "oob": True}, request))
    return response


@login_required
@require_POST
def roll(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    form = ComposerForm(campaign, request.POST, scene=Scene.objects.current(campaign))
    thrown = PhysicalForm(request.POST)  # "I rolled real dice": the faces entered (gmtools.physical)
    valid = form.is_valid() and thrown.is_valid()
    try:
        services.refuse_made(campaign, form.cleaned_data.get("once"))  # what a second click is told first
    except services.Refused as refusal:
        return _next_key(request, _refused(request, str(refusal)))
    if not valid:
        return _next_key(request, _refused(request, " ".join(form.messages() + thrown.messages())))
    streams = live.WritersDrawing.of(request)
    try:
        logged = services.record_roll(campaign, form.cleaned_data["composition"], once=form.cleaned_data.get("once"),
                                      streams=streams, physical=thrown.entered())
    except services.Refused as refusal:
        return _next_key(request, _refused(request, str(refusal)))
    return _next_key(request, _after_roll(request, campaign, logged, streams))


@login_required
@require_POST
def follow_up(request: HttpRequest, pk: int, roll_pk: int, kind: str) -> HttpResponse:
    """A logged roll followed up as its game offers (a V5 Willpower reroll, a Fate invocation, an
    Exalted stunt reward): its card's form, read by the follow-up's own form, through the service."""
    campaign = _campaign(request, pk)
    parent = get_object_or_404(Roll.objects.select_related("campaign", "character"), campaign=campaign, pk=roll_pk)
    try:
        logged, streams = take_follow_up(request, campaign, parent, kind)
    except services.Refused as refusal:
        return _refused(request, str(refusal))
    return _after_roll(request, campaign, logged, streams)


def take_follow_up(request: HttpRequest, campaign: Campaign, parent: Roll,
                   kind: str, rolled_by: str = "") -> tuple[Roll, live.WritersDrawing]:
    """The card's form of a follow-up (the GM's, or a player's of their own roll: ``rolled_by``), read
    by the follow-up's own form and taken by the service; ``Refused`` says why not, nothing written."""
    offer = services.follow_up_of(parent.system, kind)
    form = offer.form_class(request.POST, roll=parent, scene=Scene.objects.current(campaign))
    thrown = PhysicalForm(request.POST)  # a roll of real dice is rerolled with real dice (physical.html#follow-up)
    if not (form.is_valid() and thrown.is_valid()):
        raise services.Refused(" ".join([str(e) for errors in form.errors.values() for e in errors] + thrown.messages()))
    streams = live.WritersDrawing.of(request)
    return services.follow_up(parent, kind, streams=streams, physical=thrown.entered(), rolled_by=rolled_by,
                              **form.cleaned_data), streams


@login_required
@require_POST
def check(request: HttpRequest, pk: int, character_pk: int, kind: str) -> HttpResponse:
    """A roll made from a character's card as its game offers (a V5 rouse check); its die thrown at
    the table when the composer's "I rolled real dice" is ticked (static/physical.js asks its face)."""
    campaign = _campaign(request, pk)
    character = get_object_or_404(campaign.characters, pk=character_pk)
    thrown = PhysicalForm(request.POST)
    if not thrown.is_valid():
        return _refused(request, " ".join(thrown.messages()))
    streams = live.WritersDrawing.of(request)
    try:
        logged = services.check(character, kind, streams=streams, physical=thrown.entered())
    except services.Refused as refusal:
        return _refused(request, str(refusal))
    return _after_roll(request, campaign, logged, streams)


@login_required
@require_POST
def adjust(request: HttpRequest, pk: int, character_pk: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    character = get_object_or_404(campaign.characters, pk=character_pk)
    try:
        services.adjust(character, request.POST.get("action", ""), request.POST.get("value", ""), request.POST.get("by"))
    except services.Refused as refusal:
        return _refused(request, str(refusal))
    scene = Scene.objects.current(campaign)
    characters = list(board.characters(campaign).filter(pk=character_pk))
    board.annotate_turn(characters, scene)
    response = render(request, "table.html#adjusted", {"campaign": campaign, "character": characters[0], "scene": scene,
                                                       "undo": undo.offer(campaign)})  # the Undo button names this click
    # The odds follow what the click changed (V5: Hunger dice, an impaired pool).
    return trigger_client_event(response, "turn-changed")


@login_required
@require_GET
def luck(request: HttpRequest, pk: int) -> HttpResponse:
    """The campaign's luck and fair dice (``gmtools.stats``), by story, episode, scene or character."""
    campaign = _campaign(request, pk)
    form = stats.StatsFilter(campaign, request.GET or None)
    urls = {"page": reverse("luck", args=[pk]), "back": reverse("table", args=[pk])}
    body = stats.drawn(campaign, form, live.Viewer("gm", translation.get_language()), urls)
    return render(request, "stats.html#swap" if request.htmx else "stats.html",
                  {"campaign": campaign, "body": body, "urls": urls})


@login_required
@require_GET
def log(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    return render(request, "table.html#log-page", {"campaign": campaign, **_log_page(campaign, request.GET)})


# --- time at the table ------------------------------------------------------------------------

TIME_ACTIONS = ("start-story", "start-episode", "start-scene", "end-scene", "end-episode", "next-turn", "previous-turn")


@login_required
@require_POST
def time_action(request: HttpRequest, pk: int) -> HttpResponse:
    """Start or end a story, episode or scene; next or previous turn."""
    campaign = _campaign(request, pk)
    action = request.POST.get("do", "")
    form = SceneForm(request.POST)
    if action not in TIME_ACTIONS:
        return _refused(request, str(_("Unknown time action.")))
    if not form.is_valid():  # a title too long, or with a NUL character: the field's own words
        return _refused(request, errors_text(form))
    scene = Scene.objects.current(campaign)
    try:
        if action == "start-story":
            services.start_story(campaign, form.cleaned_data["title"])
        elif action == "start-episode":
            services.start_episode(campaign, form.cleaned_data["title"])
        elif action == "start-scene":
            services.start_scene(campaign, **form.cleaned_data)
        elif scene is None:
            raise services.Refused(_("No scene is in play: start one."))
        elif action == "end-scene":
            services.end_scene(scene)
        elif action == "end-episode":
            services.end_episode(campaign)
        else:
            services.change_turn(scene, 1 if action == "next-turn" else -1)
    except services.Refused as refusal:
        return _refused(request, str(refusal))
    response = render(request, "table.html#time-response", board.time_context(campaign))
    return trigger_client_event(response, "turn-changed")


@login_required
@require_POST
def flip(request: HttpRequest, pk: int) -> HttpResponse:
    """Flip the campaign's table switch: draw from the Fate deck, or open/close the scifi adventure."""
    campaign = _campaign(request, pk)
    if campaign.game not in Campaign.TABLE_SWITCHES:
        return _refused(request, str(_("This game has no such switch.")))
    services.flip(campaign)
    response = render(request, "table.html#time-bar", board.time_context(campaign, cards=False))
    return trigger_client_event(response, "turn-changed")


@login_required
@require_POST
def turn_order(request: HttpRequest, pk: int) -> HttpResponse:
    """Reorder the scene's turn order (drag and drop sends the whole order; ↑/↓ move one), join or leave."""
    campaign = _campaign(request, pk)
    scene = Scene.objects.current(campaign)
    if scene is None:
        return _refused(request, str(_("No scene is in play: start one.")))
    try:
        if "order" in request.POST:
            services.reorder(scene, _ids(request.POST["order"]))
        else:
            ids = _ids(request.POST.get("character", ""))
            character = get_object_or_404(campaign.characters, pk=ids[0] if ids else 0)
            verb = request.POST.get("verb")
            if verb == "join":
                services.join_scene(scene, character)
            elif verb == "leave":
                services.leave_scene(scene, character)
            elif verb in ("up", "down"):
                services.move_in_order(scene, character, -1 if verb == "up" else 1)
            else:
                raise services.Refused(_("Unknown turn order change."))
    except services.Refused as refusal:
        return _refused(request, str(refusal))
    return render(request, "table.html#turn-order", board.time_context(campaign, cards=False))


def _ids(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        return [-1]


class DeclareForm(forms.Form):
    actions = forms.IntegerField(min_value=1, max_value=10)


@login_required
@require_POST
def declare(request: HttpRequest, pk: int, character_pk: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    character = get_object_or_404(campaign.characters, pk=character_pk)
    scene = Scene.objects.current(campaign)
    form = DeclareForm(request.POST)
    if scene is None or not form.is_valid():
        return _refused(request, str(_("Start a scene, then declare 1 to 10 actions.")))
    try:
        services.declare_actions(scene, character, form.cleaned_data["actions"])
    except services.Refused as refusal:
        return _refused(request, str(refusal))
    characters = list(board.characters(campaign).filter(pk=character.pk))
    board.annotate_turn(characters, scene)
    response = render(request, "table.html#character-card", {"campaign": campaign, "character": characters[0],
                                                              "scene": scene})
    return trigger_client_event(response, "turn-changed")


@login_required
@require_POST
def extended_create(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    form = ExtendedForm(request.POST, campaign=campaign)
    if not form.is_valid():
        return _refused(request, errors_text(form))
    scene = Scene.objects.current(campaign)
    try:
        services.create_extended(campaign, scene, **form.cleaned_data)
    except services.Refused as refusal:
        return _refused(request, str(refusal))
    # The composer's "Roll into" list gets the new action too (out of band), not chosen: a roll goes into
    # an extended action only when the GM picks it (static/gmtools.js keeps the GM's choice in the list).
    return render(request, "table.html#extended-created", {
        **board.extended_context(campaign), "roll_into": board.roll_into(campaign, oob=True),
    })


@login_required
@require_POST
def extended_stop(request: HttpRequest, pk: int, action_pk: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    action = get_object_or_404(campaign.extended_actions, pk=action_pk)
    try:
        services.stop_extended(action)
    except services.Refused as refusal:
        return _refused(request, str(refusal))
    return render(request, "table.html#extended-list", board.extended_context(campaign))


@login_required
@require_GET
def extended_list(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    return render(request, "table.html#extended-list", board.extended_context(campaign))


# --- the players' side, seen from the GM's table ----------------------------------------------

@login_required
@require_POST
def reveal(request: HttpRequest, pk: int, roll_pk: int) -> HttpResponse:
    """Show the players a secret roll; every open view (this one too) redraws its card from the stream."""
    campaign = _campaign(request, pk)
    roll = get_object_or_404(Roll, campaign=campaign, pk=roll_pk)
    try:
        services.reveal(roll)
    except services.Refused as refusal:
        return _refused(request, str(refusal))
    cards = Roll.objects.for_log().filter(pk__in=roll.family())
    return render(request, "table.html#log-cards", {"campaign": campaign, "cards": cards, "main": roll.pk})


@login_required
@require_POST
def player_link(request: HttpRequest, pk: int) -> HttpResponse:
    """A new player link: the old one stops working at once, open streams included."""
    campaign = _campaign(request, pk)
    services.regenerate_player_link(campaign)
    return render(request, "table.html#player-link", {"campaign": campaign, "base_url": links.base_url(request),
                                                      "link_open": True})


@login_required
@require_POST
def players_roll(request: HttpRequest, pk: int) -> HttpResponse:
    """Let the players roll their own characters from their phones (each character's link), or not."""
    campaign = _campaign(request, pk)
    services.set_players_roll(campaign, request.POST.get("on") == "1")
    return render(request, "table.html#player-link", {"campaign": campaign, "base_url": links.base_url(request),
                                                      "link_open": True})


@login_required
@require_POST
def character_link(request: HttpRequest, pk: int, character_pk: int) -> HttpResponse:
    """A character's own player link: a new one (``do=new``: the old one stops working at once), or
    none (``do=cut``)."""
    campaign = _campaign(request, pk)
    character = get_object_or_404(campaign.characters, pk=character_pk)
    if request.POST.get("do") not in ("new", "cut"):
        return _refused(request, str(_("Make a new link, or cut this one off.")))
    services.set_character_link(character, request.POST["do"] == "new")
    return render(request, "table.html#player-link", {"campaign": campaign, "base_url": links.base_url(request),
                                                      "link_open": True})


@login_required
@require_GET
def export(request: HttpRequest, pk: int) -> HttpResponse:
    """The log of this scene, this episode or the whole campaign, as Markdown or CSV (a few a minute:
    gmtools.throttle)."""
    campaign = _campaign(request, pk)
    form = recap.ExportForm(campaign, request.GET)
    if not form.is_valid():
        return HttpResponse(" ".join(str(e) for errors in form.errors.values() for e in errors), status=400,
                            content_type="text/plain; charset=utf-8")
    if throttle.export_refused(request):
        return throttle.export_refused_page(request)
    return recap.download(campaign, form, player=False)


@require_GET
async def stream(request: HttpRequest, pk: int) -> HttpResponse:
    """The GM's other tabs and devices follow the table live (server-sent events).

    Not @login_required: its check would hold a database connection for as long as the stream
    stays open (see ``live.read``), so the same check is made here through ``live.lookup``.
    """
    def allowed() -> tuple[bool, bool]:
        return request.user.is_authenticated, Campaign.objects.visible_to(request.user).filter(pk=pk).exists()

    authenticated, visible = await live.lookup(request, allowed)
    if not authenticated:
        return redirect_to_login(request.get_full_path())
    if not visible:
        raise Http404
    return live.response(request, pk, "gm")


@login_required
@require_GET
def poll(request: HttpRequest, pk: int) -> HttpResponse:
    """Where a stream cannot connect: the changes after the cursor, or 204 when nothing is new."""
    campaign = _campaign(request, pk)
    return live.poll_response(request, campaign.pk, "gm")

