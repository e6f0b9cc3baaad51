"""Players roll their own characters from the phone (issue 24), in a real browser on the ASGI server
with the settings ``make run`` gives (DEBUG on): a player on a phone rolls for their character, and
the GM's table and a second phone get the card live, saying who rolled it.

Each test drives three pages: the GM's table at 1366×768, the player's phone at 390×844 (the
character's link; the Spanish one at 360×740) and a second phone at 360×740 (the campaign's link,
read-only). Screenshots of each
go to ``artifacts/screenshots/player-rolls-*.png``.
"""

from __future__ import annotations

import pytest

from tests.web.test_browser import (  # noqa: F401
    asgi_server,
    browser,
    dice,
    expect,
    gm_user,
    make_character,
    sync_api,
)
from tests.web.test_browser_players import Watch, gm_page, open_live, phone_page, shot

from gmtools import services  # noqa: E402
from gmtools.games.exalted.models import ExaltedResources  # noqa: E402
from gmtools.models import Campaign, Character, Roll  # noqa: E402
from tests.games import Game  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL_PHONE = {"width": 360, "height": 740}
# The usual pool (3 + 2: four dice and a Hunger die in V5; Fate's four dF), a success each; no 10 (scifi's explode).
FACES = {Game.EXALTED: (8, 8, 3, 2, 1), Game.V5: (7, 8, 2, 3, 4), Game.FATE: (1, 1, 0, 0), Game.SCIFI: (9, 8, 3, 2, 1)}
RATINGS = {Game.EXALTED: {"dexterity": 3, "melee": 2}, Game.V5: {"strength": 3, "brawl": 2},
           Game.FATE: {"forceful": 3}, Game.SCIFI: {"agility": 3, "firearms": 2}}


def table_of(gm_user, game: str) -> tuple[Campaign, Character]:
    campaign = Campaign.objects.create(name=f"Phones {game}", game=game, gm=gm_user, players_roll=True)
    ana = make_character(campaign, "Ana", RATINGS[game], player="Lucía")
    make_character(campaign, "Guard", RATINGS[game], kind="npc")
    return campaign, ana


def second_phone(browser, base: str) -> Watch:
    context = browser.new_context(base_url=base, locale="en-US", viewport=SMALL_PHONE, is_mobile=True, has_touch=True,
                                  bypass_csp=True)
    return Watch(context.new_page())


def cards(page: sync_api.Page) -> sync_api.Locator:
    return page.locator("#log-list .roll-card")


def chance(page: sync_api.Page) -> sync_api.Locator:
    return page.locator("#odds [data-testid=odds] .chance .p").first


@pytest.mark.parametrize("game", [Game.EXALTED, Game.V5, Game.FATE, Game.SCIFI])
def test_a_player_rolls_from_the_phone_and_every_screen_gets_the_card(game, browser, asgi_server, gm_user, dice):
    campaign, ana = table_of(gm_user, game)
    services.set_character_link(ana, True)
    ana.refresh_from_db()
    scene = services.start_scene(campaign, title="The docks")
    gm, phone, other = gm_page(browser, asgi_server, gm_user), phone_page(browser, asgi_server), \
        second_phone(browser, asgi_server)
    open_live(gm, f"/campaigns/{campaign.pk}/")
    open_live(phone, f"/p/{ana.player_token}/")
    open_live(other, f"/p/{campaign.player_token}/")
    composer = phone.page.locator("#composer")
    expect(composer).to_contain_text("Roll for Ana")
    expect(other.page.locator("#composer")).to_have_count(0)  # the campaign's link stays read-only
    # Only Ana: no list of characters, no secret roll, no opposition.
    expect(composer.locator("select[name=character], [name=hidden], [name=opponent_character]")).to_have_count(0)
    # The odds follow what the player chooses (a harder difficulty).
    before = chance(phone.page).inner_text()
    difficulty = composer.locator("[name=difficulty]")
    values = difficulty.locator("option").evaluate_all("els => els.map(e => e.value)")
    difficulty.select_option(values[values.index(difficulty.input_value()) + 2])
    expect(chance(phone.page)).not_to_have_text(before)
    if game == Game.EXALTED:
        composer.locator("[name=willpower]").check()  # the game's spend, paid with the roll
    shot(phone.page, f"player-rolls-{game}-phone-composer")

    dice.script(*FACES[game])
    phone.page.click("#roll-button")
    for watch in (phone, gm, other):
        card = cards(watch.page).first
        expect(card).to_contain_text("Ana")
        expect(card.locator("[data-testid=rolled-by]")).to_have_text("rolled by Lucía")
    expect(phone.page.locator("[data-testid=rolled]")).to_be_visible()
    expect(cards(phone.page)).to_have_count(1)
    roll = Roll.objects.get(campaign=campaign)
    assert (roll.character_id, roll.rolled_by, roll.scene_id, roll.turn) == (ana.pk, "Lucía", scene.pk, scene.turn)
    if game == Game.EXALTED:
        assert ExaltedResources.objects.get(character=ana).willpower_temporary == 4
        expect(composer.locator("[name=willpower]")).to_be_disabled()  # once a turn: spent
    dice.assert_all_drawn()
    shot(phone.page, f"player-rolls-{game}-phone")
    shot(other.page, f"player-rolls-{game}-phone-360")
    shot(gm.page, f"player-rolls-{game}-table")
    for watch in (phone, gm, other):
        watch.check()

    # Forged from the player's own page (its CSRF header, its composer's fields): the guard's roll, or
    # Ana's with the guard's trait, is refused and nothing is written.
    guard = Character.objects.get(campaign=campaign, name="Guard")
    first = guard.traits.get(key=next(iter(RATINGS[game]))).pk
    for forged in ({"character": str(guard.pk)}, {"first": str(first)}):
        statuses = phone.page.evaluate("""async (forged) => {
            const form = document.querySelector("#composer");
            const data = new FormData(form);
            for (const [name, value] of Object.entries(forged)) data.set(name, value);
            const headers = {...JSON.parse(document.body.getAttribute("hx-headers")), "HX-Request": "true"};
            const answer = await fetch(form.getAttribute("hx-post"), {method: "POST", body: data, headers});
            return [answer.status, await answer.text()];
        }""", forged)
        assert statuses[0] == 422 and 'data-testid="refusal"' in statuses[1], (forged, statuses)
    assert Roll.objects.filter(campaign=campaign).count() == 1


def test_the_gm_hands_a_character_its_link_and_the_player_rolls_in_spanish(browser, asgi_server, gm_user, dice):
    campaign, ana = table_of(gm_user, Game.V5)
    Campaign.objects.filter(pk=campaign.pk).update(players_roll=False)
    gm = gm_page(browser, asgi_server, gm_user)
    open_live(gm, f"/campaigns/{campaign.pk}/")
    gm.page.click("#player-link summary")
    gm.page.locator(f"[data-testid=character-link-{ana.pk}] [data-testid=make-link]").click()
    url = gm.page.locator(f"[data-testid=character-link-{ana.pk}] [data-testid=character-url]")
    expect(url).to_contain_text("/p/")
    expect(gm.page.locator(f"[data-testid=character-link-{ana.pk}] [data-testid=character-qr] svg")).to_be_visible()

    phone = phone_page(browser, asgi_server, locale="es-ES")
    phone.page.set_viewport_size(SMALL_PHONE)  # the smaller phone: every label of the composer still reads whole
    open_live(phone, url.inner_text())
    expect(phone.page.get_by_test_id("rolling-closed")).to_contain_text("no se tira desde el móvil")
    # The GM opens rolling: the phone already open gets its composer.
    gm.page.get_by_test_id("players-roll").check()
    expect(gm.page.get_by_test_id("players-roll")).to_be_checked()
    shot(gm.page, "player-rolls-table-links")
    expect(phone.page.locator("#composer")).to_contain_text("Tirar por Ana")
    assert Campaign.objects.get(pk=campaign.pk).players_roll  # written: the phone was told of it
    expect(phone.page.locator("[data-live-status]").first).to_have_attribute("data-live-status", "live")
    cut = phone.page.locator("#composer label").evaluate_all("els => els.filter(e => e.scrollWidth > e.clientWidth + 1)"
                                                             ".map(e => e.textContent.trim())")
    assert cut == [], cut
    shot(phone.page, "player-rolls-v5-phone-360-es-composer")
    dice.script(*FACES[Game.V5])
    phone.page.click("#roll-button")
    expect(cards(phone.page).first.locator("[data-testid=rolled-by]")).to_have_text("tirada por Lucía")
    expect(cards(gm.page).first.locator("[data-testid=rolled-by]")).to_have_text("rolled by Lucía")
    shot(phone.page, "player-rolls-v5-phone-es")

    # The GM takes the dice back: the phone's composer goes, the log stays.
    gm.page.get_by_test_id("players-roll").uncheck()
    expect(phone.page.get_by_test_id("rolling-closed")).to_be_visible()
    expect(phone.page.locator("#composer")).to_have_count(0)
    expect(cards(phone.page)).to_have_count(1)
    # Cut off: the phone's stream ends at once, and its next roll finds nothing.
    asked = []  # a click beside "New link" would cut the player off: it asks first (the walkthrough of issue 24)
    gm.page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    gm.page.locator(f"[data-testid=character-link-{ana.pk}] [data-testid=cut-link]").click()
    expect(gm.page.locator(f"[data-testid=character-link-{ana.pk}] [data-testid=make-link]")).to_be_visible()
    expect(phone.page.locator("[data-live-status]").first).not_to_have_attribute("data-live-status", "live")
    assert Character.objects.get(pk=ana.pk).player_token is None
    assert asked == ["Cut off this character’s link? It stops working at once, and the player needs a new one to roll."]
    for watch in (phone, gm):
        watch.check()


def test_real_dice_on_a_phone_and_on_the_laptop_give_the_clis_card(browser, asgi_server, gm_user, dice):
    """The same faces thrown at the table and entered by a player on the phone, then by the GM on the
    laptop, give one card, the one ``python -m rules roll --faces`` gives; the server draws nothing."""
    from tests.web.test_browser_physical import keys, same_as_cli

    campaign, ana = table_of(gm_user, Game.EXALTED)
    services.set_character_link(ana, True)
    ana.refresh_from_db()
    gm, phone = gm_page(browser, asgi_server, gm_user), phone_page(browser, asgi_server)
    open_live(gm, f"/campaigns/{campaign.pk}/")
    open_live(phone, f"/p/{ana.player_token}/")
    cli = ["--pool", "5", "--difficulty", "1"]  # Dexterity 3 + Melee 2, the composer's first pool
    made = []
    for watch in (phone, gm):
        page = watch.page
        expect(page.locator("#composer [name=first]")).to_have_value(str(ana.traits.get(key="dexterity").pk))
        page.get_by_label("I rolled real dice").check()
        expect(page.locator("[data-physical-entry]")).to_be_visible()
        keys(page, "7", "8", "2", "0", "1")
        expect(page.locator("[data-testid=physical-count]")).to_have_text("5 of 5")
        shot(page, f"player-rolls-physical-{'phone' if watch is phone else 'table'}")
        page.click("#roll-button")
        expect(cards(gm.page)).to_have_count(len(made) + 1)
        made.append(Roll.objects.latest("pk"))
        same_as_cli(made[-1], "exalted", cli, [7, 8, 2, 10, 1])
    dice.assert_all_drawn()  # none scripted, none drawn
    by_phone, by_gm = made
    assert (by_phone.rolled_by, by_gm.rolled_by) == ("Lucía", "")
    assert by_phone.result["main"] == by_gm.result["main"] and by_phone.outcome == by_gm.outcome
    expect(cards(phone.page)).to_have_count(2)
    for card in (cards(gm.page).nth(1), cards(phone.page).nth(1)):  # the phone's (the older), on every screen
        expect(card.locator("[data-testid=physical-mark]")).to_have_text("physical dice")
        expect(card.locator("[data-testid=rolled-by]")).to_have_text("rolled by Lucía")
    faces = [cards(gm.page).nth(i).locator(".dice").first.inner_text() for i in (0, 1)]
    assert faces[0] == faces[1], faces
    # A wrong count on the phone: refused beside Roll, and "Rolled: ..." of the roll before is gone (it
    # read as if this one went through: the walkthrough of issue 24).
    expect(phone.page.locator("[data-testid=rolled]")).to_be_visible()
    keys(phone.page, "7", "8")
    phone.page.click("#roll-button")
    expect(phone.page.locator("#composer [data-testid=refusal]")).to_contain_text("Dice: enter 5 (2 given)")
    expect(phone.page.locator("[data-testid=rolled]")).to_have_count(0)
    assert Roll.objects.count() == 2
    for watch in (phone, gm):
        watch.check()


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
def test_a_player_rerolls_with_willpower_from_the_phone_and_every_screen_sees_it(locale, browser, asgi_server,
                                                                                 gm_user, dice):
    """V5's Willpower reroll, under the player's composer (never on the shared cards), on their own roll:
    the same spend as the GM's, and the roll's card on the GM's table and a second phone shows it live."""
    campaign = Campaign.objects.create(name="Phones v5", game=Game.V5, gm=gm_user, players_roll=True)
    ana = make_character(campaign, "Ana", {**RATINGS[Game.V5], "composure": 2, "resolve": 2}, player="Lucía")
    services.set_character_link(ana, True)
    ana.refresh_from_db()
    gm, phone, other = gm_page(browser, asgi_server, gm_user), phone_page(browser, asgi_server, locale=locale), \
        second_phone(browser, asgi_server)
    open_live(gm, f"/campaigns/{campaign.pk}/")
    open_live(phone, f"/p/{ana.player_token}/")
    open_live(other, f"/p/{campaign.player_token}/")
    spanish = locale.startswith("es")
    expect(phone.page.get_by_test_id("player-follow-ups")).to_have_count(0)  # nothing rolled yet
    offered = phone.page.get_by_test_id("player-follow-ups")
    # A roll the GM voids is followed up no more: its forms go from the phone live, what the player is
    # composing meanwhile kept (the composer is not drawn again).
    dice.script(*FACES[Game.V5])
    phone.page.click("#roll-button")
    expect(offered.locator(".reroll-form")).to_have_count(1)
    difficulty = phone.page.locator("#composer [name=difficulty]")
    values = difficulty.locator("option").evaluate_all("els => els.map(e => e.value)")
    harder = values[values.index(difficulty.input_value()) + 1]
    difficulty.select_option(harder)
    gm.page.once("dialog", lambda d: d.accept())
    cards(gm.page).first.locator("[data-testid=void]").click()
    expect(cards(phone.page).first.locator("[data-testid=voided-mark]")).to_be_visible()
    expect(offered).to_have_count(0)
    expect(difficulty).to_have_value(harder)
    difficulty.select_option(values[values.index(harder) - 1])
    dice.script(*FACES[Game.V5])
    phone.page.click("#roll-button")
    expect(offered).to_contain_text("Tu última tirada" if spanish else "Your last roll")
    expect(cards(gm.page)).to_have_count(2)
    roll = Roll.objects.filter(campaign=campaign, voided_at__isnull=True).get()
    # The shared cards carry no player's form; the GM's card keeps the GM's own.
    expect(cards(phone.page).first.locator(".reroll-form")).to_have_count(0)
    expect(cards(other.page).first.locator(".reroll-form")).to_have_count(0)
    expect(cards(gm.page).first.locator(".reroll-form")).to_have_count(1)
    offered.locator(".reroll-form input[value='0']").check()
    shot(phone.page, f"player-rolls-v5-reroll-phone-{locale}")
    dice.script(10)
    offered.locator(".reroll-form button[type=submit]").click()
    expect(phone.page.get_by_test_id("followed")).to_contain_text(
        "Repetición con Fuerza de Voluntad" if spanish else "Willpower reroll")
    for watch in (phone, gm, other):
        line = cards(watch.page).first.locator("[data-testid=follow-ups] .follow-up")
        expect(line).to_have_count(1)
        expect(line).to_have_attribute("data-kind", "reroll")
    expect(cards(gm.page).first.locator(".reroll-form")).to_have_count(0)  # once per roll, on the GM's card too
    expect(phone.page.locator("#player-follow-ups .reroll-form")).to_have_count(0)
    dice.assert_all_drawn()
    reroll = Roll.objects.get(parent=roll, kind="reroll")
    assert reroll.main["faces"][0] == 10
    assert Character.objects.get(pk=ana.pk).resources.willpower_superficial == 1
    shot(phone.page, f"player-rolls-v5-rerolled-phone-{locale}")
    shot(other.page, f"player-rolls-v5-rerolled-phone-360-{locale}")
    shot(gm.page, f"player-rolls-v5-rerolled-table-{locale}")
    for watch in (phone, gm, other):
        watch.check()


def test_the_phones_composer_keeps_the_players_choices_after_a_roll_a_follow_up_and_a_refusal(browser, asgi_server,
                                                                                               gm_user, dice):
    """The walkthrough of issue 24 (B1): each roll drew the phone's composer afresh, the difficulty and
    the traits back to their defaults. Now it keeps what the player chose after a roll and a follow-up,
    as the GM's does: only the one roll's choices (V5's specialty) and the faces entered go; a refusal
    keeps everything, the faces typed too."""
    from tests.web.test_browser_physical import keys

    campaign = Campaign.objects.create(name="Phones v5", game=Game.V5, gm=gm_user, players_roll=True)
    ana = make_character(campaign, "Ana", {**RATINGS[Game.V5], "composure": 2, "resolve": 2}, player="Lucía")
    services.set_character_link(ana, True)
    ana.refresh_from_db()
    phone = phone_page(browser, asgi_server)
    open_live(phone, f"/p/{ana.player_token}/")
    composer = phone.page.locator("#composer")
    difficulty, first = composer.locator("[name=difficulty]"), composer.locator("[name=first]")
    values = difficulty.locator("option").evaluate_all("els => els.map(e => e.value)")
    harder = values[values.index(difficulty.input_value()) + 1]
    difficulty.select_option(harder)
    resolve = str(ana.traits.get(key="resolve").pk)
    first.select_option(resolve)
    composer.locator("[name=specialty]").check()
    phone.page.get_by_label("I rolled real dice").check()
    wanted = composer.locator("[data-physical-wanted]")
    expect(wanted).to_have_attribute("data-dice", "4")  # Resolve 2 + Brawl 2 and the specialty's die, less Hunger 1
    expect(wanted).to_have_attribute("data-hunger", "1")
    keys(phone.page, "7", "8", "2", "6", "3")
    once = composer.locator("[name=once]").input_value()
    phone.page.click("#roll-button")
    expect(phone.page.get_by_test_id("rolled")).to_be_visible()
    expect(cards(phone.page)).to_have_count(1)
    assert Roll.objects.get().main["faces"] == [7, 8, 2, 6]  # the Hunger die apart
    for kept, value in ((difficulty, harder), (first, resolve)):
        expect(kept).to_have_value(value)
    expect(composer.locator("[name=specialty]")).not_to_be_checked()
    expect(phone.page.get_by_label("I rolled real dice")).to_be_checked()  # a table that throws real dice goes on
    expect(phone.page.get_by_test_id("physical-faces")).to_have_value("")
    assert composer.locator("[name=once]").input_value() != once
    expect(chance(phone.page)).to_be_visible()

    # A follow-up (the Willpower reroll) leaves the composer as it is, and says what it did.
    offered = phone.page.get_by_test_id("player-follow-ups")
    offered.locator(".reroll-form input[value='0']").check()
    offered.locator("[data-testid=follow-up-faces]").fill("0")  # the roll was thrown at the table: so is its reroll
    offered.locator(".reroll-form button[type=submit]").click()
    expect(phone.page.get_by_test_id("followed")).to_contain_text("Willpower reroll")
    expect(phone.page.locator("#player-follow-ups .reroll-form")).to_have_count(0)
    expect(difficulty).to_have_value(harder)
    expect(first).to_have_value(resolve)
    dice.assert_all_drawn()

    # A refusal (one die short) keeps everything, the faces typed too.
    keys(phone.page, "7", "8")
    phone.page.click("#roll-button")
    expect(composer.locator("[data-testid=refusal]")).to_be_visible()
    expect(difficulty).to_have_value(harder)
    expect(first).to_have_value(resolve)
    expect(phone.page.get_by_test_id("physical-faces")).to_have_value("7 8")
    assert Roll.objects.count() == 2
    phone.check()


@pytest.mark.parametrize("viewport", [SMALL_PHONE, {"width": 390, "height": 844}], ids=["360", "390"])
def test_the_odds_stay_in_sight_beside_roll_while_the_player_composes(viewport, browser, asgi_server, gm_user):
    """The walkthrough of issue 24 (B4): at 360×740 the odds sat below Roll, under the bar stuck at the
    screen's foot, out of sight. Now the chances stand above Roll, both at the foot while the player
    scrolls the composer: within the screen, and what is drawn at their centre is theirs."""
    campaign, ana = table_of(gm_user, Game.V5)
    services.set_character_link(ana, True)
    ana.refresh_from_db()
    phone = phone_page(browser, asgi_server)
    phone.page.set_viewport_size(viewport)
    open_live(phone, f"/p/{ana.player_token}/")
    difficulty = phone.page.locator("#composer [name=difficulty]")
    before = chance(phone.page).inner_text()
    values = difficulty.locator("option").evaluate_all("els => els.map(e => e.value)")
    difficulty.select_option(values[values.index(difficulty.input_value()) + 2])  # scrolls the composer to it
    expect(chance(phone.page)).not_to_have_text(before)
    seen = phone.page.evaluate("""() => {
      const odds = document.querySelector('#odds [data-testid=odds]'), roll = document.getElementById('roll-button');
      const box = odds.getBoundingClientRect(), button = roll.getBoundingClientRect();
      const at = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return {inside: box.top >= 0 && box.bottom <= innerHeight && box.left >= 0 && box.right <= innerWidth,
              drawn: odds.contains(at), above: box.bottom <= button.top,
              roll: roll.contains(document.elementFromPoint(button.left + button.width / 2, button.top + button.height / 2))};
    }""")
    assert seen == {"inside": True, "drawn": True, "above": True, "roll": True}, seen
    # The chances share one row at the foot, none cut: no word runs past its box.
    cut = phone.page.locator(".roll-foot .chance").evaluate_all("els => els.filter(e => e.scrollWidth > e.clientWidth + 1)"
                                                                 ".map(e => e.textContent.trim())")
    assert cut == [], cut
    shot(phone.page, f"player-rolls-odds-beside-roll-{viewport['width']}")
    phone.check()
