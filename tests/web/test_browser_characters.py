"""Characters and NPCs from the table, in a real browser (English): from an empty new campaign the GM
creates a PC, a quick NPC and a template NPC in the panel beside the table, edits one and sees its
card and the composer redrawn, is refused inline, and deletes one; nothing reloads the page.

Screenshots of the panel go to ``artifacts/screenshots/issue10-characters-*.png`` (1366×768).
"""

from __future__ import annotations

import pytest

# The fixtures (browser, asgi_server, gm_user, page) are imported so that pytest finds them in this module;
# pytestmark brings the same marks: browser, skipped without Chromium (outside CI), transactional db.
from tests.web.test_browser import (  # noqa: F401
    SCREENSHOTS,
    asgi_server,
    browser,
    expect,
    gm_user,
    page,
    pytestmark,
    sync_api,
)
from gmtools.models import Campaign, Character, Roll
from tests.games import Game


def shot(page: sync_api.Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"issue10-characters-{name}.png"))


def card(page: sync_api.Page, name: str) -> sync_api.Locator:
    return page.locator(f"#character-list .character-card[data-character='{name}']")


def panel(page: sync_api.Page) -> sync_api.Locator:
    return page.locator("#character-panel")


def open_panel(page: sync_api.Page, button: str) -> None:
    # htmx wires the buttons once the page has loaded: a click before then (a page just opened) does nothing.
    page.wait_for_load_state("load")
    page.click(f"[data-testid={button}]")
    expect(panel(page)).to_be_visible()


def test_a_gm_builds_the_cast_of_an_empty_campaign_from_the_table(page: sync_api.Page, gm_user):
    campaign = Campaign.objects.create(name="Night harbour", game=Game.V5, gm=gm_user)
    page.goto(f"/campaigns/{campaign.pk}/")
    expect(page.locator("[data-testid=no-characters]")).to_be_visible()
    page.evaluate("window.__sameDocument = 'still here'")

    # A PC, from the whole sheet.
    open_panel(page, "character-new")
    expect(panel(page).locator("[data-trait=strength]")).to_be_visible()
    shot(page, "new-sheet")
    panel(page).locator("[name=sheet-name]").fill("Ana")
    panel(page).locator("[name=sheet-player]").fill("Lucía")
    panel(page).locator("[data-trait=strength] input[name$='-rating']").fill("3")
    panel(page).locator("[data-trait=brawl] input[name$='-rating']").fill("2")
    panel(page).locator("[data-testid=character-save]").click()
    expect(panel(page)).to_be_hidden()
    expect(card(page, "Ana")).to_be_visible()
    expect(page.locator("[data-testid=no-characters]")).to_have_count(0)
    expect(page.locator("#composer [name=character] option", has_text="Ana")).to_have_count(1)
    # The first character of an empty campaign is the composer's at once (not "Unnamed NPC"), with its pool.
    expect(page.locator("#composer [name=character] option:checked")).to_have_text("Ana")
    expect(page.locator("#composer [name=first] option:checked")).to_have_text("Strength 3")

    # A quick NPC: a name and a pool.
    open_panel(page, "npc-quick")
    shot(page, "quick-npc")
    panel(page).locator("[data-testid=quick-form] [name=name]").fill("Harbour guard")
    panel(page).locator("[data-testid=quick-form] [name=pool]").fill("6")
    panel(page).locator("[data-testid=quick-create]").click()
    expect(card(page, "Harbour guard")).to_be_visible()
    expect(panel(page)).to_be_hidden()

    # An NPC from the game's templates.
    open_panel(page, "npc-quick")
    panel(page).locator("[data-testid=template-form] [name=template]").select_option("ghoul")
    panel(page).locator("[data-testid=template-form] [name=name]").fill("Renfield")
    panel(page).locator("[data-testid=template-create]").click()
    expect(card(page, "Renfield")).to_be_visible()
    assert list(Character.objects.filter(campaign=campaign).order_by("name").values_list("name", "kind")) == [
        ("Ana", "pc"), ("Harbour guard", "npc"), ("Renfield", "npc")]

    # The quick NPC rolls its pool: picked in the composer, its two pool traits come with it.
    page.select_option("#composer [name=character]", label="Harbour guard")
    expect(page.locator("#composer [name=first] option:checked")).to_have_text("Pool 3")
    expect(page.locator("#composer [name=second] option:checked")).to_have_text("Pool (skill) 3")

    # Edit Ana while the composer shows her: her card and the composer are redrawn.
    page.select_option("#composer [name=character]", label="Ana")
    expect(page.locator("#composer [name=first] option:checked")).to_have_text("Strength 3")
    card(page, "Ana").locator("[data-testid=character-edit]").click()
    expect(panel(page).locator("[name=sheet-name]")).to_have_value("Ana")
    shot(page, "edit-sheet")
    # A refusal first: too much Hunger, said beside the field, nothing saved, the panel stays.
    panel(page).locator("[name=sheet-v5_hunger]").fill("9")
    panel(page).locator("[data-testid=character-save]").click()
    expect(panel(page).locator(".invalid-feedback", has_text="less than or equal to 5")).to_be_visible()
    expect(panel(page)).to_be_visible()
    expect(panel(page).locator("[name=sheet-v5_hunger]")).to_be_focused()
    shot(page, "refused")
    panel(page).locator("[name=sheet-v5_hunger]").fill("3")
    panel(page).locator("[name=sheet-name]").fill("Ana the Bold")
    panel(page).locator("[data-trait=strength] input[name$='-rating']").fill("4")
    panel(page).locator("[data-testid=character-save]").click()
    expect(panel(page)).to_be_hidden()
    expect(card(page, "Ana the Bold")).to_be_visible()
    expect(card(page, "Ana the Bold").locator("[data-resource=hunger]")).to_have_text("3")
    expect(page.locator("#composer [name=character] option:checked")).to_have_text("Ana the Bold")
    expect(page.locator("#composer [name=first] option:checked")).to_have_text("Strength 4")
    expect(page.locator("#odds [data-testid=odds]")).to_be_visible()

    # Esc closes the panel without saving.
    card(page, "Renfield").locator("[data-testid=character-edit]").click()
    expect(panel(page)).to_be_visible()
    page.keyboard.press("Escape")
    expect(panel(page)).to_be_hidden()

    # Delete the quick NPC, after saying yes; the log keeps its roll.
    guard = Character.objects.get(campaign=campaign, name="Harbour guard")
    Roll.objects.create(campaign=campaign, character=guard, actor=guard.name, system=Game.V5, label="Spot", request={},
                        result={}, outcome="success")
    card(page, "Harbour guard").locator("[data-testid=character-edit]").click()
    page.once("dialog", lambda dialog: dialog.accept())
    panel(page).locator("[data-testid=character-delete]").click()
    expect(card(page, "Harbour guard")).to_have_count(0)
    expect(panel(page)).to_be_hidden()
    expect(page.locator("#composer [name=character] option", has_text="Harbour guard")).to_have_count(0)
    assert Roll.objects.get(label="Spot").actor == "Harbour guard"
    assert page.evaluate("window.__sameDocument") == "still here", "the page was reloaded"
