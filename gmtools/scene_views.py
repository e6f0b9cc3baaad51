"""The scene at the GM's table: Fate's situation aspects and boosts, and the scene's notes (any game).

Each write is a POST (CSRF-checked) through ``gmtools.services``, in one transaction, and answers
the time bar redrawn (a refusal: 422, shown in the time bar). The same change reaches the players
and the GM's other tabs through the live streams (``ChangeKind.TIME`` redraws the time bar).
"""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import trigger_client_event

from gmtools import board, services
from gmtools.composer import ComposerForm
from gmtools.models import Scene
from gmtools.views import _campaign, _refused, errors_text

# Tells the composer to redraw its aspects to invoke (templates/table.html#invoke-field).
ASPECTS_CHANGED = "aspects-changed"


class SceneAspectForm(forms.Form):
    text = forms.CharField(max_length=200, label=_("Aspect"))
    free_invocations = forms.IntegerField(min_value=0, max_value=9, required=False, initial=0,
                                          label=_("Free invocations"))
    boost = forms.BooleanField(required=False, label=_("Boost"))


class SceneNotesForm(forms.Form):
    notes = forms.CharField(max_length=2000, required=False, strip=False)


def _time_bar(request: HttpRequest, campaign) -> HttpResponse:
    response = render(request, "table.html#time-bar", board.time_context(campaign, cards=False))
    return trigger_client_event(response, ASPECTS_CHANGED)


@login_required
@require_POST
def scene_aspect_add(request: HttpRequest, pk: int) -> HttpResponse:
    """Fate: a situation aspect or a boost on the scene in play, with its free invocations."""
    campaign = _campaign(request, pk)
    scene = Scene.objects.current(campaign)
    form = SceneAspectForm(request.POST)
    if scene is None:
        return _refused(request, str(_("No scene is in play: start one.")))
    if not form.is_valid():
        return _refused(request, errors_text(form))
    try:
        services.add_scene_aspect(scene, form.cleaned_data["text"], form.cleaned_data["free_invocations"] or 0,
                                  form.cleaned_data["boost"])
    except services.Refused as refusal:
        return _refused(request, str(refusal))
    return _time_bar(request, campaign)


@login_required
@require_POST
def scene_aspect_remove(request: HttpRequest, pk: int, aspect_pk: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    scene = Scene.objects.current(campaign)
    try:
        if scene is None:
            raise services.Refused(_("No scene is in play: start one."))
        services.remove_scene_aspect(scene, aspect_pk)
    except services.Refused as refusal:
        return _refused(request, str(refusal))
    return _time_bar(request, campaign)


@login_required
@require_POST
def scene_notes(request: HttpRequest, pk: int) -> HttpResponse:
    """The scene's notes, edited inline in the time bar (any game)."""
    campaign = _campaign(request, pk)
    scene = Scene.objects.current(campaign)
    form = SceneNotesForm(request.POST)
    if scene is None:
        return _refused(request, str(_("No scene is in play: start one.")))
    if form.has_error("notes", "max_length"):
        return _refused(request, str(_("Scene notes hold at most %(n)d characters.") % {"n": 2000}))
    if not form.is_valid():  # a NUL character, in Django's words
        return _refused(request, " ".join(form.errors["notes"]))
    try:
        services.set_scene_notes(scene, form.cleaned_data["notes"])
    except services.Refused as refusal:
        return _refused(request, str(refusal))
    return render(request, "table.html#time-bar", board.time_context(campaign, cards=False))


@login_required
@require_GET
def composer_aspects(request: HttpRequest, pk: int) -> HttpResponse:
    """The composer's aspects to invoke, again, for its character (after a roll or a change of the
    scene's aspects), keeping what the GM has ticked that is still on offer. Empty outside Fate."""
    campaign = _campaign(request, pk)
    form = ComposerForm(campaign, request.GET, scene=Scene.objects.current(campaign))
    if "invoke" not in form.fields:
        return HttpResponse("")
    return render(request, "table.html#invoke-field", {"campaign": campaign, "form": form, "field": form["invoke"]})
