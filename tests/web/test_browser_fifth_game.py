"""The fifth game in the browser (issue 12): the GM composes and rolls it on the table, and a phone
on the player link shows the card as it lands, under the settings ``make run`` gives (DEBUG on)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from gmtools.models import Campaign, Character
from tests.fifth_game import SYSTEM as D6
from tests.fifth_game import registered
from tests.web.test_browser import (  # noqa: F401 - fixtures
    asgi_server,
    browser,
    dice,
    gm_user,
)
from tests.web.test_browser_players import PHONE, cards, gm_page, open_live, phone_page, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def rook(gm_user) -> Iterator[Character]:
    with registered():
        campaign = Campaign.objects.create(name="Dice night", game=D6.id, gm=gm_user)
        character = Character.objects.create_with_sheet(campaign=campaign, name="Rook")
        character.traits.filter(key="body").update(rating=3)
        yield character


def test_the_gm_rolls_the_fifth_game_and_the_phone_shows_it(browser, asgi_server, gm_user, rook, dice):
    gm, phone = gm_page(browser, asgi_server, gm_user), phone_page(browser, asgi_server)
    open_live(gm, f"/campaigns/{rook.campaign_id}/")
    open_live(phone, f"/p/{rook.campaign.player_token}/")
    page = gm.page
    expect(page.locator("#odds [data-testid=odds]")).to_be_visible()
    page.select_option("#composer [name=first]", str(rook.traits.get(key="body").pk))
    page.fill("#composer [name=dice]", "2")
    page.select_option("#composer [name=difficulty]", "2")
    expect(page.locator("#odds [data-testid=odds] .chance .p").first).to_have_text("53.9%")  # 1 − P(0 or 1 of 5)
    dice.script(5, 1, 6, 2, 3)
    page.click("#roll-button")
    for where in (gm.page, phone.page):
        card = cards(where).first
        expect(card).to_contain_text("Rook")
        expect(card.locator("[data-testid=verdict]")).to_have_text("Success")
        expect(card.locator(".die-hit")).to_have_count(2)
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(gm.page, "fifth-game-table")
    shot(phone.page, "fifth-game-phone")
    dice.assert_all_drawn()
    gm.check(), phone.check()
