"""Issue 24, "Physical dice", in a real browser, in English and in Spanish: the GM ticks "I rolled
real dice", enters a V5 roll's normal and Hunger dice and a scifi roll with explosions on the keypad
(the entry counting "3 of 3" and asking for each explosion as it comes), Enter rolls, and the card
says physical dice and holds what ``python -m rules roll ... --faces`` gives for the same faces; a
wrong count is refused beside Roll, nothing logged.

The GM's table as ``make run`` serves it (uvicorn, DEBUG on) at 1366×768, and at 390×844 (a phone)
for the screenshots; no die is drawn by the server (``dice`` fails the test on any draw). The server
side is test_physical.py. Screenshots: ``/tmp/i24-physical/``.
"""

from __future__ import annotations

from pathlib import Path

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
    trait,
)
from tests.web.test_browser_hitches import assert_same_page, lang, open_table, say, table  # noqa: F401

from gmtools.models import Roll  # noqa: E402
from tests.games import Game  # noqa: E402
from tests.web.test_physical import cli_roll  # noqa: E402

SHOTS = Path("/tmp/i24-physical")
shot = shooter(SHOTS)
PHONE = {"width": 390, "height": 844}


def compose(page, character, first: str, second: str) -> None:
    page.select_option("#composer [name=first]", trait(character, first))
    page.select_option("#composer [name=second]", trait(character, second))


def tick(page, lang: str) -> None:
    page.get_by_label(say(lang, "I rolled real dice", "Tiré dados reales")).check()
    expect(page.locator("[data-physical-entry]")).to_be_visible()


def keys(page, *faces: str) -> None:
    for face in faces:
        page.locator(f"[data-physical] .keypad [data-key='{face}']:visible").click()


def count(page, lang: str, given: int, wanted: int, which: str = "physical-count"):
    expect(page.locator(f"[data-testid={which}]")).to_have_text(say(lang, f"{given} of {wanted}", f"{given} de {wanted}"))


def same_as_cli(roll: Roll, game: str, args: list[str], faces: list[int], hunger: list[int] | None = None) -> None:
    cli = cli_roll(game, args, faces, hunger)
    main = roll.result["main"]
    assert roll.result["physical"] is True
    assert {k: main[k] for k in cli if k != "system"} == {k: v for k, v in cli.items() if k != "system"}


def test_v5_normal_and_hunger_dice_on_the_keypad(table, lang, gm_user, dice):
    campaign = campaign_of(gm_user, Game.V5)
    nadia = make_character(campaign, "Nadia", {"strength": 3, "brawl": 2}, v5_hunger=2)
    open_table(table, campaign)
    compose(table, nadia, "strength", "brawl")
    tick(table, lang)
    count(table, lang, 0, 3)
    count(table, lang, 0, 2, "physical-hunger-count")
    # Examples, said so: bare, "7 8 2 0" read as faces already entered (the walkthrough of issue 24, C2).
    for field, example in (("physical-faces", "7 8 2 0"), ("physical-hunger", "3 0")):
        expect(table.get_by_test_id(field)).to_have_attribute("placeholder", say(lang, "e.g. ", "p. ej. ") + example)
    expect(table.locator("[data-physical] [data-keypad=d10]")).to_be_visible()

    keys(table, "0", "6", "2")  # the normal dice fill first, then the keys go to the Hunger dice
    count(table, lang, 3, 3)
    keys(table, "0", "1")
    count(table, lang, 2, 2, "physical-hunger-count")
    expect(table.locator("[data-testid=physical-faces]")).to_have_value("0 6 2")
    expect(table.locator("[data-testid=physical-hunger]")).to_have_value("0 1")
    keys(table, "Backspace")
    count(table, lang, 1, 2, "physical-hunger-count")
    keys(table, "1")
    shot(table, f"v5-entry-{lang}")
    table.set_viewport_size(PHONE)
    shot(table, f"v5-entry-phone-{lang}")
    table.set_viewport_size({"width": 1366, "height": 768})

    table.keyboard.press("Enter")  # the focus is on the keypad: Enter rolls
    expect(cards(table)).to_have_count(1)
    card = cards(table).first
    expect(card.locator("[data-testid=physical-mark]")).to_have_text(say(lang, "physical dice", "dados físicos"))
    same_as_cli(Roll.objects.get(), "v5", ["--pool", "5", "--hunger", "2", "--difficulty", "1"], [10, 6, 2], [10, 1])
    expect(table.locator("[data-testid=physical-faces]")).to_have_value("")  # the next roll starts empty
    expect(table.get_by_label(say(lang, "I rolled real dice", "Tiré dados reales"))).to_be_checked()  # and still physical
    shot(table, f"v5-card-{lang}")

    # A wrong count in each list, typed: refused beside Roll naming both, each with its die; nothing logged.
    table.locator("[data-testid=physical-faces]").fill("7 8")
    table.locator("[data-testid=physical-hunger]").fill("3")
    table.click("#roll-button")
    refusal = table.locator("#composer [data-testid=refusal]")
    expect(refusal).to_have_text(say(lang, "Dice: enter 3 (2 given); Hunger dice: enter 2 (1 given)",
                                     "Dados: introduce 3 (has puesto 2); Dados de Ansia: introduce 2 (has puesto 1)"))
    expect(cards(table)).to_have_count(1)
    assert Roll.objects.count() == 1
    shot(table, f"v5-refused-{lang}")
    table.set_viewport_size(PHONE)
    shot(table, f"v5-refused-phone-{lang}")
    assert_same_page(table)


def test_scifi_explosions_are_asked_for_as_they_come(table, lang, gm_user, dice):
    campaign = campaign_of(gm_user, Game.SCIFI)
    vega = make_character(campaign, "Vega", {"agility": 2, "firearms": 1})
    open_table(table, campaign)
    compose(table, vega, "agility", "firearms")
    tick(table, lang)
    count(table, lang, 0, 3)
    explosions = table.locator("[data-testid=physical-explosions]")
    expect(explosions).to_be_hidden()
    expect(table.locator("[data-testid=physical-hunger]")).to_be_hidden()  # no Hunger dice in scifi
    keys(table, "0")
    count(table, lang, 1, 4)
    expect(explosions).to_have_text(say(lang, "explosions: 1 more die", "explosiones: 1 dado más"))
    keys(table, "4", "2", "0")
    count(table, lang, 4, 5)
    expect(explosions).to_have_text(say(lang, "explosions: 2 more dice", "explosiones: 2 dados más"))
    keys(table, "7")
    count(table, lang, 5, 5)
    shot(table, f"scifi-entry-{lang}")

    table.click("#roll-button")
    expect(cards(table)).to_have_count(1)
    expect(cards(table).first.locator("[data-testid=physical-mark]")).to_be_visible()
    same_as_cli(Roll.objects.get(), "scifi", ["--pool", "3", "--difficulty", "common", "--skill", "1"], [10, 4, 2, 10, 7])
    shot(table, f"scifi-card-{lang}")
    assert_same_page(table)

    # A roll the server draws, then the luck page tests the two kinds apart.
    table.get_by_label(say(lang, "I rolled real dice", "Tiré dados reales")).uncheck()
    expect(table.locator("[data-physical-entry]")).to_be_hidden()
    dice.script(2, 3, 8)
    table.click("#roll-button")
    expect(cards(table)).to_have_count(2)
    expect(cards(table).first.locator("[data-testid=physical-mark]")).to_have_count(0)
    table.click("[data-testid=luck-link]")
    sentences = table.locator("[data-testid=fair-sentence]")
    expect(sentences).to_have_count(2)
    expect(sentences.nth(0)).to_contain_text(say(lang, "Physical dice, 5 d10s: ", "Dados físicos, 5 d10: "))
    expect(sentences.nth(1)).to_contain_text(say(lang, "Drawn by the server, 3 d10s: ", "Sacados por el servidor, 3 d10: "))
    shot(table, f"scifi-luck-{lang}")


def test_fate_dice_on_their_own_keypad(table, lang, gm_user, dice):
    campaign = campaign_of(gm_user, Game.FATE)
    koi = make_character(campaign, "Koi", {"forceful": 2})
    open_table(table, campaign)
    table.select_option("#composer [name=first]", trait(koi, "forceful"))
    tick(table, lang)
    count(table, lang, 0, 4)
    expect(table.get_by_test_id("physical-faces")).to_have_attribute("placeholder", say(lang, "e.g. ", "p. ej. ") + "+ 0 − +")
    expect(table.locator("[data-physical] [data-keypad=fate]")).to_be_visible()
    expect(table.locator("[data-physical] [data-keypad=d10]")).to_be_hidden()
    keys(table, "+", "+", "0", "-")
    count(table, lang, 4, 4)
    expect(table.locator("[data-testid=physical-faces]")).to_have_value("+ + 0 -")
    table.set_viewport_size(PHONE)
    shot(table, f"fate-entry-phone-{lang}")
    table.keyboard.press("Enter")
    expect(cards(table)).to_have_count(1)
    expect(cards(table).first.locator("[data-testid=physical-mark]")).to_be_visible()
    same_as_cli(Roll.objects.get(), "fate", ["--bonus", "2", "--difficulty", "0"], [1, 1, 0, -1])
    assert_same_page(table)


def test_exalted_faces_typed_and_enter_rolls(table, lang, gm_user, dice):
    """The keyboard alone: "7 8 2 0 1" typed (the 0 a 10: two successes in Exalted), Enter in the field rolls."""
    campaign = campaign_of(gm_user, Game.EXALTED)
    koi = make_character(campaign, "Koi", {"dexterity": 3, "melee": 2})
    open_table(table, campaign)
    compose(table, koi, "dexterity", "melee")
    tick(table, lang)
    field = table.locator("[data-testid=physical-faces]")
    field.press_sequentially("78201")  # as the card writes the dice: a die a digit
    count(table, lang, 5, 5)
    field.fill("")
    field.press_sequentially("7 8 2 0 1")
    count(table, lang, 5, 5)
    expect(table.locator("[data-testid=physical-explosions]")).to_be_hidden()  # a 10 explodes in scifi alone
    field.press("Enter")
    expect(cards(table)).to_have_count(1)
    card = cards(table).first
    expect(card.locator("[data-testid=physical-mark]")).to_be_visible()
    expect(card.locator("[data-testid=dice] .die")).to_have_count(5)
    assert card.locator("[data-testid=dice] .die").evaluate_all("els => els.map(e => Number(e.title))") == [7, 8, 2, 10, 1]
    same_as_cli(Roll.objects.get(), "exalted", ["--pool", "5", "--difficulty", "1"], [7, 8, 2, 10, 1])


def test_real_dice_stay_ticked_for_one_campaign_and_one_link_not_another(table, lang, browser, asgi_server, gm_user):
    """The walkthrough of issue 24 (B7): "I rolled real dice" ticked at one table stayed ticked at every
    other one opened in the same tab. It is remembered for the campaign's composer (and for a
    character's link) alone: another's starts unticked, and coming back finds it ticked again."""
    from gmtools import services
    from gmtools.models import Campaign
    from tests.web.test_browser_players import open_live, phone_page

    real = say(lang, "I rolled real dice", "Tiré dados reales")
    links = []
    for name in ("Docks", "Tower"):
        campaign = Campaign.objects.create(name=name, game=Game.EXALTED, gm=gm_user, players_roll=True)
        koi = make_character(campaign, "Koi", {"dexterity": 3, "melee": 2})
        services.set_character_link(koi, True)
        links.append((campaign, f"/p/{koi.player_token}/"))
    (docks, docks_link), (tower, tower_link) = links
    open_table(table, docks)
    tick(table, lang)
    open_table(table, tower)
    expect(table.get_by_label(real)).not_to_be_checked()
    expect(table.locator("[data-physical-entry]")).to_be_hidden()
    open_table(table, docks)
    expect(table.get_by_label(real)).to_be_checked()

    phone = phone_page(browser, asgi_server, locale="es-ES" if lang == "es" else "en-US")
    open_live(phone, docks_link)
    tick(phone.page, lang)
    open_live(phone, tower_link)
    expect(phone.page.get_by_label(real)).not_to_be_checked()
    open_live(phone, docks_link)
    expect(phone.page.get_by_label(real)).to_be_checked()
    phone.check()
