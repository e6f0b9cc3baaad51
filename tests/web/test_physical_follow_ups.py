"""Issue 24, physical dice after the roll: a roll thrown at the table is followed up at the table.
V5's Willpower reroll and Fate's invocation to reroll of a roll entered from real dice ask for the
new dice's faces (the GM's card and the player's phone alike), read them as the engine would draw
them, say "physical dice" and count them as physical on the luck page; a wrong entry is refused with
nothing spent. V5's rouse check takes its die's face when the composer's "I rolled real dice" is
ticked (static/physical.js asks for it: tests/web/test_browser_physical.py)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from gmtools.games.fate.models import Aspect
from gmtools.models import Character, Roll
from tests.games import Game
from tests.web.test_physical import CASES, character_of, post_physical  # noqa: F401 (a fixture)
from tests.web.test_player_rolls import follow_up_url, posted, roll_url, table
from tests.web.test_roll_once import html, roll_data

pytestmark = pytest.mark.django_db


def physical_roll(gm_client, character: Character) -> Roll:
    case = CASES[character.campaign.game]
    assert post_physical(gm_client, character, case["entered"], case.get("hunger", "")).status_code == 200
    return Roll.objects.filter(character=character).latest("id")


def follow_up(client, roll: Roll, kind: str, **data):
    return client.post(reverse("follow-up", args=[roll.campaign_id, roll.pk, kind]), data, HTTP_HX_REQUEST="true")


def willpower(character: Character) -> int:
    return Character.objects.get(pk=character.pk).resources.willpower_superficial


def test_a_physical_v5_roll_is_rerolled_with_the_faces_entered(character_of, gm_client, scripted_dice):
    ana = character_of(Game.V5)
    roll = physical_roll(gm_client, ana)  # normal dice 10 6 2, Hunger dice 10 1
    card = gm_client.get(reverse("table", args=[ana.campaign_id])).content.decode()
    assert 'data-testid="follow-up-faces"' in card  # the reroll's form asks for the new faces
    before = willpower(ana)
    scripted_dice(1, 1)  # what the server would have drawn: never read
    response = follow_up(gm_client, roll, "reroll", dice=["1", "2"], physical="on", faces="9 0")
    assert response.status_code == 200, response.content[:500]
    reroll = Roll.objects.get(parent=roll, kind="reroll")
    assert reroll.main["faces"] == [10, 9, 10] and reroll.main["hunger_faces"] == [10, 1]
    assert reroll.result["physical"] is True
    assert willpower(ana) == before + 1


@pytest.mark.parametrize("faces, said", [("9", "Dice: enter 2 (1 given)"), ("9 0 4", "Dice: enter 2 (3 given)"),
                                         ("9 11", "Die 2: 11 is not a d10 face")])
def test_a_wrong_reroll_entry_is_refused_and_nothing_is_spent(character_of, gm_client, faces, said):
    ana = character_of(Game.V5)
    roll = physical_roll(gm_client, ana)
    before = willpower(ana)
    response = follow_up(gm_client, roll, "reroll", dice=["1", "2"], physical="on", faces=faces)
    assert response.status_code == 422 and said in response.content.decode()
    assert not Roll.objects.filter(parent=roll).exists() and willpower(ana) == before


def test_a_drawn_roll_is_rerolled_drawn(character_of, gm_client, scripted_dice):
    ana = character_of(Game.V5)
    scripted_dice(7, 8, 2, 3, 4)
    assert gm_client.post(reverse("roll", args=[ana.campaign_id]), roll_data(ana.campaign, ana),
                          HTTP_HX_REQUEST="true").status_code == 200
    roll = Roll.objects.filter(character=ana).latest("id")
    assert 'data-testid="follow-up-faces"' not in gm_client.get(reverse("table", args=[ana.campaign_id])).content.decode()
    scripted_dice(9)
    assert follow_up(gm_client, roll, "reroll", dice=["0"]).status_code == 200
    reroll = Roll.objects.get(parent=roll, kind="reroll")
    assert reroll.main["faces"][0] == 9 and "physical" not in reroll.result


def test_a_fate_invocation_rerolls_the_faces_entered_and_its_bonus_asks_for_none(character_of, gm_client):
    ana = character_of(Game.FATE)
    aspect = Aspect.objects.create(character=ana, kind="high_concept", text="Daring pilot", free_invocations=2)
    roll = physical_roll(gm_client, ana)  # − 0 + +
    refused = follow_up(gm_client, roll, "invoke", aspect=aspect.pk, mode="reroll", physical="on", faces="+ +")
    assert refused.status_code == 422 and "Dice: enter 4 (2 given)" in refused.content.decode()
    assert Aspect.objects.get(pk=aspect.pk).free_invocations == 2  # nothing paid
    response = follow_up(gm_client, roll, "invoke", aspect=aspect.pk, mode="reroll", physical="on", faces="++0-")
    assert response.status_code == 200, response.content[:500]
    invoked = Roll.objects.get(parent=roll, kind="invoke")
    assert invoked.main["faces"] == [1, 1, 0, -1] and invoked.result["physical"] is True
    assert Aspect.objects.get(pk=aspect.pk).free_invocations == 1


def test_a_fate_bonus_on_a_physical_roll_throws_nothing(character_of, gm_client):
    ana = character_of(Game.FATE)
    aspect = Aspect.objects.create(character=ana, kind="high_concept", text="Daring pilot", free_invocations=1)
    roll = physical_roll(gm_client, ana)
    response = follow_up(gm_client, roll, "invoke", aspect=aspect.pk, mode="bonus", physical="on", faces="")
    assert response.status_code == 200, response.content[:500]
    invoked = Roll.objects.get(parent=roll, kind="invoke")
    assert invoked.main["faces"] == roll.main["faces"]
    assert invoked.result["physical"] is True  # the dice it shows are the table's: its own invocation asks for faces


@pytest.mark.parametrize("face, hunger", [("3", 3), ("0", 2)])  # 1–5 fails (Hunger +1); a 0 is a 10
def test_a_rouse_check_reads_the_face_thrown(character_of, gm_client, face, hunger):
    ana = character_of(Game.V5)  # Hunger 2
    response = gm_client.post(reverse("check", args=[ana.campaign_id, ana.pk, "rouse"]),
                              {"physical": "on", "faces": face}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200, response.content[:500]
    check = Roll.objects.get(character=ana, kind="rouse")
    assert check.main["faces"] == [int(face) or 10] and check.result["physical"] is True
    assert Character.objects.get(pk=ana.pk).resources.hunger == hunger
    assert 'data-testid="physical-mark"' in response.content.decode()


def test_a_rouse_check_with_two_faces_is_refused_and_hunger_stays(character_of, gm_client):
    ana = character_of(Game.V5)
    response = gm_client.post(reverse("check", args=[ana.campaign_id, ana.pk, "rouse"]),
                              {"physical": "on", "faces": "3 4"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 422 and "Dice: enter 1 (2 given)" in response.content.decode()
    assert not Roll.objects.filter(character=ana).exists()
    assert Character.objects.get(pk=ana.pk).resources.hunger == 2


def test_a_player_rerolls_their_physical_roll_from_the_phone(gm, scripted_dice):
    _campaign, ana, _guard = table(gm, Game.V5)
    phone = Client()
    response = phone.post(roll_url(ana), {**posted(ana), "physical": "on", "faces": "7 8 2 3", "hunger_faces": "4"})
    assert response.status_code == 200, response.content[:500]
    roll = Roll.objects.filter(character=ana).latest("id")
    assert roll.result["physical"] is True  # thrown at the table, from the phone
    page = phone.get(reverse("player", args=[ana.player_token])).content.decode()
    assert 'data-testid="follow-up-faces"' in page
    response = phone.post(follow_up_url(ana, roll, "reroll"), {"dice": ["2"], "physical": "on", "faces": "0"})
    assert response.status_code == 200, response.content[:500]
    reroll = Roll.objects.get(parent=roll, kind="reroll")
    assert reroll.main["faces"][2] == 10 and reroll.result["physical"] is True


def test_the_fair_dice_test_counts_a_physical_reroll_as_physical(character_of, gm_client, scripted_dice):
    ana = character_of(Game.V5)
    roll = physical_roll(gm_client, ana)  # 3 normal dice and 2 Hunger dice, thrown
    assert follow_up(gm_client, roll, "reroll", dice=["1", "2"], physical="on", faces="9 0").status_code == 200
    page = html(gm_client.get(reverse("luck", args=[ana.campaign_id])))
    assert "Physical dice, 7 d10s" in page  # the reroll's 2 new dice with the roll's 5
    assert "Drawn by the server" not in page
