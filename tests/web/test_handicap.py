"""Issue 11, item 12 on the table: an Exalted opposed roll's successes taken away (seed 000's drunk
guard, the composer's "Successes taken away") read on the roll's card, in words."""

from __future__ import annotations

import pytest
from django.urls import reverse

from gmtools import verdicts
from gmtools.models import Roll
from tests.games import Game
from tests.web.test_hitches import card_of, verdict_of

pytestmark = pytest.mark.django_db

# Koi's 1 3 5 7 8 8 (3 successes) against the guard's 3 6 8 9 (2): the seed's opposed roll.
FACES = (1, 3, 5, 7, 8, 8, 3, 6, 8, 9)


def _card(make_character, set_ratings, gm_client, scripted_dice, handicap: int, opponent: str = "Guard") -> tuple[str, Roll]:
    koi = make_character(Game.EXALTED, name="Koi")
    set_ratings(koi, dexterity=3, stealth=3)
    data = {"character": koi.pk, "first": koi.traits.get(key="dexterity").pk, "second": koi.traits.get(key="stealth").pk,
            "dice": 0, "modifier": 0, "pool_from": "traits", "stunt": 0, "difficulty": 1,
            "opponent_dice": 4, "opponent": opponent, "handicap": handicap}
    scripted_dice(*FACES)
    response = gm_client.post(reverse("roll", args=[koi.campaign.pk]), data)
    assert response.status_code == 200, response.content.decode()[:2000]
    logged = Roll.objects.get()
    return card_of(response.content.decode(), logged.pk), logged


def test_successes_taken_from_the_opposing_side_read_on_the_card(make_character, set_ratings, gm_client, scripted_dice):
    card, logged = _card(make_character, set_ratings, gm_client, scripted_dice, handicap=2)
    assert logged.result["opposed"] == {"net": 3, "winner": "first", "handicap": [0, 2]}
    assert verdict_of(card) == "Koi wins by 3"
    assert "<li>2 successes taken away from Guard</li>" in card
    assert "3 vs 0 successes" in card  # counted as the verdict counts them: the guard's 2 are gone
    assert "taken away from Koi" not in card
    # The table's page says it too, not only the answer to the roll.
    page = gm_client.get(reverse("table", args=[logged.campaign_id])).content.decode()
    assert "2 successes taken away from Guard" in card_of(page, logged.pk)


def test_a_success_taken_from_this_side_reads_in_the_singular(make_character, set_ratings, gm_client, scripted_dice):
    card, logged = _card(make_character, set_ratings, gm_client, scripted_dice, handicap=-1)
    assert logged.result["opposed"] == {"net": 0, "winner": "tie", "handicap": [1, 0]}
    assert "<li>1 success taken away from Koi</li>" in card
    assert "2 vs 2 successes" in card
    assert "Guard" not in card.split('class="small notes', 1)[1]


def test_an_unnamed_opposing_side_is_the_opposition(make_character, set_ratings, gm_client, scripted_dice):
    card, _ = _card(make_character, set_ratings, gm_client, scripted_dice, handicap=3, opponent="")
    assert "3 successes taken away from the opposition" in card


def test_the_other_side_winning_starts_with_a_capital(make_character, set_ratings, gm_client, scripted_dice):
    card, _ = _card(make_character, set_ratings, gm_client, scripted_dice, handicap=-3, opponent="")
    assert verdict_of(card) == "The opposition wins by 2"


def test_no_successes_taken_no_line(make_character, set_ratings, gm_client, scripted_dice):
    card, logged = _card(make_character, set_ratings, gm_client, scripted_dice, handicap=0)
    assert "handicap" not in logged.result["opposed"]
    assert "taken away" not in card
    assert not [n for n in verdicts.notes_shown(logged) if n["code"] == "successes_taken"]
