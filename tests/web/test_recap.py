"""The roll log exported (gmtools.recap): the Markdown session recap and CSV, and their two views.

- The GM's ``export`` view (login, owner only): ``part`` is ``campaign``, ``episode-<id>`` or
  ``scene-<id>`` of this campaign, ``format`` is ``md`` or ``csv``; anything else is a 400 that
  says why. The players' ``player-recap`` view (no login, the campaign's player token) is
  Markdown only, 404 for a part it does not know or an old token.
- Markdown: one heading per scene in order, rolls oldest first, the faces as rolled, the verdict
  in the game's words (in Spanish too), spends and opposed results.
- Secrets: the GM sees a secret roll marked; the players never see it until it is revealed, and
  never see the verdict or margin of a secret difficulty.
- User text is escaped for Markdown and neutralised for spreadsheets in CSV.

Rolls go through a real ``ComposerForm`` and ``services.record_roll`` with scripted dice
(``Faces``); every expected face, count and verdict below is worked out from those faces by the
game's rules, never copied from the module's output.
"""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.conf import settings
from django.shortcuts import resolve_url
from django.test import Client
from django.urls import reverse

from gmtools import services, throttle
from gmtools.composer import ComposerForm
from gmtools.games.exalted.models import ExaltedResources
from gmtools.games.fate.models import Aspect
from gmtools.models import Campaign, Character, Roll, Scene
from tests.games import Game
from rules import luck
from tests.web.helpers import COMMON, DEFAULTS, POOL_TRAITS, Faces

pytestmark = pytest.mark.django_db

# The CSV's columns, in order: one row per roll. English in every language, a new one appended at the end.
HEADER = ["id", "when", "story", "episode", "scene", "turn", "who", "what", "kind", "dice", "result",
          "successes", "margin", "details", "secret", "revealed", "voided", "thrown", "rolled_by"]

EVIL = "**@everyone** [x](http://evil) <script>"
# The same name with what Markdown (and Discord) would act on mid-line backslash-escaped: emphasis,
# link brackets, HTML and the mention. Parentheses without brackets make no link and stay as typed.
EVIL_ESCAPED = r"\*\*\@everyone\*\* \[x\](http://evil) \<script\>"


# --- making rolls ------------------------------------------------------------------------------


def form_data(character: Character, **data) -> dict:
    game = character.campaign.game
    first, second = POOL_TRAITS[game]
    out = {**COMMON, **DEFAULTS[game], "character": character.pk, "first": character.traits.get(key=first).pk}
    if second:
        out["second"] = character.traits.get(key=second).pk
    return {**out, **data}


def roll(character: Character, scene: Scene | None, faces: tuple[int, ...], **data) -> Roll:
    """Compose a roll as the table does and roll it with exactly these faces."""
    form = ComposerForm(character.campaign, form_data(character, **data), scene=scene)
    assert form.is_valid(), form.errors
    dice = Faces(*faces)
    logged = services.record_roll(character.campaign, form.cleaned_data["composition"], dice)
    assert dice.spent, f"unused faces {dice.faces}"
    return Roll.objects.get(pk=logged.pk)


def scene_of(campaign: Campaign, title: str, new_episode: bool = False) -> Scene:
    if new_episode:
        services.start_episode(campaign)
    scene = services.start_scene(campaign, title=title)
    return Scene.objects.select_related("episode__story").get(pk=scene.pk)


def v5_faces(normal: tuple[int, ...], hunger: tuple[int, ...]) -> str:
    """How a V5 roll's dice read: the normal dice, then the hunger dice after "hunger"."""
    return " ".join(map(str, normal)) + " | hunger " + " ".join(map(str, hunger))


# --- reading the exports -----------------------------------------------------------------------


def export(client: Client, campaign: Campaign, part: str = "campaign", fmt: str = "md", **headers):
    return client.get(reverse("export", args=[campaign.pk]), {"part": part, "format": fmt}, **headers)


def recap(campaign: Campaign, part: str | None = None, token: str | None = None, **headers):
    params = {"part": part} if part is not None else {}
    return Client().get(reverse("player-recap", args=[token or campaign.player_token]), params, **headers)


def body(response) -> str:
    assert response.status_code == 200, (response.status_code, response.content[:500])
    return response.content.decode()


def entry(text: str, needle: str) -> str:
    """The one roll line (a top-level list item) that contains ``needle``."""
    lines = [line for line in text.splitlines() if line.startswith("- ") and needle in line]
    assert len(lines) == 1, (needle, text)
    return lines[0]


def entry_with_details(text: str, needle: str) -> str:
    """The roll line with ``needle`` and the indented detail lines under it."""
    lines = text.splitlines()
    start = lines.index(entry(text, needle))
    end = start + 1
    while end < len(lines) and lines[end].startswith("  - "):
        end += 1
    return "\n".join(lines[start:end])


def headings(text: str) -> list[str]:
    return [line[3:] for line in text.splitlines() if line.startswith("## ")]


def rows(response) -> list[list[str]]:
    assert response.status_code == 200, (response.status_code, response.content[:500])
    assert response["Content-Type"].startswith("text/csv")
    table = list(csv.reader(io.StringIO(response.content.decode())))
    assert table[0] == HEADER
    assert all(len(row) == len(HEADER) for row in table)
    return table[1:]


def as_dicts(response) -> list[dict[str, str]]:
    return [dict(zip(HEADER, row, strict=True)) for row in rows(response)]


@pytest.fixture(autouse=True)
def no_export_limit(monkeypatch):
    """These tests export a dozen times in a row from one address: the limit has tests of its own
    (test_export_cache.py)."""
    monkeypatch.setattr(throttle, "EXPORTS_PER_ADDRESS", 1000)


# --- the table ---------------------------------------------------------------------------------


@pytest.fixture
def kindred(make_character, set_ratings) -> Character:
    """A V5 PC rolling 5 dice (Strength 3 + Brawl 2), 2 of them hunger dice (Hunger 2)."""
    character = make_character(Game.V5, name="Ana", v5_hunger=2)
    set_ratings(character, strength=3, brawl=2, composure=2, resolve=2)
    return character


@pytest.fixture
def solar(make_character, set_ratings) -> Character:
    """An Exalted PC rolling 3 dice (Dexterity 2 + Melee 1), with Willpower to spend."""
    character = make_character(Game.EXALTED, name="Jade", exalted_willpower=5, exalted_willpower_temporary=5)
    set_ratings(character, dexterity=2, melee=1)
    return character


@pytest.fixture
def rebel(make_character, set_ratings) -> Character:
    """A scifi PC rolling 3 dice (Agility 2 + Firearms 1)."""
    character = make_character(Game.SCIFI, name="Kay")
    set_ratings(character, agility=2, firearms=1)
    return character


@pytest.fixture
def hero(make_character, set_ratings) -> Character:
    """A Fate PC with Forceful +2, 3 fate points and an aspect without free invocations."""
    character = make_character(Game.FATE, name="Bo", fate_points=3)
    set_ratings(character, forceful=2)
    Aspect.objects.create(character=character, text="Strong as an ox")
    return character


@pytest.fixture
def three_scenes(kindred) -> dict[str, Scene]:
    """Story 1: episode 1 with scenes 1 and 2, episode 2 with scene 1; two rolls in the first scene."""
    campaign = kindred.campaign
    docks = scene_of(campaign, "The docks")
    roll(kindred, docks, (6, 2, 3, 4, 5), label="Climb the crane")
    roll(kindred, docks, (7, 2, 3, 4, 5), label="Punch the guard")
    warehouse = scene_of(campaign, "The warehouse")
    roll(kindred, warehouse, (8, 2, 3, 4, 5), label="Force the door")
    aftermath = scene_of(campaign, "Aftermath", new_episode=True)
    roll(kindred, aftermath, (9, 2, 3, 4, 5), label="Bandage the arm")
    return {"docks": docks, "warehouse": warehouse, "aftermath": aftermath}


# --- Markdown: order, faces, verdicts ----------------------------------------------------------


def test_markdown_has_a_heading_per_scene_in_order_and_the_rolls_oldest_first(gm_client, kindred, three_scenes):
    text = body(export(gm_client, kindred.campaign))
    assert headings(text) == ["Story 1 · Episode 1 · Scene 1: The docks",
                              "Story 1 · Episode 1 · Scene 2: The warehouse",
                              "Story 1 · Episode 2 · Scene 1: Aftermath"]
    lines = text.splitlines()
    at = {needle: lines.index(entry(text, needle)) for needle in
          ("Climb the crane", "Punch the guard", "Force the door", "Bandage the arm")}
    heading_at = [lines.index(f"## {h}") for h in headings(text)]
    # Each roll under its own scene's heading, oldest first.
    assert heading_at[0] < at["Climb the crane"] < at["Punch the guard"] < heading_at[1]
    assert heading_at[1] < at["Force the door"] < heading_at[2] < at["Bandage the arm"]
    assert lines[0] == f"# {kindred.campaign.name} — The whole campaign"
    # The faces as rolled: 3 normal dice, then the 2 hunger dice.
    assert f"`{v5_faces((6, 2, 3), (4, 5))}`" in entry(text, "Climb the crane")
    assert "**Ana**" in entry(text, "Climb the crane")


def test_v5_messy_critical_shows_the_hunger_dice_and_the_count(gm_client, kindred):
    scene = scene_of(kindred.campaign, "Feeding")
    # Normal 10 3 6, hunger 10 2: the pair of 10s scores 4, the 6 one more: 5 successes against
    # difficulty 1, a critical with a 10 on a hunger die: messy.
    roll(kindred, scene, (10, 3, 6, 10, 2), label="Tear the throat")
    line = entry(body(export(gm_client, kindred.campaign)), "Tear the throat")
    assert f"`{v5_faces((10, 3, 6), (10, 2))}`" in line
    assert "**Messy critical (5 successes · margin +4)**" in line


def test_v5_opposed_roll_says_who_won_and_by_how_much(gm_client, kindred):
    scene = scene_of(kindred.campaign, "Alley")
    # Ana: normal 6 7 2, hunger 3 5 → 2 successes; the guard's 2 dice 9 1 → 1 success: Ana by 1.
    roll(kindred, scene, (6, 7, 2, 3, 5, 9, 1), label="Shove", opponent_dice=2, opponent="Night guard")
    details = entry_with_details(body(export(gm_client, kindred.campaign)), "Shove")
    # One verdict, the contest's, never the difficulty's beside it.
    assert f"**{kindred.name} wins by 1 (2 vs 1 successes)**" in details.splitlines()[0]
    assert "  - vs Night guard: 9 1" in details.splitlines()
    assert "Win" not in details and "margin" not in details
    # And the other way round: 1 success against the guard's 4 (10 10: a pair scores 4).
    roll(kindred, scene, (6, 2, 2, 3, 5, 10, 10), label="Shove again", opponent_dice=2, opponent="Night guard")
    details = entry_with_details(body(export(gm_client, kindred.campaign)), "Shove again")
    assert "**Night guard wins by 3 (1 vs 4 successes)**" in details.splitlines()[0]
    assert "  - vs Night guard: 10 10" in details.splitlines()


def test_exalted_botch_and_a_willpower_spend(gm_client, solar):
    scene = scene_of(solar.campaign, "Duel")
    # 1 3 5: no success and a 1, a botch of one 1.
    roll(solar, scene, (1, 3, 5), label="Parry")
    # 7 10 2 with Willpower: 1 + 2 successes + 1 for Willpower = 4 against difficulty 1.
    roll(solar, scene, (7, 10, 2), label="Riposte", willpower="on", reflexive="on")
    text = body(export(gm_client, solar.campaign))
    parry = entry(text, "Parry")
    assert "`1 3 5`" in parry and "**Botch (1 one) (0 successes" in parry
    riposte = entry_with_details(text, "Riposte")
    assert "`7 10 2`" in riposte and "**Success (4 successes · margin +3)**" in riposte
    assert "  - Spent: 1 Willpower" in riposte.splitlines()


def test_a_stunt_reward_says_what_was_regained_in_either_language(gm_client, solar):
    ExaltedResources.objects.filter(character=solar).update(motes_max=10)
    scene = scene_of(solar.campaign, "Rooftops")
    # 3 dice and 2 stunt dice: 8 2 3 4 5 is 1 success, a success, so the 2-die stunt earns 2 motes.
    stunted = roll(solar, scene, (8, 2, 3, 4, 5), label="Leap", stunt=2)
    services.follow_up(stunted, "reward", choice="motes")
    # A line under its roll's (issue 23: one entry per roll, its follow-ups under it).
    reward = [line for line in body(export(gm_client, solar.campaign)).splitlines() if "Stunt reward" in line]
    assert len(reward) == 1 and reward[0].startswith("  - ") and reward[0].endswith("**Regained 2 motes**")
    spanish = body(export(gm_client, solar.campaign, HTTP_ACCEPT_LANGUAGE="es"))
    assert "**Recupera 2 motas**" in spanish


def test_scifi_explosions_follow_the_arrow(gm_client, rebel):
    scene = scene_of(rebel.campaign, "Boarding")
    # Pool 10 4 2; the 10 explodes into an 8: 2 successes against Common (1), one over: clean.
    roll(rebel, scene, (10, 4, 2, 8), label="Shoot the lock")
    line = entry(body(export(gm_client, rebel.campaign)), "Shoot the lock")
    assert "`10 4 2 → 8`" in line
    assert "**Clean success (2 successes · margin +1)**" in line


def test_fate_faces_read_minus_zero_plus_and_an_invoked_aspect_is_spent(gm_client, hero):
    scene = scene_of(hero.campaign, "Bridge")
    # − 0 + + is +1, with Forceful +2: total 3 against Mediocre (0), 3 shifts: with style.
    roll(hero, scene, (-1, 0, 1, 1), label="Hold the bridge")
    aspect = hero.aspects.get()
    # − − 0 0 is −2, Forceful +2 and the invoked aspect +2: total 2, 2 shifts; paid with a fate point.
    roll(hero, scene, (-1, -1, 0, 0), label="Lift the cart", invoke=[aspect.pk])
    text = body(export(gm_client, hero.campaign))
    line = entry(text, "Hold the bridge")
    assert "`− 0 + +`" in line
    assert "**Success with style (total +3 · shifts +3)**" in line
    cart = entry_with_details(text, "Lift the cart")
    assert "`− − 0 0`" in cart and "**Success (total +2 · shifts +2)**" in cart
    assert "  - Spent: 1 fate point (Strong as an ox)" in cart.splitlines()  # what paid for it, and for what


def test_the_opponents_dice_read_as_the_games_own(gm_client, rebel, hero):
    """The "vs" line writes the opponent's dice as the roll's: Fate's − 0 +, a scifi explosion's arrow."""
    scene = scene_of(rebel.campaign, "Ambush")
    # Kay's 7 3 2: 1 success; the drone's 2 dice 10 4, the 10 exploding into a 6: 1 success too.
    roll(rebel, scene, (7, 3, 2, 10, 4, 6), label="Duck the drone", opponent_dice=2, opponent="Drone")
    details = entry_with_details(body(export(gm_client, rebel.campaign)), "Duck the drone")
    assert "  - vs Drone: 10 4 → 6" in details.splitlines()
    scene = scene_of(hero.campaign, "Gate")
    # Bo's 0 0 0 0 with Forceful +2: +2; the ogre's + − 0 + with its +1: +2.
    roll(hero, scene, (0, 0, 0, 0, 1, -1, 0, 1), label="Push the gate", opponent_dice=1, opponent="Ogre")
    details = entry_with_details(body(export(gm_client, hero.campaign)), "Push the gate")
    assert "  - vs Ogre: + − 0 +" in details.splitlines()


def test_a_willpower_reroll_follows_its_roll_with_its_kind(gm_client, kindred):
    scene = scene_of(kindred.campaign, "Chase")
    first = roll(kindred, scene, (2, 3, 4, 6, 5), label="Sprint")
    services.follow_up(first, "reroll", Faces(8, 9), dice=[0, 1])
    text = body(export(gm_client, kindred.campaign))
    lines = [line for line in text.splitlines() if line.startswith("- ") and "Sprint" in line]
    # One entry for the roll (issue 23), with the dice and the result its reroll made of it.
    assert len(lines) == 1 and "Willpower reroll" not in lines[0]
    assert f"`{v5_faces((8, 9, 4), (6, 5))}`" in lines[0] and "**Win" in lines[0]
    # The reroll under it: the first two normal dice rolled again as 8 and 9, the third and the hunger dice kept,
    # its Willpower spent in words, never as the stored key.
    reroll = [line for line in entry_with_details(text, "Sprint").splitlines() if "Willpower reroll" in line]
    assert len(reroll) == 1 and f"`{v5_faces((8, 9, 4), (6, 5))}`" in reroll[0] and "Spent: 1 Willpower" in reroll[0]
    assert "v5_willpower" not in text


def test_follow_ups_and_rouse_checks_belong_to_the_scene_they_were_made_in(gm_client, kindred):
    scene = scene_of(kindred.campaign, "Chase")
    first = roll(kindred, scene, (2, 3, 4, 6, 5), label="Sprint")
    services.follow_up(first, "reroll", Faces(8), dice=[0])
    services.check(kindred, "rouse", Faces(3))
    text = body(export(gm_client, kindred.campaign, part=f"scene-{scene.pk}"))
    assert headings(text) == ["Story 1 · Episode 1 · Scene 1: Chase"]
    # The roll (its reroll under it, issue 23) and the rouse check.
    assert len([line for line in text.splitlines() if line.startswith("- ")]) == 2
    assert set(Roll.objects.values_list("scene_id", "turn")) == {(scene.pk, 1)}


def test_a_rouse_check_shows_its_die_and_the_hunger_it_raised(gm_client, kindred):
    services.check(kindred, "rouse", Faces(3))  # below 6: failed, Hunger 2 → 3
    services.check(kindred, "rouse", Faces(8))  # passed: Hunger stays 3
    text = body(export(gm_client, kindred.campaign))
    assert headings(text) == ["Outside any scene"]  # no scene was started
    failed, passed = (line for line in text.splitlines() if line.startswith("- "))
    assert "`3`" in failed and "**Rouse check failed: Hunger rises (Hunger 2 → 3)**" in failed
    assert "`8`" in passed and "**Rouse check passed (Hunger 3 → 3)**" in passed
    # The Hunger is in the count; no "Spent: hunger" beside it.
    assert "Spent" not in text


def test_markdown_in_spanish_uses_the_games_words_and_spanish_headings(gm_client, kindred, solar):
    scene = scene_of(kindred.campaign, "Muelles")
    roll(kindred, scene, (10, 3, 6, 10, 2), label="Morder")
    text = body(export(gm_client, kindred.campaign, HTTP_ACCEPT_LANGUAGE="es"))
    assert headings(text) == ["Historia 1 · Episodio 1 · Escena 1: Muelles"]
    # 5 successes, margin +4, as in English (see the messy critical test), in Spanish words.
    assert "**Crítico conflictivo (5 éxitos · margen +4)**" in entry(text, "Morder")
    assert "Messy critical" not in text and "Story 1" not in text and "successes" not in text

    duel = scene_of(solar.campaign, "Duelo")
    roll(solar, duel, (1, 1, 5), label="Parada")
    text = body(export(gm_client, solar.campaign, part=f"scene-{duel.pk}", HTTP_ACCEPT_LANGUAGE="es"))
    assert "**Fracaso (2 unos)" in entry(text, "Parada")
    assert text.splitlines()[0] == f"# {solar.campaign.name} — Historia 1 · Episodio 1 · Escena 1: Duelo"


def test_the_player_recap_speaks_spanish_too(kindred):
    scene = scene_of(kindred.campaign, "Muelles")
    roll(kindred, scene, (10, 3, 6, 10, 2), label="Morder")
    text = body(recap(kindred.campaign, HTTP_ACCEPT_LANGUAGE="es"))
    assert headings(text) == ["Historia 1 · Episodio 1 · Escena 1: Muelles"]
    assert "**Crítico conflictivo (" in entry(text, "Morder")


# --- parts ---------------------------------------------------------------------------------------


def labels_in(text: str) -> set[str]:
    every = {"Climb the crane", "Punch the guard", "Force the door", "Bandage the arm"}
    return {label for label in every if label in text}


def test_a_scene_holds_only_its_rolls_an_episode_its_scenes_and_the_campaign_all(gm_client, kindred, three_scenes):
    campaign = kindred.campaign
    docks, warehouse, aftermath = three_scenes["docks"], three_scenes["warehouse"], three_scenes["aftermath"]
    text = body(export(gm_client, campaign, f"scene-{warehouse.pk}"))
    assert labels_in(text) == {"Force the door"}
    assert headings(text) == ["Story 1 · Episode 1 · Scene 2: The warehouse"]
    assert labels_in(body(export(gm_client, campaign, f"scene-{docks.pk}"))) == {"Climb the crane", "Punch the guard"}

    text = body(export(gm_client, campaign, f"episode-{docks.episode.pk}"))
    assert labels_in(text) == {"Climb the crane", "Punch the guard", "Force the door"}
    assert text.splitlines()[0] == f"# {campaign.name} — Story 1 · Episode 1"
    assert labels_in(body(export(gm_client, campaign, f"episode-{aftermath.episode.pk}"))) == {"Bandage the arm"}

    assert labels_in(body(export(gm_client, campaign, "campaign"))) == {
        "Climb the crane", "Punch the guard", "Force the door", "Bandage the arm"}
    assert len(rows(export(gm_client, campaign, f"episode-{docks.episode.pk}", "csv"))) == 3

    # The players' recap takes the same parts, and the newest scene when none is asked for.
    assert labels_in(body(recap(campaign, f"scene-{docks.pk}"))) == {"Climb the crane", "Punch the guard"}
    assert labels_in(body(recap(campaign, f"episode-{docks.episode.pk}"))) == {
        "Climb the crane", "Punch the guard", "Force the door"}
    assert labels_in(body(recap(campaign, "campaign"))) == labels_in(body(export(gm_client, campaign)))
    assert labels_in(body(recap(campaign))) == {"Bandage the arm"}


def test_a_part_without_rolls_says_so(gm_client, kindred):
    scene = scene_of(kindred.campaign, "Quiet night")
    text = body(export(gm_client, kindred.campaign, f"scene-{scene.pk}"))
    assert text.rstrip().endswith("No rolls.")
    assert rows(export(gm_client, kindred.campaign, f"scene-{scene.pk}", "csv")) == []


@pytest.mark.parametrize("part", ["garbage", "scene-", "scene-abc", "episode-x", "scene-99999999999999999999999",
                                  "campaign-1", "", "scene-1 OR 1=1"])
def test_a_garbage_part_is_a_400_for_the_gm_and_a_404_for_the_players(gm_client, kindred, three_scenes, part):
    response = export(gm_client, kindred.campaign, part)
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/plain")
    message = response.content.decode()
    assert ("is not one of the available choices" in message) or ("This field is required" in message), message
    if part:  # an empty part is the players' default (the newest scene)
        assert recap(kindred.campaign, part).status_code == 404


def test_a_part_of_another_campaign_is_a_400_for_the_gm_and_a_404_for_the_players(gm_client, gm, kindred,
                                                                                   three_scenes):
    other = Campaign.objects.create(name="Elsewhere", game=Game.V5, gm=gm)
    mine = Character.objects.create_with_sheet(campaign=other, name="Other")
    other_scene = scene_of(other, "Not here")
    roll(mine, other_scene, (6,), label="Foreign roll")  # the standard sheet's 1 die, a hunger die
    for part in (f"scene-{other_scene.pk}", f"episode-{other_scene.episode.pk}"):
        response = export(gm_client, kindred.campaign, part)
        assert response.status_code == 400
        assert f"{part} is not one of the available choices" in response.content.decode()
        assert recap(kindred.campaign, part).status_code == 404
    # Nor can the other campaign's own link read this campaign's scenes.
    assert recap(other, f"scene-{three_scenes['docks'].pk}").status_code == 404


def test_an_unknown_format_is_a_400(gm_client, kindred):
    response = export(gm_client, kindred.campaign, "campaign", "pdf")
    assert response.status_code == 400
    assert "pdf is not one of the available choices" in response.content.decode()


# --- secrets -------------------------------------------------------------------------------------


def test_the_gm_export_marks_a_secret_roll(gm_client, kindred):
    scene = scene_of(kindred.campaign, "Shadows")
    roll(kindred, scene, (7, 2, 3, 4, 5), label="Sneak", hidden="on")
    roll(kindred, scene, (8, 2, 3, 4, 5), label="Talk")
    text = body(export(gm_client, kindred.campaign))
    assert entry(text, "Sneak").endswith("(secret roll)")
    assert "(secret roll)" not in entry(text, "Talk")
    secret = {row["what"]: row["secret"] for row in as_dicts(export(gm_client, kindred.campaign, fmt="csv"))}
    assert secret == {"Sneak": "secret roll", "Talk": ""}


def test_the_players_never_see_a_secret_roll_until_it_is_revealed(gm_client, set_ratings, kindred):
    campaign = kindred.campaign
    spy = Character.objects.create_with_sheet(campaign=campaign, name="Mole", kind="npc")
    set_ratings(spy, strength=1, brawl=1, composure=2, resolve=2)
    scene = scene_of(campaign, "Shadows")
    roll(kindred, scene, (7, 2, 3, 4, 5), label="Talk")
    # Mole has Hunger 1 by default: 1 normal die and 1 hunger die.
    secret = roll(spy, scene, (9, 8), label="Pickpocket", hidden="on")
    reroll = services.follow_up(secret, "reroll", Faces(10), dice=[0])
    secret_faces, reroll_faces = v5_faces((9,), (8,)), v5_faces((10,), (8,))

    hidden = body(recap(campaign, "campaign"))
    assert "Talk" in hidden
    for leak in ("Mole", "Pickpocket", secret_faces, reroll_faces, "Willpower reroll", "(secret roll)"):
        assert leak not in hidden, leak
    assert len([line for line in hidden.splitlines() if line.startswith("- ")]) == 1

    services.reveal(Roll.objects.get(pk=secret.pk))
    shown = body(recap(campaign, "campaign"))
    # One entry (issue 23): the roll as its reroll left it, and the reroll under it.
    first, second = entry_with_details(shown, "Pickpocket").splitlines()[0], next(
        line for line in entry_with_details(shown, "Pickpocket").splitlines() if "Willpower reroll" in line)
    assert "**Mole**" in first and f"`{reroll_faces}`" in first and first.endswith("(revealed)")
    assert second.startswith("  - ") and f"`{reroll_faces}`" in second
    assert reroll.pk > secret.pk
    # The GM's export now says it was revealed, not that it is still secret.
    assert entry(body(export(gm_client, campaign)), "Pickpocket").endswith("(revealed)")


def test_a_secret_difficulty_keeps_the_verdict_and_margin_from_the_players(gm_client, kindred):
    scene = scene_of(kindred.campaign, "Negotiation")
    # Normal 6 7 2, hunger 3 5: 2 successes against a secret difficulty 4: a failure by 2.
    secret = roll(kindred, scene, (6, 7, 2, 3, 5), label="Persuade", difficulty=4, secret="on")

    players = entry_with_details(body(recap(kindred.campaign)), "Persuade")
    assert f"`{v5_faces((6, 7, 2), (3, 5))}`" in players
    assert "**The GM keeps the difficulty secret (2 successes)**" in players
    for leak in ("Failure", "margin", "−2", "win at a cost"):
        assert leak not in players, leak

    gm = entry(body(export(gm_client, kindred.campaign)), "Persuade")
    assert "**Failure (win at a cost?) (2 successes · margin −2)**" in gm
    assert "keeps the difficulty secret" not in gm
    (row,) = as_dicts(export(gm_client, kindred.campaign, fmt="csv"))
    assert (row["margin"], row["successes"], row["secret"]) == ("-2", "2", "secret difficulty")

    services.reveal(Roll.objects.get(pk=secret.pk))
    revealed = entry(body(recap(kindred.campaign)), "Persuade")
    assert "Failure (win at a cost?) (2 successes · margin −2)" in revealed and revealed.endswith("(revealed)")


# --- escaping ------------------------------------------------------------------------------------


def unescaped(text: str, char: str) -> list[str]:
    """The places where ``char`` appears without the backslash that makes it literal."""
    return re.findall(rf"(?<!\\){re.escape(char)}.{{0,20}}", text)


def test_markdown_escapes_names_labels_and_titles(gm_client, gm, set_ratings):
    campaign = Campaign.objects.create(name="# Big_Campaign", game=Game.V5, gm=gm)
    villain = Character.objects.create_with_sheet(campaign=campaign, name=EVIL)
    set_ratings(villain, strength=2, brawl=1)
    scene = scene_of(campaign, "> quote | ~~strike~~")
    # Normal 6 2, hunger 3: 1 success; the opponent's die 4: none. The villain wins by 1.
    roll(villain, scene, (6, 2, 3, 4), label="`code` _em_ ![img](x) {y} #tag +1 -1 !", opponent_dice=1,
         opponent="<@123> **boss**")
    for response in (export(gm_client, campaign), recap(campaign)):
        text = body(response)
        line = entry(text, "code")
        assert f"**{EVIL_ESCAPED}**" in line
        # Code, emphasis and image brackets are escaped; what only matters at a line's start
        # (#, +, -, !) is left readable, since user text never starts a line.
        assert r"\`code\` \_em\_ !\[img\](x) {y} #tag +1 -1 !" in line
        assert "## Story 1 · Episode 1 · Scene 1: \\> quote \\| \\~\\~strike\\~\\~" in text.splitlines()
        assert text.splitlines()[0].startswith(r"# # Big\_Campaign — ")
        assert r"  - vs \<\@123\> \*\*boss\*\*: 4" in text.splitlines()
        # The contest's verdict names the winner: escaped there too.
        assert f"**{EVIL_ESCAPED} wins by 1 (1 vs 0 successes)**" in line
        assert EVIL not in text and "<script>" not in text and "<@" not in text
        assert unescaped(text, "@") == [] and unescaped(text, "<") == [] and unescaped(text, "[") == []
        # The only bold markers left are the module's own: around the actor and around the verdict.
        assert len(re.findall(r"(?<!\\)\*\*", line)) == 4, line


def test_csv_neutralises_formulas_and_parses_into_the_header_columns(gm_client, gm, set_ratings):
    campaign = Campaign.objects.create(name="Sheets", game=Game.V5, gm=gm)
    scene = scene_of(campaign, "Ledger")
    names = ["=cmd|' /C calc'!A0", "+SUM(A1)", "-2+3", "@SUM(A1)"]
    characters = [Character.objects.create_with_sheet(campaign=campaign, name=name) for name in names]
    labels = ["=HYPERLINK(\"http://evil\")", "+1", "-1", "@me"]
    faces = [(6, 2, 3), (7, 2, 3), (8, 2, 3), (9, 2, 3)]  # Strength 2 + Brawl 1: 2 normal dice, 1 hunger die
    for character, label, face in zip(characters, labels, faces, strict=True):
        set_ratings(character, strength=2, brawl=1)
        roll(character, scene, face, label=label)
    roll(characters[0], scene, (10, 10, 1), label="Plain")

    table = as_dicts(export(gm_client, campaign, fmt="csv"))
    assert len(table) == 5  # one row per roll, oldest first
    assert [row["who"] for row in table] == [f"'{name}" for name in names] + [f"'{names[0]}"]
    assert [row["what"] for row in table] == [f"'{label}" for label in labels] + ["Plain"]
    assert [row["dice"] for row in table] == [v5_faces(f[:2], f[2:]) for f in faces] + [v5_faces((10, 10), (1,))]
    # 6+ succeeds; a pair of 10s scores 4.
    assert [row["successes"] for row in table] == ["1", "1", "1", "1", "4"]
    assert [(row["story"], row["episode"], row["scene"], row["turn"]) for row in table] == [("1", "1", "1", "1")] * 5
    assert [int(row["id"]) for row in table] == sorted(int(row["id"]) for row in table)
    assert all(row["kind"] == "Roll" and row["secret"] == row["revealed"] == "" for row in table)
    for row in table:  # no cell a spreadsheet would run as a formula
        assert all(not value.startswith(("=", "+", "-", "@")) for key, value in row.items() if key != "margin"), row


@pytest.mark.parametrize("player", ["Lucía", "=HYPERLINK(\"http://evil\")"])
def test_csv_says_who_rolled_from_the_phone_in_its_last_column(gm_client, gm, scripted_dice, player):
    """``rolled_by``, appended after the columns spreadsheets already use: the player who rolled from
    their phone, empty for the GM's roll; the header the same in Spanish (a machine reads it), the
    player's name kept from running as a formula."""
    from tests.web.test_player_rolls import FACES, posted, roll_url, table

    campaign, ana, _guard = table(gm, Game.V5)
    Character.objects.filter(pk=ana.pk).update(player=player)
    services.start_scene(campaign, title="Docks")
    scripted_dice(*FACES[Game.V5], *FACES[Game.V5])
    assert Client().post(roll_url(ana), posted(ana)).status_code == 200
    assert gm_client.post(reverse("roll", args=[campaign.pk]), posted(ana)).status_code == 200
    by_phone, by_gm = as_dicts(export(gm_client, campaign, fmt="csv", headers={"accept-language": "es"}))
    assert (by_phone["rolled_by"], by_gm["rolled_by"]) == (player if player == "Lucía" else f"'{player}", "")
    assert by_phone["who"] == by_gm["who"] == "Ana" and by_phone["kind"] == "Tirada"  # the cells in Spanish


# What a spreadsheet still runs as a formula: after the spaces and line breaks it trims from a
# cell's start, and in the fullwidth and small forms an East Asian spreadsheet reads as ASCII.
HIDDEN_FORMULAS = [" =1+1", "\n=1+1", "\u3000=1+1", "\xa0+1", "＝HYPERLINK(\"http://evil\")", "＋1", "－1", "＠me",
                   "﹦1+1", " \n ＠SUM(A1)", "\tBob", "\rBob"]


@pytest.mark.parametrize("name", HIDDEN_FORMULAS)
def test_csv_neutralises_a_formula_behind_spaces_or_in_fullwidth(gm_client, gm, set_ratings, name):
    campaign = Campaign.objects.create(name="Sheets", game=Game.V5, gm=gm)
    scene = scene_of(campaign, "Ledger")
    character = Character.objects.create_with_sheet(campaign=campaign, name=name)
    set_ratings(character, strength=2, brawl=1)
    roll(character, scene, (6, 2, 3))  # a label is stripped by the composer; a name is kept as typed
    (row,) = as_dicts(export(gm_client, campaign, fmt="csv"))
    assert row["who"] == f"'{name}"


@pytest.mark.parametrize("name", [" Bob", "Bob = Alice", "1 + 1", "−1", "e-mail"])
def test_csv_leaves_text_that_starts_no_formula_as_typed(gm_client, gm, set_ratings, name):
    campaign = Campaign.objects.create(name="Sheets", game=Game.V5, gm=gm)
    character = Character.objects.create_with_sheet(campaign=campaign, name=name)
    set_ratings(character, strength=2, brawl=1)
    roll(character, scene_of(campaign, "Ledger"), (6, 2, 3), label=name)
    (row,) = as_dicts(export(gm_client, campaign, fmt="csv"))
    assert row["who"] == name and row["what"] == name.strip()


# --- access and the download -----------------------------------------------------------------------


def test_export_needs_the_campaigns_gm(client, other_gm, kindred):
    url = reverse("export", args=[kindred.campaign.pk])
    response = client.get(url, {"part": "campaign", "format": "md"})
    assert response.status_code == 302
    assert response["Location"].startswith(resolve_url(settings.LOGIN_URL) + "?next=")
    client.force_login(other_gm)
    assert client.get(url, {"part": "campaign", "format": "md"}).status_code == 404
    assert client.get(url, {"part": "campaign", "format": "csv"}).status_code == 404


def test_an_old_player_link_cannot_read_the_recap(kindred):
    scene = scene_of(kindred.campaign, "Docks")
    roll(kindred, scene, (6, 2, 3, 4, 5), label="Climb")
    old = kindred.campaign.player_token
    assert "Climb" in body(recap(kindred.campaign, token=old))
    services.regenerate_player_link(kindred.campaign)
    campaign = Campaign.objects.get(pk=kindred.campaign.pk)
    assert campaign.player_token != old
    assert recap(campaign, token=old).status_code == 404
    assert recap(campaign, "campaign", token=old).status_code == 404
    assert "Climb" in body(recap(campaign))
    assert Client().get(reverse("player-recap", args=["x" * 32])).status_code == 404


def test_the_downloads_are_attachments_named_md_and_csv(gm_client, kindred, three_scenes):
    attachment = r'attachment; filename="[a-z0-9_-]+\.{}"'
    md_response = export(gm_client, kindred.campaign, f"scene-{three_scenes['docks'].pk}")
    assert re.fullmatch(attachment.format("md"), md_response["Content-Disposition"])
    assert md_response["Content-Type"] == "text/markdown; charset=utf-8"
    assert "the-docks" in md_response["Content-Disposition"]
    csv_response = export(gm_client, kindred.campaign, "campaign", "csv")
    assert re.fullmatch(attachment.format("csv"), csv_response["Content-Disposition"])
    assert csv_response["Content-Type"] == "text/csv; charset=utf-8"
    # The players' recap opens as text in the phone's browser, to select and paste.
    player = recap(kindred.campaign)
    assert re.fullmatch(attachment.replace("attachment", "inline").format("md"), player["Content-Disposition"])
    assert player["Content-Type"] == "text/plain; charset=utf-8"
    # The players get Markdown whatever format they ask for.
    player_csv = Client().get(reverse("player-recap", args=[kindred.campaign.player_token]), {"format": "csv"})
    assert player_csv["Content-Disposition"].endswith('.md"')


# --- the night's luck, in three lines at the end --------------------------------------------------


def luck_lines(text: str) -> list[str]:
    """The lines after the recap's last rule (---), which close it."""
    lines = text.rstrip("\n").splitlines()
    assert "---" in lines, text
    return lines[len(lines) - lines[::-1].index("---"):]


def test_the_recap_ends_with_the_parts_luck_in_three_lines(gm_client, kindred, three_scenes):
    docks = three_scenes["docks"]
    text = body(export(gm_client, kindred.campaign, part=f"scene-{docks.pk}"))
    lucks = [r.luck for r in Roll.objects.filter(scene=docks).order_by("id")]
    assert len(lucks) == 2
    mean = (lucks[0]["percentile"] + lucks[1]["percentile"]) / 2
    words = {"very_unlucky": "very unlucky", "unlucky": "unlucky", "average": "average", "lucky": "lucky",
             "very_lucky": "very lucky"}[luck.band(mean)]
    expected = {code: sum(next(s["prior"] for s in l["specials"] if s["code"] == code) for l in lucks)
                for code in ("critical", "messy_critical", "bestial_failure")}
    # Two rolls are too few for the mean's test (30), ten d10s too few for the faces' (50).
    assert luck_lines(text) == [
        f"**Luck**: 2 rolls, mean percentile {100 * mean:.1f}% ({words}); fair dice: too few to tell  ",
        f"**Special results**: Critical win: 0 seen, {expected['critical']:.1f} expected; "
        f"Messy critical: 0 seen, {expected['messy_critical']:.1f} expected; "
        f"Bestial failure: 0 seen, {expected['bestial_failure']:.1f} expected  ",
        "**Dice**: 10 d10s: too few to tell",
    ]
    # The campaign's: all four rolls (20 dice), the first line says so.
    assert luck_lines(body(export(gm_client, kindred.campaign)))[0].startswith("**Luck**: 4 rolls, mean percentile ")
    assert luck_lines(body(export(gm_client, kindred.campaign)))[2] == "**Dice**: 20 d10s: too few to tell"


def test_the_luck_of_many_rolls_tells_fair_dice_from_loaded_ones(gm_client, kindred):
    scene = scene_of(kindred.campaign, "Dice night")
    for i in range(12):  # 60 dice: every face six times
        faces = [(i * 5 + k) % 10 + 1 for k in range(5)]
        roll(kindred, scene, tuple(faces), label=f"Fair {i}")
    assert luck_lines(body(export(gm_client, kindred.campaign)))[2] == "**Dice**: 60 d10s: nothing unusual, p = 1.00"
    for i in range(12):  # and 60 more, all 10s
        roll(kindred, scene, (10,) * 5, label=f"Loaded {i}")
    lines = luck_lines(body(export(gm_client, kindred.campaign)))
    assert lines[2] == "**Dice**: 120 d10s: very unusual, p \\< 0.001"
    assert re.search(r"Critical win: 12 seen, [0-9.]+ expected", lines[1])


def test_the_recaps_dice_line_says_it_counts_a_voided_rolls_dice(gm_client, gm, kindred):
    """A voided roll did not count at the table (not in the luck), but its dice were thrown: the
    fairness counts them, and the line says so."""
    scene = scene_of(kindred.campaign, "Second thoughts")
    roll(kindred, scene, (7, 2, 3, 4, 5), label="Talk")
    services.void_roll(roll(kindred, scene, (10, 10, 10, 10, 10), label="Oops"), gm)
    lines = luck_lines(body(export(gm_client, kindred.campaign)))
    assert lines[0].startswith("**Luck**: 1 roll, ")
    assert lines[2] == "**Dice**: 10 d10s: too few to tell (with the dice of 1 voided roll)"
    es = luck_lines(body(export(gm_client, kindred.campaign, HTTP_ACCEPT_LANGUAGE="es")))
    assert es[2].endswith("(con los dados de 1 tirada anulada)")


def test_the_players_recap_luck_leaves_out_what_is_still_secret(gm_client, kindred):
    scene = scene_of(kindred.campaign, "Shadows")
    roll(kindred, scene, (7, 2, 3, 4, 5), label="Talk")
    secret = roll(kindred, scene, (10, 10, 10, 10, 10), label="Sneak", hidden="on")
    assert luck_lines(body(export(gm_client, kindred.campaign)))[0].startswith("**Luck**: 2 rolls")
    players = luck_lines(body(recap(kindred.campaign, "campaign")))
    assert players[0].startswith("**Luck**: 1 roll, ") and players[2] == "**Dice**: 5 d10s: too few to tell"
    assert "Critical win: 0 seen" in players[1]
    services.reveal(secret)
    assert luck_lines(body(recap(kindred.campaign, "campaign")))[0].startswith("**Luck**: 2 rolls")


def test_the_recaps_luck_in_spanish(gm_client, kindred):
    scene = scene_of(kindred.campaign, "Muelles")
    roll(kindred, scene, (10, 3, 6, 10, 2), label="Morder")
    lines = luck_lines(body(export(gm_client, kindred.campaign, HTTP_ACCEPT_LANGUAGE="es")))
    # The games' words and the decimal comma (the new phrases read in English until the catalog has them).
    assert "Crítico conflictivo: 1 " in lines[1] and "Victoria crítica: 1 " in lines[1]
    assert re.search(r"\d,\d%", lines[0]) and re.search(r"\d,\d ", lines[1])


def test_a_recap_without_dice_thrown_has_no_luck_lines(gm_client, kindred):
    scene = scene_of(kindred.campaign, "Quiet night")
    roll(kindred, scene, (), label="Take it easy", shortcut="take_half")
    text = body(export(gm_client, kindred.campaign))
    assert "Take it easy" in text and "---" not in text.splitlines() and "**Luck**" not in text
