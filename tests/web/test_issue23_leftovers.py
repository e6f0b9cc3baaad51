"""Issue 23's leftovers, on the server: Exalted's stunt reward offers only what the pools have room
for; ...

The browser side is test_browser_issue23_leftovers.py.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from gmtools import live, services
from gmtools.games.exalted.models import ExaltedResources
from gmtools.models import Change, Character, Roll
from tests.games import Game
from tests.web.helpers import compose_and_roll, set_resources

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
