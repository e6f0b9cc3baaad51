"""Issue 23, items 9 and 12, in a real browser: the sheet editor adds rows in place in each game
(a category's traits, Fate's aspects), any number, saved in one save, and asks before Esc, ✕,
Cancel or a reload throws unsaved edits away (never when nothing changed, never after a save);
an edit made elsewhere (the GM's editor in another page, the admin) reaches every list of an open
table without a reload: the composer's trait selects (the GM's choices kept by id, with their new
ratings), Teamwork, the new extended action's characters, the cards.

The GM's table as ``make run`` serves it (uvicorn, DEBUG on: test_browser's ``asgi_server``) at
1366×768, in English and Spanish. The server side is test_issue23_sheets.py.
Screenshots: ``/tmp/i23-sheets/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.web.test_browser import (  # noqa: F401
    asgi_server,
    browser,
    campaign_of,
    expect,
    gm_user,
    make_character,
    pytestmark,
    shooter,
)
from tests.web.test_browser_hitches import assert_same_page, gm_table, lang, open_extras, open_table, say, table  # noqa: F401

from django.contrib.auth.models import User  # noqa: E402
from django.test import Client  # noqa: E402

from gmtools.games.fate.models import Aspect  # noqa: E402
from gmtools.models import Character, Trait  # noqa: E402
from tests.games import Game  # noqa: E402
from tests.web.test_issue23_sheets import admin_edit  # noqa: E402

SHOTS = Path("/tmp/i23-sheets")
shot = shooter(SHOTS)

# The category each game's GM adds traits to by hand.
ADDED = {Game.V5: "discipline", Game.EXALTED: "background", Game.FATE: "stunt", Game.SCIFI: "advantage"}


def open_editor(page, character: Character):
    page.locator(f"#character-{character.pk} [data-testid=character-edit]").click()
    panel = page.locator("#character-panel")
    expect(panel.locator("[data-testid=character-sheet]")).to_be_visible()
    return panel


# --- item 9: rows added in place ----------------------------------------------------------------

@pytest.mark.parametrize("game", list(ADDED))
def test_rows_are_added_in_place_and_saved_in_one_save(browser, asgi_server, gm_user, game):
    with gm_table(browser, asgi_server, gm_user, "en") as page:
        campaign = campaign_of(gm_user, game)
        ana = make_character(campaign, "Ana")
        open_table(page, campaign)
        panel = open_editor(page, ana)
        group = panel.locator(f"fieldset[data-category={ADDED[game]}]")
        rows = group.locator("[data-row-list] > .trait-row")
        expect(rows).to_have_count(1)  # the blank row it always had
        for count in (2, 3):
            group.locator("[data-testid=add-row]").click()
            expect(rows).to_have_count(count)
            expect(rows.nth(count - 1).locator("input[name$='-name']")).to_be_focused()
        names = ["Alpha", "Beta", "Gamma"]
        for i, name in enumerate(names):
            rows.nth(i).locator("input[name$='-name']").fill(name)
            rows.nth(i).locator("input[name$='-rating']").fill("1")
        if game == Game.FATE:
            aspects = panel.locator("fieldset[data-rows=aspects] [data-row-list] > .aspect-row")
            for count in (2, 3):
                panel.locator("fieldset[data-rows=aspects] [data-testid=add-row]").click()
                expect(aspects).to_have_count(count)
            for i, (kind, text) in enumerate([("high_concept", "Arcane scholar"), ("trouble", "Owes the guild"),
                                              ("other", "Sees ghosts")]):
                aspects.nth(i).locator("select[name$='-kind']").select_option(kind)
                aspects.nth(i).locator("input[name$='-text']").fill(text)
        shot(page, f"added-rows-{game}")
        panel.locator("[data-testid=character-save]").click()
        expect(panel).to_be_hidden()
        assert sorted(Trait.objects.filter(character=ana, category=ADDED[game]).values_list("name", flat=True)) == names
        if game == Game.FATE:
            assert list(Aspect.objects.filter(character=ana).order_by("id").values_list("text", flat=True)) == [
                "Arcane scholar", "Owes the guild", "Sees ghosts"]
        # Opened again: the three rows and a blank one, and Add still counts from there.
        panel = open_editor(page, ana)
        expect(rows).to_have_count(4)
        group.locator("[data-testid=add-row]").click()
        rows.nth(4).locator("input[name$='-name']").fill("Delta")
        panel.locator("[data-testid=character-save]").click()
        expect(panel).to_be_hidden()
        assert Trait.objects.filter(character=ana, category=ADDED[game]).count() == 4
        assert_same_page(page)


# --- item 9: unsaved edits are asked about ----------------------------------------------------------

def test_unsaved_edits_are_asked_about_before_they_are_thrown_away(table, lang, gm_user):
    page = table
    campaign = campaign_of(gm_user, Game.V5)
    ana = make_character(campaign, "Ana", {"strength": 2})
    open_table(page, campaign)
    asked: list[tuple[str, str]] = []
    answer = {"accept": False}

    def on_dialog(dialog) -> None:
        asked.append((dialog.type, dialog.message))
        dialog.accept() if answer["accept"] else dialog.dismiss()

    page.on("dialog", on_dialog)
    question = say(lang, "Close without saving? Your changes to this sheet will be lost.",
                   "¿Cerrar sin guardar? Se perderán los cambios de esta ficha.")
    strength = "[data-trait=strength] input[name$='-rating']"

    # Nothing changed (a row added and left blank is nothing to lose): Esc closes without a question.
    panel = open_editor(page, ana)
    panel.locator("fieldset[data-category=discipline] [data-testid=add-row]").click()
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    assert asked == []

    # Edited: Esc, ✕ and Cancel ask, and "no" keeps the sheet as typed.
    panel = open_editor(page, ana)
    panel.locator(strength).fill("4")
    page.keyboard.press("Escape")
    expect(panel).to_be_visible()
    assert asked == [("confirm", question)]
    shot(page, f"unsaved-{lang}")
    panel.locator(".btn-close[data-close-panel]").click()
    panel.locator(".panel-foot [data-close-panel]").click()
    assert [kind for kind, _ in asked] == ["confirm"] * 3
    expect(panel.locator(strength)).to_have_value("4")
    # A reload asks too (the browser's own question), and staying keeps the page and the sheet.
    with page.expect_event("dialog", predicate=lambda d: d.type == "beforeunload"):
        page.evaluate("setTimeout(() => location.reload())")
    expect(panel.locator(strength)).to_have_value("4")
    assert_same_page(page)

    # Saved: nothing to ask, on closing or on a reload.
    asked.clear()
    panel.locator("[data-testid=character-save]").click()
    expect(panel).to_be_hidden()
    assert Trait.objects.get(character=ana, key="strength").rating == 4
    page.reload()
    expect(page.locator("#composer")).to_be_visible()
    assert asked == []

    # "Yes" throws the edit away.
    answer["accept"] = True
    panel = open_editor(page, ana)
    panel.locator(strength).fill("5")
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    assert asked == [("confirm", question)]
    # A refused save is unsaved too, though its fields show what was typed.
    asked.clear()
    panel = open_editor(page, ana)
    panel.locator(strength).fill("9")
    panel.locator("[data-testid=character-save]").click()
    expect(panel.locator("[data-testid=sheet-errors]")).to_be_visible()
    panel.locator(".panel-foot [data-close-panel]").click()
    expect(panel).to_be_hidden()
    assert asked == [("confirm", question)]
    assert Trait.objects.get(character=ana, key="strength").rating == 4


# --- item 12: an edit elsewhere reaches every open table's lists ------------------------------------

def test_an_edit_elsewhere_reaches_the_composer_teamwork_and_extended_lists(table, lang, gm_user, browser, asgi_server):
    page = table
    campaign = campaign_of(gm_user, Game.EXALTED)
    koi = make_character(campaign, "Koi", {"strength": 4, "dexterity": 3, "dodge": 3, "melee": 4})
    smith = make_character(campaign, "Smith", {"strength": 2})
    dexterity, dodge = (str(Trait.objects.get(character=koi, key=k).pk) for k in ("dexterity", "dodge"))
    open_table(page, campaign)
    composer = page.locator("#composer")
    expect(composer.locator("[name=character]")).to_have_value(str(koi.pk))
    # The GM's own choices: not the best pool the composer starts from.
    composer.locator("[name=first]").select_option(dexterity)
    composer.locator("[name=second]").select_option(dodge)
    composer.locator("[name=modifier]").fill("2")
    open_extras(page)
    composer.locator(f"[name=team][value='{smith.pk}']").check()
    page.locator("#extended-list details summary").click()
    extended_character = page.locator("#extended-list form [name=character]")
    expect(extended_character).to_be_visible()

    # Another page (the GM's editor in a second tab): Koi's Dexterity 3 → 5, and a new NPC.
    with gm_table(browser, asgi_server, gm_user, lang) as other:
        open_table(other, campaign)
        panel = open_editor(other, koi)
        panel.locator("[data-trait=dexterity] input[name$='-rating']").fill("5")
        panel.locator("[data-testid=character-save]").click()
        expect(panel).to_be_hidden()
        other.locator("[data-testid=npc-quick]").click()
        other.locator("#character-panel [data-testid=quick-form] [name=name]").fill("Garrison commander")
        other.locator("#character-panel [data-testid=quick-create]").click()
        expect(other.locator("#character-panel")).to_be_hidden()
    commander = Character.objects.get(name="Garrison commander")

    # The first table follows without a reload, every choice of the GM's kept.
    expect(composer.locator("[name=first]")).to_have_value(dexterity)
    expect(composer.locator("[name=first] option:checked")).to_contain_text("5")
    expect(composer.locator("[name=second]")).to_have_value(dodge)
    expect(composer.locator("[name=modifier]")).to_have_value("2")
    expect(composer.locator(f"[name=team][value='{commander.pk}']")).to_have_count(1)
    expect(composer.locator(f"[name=team][value='{smith.pk}']")).to_be_checked()
    expect(composer.locator("details.composer-extras")).to_have_attribute("open", "")
    expect(extended_character.locator(f"option[value='{commander.pk}']")).to_have_count(1)
    expect(page.locator("#extended-list details")).to_have_attribute("open", "")
    expect(page.locator(f"#character-{commander.pk}")).to_be_visible()
    expect(page.locator("#odds [data-testid=odds]")).to_be_visible()

    # The admin, too: Dodge 3 → 4 reaches the composer's second select, still the GM's.
    staff = User.objects.create_superuser("boss", password="admin-secret-1")
    client = Client()
    client.force_login(staff)
    admin_edit(client, koi, {"dodge": 4})
    expect(composer.locator("[name=second] option:checked")).to_contain_text("4")
    expect(composer.locator("[name=second]")).to_have_value(dodge)
    expect(composer.locator("[name=first]")).to_have_value(dexterity)
    # The odds are the composer's: a roll of Dexterity 5 + Dodge 4 with the modifier kept.
    shot(page, f"after-edit-elsewhere-{lang}")
    assert_same_page(page)


def test_a_choice_made_while_an_edit_elsewhere_is_on_its_way_stays(table, gm_user):
    """An edit elsewhere redraws the composer for its character, the GM's choices put back: those the GM
    had once the redraw is here, not when it was asked. A trait picked meanwhile was undone (a full run
    on a loaded machine: the GM's click on a trait chip came back to the best pool)."""
    page = table
    campaign = campaign_of(gm_user, Game.EXALTED)
    koi = make_character(campaign, "Koi", {"strength": 4, "dexterity": 3, "dodge": 3, "melee": 4})
    strength, dexterity = (str(Trait.objects.get(character=koi, key=k).pk) for k in ("strength", "dexterity"))
    open_table(page, campaign)
    first = page.locator("#composer [name=first]")
    expect(first).to_have_value(strength)  # the best pool
    held = []
    page.route(f"**/campaigns/{campaign.pk}/composer/?*", lambda route: held.append(route))
    staff = User.objects.create_superuser("boss", password="admin-secret-1")
    client = Client()
    client.force_login(staff)
    with page.expect_request(lambda request: f"/campaigns/{campaign.pk}/composer/?" in request.url):
        admin_edit(client, koi, {"dexterity": 5})
    first.select_option(dexterity)  # while the redraw is on its way
    expect(page.locator("#odds [data-testid=odds]")).to_be_visible()
    held[0].continue_()
    page.unroute(f"**/campaigns/{campaign.pk}/composer/?*")
    expect(first.locator("option:checked")).to_contain_text("5")  # the redraw is in
    expect(first).to_have_value(dexterity)
    assert_same_page(page)
