"""What a screen reader is given where the page draws instead of writing (issue 26, "Accessibility"):
a die's meaning, a V5 tracker's boxes, the phone's log as a live region. Their place in a browser
(and the keyboard's) is tests/web/test_browser_a11y.py; axe's rules, tests/web/test_browser_axe.py."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from gmtools import games
from tests.games import Game

pytestmark = pytest.mark.django_db


def words(game: str, result: dict) -> list[str]:
    return [die["words"] for die in games.get(game).play.card_dice(result)]


def test_each_die_says_what_it_is_in_its_game():
    assert words(Game.EXALTED, {"faces": [10, 7, 6, 1]}) == ["10, double", "7, success", "6, failure", "1, failure"]
    assert words(Game.V5, {"faces": [10, 6, 5], "hunger_faces": [10, 1]}) == [
        "10, critical", "6, success", "5, failure", "Hunger 10, critical", "Hunger 1, failure"]
    assert words(Game.SCIFI, {"faces": [10, 3], "explosions": [8]}) == ["10, success, one more die", "3, failure", "8, success"]
    assert words(Game.FATE, {"faces": [1, 0, -1, 1]}) == ["+1", "0", "−1", "+1"]
    with translation.override("es"):
        assert words(Game.V5, {"faces": [6], "hunger_faces": [1]}) == ["6, éxito", "Ansia 1, fallo"]
        assert words(Game.EXALTED, {"faces": [10]}) == ["10, doble"]


def test_a_v5_tracker_says_its_boxes_and_damage(make_character, set_ratings):
    koi = make_character(Game.V5, name="Koi", v5_health_superficial=2, v5_health_aggravated=1, v5_willpower_superficial=1)
    set_ratings(koi, stamina=2, composure=2, resolve=3)
    koi.refresh_from_db()
    assert koi.resources.health_words == "Health 5: 2 superficial, 1 aggravated"
    assert koi.resources.willpower_words == "Willpower 5: 1 superficial, 0 aggravated"
    with translation.override("es"):
        assert koi.resources.health_words == "Salud 5: superficial 2, agravado 1"
    # Both screens read it: the GM's card and the players' party card.
    phone = Client().get(reverse("player", args=[koi.campaign.player_token])).content.decode()
    assert 'data-resource="health" role="img" aria-label="Health 5: 2 superficial, 1 aggravated"' in phone


def test_a_fate_stress_track_says_which_boxes_are_checked(make_character):
    bo = make_character(Game.FATE, name="Bo", fate_stress_1=True, fate_stress_3=True)
    bo.refresh_from_db()
    assert bo.resources.stress_words == "Stress: 1, 3 checked"
    with translation.override("es"):
        assert bo.resources.stress_words == "Estrés: 1, 3 marcadas"
    phone = Client().get(reverse("player", args=[bo.campaign.player_token])).content.decode()
    assert 'data-resource="stress" role="img" aria-label="Stress: 1, 3 checked"' in phone
    bo.resources.stress_1 = bo.resources.stress_3 = False
    assert bo.resources.stress_words == "Stress: none checked"


def test_the_phones_log_is_a_polite_live_region(make_character):
    koi = make_character(Game.V5, name="Koi")
    html = Client().get(reverse("player", args=[koi.campaign.player_token])).content.decode()
    log = re.search(r'<div id="log-list"[^>]*>', html).group(0)
    assert 'role="log"' in log and 'aria-live="polite"' in log and 'aria-relevant="additions"' in log
