"""The players' link panel with a QR code per character (issue 24's walkthrough, C1), in a real browser
on the settings ``make run`` gives at 1366×768: taller than the screen, it scrolls within itself, and
making the last character's link leaves the table where it was and the panel where the GM was in it,
the new QR code in sight."""

from __future__ import annotations

from tests.web.test_browser import asgi_server, browser, expect, gm_user, make_character  # noqa: F401
from tests.web.test_browser_player_rolls import RATINGS, table_of
from tests.web.test_browser_players import gm_page, open_live, pytestmark, shot  # noqa: F401

from gmtools import services  # noqa: E402
from tests.games import Game  # noqa: E402


def test_making_a_link_moves_neither_the_table_nor_the_panel(browser, asgi_server, gm_user):
    campaign, ana = table_of(gm_user, Game.V5)
    crew = [ana] + [make_character(campaign, name, RATINGS[Game.V5], player=name[0] + "ia")
                    for name in ("Bruno", "Carmen", "Dario", "Elena")]
    for character in crew[:-1]:
        services.set_character_link(character, True)
    gm = gm_page(browser, asgi_server, gm_user)
    page = gm.page
    open_live(gm, f"/campaigns/{campaign.pk}/")
    page.click("#player-link summary")
    panel = page.locator("#player-link .player-link-panel")
    assert panel.evaluate("p => p.scrollHeight > p.clientHeight")  # four QR codes: it scrolls within itself
    last = page.locator(f"[data-testid=character-link-{crew[-1].pk}]")
    last.locator("[data-testid=make-link]").scroll_into_view_if_needed()
    before = page.evaluate("() => [window.scrollY, document.querySelector('#player-link .player-link-panel').scrollTop]")
    assert before[0] == 0 and before[1] > 0
    old = panel.element_handle()
    last.locator("[data-testid=make-link]").click()
    page.wait_for_function("old => !old.isConnected", arg=old)
    expect(last.locator("[data-testid=character-qr] svg")).to_be_visible()
    after = page.evaluate("() => [window.scrollY, document.querySelector('#player-link .player-link-panel').scrollTop]")
    assert after[0] == 0 and abs(after[1] - before[1]) <= 1, (before, after)
    shot(page, "link-panel-made")
    gm.check()
