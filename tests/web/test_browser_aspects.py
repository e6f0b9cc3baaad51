"""Fate's aspects and the scene's notes in a real browser (issue 10, "Aspects and the scene").

The GM writes the scene's notes in the time bar, adds a situation aspect and a boost there,
creates an advantage with style (scripted Fate dice) and gets its aspect with two free
invocations, invokes it twice on one roll from the composer (then it is offered no more), and
invokes the boost from a card (then it is gone). The players' page follows. Same fixtures as
tests/web/test_browser.py (uvicorn with DEBUG on, as ``make run``; Chromium at 1366×768).
"""

from __future__ import annotations

import pytest

from tests.web.test_browser import (  # noqa: F401 - fixtures
    SCREENSHOTS,
    asgi_server,
    assert_not_reloaded,
    browser,
    campaign_of,
    cards,
    dice,
    expect,
    gm_user,
    make_character,
    open_table,
    page,
    pytestmark,
    roll,
    trait,
)

from gmtools import services  # noqa: E402
from gmtools.games.fate.models import Aspect
from gmtools.models import Campaign, Scene  # noqa: E402
from tests.games import Game  # noqa: E402
from tests.web.test_browser_time import caught_up  # noqa: E402

ZEROS = (0, 0, 0, 0)


def time_bar(page):
    return page.locator("#time-bar")


def chip(page, text: str):
    return time_bar(page).locator(f".scene-aspect[data-aspect='{text}']")


def add_scene_aspect(page, campaign: Campaign, text: str, free: int = 0, boost: bool = False) -> None:
    # Every change made so far applied first: an echo of the last one (the GM's own live stream)
    # redraws the time bar, and could do it between opening the panel and filling it in.
    caught_up(page, campaign)
    bar = time_bar(page)
    # Opened, not toggled: the GM's own live stream may redraw the time bar at any moment (it keeps what is open).
    bar.locator("details.add-scene-aspect").evaluate("details => { details.open = true; }")
    form = bar.locator("details.add-scene-aspect form")
    form.locator("[name=text]").fill(text)
    form.locator("[name=free_invocations]").select_option(str(free))
    if boost:
        form.locator("[name=boost]").check()
    form.get_by_role("button", name="Add").click()
    expect(chip(page, text)).to_be_visible()


def test_situation_aspects_advantages_boosts_and_notes_at_the_fate_table(page, browser, asgi_server, gm_user, dice):
    campaign = campaign_of(gm_user, Game.FATE)
    zara = make_character(campaign, "Zara", {"forceful": 2}, fate_points=3)
    ivo = make_character(campaign, "Ivo", {"clever": 1}, fate_points=2)
    Aspect.objects.create(character=zara, kind="high_concept", text="Free-spirited pilot")
    Aspect.objects.create(character=ivo, kind="high_concept", text="Knows every alley")
    scene = services.start_scene(campaign, title="The burning warehouse")
    open_table(page, campaign)
    page.select_option("#composer [name=character]", str(zara.pk))
    expect(page.locator(f"#composer [name=first] option[value='{trait(zara, 'forceful')}']")).to_be_attached()

    # The scene's notes, written in place in the time bar.
    notes = time_bar(page).locator("[data-testid=scene-notes]")
    notes.fill("The east wing is on fire. Marta hides in the loft.")
    old_bar = time_bar(page).element_handle()
    with page.expect_response(lambda r: "/scene/notes/" in r.url and r.status == 200):
        notes.press("Tab")
    # The answer redraws the time bar: wait for that swap, or it could close the panel opened below.
    page.wait_for_function("bar => !bar.isConnected", arg=old_bar)
    expect(time_bar(page).locator("[data-testid=scene-notes]")).to_have_value(
        "The east wing is on fire. Marta hides in the loft.")
    assert Scene.objects.get(pk=scene.pk).notes == "The east wing is on fire. Marta hides in the loft."

    # A situation aspect with a free invocation, and a boost; the composer offers both at once.
    add_scene_aspect(page, campaign, "Crates everywhere", free=1)
    expect(chip(page, "Crates everywhere")).to_contain_text("1 free")
    add_scene_aspect(page, campaign, "Dazzled guard", free=0, boost=True)
    expect(chip(page, "Dazzled guard")).to_contain_text("boost")
    invoke = page.locator("#composer-invoke")
    expect(invoke).to_contain_text("Crates everywhere (scene, 1 free)")
    expect(invoke).to_contain_text("Dazzled guard (boost)")
    expect(invoke).to_contain_text("Knows every alley (Ivo)")  # another character's aspect, in the scene
    assert_not_reloaded(page)

    # Create an advantage with style: +2 against Poor (−1) is three shifts. Its aspect goes on the scene.
    advantage = page.locator("#composer [name=advantage]")
    expect(advantage).to_be_hidden()  # only for Create an advantage
    page.select_option("#composer [name=action]", "create_advantage")
    expect(advantage).to_be_visible()
    advantage.fill("Smoke everywhere")
    page.select_option("#composer [name=difficulty]", "-1")
    dice.script(*ZEROS)
    card = roll(page, expected_cards=1)
    dice.assert_all_drawn()
    expect(card.locator("[data-testid=verdict]")).to_have_text("Success with style")
    expect(card.locator("[data-testid=advantage]")).to_have_text(
        "New aspect “Smoke everywhere” on the scene, 2 free invocations")
    expect(chip(page, "Smoke everywhere")).to_contain_text("2 free")
    # The aspect this roll made is not offered on the roll itself.
    expect(card.locator(".invoke-form select[name=aspect]")).not_to_contain_text("Smoke everywhere")
    smoke = Aspect.objects.get(text="Smoke everywhere")
    assert smoke.scene_id == scene.pk and smoke.free_invocations == 2
    expect(advantage).to_have_value("")  # the roll's own: back to empty

    # Invoke it twice on one roll, both free (success with style's exception), from the composer.
    page.select_option("#composer [name=action]", "overcome")
    page.select_option("#composer [name=difficulty]", "8")
    expect(invoke).to_contain_text("Smoke everywhere (scene, 2 free)")
    page.check(f"#composer [name=invoke][value='{smoke.pk}']")
    page.check(f"#composer [name=invoke_again][value='{smoke.pk}']")
    dice.script(*ZEROS)
    card = roll(page, expected_cards=2)
    dice.assert_all_drawn()
    expect(card).to_contain_text("total +6")
    expect(card.locator("[data-testid=invoked]")).to_have_text("Invoked “Smoke everywhere” (free, twice)")
    expect(page.locator(f"#character-{zara.pk} [data-resource=fate-points]")).to_have_text("3")  # free, both
    expect(chip(page, "Smoke everywhere")).not_to_contain_text("free")
    smoke.refresh_from_db()
    assert smoke.free_invocations == 0
    # A third time on this roll is not offered (it would need a fate point: refused by the server too).
    options = card.locator(".invoke-form select[name=aspect] option")
    expect(options).not_to_have_text(["Smoke everywhere"])
    expect(card.locator(".invoke-form select[name=aspect]")).not_to_contain_text("Smoke everywhere")
    expect(card.locator(".invoke-form select[name=aspect]")).to_contain_text("Crates everywhere (scene, 1 free)")
    # ...nor its second free invocation in the composer, now that it has none.
    expect(page.locator("#composer [name=invoke_again]")).to_have_count(0)

    # The boost, invoked from the card: +2, free, and gone from the scene.
    boost = Aspect.objects.get(text="Dazzled guard")
    form = card.locator(".invoke-form")
    form.locator("select[name=aspect]").select_option(str(boost.pk))
    page.screenshot(path=str(SCREENSHOTS / "issue10-aspects-fate-table.png"))
    form.get_by_role("button", name="Invoke +2").click()
    invoked = cards(page).first
    # A line on the roll's card (issue 23), which now shows its total.
    expect(invoked.locator("[data-testid=follow-ups]")).to_contain_text("free invocation of “Dazzled guard”")
    expect(cards(page)).to_have_count(2)
    expect(invoked.locator("[data-testid=count]")).to_contain_text("total +8")
    expect(chip(page, "Dazzled guard")).to_have_count(0)
    assert not Aspect.objects.filter(pk=boost.pk).exists()
    expect(page.locator("#composer-invoke")).not_to_contain_text("Dazzled guard")

    # The players see the scene's notes and aspects, read-only.
    token = Campaign.objects.get(pk=campaign.pk).player_token
    players = browser.new_context(base_url=asgi_server, locale="en-US", viewport={"width": 390, "height": 844})
    phone = players.new_page()
    phone.goto(f"/p/{token}/")
    expect(phone.locator("#time-bar [data-testid=scene-notes]")).to_have_text(
        "The east wing is on fire. Marta hides in the loft.")
    expect(phone.locator("#time-bar [data-testid=scene-aspects]")).to_contain_text("Crates everywhere")
    expect(phone.locator("#time-bar [data-testid=scene-aspects]")).to_contain_text("Smoke everywhere")
    expect(phone.locator("#time-bar button")).to_have_count(0)

    # The GM takes an aspect off the table; the phone follows live.
    chip(page, "Crates everywhere").locator("button.remove-aspect").click()
    expect(chip(page, "Crates everywhere")).to_have_count(0)
    expect(phone.locator("#time-bar [data-testid=scene-aspects]")).not_to_contain_text("Crates everywhere")
    # The notes change live on the phone too.
    notes = time_bar(page).locator("[data-testid=scene-notes]")
    notes.fill("The whole warehouse is on fire.")
    notes.press("Tab")
    expect(phone.locator("#time-bar [data-testid=scene-notes]")).to_have_text("The whole warehouse is on fire.")
    players.close()
    assert_not_reloaded(page)


def test_screenshot_of_the_fate_table_with_scene_aspects(page, gm_user, dice):
    """The Fate table at 1366×768 with scene notes, situation aspects and a boost (for a look)."""
    campaign = campaign_of(gm_user, Game.FATE)
    zara = make_character(campaign, "Zara", {"forceful": 2, "quick": 1}, fate_points=3)
    ivo = make_character(campaign, "Ivo", {"clever": 3}, fate_points=2)
    Aspect.objects.create(character=zara, kind="high_concept", text="Free-spirited pilot", free_invocations=1)
    Aspect.objects.create(character=zara, kind="trouble", text="Owes the mob")
    Aspect.objects.create(character=ivo, kind="high_concept", text="Knows every alley")
    scene = services.start_scene(campaign, title="The burning warehouse", combat=True)
    services.set_scene_notes(scene, "The east wing is on fire. Marta hides in the loft; the guards do not know.")
    services.change_scene(scene, "aspect-add", text="Crates everywhere", free_invocations=1, boost=False)
    services.change_scene(scene, "aspect-add", text="Thick smoke", free_invocations=2, boost=False)
    services.change_scene(scene, "aspect-add", text="Dazzled guard", free_invocations=0, boost=True)
    open_table(page, campaign)
    page.select_option("#composer [name=action]", "create_advantage")
    page.locator("#composer [name=advantage]").fill("Slippery floor")
    expect(page.locator("#composer-invoke")).to_contain_text("Thick smoke (scene, 2 free)")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "issue10-aspects-time-bar.png"))
