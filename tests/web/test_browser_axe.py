"""Every page a GM, a player or a TV shows passes axe-core (issue 26, "Accessibility").

axe-core runs in Chromium on the pages as ``make run`` serves them (tests/web/test_browser.py's
server, DEBUG on): the GM's table of each of the four games with rolls in its log, a scene in play
and its editors open (the character sheet, the players' link, the keys' help, the new scene and
extended action forms), the phone (the campaign's link, and a character's link with its composer,
390 px wide), the TV page, the luck pages and the login page, in English and in Spanish.
The rules: WCAG 2.0 and 2.1, A and AA, and axe's best practices. Each must find nothing; a failure
prints each violation (its rule, impact, the elements and axe's help) so that it can be fixed at
its cause.

axe-core comes from the PyPI package axe-playwright-python (it bundles axe.min.js and injects it
into the page): loaded into the page under test only, never served by gmtools.
"""

from __future__ import annotations

import random

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

import rules.dice
import rules.fate
import rules.scifi
from gmtools import services
from gmtools.models import Campaign, Character
from tests.games import Game
from tests.web.test_browser import (  # noqa: F401 - fixtures
    asgi_server,
    browser,
    gm_user,
    log_earlier_roll,
    make_character,
    watched_page,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RULES = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]},
         "resultTypes": ["violations"]}
AXE = Axe()
LANGUAGES = {"en": "en-US", "es": "es-ES"}


def violations(page: Page) -> list[str]:
    """What axe-core finds on the page as it stands: one line per element of each violation."""
    found = AXE.run(page, options=RULES).response["violations"]
    return [f"{v['id']} ({v['impact']}) {' '.join(map(str, node['target']))}: {v['help']}\n    {node['html'][:200]}"
            for v in found for node in v["nodes"]]


def check(page: Page, where: str, found: dict[str, list[str]]) -> None:
    """axe's findings on the page, kept under ``where`` (the test asserts on all of them at its end,
    so that one run lists every page's violations)."""
    problems = violations(page)
    if problems:
        found[where] = problems


def report(found: dict[str, list[str]]) -> str:
    return "\n".join(f"{where}:\n  " + "\n  ".join(lines) for where, lines in found.items())


@pytest.fixture
def seeded_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's dice from one seeded source: the same rolls on every run, whatever the pools."""
    source = random.Random(26)
    for module in (rules.dice, rules.scifi, rules.fate):
        monkeypatch.setattr(module, "system_random", lambda: source)


def a_table(gm_user, game: str) -> tuple[Campaign, Character, Character]:
    """A campaign of the game with a player character (its own link, players rolling) and an NPC, a scene in play."""
    campaign = Campaign.objects.create(name=f"Axe {game}", game=game, gm=gm_user)
    hero = make_character(campaign, "Ana", player="Lucía")
    guard = make_character(campaign, "Guard", kind="npc")
    scene = services.start_scene(campaign, title="The docks", combat=True, characters=[hero, guard])
    if game != Game.FATE:
        services.create_extended(campaign, scene, name="Climb", goal=10, character=hero, pool=5)
    services.set_players_roll(campaign, True)
    services.set_character_link(hero, True)
    hero.refresh_from_db()
    log_earlier_roll(campaign)
    return campaign, hero, guard


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("game", [Game.EXALTED, Game.V5, Game.FATE, Game.SCIFI])
def test_every_page_of_a_table_passes_axe(browser, asgi_server, gm_user, seeded_dice, game, language):
    campaign, hero, guard = a_table(gm_user, game)
    found: dict[str, list[str]] = {}
    with watched_page(browser, asgi_server, gm_user, locale=LANGUAGES[language], viewport={"width": 1366, "height": 768}) as page:
        gm_pages(page, campaign, guard, found)
    with watched_page(browser, asgi_server, None, locale=LANGUAGES[language], viewport={"width": 390, "height": 844}) as phone:
        phone_pages(phone, campaign, hero, found)
    assert not found, report(found)


def gm_pages(page: Page, campaign: Campaign, guard: Character, found: dict[str, list[str]]) -> None:
    page.goto(f"/campaigns/{campaign.pk}/")
    expect(page.locator("#odds [data-testid=odds]")).to_be_visible()
    # A roll for each character (picked in the composer), then the next turn.
    page.click("#roll-button")
    expect(page.locator("#log-list .roll-card")).to_have_count(2)
    page.select_option("#composer [name=character]", str(guard.pk))
    expect(page.locator(f"#composer [name=character] option[value='{guard.pk}'][selected]")).to_be_attached()
    expect(page.locator("#odds [data-testid=odds]")).to_be_visible()
    page.click("#roll-button")
    expect(page.locator("#log-list .roll-card")).to_have_count(3)
    where = page.locator("#time-bar [data-testid=where]")
    before = where.inner_text()
    page.click("#next-turn")
    expect(where).not_to_have_text(before)
    check(page, "the table", found)
    # Its open panels and forms: the players' link, the new scene and extended action forms, the log's export.
    for summary in ("#player-link > summary", "[data-testid=export] > summary", ".new-scene > summary",
                    "#extended-list details > summary", ".composer-extras > summary"):
        if page.locator(summary).count():
            page.click(summary)
    check(page, "the table's open panels", found)
    page.keyboard.press("Escape")
    page.keyboard.press("?")
    expect(page.locator("#keys-help")).to_be_visible()
    check(page, "the keys' help", found)
    page.keyboard.press("Escape")
    page.click("[data-testid=character-new]")
    expect(page.locator("[data-testid=character-sheet]")).to_be_visible()
    check(page, "the new character's sheet", found)
    page.goto(f"/campaigns/{campaign.pk}/luck/")
    expect(page.locator("[data-testid=stats]")).to_be_visible()
    check(page, "the luck page", found)


def phone_pages(phone: Page, campaign: Campaign, hero: Character, found: dict[str, list[str]]) -> None:
    phone.goto(f"/p/{campaign.player_token}/")
    expect(phone.locator("#log-list .roll-card")).to_have_count(3)
    check(phone, "the campaign's phone page", found)
    phone.goto(f"/p/{hero.player_token}/")
    expect(phone.locator("[data-testid=player-composer] #roll-button")).to_be_visible()
    phone.click("[data-testid=player-composer] #roll-button")
    expect(phone.locator("[data-testid=rolled]")).to_be_visible()
    phone.click(".composer-extras > summary")
    check(phone, "the character's phone page", found)
    phone.goto(f"/p/{campaign.player_token}/luck/")
    expect(phone.locator("[data-testid=stats]")).to_be_visible()
    check(phone, "the players' luck page", found)
    phone.set_viewport_size({"width": 1920, "height": 1080})
    phone.goto(f"/p/{campaign.player_token}/tv/")
    expect(phone.locator("#log-list .roll-card")).to_have_count(4)
    check(phone, "the TV page", found)


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_login_page_passes_axe(browser, asgi_server, language):
    found: dict[str, list[str]] = {}
    with watched_page(browser, asgi_server, None, locale=LANGUAGES[language]) as page:
        page.goto("/accounts/login/")
        expect(page.locator("input[name=username]")).to_be_visible()
        check(page, "the login page", found)
        page.fill("input[name=username]", "nobody")
        page.fill("input[name=password]", "wrong")
        page.click("main button[type=submit]")
        expect(page.locator(".alert, .errorlist").first).to_be_visible()
        check(page, "the login page after a wrong password", found)
    assert not found, report(found)
