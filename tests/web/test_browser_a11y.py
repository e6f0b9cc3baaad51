"""The table by keyboard and for a screen reader, in Chromium (issue 26, "Accessibility"): the focus
after Start scene and Next turn, the skip link to the composer, the N key, the dice's words and
Hunger's hits marked by more than colour. axe's rules are tests/web/test_browser_axe.py's."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from gmtools import services
from tests.games import Game
from tests.web.test_browser import (  # noqa: F401 - fixtures
    asgi_server,
    browser,
    campaign_of,
    dice,
    gm_user,
    make_character,
    open_table,
    page,
    roll,
    trait,
)
from tests.web.test_browser_time import caught_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_focus_stays_on_next_turn_and_start_scene_hands_it_to_next_turn(page, gm_user):
    campaign = campaign_of(gm_user, Game.EXALTED)
    make_character(campaign, "Swan")
    open_table(page, campaign)
    page.click(".new-scene > summary")
    page.focus("#start-scene")
    page.keyboard.press("Enter")
    where = page.locator("#time-bar [data-testid=where]")
    expect(where).to_be_visible()
    # The form that held Start scene closed with the new scene: its Next turn has the focus, not the
    # body, after the answer and after the GM's own stream drew the time bar again.
    caught_up(page, campaign)
    expect(page.locator("#next-turn")).to_be_focused()
    for _ in range(2):
        before = where.inner_text()
        page.keyboard.press("Enter")
        expect(where).not_to_have_text(before)
        caught_up(page, campaign)
        expect(page.locator("#next-turn")).to_be_focused()


def test_n_is_next_turn_and_nothing_without_a_scene(page, gm_user):
    campaign = campaign_of(gm_user, Game.V5)
    make_character(campaign, "Koi")
    open_table(page, campaign)
    page.keyboard.press("n")  # no scene: no Next turn to press, nothing happens
    expect(page.locator("#next-turn")).to_have_count(0)
    services.start_scene(campaign, title="The docks")
    page.reload()
    where = page.locator("#time-bar [data-testid=where]")
    before = where.inner_text()
    page.keyboard.press("n")
    expect(where).not_to_have_text(before)
    # Typing an n in a field types it.
    page.click(".new-scene > summary")
    page.fill(".new-scene input[name=title]", "")
    page.focus(".new-scene input[name=title]")
    after = where.inner_text()
    page.keyboard.press("n")
    expect(page.locator(".new-scene input[name=title]")).to_have_value("n")
    expect(where).to_have_text(after)


def test_the_first_tab_offers_a_skip_link_to_the_composer(page, gm_user):
    campaign = campaign_of(gm_user, Game.FATE)
    make_character(campaign, "Wizard")
    open_table(page, campaign)
    page.keyboard.press("Tab")
    skip = page.locator("a.skip-link")
    expect(skip).to_be_focused()
    expect(skip).to_be_visible()
    page.keyboard.press("Enter")
    expect(page.locator("#composer [name=character]")).to_be_focused()


def test_v5_dice_say_what_they_are_and_hunger_hits_are_marked_beyond_colour(page, gm_user, dice):
    campaign = campaign_of(gm_user, Game.V5)
    koi = make_character(campaign, "Koi", {"dexterity": 3, "stealth": 2}, v5_hunger=2, v5_health_superficial=1)
    open_table(page, campaign)
    expect(page.locator(f"#character-{koi.pk} [data-resource=health]")).to_have_attribute(
        "aria-label", "Health 4: 1 superficial, 0 aggravated")
    page.select_option("#composer [name=first]", trait(koi, "dexterity"))
    page.select_option("#composer [name=second]", trait(koi, "stealth"))
    dice.script(10, 4, 6, 7, 1)  # 3 normal dice, then Koi's 2 Hunger dice
    card = roll(page, expected_cards=1)
    expect(card.locator("[data-testid=dice] [role=img]")).to_have_count(5)
    assert card.locator("[data-testid=dice] .die").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))") == [
        "10, critical", "4, failure", "6, success", "Hunger 7, success", "Hunger 1, failure"]
    ring = "els => els.map(e => getComputedStyle(e).boxShadow)"
    hit, miss = card.locator(".die-hunger").evaluate_all(ring)
    assert miss == "none" and hit != "none", (hit, miss)
