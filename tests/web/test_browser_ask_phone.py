"""The GM asks a player's phone for a secret difficulty (issue 24, "the GM keeps control"), in a real
browser on the settings ``make run`` gives: the GM's composer asks Ana's phone, which is open; the
phone says so live, hides its own difficulty and the odds, and its roll faces the GM's difficulty,
the card on the GM's table saying "Secret difficulty". Screenshots: ``artifacts/screenshots/ask-phone-*``.
The server side is test_ask_phone.py.
"""

from __future__ import annotations

from tests.web.test_browser import asgi_server, browser, dice, expect, gm_user  # noqa: F401
from tests.web.test_browser_player_rolls import FACES, cards, table_of
from tests.web.test_browser_players import gm_page, open_live, phone_page, pytestmark, shot  # noqa: F401

from gmtools import services  # noqa: E402
from gmtools.models import Roll  # noqa: E402
from tests.games import Game  # noqa: E402


def test_the_gm_asks_a_phone_for_a_secret_difficulty(browser, asgi_server, gm_user, dice):
    campaign, ana = table_of(gm_user, Game.V5)
    services.set_character_link(ana, True)
    ana.refresh_from_db()
    gm, phone = gm_page(browser, asgi_server, gm_user), phone_page(browser, asgi_server)
    open_live(gm, f"/campaigns/{campaign.pk}/")
    open_live(phone, f"/p/{ana.player_token}/")
    composer = phone.page.locator("#composer")
    expect(composer.locator("[data-field=difficulty]")).to_be_visible()
    expect(phone.page.locator("#odds [data-testid=odds]")).to_be_visible()

    table = gm.page
    expect(table.locator("#composer [name=character]")).to_have_value(str(ana.pk))  # the first PC: composed for
    expect(table.locator("#ask-phone")).to_contain_text("Ask Ana’s phone for this difficulty")
    table.select_option("#composer [name=difficulty]", "4")
    table.locator("#composer [name=secret]").check()
    table.locator("#ask-phone button").first.click()
    expect(table.locator("#ask-phone [data-testid=asked]")).to_have_text("Asked: Challenging (4), secret")
    shot(table, "ask-phone-table")

    # Live on the open phone: said, its own difficulty hidden, no odds that would tell it.
    expect(phone.page.locator("[data-testid=asked-difficulty]")).to_have_text("Difficulty: set by the GM, kept secret.")
    expect(composer.locator("[data-field=difficulty]")).to_be_hidden()
    expect(phone.page.locator("#odds [data-testid=odds-secret]")).to_be_visible()
    shot(phone.page, "ask-phone-phone")
    dice.script(*FACES[Game.V5])
    phone.page.click("#roll-button")
    expect(cards(table).first.locator("[data-testid=secret-mark]")).to_be_visible()
    roll = Roll.objects.get(campaign=campaign)
    assert roll.request["difficulty"] == 4 and roll.secret and roll.rolled_by == "Lucía"
    expect(phone.page.locator("[data-testid=asked-difficulty]")).to_have_count(0)  # once: the next is the player's
    expect(table.locator("#ask-phone [data-testid=asked]")).to_have_count(0)  # and the GM's line says it is spent
    expect(composer.locator("[name=difficulty]")).not_to_have_value("4")  # the phone never shows the GM's secret
    expect(composer.locator("[data-field=difficulty]")).to_be_visible()
    shot(phone.page, "ask-phone-phone-rolled")
    for watch in (gm, phone):
        watch.check()
