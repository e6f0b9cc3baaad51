"""A phone's composer follows the turn (issue 24's walkthrough, A1), in a real browser on the settings
``make run`` gives: Exalted's Willpower, spent from the phone, comes back on the phone with the GM's
Next turn, and goes when the GM spends it for the character from the table, without a reload.
"""

from __future__ import annotations

from tests.web.test_browser import asgi_server, browser, dice, expect, gm_user  # noqa: F401
from tests.web.test_browser_player_rolls import FACES, cards, table_of
from tests.web.test_browser_players import gm_page, open_live, phone_page, pytestmark, shot  # noqa: F401

from gmtools import services  # noqa: E402
from tests.games import Game  # noqa: E402


def test_exalted_willpower_on_the_phone_follows_the_turn(browser, asgi_server, gm_user, dice):
    campaign, ana = table_of(gm_user, Game.EXALTED)
    services.set_character_link(ana, True)
    ana.refresh_from_db()
    services.start_scene(campaign, title="The garrison gate")
    gm, phone = gm_page(browser, asgi_server, gm_user), phone_page(browser, asgi_server)
    open_live(gm, f"/campaigns/{campaign.pk}/")
    open_live(phone, f"/p/{ana.player_token}/")
    willpower = phone.page.locator("#composer [name=willpower]")
    willpower.check()
    dice.script(*FACES[Game.EXALTED])
    phone.page.click("#roll-button")
    expect(cards(gm.page)).to_have_count(1)
    expect(willpower).to_be_disabled()  # spent this turn

    gm.page.click("#next-turn")  # the next turn: Willpower is on offer again, on the open phone
    expect(willpower).to_be_enabled()
    shot(phone.page, "phone-turns-willpower-back")

    # The GM spends it for Ana from the table: the phone's box goes, live.
    table = gm.page
    expect(table.locator("#composer [name=character]")).to_have_value(str(ana.pk))
    table.locator("#composer [name=willpower]").check()
    dice.script(*FACES[Game.EXALTED])
    table.click("#roll-button")
    expect(cards(phone.page)).to_have_count(2)
    expect(willpower).to_be_disabled()
    for watch in (gm, phone):
        watch.check()
