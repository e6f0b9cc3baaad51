"""Django's Content Security Policy holds in the browser (issue 13): no inline script or style is
refused anywhere the GM, a player or staff go, in the four games, under ``make run``'s DEBUG."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Page, expect

from gmtools import services
from gmtools.models import Campaign, ExtendedAction
from tests.games import Game
from tests.web.test_browser import (  # noqa: F401 - fixtures
    asgi_server,
    browser,
    gm_user,
    make_character,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Each refusal the browser reports, kept on the page (installed before any of the page's own scripts).
WATCH = """window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));"""


def refused(page: Page) -> list[str]:
    return page.evaluate("window.__csp")


@pytest.fixture
def page(browser, asgi_server, gm_user) -> Iterator[Page]:
    """The GM's page, keeping the policy (test_browser.page bypasses it for the tests' own probes)."""
    client = Client()
    client.force_login(gm_user)
    context = browser.new_context(base_url=asgi_server, locale="en-US", viewport={"width": 1366, "height": 768})
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                          "url": asgi_server}])
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("game", [Game.EXALTED, Game.V5, Game.FATE, Game.SCIFI])
def test_the_table_and_the_player_page_break_no_rule_of_the_policy(page, asgi_server, gm_user, game):
    campaign = Campaign.objects.create(name=f"CSP {game}", game=game, gm=gm_user)
    hero = make_character(campaign, "Ana")
    scene = services.start_scene(campaign, title="The docks")
    if games_with_extended := game != Game.FATE:
        services.create_extended(campaign, scene, name="Climb", goal=10, character=hero, pool=5)
    page.add_init_script(WATCH)
    response = page.goto(f"/campaigns/{campaign.pk}/")
    assert "default-src 'self'" in response.headers["content-security-policy"]
    expect(page.locator("#odds [data-testid=odds]")).to_be_visible()
    page.click("#roll-button")
    expect(page.locator("#log-list .roll-card")).to_have_count(1)
    if games_with_extended:
        # The progress bar is filled from its data-percent by a script, never by a style attribute.
        ExtendedAction.objects.filter(campaign=campaign).update(total=4)
        page.reload()
        bar = page.locator("#extended-list .progress-bar").first
        assert bar.evaluate("b => b.style.width") == "40%"
    page.click("text=New character")
    expect(page.locator("[data-testid=character-sheet]")).to_be_visible()
    assert refused(page) == []
    # The luck page's charts are SVG with classes and presentation attributes, its filters htmx.
    page.goto(f"/campaigns/{campaign.pk}/luck/")
    expect(page.locator("[data-testid=stats]")).to_be_visible()
    page.select_option("select[name=character]", str(hero.pk))
    expect(page).to_have_url(re.compile(rf"character={hero.pk}"))
    assert refused(page) == []

    phone = page.context.new_page()
    phone.add_init_script(WATCH)
    phone.goto(f"/p/{campaign.player_token}/")
    expect(phone.locator("#log-list .roll-card")).to_have_count(1)
    assert refused(phone) == []
    phone.goto(f"/p/{campaign.player_token}/luck/")
    expect(phone.locator("[data-testid=stats]")).to_be_visible()
    assert refused(phone) == []


def test_the_home_login_error_and_admin_pages_break_no_rule_of_the_policy(browser, asgi_server, gm_user):
    boss = User.objects.create_superuser("boss", password="admin-secret-1")
    campaign = Campaign.objects.create(name="CSP admin", game=Game.V5, gm=gm_user)
    hero = make_character(campaign, "Ana")
    visitor = browser.new_context(base_url=asgi_server)
    anonymous = visitor.new_page()
    anonymous.add_init_script(WATCH)
    for url in ("/accounts/login/", "/no/such/page/"):
        anonymous.goto(url)
        assert refused(anonymous) == [], url
    client = Client()
    client.force_login(boss)
    staff = browser.new_context(base_url=asgi_server)
    staff.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                        "url": asgi_server}])
    admin = staff.new_page()
    admin.add_init_script(WATCH)
    for url in ("/", "/admin/", f"/admin/gmtools/character/{hero.pk}/change/", "/admin/gmtools/campaign/import/"):
        admin.goto(url)
        assert refused(admin) == [], url
