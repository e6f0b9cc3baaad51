"""Issue 23, items 10 and 11, server side: the turn order's names pick the character in the composer
(and the table opens on the character to act); an opposed roll names the opposing character and its
traits, whose pool the odds price, the roll rolls, the card shows and a contest extended action takes.

The browser side (under the settings ``make run`` ships, both languages) is in
test_browser_issue23_turns.py.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from gmtools import games, services
from gmtools.formatting import percent
from gmtools.models import Character, ExtendedAction, Roll, Scene
from rules import exalted, fate, scifi, v5
from tests.games import Game
from tests.web.helpers import COMMON, DEFAULTS, POOL_TRAITS, set_resources

pytestmark = pytest.mark.django_db

ENGINES = {Game.EXALTED: exalted, Game.V5: v5, Game.FATE: fate, Game.SCIFI: scifi}
# The opposing side's traits per game (Fate: an Approach alone), and the ratings given to them.
OPPOSING = {
    Game.EXALTED: {"perception": 3, "awareness": 2}, Game.V5: {"wits": 3, "awareness": 2},
    Game.FATE: {"quick": 3}, Game.SCIFI: {"perception": 3, "survival": 2},
}
def said(game: str, lang: str) -> str:
    """The opposing traits as the card says them in ``lang`` (the sheet's own names, translated)."""
    with translation.override(lang):
        return " + ".join(str(games.get(game).standard_traits[key].label) for key in OPPOSING[game])


def form(character: Character, **data) -> dict:
    """What the composer posts for ``character``'s usual pool (tests.web.helpers.POOL_TRAITS)."""
    fields = {**COMMON, **DEFAULTS[character.campaign.game], "character": character.pk, **data}
    for name, key in zip(("first", "second"), POOL_TRAITS[character.campaign.game]):
        if key:
            fields.setdefault(name, character.traits.get(key=key).pk)
    return fields


def opposing(guard: Character, extra: int = 0) -> dict:
    """The composer's opposing side: ``guard`` with its ``OPPOSING`` traits, and ``extra`` dice."""
    keys = list(OPPOSING[guard.campaign.game])
    return {"opponent_character": guard.pk, "opponent_dice": extra,
            **{name: guard.traits.get(key=key).pk for name, key in zip(("opponent_first", "opponent_second"), keys)}}


@pytest.fixture(params=list(ENGINES))
def sides(request, make_character, set_ratings) -> tuple[Character, Character]:
    """Koi and the Guard in a campaign of each game: Koi's usual pool, the Guard's opposing traits."""
    game = request.param
    koi = make_character(game, name="Koi", **({"v5_hunger": 0} if game == Game.V5 else {}))
    first, second = POOL_TRAITS[game]
    set_ratings(koi, **{first: 3, **({second: 2} if second else {})})
    guard = Character.objects.create_with_sheet(campaign=koi.campaign, name="Guard", kind="npc")
    for key, rating in OPPOSING[game].items():
        guard.traits.filter(key=key).update(rating=rating)
    if game == Game.V5:
        set_resources(guard, v5_hunger=0)  # no Hunger die on either side: the pools alone
    return koi, guard


def request_of(game: str, pool: int) -> object:
    engine = ENGINES[game]
    return engine.Request(bonus=pool) if game == Game.FATE else engine.Request(pool=pool)


def odds_html(client, character: Character, **data) -> str:
    answer = client.get(reverse("odds", args=[character.campaign.pk]), form(character, **data))
    assert answer.status_code == 200
    return answer.content.decode()


def chances(html: str) -> list[str]:
    return re.findall(r'class="p"[^>]*>([^<]*)', html)


# --- item 11: the opposing character and its traits --------------------------------------------

def test_the_odds_price_the_opposing_characters_traits_and_extra_dice(sides, gm_client):
    koi, guard = sides
    game = koi.campaign.game
    mine = sum(t.rating for t in koi.traits.filter(key__in=[k for k in POOL_TRAITS[game] if k]))
    theirs = sum(OPPOSING[game].values()) + 1
    html = odds_html(gm_client, koi, **opposing(guard, extra=1))
    expected = ENGINES[game].contest(request_of(game, mine), request_of(game, theirs))
    # Fate's own Request of Koi carries the roll's bonus the same way (Approach + 0).
    assert chances(html)[:3] == [percent(expected.p_win), percent(expected.p_tie), percent(expected.p_lose)]
    # Without the opposing character, the same dice alone are an unnamed opposition of 1.
    alone = ENGINES[game].contest(request_of(game, mine), request_of(game, 1))
    assert chances(odds_html(gm_client, koi, opponent_dice=1))[0] == percent(alone.p_win)


def test_the_roll_rolls_the_opposing_pool_and_the_card_names_the_character_and_its_traits(sides, gm_client,
                                                                                        scripted_dice):
    koi, guard = sides
    game = koi.campaign.game
    theirs = sum(OPPOSING[game].values())
    faces = {Game.FATE: (0,) * 8}.get(game, (5,) * (5 + theirs))
    scripted_dice(*faces)
    answer = gm_client.post(reverse("roll", args=[koi.campaign.pk]), form(koi, **opposing(guard)))
    assert answer.status_code == 200, answer.content.decode()[:400]
    roll = Roll.objects.get()
    assert roll.result["opponent"]["name"] == "Guard"
    if game == Game.FATE:
        assert roll.result["opponent"]["bonus"] == theirs
    else:
        assert len(roll.result["opponent"]["faces"]) == theirs
    assert re.search(rf"vs Guard · <span data-testid=\"opponent-traits\">{re.escape(said(game, 'en'))}</span>:",
                     answer.content.decode())
    # Said in the language of whoever reads the log, not the one it was rolled in.
    html = gm_client.get(reverse("table", args=[koi.campaign.pk]), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert said(game, "es") != said(game, "en")
    assert f'contra Guard · <span data-testid="opponent-traits">{said(game, "es")}</span>:' in html


def test_a_team_against_an_opposing_character_counts_its_helpers(make_character, set_ratings, gm_client,
                                                                  scripted_dice):
    """Exalted teamwork in a contest (the second walkthrough): the card said "Helpers: Garrison guard 1
    success" and still judged the lead's successes alone, and the odds left the helper out."""
    koi = make_character(Game.EXALTED, name="Koi")
    first, second = POOL_TRAITS[Game.EXALTED]
    set_ratings(koi, **{first: 3, second: 2})
    ally = Character.objects.create_with_sheet(campaign=koi.campaign, name="Ally")
    set_ratings(ally, **{first: 1, second: 1})
    guard = Character.objects.create_with_sheet(campaign=koi.campaign, name="Guard", kind="npc")
    for key, rating in OPPOSING[Game.EXALTED].items():
        guard.traits.filter(key=key).update(rating=rating)
    data = {**opposing(guard), "team": [ally.pk]}
    expected = exalted.contest(exalted.Request(pool=5), exalted.Request(pool=5),
                               helpers=[exalted.Request(pool=2, difficulty=0)])
    assert chances(odds_html(gm_client, koi, **data))[:3] == [
        percent(expected.p_win), percent(expected.p_tie), percent(expected.p_lose)]
    assert expected.p_win > exalted.contest(exalted.Request(pool=5), exalted.Request(pool=5)).p_win
    scripted_dice(7, 7, 2, 2, 2,  8, 8, 8, 2, 2,  9, 9)  # Koi 2, the Guard 3, the ally 2: the team 4
    answer = gm_client.post(reverse("roll", args=[koi.campaign.pk]), form(koi, **data))
    assert answer.status_code == 200, answer.content.decode()[:400]
    roll = Roll.objects.get()
    assert roll.result["team_total"] == 4 and roll.result["opposed"]["winner"] == "first"
    assert "4 vs 3 successes" in answer.content.decode() and "Koi wins by 1" in answer.content.decode()


def test_an_unnamed_opposition_stays_dice_and_a_name(sides, gm_client, scripted_dice):
    koi, _guard = sides
    game = koi.campaign.game
    scripted_dice(*({Game.FATE: (0,) * 8}.get(game, (5,) * 7)))
    answer = gm_client.post(reverse("roll", args=[koi.campaign.pk]), form(koi, opponent_dice=2, opponent="Ogre"))
    assert answer.status_code == 200
    opponent = Roll.objects.get().result["opponent"]
    assert opponent["name"] == "Ogre" and "label_parts" not in opponent
    assert "opponent-traits" not in answer.content.decode()


def test_a_trait_of_another_character_than_the_opponent_is_refused_inline(sides, gm_client):
    koi, guard = sides
    game = koi.campaign.game
    wrong = {**opposing(guard), "opponent_first": koi.traits.get(key=POOL_TRAITS[game][0]).pk}
    html = odds_html(gm_client, koi, **wrong)
    assert 'data-testid="odds-error"' in html and "is not the opposing character" in html
    answer = gm_client.post(reverse("roll", args=[koi.campaign.pk]), form(koi, **wrong), HTTP_HX_REQUEST="true")
    assert answer.status_code == 422 and "is not the opposing character" in answer.content.decode()
    assert not Roll.objects.exists()
    # No opposing character at all: its traits are nobody's.
    lone = {"opponent_first": guard.traits.get(key=list(OPPOSING[game])[0]).pk}
    assert "is not the opposing character" in odds_html(gm_client, koi, **lone)


def test_a_character_does_not_oppose_itself(sides, gm_client):
    koi, _guard = sides
    answer = gm_client.post(reverse("roll", args=[koi.campaign.pk]),
                            form(koi, opponent_character=koi.pk), HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="es")
    assert answer.status_code == 422 and "Un personaje no se opone a sí mismo" in answer.content.decode()
    assert not Roll.objects.exists()
    # Nor is it offered: the composer drawn for Koi lists the others (the walkthrough found Koi there).
    html = gm_client.get(reverse("table", args=[koi.campaign.pk])).content.decode()
    offered = re.search(r'<select name="opponent_character".*?</select>', html, re.S).group(0)
    assert f'value="{_guard.pk}"' in offered and f'value="{koi.pk}"' not in offered


@pytest.mark.parametrize("game", [Game.EXALTED, Game.V5, Game.SCIFI])
def test_an_opposing_character_with_no_dice_is_refused_not_ignored(game, make_character, gm_client):
    koi = make_character(game, name="Koi", **({"v5_hunger": 0} if game == Game.V5 else {}))
    guard = Character.objects.create_with_sheet(campaign=koi.campaign, name="Guard")
    answer = gm_client.post(reverse("roll", args=[koi.campaign.pk]), form(koi, opponent_character=guard.pk),
                            HTTP_HX_REQUEST="true")
    assert answer.status_code == 422
    assert "Guard opposes with no dice: pick its traits, or give dice (Opposed by)." in answer.content.decode()
    assert not Roll.objects.exists()


def test_fate_an_opposing_character_at_mediocre_still_opposes(make_character, set_ratings, gm_client, scripted_dice):
    hero = make_character(Game.FATE, name="Zara")
    set_ratings(hero, forceful=2)
    ogre = Character.objects.create_with_sheet(campaign=hero.campaign, name="Ogre")
    scripted_dice(*(0,) * 8)
    data = {**opposing(ogre), "opponent_first": ogre.traits.get(key="careful").pk}  # Careful 0: Mediocre
    answer = gm_client.post(reverse("roll", args=[hero.campaign.pk]), form(hero, **data))
    assert answer.status_code == 200
    assert Roll.objects.get().result["opponent"]["name"] == "Ogre"
    assert Roll.objects.get().result["opposed"]


def test_the_opposition_box_redraws_with_the_opposing_characters_best_pool(sides, gm_client):
    koi, guard = sides
    game = koi.campaign.game
    answer = gm_client.get(reverse("composer", args=[koi.campaign.pk]),
                           {"part": "opposition", "character": koi.pk, "opponent_character": guard.pk})
    html = answer.content.decode()
    assert html.strip().startswith('<div class="col-12" id="composer-opposition"')
    first_key = list(OPPOSING[game])[0]  # the Guard's best trait of the first slot
    assert re.search(rf'<option value="{guard.traits.get(key=first_key).pk}" selected>', html)
    # Only the Guard's traits: none of Koi's.
    offered = set(re.findall(r'<option value="(\d+)"', html[html.index('name="opponent_first"'):]))
    assert offered and offered <= {str(pk) for pk in guard.traits.values_list("pk", flat=True)}
    # No opposing character: empty lists.
    none = gm_client.get(reverse("composer", args=[koi.campaign.pk]), {"part": "opposition", "character": koi.pk})
    html = none.content.decode()
    assert not re.findall(r'<option value="(\d+)"', html[html.index('name="opponent_first"'):])


@pytest.mark.parametrize("game", [Game.EXALTED, Game.SCIFI])
def test_a_race_takes_the_opposing_characters_pool(game, make_character, set_ratings, scripted_dice, gm_client):
    koi = make_character(game, name="Koi")
    first, second = POOL_TRAITS[game]
    set_ratings(koi, **{first: 2, second: 1})
    rival = Character.objects.create_with_sheet(campaign=koi.campaign, name="Rival")
    for key, rating in OPPOSING[game].items():
        rival.traits.filter(key=key).update(rating=rating)
    race = ExtendedAction.objects.create(campaign=koi.campaign, name="Race to the gate", kind="race", goal=20,
                                         opponent="Rival")
    scripted_dice(*(9,) * 3, *(9,) * 5)
    answer = gm_client.post(reverse("roll", args=[koi.campaign.pk]),
                            form(koi, **opposing(rival), extended=race.pk, **({"kind": "extended"} if game == Game.SCIFI else {})))
    assert answer.status_code == 200, answer.content.decode()[:400]
    race.refresh_from_db()
    assert race.opponent_pool == 5 and race.pool == 3
    roll = Roll.objects.get()
    assert race.opponent_total == roll.result["extended"]["rolled"]["opponent"] > 0


# --- item 10: the turn order picks the character; the table opens on the one to act ------------

@pytest.fixture
def scene_of_three(make_character) -> tuple[Scene, list[Character]]:
    koi = make_character(Game.EXALTED, name="Koi")
    smith = Character.objects.create_with_sheet(campaign=koi.campaign, name="Smith")
    guard = Character.objects.create_with_sheet(campaign=koi.campaign, name="Garrison guard", kind="npc")
    scene = services.start_scene(koi.campaign)  # the PCs join
    services.join_scene(scene, guard)
    assert [p.character for p in scene.participants.all()] == [koi, smith, guard]
    return scene, [koi, smith, guard]


def test_each_name_in_the_turn_order_is_a_button_that_picks_the_character(scene_of_three, gm_client):
    _scene, cast = scene_of_three
    html = gm_client.get(reverse("table", args=[cast[0].campaign.pk])).content.decode()
    order = html[html.index('id="turn-order"'):html.index("</ol>", html.index('id="turn-order"'))]
    for character in cast:
        assert re.search(rf'<button type="button" class="[^"]*turn-name[^"]*"\s+data-pick-character="{character.pk}"'
                         rf'[^>]*>{character.name}</button>', order)


def selected_character(html: str) -> str:
    select = html[html.index('<select name="character" id="id_character"'):]
    return re.search(r'<option value="(\d+)" selected>', select[:select.index("</select>")]).group(1)


def test_the_table_opens_on_the_character_to_act(scene_of_three, gm_client, scripted_dice):
    _scene, (koi, smith, _guard) = scene_of_three
    url = reverse("table", args=[koi.campaign.pk])
    assert selected_character(gm_client.get(url).content.decode()) == str(koi.pk)
    scripted_dice(5, 5, 5, 5, 5)
    assert gm_client.post(reverse("roll", args=[koi.campaign.pk]), form(koi)).status_code == 200
    # Koi has acted: Smith is to act, and a page opened now composes Smith's roll.
    assert selected_character(gm_client.get(url).content.decode()) == str(smith.pk)
