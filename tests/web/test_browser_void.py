"""Mistakes at the table, in a real browser (English, 1366×768, ``make run``'s settings).

A V5 Willpower reroll voided from its card: the card is struck through with who voided it and
when, the Willpower box comes back on the character's card, and a player's phone sees the card
struck through live. A misclick on a Health box is undone from the Undo button that names it.
Screenshots: ``artifacts/screenshots/issue10-void-*.png``.
"""

from __future__ import annotations

import re

import pytest

# The fixtures (browser, gm_user, dice, page, asgi_server) are imported so that pytest finds them here.
from tests.web.test_browser import (  # noqa: F401
    SCREENSHOTS,
    asgi_server,
    assert_not_reloaded,
    browser,
    cards,
    dice,
    expect,
    faces,
    gm_user,
    make_character,
    open_table,
    page,
    roll,
    sync_api,
    trait,
)

from gmtools.models import Campaign, Character, ResourceChange, Roll  # noqa: E402
from tests.games import Game  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shot(page: sync_api.Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"issue10-void-{name}.png"), full_page=True)


def test_a_voided_willpower_reroll_gives_the_willpower_back(page, browser, asgi_server, gm_user, dice):
    campaign = Campaign.objects.create(name="Nights in the neighbourhood", game=Game.V5, gm=gm_user)
    koi = make_character(campaign, "Koi", {"strength": 2, "brawl": 2, "composure": 2, "resolve": 3}, v5_hunger=1)
    phone_context = browser.new_context(base_url=asgi_server, locale="en-US", viewport={"width": 390, "height": 844},
                                        is_mobile=True, has_touch=True)
    phone = phone_context.new_page()
    phone.goto(f"/p/{campaign.player_token}/")
    expect(phone.locator("[data-live-status]").first).to_have_attribute("data-live-status", "live")

    open_table(page, campaign)
    willpower = page.locator(f"#character-{koi.pk} [data-resource=willpower]")
    page.select_option("#composer [name=first]", trait(koi, "strength"))
    page.select_option("#composer [name=second]", trait(koi, "brawl"))
    page.select_option("#composer [name=difficulty]", "3")
    dice.script(2, 3, 7, 4)  # 3 normal dice and 1 Hunger die: 1 success against 3
    card = roll(page, expected_cards=1)
    form = card.locator(".reroll-form")
    form.locator("input[name=dice][value='0']").check()
    form.locator("input[name=dice][value='1']").check()
    dice.script(8, 9)
    form.get_by_role("button", name="Willpower: reroll up to 3").click()
    # The reroll is a line on its roll's card (issue 23), on the table and the phone alike.
    rerolled = card.locator("[data-testid=follow-ups] .follow-up")
    expect(rerolled).to_have_attribute("data-kind", "reroll")
    expect(cards(page)).to_have_count(1)
    dice.assert_all_drawn()
    expect(willpower.locator(".box-superficial")).to_have_count(1)
    expect(cards(phone)).to_have_count(1)
    expect(cards(phone).first.locator("[data-testid=follow-ups] .follow-up")).to_have_count(1)

    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    rerolled.locator("[data-testid=void-follow-up]").click()
    expect(rerolled).to_have_class(re.compile(r"\bfollow-up-voided\b"))
    assert asked and "stays in the log" in asked[0]
    assert_not_reloaded(page)
    expect(rerolled.locator("[data-testid=voided-mark]")).to_have_text(re.compile(r"Voided by table-gm at \d\d:\d\d"))
    expect(rerolled.locator("[data-testid=void-follow-up]")).to_have_count(0)
    # The Willpower box is back, on the card redrawn in place; the roll it followed still stands,
    # its dice and verdict its own again.
    expect(willpower.locator(".box-superficial")).to_have_count(0)
    original = cards(page).first
    expect(original).not_to_have_class(re.compile(r"\broll-voided\b"))
    expect(original.locator(".reroll-form")).to_have_count(1)  # the voided reroll did not happen: offered again
    assert faces(original) == [2, 3, 7, 4]
    koi.refresh_from_db()
    assert (koi.resources.willpower_superficial, koi.resources.willpower_aggravated) == (0, 0)
    # Polled: the card may be redrawn in place by the GM's own stream while it is read.
    expect(rerolled.locator("> div").first).to_have_css("text-decoration-line", re.compile("line-through"))
    # The players' phone: the same card, its reroll struck through, live, without the GM's login.
    phone_line = phone.locator(f"#follow-up-{Roll.objects.order_by('-id').first().pk}")
    expect(phone_line).to_have_class(re.compile(r"\bfollow-up-voided\b"))
    expect(phone_line.locator("[data-testid=voided-mark]")).to_have_text(re.compile(r"Voided by the GM at \d\d:\d\d"))
    expect(phone.locator(f"#character-{koi.pk} [data-resource=willpower] .box-superficial")).to_have_count(0)
    rerolled.scroll_into_view_if_needed()
    shot(page, "table")
    phone.screenshot(path=str(SCREENSHOTS / "issue10-void-phone.png"), full_page=True)
    phone_context.close()


def test_undo_a_misclick_on_a_health_box(page, gm_user):
    campaign = Campaign.objects.create(name="Nights in the neighbourhood", game=Game.V5, gm=gm_user)
    koi = make_character(campaign, "Koi", {"stamina": 2, "composure": 1, "resolve": 1}, v5_hunger=1)
    open_table(page, campaign)
    health = page.locator(f"#character-{koi.pk} [data-resource=health]")
    undo = page.locator("[data-testid=undo]")
    expect(undo).to_have_count(0)  # nothing to undo yet
    page.locator(f"#character-{koi.pk} [data-action=hunger-up]").click()
    expect(page.locator(f"#character-{koi.pk} [data-resource=hunger]")).to_have_text("2")
    expect(undo).to_have_text("↶ Undo: Koi, Hunger +1")
    page.locator(f"#character-{koi.pk} [data-action=health-superficial-damage]").click()
    expect(health.locator(".box-superficial")).to_have_count(1)
    expect(undo).to_have_text("↶ Undo: Koi, Health +1 superficial")
    shot(page, "undo")

    undo.click()
    expect(health.locator(".box-superficial")).to_have_count(0)
    expect(undo).to_have_text("↶ Undo: Koi, Hunger +1")  # the next click walks back one more
    undo.click()
    expect(page.locator(f"#character-{koi.pk} [data-resource=hunger]")).to_have_text("1")
    expect(undo).to_have_count(0)
    assert_not_reloaded(page)
    koi = Character.objects.get(pk=koi.pk)
    assert (koi.resources.health_superficial, koi.resources.hunger) == (0, 1)
    assert ResourceChange.objects.filter(undone_at__isnull=False).count() == 2
