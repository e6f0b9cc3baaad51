"""The GM keeps control of a player's roll from the phone (issue 24): the table asks the character's
next roll from the phone to face the composer's difficulty, kept secret when it is (V5). The phone
says so and cannot choose another (a forged one is overridden), shows no odds against a secret one,
and its roll takes the ask once; the GM's own roll of the character leaves it; the GM takes it back.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from gmtools.models import Character, Roll
from tests.games import Game
from tests.web.test_player_rolls import posted, roll_url, table

pytestmark = pytest.mark.django_db


def ask(gm_client, character: Character, **data):
    campaign = character.campaign
    return gm_client.post(reverse("ask-phone", args=[campaign.pk]), {**posted(character), **data},
                          HTTP_HX_REQUEST="true")


def fresh(character: Character) -> Character:
    return Character.objects.get(pk=character.pk)


def phone_page(character: Character) -> str:
    return Client().get(reverse("player", args=[fresh(character).player_token])).content.decode()


def test_a_secret_difficulty_asked_is_the_rolls_and_the_phone_never_sees_it(gm, gm_client, scripted_dice):
    _campaign, ana, _guard = table(gm, Game.V5)
    assert 'data-testid="ask-phone"' in gm_client.get(reverse("table", args=[ana.campaign_id])).content.decode()
    response = ask(gm_client, ana, difficulty="4", secret="on")
    assert response.status_code == 200 and "Asked: Challenging (4), secret" in response.content.decode()
    assert (fresh(ana).asked_difficulty, fresh(ana).asked_secret) == ("4", True)
    page = phone_page(ana)
    assert "Difficulty: set by the GM, kept secret." in page and 'data-testid="odds-secret"' in page
    assert 'data-testid="odds"' not in page  # no chances that would tell it
    odds = Client().get(reverse("player-odds", args=[fresh(ana).player_token]), posted(ana, difficulty=1))
    assert b'data-testid="odds-secret"' in odds.content and b"%" not in odds.content
    scripted_dice(7, 8, 2, 3, 4)
    # The phone posts another difficulty (its own pick, or forged): the GM's is rolled against.
    answer = Client().post(roll_url(ana), posted(ana, difficulty=1))
    assert answer.status_code == 200
    roll = Roll.objects.get(character=ana)
    assert roll.request["difficulty"] == 4 and roll.secret
    # The composer drawn again for the next roll shows the player's own pick, never the GM's secret one.
    drawn = answer.content.decode()
    assert '<option value="1" selected>' in drawn and '<option value="4" selected>' not in drawn
    assert (fresh(ana).asked_difficulty, fresh(ana).asked_secret) == ("", False)  # once
    assert "Difficulty: set by the GM" not in phone_page(ana)


def test_a_difficulty_asked_in_the_open_is_said_and_priced_on_the_phone(gm, gm_client, scripted_dice):
    _campaign, ana, _guard = table(gm, Game.EXALTED)
    assert ask(gm_client, ana, difficulty="3").status_code == 200
    page = phone_page(ana)
    assert "set by the GM." in page and 'data-testid="odds"' in page
    scripted_dice(8, 8, 3, 2, 1)
    assert Client().post(roll_url(ana), posted(ana, difficulty=1)).status_code == 200
    assert Roll.objects.get(character=ana).request["difficulty"] == 3


def test_the_gms_own_roll_leaves_the_ask_and_the_gm_takes_it_back(gm, gm_client, scripted_dice):
    campaign, ana, _guard = table(gm, Game.V5)
    ask(gm_client, ana, difficulty="3")
    scripted_dice(7, 8, 2, 3, 4)
    assert gm_client.post(reverse("roll", args=[campaign.pk]), posted(ana), HTTP_HX_REQUEST="true").status_code == 200
    assert fresh(ana).asked_difficulty == "3"  # the GM's roll is not the phone's
    response = ask(gm_client, ana, clear="1")
    assert response.status_code == 200 and "Asked:" not in response.content.decode()
    assert (fresh(ana).asked_difficulty, fresh(ana).asked_secret) == ("", False)


def test_an_ask_is_refused_without_a_link_or_with_a_wrong_difficulty(gm, gm_client):
    _campaign, ana, guard = table(gm, Game.V5)
    refused = ask(gm_client, guard, difficulty="3")
    assert refused.status_code == 422 and "phone link" in refused.content.decode()
    wrong = ask(gm_client, ana, difficulty="99")
    assert wrong.status_code == 422 and fresh(ana).asked_difficulty == ""
    _closed, bea, _ = table(gm, Game.EXALTED, players_roll=False)
    assert ask(gm_client, bea, difficulty="3").status_code == 422 and fresh(bea).asked_difficulty == ""
