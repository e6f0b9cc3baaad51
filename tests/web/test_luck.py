"""Each logged roll stores its luck (gmtools.luck): the rules' own numbers for the dice it threw.

Every roll here is made through the composer's form and ``services`` on scripted faces, and its
stored ``luck`` must equal what ``rules.<game>.luck`` says of the same request and faces: the
table stores the engine's numbers, computed when the roll was made, follow-ups and checks too.
The data migration (0012) must give the rolls logged before it the same numbers.
"""

from __future__ import annotations

import re
from importlib import import_module

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.db.migrations.loader import MigrationLoader

from gmtools import luck as stored_luck, services
from gmtools.games.fate.models import FateState
from gmtools.games.fate.models import Aspect
from gmtools.models import Character, Roll
from tests.games import Game
from gmtools.formatting import percent
from rules import exalted, fate, luck, scifi, v5
from tests.web.helpers import named_aspect, Faces, compose_and_roll

pytestmark = pytest.mark.django_db


def character(make_character, set_ratings, game: str, **fields) -> Character:
    made = make_character(game, **fields)
    set_ratings(made, **{Game.EXALTED: {"dexterity": 3, "melee": 2}, Game.V5: {"strength": 2, "brawl": 1},
                         Game.FATE: {"forceful": 2}, Game.SCIFI: {"agility": 3, "firearms": 2}}[game])
    return made


def test_an_exalted_roll_stores_the_rules_luck(make_character, set_ratings):
    solar = character(make_character, set_ratings, Game.EXALTED)
    botch = compose_and_roll(solar.campaign, solar, (1, 2, 4, 6, 3), difficulty=2)
    request = exalted.Request(pool=5, difficulty=2)
    assert botch.luck == exalted.luck(request, exalted.resolve(request, (1, 2, 4, 6, 3))).as_json()
    assert botch.luck["percentile"] < 0.1 and botch.luck["band"] == "very_unlucky"
    assert botch.luck["specials"] == [{"code": "botch", "prior": exalted.odds(request).p_botch, "happened": True}]
    good = compose_and_roll(solar.campaign, solar, (10, 10, 9, 8, 7), difficulty=2)
    assert good.luck == exalted.luck(request, exalted.resolve(request, (10, 10, 9, 8, 7))).as_json()
    assert good.luck["band"] == "very_lucky" and good.luck["specials"][0]["happened"] is False


def test_an_exalted_stunt_with_willpower_an_opposition_and_its_reward(make_character, set_ratings):
    solar = character(make_character, set_ratings, Game.EXALTED, exalted_willpower=5, exalted_willpower_temporary=3,
                      exalted_motes_max=10, exalted_motes=4)
    roll = compose_and_roll(solar.campaign, solar, (7, 2, 3, 4, 5, 6, 8, 1, 1), stunt=2, willpower="on",
                            opponent_dice=2)
    request = exalted.Request(pool=5, stunt=2, willpower=True)
    # The acting side's luck, the stunt's dice and Willpower's success counted in its request.
    assert roll.luck == exalted.luck(request, exalted.resolve(request, (7, 2, 3, 4, 5, 6, 8))).as_json()
    reward = services.follow_up(roll, "reward", choice="motes")
    assert reward.luck is None  # no dice thrown


def test_an_automatic_success_has_no_luck(make_character, set_ratings):
    solar = character(make_character, set_ratings, Game.EXALTED)
    set_ratings(solar, dexterity=4, melee=3)
    roll = compose_and_roll(solar.campaign, solar, (), calm="on")
    assert roll.request["shortcut"] == "automatic" and roll.luck is None


def test_a_v5_roll_its_willpower_reroll_and_a_rouse_check(make_character, set_ratings):
    lucia = character(make_character, set_ratings, Game.V5, v5_hunger=1, name="Lucía")
    set_ratings(lucia, composure=2, resolve=2)
    # Two normal dice and a Hunger die: 10 and 10 on a Hunger die, a messy critical.
    roll = compose_and_roll(lucia.campaign, lucia, (10, 3, 10), difficulty=2)
    request = v5.Request(pool=3, hunger=1, difficulty=2)
    first = v5.resolve(request, (10, 3), (10,))
    assert roll.luck == v5.luck(request, first).as_json()
    specials = {s["code"]: s for s in roll.luck["specials"]}
    assert specials["messy_critical"]["happened"] and specials["critical"]["happened"]
    assert specials["messy_critical"]["prior"] == v5.odds(request).p_messy

    failed = compose_and_roll(lucia.campaign, lucia, (2, 3, 1), difficulty=2)
    reroll = services.follow_up(failed, "reroll", Faces(6, 10), dice=[0, 1])
    before = v5.resolve(request, (2, 3), (1,))
    # A roll of its own, ranked among what the two rerolled dice could do (rules.v5.luck).
    assert reroll.luck == v5.luck(request, v5.reroll(request, before, (0, 1), (6, 10))).as_json()
    assert reroll.luck != failed.luck

    check = services.check(lucia, "rouse", Faces(4))
    assert check.luck == v5.rouse_luck(v5.rouse(4, 1)).as_json() and check.luck["percentile"] == 0.25


def test_v5_taking_half_has_no_luck(make_character, set_ratings):
    lucia = character(make_character, set_ratings, Game.V5)
    assert compose_and_roll(lucia.campaign, lucia, (), shortcut="take_half").luck is None


def test_fate_dice_an_invocation_and_a_reroll(make_character, set_ratings):
    zara = character(make_character, set_ratings, Game.FATE, fate_points=3)
    roll = compose_and_roll(zara.campaign, zara, (1, 1, 1, 0), difficulty=1)
    request = fate.Request(bonus=2, difficulty=1)
    assert roll.luck == fate.luck(request, fate.resolve(request, (1, 1, 1, 0))).as_json()
    assert roll.luck["specials"] == [{"code": "success_with_style", "prior": fate.odds(request).p_style,
                                      "happened": True}]
    plus_two = services.follow_up(roll, "invoke", Faces(), aspect=named_aspect(roll), mode="bonus")
    assert plus_two.luck is None  # no dice thrown: its roll's luck stands
    # A reroll after it: four fresh dice for the request as it stands, the +2 in its bonus.
    reroll = services.follow_up(plus_two, "invoke", Faces(-1, -1, 0, 0), aspect=named_aspect(plus_two), mode="reroll")
    again = fate.Request(bonus=4, difficulty=1)
    assert reroll.luck == fate.luck(again, fate.resolve(again, (-1, -1, 0, 0))).as_json()
    assert reroll.luck["percentile"] == fate.luck(request, fate.resolve(request, (-1, -1, 0, 0))).percentile


def test_a_card_from_the_fate_deck_is_ranked_among_the_cards_left(make_character, set_ratings):
    zara = character(make_character, set_ratings, Game.FATE, fate_points=3)
    FateState.objects.filter(campaign_id=zara.campaign_id).update(uses_deck=True, deck=[80, 0, 40])
    roll = compose_and_roll(zara.campaign, zara, ())
    request = fate.Request(bonus=2)
    deck = fate.Deck((80, 0, 40))
    assert roll.result["card"] == 80
    assert roll.luck == fate.luck(request, fate.resolve(request, fate.CARDS[80]), deck).as_json()
    # Three cards left, card 80 the best of them (++++): above both others.
    assert roll.luck["below"] == pytest.approx(2 / 3) and roll.luck["equal"] == pytest.approx(1 / 3)
    reroll = services.follow_up(roll, "invoke", Faces(), aspect=named_aspect(roll), mode="reroll")
    assert reroll.luck == fate.luck(request, fate.resolve(request, fate.CARDS[0]), fate.Deck((0, 40))).as_json()


def test_a_scifi_roll_with_an_explosion_and_a_fumble(make_character, set_ratings):
    rook = character(make_character, set_ratings, Game.SCIFI)
    roll = compose_and_roll(rook.campaign, rook, (10, 3, 2, 7, 4, 8), difficulty="hard")
    request = scifi.Request(pool=5, difficulty=2)
    assert roll.luck == scifi.luck(request, scifi.resolve(request, (10, 3, 2, 7, 4, 8))).as_json()
    fumble = compose_and_roll(rook.campaign, rook, (1, 3, 2, 7, 4), difficulty="hard")
    assert fumble.outcome == "fumble"
    assert fumble.luck == scifi.luck(request, scifi.resolve(request, (1, 3, 2, 7, 4))).as_json()
    assert fumble.luck["below"] == 0 and fumble.luck["specials"][0]["happened"]


# --- the rolls logged before luck was stored: the data migration ----------------------------


def every_kind_of_roll(make_character, set_ratings) -> list[Roll]:
    solar = character(make_character, set_ratings, Game.EXALTED)
    lucia = character(make_character, set_ratings, Game.V5, v5_hunger=1)
    set_ratings(lucia, composure=2, resolve=2)
    zara = character(make_character, set_ratings, Game.FATE, fate_points=3)
    rook = character(make_character, set_ratings, Game.SCIFI)
    made = [compose_and_roll(solar.campaign, solar, (1, 2, 4, 6, 3)),
            compose_and_roll(solar.campaign, solar, (7, 9, 10, 2, 2, 3, 5), opponent_dice=2)]
    failed = compose_and_roll(lucia.campaign, lucia, (2, 3, 1), difficulty=2)
    made += [failed, services.follow_up(failed, "reroll", Faces(10), dice=[1]), services.check(lucia, "rouse", Faces(8))]
    first = compose_and_roll(zara.campaign, zara, (0, 0, 1, -1))
    made += [first, services.follow_up(first, "invoke", Faces(), aspect=named_aspect(first), mode="bonus")]
    FateState.objects.filter(campaign_id=zara.campaign_id).update(uses_deck=True, deck=[])
    drawn = compose_and_roll(zara.campaign, zara, tuple(range(80, 0, -1)))  # a reshuffle swapping nothing
    Aspect.objects.create(character=zara, text="Quick on the draw", free_invocations=1)
    made += [drawn, compose_and_roll(zara.campaign, zara, ()),
             services.follow_up(drawn, "invoke", Faces(), aspect=Aspect.objects.get(text="Quick on the draw"), mode="reroll")]
    made += [compose_and_roll(rook.campaign, rook, (10, 10, 3, 7, 1, 2, 8)), compose_and_roll(rook.campaign, rook, (), difficulty="easy")]
    return made


def test_replaying_the_log_gives_the_luck_stored_when_rolled(make_character, set_ratings):
    made = every_kind_of_roll(make_character, set_ratings)
    kept = {roll.pk: roll.luck for roll in made}
    assert sum(luck is not None for luck in kept.values()) == 10  # all but the +2 and the automatic scifi roll
    Roll.objects.update(luck=None)
    assert stored_luck.backfill(Roll) == 10
    assert dict(Roll.objects.values_list("pk", "luck")) == kept


def test_the_data_migration_fills_the_luck_of_older_rolls(make_character, set_ratings):
    made = every_kind_of_roll(make_character, set_ratings)
    kept = {roll.pk: roll.luck for roll in made}
    # A roll whose stored fields no longer fit any request keeps None, and stops nothing.
    broken = Roll.objects.create(campaign=made[0].campaign, actor="?", system=Game.EXALTED, request={"pool": "x"},
                                 result={"main": {"faces": [3]}}, outcome="failure")
    Roll.objects.update(luck=None)
    # The migration's function with the models as they stand at it (no schema change to run).
    migration = import_module("gmtools.migrations.0012_fill_roll_luck")
    loader = MigrationLoader(connection)
    migration.fill(loader.project_state(("gmtools", "0012_fill_roll_luck")).apps, None)
    assert dict(Roll.objects.exclude(pk=broken.pk).values_list("pk", "luck")) == kept
    assert Roll.objects.get(pk=broken.pk).luck is None


# --- the card: the band in a word, the share of rolls it beat, the rarest special -------------


def luck_of_card(page: str, roll: Roll) -> str:
    """The luck line of a roll's card in a page, its tags stripped."""
    card = re.search(rf'<article[^>]*id="roll-{roll.pk}".*?</article>', page, re.S)
    assert card, f"no card for roll {roll.pk}"
    line = re.search(r'<div class="small luck"[^>]*>(.*?)</div>', card.group(0), re.S)
    return re.sub(r"<[^>]+>", "", line.group(1)) if line else ""


def test_the_card_says_the_band_the_share_beaten_and_the_rarest_special(make_character, set_ratings, gm_client):
    lucia = character(make_character, set_ratings, Game.V5, v5_hunger=1)
    roll = compose_and_roll(lucia.campaign, lucia, (10, 3, 10), difficulty=2)
    o = v5.odds(v5.Request(pool=3, hunger=1, difficulty=2))
    table = gm_client.get(reverse("table", args=[lucia.campaign_id])).content.decode()
    # A messy critical is a critical win too: the card names the rarer.
    assert luck_of_card(table, roll) == (f"Very lucky · better than {percent(roll.luck['below'])} of rolls like it · "
                                         f"Messy critical, {percent(o.p_messy)} before the roll")
    # The player view draws the same card.
    player = Client().get(reverse("player", args=[lucia.campaign.player_token])).content.decode()
    assert luck_of_card(player, roll) == luck_of_card(table, roll)


@pytest.mark.parametrize("faces, words", [
    ((1, 2, 3, 4, 6), "Very unlucky"), ((2, 3, 4, 5, 7), "Unlucky"), ((7, 8, 2, 3, 4), "Average"),
    ((7, 8, 10, 3, 4), "Lucky"), ((10, 10, 9, 8, 4), "Very lucky")])
def test_each_band_reads_as_a_word(make_character, set_ratings, gm_client, faces, words):
    solar = character(make_character, set_ratings, Game.EXALTED)
    roll = compose_and_roll(solar.campaign, solar, faces)
    line = luck_of_card(gm_client.get(reverse("log", args=[solar.campaign_id])).content.decode(), roll)
    below, equal = roll.luck["below"], roll.luck["equal"]
    # The rolls tying with it are said when "better than" alone would read as another word.
    # (Issue 23: "better than 4.7% and as good as 14%" read as two thresholds; the tie is said apart.)
    tie = f", and {percent(equal)} roll the same" if luck.band(below) != roll.luck["band"] else ""
    # Nothing below it (a botch) is said in words, not as "better than 0%" (issue 23).
    beaten = "no roll like it does worse" if below == 0 else f"better than {percent(below)} of rolls like it"
    assert line.startswith(f"{words} · {beaten}{tie}")
    assert ("Botch" in line) == (roll.outcome == "botch")


def test_the_card_says_the_rolls_tying_when_the_share_beaten_alone_reads_as_another_word(
        make_character, set_ratings, gm_client):
    """A first-time GM read "Average · better than 27.2%" beside "Unlucky · better than 18.7%": the
    word is the mid-rank's, so with a quarter of the rolls tying the card says so."""
    solar = character(make_character, set_ratings, Game.EXALTED)
    tied = compose_and_roll(solar.campaign, solar, (7, 8, 2, 3, 4))  # 2 successes of 5 dice
    plain = compose_and_roll(solar.campaign, solar, (10, 10, 9, 8, 4))  # 6: few roll as well
    page = gm_client.get(reverse("log", args=[solar.campaign_id])).content.decode()
    below, equal = tied.luck["below"], tied.luck["equal"]
    assert luck.band(below) == "unlucky" and tied.luck["band"] == "average"
    assert luck_of_card(page, tied) == (f"Average · better than {percent(below)} of rolls like it, "
                                        f"and {percent(equal)} roll the same")
    assert luck.band(plain.luck["below"]) == plain.luck["band"]
    assert "roll the same" not in luck_of_card(page, plain)


def test_in_spanish_the_rolls_tying_are_said_apart_too(make_character, set_ratings, gm_client):
    """Issue 23: "mejor que el 18,7 % y tan buena como el 32,6 %" read as two thresholds."""
    solar = character(make_character, set_ratings, Game.EXALTED)
    tied = compose_and_roll(solar.campaign, solar, (7, 8, 2, 3, 4))
    gm_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    page = gm_client.get(reverse("log", args=[solar.campaign_id])).content.decode()
    from django.utils import translation
    with translation.override("es"):
        below, equal = percent(tied.luck["below"]), percent(tied.luck["equal"])
    assert luck_of_card(page, tied) == f"En la media · mejor que el {below} de las tiradas como esta, y el {equal} saca lo mismo"


def test_in_spanish_the_numbers_take_a_decimal_comma(make_character, set_ratings, gm_client):
    lucia = character(make_character, set_ratings, Game.V5, v5_hunger=1)
    roll = compose_and_roll(lucia.campaign, lucia, (10, 3, 10), difficulty=2)
    gm_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    line = luck_of_card(gm_client.get(reverse("log", args=[lucia.campaign_id])).content.decode(), roll)
    assert "Crítico conflictivo" in line and "97,2%" in line


def test_a_voided_roll_keeps_its_luck_struck_like_the_rest(make_character, set_ratings, gm_client, gm):
    solar = character(make_character, set_ratings, Game.EXALTED)
    roll = compose_and_roll(solar.campaign, solar, (1, 2, 3, 4, 6))
    services.void_roll(roll, gm)
    page = gm_client.get(reverse("log", args=[solar.campaign_id])).content.decode()
    assert luck_of_card(page, roll).startswith("Very unlucky")
    assert re.search(rf'<article class="[^"]*roll-voided[^"]*" id="roll-{roll.pk}"', page)


def test_no_luck_line_without_luck_nor_for_players_while_the_difficulty_is_secret(make_character, set_ratings,
                                                                                 gm_client):
    lucia = character(make_character, set_ratings, Game.V5, v5_hunger=1)
    half = compose_and_roll(lucia.campaign, lucia, (), shortcut="take_half")
    secret = compose_and_roll(lucia.campaign, lucia, (2, 3, 1), difficulty=2, secret="on")
    table = gm_client.get(reverse("table", args=[lucia.campaign_id])).content.decode()
    assert luck_of_card(table, half) == "" and luck_of_card(table, secret).startswith("Very unlucky")
    player = Client().get(reverse("player", args=[lucia.campaign.player_token])).content.decode()
    # A bestial failure's chance would tell the players the difficulty: nothing until it is revealed.
    assert f'id="roll-{secret.pk}"' in player and luck_of_card(player, secret) == ""
    services.reveal(secret)
    player = Client().get(reverse("player", args=[lucia.campaign.player_token])).content.decode()
    assert "Bestial failure" in luck_of_card(player, secret)


def test_an_opposed_roll_names_no_special_its_contest_does_not_judge(make_character, set_ratings, gm_client):
    """Zara +4 against the ogre's +2: a success by 2, though +4 is style against the Mediocre beside it."""
    zara = character(make_character, set_ratings, Game.FATE)
    roll = compose_and_roll(zara.campaign, zara, (1, 1, 0, 0, -1, 0, 0, 0), opponent_dice=3, opponent="Ogre")
    request = fate.Request(bonus=2)
    # Stored as the rules price it, against its own request...
    assert roll.luck == fate.luck(request, fate.resolve(request, (1, 1, 0, 0))).as_json()
    assert roll.luck["specials"][0]["happened"]
    # ...but neither the card nor the statistics count a special the contest does not judge.
    line = luck_of_card(gm_client.get(reverse("log", args=[zara.campaign_id])).content.decode(), roll)
    assert line.startswith("Lucky · better than") and "before the roll" not in line
    from gmtools import stats
    assert stats.of_rolls(Roll.objects.all(), zara.campaign, stats.Scope()).specials == ()


@pytest.mark.parametrize("lang, after, tie, said", [
    ("en", None, None, "no roll like it does worse"),
    ("en", None, 0.5, "no roll like it does worse, and 50% roll the same"),
    ("en", "Willpower reroll", None, "no reroll like it does worse"),
    ("es", "Willpower reroll", 0.25, "ninguna repetición como esta sale peor, y el 25% saca lo mismo"),
])
def test_a_roll_nothing_scores_less_than_is_ranked_in_words(lang, after, tie, said):
    """Nothing like it scores less (a botch, a failed one-die check): "better than 0%" read as a broken
    number (issue 23); a roll a little above it keeps its number."""
    from django.utils import translation
    line = stored_luck.Line(band="very_unlucky", words="Very unlucky", tone="bad", below=0.0, special=None,
                            tie=tie, after=after)
    with translation.override(lang):
        assert line.rank == said
        assert percent(0.001) in stored_luck.Line(band="very_unlucky", words="", tone="bad", below=0.001, special=None).rank
