"""A scifi roll's card names the kind of action it took of the turn's two slots (issue 24's
walkthrough, C6: the log did not say who had fired this turn), on the GM's table and the players'
page, in the viewer's language."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from gmtools import services
from tests.games import Game
from tests.web.helpers import compose_and_roll

pytestmark = pytest.mark.django_db


def test_a_scifi_card_names_its_action(make_character, set_ratings, gm_client):
    kade = make_character(Game.SCIFI, name="Kade")
    set_ratings(kade, agility=3, firearms=2)
    campaign = kade.campaign
    services.start_scene(campaign, title="The jungle", combat=True)
    compose_and_roll(campaign, kade, [5, 4, 3, 2, 1], kind="fire")
    table = gm_client.get(reverse("table", args=[campaign.pk])).content.decode()
    assert 'data-testid="action-kind">Fired a weapon<' in table
    players = Client().get(reverse("player", args=[campaign.player_token]), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert 'data-testid="action-kind">Disparó un arma<' in players
