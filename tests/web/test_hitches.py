"""Issue 9, server side: refusals never replace the page, fragments stay fresh after a follow-up.

The browser side of each item (under the settings ``make run`` ships, both languages) is in
test_browser_hitches.py.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from gmtools import live, services
from gmtools.games.fate.models import FateResources
from gmtools.games.v5.models import V5Resources
from gmtools.models import ChangeKind, Character, ExtendedAction, Roll, Scene
from tests.games import Game
from tests.web.helpers import named_aspect, COMMON, DEFAULTS, POOL_TRAITS, Faces
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
    response = gm_client.post(reverse("follow-up", args=[v5.campaign.pk, first.pk, "reroll"]), {"dice": [1]})
    html = response.content.decode()
    assert response.status_code == 200
    tag = re.search(rf'<article[^>]*id="roll-{first.pk}"[^>]*>', html)
    # The answer is the roll's own card, which the form swaps in place (issue 23: the reroll is a line on it).
    assert tag and 'hx-swap-oob' not in tag.group(0) and html.count('class="card roll-card') == 1
    parent = html.split(tag.group(0), 1)[1].split("</article>", 1)[0]
    assert "reroll-form" not in parent and 'data-testid="follow-ups"' in parent


def test_a_tracker_roll_offers_no_willpower_reroll(v5, gm_client):
    # V5: Willpower cannot reroll a Willpower or Humanity roll; the card does not offer what would be refused.
    plain = roll(v5.campaign, v5, (6, 2, 9))
    tracker = roll(v5.campaign, v5, (6, 2, 9, 3), pool_from="willpower")
    assert tracker.request["tracker"] and len(tracker.main["faces"]) + len(tracker.main["hunger_faces"]) == 4
    page = gm_client.get(reverse("table", args=[v5.campaign.pk])).content.decode()
    assert "reroll-form" in card_of(page, plain.pk)
    assert "reroll-form" not in card_of(page, tracker.pk)


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
    into = re.search(r'<select name="extended"[^>]*hx-swap-oob="true"[^>]*>.*?</select>', html, re.S).group(0)
    option = re.search(rf'<option value="{action.pk}"[^>]*>', into).group(0)
    assert " selected" in option and f'data-roller="{koi.pk}"' in option  # still chosen, and Koi's now
    assert Roll.objects.get().extended_id == action.pk


@pytest.mark.parametrize("end", ["end-scene", "start-scene", "end-episode", "start-episode", "start-story"])
def test_the_end_of_a_scene_empties_fates_stress_boxes_and_keeps_consequences(make_character, gm_client, end):
    hero = make_character(Game.FATE, name="Brann", fate_stress_1=True, fate_stress_3=True, fate_consequence_mild="Bruised")
    services.start_scene(hero.campaign)
    FateResources.objects.filter(character=hero).update(stress_2=True)
    response = gm_client.post(reverse("time", args=[hero.campaign.pk]), {"do": end})
    assert response.status_code == 200
    hero.refresh_from_db()
    assert (hero.resources.stress_1, hero.resources.stress_2, hero.resources.stress_3) == (False, False, False)
    assert hero.resources.consequence_mild == "Bruised"
    assert f'id="character-{hero.pk}"' in response.content.decode()  # the card is redrawn empty


def test_a_new_scene_starts_without_the_last_scenes_declared_actions(make_character, set_ratings):
    koi = make_character(Game.EXALTED, name="Koi")
    scene = services.start_scene(koi.campaign)
    services.declare_actions(scene, koi, 3)
    services.start_scene(koi.campaign)
    from gmtools import board
    cast = list(board.characters(koi.campaign))
    board.annotate_turn(cast, Scene.objects.current(koi.campaign))
    assert cast[0].turn_declared == 1


def test_stress_is_not_cleared_when_no_scene_was_in_play(make_character):
    hero = make_character(Game.FATE, name="Brann", fate_stress_1=True)
    services.start_scene(hero.campaign)  # the first scene: nothing ended
    hero.refresh_from_db()
    assert hero.resources.stress_1


def test_a_reroll_is_not_offered_without_willpower_left(v5, gm_client):
    logged = roll(v5.campaign, v5, (6, 2, 9))
    html = gm_client.get(reverse("table", args=[v5.campaign.pk])).content.decode()
    assert "reroll-form" in html
    V5Resources.objects.filter(character=v5).update(willpower_superficial=4)  # Composure 2 + Resolve 2: all damaged
    live.announce(v5.campaign.pk, ChangeKind.CHARACTER, character=v5)  # as every write at the table does
    html = gm_client.get(reverse("table", args=[v5.campaign.pk])).content.decode()
    assert "reroll-form" not in html and f'id="roll-{logged.pk}"' in html


def test_an_invocation_offers_only_what_can_be_paid(make_character, set_ratings, gm_client):
    from gmtools.games.fate.models import Aspect
    hero = make_character(Game.FATE, name="Zara", fate_points=0)
    free = Aspect.objects.create(character=hero, text="Free-spirited pilot", free_invocations=1)
    paid = Aspect.objects.create(character=hero, text="Owes the mob")
    roll(hero.campaign, hero, (0, 0, 0, 0))
    html = gm_client.get(reverse("table", args=[hero.campaign.pk])).content.decode()
    form = html.split('class="d-flex flex-wrap gap-1 align-items-center small mt-1 invoke-form"', 1)[1].split("</form>", 1)[0]
    assert f'value="{free.pk}"' in form and f'value="{paid.pk}"' not in form and "Fate point" not in form
    Aspect.objects.filter(pk=free.pk).update(free_invocations=0)
    live.announce(hero.campaign.pk, ChangeKind.CHARACTER, character=hero)  # as every write at the table does
    html = gm_client.get(reverse("table", args=[hero.campaign.pk])).content.decode()
    assert "invoke-form" not in html  # nothing left to pay with: no invocation on offer


# --- one verdict for an opposed roll (item 3) ---------------------------------------------------

def card_of(html: str, roll_pk: int) -> str:
    return html.split(f'id="roll-{roll_pk}"', 1)[1].split("</article>", 1)[0]


def verdict_of(card: str) -> str:
    return re.search(r'data-testid="verdict">([^<]*)<', card).group(1)


@pytest.mark.parametrize("game, traits, faces, opponent, expected, not_shown", [
    # Exalted: 3 vs 2 (the seed's Koi and the guard), difficulty 3 would have failed her.
    (Game.EXALTED, {"dexterity": 3, "stealth": 3}, (1, 3, 5, 7, 8, 8, 3, 6, 8, 9), 4, "Koi wins by 1", ["Failure", "margin"]),
    # V5: 1 success against 3 at difficulty 4: the guard wins by 2, no "Total failure · margin".
    (Game.V5, {"strength": 2, "brawl": 1}, (6, 2, 2, 7, 7, 7), 3, "Guard wins by 2", ["margin", "Failure"]),
    # scifi: 2 vs 1, the seed's tracker: a narrow win.
    (Game.SCIFI, {"perception": 3, "survival": 2}, (4, 9, 2, 2, 7, 1, 5, 8), 3, "Koi wins narrowly (by 1)", ["margin"]),
    # scifi: 0 vs 3: the degree is the winner's, the opposing side's too ("Guard wins by 3" said none).
    (Game.SCIFI, {"perception": 3, "survival": 2}, (2, 2, 2, 2, 2, 8, 9, 7), 3, "Guard wins overwhelmingly (by 3)",
     ["margin", "fumble"]),
])
def test_an_opposed_roll_has_one_verdict_from_the_contest(make_character, set_ratings, gm_client, scripted_dice,
                                                         game, traits, faces, opponent, expected, not_shown):
    koi = make_character(game, name="Koi", **({"v5_hunger": 0} if game == Game.V5 else {}))
    set_ratings(koi, **traits)
    first, second = list(traits)
    data = {"character": koi.pk, "first": koi.traits.get(key=first).pk, "second": koi.traits.get(key=second).pk,
            "dice": 0, "modifier": 0, "pool_from": "traits", "stunt": 0, "shortcut": "roll", "kind": "short",
            "difficulty": {Game.EXALTED: 3, Game.V5: 4, Game.SCIFI: "hard"}[game],
            "opponent_dice": opponent, "opponent": "Guard"}
    scripted_dice(*faces)
    html = gm_client.post(reverse("roll", args=[koi.campaign.pk]), data).content.decode()
    card = card_of(html, Roll.objects.get().pk)
    assert verdict_of(card) == expected
    assert card.count('data-testid="verdict"') == 1
    for word in not_shown:
        assert word not in card, word


def test_a_fate_opposed_roll_is_judged_against_the_opponent_not_the_ladder(make_character, set_ratings, gm_client,
                                                                           scripted_dice):
    hero = make_character(Game.FATE, name="Zara")
    set_ratings(hero, forceful=2)
    data = {"character": hero.pk, "first": hero.traits.get(key="forceful").pk, "dice": 0, "modifier": 0,
            "difficulty": 0, "stunt_bonus": 0, "helpers": 0, "action": "overcome", "opponent_dice": 3, "opponent": "Ogre"}
    scripted_dice(1, 1, 0, 0, -1, 0, 0, 0)  # Zara +2 +2 = +4; the Ogre +3 −1 = +2: success by 2, not "style" vs Mediocre
    html = gm_client.post(reverse("roll", args=[hero.campaign.pk]), data).content.decode()
    card = card_of(html, Roll.objects.get().pk)
    assert verdict_of(card) == "Success against Ogre"
    assert "total +4 vs +2 · shifts +2" in card and "Success with style" not in card


# --- teamwork (item 8) -----------------------------------------------------------------------

def test_exalted_teamwork_card_and_odds_count_the_helpers(make_character, set_ratings, gm_client, scripted_dice):
    from gmtools.formatting import percent
    from rules import exalted
    lead = make_character(Game.EXALTED, name="Smith")
    helper = Character.objects.create_with_sheet(campaign=lead.campaign, name="Lyra")
    set_ratings(lead, strength=4, athletics=3)
    helper.traits.filter(key="strength").update(rating=3)
    helper.traits.filter(key="athletics").update(rating=2)
    data = {"character": lead.pk, "first": lead.traits.get(key="strength").pk,
            "second": lead.traits.get(key="athletics").pk, "dice": 0, "modifier": 0, "pool_from": "traits",
            "stunt": 0, "difficulty": 4, "team": [helper.pk]}
    odds = gm_client.get(reverse("odds", args=[lead.campaign.pk]), data).content.decode()
    team = exalted.teamwork_odds(exalted.Request(pool=7, difficulty=4), [exalted.Request(pool=5, difficulty=0)])
    assert percent(team.p_success) in odds and percent(exalted.odds(exalted.Request(pool=7, difficulty=4)).p_success) not in odds
    # The seed's teamwork: 1 3 4 6 7 9 9 (3) + Lyra's 1 1 3 6 7 (1) = 4 of difficulty 4: a success.
    scripted_dice(1, 3, 4, 6, 7, 9, 9, 1, 1, 3, 6, 7)
    html = gm_client.post(reverse("roll", args=[lead.campaign.pk]), data).content.decode()
    card = card_of(html, Roll.objects.get().pk)
    assert verdict_of(card) == "Success"
    assert "4 successes with help (3 own) · margin 0" in card
    # Lyra's own dice beside her count, as the opposition's are.
    team = card.split('data-testid="team"', 1)[1].split("</div>", 1)[0]
    assert re.findall(r'title="(\d+)"', team) == ["1", "1", "3", "6", "7"]
    assert " ".join(re.sub(r"<[^>]+>", " ", team).split()).endswith("Helpers: Lyra 1 1 3 6 7 1 success")



@pytest.mark.parametrize("game", [Game.EXALTED, Game.V5])
def test_the_roller_is_no_helper_of_its_own_roll(make_character, gm_client, game):
    """Teamwork offers the other characters only (issue 23: the walkthrough's Koi helped himself); a
    roll naming its roller as helper anyway (a page drawn for another character) leaves it out."""
    lead = make_character(game, name="Koi")
    helper = Character.objects.create_with_sheet(campaign=lead.campaign, name="Lyra")
    page = gm_client.get(reverse("composer", args=[lead.campaign.pk]), {"character": lead.pk}).content.decode()
    offered = re.findall(r'name="team" value="(\d+)"', page)
    assert offered == [str(helper.pk)]
    first, second = (lead.traits.get(key=key).pk for key in POOL_TRAITS[game])
    answer = gm_client.post(reverse("roll", args=[lead.campaign.pk]), {
        **COMMON, **DEFAULTS[game], "character": lead.pk, "first": first, "second": second, "team": [lead.pk]})
    assert answer.status_code == 200, answer.content.decode()[-600:]
    assert Roll.objects.get().result.get("helpers") is None


# --- words (items 9 and 10) --------------------------------------------------------------------

@pytest.mark.parametrize("interval, rolls, english, spanish", [
    ("1 turn", 3, "3 turns", "3 turnos"), ("1 turn", 1, "1 turn", "1 turno"), ("10 minutes", 3, "30 minutes", "30 minutos"),
    ("1 día", 2, "2 days", "2 días"), ("2 ratas", 2, "4 ratas", "4 ratas"),
])
def test_elapsed_time_is_a_sentence_in_the_active_language(interval, rolls, english, spanish):
    from django.utils import translation
    action = ExtendedAction(interval=interval, rolls=rolls)
    with translation.override("en"):
        assert action.elapsed == english
    with translation.override("es"):
        assert action.elapsed == spanish


def test_a_rolls_label_reads_in_the_viewers_language_whatever_it_was_rolled_in(v5, gm_client):
    from django.utils import translation
    with translation.override("es"):
        logged = roll(v5.campaign, v5, (6, 2, 9))  # composed by a GM reading Spanish
    assert logged.label == "Fuerza + Pelea"
    english = gm_client.get(reverse("table", args=[v5.campaign.pk])).content.decode()
    spanish = gm_client.get(reverse("table", args=[v5.campaign.pk]), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Strength + Brawl" in card_of(english, logged.pk) and "Fuerza + Pelea" in card_of(spanish, logged.pk)
    services.check(v5, "rouse", Faces(8))
    rouse = Roll.objects.latest("id")
    assert "Rouse check · Rouse check" not in gm_client.get(reverse("table", args=[v5.campaign.pk])).content.decode()
    assert "Control de Enardecimiento" in card_of(
        gm_client.get(reverse("table", args=[v5.campaign.pk]), HTTP_ACCEPT_LANGUAGE="es").content.decode(), rouse.pk)


def test_spends_read_as_words_never_as_keys(make_character, gm_client):
    from gmtools.games.fate.models import Aspect
    hero = make_character(Game.FATE, name="Zara", fate_points=2)
    Aspect.objects.create(character=hero, text="Owes the mob")
    first = roll(hero.campaign, hero, (0, 0, 0, 0))
    services.follow_up(first, "invoke", Faces(), aspect=named_aspect(first), mode="bonus")  # paid with a fate point
    html = gm_client.get(reverse("table", args=[hero.campaign.pk])).content.decode()
    assert "fate_point" not in html and "1 fate point" in html


def test_chances_use_the_languages_decimal_mark(v5, gm_client):
    data = {"character": v5.pk, "first": v5.traits.get(key="strength").pk, "second": v5.traits.get(key="brawl").pk,
            "dice": 0, "modifier": 0, "difficulty": 2, "pool_from": "traits", "shortcut": "roll"}
    spanish = gm_client.get(reverse("odds", args=[v5.campaign.pk]), data, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    chances = re.findall(r'<div class="p">([^<]*)</div>', spanish)
    assert chances and all("." not in c for c in chances) and any("," in c for c in chances)


def test_published_discipline_names_and_blank_choices_read_in_spanish(v5, gm_client):
    from gmtools.models import Trait
    from django.utils import translation
    dominate = Trait.objects.create(character=v5, category="discipline", name="Dominate", rating=2)
    own = Trait.objects.create(character=v5, category="discipline", name="Whispering Shadows", rating=1)
    with translation.override("es"):
        assert str(dominate.label) == "Dominación" and str(own.label) == "Whispering Shadows"
    html = gm_client.get(reverse("table", args=[v5.campaign.pk]), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "- Select an option -" not in html and "- Elige una opción -" in html


def test_the_spanish_export_names_a_roll_with_the_noun(v5, gm_client):
    import csv
    import io
    roll(v5.campaign, v5, (6, 2, 9))
    text = gm_client.get(reverse("export", args=[v5.campaign.pk]), {"part": "campaign", "format": "csv"},
                         HTTP_ACCEPT_LANGUAGE="es").content.decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [row["kind"] for row in rows] == ["Tirada"]  # not "Tirar", the Roll button's verb


def test_the_composer_takes_the_pools_the_engine_and_extended_actions_take():
    from gmtools.composer import POOL_MAX
    from rules import exalted, scifi, v5

    assert POOL_MAX == exalted.MAX_POOL == v5.MAX_POOL == scifi.MAX_POOL == 100
    field = ExtendedAction._meta.get_field("opponent_pool")
    assert [v.limit_value for v in field.validators if v.code == "max_value"] == [POOL_MAX]


def test_a_hundred_dice_a_side_roll_from_the_composer(v5, gm_client, scripted_dice):
    scripted_dice(*([6] * 100), *([2] * 100))
    data = {"character": "", "dice": 100, "modifier": 0, "difficulty": 1, "pool_from": "traits", "shortcut": "roll",
            "opponent_dice": 100}
    response = gm_client.post(reverse("roll", args=[v5.campaign.pk]), data)
    assert response.status_code == 200, response.content.decode()[:500]
    assert Roll.objects.get().result["opposed"]["winner"] == "first"
