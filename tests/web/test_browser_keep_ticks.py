"""An aspect ticked to invoke while the list of aspects is being redrawn is kept (issue 24's walkthrough,
A2): a phone ticks "Daring pilot" after the redraw's request left and before its answer lands (the
answer held back by the test, never a fixed wait); the tick stays, and the roll invokes it (+2, the
free invocation spent). The GM's composer draws the same list (templates/games/fate/composer.html).
"""

from __future__ import annotations

from tests.web.test_browser import asgi_server, browser, dice, expect, gm_user  # noqa: F401
from tests.web.test_browser_player_rolls import FACES, table_of
from tests.web.test_browser_players import open_live, phone_page, pytestmark  # noqa: F401

from gmtools import services  # noqa: E402
from gmtools.games.fate.models import Aspect  # noqa: E402
from gmtools.models import Roll  # noqa: E402
from tests.games import Game  # noqa: E402


def test_a_tick_made_while_the_aspects_are_redrawn_is_kept(browser, asgi_server, gm_user, dice):
    campaign, ana = table_of(gm_user, Game.FATE)
    pilot = Aspect.objects.create(character=ana, kind="high_concept", text="Daring pilot", free_invocations=1)
    services.set_character_link(ana, True)
    ana.refresh_from_db()
    phone = phone_page(browser, asgi_server)
    page = phone.page
    open_live(phone, f"/p/{ana.player_token}/")
    tick = page.locator(f"#composer-invoke input[value='{pilot.pk}']")
    expect(tick).not_to_be_checked()

    held = []
    page.route("**/composer/field/invoke/**", lambda route: held.append(route))
    page.evaluate("document.body.dispatchEvent(new CustomEvent('aspects-changed', {bubbles: true}))")
    page.wait_for_function("() => document.querySelector('#composer-invoke').classList.contains('htmx-request')")
    assert len(held) == 1  # the redraw left without the tick
    tick.check()
    old = page.locator("#composer-invoke").element_handle()
    held[0].continue_()
    page.wait_for_function("old => !old.isConnected", arg=old)  # the redraw landed
    page.unroute("**/composer/field/invoke/**")
    expect(tick).to_be_checked()

    dice.script(*FACES[Game.FATE])
    page.click("#roll-button")
    expect(page.locator("[data-testid=rolled]")).to_be_visible()
    roll = Roll.objects.get(campaign=campaign)
    assert [spend.get("label") for spend in roll.spends] == ["Daring pilot"], roll.spends
    assert roll.result["main"]["total"] == 3 + 2 + 2  # Forceful 3, the dice ++00, the invocation
    assert Aspect.objects.get(pk=pilot.pk).free_invocations == 0
    phone.check()
