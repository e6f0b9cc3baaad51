"""The GM's table through HTTP: pages and htmx fragments, permissions, CSRF, bad input, escaping,
the paginated log, and a query count that does not grow with the campaign.

The views roll with the system's random source; ``scripted_dice`` (conftest) replaces it where a
test needs known faces.
"""

from __future__ import annotations

import random
import re
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from gmtools import games, services
from gmtools.composer import ComposerForm
from gmtools.games.fate.models import Aspect
from gmtools.models import Campaign, Character, Roll, Trait
from gmtools.sheets import TraitCategory
from tests.games import Game
from gmtools.formatting import percent
from gmtools.games.exalted.models import ExaltedResources
from gmtools.games.v5.models import V5Resources
from gmtools.views import LOG_PAGE
from rules import exalted, fate, scifi, v5
from tests.web.helpers import COMMON, DEFAULTS, POOL_TRAITS, set_resources

pytestmark = pytest.mark.django_db

GAMES = [Game.EXALTED, Game.V5, Game.FATE, Game.SCIFI]
# Fields of other games (and of later issues) are ignored by the form of a game that lacks them.
# What each game's table shows that the others do not.
GAME_MARKERS = {
    Game.EXALTED: ("Stunt dice", "Personal motes", "Spend Willpower (+1 success)", "Botch"),
    Game.V5: ("Hunger", "Rouse", "Specialty (+1 die)", "Messy critical", "Bestial failure"),
    Game.FATE: ("Fate points", "Approach", "Invoke aspects (+2 each)", "Success with style"),
    Game.SCIFI: ("Common (1)", "Very hard (3)", "Fumble"),
}
# A padding trait category of each game's sheet, to give characters 40 traits.
PADDING = {Game.EXALTED: TraitCategory.BACKGROUND, Game.V5: TraitCategory.BACKGROUND,
           Game.FATE: TraitCategory.STUNT, Game.SCIFI: TraitCategory.ADVANTAGE}


def form_data(character: Character | None, **data) -> dict:
    game = character.campaign.game if character else data.pop("game")
    out = {**COMMON, **DEFAULTS[game]}
    if character is not None:
        out["character"] = character.pk
        first, second = POOL_TRAITS[game]
        out["first"] = character.traits.get(key=first).pk
        if second:
            out["second"] = character.traits.get(key=second).pk
    return {**out, **data}


def html(response) -> str:
    return response.content.decode()


def refusal(response) -> str:
    """The message of a refused request (the alert htmx swaps into #table-messages)."""
    assert response.status_code == 422, (response.status_code, html(response)[:500])
    assert response["HX-Retarget"] == "#table-messages"
    match = re.search(r'data-testid="refusal">(.*?)\s*<button', html(response), re.S)
    assert match, html(response)
    return match.group(1).strip()


@pytest.fixture
def table(make_character, set_ratings):
    """A campaign of a game with a ready character and one logged roll."""

    def make(game: str, **fields) -> Character:
        character = make_character(game, name=fields.pop("name", "Ana"), **fields)
        first, second = POOL_TRAITS[game]
        set_ratings(character, **{first: 3}, **({second: 2} if second else {}))
        if game == Game.FATE:
            Aspect.objects.create(character=character, kind="high_concept", text="Daring pilot", free_invocations=1)
        return character

    return make


def log_roll(character: Character, seed: int = 1, **data) -> Roll:
    form = ComposerForm(character.campaign, form_data(character, **data))
    assert form.is_valid(), form.errors
    return services.record_roll(character.campaign, form.cleaned_data["composition"], random.Random(seed))


# --- pages and fragments ---------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_the_table_page_renders_for_each_game(gm_client, table, game):
    character = table(game, name="Iria")
    response = gm_client.get(reverse("table", args=[character.campaign_id]))
    assert response.status_code == 200
    page = html(response)
    assert character.campaign.name in page and f'id="character-{character.pk}"' in page
    assert 'id="composer"' in page and 'id="log-list"' in page
    assert 'data-testid="odds"' in page  # the first character's best pool is priced at once
    assert "<svg" in page  # the distribution chart
    for marker in GAME_MARKERS[game]:
        assert marker in page, marker
    # The composer starts from the character's best pool (its highest traits).
    first, _ = POOL_TRAITS[game]
    selected = re.search(r'<select name="first"[^>]*>.*?</select>', page, re.S).group(0)
    assert re.search(rf'value="{character.traits.get(key=first).pk}" selected', selected)


@pytest.mark.parametrize("game", GAMES)
def test_a_table_without_characters_renders(gm_client, gm, game):
    campaign = Campaign.objects.create(name="Empty", game=game, gm=gm)
    response = gm_client.get(reverse("table", args=[campaign.pk]))
    assert response.status_code == 200
    assert "No characters yet" in html(response)


def test_an_empty_log_says_so_until_the_first_roll(gm_client, table):
    """The GM's log was a blank column under its filters; the players' already said "No rolls yet"."""
    character = table(Game.V5)
    empty = '<p class="text-body-secondary small" data-empty>No rolls yet'
    assert empty in html(gm_client.get(reverse("table", args=[character.campaign_id])))
    assert empty in html(gm_client.get(reverse("log", args=[character.campaign_id])))  # the filters' answer
    log_roll(character)
    assert empty not in html(gm_client.get(reverse("table", args=[character.campaign_id])))


@pytest.mark.parametrize("game", GAMES)
def test_the_composer_fragment_offers_the_chosen_characters_traits(gm_client, table, set_ratings, game):
    first_character = table(game, name="Iria")
    other = Character.objects.create_with_sheet(campaign=first_character.campaign, name="Zoe")
    key, _ = POOL_TRAITS[game]
    set_ratings(other, **{key: 4})
    response = gm_client.get(reverse("composer", args=[first_character.campaign_id]), {"character": other.pk})
    assert response.status_code == 200
    fragment = html(response)
    assert "<html" not in fragment and fragment.lstrip().startswith('<form id="composer"')
    assert re.search(rf'<option value="{other.pk}" selected>Zoe</option>', fragment)
    first = re.search(r'<select name="first"[^>]*>.*?</select>', fragment, re.S).group(0)
    assert re.search(rf'value="{other.traits.get(key=key).pk}" selected', first)
    assert f'value="{first_character.traits.get(key=key).pk}"' not in first  # only Zoe's traits
    assert 'data-testid="odds"' in fragment


def test_the_composer_fragment_for_an_unnamed_npc(gm_client, table):
    character = table(Game.EXALTED)
    response = gm_client.get(reverse("composer", args=[character.campaign_id]), {"character": ""})
    assert response.status_code == 200
    first = re.search(r'<select name="first"[^>]*>.*?</select>', html(response), re.S).group(0)
    assert "<option" not in first.replace('<option value="" selected>', "").replace('<option value="">', "")


def odds_of(client: Client, campaign: Campaign, **data) -> str:
    response = client.get(reverse("odds", args=[campaign.pk]), {**COMMON, **DEFAULTS[campaign.game], **data})
    assert response.status_code == 200
    fragment = html(response)
    assert "<html" not in fragment
    return fragment


def chances(fragment: str) -> list[str]:
    return [unescape(p) for p in re.findall(r'<div class="p">(.*?)</div>', fragment)]


def test_the_odds_fragment_follows_the_pool(gm_client, table):
    campaign = table(Game.EXALTED).campaign
    three = odds_of(gm_client, campaign, dice=3, difficulty=1)
    eight = odds_of(gm_client, campaign, dice=8, difficulty=1)
    p3 = exalted.odds(exalted.Request(pool=3)).p_success
    p8 = exalted.odds(exalted.Request(pool=8)).p_success
    assert percent(p3) == "78.4%" and percent(p8) == "98.3%"
    assert chances(three)[0] == "78.4%" and chances(eight)[0] == "98.3%"
    assert chances(three)[1] == percent(0.6**3 - 0.5**3)  # botch
    # A bar per visible count of successes: 0-6 for three dice (a 10 counts twice), more for eight.
    assert three.count("<rect") == 7 and eight.count("<rect") > 7


@pytest.mark.parametrize(("game", "data", "expected"), [
    (Game.EXALTED, {"dice": 6, "difficulty": 3, "stunt": 2},
     lambda: [exalted.odds(exalted.Request(pool=6, difficulty=3, stunt=2)).p_success,
              exalted.odds(exalted.Request(pool=6, difficulty=3, stunt=2)).p_botch]),
    (Game.V5, {"dice": 10, "difficulty": 2},
     lambda: (lambda o: [o.p_win, o.p_critical, o.p_messy, o.p_bestial, o.p_total_failure])(
         v5.odds(v5.Request(pool=10, difficulty=2)))),
    (Game.FATE, {"modifier": 2, "difficulty": 1},  # no extra dice in Fate (issue 23): the modifier is its bonus
     lambda: (lambda o: [o.p_success, o.p_style, o.p_tie, o.p_fail])(fate.odds(fate.Request(bonus=2, difficulty=1)))),
    (Game.SCIFI, {"dice": 4, "difficulty": "hard"},
     lambda: (lambda o: [o.p_success, o.p_fumble])(scifi.odds(scifi.Request(pool=4, difficulty="hard")))),
])
def test_the_odds_fragment_shows_the_exact_odds_of_each_game(gm_client, gm, game, data, expected):
    campaign = Campaign.objects.create(name="Odds", game=game, gm=gm)
    fragment = odds_of(gm_client, campaign, character="", **data)
    assert chances(fragment) == [percent(p) for p in expected()]
    assert "<svg" in fragment


def test_the_v5_odds_name_a_critical_win_as_the_rules_and_the_luck_page_do(gm_client, gm):
    """RULES.md's published Spanish term, "victoria crítica": the odds said "Crítico"."""
    campaign = Campaign.objects.create(name="Odds", game=Game.V5, gm=gm)
    gm_client.cookies["django_language"] = "es"
    fragment = odds_of(gm_client, campaign, character="", dice=10, difficulty=2)
    assert "Victoria crítica" in fragment and "Crítico<" not in fragment


def test_the_fate_odds_follow_the_deck(gm_client, gm):
    campaign = Campaign.objects.create(name="Deck", game=Game.FATE, gm=gm)
    set_resources(campaign, fate_uses_deck=True, fate_deck=[80, 0])
    fragment = odds_of(gm_client, campaign, character="", dice=0, difficulty=4)
    o = fate.deck_odds(fate.Request(bonus=0, difficulty=4), fate.Deck.from_list([80, 0]))
    # Two cards left, ++++ and ----: a tie or a failure, half and half.
    assert [o.p_success, o.p_style, o.p_tie, o.p_fail] == [0, 0, 0.5, 0.5]
    assert chances(fragment) == ["0%", "0%", "50%", "50%"]


def test_the_odds_fragment_shows_what_a_choice_buys(gm_client, table):
    character = table(Game.EXALTED)  # Dexterity 3 + Melee 2
    fragment = odds_of(gm_client, character.campaign, **form_data(character, difficulty=3))
    before = exalted.odds(exalted.Request(pool=5, difficulty=3)).p_success
    after = exalted.odds(exalted.Request(pool=5, difficulty=3, willpower=True)).p_success
    assert f"Willpower: {percent(before)} → {percent(after)}" in fragment


def test_an_automatic_success_shows_the_rolling_odds_and_warns_when_they_are_low(gm_client, gm):
    """Seed 000 leaves the automatic success to the GM: 7 dice at difficulty 10 would succeed 0.1% rolled."""
    campaign = Campaign.objects.create(name="Calm", game=Game.EXALTED, gm=gm)
    hard = odds_of(gm_client, campaign, character="", dice=7, difficulty=10, calm="on")
    rolled = exalted.odds(exalted.Request(pool=7, difficulty=10)).p_success
    assert chances(hard) == ["100%", percent(rolled)] and rolled < 0.002
    assert 'data-testid="pool-note"' in hard and f"{percent(rolled)} of the time" in unescape(hard)
    easy = odds_of(gm_client, campaign, character="", dice=7, difficulty=1, calm="on")
    assert chances(easy) == ["100%", percent(exalted.odds(exalted.Request(pool=7, difficulty=1)).p_success)]
    assert 'data-testid="pool-note"' not in easy


def test_the_odds_fragment_explains_an_unplayable_pool(gm_client, table):
    campaign = table(Game.EXALTED).campaign
    fragment = odds_of(gm_client, campaign, character="", dice=0)
    assert 'data-testid="odds-error"' in fragment and "cannot be rolled" in fragment
    assert 'data-testid="odds"' not in fragment


@pytest.mark.parametrize("game, en, es", [
    (Game.EXALTED, "Opposed, teamwork, extended action, note", "Oposición, trabajo en equipo, acción extendida, nota"),
    (Game.V5, "Opposed, teamwork, extended action, note", "Oposición, trabajo en equipo, acción extendida, nota"),
    (Game.SCIFI, "Opposed, extended action, note", "Oposición, acción extendida, nota"),
    (Game.FATE, "Opposed, note", "Oposición, nota"),
])
def test_the_composers_fold_names_what_it_holds(gm_client, table, game, en, es):
    """Its title promised teamwork to scifi and hid "Roll into extended action" (the third walkthrough)."""
    campaign = table(game).campaign
    for language, said in (("en", en), ("es", es)):
        gm_client.cookies["django_language"] = language
        page = html(gm_client.get(reverse("table", args=[campaign.pk])))
        assert re.search(r'class="mt-2 small composer-extras">\s*<summary>([^<]*)</summary>', page).group(1) == said
        assert ('name="extended"' in page) == ("extended action" in en)


@pytest.mark.parametrize("language, said, ours", [
    ("en", "Modifier: Ensure this value is less than or equal to 20.", "A character does not oppose itself: pick another."),
    ("es", "Modificador: Asegúrese de que este valor es menor o igual a 20.", "Un personaje no se opone a sí mismo: elige otro."),
])
def test_a_refused_field_is_named_beside_roll_and_in_the_odds(gm_client, table, language, said, ours):
    """Django's own message names no field: "Ensure this value is less than or equal to 20." under
    Roll left the GM looking for it (the third walkthrough, sci-fi's Modifier at 999)."""
    character = table(Game.SCIFI)
    gm_client.cookies["django_language"] = language
    fragment = unescape(odds_of(gm_client, character.campaign, **form_data(character, modifier=999)))
    assert 'data-testid="odds-error"' in fragment and said in fragment
    roll = gm_client.post(reverse("roll", args=[character.campaign.pk]), form_data(character, modifier=999))
    assert unescape(refusal(roll)) == said and not Roll.objects.filter(character=character).exists()
    # Ours name what they refuse already, and stay as written.
    itself = gm_client.post(reverse("roll", args=[character.campaign.pk]), form_data(character, opponent_character=character.pk))
    assert unescape(refusal(itself)) == ours


# --- rolling through the views ---------------------------------------------------------------


def test_a_roll_answers_its_card_and_the_characters_card(gm_client, table, scripted_dice):
    character = table(Game.EXALTED, exalted_willpower=5, exalted_willpower_temporary=3)
    scripted_dice(1, 4, 6, 1, 2)  # no success and two 1s
    response = gm_client.post(reverse("roll", args=[character.campaign_id]),
                              form_data(character, willpower="on", difficulty=2))
    assert response.status_code == 200
    roll = Roll.objects.get()
    fragment = html(response)
    assert fragment.lstrip().startswith(f'<article class="card roll-card mb-2" id="roll-{roll.pk}"')
    assert [int(f) for f in re.findall(r'class="die[^"]*" title="(\d+)"', fragment)] == [1, 4, 6, 1, 2]
    # Willpower's success saves it from the botch: the game's own words for what happened.
    assert 'data-testid="verdict">Failure<' in fragment
    assert "Spent: 1 Willpower" in fragment
    # The acting character's card comes along out of band, with the Willpower spent.
    oob = re.search(rf'<article[^>]*id="character-{character.pk}"[^>]*hx-swap-oob="true"[^>]*>.*?</article>', fragment, re.S)
    assert oob and re.search(r'<span class="value" data-resource="willpower"[^>]*>2/5</span>', oob.group(0))


@pytest.mark.parametrize(("game", "difficulty", "faces", "verdict"), [
    (Game.EXALTED, 1, (1, 4, 6, 1, 2), "Botch (2 ones)"),
    (Game.EXALTED, 3, (7, 8, 10, 1, 1), "Success"),
    (Game.V5, 1, (10, 6, 2, 3, 10), "Messy critical"),  # Hunger 1: one hunger die, drawn last
    (Game.V5, 1, (10, 6, 2, 10, 3), "Critical win"),
    (Game.V5, 2, (2, 3, 4, 6, 1), "Bestial failure"),
    (Game.V5, 2, (2, 3, 4, 6, 2), "Failure (win at a cost?)"),
    (Game.FATE, 1, (1, 1, 1, 0), "Success with style"),
    (Game.FATE, 5, (1, 1, 0, -1), "Fail"),
    (Game.SCIFI, "common", (1, 2, 3, 4, 5), "Fumble"),
    (Game.SCIFI, "common", (2, 1, 3, 4, 5), "Failure"),
    (Game.SCIFI, "hard", (2, 1, 10, 4, 5, 7), "Barely a success"),
])
def test_a_rolls_verdict_in_the_games_words(gm_client, table, scripted_dice, game, difficulty, faces, verdict):
    character = table(game)
    scripted_dice(*faces)
    response = gm_client.post(reverse("roll", args=[character.campaign_id]),
                              form_data(character, difficulty=difficulty))
    assert response.status_code == 200
    assert f'data-testid="verdict">{verdict}<' in html(response)
    assert not scripted_dice.faces


def test_a_roll_can_be_answered_in_spanish(gm_client, table, scripted_dice):
    character = table(Game.V5)
    scripted_dice(10, 6, 2, 3, 10)
    response = gm_client.post(reverse("roll", args=[character.campaign_id]), form_data(character),
                              headers={"accept-language": "es"})
    assert 'data-testid="verdict">Crítico conflictivo<' in html(response)


def test_follow_ups_through_the_views(gm_client, table, scripted_dice):
    vampire = table(Game.V5)  # 4 normal dice and a hunger die
    Trait.objects.filter(character=vampire, key__in=["composure", "resolve"]).update(rating=2)
    scripted_dice(1, 2, 3, 4, 5)
    parent = gm_client.post(reverse("roll", args=[vampire.campaign_id]), form_data(vampire))
    roll = Roll.objects.get()
    assert 'class="d-flex flex-wrap gap-1 align-items-center small mt-1 reroll-form"' in html(parent)
    scripted_dice(10, 9)
    response = gm_client.post(reverse("follow-up", args=[vampire.campaign_id, roll.pk, "reroll"]), {"dice": ["0", "2"]})
    assert response.status_code == 200
    child = Roll.objects.get(kind="reroll")
    assert child.result["main"]["faces"] == [10, 2, 9, 4]
    assert child.result["main"]["hunger_faces"] == [5]
    assert Character.objects.get(pk=vampire.pk).resources.willpower_superficial == 1
    # Rouse from the character card.
    scripted_dice(1)
    response = gm_client.post(reverse("check", args=[vampire.campaign_id, vampire.pk, "rouse"]))
    assert response.status_code == 200 and "Rouse check failed" in html(response)
    assert Character.objects.get(pk=vampire.pk).resources.hunger == 2


def test_a_passed_rouse_check_at_hunger_five_warns_of_frenzy_on_the_card(gm_client, table, scripted_dice):
    vampire = table(Game.V5)
    V5Resources.objects.filter(character=vampire).update(hunger=5)
    scripted_dice(8)
    response = gm_client.post(reverse("check", args=[vampire.campaign_id, vampire.pk, "rouse"]))
    assert response.status_code == 200
    assert "Hunger is still 5: the next failed rouse check calls for a hunger frenzy test" in html(response)
    assert Character.objects.get(pk=vampire.pk).resources.hunger == 5


def test_invoke_and_reward_through_the_views(gm_client, table, scripted_dice):
    hero = table(Game.FATE)
    aspect = hero.aspects.get()
    scripted_dice(0, 0, 0, 0)
    gm_client.post(reverse("roll", args=[hero.campaign_id]), form_data(hero, difficulty=4))
    roll = Roll.objects.get()
    response = gm_client.post(reverse("follow-up", args=[hero.campaign_id, roll.pk, "invoke"]), {"aspect": aspect.pk, "mode": "bonus"})
    assert response.status_code == 200 and 'data-testid="verdict">Success<' in html(response)
    assert Aspect.objects.get(pk=aspect.pk).free_invocations == 0

    solar = table(Game.EXALTED, name="Sol", exalted_motes_max=10, exalted_motes=0)
    scripted_dice(7, 1, 1, 1, 1, 1, 1)
    gm_client.post(reverse("roll", args=[solar.campaign_id]), form_data(solar, stunt=2))
    stunted = Roll.objects.filter(campaign=solar.campaign).get()
    response = gm_client.post(reverse("follow-up", args=[solar.campaign_id, stunted.pk, "reward"]), {"choice": "motes"})
    assert response.status_code == 200 and "Regained 2 motes" in html(response)
    assert Character.objects.get(pk=solar.pk).resources.motes == 2


def test_adjust_answers_the_refreshed_character_card(gm_client, table):
    character = table(Game.V5, v5_hunger=1)
    response = gm_client.post(reverse("adjust", args=[character.campaign_id, character.pk]), {"action": "hunger-up"})
    assert response.status_code == 200
    fragment = html(response)
    assert fragment.lstrip().startswith(f'<article class="card character-card mb-2" id="character-{character.pk}"')
    assert '<span class="value" data-resource="hunger">2</span>' in fragment
    assert Character.objects.get(pk=character.pk).resources.hunger == 2


# --- who may do what -------------------------------------------------------------------------


@pytest.fixture
def world(table, make_character):
    """A campaign of each game with a character and a logged roll; URLs of every view."""
    urls = []
    for game in GAMES:
        character = table(game)
        roll = log_roll(character)
        pk = character.campaign_id
        urls += [
            ("get", reverse("table", args=[pk]), {}),
            ("get", reverse("composer", args=[pk]), {"character": character.pk}),
            ("get", reverse("odds", args=[pk]), form_data(character)),
            ("get", reverse("log", args=[pk]), {"page": 1}),
            ("post", reverse("roll", args=[pk]), form_data(character)),
            ("post", reverse("adjust", args=[pk, character.pk]), {"action": "hunger-up"}),
            ("post", reverse("check", args=[pk, character.pk, "rouse"]), {}),
            ("post", reverse("follow-up", args=[pk, roll.pk, "reroll"]), {"dice": ["0"]}),
            ("post", reverse("follow-up", args=[pk, roll.pk, "invoke"]), {"mode": "bonus"}),
            ("post", reverse("follow-up", args=[pk, roll.pk, "reward"]), {"choice": "motes"}),
        ]
    return urls


def snapshot() -> tuple:
    """Everything a request could change."""
    return (
        list(Roll.objects.order_by("pk").values_list("pk", flat=True)),
        [tuple(c.values()) for c in Character.objects.order_by("pk").values()],
        [tuple(r.values()) for system in games.systems() if system.resources.model
         for r in system.resources.model.objects.order_by("pk").values()],
        list(Aspect.objects.order_by("pk").values_list("free_invocations", flat=True)),
        list(Campaign.objects.order_by("pk").values_list("fate__deck", flat=True)),
    )


def test_anonymous_visitors_are_sent_to_log_in_and_change_nothing(client, world):
    before = snapshot()
    for method, url, data in world:
        response = getattr(client, method)(url, data)
        assert response.status_code == 302, (method, url)
        assert response["Location"].startswith(reverse("login") + "?next="), url
    assert snapshot() == before


def test_another_gm_gets_404_everywhere(client, other_gm, world):
    client.force_login(other_gm)
    before = snapshot()
    for method, url, data in world:
        assert getattr(client, method)(url, data).status_code == 404, (method, url)
    assert snapshot() == before


def test_a_superuser_can_open_any_table(staff_client, world):
    for method, url, data in world:
        if method == "get":
            assert staff_client.get(url, data).status_code == 200, url


def test_staff_without_permissions_gets_404_everywhere(client, world):
    """Found by the security probe: any staff user opened and changed every GM's table, while the
    admin refused them. Staff status is the admin's door; the tables are their GMs' (and superusers')."""
    clerk = User.objects.create_user("clerk", password="clerk-secret-1", is_staff=True)
    client.force_login(clerk)
    before = snapshot()
    for method, url, data in world:
        assert getattr(client, method)(url, data).status_code == 404, (method, url)
    assert snapshot() == before


def test_a_campaign_url_does_not_reach_another_campaigns_rows(gm_client, table):
    mine = table(Game.V5)
    theirs = table(Game.V5, name="Other")  # another campaign of the same GM
    their_roll = log_roll(theirs)
    before = snapshot()
    pk = mine.campaign_id
    assert gm_client.post(reverse("adjust", args=[pk, theirs.pk]), {"action": "hunger-up"}).status_code == 404
    assert gm_client.post(reverse("check", args=[pk, theirs.pk, "rouse"])).status_code == 404
    assert gm_client.post(reverse("follow-up", args=[pk, their_roll.pk, "reroll"]), {"dice": ["0"]}).status_code == 404
    # A character of another campaign in the composer is not a choice.
    response = gm_client.post(reverse("roll", args=[pk]), {**form_data(theirs)})
    assert "Select a valid choice" in refusal(response)
    assert snapshot() == before


def test_every_post_needs_the_csrf_token(gm, world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(gm)
    before = snapshot()
    for method, url, data in world:
        if method == "post":
            assert client.post(url, data).status_code == 403, url
    assert snapshot() == before
    # With the token the page hands out (htmx sends it as X-CSRFToken), the same POST goes through.
    table_url = next(url for method, url, _ in world if method == "get" and "/composer/" not in url and "odds" not in url)
    page = client.get(table_url)
    token = client.cookies["csrftoken"].value
    assert "X-CSRFToken" in html(page)
    adjust = next((url, data) for method, url, data in world if "/adjust/" in url and url.startswith(table_url))
    response = client.post(adjust[0], {"action": "willpower-spend"}, headers={"X-CSRFToken": token})
    assert response.status_code == 200


def test_writes_need_post_and_reads_need_get(gm_client, world):
    for method, url, data in world:
        other = gm_client.get if method == "post" else gm_client.post
        assert other(url, data).status_code == 405, url


# --- bad input: 422, a clear message, nothing recorded ---------------------------------------


def test_an_exalted_pool_of_zero_dice_is_refused(gm_client, table):
    campaign = table(Game.EXALTED).campaign
    before = snapshot()
    response = gm_client.post(reverse("roll", args=[campaign.pk]), {**COMMON, **DEFAULTS[Game.EXALTED], "dice": 0})
    assert "A pool of 0 dice after modifiers cannot be rolled" in refusal(response)
    assert snapshot() == before


def test_a_trait_of_another_character_is_refused(gm_client, table):
    character = table(Game.EXALTED)
    other = Character.objects.create_with_sheet(campaign=character.campaign, name="Bo")
    data = form_data(character, second=other.traits.get(key="melee").pk)
    before = snapshot()
    message = refusal(gm_client.post(reverse("roll", args=[character.campaign_id]), data))
    assert "Select a valid choice" in message or "belongs to another character" in message
    assert snapshot() == before


def test_a_refused_spend_says_why_and_records_nothing(gm_client, table):
    character = table(Game.EXALTED, exalted_willpower_temporary=0)
    before = snapshot()
    response = gm_client.post(reverse("roll", args=[character.campaign_id]), form_data(character, willpower="on"))
    assert refusal(response) == "Ana has no temporary Willpower left."
    assert snapshot() == before


def test_a_reroll_of_four_dice_is_refused(gm_client, table, scripted_dice):
    vampire = table(Game.V5, v5_hunger=0)
    scripted_dice(1, 2, 3, 4, 5)
    gm_client.post(reverse("roll", args=[vampire.campaign_id]), form_data(vampire))
    roll = Roll.objects.get()
    before = snapshot()
    scripted_dice(7, 7, 7, 7)
    response = gm_client.post(reverse("follow-up", args=[vampire.campaign_id, roll.pk, "reroll"]), {"dice": ["0", "1", "2", "3"]})
    assert "1 to 3 normal dice" in refusal(response)
    response = gm_client.post(reverse("follow-up", args=[vampire.campaign_id, roll.pk, "reroll"]), {})
    assert refusal(response) == "Pick up to 3 normal dice to reroll."
    assert snapshot() == before


def test_an_unknown_adjust_action_is_refused(gm_client, table):
    character = table(Game.SCIFI)
    before = snapshot()
    for action in ("hunger-up", "", "<b>"):
        response = gm_client.post(reverse("adjust", args=[character.campaign_id, character.pk]), {"action": action})
        assert refusal(response) == "Unknown change for this game."
    assert snapshot() == before


def test_a_consequence_with_a_nul_character_is_refused_and_nothing_is_stored(gm_client, table):
    """Found by the security probe: "a\x00b" was stored on SQLite and answered 500 on PostgreSQL."""
    character = table(Game.FATE)
    before = snapshot()
    response = gm_client.post(reverse("adjust", args=[character.campaign_id, character.pk]),
                              {"action": "consequence-mild", "value": "a\x00b"})
    assert refusal(response) == "Null characters are not allowed."
    assert snapshot() == before


def test_an_adjust_at_its_bound_is_refused(gm_client, table):
    character = table(Game.V5, v5_hunger=5)
    before = snapshot()
    response = gm_client.post(reverse("adjust", args=[character.campaign_id, character.pk]), {"action": "hunger-up"})
    assert refusal(response) == "Ana is already at Hunger 5."
    assert snapshot() == before


def test_bad_follow_ups_are_refused(gm_client, table, make_character):
    hero = table(Game.FATE, fate_points=0)
    roll = log_roll(hero)
    stranger = make_character(Game.FATE, name="Stranger")
    their_aspect = Aspect.objects.create(character=stranger, text="Not yours", free_invocations=3)
    own = Aspect.objects.create(character=hero, text="Stubborn")
    before = snapshot()
    url = reverse("follow-up", args=[hero.campaign_id, roll.pk, "invoke"])
    assert "Select a valid choice" in refusal(gm_client.post(url, {"aspect": their_aspect.pk, "mode": "bonus"}))
    assert "Select a valid choice" in refusal(gm_client.post(url, {"mode": "sideways"}))
    # An invocation names its aspect (issue 23): none chosen is refused, nothing spent.
    assert refusal(gm_client.post(url, {"mode": "bonus"})) == "Choose the aspect to invoke: an invocation names its aspect."
    assert refusal(gm_client.post(url, {"aspect": own.pk, "mode": "bonus"})) == "Ana has no fate points left."
    reward = reverse("follow-up", args=[hero.campaign_id, roll.pk, "reward"])
    assert "stunted roll" in refusal(gm_client.post(reward, {"choice": "motes"}))
    assert snapshot() == before


def test_an_automatic_win_the_pool_cannot_afford_is_refused(gm_client, table):
    vampire = table(Game.V5)  # Strength 3 + Brawl 2 = 5 dice
    before = snapshot()
    response = gm_client.post(reverse("roll", args=[vampire.campaign_id]),
                              form_data(vampire, shortcut="automatic", difficulty=3))
    assert "An automatic win needs at least 6 dice" in refusal(response)
    assert snapshot() == before


# --- user text is escaped --------------------------------------------------------------------

XSS = "<script>alert(1)</script>"
XSS_ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"


@pytest.mark.parametrize("game", GAMES)
def test_user_text_is_escaped_on_the_table_and_in_the_log(gm_client, table, game):
    character = table(game, name=XSS)
    if game == Game.FATE:
        Aspect.objects.create(character=character, text='"><img src=x onerror=alert(2)>', free_invocations=1)
    page = html(gm_client.get(reverse("table", args=[character.campaign_id])))
    assert XSS not in page and XSS_ESCAPED in page
    assert "<img src=x" not in page
    response = gm_client.post(reverse("roll", args=[character.campaign_id]),
                              form_data(character, label="<b onmouseover=alert(3)>aim</b>"))
    assert response.status_code == 200
    for fragment in (html(response), html(gm_client.get(reverse("log", args=[character.campaign_id])))):
        assert XSS not in fragment and XSS_ESCAPED in fragment
        assert "<b onmouseover" not in fragment and "&lt;b onmouseover=alert(3)&gt;aim&lt;/b&gt;" in fragment


def test_submitted_values_quoted_in_errors_are_escaped(gm_client, table):
    character = table(Game.V5)
    data = form_data(character, difficulty=XSS)  # "Select a valid choice. <value> is not one of ..."
    fragment = odds_of(gm_client, character.campaign, **data)
    assert 'data-testid="odds-error"' in fragment and XSS not in fragment and XSS_ESCAPED in fragment
    message = refusal(gm_client.post(reverse("roll", args=[character.campaign_id]), data))
    assert XSS not in message and XSS_ESCAPED in message
    assert not Roll.objects.exists()


def test_a_refusal_escapes_the_name_it_quotes(gm_client, table):
    character = table(Game.FATE, name=XSS, fate_points=0)
    response = gm_client.post(reverse("adjust", args=[character.campaign_id, character.pk]),
                              {"action": "fate-point-spend"})
    assert refusal(response) == f"{XSS_ESCAPED} has no fate points left."


# --- the log ---------------------------------------------------------------------------------


def test_the_log_paginates_newest_first(gm_client, table):
    character = table(Game.SCIFI)
    rolls = [log_roll(character, seed=i, label=f"roll {i}") for i in range(LOG_PAGE + 5)]
    page = html(gm_client.get(reverse("table", args=[character.campaign_id])))
    ids = [int(i) for i in re.findall(r'<article class="card roll-card[^"]*" id="roll-(\d+)"', page)]
    assert ids == [r.pk for r in reversed(rolls)][:LOG_PAGE]
    assert "Older rolls" in page and f'{reverse("log", args=[character.campaign_id])}?page=2' in page
    older = html(gm_client.get(reverse("log", args=[character.campaign_id]), {"page": 2}))
    ids = [int(i) for i in re.findall(r'<article class="card roll-card[^"]*" id="roll-(\d+)"', older)]
    assert ids == [r.pk for r in reversed(rolls)][LOG_PAGE:]
    assert "Older rolls" not in older and "<html" not in older


def test_a_follow_up_hides_its_button_on_the_parent_card(gm_client, table, scripted_dice):
    vampire = table(Game.V5, v5_hunger=0)
    Trait.objects.filter(character=vampire, key__in=["composure", "resolve"]).update(rating=2)
    roll = log_roll(vampire)
    log_url = reverse("log", args=[vampire.campaign_id])
    assert html(gm_client.get(log_url)).count("reroll-form") == 1
    scripted_dice(7)
    gm_client.post(reverse("follow-up", args=[vampire.campaign_id, roll.pk, "reroll"]), {"dice": ["0"]})
    assert html(gm_client.get(log_url)).count("reroll-form") == 0  # rerolled once: no second button


# --- the campaign list -----------------------------------------------------------------------


def test_create_a_campaign_and_open_its_table(gm_client, gm):
    response = gm_client.post(reverse("campaign-create"), {"name": "Ashes", "game": Game.FATE})
    campaign = Campaign.objects.get(gm=gm, name="Ashes")
    assert response.status_code == 302 and response["Location"] == reverse("table", args=[campaign.pk])
    assert gm_client.post(reverse("campaign-create"), {"name": "Ashes", "game": "chess"}).status_code == 400
    assert Campaign.objects.count() == 1


def test_a_campaign_name_the_gm_already_uses_is_a_form_error(gm_client, gm, other_gm):
    """Found by the security probe: the same name twice answered 500 (IntegrityError)."""
    assert gm_client.post(reverse("campaign-create"), {"name": "Ashes", "game": Game.FATE}).status_code == 302
    response = gm_client.post(reverse("campaign-create"), {"name": "Ashes", "game": Game.V5})
    assert response.status_code == 400
    assert "already has a campaign with this name" in response.content.decode()
    assert Campaign.objects.filter(gm=gm, name="Ashes").count() == 1
    # Another GM may use the name.
    Campaign.objects.create(gm=other_gm, name="Ashes", game=Game.V5)


def test_creating_a_campaign_needs_a_login(client):
    assert client.post(reverse("campaign-create"), {"name": "Ashes", "game": Game.FATE}).status_code == 302
    assert not Campaign.objects.exists()


# --- query counts do not grow with the campaign ----------------------------------------------


def populate(gm, game: str, characters: int, traits: int, rolls: int) -> Character:
    """A campaign of ``characters`` with ``traits`` traits each, and a log of ``rolls`` rolls."""
    campaign = Campaign.objects.create(name=f"{game} {characters}x{traits}, {rolls} rolls", game=game, gm=gm)
    cast = [Character.objects.create_with_sheet(campaign=campaign, name=f"C{i:02d}") for i in range(characters)]
    padding = []
    for character in cast:
        have = character.traits.count()
        padding += [Trait(character=character, category=PADDING[game], name=f"Extra {n}", rating=1)
                    for n in range(traits - have)]
        if game == Game.FATE:
            Aspect.objects.bulk_create(Aspect(character=character, text=f"Aspect {n}", free_invocations=1)
                                       for n in range(3))
    Trait.objects.bulk_create(padding)
    assert all(c.traits.count() == traits for c in cast)
    for character in cast:
        first, second = POOL_TRAITS[game]
        Trait.objects.filter(character=character, key__in=[first, second]).update(rating=2)
    for n in range(rolls):
        log_roll(cast[n % characters], seed=n)
    return cast[0]


def roll_post(character: Character) -> dict:
    data = form_data(character)
    if character.campaign.game == Game.EXALTED:
        data["willpower"] = "on"
    if character.campaign.game == Game.FATE:
        data["invoke"] = [character.aspects.first().pk]
    return data


ADJUST = {Game.EXALTED: "motes-regain", Game.V5: "hunger-up", Game.FATE: "stress-1", Game.SCIFI: "unknown"}


def requests(character: Character) -> dict[str, tuple[str, str, dict]]:
    """The requests of one turn at the table, by name: (method, url, data)."""
    pk = character.campaign_id
    return {
        "table page": ("get", reverse("table", args=[pk]), {}),
        "composer": ("get", reverse("composer", args=[pk]), {"character": character.pk}),
        "odds": ("get", reverse("odds", args=[pk]), roll_post(character)),
        "roll": ("post", reverse("roll", args=[pk]), roll_post(character)),
        "adjust": ("post", reverse("adjust", args=[pk, character.pk]), {"action": ADJUST[character.campaign.game]}),
    }


@pytest.mark.parametrize("game", GAMES)
def test_query_count_does_not_grow_with_characters_and_traits(gm_client, gm, game, django_assert_max_num_queries):
    small = populate(gm, game, characters=2, traits=40, rolls=4)
    big = populate(gm, game, characters=50, traits=40, rolls=4)
    ExaltedResources.objects.filter(character__campaign__in=[small.campaign, big.campaign]).update(motes_max=10)
    bounds = {}
    for name, (method, url, data) in requests(small).items():
        with CaptureQueriesContext(connection) as queries:
            assert getattr(gm_client, method)(url, data).status_code in (200, 422), name
        bounds[name] = len(queries)
    print(f"\n{game} query bounds (2 characters of 40 traits): {bounds}")
    for name, (method, url, data) in requests(big).items():
        with django_assert_max_num_queries(bounds[name]):
            assert getattr(gm_client, method)(url, data).status_code in (200, 422), name


@pytest.mark.parametrize("game", [
    Game.EXALTED, Game.V5, Game.SCIFI,
    Game.FATE,
])
def test_query_count_of_the_table_does_not_grow_with_the_log(gm_client, gm, game, django_assert_max_num_queries):
    short = populate(gm, game, characters=3, traits=40, rolls=1)
    with CaptureQueriesContext(connection) as page:
        gm_client.get(reverse("table", args=[short.campaign_id]))
    long = populate(gm, game, characters=3, traits=40, rolls=LOG_PAGE + 3)
    with django_assert_max_num_queries(len(page)):
        gm_client.get(reverse("table", args=[long.campaign_id]))
    with django_assert_max_num_queries(len(page)):
        gm_client.get(reverse("log", args=[long.campaign_id]), {"page": 2})


@pytest.mark.parametrize("field", ["team", "invoke"])
def test_an_id_too_large_for_any_column_is_a_form_error_not_a_500(gm_client, gm, field):
    game = Game.FATE if field == "invoke" else Game.EXALTED
    campaign = Campaign.objects.create(name="Overflow", game=game, gm=gm)
    response = gm_client.post(reverse("roll", args=[campaign.pk]), {field: "99999999999999999999"})
    assert response.status_code == 422
    assert not Roll.objects.exists()


def test_the_gm_flips_the_fate_deck_and_the_scifi_adventure_from_the_table(gm_client, gm):
    fate_campaign = Campaign.objects.create(name="Deck", game=Game.FATE, gm=gm)
    response = gm_client.post(reverse("flip", args=[fate_campaign.pk]))
    assert response.status_code == 200 and "81 cards left" in response.content.decode()
    fate_campaign.refresh_from_db()
    assert fate_campaign.state.uses_deck
    gm_client.post(reverse("flip", args=[fate_campaign.pk]))
    fate_campaign.refresh_from_db()
    assert not fate_campaign.state.uses_deck
    scifi_campaign = Campaign.objects.create(name="Ship", game=Game.SCIFI, gm=gm)
    gm_client.post(reverse("flip", args=[scifi_campaign.pk]))
    scifi_campaign.refresh_from_db()
    assert scifi_campaign.state.adventure_open
    v5_campaign = Campaign.objects.create(name="Nights", game=Game.V5, gm=gm)
    assert gm_client.post(reverse("flip", args=[v5_campaign.pk])).status_code == 422


def test_another_gm_cannot_flip_a_campaign(client, other_gm, gm):
    campaign = Campaign.objects.create(name="Deck", game=Game.FATE, gm=gm)
    client.force_login(other_gm)
    assert client.post(reverse("flip", args=[campaign.pk])).status_code == 404
    campaign.refresh_from_db()
    assert not campaign.state.uses_deck


def test_a_scifi_character_joins_and_leaves_the_adventure_in_one_click(gm_client, gm):
    campaign = Campaign.objects.create(name="Ship", game=Game.SCIFI, gm=gm)
    character = Character.objects.create_with_sheet(campaign=campaign, name="Kade")
    url = reverse("adjust", args=[campaign.pk, character.pk])
    assert gm_client.post(url, {"action": "adventure"}).status_code == 200
    character.refresh_from_db()
    assert character.resources.in_adventure
