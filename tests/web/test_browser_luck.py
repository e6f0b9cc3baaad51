"""Luck in a real browser (issue 14): each game's roll cards with their luck line, on the GM's table
at 1366×768 and on a phone at 390×844, and the statistics page, under the settings ``make run``
gives (DEBUG on: the ``asgi_server`` fixture). Screenshots go to ``artifacts/screenshots/``
(``luck-<game>-table.png``, ``luck-<game>-phone.png``, ``stats-*.png``).
"""

from __future__ import annotations

import pytest

# The fixtures (browser, gm_user, asgi_server) are imported so that pytest finds them in this module.
from tests.web.test_browser import (  # noqa: F401
    asgi_server,
    browser,
    expect,
    gm_user,
    make_character,
)
from tests.web.test_browser_players import gm_page, phone_page, shot

from gmtools import services  # noqa: E402
from gmtools.models import Campaign  # noqa: E402
from tests.games import Game  # noqa: E402
from tests.web.helpers import compose_and_roll  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Per game: the character's traits, then rolls as (faces, composer fields): an ordinary one, one
# with the game's special result, and one that is voided.
TABLES = {
    Game.EXALTED: ({"dexterity": 3, "melee": 2}, {}, [
        ((7, 8, 10, 3, 4), {}), ((1, 2, 3, 4, 6), {"difficulty": 2}), ((2, 3, 4, 5, 7), {})]),
    Game.V5: ({"strength": 2, "brawl": 1}, {"v5_hunger": 1}, [
        ((6, 3, 4), {}), ((10, 3, 10), {"difficulty": 2}), ((2, 3, 1), {"difficulty": 2})]),
    Game.FATE: ({"forceful": 2}, {}, [
        ((0, 1, -1, 0), {}), ((1, 1, 1, 0), {"difficulty": 1}), ((-1, -1, -1, 0), {})]),
    Game.SCIFI: ({"agility": 3, "firearms": 2}, {}, [
        ((7, 3, 2, 5, 4), {}), ((1, 3, 2, 7, 4), {"difficulty": "hard"}), ((10, 3, 2, 7, 4, 8), {})]),
}


@pytest.mark.parametrize("game", list(TABLES))
def test_each_games_cards_show_their_luck_on_the_table_and_the_phone(browser, asgi_server, gm_user, game):
    ratings, resources, rolls = TABLES[game]
    campaign = Campaign.objects.create(name=f"Luck at the {game} table", game=game, gm=gm_user)
    hero = make_character(campaign, "Ana Lucía", ratings, **resources)
    made = [compose_and_roll(campaign, hero, faces, **fields) for faces, fields in rolls]
    services.void_roll(made[-1], gm_user)

    gm = gm_page(browser, asgi_server, gm_user)
    gm.page.goto(f"/campaigns/{campaign.pk}/")
    for roll in made:
        line = gm.page.locator(f"#roll-{roll.pk} [data-testid=luck]")
        expect(line).to_be_visible()
        expect(line).to_contain_text("no roll like it does worse" if roll.luck["below"] == 0 else "better than")
        # One line under the verdict, within its card, on the GM's laptop.
        assert line.bounding_box()["height"] < 40
    expect(gm.page.locator(f"#roll-{made[1].pk} .luck-special")).to_contain_text("before the roll")
    # The voided card keeps its luck, struck through like the rest of the card.
    struck = gm.page.locator(f"#roll-{made[-1].pk} [data-testid=luck]").evaluate(
        "e => getComputedStyle(e).textDecorationLine")
    assert "line-through" in struck
    shot(gm.page, f"luck-{game}-table")
    gm.check()

    phone = phone_page(browser, asgi_server)
    phone.page.goto(f"/p/{campaign.player_token}/")
    for roll in made:
        line = phone.page.locator(f"#roll-{roll.pk} [data-testid=luck]")
        expect(line).to_be_visible()
        box, card = line.bounding_box(), phone.page.locator(f"#roll-{roll.pk}").bounding_box()
        assert box["x"] >= card["x"] and box["x"] + box["width"] <= card["x"] + card["width"] + 0.5  # no overflow
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    shot(phone.page, f"luck-{game}-phone")
    phone.check()


def test_the_statistics_page_draws_its_charts_for_the_gm_and_the_phone(browser, asgi_server, gm_user):
    """Under ``make run``'s settings (DEBUG on) the page is not blank: its numbers and SVG charts are there."""
    campaign = Campaign.objects.create(name="Nights of <b>dice</b>", game=Game.V5, gm=gm_user)
    hero = make_character(campaign, "Bhavna", {"strength": 2, "brawl": 1, "composure": 2, "resolve": 2}, v5_hunger=1)
    for faces in [(10, 3, 10), (2, 3, 1), (6, 7, 4), (1, 5, 9), (10, 10, 2), (3, 3, 3)] * 5:
        compose_and_roll(campaign, hero, faces, difficulty=2)

    gm = gm_page(browser, asgi_server, gm_user)
    gm.page.goto(f"/campaigns/{campaign.pk}/")
    gm.page.click("[data-testid=luck-link]")
    expect(gm.page.locator("[data-testid=rolls]")).to_have_text("30")
    expect(gm.page.locator("h1")).to_have_text("Luck and fair dice")
    expect(gm.page.locator("[data-testid=histogram] rect")).to_have_count(10)
    expect(gm.page.locator("[data-testid=stats-specials] [data-special]")).to_have_count(3)
    expect(gm.page.locator("[data-die=d10] svg rect")).to_have_count(10)
    expect(gm.page.locator("[data-testid=fair-sentence]")).to_contain_text("d10s:")
    assert gm.page.locator("[data-testid=stats-luck]").bounding_box()["height"] > 100  # drawn, not blank
    # The filters answer in place (htmx), and the address keeps them.
    gm.page.select_option("select[name=character]", str(hero.pk))
    expect(gm.page).to_have_url(f"{asgi_server}/campaigns/{campaign.pk}/luck/?story=&episode=&scene=&character={hero.pk}")
    expect(gm.page.locator("[data-testid=rolls]")).to_have_text("30")
    shot(gm.page, "stats-gm")
    gm.check()

    phone = phone_page(browser, asgi_server)
    phone.page.goto(f"/p/{campaign.player_token}/")
    phone.page.click("[data-testid=luck-link]")
    expect(phone.page.locator("[data-testid=rolls]")).to_have_text("30")
    expect(phone.page.locator("[data-testid=histogram] rect")).to_have_count(10)
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone.page, "stats-phone")
    phone.check()
