"""The fifth game in the browser (issues 12 and 21): the GM composes and rolls it on the table, pushes a
failed roll with the character's grit (its own follow-up and resource) and regains grit in a click (its own
one-click change), each on its own card partials, and a phone on the player link shows the cards and the
grit as they change, under the settings ``make run`` gives (DEBUG on) with the game installed."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from gmtools.models import Campaign, Character
from tests.fifth_game.game import GAME as D6
from tests.web.test_browser import (  # noqa: F401 - fixtures
    asgi_server,
    browser,
    dice,
    gm_user,
)
from tests.web.test_browser_players import PHONE, cards, gm_page, open_live, phone_page, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def rook(gm_user) -> Character:
    campaign = Campaign.objects.create(name="Dice night", game=D6.id, gm=gm_user)
    character = Character.objects.create_with_sheet(campaign=campaign, name="Rook")
    character.traits.filter(key="body").update(rating=3)
    return character


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
    # A failure: its card offers the push (the game's own form), which rolls the misses again for 1 grit.
    dice.script(1, 2, 5, 3, 4)
    page.click("#roll-button")
    failed = cards(page).first
    expect(failed.locator("[data-testid=verdict]")).to_have_text("Failure")
    dice.script(6, 1, 1, 1)  # the four misses again: a 6 and three 1s
    failed.locator("[data-testid=push]").click()
    for where in (gm.page, phone.page):
        pushed = cards(where).first
        expect(pushed).to_contain_text("Push")
        expect(pushed.locator("[data-testid=verdict]")).to_have_text("Success")
        expect(pushed.locator(".die-hit")).to_have_count(2)
        expect(pushed).to_contain_text("1 grit")
    card = page.locator(f"#character-{rook.pk}")
    expect(card.locator("[data-resource=grit]")).to_have_text("2")
    expect(phone.page.locator("[data-resource=grit]")).to_have_text("2")
    # On the roll's own card (issue 23: a follow-up is a line on it), which offers it no more: once per roll.
    expect(cards(page)).to_have_count(2)
    expect(cards(page).first.locator("[data-testid=follow-ups] .follow-up")).to_have_attribute("data-kind", "push")
    expect(cards(page).first.locator("[data-testid=push]")).to_have_count(0)
    # Its one-click change: grit back, on the card and the phone; Undo says it in the game's words.
    card.locator("[data-action=grit-regain]").click()
    expect(card.locator("[data-resource=grit]")).to_have_text("3")
    expect(phone.page.locator("[data-resource=grit]")).to_have_text("3")
    expect(page.locator("[data-testid=undo]")).to_contain_text("Rook, Grit +1")
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(gm.page, "fifth-game-table")
    shot(phone.page, "fifth-game-phone")
    dice.assert_all_drawn()
    gm.check(), phone.check()
