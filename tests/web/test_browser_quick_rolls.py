"""Faster rolls (issue 10) in a real browser, in English: a trait clicked on a character's card, a
saved roll, the keys. Every die is scripted (test_browser's ``dice``); the server is uvicorn with
DEBUG on, as ``make run`` serves it.

The clicks of a common roll are counted here as the GM makes them (``Clicks``): a click on a button,
a chip or a card is one, a choice picked in a select two (open it, pick), as issue 10 counts them.
A common roll: a character, two traits, a difficulty, Roll. Before: the character's select (2), the
Attribute (2), the Ability (2), the difficulty (2), Roll (1): 9 (7 for the character already in the
composer). Now: the card's trait list (1, the first time only: it stays open), the Attribute chip
(1), the Ability chip (1), the difficulty (2), Roll (1): 6, then 5 (3 when the difficulty stays);
from a saved roll (traits, difficulty and options saved): the saved roll (1) and Roll (1), 2.

The screenshot of a table with traits and saved rolls on the cards:
``artifacts/screenshots/issue10-quick-<game>.png``.
"""

from __future__ import annotations

import pytest

# The fixtures (browser, asgi_server, gm_user, dice, page) are imported so that pytest finds them here;
# pytestmark brings the same marks: browser, skipped without Chromium (outside CI), transactional db.
from tests.web.test_browser import (  # noqa: F401
    SCREENSHOTS,
    asgi_server,
    assert_not_reloaded,
    browser,
    campaign_of,
    cards,
    dice,
    expect,
    faces,
    gm_user,
    make_character,
    open_table,
    page,
    pytestmark,
    success_chance,
    sync_api,
    trait,
)

from gmtools import services  # noqa: E402
from gmtools.models import CharacterKind, SavedRoll  # noqa: E402
from tests.games import Game  # noqa: E402
from gmtools.formatting import percent  # noqa: E402
from rules import exalted, v5  # noqa: E402

Page = sync_api.Page


class Clicks:
    """The GM's clicks, counted as made: ``click`` one element, ``pick`` one choice in a select."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.count = 0

    def click(self, selector: str | sync_api.Locator) -> None:
        (self.page.locator(selector) if isinstance(selector, str) else selector).click()
        self.count += 1

    def pick(self, selector: str, value: str) -> None:
        self.page.select_option(selector, value)
        self.count += 2  # open the list, pick the choice


def card_of(page: Page, character) -> sync_api.Locator:
    return page.locator(f"#character-{character.pk}")


def chip(page: Page, character, key: str) -> sync_api.Locator:
    return card_of(page, character).locator(f"[data-quick][data-trait='{trait(character, key)}']")


def test_a_trait_then_a_skill_on_a_card_compose_and_roll(page, gm_user, dice):
    campaign = campaign_of(gm_user, Game.V5)
    make_character(campaign, "Aaron", {"strength": 3, "brawl": 2})  # the table opens on him
    koi = make_character(campaign, "Koi", {"dexterity": 3, "stealth": 2, "strength": 4, "brawl": 4}, v5_hunger=2)
    open_table(page, campaign)

    # Before: the same roll from the composer's selects.
    clicks = Clicks(page)
    clicks.pick("#composer [name=character]", str(koi.pk))
    expect(page.locator(f"#composer [name=first] option[value='{trait(koi, 'dexterity')}']")).to_be_attached()
    clicks.pick("#composer [name=first]", trait(koi, "dexterity"))
    clicks.pick("#composer [name=second]", trait(koi, "stealth"))
    clicks.pick("#composer [name=difficulty]", "3")
    expect(success_chance(page)).to_have_text(percent(v5.odds(v5.Request(pool=5, hunger=2, difficulty=3)).p_win))
    dice.script(2, 3, 4, 5, 6)
    clicks.click("#roll-button")
    expect(cards(page)).to_have_count(1)
    dice.assert_all_drawn()
    assert clicks.count == 9, clicks.count
    page.select_option("#composer [name=character]", "")  # an unnamed NPC: Koi is a new character again
    expect(page.locator("#composer [name=first] option")).to_have_count(1)

    # Now: from Koi's card.
    clicks = Clicks(page)
    # The card's trait list is folded: one click opens it (and does not pick the character yet).
    traits = card_of(page, koi).locator("details.card-traits")
    expect(traits.locator("[data-quick]").first).to_be_hidden()
    clicks.click(traits.locator("summary"))
    expect(chip(page, koi, "dexterity")).to_be_visible()
    expect(chip(page, koi, "dexterity")).to_have_text("Dexterity 3")

    # An Attribute: Koi and Dexterity in the composer (with Koi's best Skill, Brawl 4), odds at once.
    clicks.click(chip(page, koi, "dexterity"))
    expect(page.locator("#composer [name=character]")).to_have_value(str(koi.pk))
    expect(page.locator("#composer [name=first]")).to_have_value(trait(koi, "dexterity"))
    expect(success_chance(page)).to_have_text(percent(v5.odds(v5.Request(pool=7, hunger=2)).p_win))
    # Then a Skill: the second trait, in place; the odds follow.
    clicks.pick("#composer [name=difficulty]", "3")
    clicks.click(chip(page, koi, "stealth"))
    expect(page.locator("#composer [name=second]")).to_have_value(trait(koi, "stealth"))
    expect(page.locator("#composer [name=difficulty]")).to_have_value("3")  # kept: same character
    expect(success_chance(page)).to_have_text(percent(v5.odds(v5.Request(pool=5, hunger=2, difficulty=3)).p_win))
    expect(chip(page, koi, "dexterity")).to_have_class("trait-chip trait-first active")
    expect(chip(page, koi, "stealth")).to_have_attribute("aria-pressed", "true")

    dice.script(10, 4, 6, 10, 1)  # 3 normal dice, 2 Hunger dice
    clicks.click("#roll-button")
    expect(cards(page)).to_have_count(2)
    dice.assert_all_drawn()
    card = cards(page).first
    expect(card).to_contain_text("Koi")
    expect(card).to_contain_text("Dexterity + Stealth")
    assert faces(card) == [10, 4, 6, 10, 1]
    assert clicks.count == 6, clicks.count  # open the list, Dexterity, the difficulty (2), Stealth, Roll
    assert_not_reloaded(page)

    # The list stays open through the card's redraw after the roll, and through a reload: next time, 3 clicks.
    expect(chip(page, koi, "dexterity")).to_be_visible()
    page.reload()
    expect(chip(page, koi, "strength")).to_be_visible()
    clicks.count = 0
    clicks.click(chip(page, koi, "strength"))
    expect(page.locator("#composer [name=character]")).to_have_value(str(koi.pk))
    clicks.click(chip(page, koi, "brawl"))
    expect(success_chance(page)).to_have_text(percent(v5.odds(v5.Request(pool=8, hunger=2)).p_win))
    dice.script(6, 6, 6, 6, 6, 6, 2, 2)
    clicks.click("#roll-button")
    expect(cards(page)).to_have_count(3)
    expect(cards(page).first).to_contain_text("Strength + Brawl")
    assert clicks.count == 3  # the difficulty left as it was: Strength, Brawl, Roll


def test_a_pool_chip_rolls_willpower(page, gm_user, dice):
    campaign = campaign_of(gm_user, Game.EXALTED)
    swan = make_character(campaign, "Swan", {"dexterity": 3, "melee": 4}, exalted_willpower=6)
    open_table(page, campaign)
    card_of(page, swan).locator("details.card-traits summary").click()
    card_of(page, swan).locator("[data-pool=willpower]").click()
    expect(page.locator("#composer [name=pool_from]")).to_have_value("willpower")
    expect(success_chance(page)).to_have_text(percent(exalted.odds(exalted.Request(pool=6)).p_success))
    chip(page, swan, "dexterity").click()  # back to the traits
    expect(page.locator("#composer [name=pool_from]")).to_have_value("traits")
    expect(success_chance(page)).to_have_text(percent(exalted.odds(exalted.Request(pool=7)).p_success))


def test_save_a_roll_then_compose_it_in_one_click_and_roll_in_two(page, gm_user, dice):
    campaign = campaign_of(gm_user, Game.EXALTED)
    aaron = make_character(campaign, "Aaron", {"strength": 3, "melee": 2})
    swan = make_character(campaign, "Swan", {"dexterity": 3, "melee": 4, "stealth": 2})
    guard = make_character(campaign, "Guard", {"dexterity": 2, "melee": 2}, kind=CharacterKind.NPC)
    open_table(page, campaign)

    # Compose Swan's Dexterity + Stealth with a stunt of 1, and save it (its name: what it is).
    card_of(page, swan).locator("details.card-traits summary").click()
    chip(page, swan, "stealth").click()
    expect(page.locator("#composer [name=second]")).to_have_value(trait(swan, "stealth"))
    page.select_option("#composer [name=stunt]", "1")
    page.select_option("#composer [name=difficulty]", "2")
    page.locator("#save-roll summary").click()
    page.locator("#save-roll button[type=submit]").click()
    expect(page.locator("[data-testid=saved-note]")).to_have_text("Saved “Dexterity + Stealth, stunt 1” on Swan’s card.")
    saved = card_of(page, swan).locator(".saved-roll-use")
    expect(saved).to_have_text("★ Dexterity + Stealth, stunt 1")
    # And one for the guard, named by the GM (Enter saves it).
    page.locator("#composer [name=character]").select_option(str(guard.pk))
    expect(page.locator("#composer [name=first]")).to_have_value(trait(guard, "dexterity"))
    page.locator("#save-roll summary").click()
    page.locator("#save-roll [name=saved_name]").fill("Guard: stab")
    page.locator("#save-roll [name=saved_name]").press("Enter")
    expect(card_of(page, guard).locator(".saved-roll-use")).to_have_text("★ Guard: stab")
    assert SavedRoll.objects.count() == 2

    # Elsewhere in the composer now (Aaron, the default difficulty): the saved roll brings it all back.
    page.locator("#composer [name=character]").select_option(str(aaron.pk))
    expect(page.locator("#composer [name=first]")).to_have_value(trait(aaron, "strength"))
    clicks = Clicks(page)
    clicks.click(card_of(page, swan).locator(".saved-roll-use"))
    expect(page.locator("#composer [name=character]")).to_have_value(str(swan.pk))
    expect(page.locator("#composer [name=first]")).to_have_value(trait(swan, "dexterity"))
    expect(page.locator("#composer [name=second]")).to_have_value(trait(swan, "stealth"))
    expect(page.locator("#composer [name=stunt]")).to_have_value("1")
    expect(page.locator("#composer [name=difficulty]")).to_have_value("2")
    expect(success_chance(page)).to_have_text(percent(exalted.odds(exalted.Request(pool=5, stunt=1, difficulty=2)).p_success))
    dice.script(7, 8, 10, 3, 1, 9)  # Dexterity 3 + Stealth 2, and the stunt's die
    clicks.click("#roll-button")
    expect(cards(page)).to_have_count(1)
    dice.assert_all_drawn()
    assert clicks.count == 2, clicks.count
    card = cards(page).first
    expect(card).to_contain_text("Swan")
    expect(card).to_contain_text("Dexterity + Stealth")
    assert faces(card) == [7, 8, 10, 3, 1, 9]
    expect(card.locator("[data-testid=verdict]")).to_have_text("Success")

    # The saved roll again, then R: two actions as well.
    card_of(page, swan).locator(".saved-roll-use").click()
    expect(page.locator("#composer [name=stunt]")).to_have_value("1")
    expect(page.locator("#odds [data-testid=odds]")).to_be_visible()
    dice.script(2, 3, 4, 5, 6, 2)
    page.keyboard.press("r")
    expect(cards(page)).to_have_count(2)
    dice.assert_all_drawn()

    # Delete the guard's (after a confirmation); the card says so at once.
    page.once("dialog", lambda dialog: dialog.accept())
    card_of(page, guard).locator(".saved-roll-delete").click()
    expect(card_of(page, guard).locator(".saved-roll")).to_have_count(0)
    assert SavedRoll.objects.count() == 1
    assert_not_reloaded(page)


def test_a_saved_roll_whose_trait_is_gone_says_so_on_the_card(page, gm_user):
    from gmtools.models import Trait

    campaign = campaign_of(gm_user, Game.SCIFI)
    tracker = make_character(campaign, "Tracker", {"agility": 3})
    lockpicking = Trait.objects.create(character=tracker, category="skill", name="Lockpicking", rating=3)
    SavedRoll.objects.create(character=tracker, name="Pick the lock",
                             fields={"first": str(trait(tracker, "agility")), "second": str(lockpicking.pk),
                                     "difficulty": "common", "dice": "0", "modifier": "0", "kind": "short"})
    lockpicking.delete()
    open_table(page, campaign)
    card_of(page, tracker).locator(".saved-roll-use").click()
    refusal = card_of(page, tracker).locator("[data-testid=refusal]")
    expect(refusal).to_contain_text("The saved roll “Pick the lock” uses a trait Tracker no longer has")
    assert_not_reloaded(page)


def test_keys_roll_move_through_the_turn_order_help_and_escape(page, gm_user, dice):
    campaign = campaign_of(gm_user, Game.V5)
    aaron = make_character(campaign, "Aaron", {"strength": 3, "brawl": 2})
    bea = make_character(campaign, "Bea", {"wits": 3, "awareness": 2})
    koi = make_character(campaign, "Koi", {"dexterity": 3, "stealth": 2})
    services.start_scene(campaign, title="The docks", characters=[koi, aaron, bea])  # the turn order
    open_table(page, campaign)
    select = page.locator("#composer [name=character]")
    expect(select).to_have_value(str(koi.pk))  # the character to act (issue 23, item 10)

    # ↓ / ↑: the next and previous characters of the turn order (Koi, Aaron, Bea), round the end.
    page.locator("h1").click()  # focus on the page, not on a field
    page.keyboard.press("ArrowUp")
    expect(select).to_have_value(str(bea.pk))
    expect(page.locator("#composer [name=first]")).to_have_value(trait(bea, "wits"))
    page.keyboard.press("ArrowDown")
    expect(select).to_have_value(str(koi.pk))
    expect(page.locator("#composer [name=first]")).to_have_value(trait(koi, "dexterity"))
    page.keyboard.press("ArrowDown")
    expect(select).to_have_value(str(aaron.pk))
    expect(page.locator("#composer [name=first]")).to_have_value(trait(aaron, "strength"))

    # R rolls; but not while typing in a field (the R is the field's).
    expect(page.locator("#odds [data-testid=odds]")).to_be_visible()
    dice.script(8, 2, 7, 3, 9)  # Strength 3 + Brawl 2
    page.keyboard.press("r")
    expect(cards(page)).to_have_count(1)
    dice.assert_all_drawn()
    expect(cards(page).first).to_contain_text("Strength + Brawl")
    page.locator("#composer details.composer-extras summary").click()
    note = page.locator("#composer [name=label]")
    note.click()
    page.keyboard.type("Run for the rope")
    page.keyboard.press("R")
    expect(note).to_have_value("Run for the ropeR")
    page.wait_for_timeout(300)
    expect(cards(page)).to_have_count(1)

    # ? opens the help, in a dialog; Esc closes it.
    page.locator("h1").click()
    page.keyboard.press("?")
    help_dialog = page.locator("#keys-help")
    expect(help_dialog).to_be_visible()
    expect(help_dialog).to_contain_text("Keyboard shortcuts")
    expect(help_dialog).to_contain_text("Roll what the composer shows (not while typing in a field).")
    expect(help_dialog).to_contain_text("The previous or next character in the turn order")
    page.keyboard.press("r")  # nothing rolls behind the help
    page.keyboard.press("Escape")
    expect(help_dialog).to_be_hidden()
    expect(cards(page)).to_have_count(1)
    # The header's button opens it too.
    page.locator("[data-keys-help]").click()
    expect(help_dialog).to_be_visible()
    help_dialog.locator("[data-close-dialog]").click()
    expect(help_dialog).to_be_hidden()

    # Esc closes what is open: "Save this roll", the composer's extras, the export panel.
    page.locator("#save-roll summary").click()
    page.locator("[data-testid=export] summary").click()
    expect(page.locator("#save-roll details")).to_have_attribute("open", "")
    page.keyboard.press("Escape")
    expect(page.locator("#save-roll details")).not_to_have_attribute("open", "")
    expect(page.locator("#composer details.composer-extras")).not_to_have_attribute("open", "")
    expect(page.locator("[data-testid=export]")).not_to_have_attribute("open", "")
    assert_not_reloaded(page)


@pytest.mark.parametrize("game", [Game.V5, Game.EXALTED])
def test_screenshot_a_table_with_traits_and_saved_rolls(page, gm_user, dice, game):
    """The cards with their traits open and saved rolls, at 1366×768: the composer still fits."""
    campaign = campaign_of(gm_user, game)
    if game == Game.V5:
        koi = make_character(campaign, "Koi", {"dexterity": 3, "stealth": 2, "strength": 2, "brawl": 3, "wits": 2,
                                               "awareness": 3, "firearms": 2, "persuasion": 1}, player="Lucía", v5_hunger=1)
        other = make_character(campaign, "Teodora", {"strength": 4, "brawl": 4, "intimidation": 2}, player="Ana")
        pairs = [("dexterity", "stealth", "Sneak past the guards"), ("wits", "awareness", "")]
    else:
        koi = make_character(campaign, "Swan", {"dexterity": 4, "melee": 4, "stealth": 3, "athletics": 2, "awareness": 3,
                                                "perception": 3, "presence": 2}, player="Lucía")
        other = make_character(campaign, "Harbour guard", {"strength": 3, "melee": 3}, kind=CharacterKind.NPC)
        pairs = [("dexterity", "melee", ""), ("perception", "awareness", "Spot the ambush")]
    services.start_scene(campaign, title="The docks")
    open_table(page, campaign)
    card_of(page, koi).locator("details.card-traits summary").click()
    for first, second, name in pairs:
        chip(page, koi, first).click()
        expect(page.locator("#composer [name=first]")).to_have_value(trait(koi, first))
        chip(page, koi, second).click()
        expect(page.locator("#composer [name=second]")).to_have_value(trait(koi, second))
        page.locator("#save-roll summary").click()
        page.locator("#save-roll [name=saved_name]").fill(name)
        page.locator("#save-roll button[type=submit]").click()
        expect(page.locator("[data-testid=saved-note]")).to_be_visible()
    expect(card_of(page, koi).locator(".saved-roll")).to_have_count(2)
    if game == Game.V5:  # Teodora's card comes after Koi's (the guard, an NPC, before Swan's)
        card_of(page, other).locator("details.card-traits summary").click()
    # A roll from the first saved roll, by R, for a card in the log.
    card_of(page, koi).locator(".saved-roll-use").first.click()
    expect(page.locator("#composer [name=first]")).to_have_value(trait(koi, pairs[0][0]))
    dice.script(*{Game.V5: (9, 3, 7, 6, 10), Game.EXALTED: (7, 8, 10, 3, 1, 9, 2, 7)}[game])
    page.keyboard.press("r")
    expect(cards(page)).to_have_count(1)
    dice.assert_all_drawn()
    # Nothing in a card runs out of it, and the Roll button and the odds still show without scrolling.
    for card in (card_of(page, koi), card_of(page, other)):
        assert card.evaluate("c => c.scrollWidth <= c.clientWidth + 1"), "a card overflows"
    expect(page.locator("#roll-button")).to_be_in_viewport()
    expect(page.locator("#odds [data-testid=odds]")).to_be_in_viewport()
    page.evaluate("window.scrollTo(0, 0)")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"issue10-quick-{game}.png"), full_page=False)
