"""Issue 23's leftovers, on the server: Exalted's stunt reward offers only what the pools have room
for; after a Willpower reroll the card's luck line says it ranks the reroll; the luck page's runs
of successes end at a tie, and its "Spent" counts Exalted's stunts.

The browser side is test_browser_issue23_leftovers.py.
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from gmtools import live, services
from gmtools.formatting import percent
from gmtools.luck import band_words
from gmtools.games.exalted.models import ExaltedResources
from gmtools.models import Change, Character, Roll
from rules import v5
from rules.luck import band
from tests.games import Game
from tests.web.helpers import Faces, compose_and_roll, set_resources
from tests.web.test_luck import luck_of_card
from tests.web.test_stats import cold, page, shown  # noqa: F401 (cold: each luck page drawn afresh)

pytestmark = pytest.mark.django_db


def card(page: str, roll: Roll) -> str:
    """A roll's card in a page or a change's drawing."""
    start = page.index(f'id="roll-{roll.pk}"')
    return page[start:page.index("</article>", start)]


def table_page(client, campaign) -> str:
    return client.get(reverse("table", args=[campaign.pk])).content.decode()


# --- item 1: Exalted's stunt reward, only what the pools take --------------------------------------

@pytest.fixture
def solar(make_character, set_ratings) -> Character:
    character = make_character(Game.EXALTED, name="Koi", exalted_willpower=5, exalted_willpower_temporary=5,
                               exalted_motes_max=10, exalted_motes=10)
    set_ratings(character, dexterity=3, melee=2)
    return character


def stunted(solar: Character, stunt: int) -> Roll:
    """A successful stunted roll (a 7 among the dice)."""
    return compose_and_roll(solar.campaign, solar, (7,) + (1,) * (4 + stunt), stunt=stunt, difficulty=1)


def buttons(card_html: str) -> list[str]:
    return re.findall(r'name="choice" value="(\w+)"', card_html)


@pytest.mark.parametrize(("motes", "willpower", "stunt", "offered", "full"), [
    (4, 3, 2, ["motes", "willpower"], None),
    (10, 3, 2, ["willpower"], None),
    (4, 5, 2, ["motes"], None),
    (10, 5, 2, [], "pools full (motes and Willpower)"),
    (4, 5, 1, ["motes"], None),
    (10, 3, 1, [], "mote pool full"),  # a 1-die stunt earns motes only
])
def test_the_card_offers_only_the_rewards_the_pools_have_room_for(gm_client, solar, motes, willpower, stunt,
                                                                  offered, full):
    set_resources(solar, exalted_motes=motes, exalted_willpower_temporary=willpower)
    roll = stunted(solar, stunt)
    shown = card(table_page(gm_client, solar.campaign), roll)
    assert buttons(shown) == offered
    if full:
        assert re.search(rf'data-testid="reward-full">Stunt reward: {re.escape(full)}</div>', shown)
        assert "reward-form" not in shown
    else:
        assert 'data-testid="reward-full"' not in shown
    # What is offered is taken; what is not would be refused (as before).
    for choice in {"motes", "willpower"} - set(offered):
        answer = gm_client.post(reverse("follow-up", args=[solar.campaign_id, roll.pk, "reward"]), {"choice": choice})
        assert answer.status_code == 422
    assert not Roll.objects.filter(parent=roll).exists()
    if offered:
        answer = gm_client.post(reverse("follow-up", args=[solar.campaign_id, roll.pk, "reward"]), {"choice": offered[0]})
        assert answer.status_code == 200 and Roll.objects.filter(parent=roll, kind="reward").exists()


def test_the_card_is_redrawn_when_a_one_click_spend_makes_room(gm_client, solar):
    roll = stunted(solar, 2)
    assert buttons(card(table_page(gm_client, solar.campaign), roll)) == []
    # Motes −1 on the character's card: the GM's streams redraw the roll's card, the motes on offer.
    services.adjust(solar, "motes-spend")
    change = Change.objects.filter(character=solar).latest("id")
    assert buttons(card(live.render_change(change.pk, live.Viewer("gm", "en")), roll)) == ["motes"]
    # The players' cards offer nothing: they get the character's card alone.
    assert f'id="roll-{roll.pk}"' not in live.render_change(change.pk, live.Viewer("player", "en"))
    # Undone: the pools are full again, and the card says so again.
    services.undo_last_change(solar.campaign, None)
    change = Change.objects.filter(character=solar).latest("id")
    assert 'data-testid="reward-full"' in card(live.render_change(change.pk, live.Viewer("gm", "en")), roll)
    assert ExaltedResources.objects.get(character=solar).motes == 10


def test_a_nearly_full_pool_is_offered_and_credited_what_it_takes(gm_client, solar):
    set_resources(solar, exalted_motes=9, exalted_willpower_temporary=5)
    roll = stunted(solar, 3)  # earns 3 motes; the pool has room for 1
    shown = card(table_page(gm_client, solar.campaign), roll)
    assert re.findall(r'value="motes"[^>]*>([^<]*)</button>', shown) == ["1 mote"]
    answer = gm_client.post(reverse("follow-up", args=[solar.campaign_id, roll.pk, "reward"]), {"choice": "motes"})
    assert answer.status_code == 200
    assert "Regained 1 mote" in card(answer.content.decode(), roll)  # not the 3 the stunt earned
    assert ExaltedResources.objects.get(character=solar).motes == 10


# --- item 2: V5's luck line after a Willpower reroll --------------------------------------------

@pytest.mark.parametrize("lang", ["en", "es"])
def test_after_a_willpower_reroll_the_luck_line_ranks_the_reroll_and_says_so(make_character, set_ratings, gm_client,
                                                                              lang):
    """The card shows the reroll's dice: its luck line is the reroll's, ranked among the rerolls of
    those dice beside the kept ones (``rules.v5.luck``), its special's chance the one before the
    reroll, and it says so: "better than 94% of rolls like it" read as the whole roll's."""
    lucia = make_character(Game.V5, name="Lucía", v5_hunger=1)
    set_ratings(lucia, strength=2, brawl=1)
    failed = compose_and_roll(lucia.campaign, lucia, (2, 3, 4), difficulty=2)  # the Hunger die last
    reroll = services.follow_up(failed, "reroll", Faces(10, 10), dice=[0, 1])  # a critical win now
    request = v5.Request(pool=3, hunger=1, difficulty=2)
    expected = v5.luck(request, v5.reroll(request, v5.resolve(request, (2, 3), (4,)), (0, 1), (10, 10)))
    assert reroll.luck == expected.as_json()
    critical = next(s for s in expected.specials if s.code == "critical")
    assert critical.happened and critical.prior != v5.odds(request).p_critical  # not the first roll's chance
    gm_client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    line = luck_of_card(table_page(gm_client, lucia.campaign), failed)
    with translation.override(lang):
        n, p, word = percent(expected.below), percent(critical.prior), str(band_words(expected.band))
        tie = percent(expected.equal) if band(expected.below) != expected.band else None
    ranked = {"en": f"better than {n} of rerolls like it" + (f", and {tie} reroll the same" if tie else ""),
              "es": f"mejor que el {n} de las repeticiones como esta" + (f", y el {tie} saca lo mismo" if tie else "")}
    assert line == {
        "en": f"Willpower reroll: {word} · {ranked['en']} · Critical win, {p} before the reroll",
        "es": f"Repetición con Fuerza de Voluntad: {word} · {ranked['es']} · Victoria crítica, {p} antes de la repetición",
    }[lang]


# --- item 7: the luck page, ties in the runs and Exalted's stunts spent --------------------------

def test_a_tie_ends_a_run_of_successes(gm_client, make_character, set_ratings):
    hero = make_character(Game.FATE, name="Bo")
    set_ratings(hero, forceful=1)
    success, tie, fail = (0, 0, 0, 0), (-1, 0, 0, 0), (-1, -1, 0, 0)  # +1, 0 and −1 against Mediocre (0)
    made = [compose_and_roll(hero.campaign, hero, faces) for faces in (success, success, tie, success, fail, tie, fail)]
    assert [r.outcome for r in made] == ["success", "success", "tie", "success", "fail", "tie", "fail"]
    html = page(gm_client, hero.campaign)
    assert (shown(html, "streak-successes"), shown(html, "streak-failures")) == ("2", "1")


def test_exalted_stunts_are_counted_as_spent(gm_client, gm, make_character, set_ratings):
    solar = make_character(Game.EXALTED, name="Jade", exalted_willpower=5, exalted_willpower_temporary=5)
    set_ratings(solar, dexterity=3, melee=2)
    compose_and_roll(solar.campaign, solar, (7, 2, 3, 4, 5, 6), stunt=1)
    compose_and_roll(solar.campaign, solar, (7, 2, 3, 4, 5, 6, 8, 9), stunt=3, willpower="on")
    voided = compose_and_roll(solar.campaign, solar, (7, 2, 3, 4, 5, 6, 1), stunt=2)
    services.void_roll(voided, gm)  # no longer counts
    compose_and_roll(solar.campaign, solar, (7, 2, 3, 4, 5))  # no stunt
    html = page(gm_client, solar.campaign)
    spent = dict(re.findall(r'<dt[^>]*>([^<]+)</dt><dd[^>]*data-spent="\d+">(\d+)</dd>', html))
    assert spent == {"Willpower": "1", "Stunts": "2"}
    gm_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    assert re.search(r'<dt[^>]*>Acrobacias</dt><dd[^>]*>2</dd>', page(gm_client, solar.campaign))
