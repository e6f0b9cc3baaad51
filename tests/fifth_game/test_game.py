"""The seam of issues 12 and 21: a fifth game, made from the tests alone and installed by its folder and one
line of settings (tests/fifth_game: a plain pool of d6s, 5+ succeeds, and a grit that pushes a roll), is
played through the table, the log and the player view with no change to the core.
"""

from __future__ import annotations

import itertools
import re
import pytest
from django.test import Client
from django.urls import reverse

from gmtools import games, services
from gmtools.models import Campaign, Character, Roll
from gmtools.formatting import percent
from tests.fifth_game import engine
from tests.fifth_game.game import GAME as D6
from tests.fifth_game.models import D6Resources

pytestmark = pytest.mark.django_db


@pytest.fixture
def rook(gm) -> Character:
    """Rook, Body 3, in a campaign of the fifth game."""
    campaign = Campaign.objects.create(name="Dice night", game=D6.id, gm=gm)
    character = Character.objects.create_with_sheet(campaign=campaign, name="Rook", player="Ana")
    character.traits.filter(key="body").update(rating=3)
    return character


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


def test_it_is_known_once_installed(gm):
    """Its app in INSTALLED_APPS (tests/fifth_game/settings.py) is all the registry needs, after the four."""
    assert games.get(D6.id) is D6
    assert [system.id for system in games.systems()] == ["exalted", "v5", "fate", "scifi", "d6pool"]


def test_a_gm_starts_a_campaign_of_it_from_the_home_page(gm_client):
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


# --- what it adds: its grit (its own table), a push (its own follow-up), its one-click changes -------------


def failed_roll(rook: Character, gm_client, scripted_dice) -> Roll:
    scripted_dice(1, 2, 5, 3, 4)  # one hit of two needed
    assert gm_client.post(reverse("roll", args=[rook.campaign_id]), roll_data(rook)).status_code == 200
    return Roll.objects.latest("id")


def grit(character: Character) -> int:
    return D6Resources.objects.get(pk=character.pk).grit


def test_a_push_rolls_the_misses_again_for_one_grit_once_and_a_void_gives_it_back(rook, gm, gm_client, scripted_dice):
    failed = failed_roll(rook, gm_client, scripted_dice)
    assert failed.outcome == "failure"
    page = gm_client.get(reverse("table", args=[rook.campaign_id])).content.decode()
    assert reverse("follow-up", args=[rook.campaign_id, failed.pk, "push"]) in page  # its card's own form
    scripted_dice(6, 1, 1, 1)  # the four misses (1, 2, 3, 4) again, in their places
    answer = gm_client.post(reverse("follow-up", args=[rook.campaign_id, failed.pk, "push"]))
    assert answer.status_code == 200
    pushed = Roll.objects.latest("id")
    assert (pushed.kind, pushed.parent, pushed.outcome) == ("push", failed, "success")
    assert pushed.result["main"]["faces"] == [6, 1, 5, 1, 1] and grit(rook) == 2
    assert pushed.spends == [{"what": "grit", "character": rook.pk, "aspect": None, "label": ""}]
    assert "Push" in answer.content.decode() and "1 grit" in answer.content.decode()  # its kind and its spend, in its words
    # Once per roll, as every follow-up: nothing written, nothing spent.
    again = gm_client.post(reverse("follow-up", args=[rook.campaign_id, failed.pk, "push"]))
    assert again.status_code == 422 and "already been followed up" in again.content.decode()
    assert grit(rook) == 2 and Roll.objects.count() == 2
    # Voided, the push gives its grit back.
    services.void_roll(pushed, gm)
    assert grit(rook) == 3


def test_no_grit_no_push(rook, gm_client, scripted_dice):
    D6Resources.objects.filter(pk=rook.pk).update(grit=0)
    failed = failed_roll(rook, gm_client, scripted_dice)
    page = gm_client.get(reverse("table", args=[rook.campaign_id])).content.decode()
    assert reverse("follow-up", args=[rook.campaign_id, failed.pk, "push"]) not in page  # not offered
    answer = gm_client.post(reverse("follow-up", args=[rook.campaign_id, failed.pk, "push"]))
    assert answer.status_code == 422 and "Rook has no grit left." in answer.content.decode()
    assert Roll.objects.count() == 1 and grit(rook) == 0


def test_another_games_follow_up_is_refused_in_its_words(rook, gm_client, scripted_dice):
    failed = failed_roll(rook, gm_client, scripted_dice)
    answer = gm_client.post(reverse("follow-up", args=[rook.campaign_id, failed.pk, "reroll"]), {"dice": ["0"]})
    assert answer.status_code == 422 and "Only a Vampire character" in answer.content.decode()
    assert Roll.objects.count() == 1


def test_its_grit_changes_in_one_click_within_its_bounds_and_is_undone(rook, gm_client):
    adjust = reverse("adjust", args=[rook.campaign_id, rook.pk])
    card = gm_client.post(adjust, {"action": "grit-spend"}).content.decode()
    assert 'data-resource="grit">2<' in card and grit(rook) == 2
    assert "Rook, Grit −1" in card  # the Undo button, in the game's words
    for _ in range(3):
        assert gm_client.post(adjust, {"action": "grit-regain"}).status_code == 200
    refused = gm_client.post(adjust, {"action": "grit-regain"})  # past its bound, 5
    assert refused.status_code == 422 and "Rook&#x27;s grit is full." in refused.content.decode() and grit(rook) == 5
    assert gm_client.post(reverse("undo", args=[rook.campaign_id])).status_code == 200
    assert grit(rook) == 4


def test_the_phone_shows_its_grit(rook):
    shown = Client().get(reverse("player", args=[rook.campaign.player_token])).content.decode()
    assert 'data-resource="grit">3<' in shown
