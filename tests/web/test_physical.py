"""Issue 24, "Physical dice", server side: "I rolled real dice" reads the faces the GM entered
exactly as drawn dice (compared with ``python -m rules roll ... --faces`` and with the same faces
scripted), refuses a wrong count, a face out of range or V5's Hunger dice wrongly split with
nothing written, grows scifi's entry with its explosions, and says "physical dice" on the card,
in the exports and on the luck page's fair-dice test. The browser side is
tests/web/test_browser_physical.py.
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from gmtools.formatting import percent
from gmtools.games.fate.models import FateState
from rules import fate
from gmtools.models import Roll
from tests.games import Game
from tests.web.helpers import compose_and_roll
from tests.web.test_roll_once import html, refusal, roll_data

ROOT = Path(__file__).resolve().parents[2]

# Per game: the composer's ratings (first, second), what else it posts, the CLI's arguments for
# that pool, and faces as entered (a d10's 0 is a 10) with what the rules read.
CASES = {
    Game.EXALTED: dict(ratings={"dexterity": 3, "melee": 2}, data={}, cli=["--pool", "5", "--difficulty", "1"],
                       entered="0 7 1 2 3", faces=[10, 7, 1, 2, 3]),
    Game.V5: dict(ratings={"strength": 3, "brawl": 2}, data={}, cli=["--pool", "5", "--hunger", "2", "--difficulty", "1"],
                  entered="0 6 2", hunger="10 1", faces=[10, 6, 2], hunger_faces=[10, 1]),
    Game.SCIFI: dict(ratings={"agility": 2, "firearms": 1}, data={},
                     cli=["--pool", "3", "--difficulty", "common", "--skill", "1"],
                     entered="0 4 2 0 7", faces=[10, 4, 2, 10, 7]),
    Game.FATE: dict(ratings={"forceful": 2}, data={}, cli=["--bonus", "2", "--difficulty", "0"],
                    entered="- 0 + +", faces=[-1, 0, 1, 1]),
}


def cli_roll(game: str, args: list[str], faces: list[int], hunger_faces: list[int] | None = None) -> dict:
    command = [sys.executable, "-m", "rules", "roll", game, *args, "--faces=" + ",".join(map(str, faces))]
    if hunger_faces is not None:
        command.append("--hunger-faces=" + ",".join(map(str, hunger_faces)))
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout)


@pytest.fixture
def character_of(make_character, set_ratings):
    def make(game: str):
        character = make_character(game, **({"v5_hunger": 2} if game == Game.V5 else {}))
        set_ratings(character, **CASES[game]["ratings"])
        return character
    return make


def post_physical(client, character, faces: str, hunger: str = "", **data):
    campaign = character.campaign
    posted = {**roll_data(campaign, character, **data), "physical": "on", "faces": faces, "hunger_faces": hunger}
    return client.post(reverse("roll", args=[campaign.pk]), posted, HTTP_HX_REQUEST="true")


def card_of(roll: Roll) -> dict:
    """What the card and the statistics read of a roll, without what differs by when it was made."""
    return {"main": roll.result["main"], "outcome": roll.outcome, "luck": roll.luck,
            **{k: v for k, v in roll.result.items() if k not in ("main", "physical")}}


@pytest.mark.django_db
@pytest.mark.parametrize("game", [Game.EXALTED, Game.V5, Game.SCIFI, Game.FATE])
def test_physical_faces_read_as_the_cli_and_as_drawn_dice(character_of, gm_client, game):
    case = CASES[game]
    character = character_of(game)
    response = post_physical(gm_client, character, case["entered"], case.get("hunger", ""))
    assert response.status_code == 200, html(response)[:800]
    physical = Roll.objects.get()
    assert physical.result["physical"] is True
    cli = cli_roll(game, case["cli"], case["faces"], case.get("hunger_faces"))
    main = physical.result["main"]
    assert {key: main[key] for key in cli if key != "system"} == {key: cli[key] for key in cli if key != "system"}
    # The same faces scripted give the same roll: result, outcome, luck.
    drawn = compose_and_roll(character.campaign, character, [*case["faces"], *case.get("hunger_faces", [])])
    assert "physical" not in drawn.result
    assert card_of(physical) == card_of(drawn)
    assert "physical dice" in html(response)


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "faces", "hunger", "said"), [
    (Game.EXALTED, "7 8 2 0", "", "Dice: enter 5 (4 given)"),
    (Game.EXALTED, "7 8 11 0 1", "", "Die 3: 11 is not a d10 face (1–10; 0 reads as 10)"),
    (Game.EXALTED, "7 8 x 0 1", "", "Die 3: x is not a d10 face (1–10; 0 reads as 10)"),
    # Every list that is wrong is named, each with its die (the walkthrough of issue 24, C3).
    (Game.V5, "7 8 2 0", "", "Dice: enter 3 (4 given); Hunger dice: enter 2 (0 given)"),
    (Game.V5, "7 8", "", "Dice: enter 3 (2 given); Hunger dice: enter 2 (0 given)"),
    (Game.V5, "7 8 2", "", "Hunger dice: enter 2 (0 given)"),
    (Game.V5, "7 x 2", "3 12", "Die 2: x is not a d10 face (1–10; 0 reads as 10); "
                               "Hunger die 2: 12 is not a d10 face (1–10; 0 reads as 10)"),
    (Game.V5, "7 8 2", "3", "Hunger dice: enter 2 (1 given)"),
    (Game.V5, "7 8 2", "3 12", "Hunger die 2: 12 is not a d10 face (1–10; 0 reads as 10)"),
    (Game.SCIFI, "0 4 2", "", "Dice: enter 4, 3 and 1 explosion (3 given)"),
    (Game.SCIFI, "0 4 2 0 7 1", "", "Dice: enter 5, 3 and 2 explosions (6 given)"),
    (Game.FATE, "+ + 0", "", "Dice: enter 4 (3 given)"),
    (Game.FATE, "+ + 2 0", "", "Die 3: 2 is not a Fate die face (−, 0, +)"),
])
def test_a_wrong_entry_is_refused_inline_and_nothing_is_written(character_of, gm_client, game, faces, hunger, said):
    character = character_of(game)
    before = character.resources.__class__.objects.filter(pk=character.resources.pk).values().get()
    response = post_physical(gm_client, character, faces, hunger,
                             **({"willpower": "on"} if game == Game.EXALTED else {}))
    assert refusal(response) == said
    assert not Roll.objects.exists()
    assert character.resources.__class__.objects.filter(pk=character.resources.pk).values().get() == before


@pytest.mark.django_db
def test_a_refusal_is_said_in_spanish(character_of, gm_client):
    character = character_of(Game.V5)
    gm_client.cookies["django_language"] = "es"
    assert refusal(post_physical(gm_client, character, "7 8 2", "3")) == "Dados de Ansia: introduce 2 (has puesto 1)"
    assert refusal(post_physical(gm_client, character, "7 8", "")) == \
        "Dados: introduce 3 (has puesto 2); Dados de Ansia: introduce 2 (has puesto 0)"
    scifi = character_of(Game.SCIFI)
    assert refusal(post_physical(gm_client, scifi, "0 4 2")) == "Dados: introduce 4, 3 y 1 de explosión (has puesto 3)"
    assert refusal(post_physical(gm_client, character, "7 11 2", "3 4")).startswith("Dado 2: 11 no es una cara de d10")


@pytest.mark.django_db
def test_scifi_explosions_are_read_as_they_came(character_of, gm_client):
    """Each 10 asks for one more die, and a 10 on that one asks again: 3 dice, then 2 explosions."""
    character = character_of(Game.SCIFI)
    assert post_physical(gm_client, character, "0 4 2 10 7").status_code == 200
    main = Roll.objects.get().result["main"]
    assert (main["faces"], main["explosions"], main["successes"]) == ([10, 4, 2], [10, 7], 3)


@pytest.mark.django_db
def test_a_shortcut_throws_no_dice_and_says_so(character_of, gm_client):
    character = character_of(Game.V5)
    said = refusal(post_physical(gm_client, character, "7 8 2", "3 4", shortcut="take_half"))
    assert said == "This roll throws no dice: untick “I rolled real dice”."
    assert not Roll.objects.exists()


@pytest.mark.django_db
def test_fate_physical_dice_take_no_card_from_the_deck(character_of, gm_client):
    character = character_of(Game.FATE)
    FateState.objects.filter(pk=character.campaign.pk).update(uses_deck=True)
    assert post_physical(gm_client, character, "+ + 0 -").status_code == 200
    roll = Roll.objects.get()
    assert "card" not in roll.result and roll.result["main"]["faces"] == [1, 1, 0, -1]
    assert FateState.objects.get(pk=character.campaign.pk).deck == []  # never shuffled: nothing drawn


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "typed", "faces"), [
    (Game.FATE, "-0++", [-1, 0, 1, 1]), (Game.FATE, "−0 +1 +", [-1, 0, 1, 1]), (Game.EXALTED, "07123", [10, 7, 1, 2, 3]),
    (Game.EXALTED, "0 7 123", [10, 7, 1, 2, 3]), (Game.V5, "062", [10, 6, 2])])
def test_faces_typed_without_separators_are_a_die_each(character_of, gm_client, game, typed, faces):
    """As the card writes them ("dice --0+"): the walkthrough of issue 24 typed "--0+" and "78201" and
    was refused with one die given."""
    character = character_of(game)
    assert post_physical(gm_client, character, typed, CASES[game].get("hunger", "")).status_code == 200
    assert Roll.objects.get().result["main"]["faces"] == faces


@pytest.mark.django_db
def test_ticked_the_fate_odds_are_the_dices_not_the_decks(character_of, gm_client):
    """The walkthrough of issue 24: with the deck on, the odds beside a real-dice roll were the deck's
    (61.3% with 80 cards left) while its card said the dice's (61.7%): ticked, the odds are the dice's."""
    character = character_of(Game.FATE)
    FateState.objects.filter(pk=character.campaign.pk).update(uses_deck=True, deck=list(range(0, 81, 2)))
    url = reverse("odds", args=[character.campaign.pk])
    data = roll_data(character.campaign, character)
    deck, thrown = (html(gm_client.get(url, {**data, **ticked})) for ticked in ({}, {"physical": "on"}))
    assert "cards left in the Fate deck" in deck and "cards left in the Fate deck" not in thrown
    dice = fate.odds(fate.Request(bonus=2))
    assert f">{percent(dice.p_success)}<" in thrown and f">{percent(dice.p_success)}<" not in deck


@pytest.mark.django_db
def test_a_secret_roll_and_its_key_work_with_physical_dice(character_of, gm_client):
    character = character_of(Game.EXALTED)
    response = post_physical(gm_client, character, "0 7 1 2 3", hidden="on", once="6f1c1d2e-0000-4000-8000-000000000001")
    assert response.status_code == 200
    roll = Roll.objects.get()
    assert roll.hidden and roll.result["physical"]
    again = post_physical(gm_client, character, "0 7 1 2 3", once="6f1c1d2e-0000-4000-8000-000000000001")
    assert "already made" in refusal(again) and Roll.objects.count() == 1


@pytest.mark.django_db
def test_unticked_the_faces_typed_are_ignored_and_the_dice_drawn(character_of, gm_client, scripted_dice):
    character = character_of(Game.EXALTED)
    scripted_dice(1, 2, 3, 4, 5)
    posted = {**roll_data(character.campaign, character), "faces": "0 0 0 0 0"}
    assert gm_client.post(reverse("roll", args=[character.campaign.pk]), posted).status_code == 200
    roll = Roll.objects.get()
    assert roll.result["main"]["faces"] == [1, 2, 3, 4, 5] and "physical" not in roll.result


@pytest.mark.django_db
def test_the_exports_say_physical_dice(character_of, gm_client):
    character = character_of(Game.V5)
    assert post_physical(gm_client, character, "0 6 2", "10 1").status_code == 200
    compose_and_roll(character.campaign, character, [1, 2, 3, 4, 5])
    url = reverse("export", args=[character.campaign.pk])
    markdown = gm_client.get(url, {"part": "campaign", "format": "md"}).content.decode()
    assert markdown.count("(physical dice)") == 1
    assert "`10 6 2 | " in markdown.split("(physical dice)")[0].splitlines()[-1]  # on the physical roll's line
    text = gm_client.get(url, {"part": "campaign", "format": "csv"}).content.decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert sorted(row["thrown"] for row in rows) == ["drawn", "physical"]
    gm_client.cookies["django_language"] = "es"
    assert "(dados físicos)" in gm_client.get(url, {"part": "campaign", "format": "md"}).content.decode()


@pytest.mark.django_db
def test_the_fair_dice_test_reports_physical_and_drawn_dice_apart(character_of, gm_client):
    character = character_of(Game.EXALTED)
    compose_and_roll(character.campaign, character, [4, 4, 4, 4, 4])
    page = html(gm_client.get(reverse("luck", args=[character.campaign.pk])))
    assert ">5 d10s: " in page and "Physical dice" not in page and "tested apart" not in page  # all drawn: as before
    for _ in range(3):
        assert post_physical(gm_client, character, "0 7 1 2 3", once="").status_code == 200
    page = html(gm_client.get(reverse("luck", args=[character.campaign.pk])))
    assert "Physical dice, 15 d10s" in page
    assert "Drawn by the server, 5 d10s" in page
    assert "are tested apart from those the server draws" in page
    gm_client.cookies["django_language"] = "es"
    page = html(gm_client.get(reverse("luck", args=[character.campaign.pk])))
    assert "Dados físicos, 15 d10" in page


@pytest.mark.django_db
def test_the_opposition_is_drawn_and_tested_as_drawn(character_of, gm_client, scripted_dice):
    """Physical dice are the acting side's (README, Decisions): an unnamed opposition's 3 dice are
    drawn by the server, and the fair-dice test counts them among the drawn dice."""
    character = character_of(Game.EXALTED)
    scripted_dice(8, 8, 1)
    assert post_physical(gm_client, character, "0 7 1 2 3", opponent_dice=3).status_code == 200
    roll = Roll.objects.get()
    assert roll.result["main"]["faces"] == [10, 7, 1, 2, 3] and roll.result["opponent"]["faces"] == [8, 8, 1]
    assert roll.result["opposed"]["winner"] == "first"  # 3 successes against 2
    page = html(gm_client.get(reverse("luck", args=[character.campaign.pk])))
    assert "Physical dice, 5 d10s" in page and "Drawn by the server, 3 d10s" in page
