"""Issue 23, items 6 and 7 and the TV's polish, in a real browser (Fate), in English and in Spanish:
a consequence ("Broken nose") is invoked from the composer and from the card; the card's Invoke
has no default (refused beside the card, nothing spent, without an aspect); one roll and its
invocations are one card on the GM's table, the player's phone and the TV, each redrawn in place
by the live stream, its headline the last total; voiding an invocation brings the card's total back.

The GM's table as ``make run`` serves it (uvicorn, DEBUG on: test_browser's ``asgi_server``) at
1366×768, a phone at 390×844 and the TV at 1920×1080; every die is scripted. The server side is
test_issue23_fate.py. Screenshots: ``/tmp/i23-fate/`` (the table, the phone and the TV, each language).
"""

from __future__ import annotations

from pathlib import Path

import pytest

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
    shooter,
)
from tests.web.test_browser_hitches import assert_same_page, gm_table, lang, open_table, say, table  # noqa: F401
from tests.web.test_browser_players import Watch, open_live, phone_page

from gmtools import services  # noqa: E402
from gmtools.games.fate.models import Aspect, FateResources  # noqa: E402
from gmtools.models import Campaign, Roll  # noqa: E402
from tests.games import Game  # noqa: E402

SHOTS = Path("/tmp/i23-fate")
shot = shooter(SHOTS)
TV = {"width": 1920, "height": 1080}


@pytest.fixture
def second(browser, asgi_server, gm_user, lang):
    """The GM's other tab on the same table."""
    with gm_table(browser, asgi_server, gm_user, lang) as page:
        yield page


def tv_page(browser, base: str, locale: str) -> Watch:
    context = browser.new_context(base_url=base, locale=locale, viewport=TV, bypass_csp=True)  # see test_browser.page
    return Watch(context.new_page())


def points(character) -> int:
    return FateResources.objects.get(character=character).points


def test_consequences_invoked_and_one_card_per_roll_live_on_the_phone_and_the_tv(
        table, second, lang, gm_user, dice, browser, asgi_server):
    campaign = campaign_of(gm_user, Game.FATE)
    brann = make_character(campaign, "Brann", {"forceful": 2}, fate_points=3)
    Aspect.objects.create(character=brann, kind="high_concept", text="Warrior sworn to the caravan")
    guard = make_character(campaign, "Fortress guard", {"careful": 1}, kind="npc", fate_points=1)
    FateResources.objects.filter(character=guard).update(consequence_moderate="Broken nose")
    scene = services.start_scene(campaign, title="At the fortress gate")
    services.join_scene(scene, guard)
    portcullis = Aspect.objects.create(scene=scene, text="Portcullis half-open")
    token = Campaign.objects.get(pk=campaign.pk).player_token
    locale = {"en": "en-US", "es": "es-ES"}[lang]
    phone, tv = phone_page(browser, asgi_server, locale), tv_page(browser, asgi_server, locale)
    open_live(phone, f"/p/{token}/")
    open_live(tv, f"/p/{token}/tv/")
    open_table(second, campaign)  # the GM's other tab, which follows live
    expect(second.locator("[data-live-status]").first).to_have_attribute("data-live-status", "live")
    open_table(table, campaign)

    # Item 6, before the roll: the guard's consequence is among the aspects Brann may invoke.
    consequence = table.locator("#composer-invoke [data-testid=invoke-consequence]")
    expect(consequence).to_have_count(1)
    expect(consequence).to_have_text(say(lang, "Broken nose (Fortress guard, moderate consequence)",
                                         "Broken nose (Fortress guard, consecuencia moderada)"))
    consequence.locator("input").check()
    table.select_option("#composer [name=difficulty]", "6")
    dice.script(0, 0, 0, 0)  # Forceful 2 + 0 + 2 for the broken nose: +4 against +6, a fail
    table.click("#roll-button")
    expect(cards(table)).to_have_count(1)
    card = cards(table).first
    expect(card.locator("[data-testid=verdict]")).to_have_text(say(lang, "Fail", "Fallo"))
    expect(card.locator("[data-testid=invoked]")).to_contain_text("Broken nose")
    assert points(brann) == 2

    # Item 7: the card's Invoke names its aspect; without one it is refused beside the card, nothing spent.
    form = card.locator(".invoke-form")
    expect(form.locator("select")).to_have_value("")
    expect(form.locator("option", has_text=say(lang, "Fate point", "Punto de destino"))).to_have_count(0)
    form.locator("button[value=bonus]").click()
    expect(card.locator("[data-testid=refusal]")).to_have_text(say(
        lang, "Choose the aspect to invoke: an invocation names its aspect.",
        "Elige el aspecto que invocas: una invocación nombra su aspecto."))
    assert points(brann) == 2 and Roll.objects.count() == 1

    # Two invocations after the roll: the same card each time, in place, its total up to the last.
    pilot = Aspect.objects.get(text="Warrior sworn to the caravan")
    expect(cards(second)).to_have_count(1)  # the roll, heard by the other tab (and this one) before the pick
    form.locator("select").select_option(str(pilot.pk))
    form.locator("button[value=bonus]").click()
    expect(card.locator("[data-testid=follow-ups] .follow-up")).to_have_count(1)
    expect(card.locator("[data-testid=verdict]")).to_have_text(say(lang, "Tie", "Empate"))
    # The other tab has heard of it: so has this one's stream, whose copy of the card is in place before the next pick.
    expect(cards(second).first.locator("[data-testid=follow-ups] .follow-up")).to_have_count(1)
    # The broken nose is already invoked on this roll (with a fate point): no longer offered.
    expect(card.locator(".invoke-form option", has_text="Broken nose")).to_have_count(0)
    dice.script(1, 1, 1, 0)  # a reroll: Forceful 2 + 4 for the two invocations + 3 on the dice: +9, three shifts
    card.locator(".invoke-form select").select_option(str(portcullis.pk))
    card.locator(".invoke-form button[value=reroll]").click()
    expect(card.locator("[data-testid=follow-ups] .follow-up")).to_have_count(2)
    expect(cards(table)).to_have_count(1)
    expect(card.locator("[data-testid=count]")).to_contain_text("+9")
    expect(card.locator("[data-testid=verdict]")).to_have_text(say(lang, "Success with style", "Éxito crítico"))
    assert points(brann) == 0

    # The phone and the TV: one card, redrawn in place by the stream, with the same last total.
    for watch in (phone, tv):
        expect(cards(watch.page)).to_have_count(1)
        expect(cards(watch.page).first.locator("[data-testid=follow-ups] .follow-up")).to_have_count(2)
        expect(cards(watch.page).first.locator("[data-testid=count]")).to_contain_text("+9")
        assert watch.page.evaluate("window.__sameDocument") == "still here"
        assert not watch.problems, watch.problems
    # The GM's other tab: the same one card, redrawn in place by its stream.
    expect(cards(second)).to_have_count(1)
    expect(cards(second).first.locator("[data-testid=follow-ups] .follow-up")).to_have_count(2)
    expect(cards(second).first.locator("[data-testid=count]")).to_contain_text("+9")
    assert_same_page(second)
    shot(table, f"table-{lang}")
    shot(phone.page, f"phone-{lang}")
    tv.page.screenshot(path=str(SHOTS / f"tv-{lang}.png"))

    # Voiding the reroll: the card stays, struck line and all, its total back to the tie.
    table.on("dialog", lambda dialog: dialog.accept())
    card.locator("[data-testid=void-follow-up]").last.click()
    expect(card.locator(".follow-up-voided")).to_have_count(1)
    expect(card.locator("[data-testid=verdict]")).to_have_text(say(lang, "Tie", "Empate"))
    for watch in (phone, tv):
        expect(cards(watch.page)).to_have_count(1)
        expect(cards(watch.page).first.locator("[data-testid=verdict]")).to_have_text(say(lang, "Tie", "Empate"))
    assert points(brann) == 1
    # The TV reads across a room: its header and Fate's aspects at least as large as the log's text.
    sizes = tv.page.evaluate("""() => ({
        title: parseFloat(getComputedStyle(document.querySelector('.player-head h1')).fontSize),
        where: parseFloat(getComputedStyle(document.querySelector('#time-bar')).fontSize),
        aspect: parseFloat(getComputedStyle(document.querySelector('.scene-aspect')).fontSize),
        body: parseFloat(getComputedStyle(document.body).fontSize)})""")
    assert min(sizes["title"], sizes["where"], sizes["aspect"]) >= sizes["body"], sizes
