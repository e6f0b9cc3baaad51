"""Issue 24, physical dice after the roll, in a real browser, in English and in Spanish: a V5 roll
entered from real dice is rerolled with Willpower from its card with the new faces typed there, and
the rouse check asks for its die's face as the click leaves while "I rolled real dice" is ticked
(cancelled, nothing is rolled). No die is drawn by the server (``dice`` fails the test on any draw).
The server side is test_physical_follow_ups.py. Screenshots: ``/tmp/i24-physical/``.
"""

from __future__ import annotations

from tests.web.test_browser import (  # noqa: F401
    asgi_server,
    browser,
    campaign_of,
    cards,
    dice,
    expect,
    gm_user,
    make_character,
    pytestmark,
)
from tests.web.test_browser_hitches import lang, open_table, say, table  # noqa: F401
from tests.web.test_browser_physical import compose, shot, tick

from gmtools.models import Character, Roll  # noqa: E402
from tests.games import Game  # noqa: E402


def test_v5_reroll_and_rouse_with_real_dice(table, lang, gm_user, dice):
    campaign = campaign_of(gm_user, Game.V5)
    nadia = make_character(campaign, "Nadia", {"strength": 3, "brawl": 2}, v5_hunger=2)
    open_table(table, campaign)
    compose(table, nadia, "strength", "brawl")
    tick(table, lang)
    table.locator("[data-testid=physical-faces]").fill("1 6 2")
    table.locator("[data-testid=physical-hunger]").fill("7 8")
    table.click("#roll-button")
    expect(cards(table)).to_have_count(1)

    # The card's reroll asks for the new dice's faces: two dice picked, two faces typed.
    card = cards(table).first
    card.locator(".reroll-form [name=dice][value='0']").check()
    card.locator(".reroll-form [name=dice][value='2']").check()
    faces = card.locator("[data-testid=follow-up-faces]")
    expect(faces).to_be_visible()
    faces.fill("9 0")
    shot(table, f"v5-physical-reroll-form-{lang}")
    card.locator(".reroll-form button[type=submit]").click()
    line = cards(table).first.locator("[data-kind=reroll]")
    expect(line).to_be_visible()
    reroll = Roll.objects.get(kind="reroll")
    assert reroll.main["faces"] == [9, 6, 10] and reroll.result["physical"] is True
    shot(table, f"v5-physical-reroll-{lang}")

    # The rouse check: its face asked for as the click leaves; cancelled, nothing is rolled.
    rouse = table.locator("#characters button", has_text=say(lang, "Rouse", "Enardecer")).first
    asked: list[str] = []
    table.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    with table.expect_event("dialog"):
        rouse.click()
    table.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept("3")))
    with table.expect_event("dialog"):
        rouse.click()
    expect(cards(table)).to_have_count(2)
    assert say(lang, "The rouse die thrown at the table", "El dado del Control de Enardecimiento") in asked[0]
    check = Roll.objects.get(kind="rouse")
    assert check.main["faces"] == [3] and check.result["physical"] is True
    assert Character.objects.get(pk=nadia.pk).resources.hunger == 3  # a 3 fails: Hunger rises
    expect(cards(table).first.locator("[data-testid=physical-mark]")).to_be_visible()
    shot(table, f"v5-physical-rouse-{lang}")
