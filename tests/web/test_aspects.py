"""Fate's aspects at the table and the scene's notes (issue 10, "Aspects and the scene").

Situation aspects and boosts belong to the scene in play; Create an advantage makes its aspect
(seed 004's table); a boost goes once invoked; any aspect in play can be invoked, the same one
twice on a roll only with two free invocations; the scene's notes in every game. The rules these
tests hold are written in ``gmtools/games/fate/aspects.py``. Every roll draws scripted faces.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from gmtools import services
from gmtools.composer import ComposerForm
from gmtools.games.fate.models import Aspect
from gmtools.models import Campaign, Change, ChangeKind, Character, Roll, Scene
from gmtools.services import Refused
from tests.games import Game
from tests.web.helpers import COMMON, DEFAULTS, Faces, set_resources

pytestmark = pytest.mark.django_db

ZEROS = (0, 0, 0, 0)  # Forceful 2 + 0 on the dice: a total of +2


def trait(character: Character, key: str) -> int:
    return character.traits.get(key=key).pk


def fresh(character: Character) -> Character:
    return Character.objects.get(pk=character.pk)


@pytest.fixture
def hero(make_character, set_ratings) -> Character:
    character = make_character(Game.FATE, name="Zara", fate_points=2)
    set_ratings(character, forceful=2)
    Aspect.objects.create(character=character, kind="high_concept", text="Free-spirited pilot", free_invocations=1)
    return character


@pytest.fixture
def scene(hero) -> Scene:
    return services.start_scene(hero.campaign, title="The burning warehouse")


def form_for(hero: Character, **data) -> ComposerForm:
    campaign = hero.campaign
    return ComposerForm(campaign, {**COMMON, **DEFAULTS[Game.FATE], "character": hero.pk,
                                   "first": trait(hero, "forceful"), **data}, scene=Scene.objects.current(campaign))


def roll(hero: Character, faces=ZEROS, **data) -> Roll:
    form = form_for(hero, **data)
    assert form.is_valid(), form.errors
    rng = Faces(*faces)
    logged = services.record_roll(hero.campaign, form.cleaned_data["composition"], rng)
    assert rng.spent
    return logged


def advantage(hero: Character, difficulty: int, text: str = "Smoke everywhere", **data) -> Roll:
    return roll(hero, difficulty=difficulty, action="create_advantage", advantage=text, **data)


def errors(form: ComposerForm) -> str:
    assert not form.is_valid()
    return " ".join(str(e) for errs in form.errors.values() for e in errs)


# --- Create an advantage ------------------------------------------------------------------------


@pytest.mark.parametrize(("difficulty", "outcome", "free", "boost"), [
    (1, "success", 1, False),  # +2 against +1: the aspect with one free invocation
    (-1, "style", 2, False),  # three shifts: two free invocations
    (2, "tie", 1, True),  # a new aspect on a tie: a boost (seed 004)
])
def test_create_an_advantage_puts_its_aspect_on_the_scene(hero, scene, difficulty, outcome, free, boost):
    logged = advantage(hero, difficulty)
    assert logged.outcome == outcome
    made = Aspect.objects.get(text="Smoke everywhere")
    assert made.scene == scene and made.character is None
    assert (made.free_invocations, made.boost) == (free, boost)
    assert logged.result["advantage"]["aspect"] == made.pk
    assert Change.objects.filter(campaign=hero.campaign, kind=ChangeKind.ROLL, roll=logged).exists()  # redraws the time bar


def test_a_secret_roll_cannot_create_an_aspect(hero, scene):
    form = form_for(hero, difficulty=0, action="create_advantage", advantage="Smoke everywhere", hidden="on")
    assert not form.is_valid()
    assert "A secret roll cannot create an aspect" in str(form.errors)


@pytest.mark.parametrize("hidden", ["", "on"])
def test_create_an_advantage_names_its_aspect(hero, scene, hidden):
    """Left empty, the roll went ahead and its card promised an aspect, or a boost, that nothing made
    (the third walkthrough): refused before the dice, with where to type it."""
    form = form_for(hero, difficulty=0, action="create_advantage", advantage="  ", hidden=hidden)
    assert not form.is_valid()
    assert "Create an advantage names its aspect: type it in “Aspect to create”" in str(form.errors)
    assert form_for(hero, difficulty=0, action="overcome", hidden=hidden).is_valid()  # the other actions name none


def test_a_failed_create_an_advantage_makes_nothing(hero, scene):
    logged = advantage(hero, 3)
    assert logged.outcome == "fail"
    assert not Aspect.objects.filter(text="Smoke everywhere").exists()
    assert logged.result["advantage"]["aspect"] is None
    assert logged.result["effect"]["code"] == "create_advantage_fail"


def test_create_an_advantage_on_a_character_ends_with_the_scene(hero, scene, make_character):
    ogre = Character.objects.create_with_sheet(campaign=hero.campaign, name="Ogre", kind="npc")
    logged = advantage(hero, -1, "Off balance", advantage_on=ogre.pk)
    made = Aspect.objects.get(text="Off balance")
    assert made.character == ogre and made.scene == scene and made.free_invocations == 2
    assert logged.result["advantage"]["on"] == ogre.pk and logged.result["advantage"]["on_name"] == "Ogre"
    # The ogre's card is redrawn (it is not the roller's).
    assert Change.objects.filter(campaign=hero.campaign, kind=ChangeKind.CHARACTER, character=ogre).exists()
    services.end_scene(scene)
    assert not Aspect.objects.filter(text="Off balance").exists()
    assert Aspect.objects.filter(text="Free-spirited pilot").exists()  # a character's own aspects stay


def test_create_an_advantage_on_a_known_aspect_adds_free_invocations(hero, scene):
    fire = Aspect.objects.create(scene=scene, text="On fire")
    logged = advantage(hero, 2, "on FIRE")  # a tie on a known aspect: one free invocation, not a boost
    assert logged.result["effect"]["code"] == "create_advantage_known_invoke"
    fire.refresh_from_db()
    assert fire.free_invocations == 1 and not fire.boost
    assert Aspect.objects.filter(text__iexact="on fire").count() == 1


def test_a_situation_aspect_needs_a_scene(hero):
    message = errors(form_for(hero, action="create_advantage", advantage="Smoke everywhere"))
    assert "No scene is in play" in message
    # On a character it needs none; the name is ignored by the other actions.
    assert form_for(hero, action="create_advantage", advantage="Focused", advantage_on=hero.pk).is_valid()
    assert form_for(hero, action="overcome", advantage="Smoke everywhere").is_valid()


def test_an_invocation_that_turns_a_fail_into_success_creates_the_aspect(hero, scene):
    dark, cramped = (Aspect.objects.create(scene=scene, text=text) for text in ("Dark", "Cramped"))
    failed = advantage(hero, 3)  # +2 against +3
    assert not Aspect.objects.filter(text="Smoke everywhere").exists()
    success = services.follow_up(failed, "invoke", Faces(), aspect=dark, mode="bonus")  # a fate point: +4, one shift
    made = Aspect.objects.get(text="Smoke everywhere")
    assert success.outcome == "success" and made.free_invocations == 1
    style = services.follow_up(success, "invoke", Faces(), aspect=cramped, mode="bonus")  # +6: three shifts, the second free invocation
    made.refresh_from_db()
    assert style.outcome == "style" and made.free_invocations == 2
    assert Aspect.objects.filter(text="Smoke everywhere").count() == 1
    assert fresh(hero).resources.points == 0


def test_a_tie_s_boost_becomes_the_aspect_when_an_invocation_makes_it_a_success(hero, scene):
    tie = advantage(hero, 2)
    boost = Aspect.objects.get(text="Smoke everywhere")
    assert boost.boost
    services.follow_up(tie, "invoke", Faces(), aspect=Aspect.objects.create(scene=scene, text="Dark"), mode="bonus")
    boost.refresh_from_db()
    assert not boost.boost and boost.free_invocations == 1


def test_the_aspect_a_roll_made_cannot_be_invoked_on_that_roll(hero, scene):
    logged = advantage(hero, -1)
    made = Aspect.objects.get(text="Smoke everywhere")
    with pytest.raises(Refused, match="comes from this roll"):
        services.follow_up(logged, "invoke", Faces(), aspect=made, mode="bonus")
    assert Aspect.objects.get(pk=made.pk).free_invocations == 2


# --- boosts, and any aspect in play ------------------------------------------------------------


def test_a_boost_is_gone_once_invoked(hero, scene):
    boost = Aspect.objects.create(scene=scene, text="Dazzled guard", boost=True, free_invocations=1)
    logged = roll(hero, invoke=[boost.pk])
    assert logged.result["main"]["total"] == 4
    assert not Aspect.objects.filter(pk=boost.pk).exists()
    assert logged.spends[0]["what"] == "free_invocation" and fresh(hero).resources.points == 2
    # ...and after the roll too.
    other = Aspect.objects.create(scene=scene, text="Slippery floor", boost=True, free_invocations=1)
    child = services.follow_up(roll(hero), "invoke", Faces(), aspect=other, mode="bonus")
    assert child.result["invoke"]["paid"] == "free_invocation"
    assert not Aspect.objects.filter(pk=other.pk).exists()


def test_any_aspect_in_play_is_offered_and_paid_by_the_roller(hero, scene, make_character):
    ally = Character.objects.create_with_sheet(campaign=hero.campaign, name="Ivo")
    set_resources(ally, fate_points=3)
    services.join_scene(scene, ally)
    theirs = Aspect.objects.create(character=ally, text="Knows every alley")
    shared = Aspect.objects.create(character=ally, text="Lucky charm", free_invocations=1)
    situation = Aspect.objects.create(scene=scene, text="On fire")
    away = Character.objects.create_with_sheet(campaign=hero.campaign, name="Away", kind="npc")
    Aspect.objects.create(character=away, text="Not in the scene", free_invocations=2)
    elsewhere = make_character(Game.FATE, name="Stranger")
    Aspect.objects.create(character=elsewhere, text="Another table", free_invocations=2)
    offered = list(form_for(hero).fields["invoke"].queryset)
    assert [a.text for a in offered] == ["Free-spirited pilot", "On fire", "Knows every alley", "Lucky charm"]
    labels = [label for _value, label in form_for(hero).fields["invoke"].choices]
    assert labels == ["Free-spirited pilot (1 free)", "On fire (scene)", "Knows every alley (Ivo)", "Lucky charm (Ivo, 1 free)"]

    logged = roll(hero, invoke=[theirs.pk, situation.pk, shared.pk])
    assert logged.result["main"]["total"] == 8
    assert fresh(hero).resources.points == 0  # two fate points, the roller's
    assert fresh(ally).resources.points == 3
    assert Aspect.objects.get(pk=shared.pk).free_invocations == 0
    # Ivo's card shows the free invocation used.
    assert Change.objects.filter(campaign=hero.campaign, kind=ChangeKind.CHARACTER, character=ally).exists()


def test_an_aspect_out_of_play_is_refused(hero, scene, gm_client):
    away = Character.objects.create_with_sheet(campaign=hero.campaign, name="Away", kind="npc")
    aside = Aspect.objects.create(character=away, text="Not in the scene", free_invocations=2)
    assert "Select a valid choice" in errors(form_for(hero, invoke=[aside.pk]))
    logged = roll(hero)
    response = gm_client.post(reverse("follow-up", args=[hero.campaign_id, logged.pk, "invoke"]), {"aspect": aside.pk, "mode": "bonus"})
    assert response.status_code == 422 and "Select a valid choice" in response.content.decode()
    assert Aspect.objects.get(pk=aside.pk).free_invocations == 2


# --- the same aspect twice on one roll ----------------------------------------------------------


def test_two_free_invocations_invoke_the_same_aspect_twice(hero, scene):
    smoke = Aspect.objects.create(scene=scene, text="Smoke everywhere", free_invocations=2)
    form = form_for(hero)
    assert list(form.fields["invoke_again"].queryset) == [smoke]  # only an aspect with two free invocations
    logged = roll(hero, invoke=[smoke.pk], invoke_again=[smoke.pk])
    assert logged.result["main"]["total"] == 6
    assert [s["what"] for s in logged.spends] == ["free_invocation", "free_invocation"]
    assert Aspect.objects.get(pk=smoke.pk).free_invocations == 0 and fresh(hero).resources.points == 2
    assert logged.result["invoked"] == [{"aspect": smoke.pk, "paid": "free_invocation"}] * 2
    # A third time, with a fate point: refused, and nothing is paid.
    with pytest.raises(Refused, match="already invoked on this roll"):
        services.follow_up(logged, "invoke", Faces(), aspect=Aspect.objects.get(pk=smoke.pk), mode="bonus")
    assert fresh(hero).resources.points == 2 and not logged.children.exists()


def test_the_second_invocation_must_be_free_and_ticked_with_the_first(hero, scene):
    once = Aspect.objects.create(scene=scene, text="One chance", free_invocations=1)
    twice = Aspect.objects.create(scene=scene, text="Smoke everywhere", free_invocations=2)
    assert "Select a valid choice" in errors(form_for(hero, invoke=[once.pk], invoke_again=[once.pk]))
    assert "among the aspects to invoke too" in errors(form_for(hero, invoke_again=[twice.pk]))


def test_never_two_fate_points_on_one_aspect(hero, scene):
    fire = Aspect.objects.create(scene=scene, text="On fire")
    logged = roll(hero, invoke=[fire.pk])
    assert fresh(hero).resources.points == 1
    with pytest.raises(Refused, match="already invoked on this roll"):
        services.follow_up(logged, "invoke", Faces(), aspect=fire, mode="bonus")
    assert fresh(hero).resources.points == 1
    # Nor a free invocation on top of the paid one: seed 004 allows one aspect twice on a roll only as
    # a success with style's two free invocations (rules.fate.may_invoke), not Fate Core's stacking.
    Aspect.objects.filter(pk=fire.pk).update(free_invocations=1)
    with pytest.raises(Refused, match="already invoked on this roll"):
        services.follow_up(logged, "invoke", Faces(), aspect=Aspect.objects.get(pk=fire.pk), mode="bonus")
    assert Aspect.objects.get(pk=fire.pk).free_invocations == 1 and not logged.children.exists()


def test_a_free_invocation_then_the_same_aspect_free_again_after_the_roll(hero, scene):
    smoke = Aspect.objects.create(scene=scene, text="Smoke everywhere", free_invocations=2)
    logged = roll(hero, invoke=[smoke.pk])  # its first free invocation, with the roll
    child = services.follow_up(logged, "invoke", Faces(), aspect=Aspect.objects.get(pk=smoke.pk), mode="bonus")  # its second, after it
    assert child.result["invoke"]["paid"] == "free_invocation" and child.result["main"]["total"] == 6
    assert Aspect.objects.get(pk=smoke.pk).free_invocations == 0
    with pytest.raises(Refused, match="already invoked on this roll"):  # never a third time
        services.follow_up(child, "invoke", Faces(), aspect=Aspect.objects.get(pk=smoke.pk), mode="bonus")


# --- the views: the time bar, the card, the composer, the players ------------------------------


def html(response) -> str:
    return response.content.decode()


def test_the_gm_adds_and_removes_situation_aspects_from_the_time_bar(gm_client, hero, scene):
    add = reverse("scene-change", args=[hero.campaign_id, "aspect-add"])
    changes = Change.objects.filter(campaign=hero.campaign, kind=ChangeKind.TIME).count()
    response = gm_client.post(add, {"text": "  Crates   everywhere ", "free_invocations": 2})
    assert response.status_code == 200 and "aspects-changed" in response["HX-Trigger"]
    crates = Aspect.objects.get(scene=scene)
    assert crates.text == "Crates everywhere" and crates.free_invocations == 2 and not crates.boost
    assert 'id="time-bar"' in html(response) and "Crates everywhere" in html(response) and "2 free" in html(response)
    assert Change.objects.filter(campaign=hero.campaign, kind=ChangeKind.TIME).count() == changes + 1  # the time bar, live
    response = gm_client.post(add, {"text": "Dazzled", "free_invocations": 3, "boost": "on"})
    assert Aspect.objects.get(text="Dazzled").free_invocations == 1  # a boost has exactly one
    assert "boost" in html(response)

    remove = reverse("scene-change", args=[hero.campaign_id, "aspect-remove"])
    assert gm_client.post(remove, {"aspect": crates.pk}).status_code == 200
    assert not Aspect.objects.filter(pk=crates.pk).exists()
    again = gm_client.post(remove, {"aspect": crates.pk})  # a second click: refused beside the time bar, not a 404 page
    assert again.status_code == 422 and "no longer on the scene" in html(again)
    # A character's aspect is not the scene's to remove.
    mine = hero.aspects.get()
    assert gm_client.post(remove, {"aspect": mine.pk}).status_code == 422
    assert Aspect.objects.filter(pk=mine.pk).exists()


def test_situation_aspects_are_refused_without_a_scene_or_a_name_or_outside_fate(gm_client, hero, make_character):
    add = reverse("scene-change", args=[hero.campaign_id, "aspect-add"])
    response = gm_client.post(add, {"text": "Crates"})
    assert response.status_code == 422 and "No scene is in play" in html(response)
    services.start_scene(hero.campaign)
    assert gm_client.post(add, {"text": "   "}).status_code == 422
    assert gm_client.post(add, {"text": "x" * 201}).status_code == 422
    vampire = make_character(Game.V5, name="Nadia")
    services.start_scene(vampire.campaign)
    response = gm_client.post(reverse("scene-change", args=[vampire.campaign_id, "aspect-add"]), {"text": "Crates"})
    assert response.status_code == 422 and "Fate" in html(response)
    assert not Aspect.objects.filter(character__isnull=True).exists()


def test_another_gm_finds_no_scene_to_change(client, other_gm, hero, scene):
    crates = Aspect.objects.create(scene=scene, text="Crates", free_invocations=1)
    client.force_login(other_gm)
    pk = hero.campaign_id
    for url, data in ((reverse("scene-change", args=[pk, "aspect-add"]), {"text": "Mine now"}),
                      (reverse("scene-change", args=[pk, "aspect-remove"]), {"aspect": crates.pk}),
                      (reverse("scene-notes", args=[pk]), {"notes": "Mine now"})):
        assert client.post(url, data).status_code == 404
    assert client.get(reverse("composer-field", args=[pk, "invoke"]), {"character": hero.pk}).status_code == 404
    assert list(Aspect.objects.filter(scene=scene).values_list("text", flat=True)) == ["Crates"]
    assert Scene.objects.get(pk=scene.pk).notes == ""


@pytest.mark.parametrize("game", [Game.FATE, Game.V5, Game.EXALTED, Game.SCIFI])
def test_scene_notes_in_every_game_reach_the_players(gm_client, make_character, game):
    character = make_character(game, name="Ana")
    scene = services.start_scene(character.campaign)
    url = reverse("scene-notes", args=[character.campaign_id])
    response = gm_client.post(url, {"notes": "The east wing is on fire.\nMarta hides in the loft."})
    assert response.status_code == 200 and "Marta hides in the loft." in html(response)
    assert Scene.objects.get(pk=scene.pk).notes == "The east wing is on fire.\nMarta hides in the loft."
    change = Change.objects.filter(campaign=character.campaign).last()
    assert change.kind == ChangeKind.TIME
    token = Campaign.objects.get(pk=character.campaign_id).player_token
    page = html(gm_client.get(reverse("player", args=[token])))
    assert "Marta hides in the loft." in page
    poll = gm_client.get(reverse("player-poll", args=[token]), {"after": change.pk - 1}).json()
    assert "Marta hides in the loft." in poll["events"][-1]["html"]
    too_long = gm_client.post(url, {"notes": "x" * 2001})
    assert too_long.status_code == 422 and "Scene notes hold at most 2000 characters." in html(too_long)
    nul = gm_client.post(url, {"notes": "a\x00b"})  # not "too long": what is wrong with it
    assert nul.status_code == 422 and "Null characters are not allowed." in html(nul)
    assert Scene.objects.get(pk=scene.pk).notes == "The east wing is on fire.\nMarta hides in the loft."
    services.end_scene(scene)
    assert gm_client.post(url, {"notes": "Late"}).status_code == 422


def test_the_players_see_the_scene_aspects_read_only(gm_client, client, hero, scene):
    Aspect.objects.create(scene=scene, text="Crates everywhere", free_invocations=2)
    Aspect.objects.create(scene=scene, text="Dazzled", boost=True, free_invocations=1)
    token = Campaign.objects.get(pk=hero.campaign_id).player_token
    page = html(client.get(reverse("player", args=[token])))
    shown = re.search(r'data-testid="scene-aspects">(.*?)</div>', page, re.S).group(1)
    assert "Crates everywhere" in shown and "2 free" in shown and "Dazzled" in shown and "boost" in shown
    assert "hx-post" not in shown and "aspect-remove" not in page


def test_the_card_says_which_aspect_was_invoked_and_offers_only_what_the_roll_allows(gm_client, hero, scene,
                                                                                      scripted_dice):
    smoke = Aspect.objects.create(scene=scene, text="Smoke everywhere", free_invocations=2)
    fire = Aspect.objects.create(scene=scene, text="On fire")
    data = {**COMMON, **DEFAULTS[Game.FATE], "character": hero.pk, "first": trait(hero, "forceful"),
            "invoke": [smoke.pk, fire.pk], "invoke_again": [smoke.pk], "difficulty": 8}
    scripted_dice(*ZEROS)
    response = gm_client.post(reverse("roll", args=[hero.campaign_id]), data)
    assert response.status_code == 200
    card = html(response).split('id="roll-', 2)[1]
    assert ("Invoked “Smoke everywhere” (free, twice), “On fire” (fate point)"
            in card.replace("&ldquo;", "“").replace("&rdquo;", "”"))
    options = re.findall(r'<option value="(\d*)">([^<]*)</option>', card.split("invoke-form", 1)[1].split("</form>", 1)[0])
    # No aspect chosen at first (an invocation names its aspect, issue 23), then the pilot's own aspect;
    # neither aspect already invoked (twice, or with a fate point).
    assert options == [("", "Choose an aspect…"), (str(hero.aspects.get().pk), "Free-spirited pilot (1 free)")]
    logged = Roll.objects.get()
    response = gm_client.post(reverse("follow-up", args=[hero.campaign_id, logged.pk, "invoke"]), {"aspect": fire.pk, "mode": "bonus"})
    assert response.status_code == 422 and "already invoked on this roll" in html(response)


def test_a_create_an_advantage_card_says_what_it_made(gm_client, hero, scene, scripted_dice):
    data = {**COMMON, **DEFAULTS[Game.FATE], "character": hero.pk, "first": trait(hero, "forceful"),
            "action": "create_advantage", "advantage": "Smoke everywhere", "difficulty": -1}
    scripted_dice(*ZEROS)
    response = gm_client.post(reverse("roll", args=[hero.campaign_id]), data)
    text = html(response).replace("&ldquo;", "“").replace("&rdquo;", "”")
    assert "New aspect “Smoke everywhere” on the scene, 2 free invocations" in text
    # The time bar comes with it (out of band) showing the new aspect.
    assert re.search(r'id="time-bar"[^>]*hx-swap-oob="true"', text) and "Smoke everywhere (" not in text.split('id="time-bar"')[0]


def test_the_composer_offers_the_new_aspects_again_keeping_what_is_ticked(gm_client, hero, scene):
    mine = hero.aspects.get()
    Aspect.objects.create(scene=scene, text="Smoke everywhere", free_invocations=2)
    url = reverse("composer-field", args=[hero.campaign_id, "invoke"])
    response = gm_client.get(url, {"character": hero.pk, "invoke": [mine.pk]})
    text = html(response)
    assert response.status_code == 200 and 'id="composer-invoke"' in text
    assert "Smoke everywhere (scene, 2 free)" in text
    assert re.search(rf'value="{mine.pk}"[^>]*checked', text)
    assert 'name="invoke_again"' in text  # its second free invocation is on offer
    vampire_campaign = Campaign.objects.create(name="Nights", game=Game.V5, gm=hero.campaign.gm)
    assert gm_client.get(reverse("composer-field", args=[vampire_campaign.pk, "invoke"])).content == b""
