"""Issue 23's leftovers in a real browser, in English and in Spanish: what the GM sees at the table
(``make run``'s settings: test_browser's ``asgi_server``, 1366×768), every die scripted. The server
side is test_issue23_leftovers.py. Screenshots: ``/tmp/i23-leftovers/``.
"""

from __future__ import annotations

from pathlib import Path

from tests.web.test_browser import (  # noqa: F401
    asgi_server,
    browser,
    campaign_of,
    dice,
    expect,
    gm_user,
    make_character,
    pytestmark,
    roll,
    shooter,
    trait,
)
from tests.web.test_browser_hitches import chance, gm_table, lang, open_table, pct, say, table  # noqa: F401
from tests.web.test_browser_issue23_fate import tv_page
from tests.web.test_browser_players import open_live
from tests.web.test_browser_time import caught_up

from gmtools.games.exalted.models import ExaltedResources  # noqa: E402
from gmtools.games.fate.models import FateState  # noqa: E402
from rules import exalted, v5  # noqa: E402
from tests.games import Game  # noqa: E402

shot = shooter(Path("/tmp/i23-leftovers"))


# --- item 1: Exalted's stunt reward, only what the pools take --------------------------------------

def test_the_stunt_reward_waits_for_room_in_the_pools(table, lang, gm_user, dice):
    """Full pools: the card says so and offers nothing; a mote spent on the character's card makes
    room, and the card offers the one mote the pool takes (not the stunt's two), which is taken."""
    campaign = campaign_of(gm_user, Game.EXALTED)
    koi = make_character(campaign, "Koi", {"dexterity": 3, "melee": 2}, exalted_willpower=5,
                         exalted_willpower_temporary=5, exalted_motes_max=10, exalted_motes=10)
    open_table(table, campaign)
    table.select_option("#composer [name=first]", trait(koi, "dexterity"))
    table.select_option("#composer [name=second]", trait(koi, "melee"))
    table.select_option("#composer [name=stunt]", "2")
    expect(chance(table)).to_have_text(pct(lang, exalted.odds(exalted.Request(pool=5, stunt=2)).p_success))
    dice.script(7, 1, 2, 3, 4, 5, 6)  # 5 dice and 2 stunt dice: one success
    card = roll(table, expected_cards=1)
    dice.assert_all_drawn()
    expect(card.locator("[data-testid=reward-full]")).to_have_text(say(
        lang, "Stunt reward: pools full (motes and Willpower)", "Recompensa de acrobacia: reservas llenas (motas y Voluntad)"))
    expect(card.locator("[data-testid=reward]")).to_have_count(0)

    table.locator(f"#character-{koi.pk} [data-action=motes-spend]").click()
    expect(table.locator(f"#character-{koi.pk} [data-resource=motes]")).to_have_text("9/10")
    caught_up(table, campaign)
    offer = card.locator("[data-testid=reward] button")
    expect(offer).to_have_text([say(lang, "1 mote", "1 mota")])
    shot(table, f"reward-{lang}")
    offer.click()
    expect(card.locator("[data-kind=reward]")).to_contain_text(say(lang, "Regained 1 mote", "Recupera 1 mota"))
    expect(table.locator(f"#character-{koi.pk} [data-resource=motes]")).to_have_text("10/10")
    assert ExaltedResources.objects.get(character=koi).motes == 10


# --- item 2: V5's luck line after a Willpower reroll --------------------------------------------

def test_the_luck_line_after_a_willpower_reroll_names_the_reroll(table, lang, gm_user, dice):
    campaign = campaign_of(gm_user, Game.V5)
    bhavna = make_character(campaign, "Bhavna", {"strength": 2, "brawl": 1}, v5_hunger=1)
    open_table(table, campaign)
    table.select_option("#composer [name=first]", trait(bhavna, "strength"))
    table.select_option("#composer [name=second]", trait(bhavna, "brawl"))
    table.select_option("#composer [name=difficulty]", "2")
    dice.script(2, 3, 4)  # 2 normal dice and the Hunger die: no success
    card = roll(table, expected_cards=1)
    line = card.locator("[data-testid=luck]")
    expect(line).to_contain_text(say(lang, "no roll like it does worse", "ninguna tirada como esta sale peor"))  # no success
    expect(line.locator("[data-testid=luck-after]")).to_have_count(0)
    form = card.locator(".reroll-form")
    form.locator("input[name=dice][value='0']").check()
    form.locator("input[name=dice][value='1']").check()
    dice.script(10, 10)
    form.get_by_role("button", name=say(lang, "Willpower: reroll up to 3", "Fuerza de Voluntad: repetir hasta 3")).click()
    expect(card.locator("[data-kind=reroll]")).to_be_visible()
    dice.assert_all_drawn()
    request = v5.Request(pool=3, hunger=1, difficulty=2)
    rerolled = v5.luck(request, v5.reroll(request, v5.resolve(request, (2, 3), (4,)), (0, 1), (10, 10)))
    critical = next(s for s in rerolled.specials if s.code == "critical")
    expect(line.locator("[data-testid=luck-after]")).to_have_text(say(lang, "Willpower reroll:", "Repetición con Fuerza de Voluntad:"))
    expect(line).to_contain_text(say(lang, f"better than {pct(lang, rerolled.below)} of rerolls like it",
                                     f"mejor que el {pct(lang, rerolled.below)} de las repeticiones como esta"))
    expect(line.locator(".luck-special")).to_have_text(say(
        lang, f"Critical win, {pct(lang, critical.prior)} before the reroll",
        f"Victoria crítica, {pct(lang, critical.prior)} antes de la repetición"))
    shot(table, f"reroll-luck-{lang}")


# --- item 3: the sheet editor's error for a row, beside the row ----------------------------------

def test_a_refused_row_shows_its_error_beside_it_in_view(table, lang, gm_user):
    """A new row named like a standard trait ("Strength" again) is refused: the summary stays atop
    the sheet, and the panel is scrolled to the row, its field marked and focused, the error beside it
    (it was far below, out of sight, with the focus on the name at the top)."""
    campaign = campaign_of(gm_user, Game.EXALTED)
    ana = make_character(campaign, "Ana")
    open_table(table, campaign)
    table.locator(f"#character-{ana.pk} [data-testid=character-edit]").click()
    panel = table.locator("#character-panel")
    group = panel.locator("fieldset[data-category=attribute]")
    group.locator("[data-testid=add-row]").click()
    row = group.locator("[data-row-list] > .trait-row").last
    row.locator("input[name$='-name']").fill(say(lang, "Strength", "Fuerza"))
    row.locator("input[name$='-rating']").fill("2")
    panel.locator("[data-testid=character-save]").click()
    summary = panel.locator("[data-testid=sheet-errors]")
    expect(summary).to_have_text(say(lang, "Not saved: see the fields marked in red.",
                                     "No se ha guardado: mira los campos marcados en rojo."))
    refused = group.locator(".trait-row.has-errors")
    expect(refused).to_have_count(1)
    expect(refused.locator("input[name$='-name']")).to_be_focused()
    expect(refused.locator(".trait-errors")).to_have_text(say(
        lang, "This is a standard trait of the game; rate that one instead.",
        "Es un rasgo estándar del juego; puntúa ese en su lugar."))
    expect(refused.locator(".trait-errors")).to_be_in_viewport()
    # The summary is the sheet's first line: above the row, in the same panel.
    assert summary.bounding_box()["y"] < refused.bounding_box()["y"]
    shot(table, f"sheet-row-error-{lang}")
    assert ana.traits.filter(key="strength").count() == 1 and not ana.traits.filter(key="").exists()


# --- item 4: V5's odds panel, a messy critical among the critical wins ----------------------------

def test_the_odds_say_which_share_of_the_critical_wins_is_messy(table, lang, gm_user):
    campaign = campaign_of(gm_user, Game.V5)
    bhavna = make_character(campaign, "Bhavna", {"strength": 3, "brawl": 3}, v5_hunger=2)
    calm = make_character(campaign, "Calm", {"strength": 2, "brawl": 2}, v5_hunger=0)
    open_table(table, campaign)
    table.select_option("#composer [name=first]", trait(bhavna, "strength"))
    table.select_option("#composer [name=second]", trait(bhavna, "brawl"))
    o = v5.odds(v5.Request(pool=6, hunger=2, difficulty=1))
    expect(chance(table)).to_have_text(pct(lang, o.p_win))
    boxes = table.locator("#odds [data-testid=odds] .chance")
    critical, messy = boxes.nth(1), boxes.nth(2)
    expect(critical.locator(".small").first).to_have_text(say(lang, "Critical win", "Victoria crítica"))
    expect(messy.locator(".small").first).to_have_text(say(lang, "Messy critical", "Crítico conflictivo"))
    expect(critical.locator(".p")).to_have_text(pct(lang, o.p_critical))
    expect(messy.locator(".p")).to_have_text(pct(lang, o.p_messy))
    expect(messy.locator("[data-testid=chance-note]")).to_have_text(say(
        lang, f"{pct(lang, o.p_messy / o.p_critical)} of critical wins",
        f"el {pct(lang, o.p_messy / o.p_critical)} de las victorias críticas"))
    expect(critical.locator("[data-testid=chance-note]")).to_have_count(0)
    shot(table, f"v5-odds-{lang}")
    # No Hunger die: no messy critical, and no share of it to read.
    table.select_option("#composer [name=character]", str(calm.pk))
    expect(chance(table)).to_have_text(pct(lang, v5.odds(v5.Request(pool=4, difficulty=1)).p_win))
    expect(messy.locator(".p")).to_have_text(pct(lang, 0.0))
    expect(table.locator("#odds [data-testid=chance-note]")).to_have_count(0)


# --- item 5: Fate's deck, its odds and mean explained ----------------------------------------------

def test_the_fate_deck_odds_say_why_their_mean_moves(table, lang, gm_user, dice):
    """Drawing from the deck, the panel says its odds and mean are the cards left's and change with
    each draw; with four Fate dice it says nothing of a deck."""
    campaign = campaign_of(gm_user, Game.FATE)
    FateState.objects.filter(pk=campaign.pk).update(uses_deck=False, deck=[10, 20, 30, 40, 50])
    make_character(campaign, "Wizard", {"clever": 3})
    open_table(table, campaign)
    message = table.locator("#odds [data-testid=odds-message]")
    expect(table.locator("#odds [data-testid=odds]")).to_be_visible()
    expect(message).to_have_count(0)
    table.locator("#time-bar [data-testid=campaign-switch]").click()

    def explained(left: int) -> str:
        return say(lang, f"From the {left} cards left in the Fate deck: a card drawn stays out until the deck is "
                         "shuffled, so the odds and the mean change with every draw.",
                   f"De las {left} cartas que quedan en la Baraja Fate: una carta robada no vuelve hasta que se "
                   "baraja de nuevo, así que las probabilidades y la media cambian con cada robo.")
    expect(message).to_have_text(explained(5))
    mean = table.locator("#odds .odds-chart + div")
    before = mean.text_content()
    roll(table, expected_cards=1)  # card 10 drawn: four cards left, another mean
    expect(message).to_have_text(explained(4))
    expect(mean).not_to_have_text(before)
    assert dice.drawn == []
    shot(table, f"fate-deck-{lang}")


# --- item 6: Exalted's personal motes (and Willpower) say which number is which --------------------

def test_personal_motes_and_willpower_read_as_now_of_most(table, lang, gm_user):
    campaign = campaign_of(gm_user, Game.EXALTED)
    koi = make_character(campaign, "Koi", exalted_willpower=6, exalted_willpower_temporary=4,
                         exalted_motes_max=13, exalted_motes=7)
    open_table(table, campaign)
    for page, card in (("table", f"#character-{koi.pk}"), ("players", "#party")):
        if page == "players":
            table.goto(f"/p/{campaign.player_token}/")
        motes = table.locator(f"{card} [data-resource=motes]")
        expect(motes).to_have_text("7/13")
        expect(motes).to_have_attribute("title", say(lang, "7 now of a pool of 13", "7 ahora de una reserva de 13"))
        expect(table.locator(f"{card} .resource", has=table.locator("[data-resource=motes]"))).to_contain_text(say(lang, "Personal motes", "Motas personales"))
        willpower = table.locator(f"{card} [data-resource=willpower]")
        expect(willpower).to_have_text("4/6")
        expect(willpower).to_have_attribute("title", say(lang, "4 temporary of 6 permanent", "4 temporal de 6 permanente"))
        shot(table, f"motes-{page}-{lang}")


# --- item 7: the luck page's runs and "Spent" ---------------------------------------------------

def test_the_luck_page_counts_stunts_spent_and_no_tie_in_a_run(table, lang, gm_user, dice):
    campaign = campaign_of(gm_user, Game.FATE)
    FateState.objects.filter(pk=campaign.pk).update(uses_deck=False)
    make_character(campaign, "Bo", {"forceful": 1})
    open_table(table, campaign)
    for faces, cards in (((0, 0, 0, 0), 1), ((0, 0, 0, 0), 2), ((-1, 0, 0, 0), 3), ((0, 0, 0, 0), 4)):
        dice.script(*faces)  # success, success, a tie, success
        roll(table, expected_cards=cards)
    dice.assert_all_drawn()
    table.locator("[data-testid=luck-link]").click()
    expect(table.locator("[data-testid=streak-successes]")).to_have_text("2")  # the tie ends the run
    shot(table, f"luck-fate-{lang}")

    exalted_campaign = campaign_of(gm_user, Game.EXALTED)
    koi = make_character(exalted_campaign, "Koi", {"dexterity": 3, "melee": 2})
    open_table(table, exalted_campaign)
    table.select_option("#composer [name=first]", trait(koi, "dexterity"))
    table.select_option("#composer [name=second]", trait(koi, "melee"))
    table.select_option("#composer [name=stunt]", "2")
    expect(chance(table)).to_have_text(pct(lang, exalted.odds(exalted.Request(pool=5, stunt=2)).p_success))
    dice.script(7, 1, 2, 3, 4, 5, 6)
    roll(table, expected_cards=1)
    table.locator("[data-testid=luck-link]").click()
    spent = table.locator("[data-testid=stats-spent]")
    expect(spent.locator("dt")).to_have_text([say(lang, "Willpower", "Voluntad"), say(lang, "Stunts", "Acrobacias")])
    expect(spent.locator("dd")).to_have_text(["0", "1"])
    shot(table, f"luck-exalted-{lang}")


# --- item 8: the TV's empty log, its heading read across a room -----------------------------------

def test_the_tv_log_heading_is_the_size_of_its_other_headings(browser, asgi_server, gm_user, lang):
    campaign = campaign_of(gm_user, Game.V5)
    make_character(campaign, "Bhavna", v5_hunger=1)
    tv = tv_page(browser, asgi_server, {"en": "en-US", "es": "es-ES"}[lang])
    open_live(tv, f"/p/{campaign.player_token}/tv/")
    heading = tv.page.locator(".player-log h2")
    expect(heading).to_have_text(say(lang, "Roll log", "Registro de tiradas"))
    expect(tv.page.locator("#log-list [data-empty]")).to_be_visible()

    def size(locator) -> float:
        return float(locator.evaluate("el => getComputedStyle(el).fontSize").removesuffix("px"))
    # As big as the scene line under the campaign's name, bigger than the log's own text.
    assert size(heading) == size(tv.page.locator(".where").first)
    assert size(heading) > size(tv.page.locator("#log-list [data-empty]"))
    shot(tv.page, f"tv-empty-{lang}")
    tv.check()
    tv.page.context.close()
