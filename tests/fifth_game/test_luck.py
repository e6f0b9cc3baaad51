"""A game without luck or dice to test (the fifth game stores no luck, names no die): its rolls keep no
luck, and its luck page is empty, never an error (issue 14)."""

import pytest
from django.urls import reverse

from gmtools import luck as stored_luck
from gmtools import services
from gmtools.composer import ComposerForm
from gmtools.models import Campaign, Character
from tests.fifth_game.game import GAME as D6
from tests.web.helpers import Faces

pytestmark = pytest.mark.django_db


def test_a_game_without_luck_stores_none(make_character, gm):
    campaign = Campaign.objects.create(name="Fifth", game=D6.id, gm=gm)
    rook = Character.objects.create_with_sheet(campaign=campaign, name="Rook")
    form_fields = {"character": rook.pk, "first": rook.traits.get(key="body").pk, "dice": 2, "modifier": 0,
                   "difficulty": 1, "pool_from": "traits", "kind": "short"}
    form = ComposerForm(campaign, form_fields)
    assert form.is_valid(), form.errors
    logged = services.record_roll(campaign, form.cleaned_data["composition"], Faces(5, 1, 6))
    assert logged.outcome == "success" and logged.luck is None
    assert stored_luck.replayed(D6.id, {"kind": "roll", "request": logged.request, "result": logged.result}, {}) is None


def test_a_game_without_luck_or_dice_has_an_empty_page(gm_client, gm):
    campaign = Campaign.objects.create(name="Dice night", game=D6.id, gm=gm)
    Character.objects.create_with_sheet(campaign=campaign, name="Rook")
    response = gm_client.get(reverse("luck", args=[campaign.pk]))
    assert response.status_code == 200
    assert "No dice rolled here yet." in response.content.decode()
