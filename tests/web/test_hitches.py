"""Issue 9, server side: refusals never replace the page, fragments stay fresh after a follow-up.

The browser side of each item (under the settings ``make run`` ships, both languages) is in
test_browser_hitches.py.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from gmtools import services
from gmtools.models import Character, ExtendedAction, Roll
from gmtools.sheets import Game
from tests.web.helpers import Faces
from tests.web.test_live import roll

pytestmark = pytest.mark.django_db


@pytest.fixture
def v5(make_character, set_ratings) -> Character:
    character = make_character(Game.V5, name="Bhavna", v5_hunger=1)
    set_ratings(character, strength=2, brawl=1, composure=2, resolve=2)
    return character


def test_a_refusal_is_a_422_that_the_debug_script_leaves_alone(v5, gm_client):
    # django-htmx's debug script (DEBUG on, as make run ships) replaces the page on 400/403/404/500.
    response = gm_client.post(reverse("time", args=[v5.campaign.pk]), {"do": "previous-turn"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 422
    assert response["HX-Retarget"] == "#table-messages" and response["HX-Reswap"] == "innerHTML"
    assert 'data-testid="refusal"' in response.content.decode() and "onclick" not in response.content.decode()


def test_a_reroll_answers_the_parent_card_without_its_reroll_form(v5, gm_client, scripted_dice):
    first = roll(v5.campaign, v5, (6, 2, 9))
    scripted_dice(8)
    response = gm_client.post(reverse("reroll", args=[v5.campaign.pk, first.pk]), {"dice": [1]})
    html = response.content.decode()
    assert response.status_code == 200
    tag = re.search(rf'<article[^>]*id="roll-{first.pk}"[^>]*>', html)
    assert tag and 'hx-swap-oob="true"' in tag.group(0)  # redrawn in place, out of band
    parent = html.split(tag.group(0), 1)[1].split("</article>", 1)[0]
    assert "reroll-form" not in parent


def test_an_extended_action_that_ends_leaves_the_composer(make_character, set_ratings, gm_client, scripted_dice):
    koi = make_character(Game.EXALTED, name="Koi")
    set_ratings(koi, dexterity=3, athletics=1)
    action = services.create_extended(koi.campaign, None, name="Climb", goal=2)
    other = services.create_extended(koi.campaign, None, name="Swim", goal=9)
    data = {"character": koi.pk, "first": koi.traits.get(key="dexterity").pk, "second": koi.traits.get(key="athletics").pk,
            "dice": 0, "modifier": 0, "difficulty": 1, "stunt": 0, "pool_from": "traits", "extended": action.pk}
    scripted_dice(7, 7, 2, 2)
    html = gm_client.post(reverse("roll", args=[koi.campaign.pk]), data).content.decode()
    assert ExtendedAction.objects.get(pk=action.pk).over
    select = re.search(r'<select name="extended"[^>]*hx-swap-oob="true"[^>]*>.*?</select>', html, re.S)
    assert select, html[:3000]
    assert f'value="{action.pk}"' not in select.group(0) and f'value="{other.pk}"' in select.group(0)


def test_a_roll_into_a_running_action_keeps_it_chosen(make_character, set_ratings, gm_client, scripted_dice):
    koi = make_character(Game.EXALTED, name="Koi")
    set_ratings(koi, dexterity=3, athletics=1)
    action = services.create_extended(koi.campaign, None, name="Climb", goal=20)
    data = {"character": koi.pk, "first": koi.traits.get(key="dexterity").pk, "second": koi.traits.get(key="athletics").pk,
            "dice": 0, "modifier": 0, "difficulty": 1, "stunt": 0, "pool_from": "traits", "extended": action.pk}
    scripted_dice(7, 2, 2, 2)
    html = gm_client.post(reverse("roll", args=[koi.campaign.pk]), data).content.decode()
    assert re.search(rf'<option value="{action.pk}" selected>', html)
    assert Roll.objects.get().extended_id == action.pk
