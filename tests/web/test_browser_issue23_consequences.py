"""Issue 23 leftovers in a real browser, in English and in Spanish: a Fate consequence names on its
card whoever inflicted it ("free for Brann"), whose invocation of it is then free, once, and back
once voided.

The GM's table as ``make run`` serves it (uvicorn, DEBUG on: test_browser's ``asgi_server``) at
1366×768; every die is scripted. The server side is test_issue23_fate.py. Screenshots:
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
from tests.web.test_browser_hitches import assert_same_page, gm_table, lang, open_table, say, table  # noqa: F401

from gmtools import services  # noqa: E402
from gmtools.games.fate.models import FateResources  # noqa: E402
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
