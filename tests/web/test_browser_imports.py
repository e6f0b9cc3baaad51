"""Characters from other tools, in a real browser (English): the GM uploads a Foundry VTT World of
Darkness 5e actor in the import panel, reads its preview (its traits, its resources, and the line
of what is not imported), confirms, and the character is on the table; nothing reloads the page.
A file of another game is refused in the panel, and nothing is added.

Screenshot of the preview: ``artifacts/screenshots/issue25-import-preview.png`` (1366×768).
"""

from __future__ import annotations

from pathlib import Path

# The fixtures (browser, asgi_server, gm_user, page) are imported so that pytest finds them in this module;
# pytestmark brings the same marks: browser, skipped without Chromium (outside CI), transactional db.
from tests.web.test_browser import SCREENSHOTS, asgi_server, browser, expect, gm_user, page, pytestmark, sync_api  # noqa: F401
from gmtools.models import Campaign
from tests.games import Game

WOD5E = (Path(__file__).parent / "fixtures" / "imports"
         / "foundry-wod5e-vampire_built-from-WoD5E-Developers-wod5e-data-models.json")


def open_import(page: sync_api.Page) -> sync_api.Locator:
    # htmx wires the buttons once the page has loaded: a click before then does nothing.
    page.wait_for_load_state("load")
    page.click("[data-testid=character-import]")
    panel = page.locator("#character-panel")
    expect(panel.locator("[data-testid=import-form]")).to_be_visible()
    return panel


def test_a_gm_previews_then_confirms_a_foundry_vampire(page: sync_api.Page, gm_user):
    campaign = Campaign.objects.create(name="Night harbour", game=Game.V5, gm=gm_user)
    page.goto(f"/campaigns/{campaign.pk}/")
    page.evaluate("window.__sameDocument = 'still here'")
    panel = open_import(page)
    panel.locator("[data-testid=import-form] input[type=file]").set_input_files(str(WOD5E))
    panel.locator("[data-testid=import-form] button[type=submit]").click()

    preview = panel.locator("[data-testid=import-preview]")
    expect(preview).to_be_visible()
    expect(preview.locator("[data-testid=import-preview-character] h3")).to_contain_text("Dana Kowalczyk")
    expect(preview).to_contain_text("Brawl 3 (Grappling)")
    expect(preview.locator("[data-testid=import-preview-resources]")).to_contain_text("Hunger 2")
    expect(preview.locator("[data-testid=import-left-out]")).to_have_text(
        "Not imported: 3 discipline powers: Cat's Grace, Fleetness, Lethal Body; 1 item (weapon, gear, …): Tire iron; "
        "1 Humanity stain; 3 experience points")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "issue25-import-preview.png"))
    assert not campaign.characters.exists()  # the preview saved nothing

    preview.locator("[data-testid=import-confirm]").click()
    card = page.locator("#character-list .character-card[data-character='Dana Kowalczyk']")
    expect(card).to_be_visible()
    expect(panel).to_be_hidden()
    expect(page.locator("#composer [name=character] option", has_text="Dana Kowalczyk")).to_have_count(1)
    assert page.evaluate("window.__sameDocument") == "still here"
    dana = campaign.characters.get()
    assert dana.traits.get(key="strength").rating == 3 and dana.resources.hunger == 2


def test_a_file_of_another_game_is_refused_in_the_panel(page: sync_api.Page, gm_user):
    campaign = Campaign.objects.create(name="The Realm", game=Game.EXALTED, gm=gm_user)
    page.goto(f"/campaigns/{campaign.pk}/")
    panel = open_import(page)
    panel.locator("[data-testid=import-form] input[type=file]").set_input_files(str(WOD5E))
    panel.locator("[data-testid=import-form] button[type=submit]").click()
    expect(panel.locator("[data-testid=import-form]")).to_contain_text(
        "This file holds a character of another game (Vampire: The Masquerade 5e); this campaign plays Exalted 2e.")
    expect(panel.locator("[data-testid=import-preview]")).to_have_count(0)
    assert not campaign.characters.exists()
