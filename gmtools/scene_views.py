"""The scene at the GM's table: its notes (any game) and what its game changes of it (Fate: its
situation aspects and boosts).

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


class SceneNotesForm(forms.Form):
    notes = forms.CharField(max_length=2000, required=False, strip=False)


@login_required
@require_POST
def scene_change(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    """A change the campaign's game makes to the scene in play (Fate: a situation aspect or a boost
    added, one removed), its form read by the game's own form, through the service."""
    campaign = _campaign(request, pk)
    scene = Scene.objects.current(campaign)
    try:
        change = services.scene_change_of(campaign.game, kind)
        form = change.form_class(request.POST)
        if scene is None:
            raise services.Refused(_("No scene is in play: start one."))
        if not form.is_valid():
            raise services.Refused(errors_text(form))
        services.change_scene(scene, kind, **form.cleaned_data)
    except services.Refused as refusal:
        return _refused(request, str(refusal))
    response = render(request, "table.html#time-bar", board.time_context(campaign, cards=False))
    return trigger_client_event(response, change.event) if change.event else response


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
def composer_field(request: HttpRequest, pk: int, name: str) -> HttpResponse:
    """One of the composer's fields that its game draws itself (``BaseComposer.drawn_by``: Fate's
    aspects to invoke), again, for its character (after a roll or a change of the scene), keeping
    what the GM has chosen that is still on offer. Empty for a field the game has not."""
    campaign = _campaign(request, pk)
    form = ComposerForm(campaign, request.GET, scene=Scene.objects.current(campaign))
    if name not in form.fields or name not in form.part.drawn_by:
        return HttpResponse("")
    return render(request, form.part.drawn_by[name], {"campaign": campaign, "form": form, "field": form[name]})
