"""The GM's second thoughts at the table: void a logged roll, undo the last one-click change.

Thin views as in ``gmtools.views``: the campaign among those the user may open (404 otherwise),
POST only (CSRF-checked), one call to ``gmtools.services``, a refusal as a 422 beside the button.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_POST
from django_htmx.http import trigger_client_event

from gmtools import board, live, services
from gmtools.models import ChangeKind, Roll
from gmtools.views import _after_roll, _campaign, _refused


@login_required
@require_POST
def void(request: HttpRequest, pk: int, roll_pk: int) -> HttpResponse:
    """Void a roll (and its follow-ups): the card comes back struck through, and out of band all that
    the refund redrew (the character's card, the turn order, the extended actions)."""
    campaign = _campaign(request, pk)
    roll = get_object_or_404(Roll, campaign=campaign, pk=roll_pk)
    streams = live.WritersDrawing.of(request)
    try:
        services.void_roll(roll, request.user, streams=streams)
    except services.Refused as refusal:
        return _refused(request, str(refusal))
    return _after_roll(request, campaign, roll, streams)  # "turn-changed": budgets are back, the odds follow


@login_required
@require_POST
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    """Undo the change the Undo button named (``change``); every part comes back out of band."""
    campaign = _campaign(request, pk)
    expected = request.POST.get("change", "")
    # An id is ASCII digits: "²".isdigit() is True but int("²") fails, and int() refuses 4,300 digits.
    named = int(expected) if expected.isascii() and expected.isdigit() and len(expected) < 19 else None
    try:
        change = services.undo_last_change(campaign, named)
    except services.Refused as refusal:
        return _refused(request, str(refusal))
    context = board.redraw(campaign, ChangeKind.CHARACTER, character_id=change.character_id, oob=True)
    return trigger_client_event(render(request, "table.html#live-change", context), "turn-changed")
