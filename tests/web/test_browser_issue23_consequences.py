"""Issue 23 leftovers in a real browser, in English and in Spanish: a Fate consequence names on its
card whoever inflicted it ("free for Brann"), whose invocation of it is then free, once, and back
once voided; picking an extended action in the composer selects the traits it is rolled with, and
the odds follow.

The GM's table as ``make run`` serves it (uvicorn, DEBUG on: test_browser's ``asgi_server``) at
1366×768; every die is scripted. The server side is test_issue23_fate.py and test_extended_actions.py. Screenshots:
``/tmp/i23c-leftovers/``.
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
)
from tests.web.test_browser import trait
from tests.web.test_browser_hitches import (  # noqa: F401
    assert_same_page, chance, gm_table, lang, open_extras, open_table, pct, say, table,
)

from gmtools import services  # noqa: E402
from gmtools.games.fate.models import FateResources  # noqa: E402
from gmtools.models import ExtendedAction  # noqa: E402
from rules import exalted  # noqa: E402
from tests.games import Game  # noqa: E402

shot = shooter(Path("/tmp/i23c-leftovers"))


def free_for(character) -> int | None:
    return FateResources.objects.get(character=character).consequence_moderate_free_for_id


def test_a_consequence_is_free_once_for_whoever_inflicted_it_named_on_its_card(table, lang, gm_user, dice):
    campaign = campaign_of(gm_user, Game.FATE)
    brann = make_character(campaign, "Brann", {"forceful": 2}, fate_points=0)
    guard = make_character(campaign, "Fortress guard", {"careful": 1}, kind="npc", fate_points=1)
    services.join_scene(services.start_scene(campaign, title="At the fortress gate"), guard)
    open_table(table, campaign)

    # The GM writes the guard's consequence on its card, then who inflicted it.
    card = table.locator(f"#character-{guard.pk}")
    card.get_by_role("textbox", name=say(lang, "Moderate (4)", "Moderada (4)")).fill("Broken nose")
    card.get_by_role("textbox", name=say(lang, "Moderate (4)", "Moderada (4)")).press("Tab")
    chosen = card.locator("[data-testid=free-for]")
    expect(chosen).to_have_value("")
    expect(chosen.locator("option:checked")).to_have_text(say(lang, "no free invocation", "sin invocación gratuita"))
    chosen.select_option(label=say(lang, "free for Brann", "gratis para Brann"))
    # Drawn again by the server with it chosen (the stream's echo included).
    expect(card.locator("[data-testid=free-for] option[selected]")).to_have_text(
        say(lang, "free for Brann", "gratis para Brann"))
    assert free_for(guard) == brann.pk
    shot(table, f"card-{lang}")

    # Brann has no fate point, yet the composer offers it: his invocation of it is free.
    consequence = table.locator("#composer-invoke [data-testid=invoke-consequence]")
    expect(consequence).to_have_text(say(lang, "Broken nose (Fortress guard, moderate consequence, free)",
                                         "Broken nose (Fortress guard, consecuencia moderada, gratis)"))
    consequence.locator("input").check()
    dice.script(0, 0, 0, 0)
    table.click("#roll-button")
    expect(cards(table)).to_have_count(1)
    roll = cards(table).first
    expect(roll.locator("[data-testid=invoked]")).to_contain_text(say(lang, "“Broken nose” (free)", "«Broken nose» (gratuita)"))
    expect(roll.locator("[data-testid=count]")).to_contain_text("+4")  # Forceful 2, the dice 0, +2
    # Once: the guard's card says nobody's now.
    expect(card.locator("[data-testid=free-for] option[selected]")).to_have_count(0)
    expect(card.locator("[data-testid=free-for]")).to_have_value("")
    assert free_for(guard) is None and FateResources.objects.get(character=brann).points == 0

    # Voiding the roll gives the free invocation back.
    table.on("dialog", lambda dialog: dialog.accept())
    roll.locator("[data-testid=void]").click()
    expect(card.locator("[data-testid=free-for] option[selected]")).to_have_text(
        say(lang, "free for Brann", "gratis para Brann"))
    assert free_for(guard) == brann.pk
    assert_same_page(table)


def test_picking_an_extended_action_selects_the_traits_it_is_rolled_with_and_the_odds_follow(table, lang, gm_user, dice):
    campaign = campaign_of(gm_user, Game.EXALTED)
    koi = make_character(campaign, "Koi", {"strength": 2, "dexterity": 3, "athletics": 2, "melee": 4})
    open_table(table, campaign)
    table.select_option("#composer [name=first]", trait(koi, "dexterity"))
    table.select_option("#composer [name=second]", trait(koi, "melee"))
    expect(chance(table)).to_have_text(pct(lang, exalted.odds(exalted.Request(pool=7)).p_success))

    # The GM makes "Climb the wall" for Koi, naming its traits as the page says them.
    extended = table.locator("#extended-list")
    extended.locator("details summary").click()
    form = extended.locator("form")
    form.locator("[name=name]").fill("Climb the wall")
    form.locator("[name=character]").select_option(str(koi.pk))
    form.locator("[name=traits]").fill(say(lang, "Strength + Athletics", "Fuerza + Atletismo"))
    form.locator("[name=goal]").fill("10")
    form.locator("button[type=submit]").click()
    expect(table.locator("#extended-list .extended-action", has_text="Climb the wall")).to_have_count(1)
    wall = ExtendedAction.objects.get(campaign=campaign)
    assert (wall.first_id, wall.second_id) == (int(trait(koi, "strength")), int(trait(koi, "athletics")))
    # On offer, not chosen: the composer keeps the GM's traits.
    into = table.locator("#composer [name=extended]")
    expect(into.locator(f"option[value='{wall.pk}']")).to_be_enabled()
    expect(table.locator("#composer [name=first]")).to_have_value(trait(koi, "dexterity"))

    # Picked: Strength + Athletics in the composer, and the odds of their four dice.
    open_extras(table)
    into.select_option(str(wall.pk))
    expect(table.locator("#composer [name=first]")).to_have_value(trait(koi, "strength"))
    expect(table.locator("#composer [name=second]")).to_have_value(trait(koi, "athletics"))
    expect(chance(table)).to_have_text(pct(lang, exalted.odds(exalted.Request(pool=4)).p_success))
    shot(table, f"extended-picked-{lang}")
    dice.script(7, 8, 2, 3)
    table.click("#roll-button")
    expect(cards(table)).to_have_count(1)
    expect(cards(table).first.locator("[data-testid=into-extended]")).to_contain_text("Climb the wall")
    assert ExtendedAction.objects.get(pk=wall.pk).total == 2
    assert_same_page(table)
