"""Issue 23, items 1 and 2, in a real browser, in English and in Spanish: an extended action made for
one character is on offer to that character only, never chosen by itself, and a roll posted into
another's anyway is refused beside the Roll button; a double click on Roll is one roll and one
spend in every game, and two requests with the same key sent at once (past the button) are one
roll too.

The GM's table as ``make run`` serves it (uvicorn, DEBUG on: test_browser's ``asgi_server``) at
1366×768; every die is scripted. The server side is test_roll_once.py. Screenshots:
``/tmp/i23-once/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.web.test_browser import (  # noqa: F401
    asgi_server,
    browser,
    campaign_of,
    cards,
    dice,
    expect,
    faces,
    gm_user,
    make_character,
    pytestmark,
    roll,
    shooter,
    trait,
)
from tests.web.test_browser_hitches import assert_same_page, gm_table, lang, open_extras, open_table, say, table  # noqa: F401
from tests.web.test_browser_time import caught_up

from gmtools import services  # noqa: E402
from gmtools.models import ExtendedAction, Roll, Scene  # noqa: E402
from tests.games import Game  # noqa: E402
from tests.web.helpers import POOL_TRAITS  # noqa: E402

SHOTS = Path("/tmp/i23-once")
shot = shooter(SHOTS)


def pick(page, character, first: str, second: str) -> None:
    """Pick the character in the composer, wait for its composer, and choose two of its traits."""
    page.select_option("#composer [name=character]", str(character.pk))
    first_option = page.locator(f"#composer [name=first] option[value='{trait(character, first)}']")
    expect(first_option).to_be_attached()
    page.select_option("#composer [name=first]", trait(character, first))
    page.select_option("#composer [name=second]", trait(character, second))


def idle(page, campaign) -> None:
    """No roll on its way, and every change so far applied by the page's live stream."""
    expect(page.locator("#composer.htmx-request")).to_have_count(0)
    caught_up(page, campaign)


# --- item 1 ----------------------------------------------------------------------------------

def test_an_extended_action_made_for_koi_does_not_catch_the_commanders_roll(table, lang, gm_user, dice):
    """The walkthrough (107): with the Garrison commander in the composer, "Climb the wall" made for
    Koi came in chosen, took the commander's roll and read "Koi · Strength + Melee"."""
    campaign = campaign_of(gm_user, Game.EXALTED)
    koi = make_character(campaign, "Koi", {"strength": 2, "dexterity": 3, "athletics": 2, "melee": 1})
    commander = make_character(campaign, "Garrison commander", {"strength": 3, "melee": 3}, kind="npc")
    services.start_scene(campaign)
    open_table(table, campaign)
    pick(table, commander, "strength", "melee")
    open_extras(table)

    extended = table.locator("#extended-list")
    extended.locator("details summary").click()
    form = extended.locator("form")
    form.locator("[name=name]").fill("Climb the wall")
    form.locator("[name=character]").select_option(str(koi.pk))
    form.locator("[name=goal]").fill("10")
    form.locator("button[type=submit]").click()
    wall_card = table.locator("#extended-list .extended-action", has_text="Climb the wall")
    expect(wall_card).to_have_count(1)
    wall = ExtendedAction.objects.get(campaign=campaign)

    # On offer to Koi only: not chosen, not offered to the commander.
    into = table.locator("#composer [name=extended]")
    wall_option = into.locator(f"option[value='{wall.pk}']")
    expect(wall_option).to_be_attached()
    expect(wall_option).to_have_js_property("disabled", True)
    expect(into).to_have_value("")
    shot(table, f"new-action-not-chosen-{lang}")

    dice.script(7, 8, 2, 3, 4, 5)
    card = roll(table, expected_cards=1)
    expect(card.locator("[data-testid=into-extended]")).to_have_count(0)
    idle(table, campaign)
    expect(wall_card.locator("[data-testid=extended-status]")).to_contain_text(say(lang, "0 rolls", "0 tiradas"))
    expect(wall_card.locator("strong + span")).to_have_text("Koi")  # no traits yet, never "Koi · Strength + Melee"
    wall.refresh_from_db()
    assert (wall.character, wall.traits, wall.rolls) == (koi, "", 0)

    # A choice posted anyway (a list drawn before the action was Koi's, say): refused beside the button.
    # The GM is composing the commander's roll (a field changed): the composer stays his when the turn
    # moves on and Koi is to act again (item 10: it follows "to act" only when not mid-edit).
    open_extras(table)
    table.fill("#composer [name=label]", "Over the wall")
    services.change_turn(Scene.objects.current(campaign), 1)  # the commander's next turn: a roll he may make
    idle(table, campaign)
    expect(table.locator("#roll-button")).to_be_enabled()
    expect(table.locator("#composer [name=character]")).to_have_value(str(commander.pk))
    # Forged as the roll leaves, not in the list: the list is fitted to the composer's character again
    # whenever a swap settles (the odds follow the turn 150 ms after it), which would undo a forged pick.
    table.evaluate(f"""() => {{ document.body.addEventListener("htmx:configRequest", function forge(e) {{
                                   if (e.detail.elt.id !== "composer") return;
                                   e.detail.parameters["extended"] = "{wall.pk}";
                                   document.body.removeEventListener("htmx:configRequest", forge); }}); }}""")
    table.click("#roll-button")
    refusal = table.locator("#composer [data-testid=refusal]")
    expect(refusal).to_contain_text(say(lang, "only Koi's rolls go into it", "solo las tiradas de Koi se suman a ella"))
    expect(cards(table)).to_have_count(1)
    shot(table, f"another-characters-action-refused-{lang}")
    assert Roll.objects.filter(campaign=campaign).count() == 1

    # Koi's composer offers it; the GM picks it; Koi's roll goes in and names Koi's traits.
    pick(table, koi, "dexterity", "athletics")
    open_extras(table)
    expect(wall_option).to_have_js_property("disabled", False)
    expect(into).to_have_value("")
    into.select_option(str(wall.pk))
    dice.script(7, 8, 10, 2, 3)
    card = roll(table, expected_cards=2)
    expect(card.locator("[data-testid=into-extended]")).to_be_visible()
    expect(wall_card.locator(".progress-bar")).to_have_text("4/10")
    expect(wall_card.locator("strong + span")).to_have_text(f"Koi · {Roll.objects.filter(campaign=campaign).first().label}")
    dice.assert_all_drawn()
    assert_same_page(table)


# --- item 2 ----------------------------------------------------------------------------------

def script_one_roll(dice, game: str, pool: int) -> None:
    """Faces for one roll of ``pool`` dice (Fate: four Fate dice; scifi: its d10s)."""
    if game == Game.FATE:
        dice.script(1, 0, -1, 1)
    else:
        dice.script(*([7] * pool))


@pytest.mark.parametrize("game", [Game.EXALTED, Game.V5, Game.FATE, Game.SCIFI])
def test_a_double_click_on_roll_is_one_roll_and_one_spend(table, lang, gm_user, dice, game):
    """The walkthrough (89): two clicks on Roll 80 ms apart made two rolls and spent two actions."""
    campaign = campaign_of(gm_user, game)
    first, second = POOL_TRAITS[game]
    ratings = {first: 2, **({second: 1} if second else {})}
    koi = make_character(campaign, "Koi", ratings, **({"exalted_willpower_temporary": 3} if game == Game.EXALTED else {}))
    services.start_scene(campaign)
    open_table(table, campaign)
    table.select_option("#composer [name=first]", trait(koi, first))
    if second:
        table.select_option("#composer [name=second]", trait(koi, second))
    if game == Game.EXALTED:
        table.check("#composer [name=willpower]")  # a spend the second click would make again
    expect(table.locator("#odds [data-testid=odds]")).to_be_visible()
    rolls_posted = []
    table.on("request", lambda r: r.method == "POST" and r.url.endswith(f"/campaigns/{campaign.pk}/roll/")
             and rolls_posted.append(r.url))
    script_one_roll(dice, game, sum(ratings.values()))

    table.locator("#roll-button").dblclick()

    expect(cards(table)).to_have_count(1)
    idle(table, campaign)
    expect(cards(table)).to_have_count(1)
    assert len(rolls_posted) == 1  # the second click found the button off, the roll on its way
    assert Roll.objects.filter(campaign=campaign).count() == 1
    if game == Game.EXALTED:
        koi.refresh_from_db()
        assert koi.resources.willpower_temporary == 2
    dice.assert_all_drawn()
    shot(table, f"double-click-{game}-{lang}")

    # Past the button (two requests with the composer's key at once): the server makes one roll.
    services.change_turn(Scene.objects.current(campaign), 1)  # the character's next turn: a roll it may make
    idle(table, campaign)
    expect(table.locator("#roll-button")).to_be_enabled()  # on again once the roll is made (and the turn allows)
    script_one_roll(dice, game, sum(ratings.values()))
    statuses = table.evaluate(f"""async () => {{
        const form = document.getElementById("composer");
        const token = JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
        const post = () => fetch("/campaigns/{campaign.pk}/roll/", {{method: "POST", body: new FormData(form),
                                 headers: {{"X-CSRFToken": token, "HX-Request": "true"}}}});
        const answers = await Promise.all([post(), post()]);
        return answers.map((a) => a.status).sort();
    }}""")
    assert statuses == [200, 422], statuses
    idle(table, campaign)
    assert Roll.objects.filter(campaign=campaign).count() == 2
    expect(cards(table)).to_have_count(2)
    dice.assert_all_drawn()
    assert_same_page(table)
