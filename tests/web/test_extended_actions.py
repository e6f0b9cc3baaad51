"""Extended actions (issue 5): create one, roll into it from the composer, botch policies, limits,
teamwork, races and tugs-of-war, the exact odds beside the progress bar, and parallel rolls
that never lose an update.

Dice are scripted (``Faces`` for the services, ``scripted_dice`` for the views): no test
depends on luck.
"""

from __future__ import annotations

import re
import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import close_old_connections, connection
from django.test import Client
from django.urls import reverse
from django.utils import translation

from gmtools import recap, services
from gmtools.composer import ComposerForm, Composition
from gmtools.models import Campaign, Character, ExtendedAction, Roll, Scene
from gmtools.odds import extended_panel
from gmtools.services import Refused
from tests.games import Game
from gmtools.formatting import percent
from rules import exalted, scifi, v5
from rules import extended as rules_extended
from tests.web.helpers import COMMON, DEFAULTS, Faces, run_at_once, set_resources

pytestmark = pytest.mark.django_db


TRAITS = {Game.EXALTED: ("dexterity", "athletics"), Game.V5: ("strength", "athletics"),
          Game.SCIFI: ("agility", "athletics")}


def form_data(campaign: Campaign, character: Character | None = None, **data) -> dict:
    out = {**COMMON, **DEFAULTS[campaign.game]}
    if character is not None:
        first, second = TRAITS[campaign.game]
        out.update(character=character.pk, first=character.traits.get(key=first).pk,
                   second=character.traits.get(key=second).pk)
    return {**out, **data}


def compose(campaign: Campaign, character: Character | None = None, scene: Scene | None = None, **data) -> Composition:
    form = ComposerForm(campaign, form_data(campaign, character, **data), scene=scene)
    assert form.is_valid(), form.errors
    return form.cleaned_data["composition"]


def roll_into(action: ExtendedAction, faces: tuple[int, ...], character: Character | None = None,
              scene: Scene | None = None, **data) -> Roll:
    """Roll into the extended action from the composer, with these faces (all of them used)."""
    dice = Faces(*faces)
    logged = services.record_roll(action.campaign, compose(action.campaign, character, scene, extended=action.pk, **data),
                                  dice)
    assert not dice.faces, f"unused faces {dice.faces}"
    return logged


def refused_by_composer(campaign: Campaign, character: Character | None = None, **data) -> str:
    form = ComposerForm(campaign, form_data(campaign, character, **data))
    assert not form.is_valid(), "the composer accepted it"
    return " ".join(f"{name}: {e}" for name, errors in form.errors.items() for e in errors)


def fresh(action: ExtendedAction) -> ExtendedAction:
    return ExtendedAction.objects.get(pk=action.pk)


def html(response) -> str:
    return response.content.decode()


def refusal(response) -> str:
    assert response.status_code == 422, (response.status_code, html(response)[:500])
    assert response["HX-Retarget"] == "#table-messages"
    match = re.search(r'data-testid="refusal">(.*?)\s*<button', html(response), re.S)
    assert match, html(response)
    return match.group(1).strip()


def status(response, action: ExtendedAction) -> str:
    """The text of an extended action's card in the list, whitespace folded."""
    match = re.search(rf'data-testid="extended-{action.pk}">(.*?)</div>\s*</div>\s*(?=<div class="card|<div class="refusal-slot|<details)',
                      html(response), re.S)
    assert match, html(response)[:2000]
    return " ".join(re.sub(r"<[^>]+>", " ", match.group(1)).split())


@pytest.fixture
def campaign(gm) -> Campaign:
    return Campaign.objects.create(name="Nexus", game=Game.EXALTED, gm=gm)


@pytest.fixture
def climber(campaign, set_ratings) -> Character:
    """Dexterity 3 + Athletics 3: the seed's six dice for the wall."""
    character = Character.objects.create_with_sheet(campaign=campaign, name="Climber")
    set_ratings(character, dexterity=3, athletics=3)
    return character


def make(campaign: Campaign, **fields) -> ExtendedAction:
    return services.create_extended(campaign, None, **{"name": "Task", "goal": 10, **fields})


# --- creating one ------------------------------------------------------------------------------

VALID = {"name": "Climb the wall", "kind": "solo", "goal": 10, "pool": 6, "interval": "10 minutes",
         "difficulty": 0, "botch": "reset", "limit": "", "opponent": "", "opponent_pool": 0}


def test_create_an_extended_action_in_the_scene_in_play(campaign, climber, gm_client):
    scene = services.start_scene(campaign)
    response = gm_client.post(reverse("extended-create", args=[campaign.pk]), {**VALID, "limit": 6})
    assert response.status_code == 200, html(response)[:500]
    action = ExtendedAction.objects.get()
    assert (action.campaign, action.scene, action.name, action.goal, action.pool, action.interval, action.limit) == (
        campaign, scene, "Climb the wall", 10, 6, "10 minutes", 6)
    assert (action.total, action.rolls, action.ruined, action.over, action.winner) == (0, 0, False, False, None)
    card = status(response, action)
    assert "Climb the wall" in card and "0/10" in card and "0 rolls of 6" in card
    assert "to finish within the limit" in card
    listed = gm_client.get(reverse("extended-list", args=[campaign.pk]))
    assert listed.status_code == 200 and "Climb the wall" in html(listed)


@pytest.mark.parametrize("field, value", [
    ("goal", 0), ("goal", -1), ("goal", 201), ("goal", ""), ("goal", "ten"), ("name", ""), ("name", "x" * 121),
    ("kind", "sprint"), ("botch", "explode"), ("difficulty", 21), ("difficulty", -1), ("limit", 0),
    ("limit", 1001), ("pool", 101), ("opponent_pool", -1),
])
def test_create_refuses_bad_input_and_creates_nothing(campaign, gm_client, field, value):
    response = gm_client.post(reverse("extended-create", args=[campaign.pk]), {**VALID, field: value})
    message = refusal(response)
    assert message
    assert not ExtendedAction.objects.exists()


def test_the_refusal_names_the_field(campaign, gm_client):
    assert "goal" in refusal(gm_client.post(reverse("extended-create", args=[campaign.pk]), {**VALID, "goal": 0})).lower()


def test_the_service_validates_too(campaign):
    for bad in ({"goal": 0}, {"goal": 201}, {"botch": "explode"}, {"kind": "sprint"}, {"limit": 0}):
        with pytest.raises(ValidationError):
            make(campaign, **bad)
    assert not ExtendedAction.objects.exists()


def test_another_gm_cannot_create_or_list(campaign, other_gm):
    intruder = Client()
    intruder.force_login(other_gm)
    make(campaign, name="Secret plan")
    assert intruder.post(reverse("extended-create", args=[campaign.pk]), VALID).status_code == 404
    assert intruder.get(reverse("extended-list", args=[campaign.pk])).status_code == 404
    assert ExtendedAction.objects.count() == 1


def test_an_extended_action_of_another_campaign_cannot_be_rolled_into(campaign, climber, gm):
    theirs = make(Campaign.objects.create(name="Theirs", game=Game.EXALTED, gm=gm), name="Their task")
    form = ComposerForm(campaign, form_data(campaign, climber, extended=theirs.pk))
    assert not form.is_valid() and "extended" in form.errors


# --- the wall climb from the seed ----------------------------------------------------------------


def test_the_wall_climb_from_the_seed(campaign, climber):
    wall = make(campaign, name="Climb the wall", goal=10, interval="10 minutes", pool=6)
    first = roll_into(wall, (1, 3, 3, 7, 8, 10), climber)                # 4
    assert (fresh(wall).total, fresh(wall).elapsed, fresh(wall).over) == (4, "10 minutes", False)
    second = roll_into(wall, (2, 3, 3, 5, 5, 6, 9), climber, dice=1)     # 1
    assert (fresh(wall).total, fresh(wall).rolls) == (5, 2)
    stale = compose(campaign, climber, extended=wall.pk)  # composed (in another tab) before it is done
    third = roll_into(wall, (1, 1, 3, 7, 7, 10, 10), climber, dice=1)    # 6: the two 1s do not botch it
    wall = fresh(wall)
    assert (wall.total, wall.rolls, wall.winner, wall.over, wall.percent) == (11, 3, "first", True, 100)
    assert wall.elapsed == "30 minutes"
    assert [r.result["extended"]["total"] for r in (first, second, third)] == [4, 5, 11]
    assert [r.result["extended"]["winner"] for r in (first, second, third)] == [None, None, "first"]
    assert [r.main["successes"] for r in (first, second, third)] == [4, 1, 6]
    assert third.outcome == "success"
    assert list(wall.log.order_by("id")) == [first, second, third]
    with pytest.raises(Refused, match="already over"):
        services.record_roll(campaign, stale, Faces(*(7,) * 6))
    assert "extended" in refused_by_composer(campaign, climber, extended=wall.pk)
    assert (fresh(wall).total, fresh(wall).rolls, Roll.objects.count()) == (11, 3, 3)


def test_the_wall_climb_through_the_table(campaign, climber, gm_client, scripted_dice):
    """The GM's clicks: a scene, the extended action, a roll a turn (each turn is 10 minutes of climbing)."""
    time = reverse("time", args=[campaign.pk])
    gm_client.post(time, {"do": "start-scene", "title": "The wall"})
    gm_client.post(reverse("extended-create", args=[campaign.pk]), VALID)
    wall = ExtendedAction.objects.get()
    url = reverse("roll", args=[campaign.pk])
    for n, (faces, extra) in enumerate([((1, 3, 3, 7, 8, 10), 0), ((2, 3, 3, 5, 5, 6, 9), 1),
                                        ((1, 1, 3, 7, 7, 10, 10), 1)]):
        if n:
            gm_client.post(time, {"do": "next-turn"})
        scripted_dice(*faces)
        response = gm_client.post(url, form_data(campaign, climber, dice=extra, extended=wall.pk))
        assert response.status_code == 200, html(response)[:800]
        assert 'id="extended-list"' in html(response) and 'hx-swap-oob="true"' in html(response)
        assert not scripted_dice.faces
    card = status(response, wall)
    assert "11/10" in card and "Done" in card and "elapsed 30 minutes" in card and "3 rolls" in card
    assert [r.turn for r in Roll.objects.order_by("id")] == [1, 2, 3]
    scripted_dice(*(7,) * 6)
    gm_client.post(time, {"do": "next-turn"})
    refusal(gm_client.post(url, form_data(campaign, climber, extended=wall.pk)))
    assert fresh(wall).total == 11 and Roll.objects.count() == 3


def test_each_roll_adds_its_successes_over_the_actions_difficulty(campaign, gm_client):
    task = make(campaign, goal=20, difficulty=2)
    first = roll_into(task, (7, 8, 10), dice=3)      # 4 successes: +2
    second = roll_into(task, (7, 2, 3), dice=3)       # 1 success: +0, never negative
    assert (fresh(task).total, fresh(task).rolls) == (2, 2)
    # The card says what the difficulty took (the second walkthrough: "5 successes added only 4").
    assert (first.extended_taken, second.extended_taken) == (2, 1)
    page = html(gm_client.get(reverse("table", args=[campaign.pk])))
    taken = re.findall(r'data-testid="extended-taken">([^<]*)<', page)
    assert taken == ["(the difficulty per roll took 1 success)", "(the difficulty per roll took 2 successes)"]
    spanish = html(gm_client.get(reverse("table", args=[campaign.pk]), HTTP_ACCEPT_LANGUAGE="es"))
    assert "(la dificultad por tirada restó 2 éxitos)" in spanish


# --- botches and limits --------------------------------------------------------------------------

BOTCH = (1, 2, 3)  # three dice, no success, a 1


@pytest.mark.parametrize("policy, total, ruined", [("reset", 0, False), ("ruin", 4, True), ("ignore", 4, False)])
def test_botch_policies(campaign, policy, total, ruined):
    task = make(campaign, botch=policy)
    roll_into(task, (10, 7, 7), dice=3)  # 4
    botch = roll_into(task, BOTCH, dice=3)
    assert botch.outcome == "botch"
    task = fresh(task)
    assert (task.total, task.rolls, task.ruined, task.over) == (total, 2, ruined, ruined)
    assert botch.result["extended"]["total"] == total


def test_a_ruined_action_cannot_be_rolled_into(campaign, gm_client):
    task = make(campaign, botch="ruin")
    stale = compose(campaign, dice=3, extended=task.pk)  # composed before the botch
    roll_into(task, BOTCH, dice=3)
    assert fresh(task).ruined
    with pytest.raises(Refused, match="already over"):
        services.record_roll(campaign, stale, Faces(7, 7, 7))
    form = ComposerForm(campaign, form_data(campaign, dice=3, extended=task.pk))
    assert not form.is_valid() and "extended" in form.errors
    refusal(gm_client.post(reverse("roll", args=[campaign.pk]), form_data(campaign, dice=3, extended=task.pk)))
    assert (fresh(task).rolls, Roll.objects.count()) == (1, 1)
    assert "Ruined" in status(gm_client.get(reverse("extended-list", args=[campaign.pk])), task)


def test_a_roll_with_willpowers_success_is_no_botch(campaign, climber):
    task = make(campaign)
    roll_into(task, (7, 7, 7, 7, 7, 7), climber)
    logged = roll_into(task, (1, 2, 2, 2, 2, 2), climber, willpower="on")  # Willpower's success: not a botch
    assert (logged.outcome, logged.main["successes"]) == ("success", 1)
    assert fresh(task).total == 7


def test_the_limit_in_intervals_ends_it(campaign, gm_client):
    task = make(campaign, goal=10, limit=2, interval="1 hour", pool=3)
    roll_into(task, (7, 7, 7), dice=3)
    assert not fresh(task).over
    stale = compose(campaign, dice=3, extended=task.pk)
    roll_into(task, (7, 7, 2), dice=3)
    task = fresh(task)
    assert (task.total, task.rolls, task.winner, task.over, task.elapsed) == (5, 2, None, True, "2 hours")  # not "2 hour"
    with pytest.raises(Refused, match="already over"):
        services.record_roll(campaign, stale, Faces(10, 10, 10))
    assert "extended" in refused_by_composer(campaign, dice=3, extended=task.pk)
    assert (fresh(task).total, fresh(task).rolls) == (5, 2)
    card = status(gm_client.get(reverse("extended-list", args=[campaign.pk])), task)
    assert "Out of time" in card and "2 rolls of 2" in card
    assert extended_panel(task, Game.EXALTED) is None  # no odds once it is over


def test_the_last_roll_within_the_limit_can_still_finish_it(campaign):
    task = make(campaign, goal=5, limit=2)
    roll_into(task, (7, 7, 2), dice=3)
    roll_into(task, (10, 7, 7), dice=3)
    task = fresh(task)
    assert (task.total, task.winner, task.over) == (6, "first", True)


# --- teamwork ------------------------------------------------------------------------------------


def test_exalted_teamwork_adds_every_helpers_successes(campaign, set_ratings):
    lead = Character.objects.create_with_sheet(campaign=campaign, name="Lead")
    helper = Character.objects.create_with_sheet(campaign=campaign, name="Helper")
    set_ratings(lead, dexterity=3, athletics=4)    # 7 dice
    set_ratings(helper, dexterity=2, athletics=3)  # 5 dice
    task = make(campaign, goal=5)
    logged = roll_into(task, (1, 3, 4, 6, 7, 9, 9) + (1, 1, 3, 6, 7), lead, team=[helper.pk])  # the seed: 3 + 1
    assert logged.result["team_total"] == 4
    assert [h["successes"] for h in logged.result["team"]] == [1]
    task = fresh(task)
    assert (task.total, task.over) == (4, False)  # 4 toward a goal of 5
    roll_into(task, (7, 2, 2, 2, 2, 2, 2) + (2, 2, 2, 2, 2), lead, team=[helper.pk])
    assert (fresh(task).total, fresh(task).winner) == (5, "first")


def test_v5_teamwork_rolls_the_largest_pool_plus_one_per_helper(gm, set_ratings):
    campaign = Campaign.objects.create(name="Coterie", game=Game.V5, gm=gm)
    lead = Character.objects.create_with_sheet(campaign=campaign, name="Lead")
    helper = Character.objects.create_with_sheet(campaign=campaign, name="Helper")
    set_resources(lead, v5_hunger=0)
    set_resources(helper, v5_hunger=0)
    set_ratings(lead, strength=2, athletics=2)    # 4 dice
    set_ratings(helper, strength=1, athletics=1)  # has the skill: +1 die
    task = make(campaign, goal=10)
    logged = roll_into(task, (6, 6, 7, 8, 9), lead, team=[helper.pk])  # 5 dice, all successes
    assert logged.result["helpers"] == ["Helper"]
    assert (fresh(task).total, fresh(task).rolls) == (5, 1)


# --- extended opposed: race and tug-of-war ---------------------------------------------------------


def test_a_race_needs_the_opposing_sides_dice(campaign):
    race = make(campaign, kind="race", goal=5, opponent="Rival")
    assert "opposing side's dice" in refused_by_composer(campaign, dice=3, extended=race.pk)


def test_a_race_rolls_its_other_sides_dice_unless_the_gm_types_others(campaign):
    """A race made with its opponent's dice rolls them each round: the third walkthrough typed the
    Raider pack's 4 dice before every roll of a 10-round race."""
    race = make(campaign, kind="race", goal=20, opponent="Raider pack", opponent_pool=4)
    first = roll_into(race, (7, 7, 2) + (7, 2, 2, 2), dice=3)  # the action's 4 dice, not none
    assert first.result["opponent"]["name"] == "Raider pack" and len(first.result["opponent"]["faces"]) == 4
    assert (fresh(race).total, fresh(race).opponent_total) == (2, 1)
    typed = roll_into(race, (7, 2, 2) + (7, 7), dice=3, opponent_dice=2)  # the GM's 2 dice this round
    assert len(typed.result["opponent"]["faces"]) == 2 and (fresh(race).total, fresh(race).opponent_total) == (3, 3)


def test_a_race_is_won_by_the_first_to_the_goal(campaign):
    race = make(campaign, kind="race", goal=5, opponent="Rival", pool=3, opponent_pool=3)
    roll_into(race, (10, 10, 2) + (7, 8, 2), dice=3, opponent_dice=3)  # 4 vs 2
    stale = compose(campaign, dice=3, opponent_dice=3, extended=race.pk)
    race = fresh(race)
    assert (race.total, race.opponent_total, race.winner, race.percent, race.opponent_percent) == (4, 2, None, 80, 40)
    last = roll_into(race, (7, 2, 2) + (7, 2, 2), dice=3, opponent_dice=3)  # 5 vs 3
    race = fresh(race)
    assert (race.total, race.opponent_total, race.winner, race.over) == (5, 3, "first", True)
    assert last.result["extended"]["winner"] == "first"
    with pytest.raises(Refused, match="already over"):
        services.record_roll(campaign, stale, Faces(7, 7, 7, 7, 7, 7))
    assert (fresh(race).total, fresh(race).rolls) == (5, 2)


def test_a_race_the_opponent_wins(campaign):
    race = make(campaign, kind="race", goal=5, opponent="Rival")
    roll_into(race, (2, 3, 4) + (10, 10, 10), dice=3, opponent_dice=3)  # 0 vs 6
    assert (fresh(race).winner, fresh(race).opponent_total, fresh(race).over) == ("second", 6, True)


def test_a_race_where_both_reach_the_goal_in_the_same_round_is_a_dead_heat(campaign, gm_client):
    race = make(campaign, kind="race", goal=5, opponent="Rival")
    roll_into(race, (10, 10, 2) + (10, 10, 2), dice=3, opponent_dice=3)  # 4 vs 4
    roll_into(race, (7, 2, 2) + (10, 2, 2), dice=3, opponent_dice=3)     # 5 vs 6: both there
    race = fresh(race)
    assert (race.winner, race.over) == ("tie", True)
    assert "Dead heat" in status(gm_client.get(reverse("extended-list", args=[campaign.pk])), race)


def test_a_tug_of_war_is_won_by_leading_by_the_goal(campaign, gm_client):
    tug = make(campaign, kind="tug", goal=3, opponent="Rival")
    roll_into(tug, (10, 7, 2) + (7, 2, 2), dice=3, opponent_dice=3)     # 3 vs 1: lead 2
    tug = fresh(tug)
    assert (tug.total, tug.opponent_total, tug.winner, tug.percent) == (3, 1, None, 83)
    roll_into(tug, (2, 2, 2) + (10, 7, 2), dice=3, opponent_dice=3)     # 0 vs 3: lead −1
    tug = fresh(tug)
    assert (tug.total, tug.opponent_total, tug.winner, tug.percent) == (3, 4, None, 33)
    assert "3 vs 4: win by leading by 3" in status(gm_client.get(reverse("extended-list", args=[campaign.pk])), tug)
    roll_into(tug, (10, 10, 7) + (2, 2, 2), dice=3, opponent_dice=3)    # 5 vs 0: lead 4
    tug = fresh(tug)
    assert (tug.total, tug.opponent_total, tug.winner, tug.over, tug.percent) == (8, 4, "first", True, 100)


def test_a_tug_of_war_the_opponent_wins(campaign, gm_client):
    tug = make(campaign, kind="tug", goal=3, opponent="The tide")
    roll_into(tug, (7, 2, 2) + (10, 10, 2), dice=3, opponent_dice=3)  # 1 vs 4: lead −3
    tug = fresh(tug)
    assert (tug.winner, tug.over, tug.percent) == ("second", True, 0)
    assert "Won by The tide" in status(gm_client.get(reverse("extended-list", args=[campaign.pk])), tug)


# --- the odds beside the progress bar ------------------------------------------------------------


def test_the_odds_match_the_rules_and_change_after_each_roll(campaign, climber):
    wall = make(campaign, goal=10, pool=6)

    def expected(progress: int, rolls: int = 20) -> rules_extended.ExtendedOdds:
        return exalted.extended(exalted.Request(pool=6, difficulty=0), goal=10, difficulty=0, policy="reset",
                                rolls=rolls, progress=progress)

    before = extended_panel(fresh(wall), Game.EXALTED)
    assert before.horizon == 20
    assert before.p_done == pytest.approx(expected(0).p_done_by[-1], abs=1e-12)
    assert before.expected_rolls_left == pytest.approx(expected(0).expected_rolls, abs=1e-12)
    roll_into(wall, (1, 3, 3, 7, 8, 10), climber)  # 4
    after = extended_panel(fresh(wall), Game.EXALTED)
    assert after.p_done == pytest.approx(expected(4).p_done_by[-1], abs=1e-12)
    assert after.expected_rolls_left == pytest.approx(expected(4).expected_rolls, abs=1e-12)
    assert after.p_done > before.p_done and after.expected_rolls_left < before.expected_rolls_left
    roll_into(wall, (1, 2, 2, 2, 2, 2), climber)  # a botch: back to 0
    reset = extended_panel(fresh(wall), Game.EXALTED)
    assert reset.p_done == pytest.approx(before.p_done, abs=1e-12)
    assert reset.expected_rolls_left == pytest.approx(before.expected_rolls_left, abs=1e-12)


def test_the_odds_look_ahead_to_the_limit(campaign, gm_client):
    task = make(campaign, goal=8, pool=5, limit=4, botch="ruin", difficulty=1)

    def expected(progress: int, rolls: int) -> rules_extended.ExtendedOdds:
        return exalted.extended(exalted.Request(pool=5, difficulty=0), goal=8, difficulty=1, policy="ruin",
                                rolls=rolls, progress=progress)

    panel = extended_panel(fresh(task), Game.EXALTED)
    assert panel.horizon == 4
    assert panel.p_done == pytest.approx(expected(0, 4).p_done_by[-1], abs=1e-12)
    roll_into(task, (10, 7, 7, 2, 2), dice=5)  # 4 successes − 1: +3
    panel = extended_panel(fresh(task), Game.EXALTED)
    assert panel.horizon == 3
    assert panel.p_done == pytest.approx(expected(3, 3).p_done_by[-1], abs=1e-12)
    assert panel.expected_rolls_left == pytest.approx(expected(3, 3).expected_rolls, abs=1e-12)
    card = status(gm_client.get(reverse("extended-list", args=[campaign.pk])), fresh(task))
    assert f"{percent(panel.p_done)} to finish within the limit" in card
    assert f"expected rolls left {panel.expected_rolls_left:.1f}" in card


@pytest.mark.parametrize("policy", [
    "reset", "ruin", "ignore",
])
def test_the_scifi_odds_match_the_rules(gm, policy):
    campaign = Campaign.objects.create(name="Ship", game=Game.SCIFI, gm=gm)
    task = make(campaign, goal=6, pool=4, botch=policy)
    odds = scifi.extended(scifi.Request(pool=4, difficulty=0), goal=6, policy=rules_extended.BotchPolicy(policy),
                          rolls=20, progress=0)
    panel = extended_panel(task, Game.SCIFI)
    assert panel.p_done == pytest.approx(odds.p_done_by[-1], abs=1e-12)
    assert panel.expected_rolls_left == pytest.approx(odds.expected_rolls, abs=1e-12)


@pytest.mark.parametrize("policy", ["reset", "ruin", "ignore"])
def test_the_v5_odds_match_the_rules(gm, policy):
    campaign = Campaign.objects.create(name="Court", game=Game.V5, gm=gm)
    task = make(campaign, goal=6, pool=4, botch=policy)
    odds = v5.extended(v5.Request(pool=4), goal=6, policy=rules_extended.BotchPolicy(policy), rolls=20)
    panel = extended_panel(task, Game.V5)
    assert panel.p_done == pytest.approx(odds.p_done_by[-1], abs=1e-12)
    assert panel.expected_rolls_left == pytest.approx(odds.expected_rolls, abs=1e-12)


@pytest.mark.parametrize("policy", ["reset", "ruin", "ignore"])
def test_the_exalted_odds_follow_the_botch_policy(campaign, policy):
    task = make(campaign, goal=6, pool=4, botch=policy)
    odds = exalted.extended(exalted.Request(pool=4, difficulty=0), goal=6, policy=rules_extended.BotchPolicy(policy))
    panel = extended_panel(task, Game.EXALTED)
    assert panel.p_done == pytest.approx(odds.p_done_by[-1], abs=1e-12)
    assert panel.expected_rolls_left == pytest.approx(odds.expected_rolls, abs=1e-12)


def test_no_odds_without_a_pool(campaign):
    assert extended_panel(make(campaign, pool=0), Game.EXALTED) is None
    assert extended_panel(make(campaign, kind="race", pool=4, opponent_pool=0), Game.EXALTED) is None


def test_the_race_and_tug_odds_match_the_rules(campaign):
    race = make(campaign, kind="race", goal=6, pool=5, opponent_pool=4)
    roll_into(race, (10, 7, 2, 2, 2) + (7, 2, 2, 2), dice=5, opponent_dice=4)  # 3 vs 1
    race = fresh(race)
    mine, theirs = exalted.Request(pool=5, difficulty=0), exalted.Request(pool=4, difficulty=0)
    odds = rules_extended.race_odds(exalted.extended(mine, 6, 0, "reset", 20, 3),
                                    exalted.extended(theirs, 6, 0, "reset", 20, 1))
    panel = extended_panel(race, Game.EXALTED)
    assert panel.p_done == pytest.approx(odds.p_first_by[-1], abs=1e-12)
    assert panel.p_lose == pytest.approx(odds.p_second_by[-1], abs=1e-12)

    tug = make(campaign, kind="tug", goal=4, pool=5, opponent_pool=4)
    roll_into(tug, (10, 7, 2, 2, 2) + (7, 2, 2, 2), dice=5, opponent_dice=4)  # lead 2
    odds = rules_extended.tug_of_war_odds(exalted.contest(mine, theirs).margin, 4, 20, start=2)
    panel = extended_panel(fresh(tug), Game.EXALTED)
    assert panel.p_done == pytest.approx(odds.p_first_by[-1], abs=1e-12)
    assert panel.p_lose == pytest.approx(odds.p_second_by[-1], abs=1e-12)


# --- scifi: what a fumble does to an extended action ---------------------------------------------


@pytest.fixture
def scifi_task(gm, set_ratings):
    campaign = Campaign.objects.create(name="Ship", game=Game.SCIFI, gm=gm)
    engineer = Character.objects.create_with_sheet(campaign=campaign, name="Engineer")
    set_ratings(engineer, agility=1, athletics=1)  # 2 dice
    return make(campaign, goal=6, pool=2), engineer


def test_scifi_a_fumble_resets_an_extended_action(scifi_task):
    task, engineer = scifi_task
    roll_into(task, (7, 8), engineer)
    assert roll_into(task, (1, 2), engineer).outcome == "fumble"
    assert (fresh(task).total, fresh(task).rolls) == (0, 2)


def test_scifi_the_extended_actions_fumble_is_judged_as_the_odds_judge_it(scifi_task):
    task, engineer = scifi_task
    roll_into(task, (7, 8), engineer)
    logged = roll_into(task, (1, 7), engineer, difficulty="hard")
    expected = scifi.advance_extended(rules_extended.ExtendedState(goal=6, total=2, rolls=1),
                                      scifi.Roll((1, 7)), difficulty=0)
    assert expected.total == 3
    assert logged.result["extended"]["total"] == expected.total


# --- parallel rolls into one extended action -------------------------------------------------------
#
# As in test_concurrency.py: each thread has its own connection; tests/web/conftest.py makes the
# SQLite test database a file, where IMMEDIATE transactions queue the writers; on PostgreSQL the
# extended action's row lock (select_for_update in services._advance_extended) does it. Every
# thread's dice wait (up to WINDOW seconds) for all the others to reach their dice too, so on
# PostgreSQL the N transactions really are open at once when they reach the row.

WINDOW = 0.5
THREADS = 8


class Meet:
    """A random source showing one face; its first die waits for the other threads' first dice."""

    def __init__(self, barrier: threading.Barrier, face: int) -> None:
        self.barrier, self.face, self.waited = barrier, face, False

    def randint(self, a: int, b: int) -> int:
        if not self.waited:
            self.waited = True
            try:
                self.barrier.wait(timeout=WINDOW)
            except threading.BrokenBarrierError:
                pass  # the writers are queued (SQLite): fine
        return max(a, min(b, self.face))




@pytest.mark.django_db(transaction=True)
def test_parallel_rolls_into_one_extended_action_never_lose_an_update(gm):
    campaign = Campaign.objects.create(name="Siege", game=Game.EXALTED, gm=gm)
    task = make(campaign, goal=200)
    # Thread i rolls i + 1 dice all showing 10 (odd i) or 7 (even i): 2 or 1 successes a die.
    comps = [compose(campaign, dice=i + 1, extended=task.pk) for i in range(THREADS)]
    gains = [(i + 1) * (2 if i % 2 else 1) for i in range(THREADS)]
    meet = threading.Barrier(THREADS)
    dice = [Meet(meet, 10 if i % 2 else 7) for i in range(THREADS)]

    results = run_at_once(*(lambda i=i: services.record_roll(campaign, comps[i], dice[i]) for i in range(THREADS)))

    assert all(isinstance(r, Roll) for r in results), results
    task = fresh(task)
    assert task.total == sum(gains)
    assert task.rolls == THREADS
    assert Roll.objects.filter(extended=task).count() == THREADS
    # Each roll saw the total its predecessor left: the running totals step by each roll's own gain.
    running = sorted((r.result["extended"]["total"], r.result["main"]["successes"]) for r in results)
    assert [total for total, _ in running] == [sum(g for _, g in running[: k + 1]) for k in range(THREADS)]
    assert sorted(r.result["extended"]["rolls"] for r in results) == list(range(1, THREADS + 1))


class Sevens:
    """A stateless random source: every die shows 7 (safe to share between threads)."""

    def randint(self, a: int, b: int) -> int:
        return max(a, min(b, 7))


@pytest.mark.django_db(transaction=True)
def test_parallel_roll_requests_into_one_extended_action_never_lose_an_update(gm, monkeypatch):
    import rules.dice

    monkeypatch.setattr(rules.dice, "system_random", lambda: Sevens())
    campaign = Campaign.objects.create(name="Siege", game=Game.EXALTED, gm=gm)
    task = make(campaign, goal=200)
    clients = []
    for _ in range(6):
        client = Client()
        client.force_login(gm)
        clients.append(client)
    url = reverse("roll", args=[campaign.pk])

    def post(i: int):
        return clients[i].post(url, form_data(campaign, dice=i + 1, extended=task.pk)).status_code

    statuses = run_at_once(*(lambda i=i: post(i) for i in range(6)))

    assert statuses == [200] * 6, statuses
    task = fresh(task)
    assert (task.total, task.rolls) == (1 + 2 + 3 + 4 + 5 + 6, 6)
    assert Roll.objects.filter(extended=task).count() == 6


# --- issue 11, item 8: bounded inputs, odds computed once per state ------------------------------


def test_a_tug_of_war_limit_beyond_the_engines_bound_is_refused(campaign, gm_client):
    limit = rules_extended.MAX_TUG_ROUNDS + 1
    with pytest.raises(ValidationError, match="limit"):
        make(campaign, kind="tug", goal=200, pool=100, opponent_pool=100, limit=limit)
    data = {**VALID, "kind": "tug", "goal": 200, "pool": 100, "opponent_pool": 100, "limit": limit}
    assert "limit" in refusal(gm_client.post(reverse("extended-create", args=[campaign.pk]), data)).lower()
    # The same limit is fine for a solo action or a race (MAX_ROLLS), and the field stops there.
    make(campaign, kind="race", goal=200, pool=100, opponent_pool=100, limit=rules_extended.MAX_ROLLS)
    with pytest.raises(ValidationError, match="limit"):
        make(campaign, goal=200, pool=100, limit=rules_extended.MAX_ROLLS + 1)


def test_an_actions_odds_are_computed_once_per_state_not_on_every_render(campaign, gm_client, monkeypatch):
    from django.core.cache import cache

    from gmtools import odds as odds_module

    cache.clear()
    computed = []
    real = odds_module.compute_extended_panel
    monkeypatch.setattr(odds_module, "compute_extended_panel", lambda action, game: computed.append(action.pk)
                        or real(action, game))
    # The worst accepted tug-of-war: 100 dice a side, a lead of 200, the longest limit.
    tug = make(campaign, kind="tug", goal=200, pool=100, opponent_pool=100, limit=rules_extended.MAX_TUG_ROUNDS)
    solo = make(campaign, goal=10, pool=5)
    for _ in range(3):
        assert gm_client.get(reverse("table", args=[campaign.pk])).status_code == 200
        assert gm_client.get(reverse("extended-list", args=[campaign.pk])).status_code == 200
    assert sorted(computed) == sorted([tug.pk, solo.pk])  # once each, across six renders
    roll_into(solo, (10, 7, 2, 2, 2), dice=5)  # a new state: its odds once more, the tug's not
    gm_client.get(reverse("table", args=[campaign.pk]))
    gm_client.get(reverse("extended-list", args=[campaign.pk]))
    assert sorted(computed) == sorted([tug.pk, solo.pk, solo.pk])
    panel = extended_panel(fresh(tug), Game.EXALTED)
    mine = exalted.Request(pool=100, difficulty=0)
    odds = rules_extended.tug_of_war_odds(exalted.contest(mine, mine).margin, 200, rules_extended.MAX_TUG_ROUNDS)
    assert panel.p_done == pytest.approx(odds.p_first_by[-1], abs=1e-12)


# --- a race's dead heat, broken as the GM chose (issue 22, item 8) ---------------------------------


def test_a_dead_heat_goes_to_the_most_successes_on_that_roll(campaign, gm_client):
    race = make(campaign, kind="race", goal=5, opponent="Rival", tie_break="roll")
    roll_into(race, (10, 10, 2) + (10, 10, 2), dice=3, opponent_dice=3)  # 4 vs 4
    last = roll_into(race, (7, 2, 2) + (10, 2, 2), dice=3, opponent_dice=3)  # +1 vs +2: both there
    race = fresh(race)
    assert (race.total, race.opponent_total, race.winner, race.tie_winner, race.over) == (5, 6, "second", "second", True)
    assert (last.result["extended"]["winner"], last.result["extended"]["tie_winner"]) == ("second", "second")
    card = status(gm_client.get(reverse("extended-list", args=[campaign.pk])), race)
    assert "dead heat: most successes on that roll wins" in card
    assert "Won by Rival on the dead heat's tie-break" in card


def test_a_dead_heat_on_as_many_successes_stays_a_tie_under_the_roll_rule(campaign):
    race = make(campaign, kind="race", goal=5, opponent="Rival", tie_break="roll")
    roll_into(race, (10, 10, 2) + (10, 10, 2), dice=3, opponent_dice=3)  # 4 vs 4
    roll_into(race, (7, 2, 2) + (7, 2, 2), dice=3, opponent_dice=3)     # 5 vs 5
    assert (fresh(race).winner, fresh(race).tie_winner, fresh(race).over) == ("tie", "", True)


def test_a_roll_off_is_rolled_until_one_side_rolls_more(campaign, gm, gm_client):
    # The dead heat comes on the limit's last roll: the roll-off still goes on.
    race = make(campaign, kind="race", goal=5, opponent="Rival", tie_break="rolloff", limit=2, pool=3, opponent_pool=3)
    roll_into(race, (10, 10, 2) + (10, 10, 2), dice=3, opponent_dice=3)
    heat = roll_into(race, (7, 2, 2) + (10, 2, 2), dice=3, opponent_dice=3)  # 5 vs 6 on roll 2 of 2
    race = fresh(race)
    assert (race.winner, race.rolling_off, race.over) == (None, True, False)
    card = status(gm_client.get(reverse("extended-list", args=[campaign.pk])), race)
    contest = exalted.contest(exalted.Request(pool=3), exalted.Request(pool=3))
    p_win = contest.p_win / (contest.p_win + contest.p_lose)
    assert extended_panel(race, Game.EXALTED).p_done == pytest.approx(p_win, abs=1e-12)
    assert "Dead heat: roll off" in card and f"{percent(p_win)} to win the roll-off" in card

    level = roll_into(race, (7, 2, 2) + (7, 2, 2), dice=3, opponent_dice=3)  # 1 vs 1: again
    assert level.result["extended"]["rolled"]["roll_off"] is True
    assert "Roll-off of the dead heat in “Task”" in recap.extras(level, player=True)
    assert "Roll-off of the dead heat in “Task”" in html(gm_client.get(reverse("table", args=[campaign.pk])))
    race = fresh(race)
    assert (race.total, race.opponent_total, race.rolls, race.rolling_off) == (5, 6, 2, True)  # roll-offs add nothing
    decider = roll_into(race, (10, 7, 2) + (7, 2, 2), dice=3, opponent_dice=3)  # 3 vs 1
    race = fresh(race)
    assert (race.winner, race.tie_winner, race.over, race.rolls) == ("first", "first", True, 2)
    assert decider.result["extended"]["winner"] == "first"
    assert "is over" in refused_by_composer(campaign, dice=3, opponent_dice=3, extended=race.pk)

    # Voiding the decider reopens the roll-off; voiding the dead heat's roll replays the level
    # roll as a race roll: 4 + 1 vs 4 + 1, a dead heat again, rolled off.
    services.void_roll(decider, gm)
    race = fresh(race)
    assert (race.winner, race.tie_winner, race.rolling_off) == (None, "", True)
    services.void_roll(heat, gm)
    race = fresh(race)
    assert (race.total, race.opponent_total, race.rolls, race.rolling_off, race.over) == (5, 5, 2, True, False)


def test_the_race_odds_split_dead_heats_as_the_gm_chose(campaign):
    mine, theirs = exalted.Request(pool=4), exalted.Request(pool=4)
    contest = exalted.contest(mine, theirs)
    for rule in rules_extended.TieBreak:
        race = make(campaign, kind="race", goal=4, pool=4, opponent_pool=4, tie_break=rule)
        odds = rules_extended.race_odds(exalted.extended(mine, 4, 0, "reset", 20, 0),
                                        exalted.extended(theirs, 4, 0, "reset", 20, 0), rule=rule, rolls=contest)
        panel = extended_panel(race, Game.EXALTED)
        assert (panel.p_done, panel.p_lose) == (pytest.approx(odds.p_first_by[-1], abs=1e-12),
                                                pytest.approx(odds.p_second_by[-1], abs=1e-12))
    tie, roll_off = (extended_panel(ExtendedAction.objects.get(tie_break=rule), Game.EXALTED)
                     for rule in ("tie", "rolloff"))
    assert roll_off.p_done + roll_off.p_lose > tie.p_done + tie.p_lose  # the dead heats went to a side


def test_the_tie_break_is_chosen_on_creating_a_race_and_refused_elsewhere(campaign, gm_client):
    url = reverse("extended-create", args=[campaign.pk])
    assert gm_client.post(url, {**VALID, "kind": "race", "tie_break": "rolloff"}).status_code == 200
    assert ExtendedAction.objects.get().tie_break == "rolloff"
    assert "dead heat" in refusal(gm_client.post(url, {**VALID, "tie_break": "rolloff"}))  # a solo task
    assert "on a dead heat" in refusal(gm_client.post(url, {**VALID, "kind": "race", "tie_break": "coin"})).lower()
    assert ExtendedAction.objects.count() == 1
    gm_client.post(url, VALID)  # left out: a tie, as before
    assert ExtendedAction.objects.latest("id").tie_break == "tie"


# --- its traits: what picking it in the composer selects (issue 23 leftovers) ---------------------------

@pytest.mark.parametrize("lang, typed", [("en", "Dexterity + Athletics"), ("es", " destreza+ATLETISMO ")])
def test_an_action_made_for_a_character_keeps_the_traits_its_text_names(campaign, climber, gm_client, lang, typed):
    gm_client.cookies["django_language"] = lang
    response = gm_client.post(reverse("extended-create", args=[campaign.pk]),
                              {**VALID, "character": climber.pk, "traits": typed}, headers={"accept-language": lang})
    assert response.status_code == 200, html(response)[:500]
    action = ExtendedAction.objects.get()
    assert (action.first, action.second) == (climber.traits.get(key="dexterity"), climber.traits.get(key="athletics"))
    assert action.traits == typed.strip()  # as the GM typed it
    # The composer's list offers it with them, for static/gmtools.js to select.
    page = html(gm_client.get(reverse("composer", args=[campaign.pk]), {"character": climber.pk}))
    listed = page.split('name="extended"', 1)[1].split("</select>", 1)[0]
    option = re.search(rf'<option value="{action.pk}"[^>]*>', listed).group(0)
    assert f'data-first="{action.first_id}"' in option and f'data-second="{action.second_id}"' in option


@pytest.mark.parametrize("typed", ["", "Dexterity", "Dexterity + Flying", "Dexterity + Athletics + Melee", "Str + Ath"])
def test_a_text_naming_no_pair_of_its_characters_traits_keeps_none_until_a_roll(campaign, climber, typed):
    one = typed == "Dexterity"
    action = make(campaign, character=climber, traits=typed)
    assert (action.first, action.second) == ((climber.traits.get(key="dexterity"), None) if one else (None, None))
    # None without a character to read them from.
    assert (make(campaign, traits="Dexterity + Athletics").first_id, make(campaign).second_id) == (None, None)
    if not one:
        roll_into(action, (7, 8, 9, 2, 3, 4), climber)
        assert (fresh(action).first, fresh(action).second) == (climber.traits.get(key="dexterity"),
                                                                climber.traits.get(key="athletics"))


def test_the_first_roll_with_traits_names_them_and_the_next_ones_change_nothing(campaign, climber, set_ratings):
    action = make(campaign)
    set_ratings(climber, strength=2)
    roll_into(action, (7, 8, 9, 2, 3, 4), climber)  # Dexterity + Athletics
    roll_into(action, (7, 8, 9, 2, 3), climber, first=climber.traits.get(key="strength").pk)  # Strength + Athletics
    action = fresh(action)
    assert (action.character, action.traits) == (climber, "Dexterity + Athletics")
    assert (action.first, action.second) == (climber.traits.get(key="dexterity"), climber.traits.get(key="athletics"))
    # A trait deleted since leaves its place empty (the action stays).
    climber.traits.filter(key="athletics").delete()
    assert (fresh(action).first_id, fresh(action).second_id) == (climber.traits.get(key="dexterity").pk, None)


@pytest.mark.parametrize("made_in, typed, shown", [
    ("en", "Dexterity + Athletics", {"en": "Dexterity + Athletics", "es": "{dexterity} + {athletics}"}),
    ("es", "destreza+ATLETISMO", {"en": "Dexterity + Athletics", "es": "{dexterity} + {athletics}"}),
    ("en", "Dexterity + Athletics, climbing", {"en": "Dexterity + Athletics, climbing", "es": "Dexterity + Athletics, climbing"}),
])
def test_the_list_says_the_actions_traits_in_the_viewers_language(campaign, climber, gm_client, made_in, typed, shown):
    """The third walkthrough read "Strength + Melee" on a Spanish table: the traits the text names are
    said in the viewer's language; a text that says more is shown as written."""
    with translation.override(made_in):
        make(campaign, character=climber, traits=typed)
    for lang in ("en", "es"):
        gm_client.cookies["django_language"] = lang
        with translation.override(lang):
            expected = shown[lang].format(**{key: str(climber.traits.get(key=key).label) for key in ("dexterity", "athletics")})
        page = html(gm_client.get(reverse("table", args=[campaign.pk])))
        listed = page.split('id="extended-list"', 1)[1]
        assert f"{climber.name} · {expected}</span>" in listed, lang
