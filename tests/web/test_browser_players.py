"""Players' phones and the GM's other tabs, live, in a real browser against the ASGI server.

The server is uvicorn serving ``gmtools.asgi`` in a thread of this process (so the scripted dice
reach it), with DEBUG as ``make run`` ships it (on): the streams are real server-sent events, not
the test client's. Each test drives two pages at once, the GM's table at 1366×768 and a phone at
390×844, and checks that what one does shows on the other without a reload.
"""

from __future__ import annotations

import re

import pytest

# The fixtures (browser, gm_user, dice) are imported so that pytest finds them in this module.
from tests.web.test_browser import (  # noqa: F401
    SCREENSHOTS,
    asgi_server,
    browser,
    dice,
    expect,
    gm_user,
    make_character,
    sync_api,
)

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.test import Client  # noqa: E402

from gmtools.models import Campaign, Change, Roll  # noqa: E402
from tests.games import Game  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}


class Watch:
    """A page that fails the test on a JavaScript error or a 5xx answer."""

    def __init__(self, page: sync_api.Page) -> None:
        self.page, self.problems = page, []
        page.on("pageerror", lambda error: self.problems.append(f"JavaScript error: {error}"))
        page.on("response", lambda r: r.status >= 500 and self.problems.append(f"{r.status} from {r.url}"))
        page.set_default_timeout(6_000)

    def check(self) -> None:
        assert not self.problems, self.problems


def gm_page(browser: sync_api.Browser, base: str, user: User) -> Watch:
    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=base, locale="en-US", viewport=LAPTOP, bypass_csp=True)  # see test_browser.page
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                          "url": base}])
    return Watch(context.new_page())


def phone_page(browser: sync_api.Browser, base: str, locale: str = "en-US") -> Watch:
    context = browser.new_context(base_url=base, locale=locale, viewport=PHONE, is_mobile=True, has_touch=True,
                                  bypass_csp=True)  # see test_browser.page
    return Watch(context.new_page())


def open_live(watch: Watch, url: str) -> None:
    watch.page.goto(url)
    expect(watch.page.locator("[data-live-status]").first).to_have_attribute("data-live-status", "live")
    watch.page.evaluate("window.__sameDocument = 'still here'")


def assert_not_reloaded(watch: Watch) -> None:
    assert watch.page.evaluate("window.__sameDocument") == "still here", "the page was reloaded"


def cards(page: sync_api.Page) -> sync_api.Locator:
    return page.locator("#log-list .roll-card")


def shot(page: sync_api.Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


@pytest.fixture
def table(gm_user) -> Campaign:
    campaign = Campaign.objects.create(name="Nights in the neighbourhood", game=Game.V5, gm=gm_user)
    make_character(campaign, "Bhavna", {"strength": 2, "brawl": 1, "composure": 2, "resolve": 2}, v5_hunger=1)
    return campaign


def test_the_gm_rolls_and_the_phone_shows_the_card_without_reloading(browser, asgi_server, gm_user, table, dice):
    gm, phone = gm_page(browser, asgi_server, gm_user), phone_page(browser, asgi_server)
    open_live(gm, f"/campaigns/{table.pk}/")
    open_live(phone, f"/p/{table.player_token}/")
    expect(phone.page.locator("[data-empty]")).to_be_visible()

    # The roll's answer is held back until the stream has brought the card to the phone: the GM's own
    # table holds what its stream heard until its answer is in (static/live.js), then shows the card once.
    def late(route: sync_api.Route) -> None:
        answer = route.fetch()
        expect(cards(phone.page)).to_have_count(1)
        gm.page.wait_for_timeout(200)  # the GM's stream has heard it too by now
        expect(gm.page.locator("#log-list .roll-card")).to_have_count(0)
        route.fulfill(response=answer)

    gm.page.route("**/roll/", late)
    dice.script(6, 2, 10)  # Strength 2 + Brawl 1 at Hunger 1: two dice and a hunger die
    gm.page.click("#roll-button")
    card = cards(phone.page).first
    expect(card).to_contain_text("Bhavna")
    expect(card.locator("[data-testid=verdict]")).to_have_text("Win")
    assert [int(t) for t in card.locator(".die").evaluate_all("els => els.map(e => e.title)")] == [6, 2, 10]
    expect(card.locator(".die-hunger")).to_have_text(["10"])
    expect(card.locator("button, form")).to_have_count(0)  # the GM's buttons stay on the GM's table
    expect(phone.page.locator("[data-empty]")).to_have_count(0)
    roll_id = Roll.objects.get().pk
    gm.page.wait_for_timeout(300)  # the held-back answer has been swapped in by now
    expect(gm.page.locator(f"[id=roll-{roll_id}]")).to_have_count(1)
    assert_not_reloaded(phone)
    # Phone-sized: nothing wider than the screen.
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone.page, "players-phone")
    dice.assert_all_drawn()
    gm.check(), phone.check()


def test_a_secret_roll_shows_nothing_on_the_phone_until_the_gm_reveals_it(browser, asgi_server, gm_user, table, dice):
    gm, phone = gm_page(browser, asgi_server, gm_user), phone_page(browser, asgi_server)
    open_live(gm, f"/campaigns/{table.pk}/")
    open_live(phone, f"/p/{table.player_token}/")
    gm.page.check("#composer [name=hidden]")
    dice.script(9, 9, 3)
    gm.page.click("#roll-button")
    secret_card = cards(gm.page).first
    expect(secret_card.locator("[data-testid=secret-mark]")).to_contain_text("Secret roll")
    # The phone got nothing: give the stream time to have delivered it, had it been public.
    dice.script(1, 1, 1)
    gm.page.uncheck("#composer [name=hidden]")
    gm.page.click("#roll-button")
    expect(cards(phone.page)).to_have_count(1)  # the public roll made after it has arrived...
    expect(cards(phone.page).first).to_contain_text("Total failure")
    assert "Secret" not in phone.page.content()  # ...and the secret one is nowhere on the page
    secret = Roll.objects.get(hidden=True)
    assert f"roll-{secret.pk}" not in phone.page.content()

    secret_card = gm.page.locator(f"#roll-{secret.pk}")
    secret_card.locator("[data-testid=reveal]").click()
    expect(secret_card.locator("[data-testid=revealed-mark]")).to_be_visible()
    revealed = phone.page.locator(f"#roll-{secret.pk}")
    expect(revealed.locator("[data-testid=revealed-mark]")).to_contain_text("Revealed")
    expect(cards(phone.page)).to_have_count(2)
    # In its place in the log: older than the public roll made after it.
    expect(cards(phone.page).nth(1)).to_have_id(f"roll-{secret.pk}")
    assert_not_reloaded(phone)
    dice.assert_all_drawn()
    gm.check(), phone.check()


def test_a_phone_offline_while_the_gm_rolls_twice_shows_both_rolls_exactly_once(browser, asgi_server, gm_user, table,
                                                                                 dice):
    gm, phone = gm_page(browser, asgi_server, gm_user), phone_page(browser, asgi_server)
    open_live(gm, f"/campaigns/{table.pk}/")
    open_live(phone, f"/p/{table.player_token}/")
    phone.page.context.set_offline(True)
    expect(phone.page.locator("[data-live-status]").first).to_have_attribute("data-live-status", "offline")
    dice.script(6, 2, 10, 1, 1, 1)
    gm.page.click("#roll-button")
    expect(cards(gm.page)).to_have_count(1)
    gm.page.click("#roll-button")
    expect(cards(gm.page)).to_have_count(2)
    assert cards(phone.page).count() == 0
    phone.page.context.set_offline(False)
    expect(phone.page.locator("[data-live-status]").first).to_have_attribute("data-live-status", "live")
    expect(cards(phone.page)).to_have_count(2)
    ids = cards(phone.page).evaluate_all("els => els.map(e => e.id)")
    assert ids == [f"roll-{r.pk}" for r in Roll.objects.order_by("-id")]  # newest first, each once
    phone.page.wait_for_timeout(500)  # a late duplicate would land now
    expect(cards(phone.page)).to_have_count(2)
    assert_not_reloaded(phone)
    dice.assert_all_drawn()
    gm.check(), phone.check()


def test_a_second_gm_tab_follows_the_first(browser, asgi_server, gm_user, table, dice):
    first, second = gm_page(browser, asgi_server, gm_user), gm_page(browser, asgi_server, gm_user)
    for tab in (first, second):
        open_live(tab, f"/campaigns/{table.pk}/")
    first.page.click("#time-bar summary")
    first.page.click("#start-scene")
    expect(second.page.locator("[data-testid=where]")).to_have_text("Story 1 · Episode 1 · Scene 1 · Turn 1")
    dice.script(6, 2, 10)
    first.page.click("#roll-button")
    expect(cards(second.page)).to_have_count(1)
    expect(second.page.locator("#turn-order [data-testid=whose-turn]")).to_have_count(0)  # Bhavna has acted
    first.page.locator("#character-%d [data-action=hunger-up]" % table.characters.get().pk).click()
    expect(second.page.locator("#character-%d [data-resource=hunger]" % table.characters.get().pk)).to_have_text("2")
    first.page.click("#next-turn")
    expect(second.page.locator("[data-testid=where]")).to_have_text("Story 1 · Episode 1 · Scene 1 · Turn 2")
    expect(second.page.locator("#turn-order [data-testid=whose-turn]")).to_have_count(1)
    # The second tab's own buttons still work after being redrawn from the stream.
    second.page.locator("#character-%d [data-action=hunger-down]" % table.characters.get().pk).click()
    expect(first.page.locator("#character-%d [data-resource=hunger]" % table.characters.get().pk)).to_have_text("1")
    assert_not_reloaded(first), assert_not_reloaded(second)
    shot(second.page, "players-gm-second-tab")
    dice.assert_all_drawn()
    first.check(), second.check()


def test_a_new_link_cuts_off_an_open_phone_at_once(browser, asgi_server, gm_user, table):
    gm, phone = gm_page(browser, asgi_server, gm_user), phone_page(browser, asgi_server, locale="es-ES")
    open_live(gm, f"/campaigns/{table.pk}/")
    open_live(phone, f"/p/{table.player_token}/")
    gm.page.click("#player-link summary")
    expect(gm.page.locator("[data-testid=qr] svg")).to_be_visible()
    gm.page.once("dialog", lambda dialog: dialog.accept())
    gm.page.click("#player-link button")
    expect(phone.page.locator("[data-live-status]").first).to_have_attribute("data-live-status", "gone")
    expect(phone.page.locator("[data-live-status] [data-when=gone]")).to_be_visible()
    assert Campaign.objects.get(pk=table.pk).player_token not in (table.player_token,)
    # Reloaded, the old link says what happened in the player's language: not Django's debug list of
    # URLs (``make run`` has DEBUG on), not a GM's "Your campaigns".
    phone.page.reload()
    expect(phone.page.get_by_test_id("error-page")).to_contain_text("Este enlace de jugador no funciona")
    expect(phone.page.get_by_text("URLconf")).to_have_count(0)
    expect(phone.page.get_by_role("link", name="Tus campañas")).to_have_count(0)
    shot(phone.page, "player-link-gone-es")
    gm.check(), phone.check()


def test_the_tv_screen_shows_the_last_roll_big(browser, asgi_server, gm_user, table, dice):
    gm = gm_page(browser, asgi_server, gm_user)
    tv = Watch(browser.new_context(base_url=asgi_server, viewport={"width": 1920, "height": 1080}).new_page())
    open_live(gm, f"/campaigns/{table.pk}/")
    open_live(tv, f"/p/{table.player_token}/tv/")
    dice.script(6, 2, 10, 1, 1, 1)
    gm.page.click("#roll-button")
    expect(cards(tv.page)).to_have_count(1)
    gm.page.click("#roll-button")
    expect(cards(tv.page)).to_have_count(2)
    big, small = (cards(tv.page).nth(i).locator(".die").first.bounding_box() for i in (0, 1))
    assert big["height"] > 1.5 * small["height"]  # the newest roll is the big one
    shot(tv.page, "players-tv")

    # The GM voids the newest roll: it stays in the log, struck through, and the big one is the roll before it.
    gm.page.once("dialog", lambda dialog: dialog.accept())
    cards(gm.page).first.get_by_role("button", name="Void").click()
    expect(cards(tv.page).first).to_have_class(re.compile(r"\broll-voided\b"))
    voided, standing = (cards(tv.page).nth(i).locator(".die").first.bounding_box() for i in (0, 1))
    assert standing["height"] > 1.5 * voided["height"]
    shot(tv.page, "players-tv-voided")
    dice.assert_all_drawn()
    gm.check(), tv.check()


def test_a_live_update_keeps_what_the_gm_was_typing(browser, asgi_server, gm_user):
    campaign = Campaign.objects.create(name="Realm garrison", game=Game.EXALTED, gm=gm_user)
    koi = make_character(campaign, "Koi", {"dexterity": 4, "stealth": 2})
    first, second = gm_page(browser, asgi_server, gm_user), gm_page(browser, asgi_server, gm_user)
    for tab in (first, second):
        open_live(tab, f"/campaigns/{campaign.pk}/")
    first.page.click("#time-bar summary")
    first.page.click("#start-scene")
    actions = second.page.locator(f"#character-{koi.pk} input[name=actions]")
    expect(actions).to_have_value("1")
    # Once the second tab has drawn every change so far (a fill racing a redraw would type into
    # the card being replaced), it types a number and does not declare it yet...
    latest = Change.objects.filter(campaign=campaign).order_by("-id").values_list("id", flat=True).first()
    second.page.wait_for_function(f"window.gmtoolsLive.cursor() >= {latest}")
    actions.fill("4")
    first.page.click("#next-turn")  # ...when the first tab's change redraws every card
    expect(second.page.locator("[data-testid=where]")).to_have_text("Story 1 · Episode 1 · Scene 1 · Turn 2")
    expect(actions).to_have_value("4")
    second.page.locator(f"#character-{koi.pk}").get_by_role("button", name="Declare").click()
    expect(second.page.locator(f"#character-{koi.pk} [data-testid=turn-budget]")).to_contain_text("0 of 4")
    first.check(), second.check()


def test_a_live_update_runs_the_pages_own_listeners_on_the_phone(browser, asgi_server, gm_user, table, dice):
    """live.js says "live-applied" after drawing a change; the listeners of static/gmtools.js, quick.js
    and live.js wait for it on the document, so it bubbles. Without it the phone's progress bar came
    back empty after each roll into the action (its width is set from data-percent by a script: CSP)."""
    from gmtools import services
    from gmtools.models import Character
    from tests.web.helpers import compose_and_roll

    bhavna = Character.objects.get(campaign=table)
    scene = services.start_scene(table, title="The roof")
    climb = services.create_extended(table, scene, name="Climb the fire escape", goal=10, character=bhavna, pool=3)
    phone = phone_page(browser, asgi_server)
    open_live(phone, f"/p/{table.player_token}/")
    bar = phone.page.locator(".progress-bar", has_text="/10")
    expect(bar).to_have_text("0/10")
    assert bar.evaluate("b => b.style.width") == "0%"  # filled on load
    phone.page.evaluate("window.__heard = 0; document.addEventListener('live-applied', () => { window.__heard += 1; })")
    compose_and_roll(table, bhavna, (6, 7, 2), extended=climb.pk)  # 2 normal dice and a Hunger die: 2 successes
    expect(bar).to_have_text("2/10")  # drawn again from the stream
    expect(bar).to_have_attribute("style", re.compile(r"^width: 20%;?\s*$"))  # and filled
    assert phone.page.evaluate("window.__heard") == 1  # heard on the document, once
    assert_not_reloaded(phone)
    dice.assert_all_drawn()
    phone.check()
