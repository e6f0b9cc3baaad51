"""The luck and fair dice page (gmtools.stats, templates/stats.html): the GM's and the players'.

Rolls are made through the composer's form and ``services`` on scripted faces, so every number
the page shows follows from faces the test chose: a biased sequence of faces must be flagged, a
fair one not. The large campaigns of the query-count test are copies of such rolls, written with
``bulk_create`` (their stored results and luck as the table wrote them).
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from gmtools import live, services, stats
from gmtools.games.fate.models import FateState
from gmtools.models import Campaign, Character, ResourceChange, Roll, Scene
from tests.games import Game
from gmtools.formatting import percent
from rules import fairness, v5
from tests.web.helpers import named_aspect, Faces, compose_and_roll

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def cold():
    """Each test draws the page afresh (it is cached per process by the table's change cursor)."""
    live._cache.clear()
    yield
    live._cache.clear()


@pytest.fixture
def lucia(make_character, set_ratings) -> Character:
    """A V5 PC rolling 3 dice (Strength 2 + Brawl 1): 2 normal dice and a Hunger die (Hunger 1)."""
    character = make_character(Game.V5, name="Lucía", v5_hunger=1)
    set_ratings(character, strength=2, brawl=1, composure=3, resolve=3)
    return character


@pytest.fixture
def solar(make_character, set_ratings) -> Character:
    """An Exalted PC rolling 5 dice (Dexterity 3 + Melee 2), with Willpower to spend."""
    character = make_character(Game.EXALTED, name="Jade", exalted_willpower=5, exalted_willpower_temporary=5)
    set_ratings(character, dexterity=3, melee=2)
    return character


def page(client: Client, campaign: Campaign, **params) -> str:
    response = client.get(reverse("luck", args=[campaign.pk]), params)
    assert response.status_code == 200
    return response.content.decode()


def players_page(campaign: Campaign, **params) -> str:
    response = Client().get(reverse("player-luck", args=[campaign.player_token]), params)
    assert response.status_code == 200
    return response.content.decode()


def shown(html: str, testid: str) -> str:
    found = re.search(rf'data-testid="{testid}"[^>]*>(.*?)</', html, re.S)
    assert found, testid
    return unescape(found.group(1)).strip()


def verdict_of(html: str, attribute: str, value: str) -> str:
    found = re.search(rf'data-{attribute}="{value}" data-verdict="([a-z_]+)"', html)
    assert found, (attribute, value)
    return found.group(1)


def every_face(rolls: int, dice: int) -> list[tuple[int, ...]]:
    """Faces 1 to 10 in turn, ``dice`` a roll: a perfectly even spread."""
    faces = [i % 10 + 1 for i in range(rolls * dice)]
    return [tuple(faces[i:i + dice]) for i in range(0, len(faces), dice)]


# --- flagging bias ---------------------------------------------------------------------------


def test_fair_faces_are_nothing_unusual_and_a_loaded_die_is_flagged(gm_client, solar):
    for faces in every_face(20, 5):  # 100 d10s, ten of each face
        compose_and_roll(solar.campaign, solar, faces)
    html = page(gm_client, solar.campaign)
    assert verdict_of(html, "die", "d10") == "nothing_unusual"
    assert shown(html, "fair-sentence") == "100 d10s: nothing unusual, p = 1.00"
    # Then a die that favours 10s: half its faces are 10 (the other half still every face in turn).
    for faces in every_face(20, 5):
        compose_and_roll(solar.campaign, solar, (10, 10, *faces[:3]))
    html = page(gm_client, solar.campaign)
    counts = {face: 10 + 6 for face in range(1, 11)} | {10: 16 + 40}
    fit = fairness.fair_dice(counts)
    assert fit.verdict == "very_unusual"
    assert shown(html, "fair-sentence") == "200 d10s: very unusual, p < 0.001"
    assert verdict_of(html, "die", "d10") == "very_unusual"


def test_luck_beyond_fair_dice_is_flagged_in_the_mean_and_the_specials(gm_client, lucia):
    for _ in range(30):
        compose_and_roll(lucia.campaign, lucia, (2, 3, 4), difficulty=2)  # nothing: unlucky, no special
    html = page(gm_client, lucia.campaign)
    assert shown(html, "rolls") == "30"
    assert re.search(r'data-testid="mean-verdict" data-verdict="very_unusual"', html)
    luck = Roll.objects.first().luck
    assert shown(html, "mean") == percent(luck["percentile"])
    # Thirty rolls without a critical: a third of the chance of one, nothing unusual yet.
    assert verdict_of(html, "special", "critical") == "nothing_unusual"
    for _ in range(10):
        compose_and_roll(lucia.campaign, lucia, (10, 3, 10), difficulty=2)  # a messy critical each time
    html = page(gm_client, lucia.campaign)
    o = v5.odds(v5.Request(pool=3, hunger=1, difficulty=2))
    assert verdict_of(html, "special", "messy_critical") == "very_unusual"
    row = re.search(r'data-special="messy_critical".*?<span>(.*?)</span>', html, re.S).group(1)
    assert row == f"10 seen, {40 * o.p_messy:.1f} expected"


def test_fate_dice_and_a_deck_dealt_in_order_are_flagged(gm_client, make_character, set_ratings):
    hero = make_character(Game.FATE, name="Bo")
    set_ratings(hero, forceful=1)
    for _ in range(20):
        compose_and_roll(hero.campaign, hero, (1, 1, 0, -1))  # +1 twice as often as the rest
    html = page(gm_client, hero.campaign)
    assert verdict_of(html, "die", "fate") == "unusual"
    assert "80 Fate dice: unusual, p = 0.00" in unescape(html)
    # The deck reshuffled in order (a shuffle that swaps nothing) and dealt whole: every card once, in order.
    FateState.objects.filter(campaign_id=hero.campaign_id).update(uses_deck=True, deck=[])
    compose_and_roll(hero.campaign, hero, tuple(range(80, 0, -1)))
    for _ in range(80):
        compose_and_roll(hero.campaign, hero, ())
    html = page(gm_client, hero.campaign)
    assert verdict_of(html, "die", "deck") == "very_unusual"
    assert "81 cards of the Fate deck: very unusual, p < 0.001" in unescape(html)


# --- the numbers ---------------------------------------------------------------------------------


def test_streaks_follow_each_rolls_last_word(gm_client, lucia):
    win, miss = (6, 7, 3), (2, 3, 4)
    made = [compose_and_roll(lucia.campaign, lucia, faces, difficulty=2) for faces in (win, win, miss, miss, win)]
    # The first failure rerolled with Willpower into a win: three wins in a row, then one failure.
    services.follow_up(made[2], "reroll", Faces(8, 9), dice=[0, 1])
    services.check(lucia, "rouse", Faces(2))  # a check is no run
    html = page(gm_client, lucia.campaign)
    assert (shown(html, "streak-successes"), shown(html, "streak-failures")) == ("3", "1")
    assert shown(html, "rolls") == "7"  # five rolls, the reroll and the rouse check threw dice


def test_the_charts_say_their_counts_and_the_runs_say_they_are_the_longest(gm_client, solar):
    """Each bar is labelled with what it counts (a phone cannot hover for the title): the histogram's
    tenths that hold a roll, every face of the dice; "1 successes in a row" read as a count of rolls."""
    for faces in every_face(4, 5):  # 20 d10s, two of each face
        compose_and_roll(solar.campaign, solar, faces)
    compose_and_roll(solar.campaign, solar, (10, 10, 10, 1, 2))  # three more 10s
    html = page(gm_client, solar.campaign)
    histogram = re.search(r'data-testid="histogram">(.*?)</svg>', html, re.S).group(1)
    counts = [int(n) for n in re.findall(r"data-count>(\d+)</text>", histogram)]
    assert sum(counts) == 5 == int(shown(html, "rolls")) and 0 not in counts
    faces = re.search(r'data-die="d10".*?</svg>', html, re.S).group(0)
    assert re.findall(r"data-count>(\d+)</text>", faces) == ["3", "3", "2", "2", "2", "2", "2", "2", "2", "5"]
    assert "longest run of successes" in html and "longest run of failures" in html and "in a row" not in html


def test_willpower_spent_on_rolls_and_by_hand_but_not_voided_nor_undone(gm_client, gm, solar):
    compose_and_roll(solar.campaign, solar, (7, 2, 3, 4, 5), willpower="on")
    voided = compose_and_roll(solar.campaign, solar, (7, 2, 3, 4, 5), willpower="on")
    services.void_roll(voided, gm)  # its Willpower came back
    services.adjust(solar, "willpower-spend")
    services.adjust(solar, "willpower-spend")
    services.undo_last_change(solar.campaign)  # the second click undone
    html = page(gm_client, solar.campaign)
    assert re.search(r'<dt[^>]*>Willpower</dt><dd[^>]*data-spent="0">2</dd>', html)
    assert shown(html, "rolls") == "1"  # the voided roll's luck does not count...
    assert "10 d10s: too few to tell" in html  # ...but its dice do


def test_fate_points_spent(gm_client, make_character, set_ratings):
    hero = make_character(Game.FATE, name="Bo", fate_points=3)
    set_ratings(hero, forceful=1)
    first = compose_and_roll(hero.campaign, hero, (0, 0, 0, 0))
    services.follow_up(first, "invoke", Faces(), aspect=named_aspect(first), mode="bonus")  # a fate point
    services.adjust(hero, "fate-point-spend")
    html = page(gm_client, hero.campaign)
    assert re.search(r'<dt[^>]*>Fate points</dt><dd[^>]*>2</dd>', html)
    assert re.search(r'<dt[^>]*>Free invocations</dt><dd[^>]*>0</dd>', html)
    assert shown(html, "rolls") == "1"  # the +2 threw no dice


# --- filters -------------------------------------------------------------------------------------


def test_filters_by_story_episode_scene_and_character(gm_client, lucia, make_character):
    campaign = lucia.campaign
    other = Character.objects.create_with_sheet(campaign=campaign, name="Mole", kind="npc")
    compose_and_roll(campaign, lucia, (6, 3, 4))  # outside any scene
    docks = services.start_scene(campaign, title="Docks")
    for _ in range(2):
        compose_and_roll(campaign, lucia, (6, 3, 4))
    compose_and_roll(campaign, other, (6,), first=other.traits.get(key="strength").pk, second="")
    services.adjust(lucia, "hunger-up")
    services.start_episode(campaign)
    market = services.start_scene(campaign, title="Market")
    compose_and_roll(campaign, lucia, (6, 3, 4))
    services.start_story(campaign)
    roof = services.start_scene(campaign, title="Roof")
    compose_and_roll(campaign, lucia, (6, 3, 4))

    def rolls(**params) -> str:
        return shown(page(gm_client, campaign, **params), "rolls")

    assert rolls() == "6"
    assert rolls(scene=docks.pk) == "3" and rolls(scene=market.pk) == "1"
    assert rolls(episode=docks.episode_id) == "3" and rolls(story=docks.episode.story_id) == "4"
    assert rolls(story=roof.episode.story_id) == "1"
    assert rolls(character=other.pk) == "1" and rolls(character=lucia.pk) == "5"
    assert rolls(character=lucia.pk, scene=docks.pk) == "2"
    assert "No dice rolled here yet." in page(gm_client, campaign, scene=market.pk, story=roof.episode.story_id)
    # A filter that is not this campaign's reads as none.
    assert rolls(scene=999_999) == "6" and rolls(character="x") == "6"
    # The chosen filters stay chosen.
    assert re.search(rf'<option value="{docks.pk}" selected>', page(gm_client, campaign, scene=docks.pk))


def test_one_click_spends_count_in_the_scene_they_were_made_in(gm_client, solar):
    campaign = solar.campaign
    first = services.start_scene(campaign, title="One")
    services.adjust(solar, "willpower-spend")
    services.end_scene(first)
    second = services.start_scene(campaign, title="Two")
    services.adjust(solar, "willpower-spend")
    services.adjust(solar, "willpower-spend")
    spent = re.compile(r'<dt[^>]*>Willpower</dt><dd[^>]*>(\d+)</dd>')
    assert spent.search(page(gm_client, campaign, scene=first.pk)).group(1) == "1"
    assert spent.search(page(gm_client, campaign, scene=second.pk)).group(1) == "2"
    assert spent.search(page(gm_client, campaign)).group(1) == "3"


def test_the_filters_answer_htmx_with_the_body_alone(gm_client, lucia):
    compose_and_roll(lucia.campaign, lucia, (6, 3, 4))
    response = gm_client.get(reverse("luck", args=[lucia.campaign_id]), {"character": lucia.pk}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="stats-body"') and "<html" not in html


# --- who sees what ------------------------------------------------------------------------------


def test_only_the_gm_of_the_campaign_reads_its_page(client, gm_client, other_gm, lucia):
    url = reverse("luck", args=[lucia.campaign_id])
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    stranger = Client()
    stranger.force_login(other_gm)
    assert stranger.get(url).status_code == 404
    assert gm_client.get(url).status_code == 200
    # The table links to it.
    assert f'href="{url}"' in gm_client.get(reverse("table", args=[lucia.campaign_id])).content.decode()


def test_players_see_no_roll_still_secret(gm_client, lucia):
    campaign = lucia.campaign
    spy = Character.objects.create_with_sheet(campaign=campaign, name="The <i>mole</i>", kind="npc")
    compose_and_roll(campaign, lucia, (6, 3, 4))
    hidden = compose_and_roll(campaign, lucia, (10, 10, 10), hidden="on")
    secret = compose_and_roll(campaign, lucia, (1, 2, 1), difficulty=3, secret="on")
    gm = page(gm_client, campaign)
    assert shown(gm, "rolls") == "3" and "9 d10s" in gm
    theirs = players_page(campaign)
    assert shown(theirs, "rolls") == "1" and "3 d10s" in theirs
    assert verdict_of(theirs, "special", "critical") == "nothing_unusual"
    assert re.search(r'data-special="critical".*?<span>0 seen', theirs, re.S)
    # Their filter names their characters, not the GM's NPCs; asking for one reads as no filter.
    assert "mole" not in theirs and "Lucía" in theirs
    assert shown(players_page(campaign, character=spy.pk), "rolls") == "1"
    services.reveal(hidden)
    services.reveal(secret)
    assert shown(players_page(campaign), "rolls") == "3"
    # The player page links to it; an old link reads nothing.
    assert reverse("player-luck", args=[campaign.player_token]) in Client().get(
        reverse("player", args=[campaign.player_token])).content.decode()
    old = campaign.player_token
    services.regenerate_player_link(campaign)
    assert Client().get(reverse("player-luck", args=[old])).status_code == 404


def test_names_are_escaped(gm_client, gm, make_character):
    evil = "<script>alert(1)</script>"
    character = make_character(Game.SCIFI, name=evil)
    character.traits.filter(key__in=("agility", "firearms")).update(rating=1)
    Campaign.objects.filter(pk=character.campaign_id).update(name=f"{evil} night")
    scene = services.start_scene(character.campaign, title=evil)
    compose_and_roll(character.campaign, character, (7, 2))
    for html in (page(gm_client, character.campaign), players_page(character.campaign)):
        assert evil not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert f'<option value="{scene.pk}">' in page(gm_client, character.campaign)


def test_in_spanish_numbers_take_a_decimal_comma_and_the_games_words(gm_client, lucia):
    for _ in range(3):
        compose_and_roll(lucia.campaign, lucia, (10, 3, 10), difficulty=2)
    services.follow_up(Roll.objects.first(), "reroll", Faces(4), dice=[1])
    gm_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    html = page(gm_client, lucia.campaign)
    assert '<html lang="es">' in html
    assert "Crítico conflictivo" in html and "Fuerza de Voluntad" in html
    assert re.search(r'data-testid="mean">\d+,\d%<', html)
    assert re.search(r"\d+,\d expected|\d+,\d esperad", html)


# --- cost ---------------------------------------------------------------------------------------


def copies(campaign: Campaign, made: list[Roll], n: int) -> None:
    """``n`` more rolls like those made (their stored results and luck), written at once."""
    Roll.objects.bulk_create([
        Roll(campaign=campaign, character_id=r.character_id, actor=r.actor, system=r.system, kind=r.kind,
             label=r.label, label_parts=r.label_parts, request=r.request, result=r.result, outcome=r.outcome,
             spends=r.spends, luck=r.luck, scene_id=r.scene_id, turn=r.turn)
        for i in range(n) for r in [made[i % len(made)]]], batch_size=1000)


def campaign_of(make_character, set_ratings, rolls: int) -> Campaign:
    hero = make_character(Game.V5, name="Ana", v5_hunger=1)
    set_ratings(hero, strength=2, brawl=1, composure=2, resolve=2)
    services.start_scene(hero.campaign, title="Docks")
    made = [compose_and_roll(hero.campaign, hero, faces, difficulty=2) for faces in ((10, 3, 10), (2, 3, 1), (6, 7, 4))]
    services.follow_up(made[1], "reroll", Faces(8), dice=[0])
    services.check(hero, "rouse", Faces(4))
    services.adjust(hero, "hunger-up")
    copies(hero.campaign, made, rolls - 5)
    assert Roll.objects.filter(campaign=hero.campaign).count() == rolls
    return hero.campaign


def queries(client: Client, url: str, **params) -> int:
    live._cache.clear()
    with CaptureQueriesContext(connection) as done:
        assert client.get(url, params).status_code == 200
    return len(done)


def test_the_queries_do_not_grow_with_the_rolls(gm_client, make_character, set_ratings):
    small, large = (campaign_of(make_character, set_ratings, n) for n in (10, 5_000))
    for_gm = [queries(gm_client, reverse("luck", args=[c.pk])) for c in (small, large)]
    filtered = [queries(gm_client, reverse("luck", args=[c.pk]), scene=Scene.objects.get(episode__story__campaign=c).pk,
                        character=c.characters.get().pk) for c in (small, large)]
    for_players = [queries(Client(), reverse("player-luck", args=[c.player_token])) for c in (small, large)]
    assert for_gm[0] == for_gm[1] and filtered[0] == filtered[1] and for_players[0] == for_players[1]
    assert max(for_gm + filtered + for_players) <= 16, (for_gm, filtered, for_players)
    # 5,000 rolls, every one counted.
    html = gm_client.get(reverse("luck", args=[large.pk])).content.decode()
    assert shown(html, "rolls") == "5,000"


def test_the_page_is_drawn_once_per_change_at_the_table(gm_client, lucia):
    compose_and_roll(lucia.campaign, lucia, (6, 3, 4))
    url = reverse("luck", args=[lucia.campaign_id])
    cold = queries(gm_client, url)
    with CaptureQueriesContext(connection) as warm:
        html = gm_client.get(url).content.decode()
    assert len(warm) < cold and shown(html, "rolls") == "1"
    # A new roll is a change at the table: the page is drawn again, with it.
    compose_and_roll(lucia.campaign, lucia, (6, 3, 4))
    assert shown(gm_client.get(url).content.decode(), "rolls") == "2"


def test_the_aggregation_reads_the_log_once(lucia):
    """``of_rolls`` is two queries (the log, the one-click spends), whatever the number of rolls."""
    for _ in range(3):
        compose_and_roll(lucia.campaign, lucia, (6, 3, 4))
    with CaptureQueriesContext(connection) as done:
        numbers = stats.of_rolls(Roll.objects.all(), lucia.campaign, stats.Scope())
    assert numbers.rolls == 3 and len(done) == 1  # V5 counts no one-click spend: no second query
    assert ResourceChange.objects.count() == 0


def test_one_special_result_takes_the_singular_in_spanish(gm_client, lucia):
    """Issue 26: "1 vistos" was the plural's word for a count of one; the page and the recap take the count's form."""
    compose_and_roll(lucia.campaign, lucia, (10, 3, 10), difficulty=2)  # one messy critical
    compose_and_roll(lucia.campaign, lucia, (2, 3, 4), difficulty=2)  # no special
    gm_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    html = page(gm_client, lucia.campaign)
    messy = re.search(r'data-special="messy_critical".*?<span>(.*?)</span>', html, re.S).group(1)
    assert re.fullmatch(r"1 visto, [0-9,]+ esperados", messy), messy
    bestial = re.search(r'data-special="bestial_failure".*?<span>(.*?)</span>', html, re.S).group(1)
    assert re.fullmatch(r"0 vistos, [0-9,]+ esperados", bestial), bestial
    recap = gm_client.get(reverse("export", args=[lucia.campaign.pk]), {"part": "campaign", "format": "md"}).content.decode()
    assert re.search(r": 1 visto, [0-9,]+ esperados", recap), recap
