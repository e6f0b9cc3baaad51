"""Pages and htmx fragments of the GM's table.

Each view finds the campaign among those the user may open (404 otherwise: another GM's
campaign does not exist for you), parses one form, calls one function, renders one template
or partial. Everything that writes is a POST (CSRF-checked) through ``gmtools.services``.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count, Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import retarget

from gmtools import services
from gmtools.composer import ComposerForm
from gmtools.models import Aspect, Campaign, Character, Roll, Trait
from gmtools.odds import odds_panel

LOG_PAGE = 25


class CampaignForm(forms.ModelForm):
    class Meta:
        model = Campaign
        fields = ["name", "game"]


def home(request: HttpRequest) -> HttpResponse:
    campaigns = Campaign.objects.for_gm(request.user).annotate(character_count=Count("characters"))
    return render(request, "home.html", {"campaigns": campaigns, "form": CampaignForm()})


@login_required
@require_POST
def campaign_create(request: HttpRequest) -> HttpResponse:
    form = CampaignForm(request.POST, instance=Campaign(gm=request.user))
    if not form.is_valid():
        campaigns = Campaign.objects.for_gm(request.user).annotate(character_count=Count("characters"))
        return render(request, "home.html", {"campaigns": campaigns, "form": form}, status=400)
    campaign = form.save()
    return redirect("table", pk=campaign.pk)


def _campaign(request: HttpRequest, pk: int) -> Campaign:
    return get_object_or_404(Campaign.objects.visible_to(request.user), pk=pk)


def _characters(campaign: Campaign):
    return campaign.characters.order_by("kind", "name").prefetch_related(
        Prefetch("traits", queryset=Trait.objects.order_by("id")), Prefetch("aspects", queryset=Aspect.objects.order_by("id"))
    )


def _log_page(campaign: Campaign, number: int | str = 1):
    return Paginator(Roll.objects.filter(campaign=campaign).for_log(), LOG_PAGE).get_page(number)


@login_required
@require_GET
def table(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    characters = list(_characters(campaign))
    first = next((c for c in characters if c.kind == "pc"), characters[0] if characters else None)
    return render(request, "table.html", {
        "campaign": campaign, "characters": characters, "log": _log_page(campaign), **_composer(campaign, first),
    })


def _composer(campaign: Campaign, character: Character | int | None) -> dict:
    """A fresh composer for a character, with the odds of its initial values."""
    form = ComposerForm(campaign, initial={"character": character})
    data = {name: (value.pk if hasattr(value, "pk") else value)
            for name, value in ((n, form.get_initial_for_field(f, n)) for n, f in form.fields.items())
            if value not in (None, "", [])}
    bound = ComposerForm(campaign, data)
    panel = odds_panel(bound.cleaned_data["composition"]) if bound.is_valid() else None
    return {"form": form, "odds": panel, "odds_errors": bound.errors}


@login_required
@require_GET
def composer(request: HttpRequest, pk: int) -> HttpResponse:
    """The composer again, for another character (its traits and options)."""
    campaign = _campaign(request, pk)
    return render(request, "table.html#composer", {"campaign": campaign, **_composer(campaign, request.GET.get("character"))})


@login_required
@require_GET
def odds(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    form = ComposerForm(campaign, request.GET)
    panel = odds_panel(form.cleaned_data["composition"]) if form.is_valid() else None
    return render(request, "table.html#odds", {"campaign": campaign, "odds": panel, "odds_errors": form.errors})


def _refused(request: HttpRequest, message: str, status: int = 400) -> HttpResponse:
    response = render(request, "table.html#refusal", {"message": message}, status=status)
    return retarget(response, "#table-messages")


def _after_roll(request: HttpRequest, campaign: Campaign, roll: Roll) -> HttpResponse:
    """The new log card, with the acting character's card refreshed out of band."""
    character = _characters(campaign).filter(pk=roll.character_id).first()
    roll = Roll.objects.for_log().get(pk=roll.pk)
    return render(request, "table.html#roll-response", {"campaign": campaign, "roll": roll, "character": character})


@login_required
@require_POST
def roll(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    form = ComposerForm(campaign, request.POST)
    if not form.is_valid():
        return _refused(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
    try:
        logged = services.record_roll(campaign, form.cleaned_data["composition"])
    except services.Refused as refusal:
        return _refused(request, str(refusal))
    return _after_roll(request, campaign, logged)


@login_required
@require_POST
def rouse(request: HttpRequest, pk: int, character_pk: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    character = get_object_or_404(campaign.characters, pk=character_pk)
    try:
        logged = services.rouse(character)
    except services.Refused as refusal:
        return _refused(request, str(refusal))
    return _after_roll(request, campaign, logged)


class RerollForm(forms.Form):
    dice = forms.TypedMultipleChoiceField(choices=[(i, i) for i in range(100)], coerce=int,
                                          error_messages={"required": _("Pick up to 3 normal dice to reroll.")})


class InvokeForm(forms.Form):
    aspect = forms.ModelChoiceField(queryset=Aspect.objects.none(), required=False)
    mode = forms.ChoiceField(choices=[("bonus", "+2"), ("reroll", _("Reroll"))])


class RewardForm(forms.Form):
    choice = forms.ChoiceField(choices=[("motes", _("Motes")), ("willpower", _("Willpower"))])


def _follow_up(request: HttpRequest, pk: int, roll_pk: int, form_class, act) -> HttpResponse:
    """Parse a follow-up form about one logged roll, act through the service, show the new card."""
    campaign = _campaign(request, pk)
    parent = get_object_or_404(Roll.objects.select_related("campaign", "character"), campaign=campaign, pk=roll_pk)
    form = form_class(request.POST)
    if "aspect" in form.fields:
        form.fields["aspect"].queryset = Aspect.objects.filter(character_id=parent.character_id)
    if not form.is_valid():
        return _refused(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
    try:
        logged = act(parent, form.cleaned_data)
    except services.Refused as refusal:
        return _refused(request, str(refusal))
    return _after_roll(request, campaign, logged)


@login_required
@require_POST
def reroll(request: HttpRequest, pk: int, roll_pk: int) -> HttpResponse:
    return _follow_up(request, pk, roll_pk, RerollForm, lambda parent, data: services.willpower_reroll(parent, data["dice"]))


@login_required
@require_POST
def invoke(request: HttpRequest, pk: int, roll_pk: int) -> HttpResponse:
    return _follow_up(request, pk, roll_pk, InvokeForm,
                      lambda parent, data: services.invoke(parent, data["aspect"], data["mode"]))


@login_required
@require_POST
def reward(request: HttpRequest, pk: int, roll_pk: int) -> HttpResponse:
    return _follow_up(request, pk, roll_pk, RewardForm,
                      lambda parent, data: services.claim_stunt_reward(parent, data["choice"]))


@login_required
@require_POST
def adjust(request: HttpRequest, pk: int, character_pk: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    character = get_object_or_404(campaign.characters, pk=character_pk)
    try:
        services.adjust(character, request.POST.get("action", ""))
    except services.Refused as refusal:
        return _refused(request, str(refusal))
    character = _characters(campaign).get(pk=character_pk)
    return render(request, "table.html#character-card", {"campaign": campaign, "character": character})


@login_required
@require_GET
def log(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    return render(request, "table.html#log-page", {"campaign": campaign, "log": _log_page(campaign, request.GET.get("page", 1))})
