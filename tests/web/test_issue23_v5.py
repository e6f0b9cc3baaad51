"""Issue 23, items 3 to 5, server side (V5): mortals and ghouls have no Hunger, teamwork says what
it did to the pool, and a full Health or Willpower tracker impairs the pools it governs.

The browser side (under the settings ``make run`` ships, both languages) is in
test_browser_issue23_v5.py.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from gmtools.formatting import percent
from gmtools.games.v5.models import V5Resources
from gmtools.models import Character, Roll
from rules import v5
from tests.games import Game
from tests.web.helpers import compose_and_roll

pytestmark = pytest.mark.django_db


def odds_html(client, character: Character, **data) -> str:
    fields = {"character": character.pk, "dice": 0, "modifier": 0, "pool_from": "traits", "difficulty": 2,
              "shortcut": "roll", "difficulty_modifier": 0, **data}
    answer = client.get(reverse("odds", args=[character.campaign.pk]), fields)
    assert answer.status_code == 200
    return answer.content.decode()


def win_chance(html: str) -> str:
    return re.findall(r'class="p"[^>]*>([^<]*)', html)[0]


def traits(character: Character, first: str, second: str | None = None) -> dict[str, int]:
    return {"first": character.traits.get(key=first).pk,
            **({"second": character.traits.get(key=second).pk} if second else {})}


def table_html(client, campaign) -> str:
    return client.get(reverse("table", args=[campaign.pk])).content.decode()


def card_of(html: str, character: Character) -> str:
    start = html.index(f'id="character-{character.pk}"')
    return html[start:html.index("</article>", start)] if "</article>" in html[start:] else html[start:start + 4000]


# --- item 3: mortals and ghouls have no Hunger -------------------------------------------------

@pytest.fixture
def thug(gm_client, make_character) -> Character:
    campaign = make_character(Game.V5, name="Bhavna", v5_hunger=2).campaign
    answer = gm_client.post(reverse("npc-template", kwargs={"pk": campaign.pk}),
                            {"template": "thug", "name": "Thug", "count": 1})
    assert answer.status_code == 200
    return campaign.characters.get(name="Thug")


@pytest.mark.parametrize("template, nature", [("mortal", "mortal"), ("thug", "mortal"), ("ghoul", "ghoul")])
def test_the_mortal_and_ghoul_templates_make_characters_without_hunger(gm_client, make_character, template, nature):
    campaign = make_character(Game.V5, name="Bhavna").campaign
    gm_client.post(reverse("npc-template", kwargs={"pk": campaign.pk}), {"template": template, "name": "X", "count": 1})
    row = V5Resources.objects.get(character__name="X")
    assert row.nature == nature and not row.has_hunger and row.hunger == 0


@pytest.mark.parametrize("lang, words", [("en", "Thug is a mortal: mortals have no Hunger and make no rouse check."),
                                         ("es", "Thug es mortal: los mortales no tienen Ansia ni hacen controles de Enardecimiento.")])
def test_a_mortal_cannot_rouse_and_nothing_is_written(gm_client, thug, lang, words):
    rolls = Roll.objects.count()
    answer = gm_client.post(reverse("check", args=[thug.campaign.pk, thug.pk, "rouse"]), HTTP_HX_REQUEST="true",
                            HTTP_ACCEPT_LANGUAGE=lang)
    assert answer.status_code == 422
    assert words in answer.content.decode()
    assert Roll.objects.count() == rolls and V5Resources.objects.get(pk=thug.pk).hunger == 0


def test_a_ghoul_cannot_rouse_nor_change_hunger(gm_client, make_character):
    ghoul = make_character(Game.V5, name="Renfield", v5_hunger=0)
    V5Resources.objects.filter(pk=ghoul.pk).update(nature="ghoul")
    answer = gm_client.post(reverse("check", args=[ghoul.campaign.pk, ghoul.pk, "rouse"]), HTTP_HX_REQUEST="true")
    assert answer.status_code == 422 and "Renfield is a ghoul" in answer.content.decode()
    answer = gm_client.post(reverse("adjust", args=[ghoul.campaign.pk, ghoul.pk]), {"action": "hunger-up"},
                            HTTP_HX_REQUEST="true")
    assert answer.status_code == 422 and "ghouls have no Hunger" in answer.content.decode()
    assert V5Resources.objects.get(pk=ghoul.pk).hunger == 0 and not Roll.objects.exists()


def test_a_mortal_rolls_no_hunger_dice_even_with_a_hunger_rating_left_over(thug):
    # A rating left from before the character was made a mortal (the sheet now refuses one).
    V5Resources.objects.filter(pk=thug.pk).update(hunger=3)
    logged = compose_and_roll(thug.campaign, thug, (6, 2, 9, 1, 3, 4), **traits(thug, "strength", "brawl"))
    assert logged.request["hunger"] == 0 and logged.main["hunger_faces"] == [] and len(logged.main["faces"]) == 6


def test_a_vampire_still_rolls_hunger_dice_and_rouses(gm_client, make_character, set_ratings, scripted_dice):
    vampire = make_character(Game.V5, name="Bhavna", v5_hunger=2)
    set_ratings(vampire, strength=2, brawl=1)
    logged = compose_and_roll(vampire.campaign, vampire, (6, 2, 9))
    assert logged.main["hunger_faces"] == [2, 9]
    scripted_dice(3)
    answer = gm_client.post(reverse("check", args=[vampire.campaign.pk, vampire.pk, "rouse"]), HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and V5Resources.objects.get(pk=vampire.pk).hunger == 3


def test_the_card_and_the_phone_show_no_hunger_for_a_mortal(gm_client, client, thug):
    html = table_html(gm_client, thug.campaign)
    card = card_of(html, thug)
    assert 'data-resource="hunger"' not in card and "/check/rouse/" not in card
    assert 'data-testid="nature"' in card and "Mortal" in card and "No Hunger" in card
    vampire = thug.campaign.characters.get(name="Bhavna")
    assert 'data-resource="hunger"' in card_of(html, vampire)
    Character.objects.filter(pk=thug.pk).update(kind="pc")  # the phone shows the party: a mortal among them
    phone = client.get(f"/p/{thug.campaign.player_token}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert phone.count('data-resource="hunger"') == 1  # Bhavna's alone
    assert "Mortal" in phone and "Sin Ansia" in phone


def test_the_sheet_refuses_hunger_for_a_mortal_and_writes_nothing(thug):
    row = V5Resources.objects.get(pk=thug.pk)
    row.hunger = 2
    with pytest.raises(Exception) as refused:
        row.full_clean()
    assert "A mortal has no Hunger" in str(refused.value)
    assert V5Resources.objects.get(pk=thug.pk).hunger == 0


# --- item 4: teamwork, in the pool, the odds and words ---------------------------------------

@pytest.fixture
def elias(make_character, set_ratings) -> Character:
    elias = make_character(Game.V5, name="Elias", v5_hunger=0)
    set_ratings(elias, intelligence=3, occult=2)
    return elias


def helper(campaign, name: str, **ratings: int) -> Character:
    character = Character.objects.create_with_sheet(campaign=campaign, name=name)
    V5Resources.objects.filter(pk=character.pk).update(hunger=0)
    for key, rating in ratings.items():
        character.traits.filter(key=key).update(rating=rating)
    return character


def test_teamwork_with_a_skilled_helper_adds_a_die_to_the_pool_and_the_odds(gm_client, elias, scripted_dice):
    bhavna = helper(elias.campaign, "Bhavna", intelligence=2, occult=1)
    alone = odds_html(gm_client, elias, **traits(elias, "intelligence", "occult"), difficulty=4)
    helped = odds_html(gm_client, elias, **traits(elias, "intelligence", "occult"), difficulty=4, team=[bhavna.pk])
    assert win_chance(alone) == percent(v5.odds(v5.Request(pool=5, difficulty=4)).p_win)
    assert win_chance(helped) == percent(v5.odds(v5.Request(pool=6, difficulty=4)).p_win)
    assert "Teamwork: +1 die (Bhavna)" in helped
    logged = compose_and_roll(elias.campaign, elias, (6, 6, 7, 8, 2, 3), **traits(elias, "intelligence", "occult"),
                              difficulty=4, team=[bhavna.pk])
    assert logged.request["pool"] == 6 and logged.main["successes"] == 4 and logged.outcome == "win"


def test_teamwork_says_a_helper_without_the_skill_adds_no_die(gm_client, elias):
    """The walkthrough's case: Bhavna has no Occult, so the seed gives no die; the table now says so."""
    bhavna = helper(elias.campaign, "Bhavna", intelligence=2, occult=0)
    helped = odds_html(gm_client, elias, **traits(elias, "intelligence", "occult"), difficulty=4, team=[bhavna.pk])
    assert win_chance(helped) == percent(v5.odds(v5.Request(pool=5, difficulty=4)).p_win)
    assert "Teamwork: no die from Bhavna, without a dot in Occult" in helped
    logged = compose_and_roll(elias.campaign, elias, (6, 2, 9, 1, 3), **traits(elias, "intelligence", "occult"),
                              team=[bhavna.pk])
    assert logged.result["helpers"] == ["Bhavna"] and logged.result["helpers_idle"] == ["Bhavna"]
    card = table_html(gm_client, elias.campaign)
    assert "Helped by Bhavna · no die from Bhavna (no dot in the skill)" in card


def test_teamwork_rolls_a_helpers_larger_pool_and_says_so(gm_client, elias):
    big = helper(elias.campaign, "Bhavna", intelligence=4, occult=3)  # 7 dice against Elias's 5
    helped = odds_html(gm_client, elias, **traits(elias, "intelligence", "occult"), difficulty=4, team=[big.pk])
    assert win_chance(helped) == percent(v5.odds(v5.Request(pool=8, difficulty=4)).p_win)
    assert "Teamwork: Bhavna has the largest pool and rolls it" in helped and "Teamwork: +1 die (Elias)" in helped


# --- item 5: the impaired state --------------------------------------------------------------

@pytest.fixture
def leo(make_character, set_ratings) -> Character:
    leo = make_character(Game.V5, name="Leo", v5_hunger=0)
    set_ratings(leo, dexterity=2, stamina=2, athletics=1, charisma=3, persuasion=2, composure=2, resolve=2)
    return leo


def test_a_full_health_tracker_takes_two_dice_from_physical_pools_alone(gm_client, leo):
    V5Resources.objects.filter(pk=leo.pk).update(health_superficial=3, health_aggravated=2)  # 5 boxes, all damaged
    physical = odds_html(gm_client, leo, **traits(leo, "dexterity", "athletics"), difficulty=1)
    assert win_chance(physical) == percent(v5.odds(v5.Request(pool=1, difficulty=1)).p_win)  # 3 − 2
    assert "Impaired: −2 dice" in physical
    social = odds_html(gm_client, leo, **traits(leo, "charisma", "persuasion"), difficulty=1)
    assert win_chance(social) == percent(v5.odds(v5.Request(pool=5, difficulty=1)).p_win)
    assert "Impaired" not in social
    logged = compose_and_roll(leo.campaign, leo, (6,), **traits(leo, "dexterity", "athletics"), difficulty=1)
    assert logged.request["impaired"] and len(logged.main["faces"]) == 1
    card = card_of(table_html(gm_client, leo.campaign), leo)
    assert 'data-testid="impaired-health"' in card and "Impaired (Health): −2 dice to Physical pools" in card


def test_one_box_short_is_not_impaired(gm_client, leo):
    V5Resources.objects.filter(pk=leo.pk).update(health_superficial=4)
    physical = odds_html(gm_client, leo, **traits(leo, "dexterity", "athletics"), difficulty=1)
    assert win_chance(physical) == percent(v5.odds(v5.Request(pool=3, difficulty=1)).p_win)
    assert "impaired-health" not in card_of(table_html(gm_client, leo.campaign), leo)


def test_a_full_willpower_tracker_takes_two_dice_from_social_and_mental_pools(gm_client, client, leo):
    V5Resources.objects.filter(pk=leo.pk).update(willpower_superficial=4)  # Composure 2 + Resolve 2
    social = odds_html(gm_client, leo, **traits(leo, "charisma", "persuasion"), difficulty=2)
    assert win_chance(social) == percent(v5.odds(v5.Request(pool=3, difficulty=2)).p_win)
    mental = odds_html(gm_client, leo, **traits(leo, "resolve"), difficulty=2)
    assert win_chance(mental) == percent(v5.odds(v5.Request(pool=1, difficulty=2)).p_win)  # 2 − 2, at least 1
    physical = odds_html(gm_client, leo, **traits(leo, "dexterity", "athletics"), difficulty=2)
    assert win_chance(physical) == percent(v5.odds(v5.Request(pool=3, difficulty=2)).p_win)
    # A Willpower roll is a tracker's: its own undamaged boxes (1 die), no further penalty.
    tracker = odds_html(gm_client, leo, pool_from="willpower", difficulty=2)
    assert win_chance(tracker) == percent(v5.odds(v5.Request(pool=1, difficulty=2)).p_win)
    phone = client.get(f"/p/{leo.campaign.player_token}/").content.decode()
    assert "Impaired (Willpower): −2 dice to Social and Mental pools" in phone
    spanish = client.get(f"/p/{leo.campaign.player_token}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Debilitado (Fuerza de Voluntad): −2 dados a las reservas Sociales y Mentales" in spanish
