"""A secret roll's spend on the players' phone, in a real browser: nothing until the GM reveals it.

The GM's table (1366×768) and a phone (390×844) on uvicorn with the settings of ``make run`` (DEBUG on),
as in test_browser_players.py. Every wait is for the stream's event that should change the page.
"""

from __future__ import annotations

import pytest

# The fixtures (browser, gm_user, dice) are imported so that pytest finds them in this module.
from tests.web.test_browser import asgi_server, browser, dice, expect, gm_user  # noqa: F401
from tests.web.test_browser_players import PHONE, cards, gm_page, open_live, phone_page, shot, table  # noqa: F401

from gmtools.models import Roll  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_secret_rerolls_willpower_box_shows_on_the_phone_once_revealed(browser, asgi_server, gm_user, table, dice):
    bhavna = table.characters.get()
    gm, phone = gm_page(browser, asgi_server, gm_user), phone_page(browser, asgi_server)
    assert phone.page.viewport_size == PHONE
    open_live(gm, f"/campaigns/{table.pk}/")
    open_live(phone, f"/p/{table.player_token}/")
    on_gm = gm.page.locator(f"#character-{bhavna.pk}")
    on_phone = phone.page.locator(f"#character-{bhavna.pk}")
    phone_willpower = on_phone.locator("[data-resource=willpower]")
    expect(phone_willpower.locator(".box")).to_have_count(4)  # Composure 2 + Resolve 2

    # The GM rolls in secret and spends a Willpower on a reroll of it.
    gm.page.check("#composer [name=hidden]")
    dice.script(2, 3, 7)  # Strength 2 + Brawl 1 at Hunger 1: two dice and a hunger die
    gm.page.click("#roll-button")
    secret = cards(gm.page).first
    expect(secret.locator("[data-testid=secret-mark]")).to_contain_text("Secret roll")
    secret.locator(".reroll-form input[name=dice][value='0']").check()
    dice.script(8)
    secret.locator(".reroll-form").get_by_role("button", name="Willpower: reroll up to 3").click()
    expect(secret.locator("[data-testid=follow-ups] .follow-up")).to_have_count(1)  # on its card (issue 23)
    expect(cards(gm.page)).to_have_count(1)
    expect(on_gm.locator("[data-resource=willpower] .box-superficial")).to_have_count(1)  # the GM's card: spent

    # Hunger raised in the open redraws the phone's card: the stream has brought everything up to now,
    # and the Willpower box stays unmarked.
    on_gm.locator("[data-action=hunger-up]").click()
    expect(on_phone.locator("[data-resource=hunger]")).to_have_text("2")
    expect(phone_willpower.locator(".box-superficial")).to_have_count(0)
    expect(cards(phone.page)).to_have_count(0)
    phone.page.reload()  # and so on reload
    expect(phone.page.locator("[data-live-status]").first).to_have_attribute("data-live-status", "live")
    expect(on_phone.locator("[data-resource=hunger]")).to_have_text("2")
    expect(phone_willpower.locator(".box-superficial")).to_have_count(0)
    shot(phone.page, "players-secret-spend-held-back")

    # The GM reveals the roll: the phone's card marks the box, live.
    root = Roll.objects.get(parent__isnull=True)
    gm.page.locator(f"#roll-{root.pk} [data-testid=reveal]").click()
    expect(phone.page.locator(f"#roll-{root.pk} [data-testid=revealed-mark]")).to_contain_text("Revealed")
    expect(phone_willpower.locator(".box-superficial")).to_have_count(1)
    expect(on_phone.locator("[data-resource=hunger]")).to_have_text("2")
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone.page, "players-secret-spend-revealed")
    dice.assert_all_drawn()
    gm.check(), phone.check()
