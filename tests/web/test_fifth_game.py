"""The seam of issue 12: a fifth game, made and registered from the tests alone (tests/fifth_game: a
plain pool of d6s, 5+ succeeds), is played through the table, the log and the player view with no
change to the core.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import reverse

from gmtools import games
from gmtools.models import Campaign, Character, Roll
from gmtools.formatting import percent
from tests.fifth_game import SYSTEM as D6
from tests.fifth_game import engine, registered

pytestmark = pytest.mark.django_db


@pytest.fixture
def rook(gm) -> Iterator[Character]:
    """Rook, Body 3, in a campaign of the fifth game, registered for the test."""
    with registered():
        campaign = Campaign.objects.create(name="Dice night", game=D6.id, gm=gm)
        character = Character.objects.create_with_sheet(campaign=campaign, name="Rook", player="Ana")
        character.traits.filter(key="body").update(rating=3)
        yield character


def roll_data(character: Character, **data) -> dict:
    """What the composer posts for the fifth game: the shared fields alone."""
    return {"character": character.pk, "first": character.traits.get(key="body").pk, "dice": 2, "modifier": 0,
            "difficulty": 2, **data}


@pytest.mark.parametrize("pool", range(6))
def test_the_fifth_games_odds_are_exact(pool):
    """Its engine, as the rules modules are, answers exact odds: here against every face of every die."""
    hits = [sum(face >= engine.HIT for face in faces) for faces in itertools.product(range(1, 7), repeat=pool)]
    for difficulty in range(pool + 2):
        expected = sum(h >= difficulty for h in hits) / len(hits)
        assert engine.odds(engine.Request(pool=pool, difficulty=difficulty)).p_success == pytest.approx(expected, abs=1e-12)


def test_it_is_known_only_while_registered(gm):
    with registered():
        assert games.get(D6.id) is D6
    with pytest.raises(KeyError):
        games.get(D6.id)
    assert [system.id for system in games.systems()] == ["exalted", "v5", "fate", "scifi"]


def test_a_gm_starts_a_campaign_of_it_from_the_home_page(gm_client):
    with registered():
        assert "D6 pool" in gm_client.get(reverse("home")).content.decode()  # offered by its own name
        response = gm_client.post(reverse("campaign-create"), {"name": "Dice night", "game": D6.id})
        assert response.status_code == 302
        assert Campaign.objects.get(name="Dice night").game == D6.id


def test_it_is_rolled_through_the_table_the_log_and_the_player_view(rook, gm_client, scripted_dice):
    campaign = rook.campaign
    table = gm_client.get(reverse("table", args=[campaign.pk]))
    assert table.status_code == 200
    page = table.content.decode()
    assert "Rook" in page and "D6 pool" in page

    # The odds of Body 3 + 2 dice against 2 successes: the engine's exact chance, on the panel.
    odds = gm_client.get(reverse("odds", args=[campaign.pk]), roll_data(rook)).content.decode()
    expected = engine.odds(engine.Request(pool=5, difficulty=2)).p_success
    assert percent(expected) in odds

    # The roll: five dice, a 5 and a 6 are two successes, the difficulty met.
    scripted_dice(5, 1, 6, 2, 3)
    answer = gm_client.post(reverse("roll", args=[campaign.pk]), roll_data(rook))
    assert answer.status_code == 200
    logged = Roll.objects.get()
    assert (logged.system, logged.character, logged.outcome) == (D6.id, rook, "success")
    assert logged.result["main"]["successes"] == 2 and logged.result["main"]["faces"] == [5, 1, 6, 2, 3]
    card = answer.content.decode()
    assert 'data-testid="verdict">Success<' in card
    # The card marks its successes: the faces of 5 or more.
    marked = re.findall(r'class="die([^"]*)" title="(\d+)"', card)
    assert [(int(face), "die-hit" in classes.split()) for classes, face in marked] == [
        (5, True), (1, False), (6, True), (2, False), (3, False)]

    # The log and the player view show the same card; the phone needs no account.
    log = gm_client.get(reverse("log", args=[campaign.pk])).content.decode()
    assert f'id="roll-{logged.pk}"' in log and 'data-testid="verdict">Success<' in log
    player = Client().get(reverse("player", args=[campaign.player_token]))
    assert player.status_code == 200
    shown = player.content.decode()
    assert f'id="roll-{logged.pk}"' in shown and 'data-testid="verdict">Success<' in shown and "Rook" in shown

    # A miss is the game's failure, in its words.
    scripted_dice(1, 2, 3, 4, 5)
    gm_client.post(reverse("roll", args=[campaign.pk]), roll_data(rook))
    assert Roll.objects.latest("id").outcome == "failure"
    assert 'data-testid="verdict">Failure<' in Client().get(reverse("player", args=[campaign.player_token])).content.decode()


@pytest.mark.parametrize("field", ["opponent_dice", "extended", "willpower", "stunt"])
def test_it_offers_nothing_it_does_not_have(rook, gm_client, make_character, field):
    """No opposition (its engine prices no contest), no extended actions, no spends: what Exalted offers."""
    def composer(character: Character) -> str:
        return gm_client.get(reverse("composer", args=[character.campaign_id]), {"character": character.pk}).content.decode()

    assert f'name="{field}"' in composer(make_character("exalted"))
    assert f'name="{field}"' not in composer(rook)
