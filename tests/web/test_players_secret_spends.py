"""What a secret roll spends stays off the players' cards until the GM reveals it (gmtools.board.PlayersCopy).

A secret roll (and its follow-ups) can spend: V5 Willpower on a reroll, Exalted Willpower on the roll and
the motes or Willpower of its stunt reward, Fate points, free invocations and boosts. The players' party
cards and the scene's aspects show the table as it was before the unrevealed secret rolls, on the player
page and the TV page (reload) and in what the stream draws for the players; a change made in the open
after them still shows; the GM sees the table as it is. Once revealed, the reveal's own drawing brings
the spends to the players' cards. A rouse check is never secret, a secret roll never goes into an
extended action, and the scifi game's rolls spend nothing.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from gmtools import live, services
from gmtools.games.fate.models import Aspect
from gmtools.models import Campaign, Change, ChangeKind, Character, Roll
from tests.games import Game
from tests.web.helpers import named_aspect, Faces, compose_and_roll

pytestmark = pytest.mark.django_db


def player_pages(campaign: Campaign) -> list[str]:
    """The player page and the TV page, as a phone and a TV load them."""
    token = campaign.player_token
    pages = [Client().get(reverse(name, args=[token])) for name in ("player", "player-tv")]
    assert [page.status_code for page in pages] == [200, 200]
    return [page.content.decode() for page in pages]


def gm_table(campaign: Campaign) -> str:
    client = Client()
    client.force_login(campaign.gm)
    return client.get(reverse("table", args=[campaign.pk])).content.decode()


def drawn_for_players(change: Change) -> str:
    """What the players' streams send for a change (the live cache cleared: drawn as the table is now)."""
    html = live.render_change(change.pk, live.Viewer("player", "en"))
    assert html, "the players were sent nothing"
    return html


def last_change(campaign: Campaign) -> Change:
    return Change.objects.filter(campaign=campaign).order_by("-id").first()


def card(html: str, character: Character) -> str:
    """One character's card in a page or a drawing."""
    assert f'id="character-{character.pk}"' in html, "no card of " + character.name
    return html.split(f'id="character-{character.pk}"', 1)[1].split("</article>", 1)[0]


def resource(html: str, character: Character, name: str) -> str:
    """A resource on the character's card (``data-resource``): its value, or its track's boxes."""
    found = re.search(rf'data-resource="{name}"[^>]*>((?:<span class="box[^"]*"[^>]*></span>)+|[^<]*)',
                      card(html, character))
    assert found, name
    return found.group(1)


def time_bar(html: str) -> str:
    """The time bar (where the scene's aspects are), up to the turn order that follows it."""
    return html.split('id="time-bar"', 1)[1].split('id="turn-order"', 1)[0]


def boxes(html: str, character: Character, track: str, kind: str = "superficial") -> int:
    return resource(html, character, track).count(f"box-{kind}")


# --- Vampire: Willpower spent on a reroll ---------------------------------------------------------

@pytest.fixture
def vampire(make_character, set_ratings) -> Character:
    character = make_character(Game.V5, name="Koi", v5_hunger=2)
    set_ratings(character, strength=3, brawl=2, composure=2, resolve=2, stamina=2)  # 4 Willpower boxes
    return character


def test_v5_a_secret_rerolls_willpower_box_stays_unmarked_for_the_players_until_revealed(vampire):
    campaign = vampire.campaign
    secret = compose_and_roll(campaign, vampire, (1, 2, 3, 4, 5), difficulty=2, hidden="on")
    services.follow_up(secret, "reroll", Faces(10, 9), dice=[0, 2])
    assert Character.objects.get(pk=vampire.pk).resources.willpower_superficial == 1
    for page in player_pages(campaign):
        assert boxes(page, vampire, "willpower") == 0
    assert boxes(gm_table(campaign), vampire, "willpower") == 1  # the GM's view is the table as it is

    # A box marked in the open after it shows, and only that one.
    services.adjust(vampire, "willpower-superficial-damage")
    opened = last_change(campaign)
    assert boxes(drawn_for_players(opened), vampire, "willpower") == 1
    assert boxes(live.render_change(opened.pk, live.Viewer("gm", "en")), vampire, "willpower") == 2
    for page in player_pages(campaign):
        assert boxes(page, vampire, "willpower") == 1

    services.reveal(secret)
    revealed = last_change(campaign)
    assert revealed.kind == ChangeKind.REVEAL
    assert boxes(drawn_for_players(revealed), vampire, "willpower") == 2
    for page in player_pages(campaign):
        assert boxes(page, vampire, "willpower") == 2


def test_v5_a_voided_secret_reroll_has_given_its_willpower_back_once(vampire, gm):
    secret = compose_and_roll(vampire.campaign, vampire, (1, 2, 3, 4, 5), difficulty=2, hidden="on")
    services.follow_up(secret, "reroll", Faces(10), dice=[0])
    services.void_roll(secret, gm)
    services.adjust(vampire, "willpower-superficial-damage")
    # The void gave the box back already: the players' copy gives nothing back a second time.
    for page in player_pages(vampire.campaign):
        assert boxes(page, vampire, "willpower") == 1


# --- Exalted: Willpower on the roll, and its stunt reward -----------------------------------------

def test_exalted_a_secret_rolls_willpower_and_reward_stay_off_the_players_cards(make_character, set_ratings):
    solar = make_character(Game.EXALTED, name="Harmonious Jade", exalted_willpower=5, exalted_willpower_temporary=3,
                           exalted_motes_max=10, exalted_motes=4)
    set_ratings(solar, dexterity=3, melee=2)
    campaign = solar.campaign
    secret = compose_and_roll(campaign, solar, (7, 1, 1, 1, 1, 1, 1), stunt=2, willpower="on", hidden="on")
    services.follow_up(secret, "reward", choice="motes")  # 2 stunt dice: 2 motes
    fresh = Character.objects.get(pk=solar.pk)
    assert (fresh.resources.willpower_temporary, fresh.resources.motes) == (2, 6)
    for page in player_pages(campaign):
        assert (resource(page, solar, "willpower"), resource(page, solar, "motes")) == ("3/5", "4/10")
    gm = gm_table(campaign)
    assert (resource(gm, solar, "willpower"), resource(gm, solar, "motes")) == ("2/5", "6/10")

    services.adjust(solar, "motes-spend")
    services.adjust(solar, "willpower-regain")
    opened = drawn_for_players(last_change(campaign))
    assert (resource(opened, solar, "willpower"), resource(opened, solar, "motes")) == ("4/5", "3/10")

    services.reveal(secret)
    revealed = drawn_for_players(last_change(campaign))
    assert (resource(revealed, solar, "willpower"), resource(revealed, solar, "motes")) == ("3/5", "5/10")
    for page in player_pages(campaign):
        assert (resource(page, solar, "willpower"), resource(page, solar, "motes")) == ("3/5", "5/10")


# --- Fate: fate points, free invocations and boosts -----------------------------------------------

def test_fate_a_secret_rolls_fate_point_free_invocation_and_boost_stay_off_the_players_table(make_character,
                                                                                           set_ratings):
    hero = make_character(Game.FATE, name="Zara", fate_points=3)
    set_ratings(hero, forceful=2)
    pilot = Aspect.objects.create(character=hero, kind="high_concept", text="Free-spirited pilot", free_invocations=1)
    campaign = hero.campaign
    scene = services.start_scene(campaign, title="The docks")
    Aspect.objects.create(scene=scene, text="Dazzled guard", boost=True, free_invocations=1)
    boost = Aspect.objects.get(text="Dazzled guard")
    secret = compose_and_roll(campaign, hero, (0, 0, 0, 0), invoke=[pilot.pk, boost.pk], hidden="on")
    services.follow_up(secret, "invoke", Faces(), aspect=named_aspect(secret), mode="bonus")  # a fate point after the roll
    assert Character.objects.get(pk=hero.pk).resources.points == 2
    assert Aspect.objects.get(pk=pilot.pk).free_invocations == 0 and not Aspect.objects.filter(pk=boost.pk).exists()

    def shown(html: str) -> tuple[str, bool, bool]:
        return (resource(html, hero, "fate-points"), "Free-spirited pilot <span" in card(html, hero),
                "Dazzled guard" in time_bar(html))

    for page in player_pages(campaign):
        assert shown(page) == ("3", True, True)  # 3 fate points, the free invocation, the boost
    gm = gm_table(campaign)
    assert resource(gm, hero, "fate-points") == "2" and "Dazzled guard" not in time_bar(gm)

    services.adjust(hero, "fate-point-spend")
    opened = drawn_for_players(last_change(campaign))
    assert resource(opened, hero, "fate-points") == "2"
    assert "Free-spirited pilot <span" in card(opened, hero)

    services.reveal(secret)
    revealed = drawn_for_players(last_change(campaign))
    assert shown(revealed) == ("1", False, False)
    for page in player_pages(campaign):
        assert shown(page) == ("1", False, False)


def test_the_players_copy_costs_one_query_and_leaves_the_gms_rows_alone(make_character, django_assert_num_queries):
    from gmtools import board

    hero = make_character(Game.FATE, name="Zara", fate_points=3)
    secret = compose_and_roll(hero.campaign, hero, (0, 0, 0, 0), hidden="on")
    services.follow_up(secret, "invoke", Faces(), aspect=named_aspect(secret), mode="bonus")
    table = board.Table.read(hero.campaign)
    with django_assert_num_queries(0):
        players = table.context(player=True)["characters"]  # read only once drawn
    with django_assert_num_queries(1):
        assert [c.resources.points for c in players] == [3]
    assert [c.resources.points for c in table.context()["characters"]] == [2]
    assert Roll.objects.filter(hidden=True).count() == 2
