"""Issue 23, items 10 and 11, in a real browser, in English and in Spanish: the turn order's names
pick the character in the composer (by click and by keyboard) and the composer follows "to act"
(Next turn, a roll, the same from another tab) unless the GM is mid-edit; an opposed roll names the
opposing character and its traits, priced, rolled and shown on the card.

The GM's table as ``make run`` serves it (uvicorn, DEBUG on: test_browser's ``asgi_server``) at
1366×768; every die is scripted. The server side is test_issue23_turns.py.
Screenshots: ``/tmp/i23-turns/``.
"""

from __future__ import annotations

import re
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
from tests.web.test_browser_hitches import assert_same_page, chance, gm_table, lang, open_extras, open_table, pct, say  # noqa: F401
from tests.web.test_browser_time import caught_up

from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

from gmtools import services  # noqa: E402
from gmtools.models import Character, Roll  # noqa: E402
from rules import exalted  # noqa: E402
from tests.games import Game  # noqa: E402

SHOTS = Path("/tmp/i23-turns")
shot = shooter(SHOTS)


@pytest.fixture
def table(browser, asgi_server, gm_user, lang):
    with gm_table(browser, asgi_server, gm_user, lang) as page:
        page.add_init_script("window.__sameDocument = 'still here'")
        yield page


def composer_holds(page, lang: str, character: Character, first: str, second: str, pool: int) -> None:
    """The composer is the character's, with its best pool and that pool's odds (difficulty 1)."""
    expect(page.locator("#composer [name=character]")).to_have_value(str(character.pk))
    expect(page.locator("#composer [name=first]")).to_have_value(trait(character, first))
    expect(page.locator("#composer [name=second]")).to_have_value(trait(character, second))
    expect(chance(page)).to_have_text(pct(lang, exalted.odds(exalted.Request(pool=pool, difficulty=1)).p_success))


def name_in_order(page, character: Character):
    return page.locator(f"#turn-order [data-pick-character='{character.pk}']")


@pytest.fixture
def cast(gm_user):
    """Koi and Smith (PCs) and the Garrison guard, no scene in play."""
    campaign = campaign_of(gm_user, Game.EXALTED)
    koi = make_character(campaign, "Koi", {"dexterity": 4, "dodge": 3})
    smith = make_character(campaign, "Smith", {"dexterity": 3, "archery": 3})
    guard = make_character(campaign, "Garrison guard", {"strength": 3, "melee": 2, "perception": 2, "awareness": 1},
                           kind="npc")
    return campaign, koi, smith, guard


@pytest.fixture
def trio(cast):
    """The cast in a scene's turn order, in that order."""
    scene = services.start_scene(cast[0])
    services.join_scene(scene, cast[3])
    return cast


def other_tab() -> Client:
    client = Client()
    client.force_login(Character.objects.first().campaign.gm)
    return client


def test_the_turn_order_picks_and_the_composer_follows_to_act(table, lang, trio, dice):
    campaign, koi, smith, guard = trio
    open_table(table, campaign)
    table.evaluate("document.body.dataset.hitchMark = 'same body'")
    # The table opens on the character to act.
    composer_holds(table, lang, koi, "dexterity", "dodge", 7)

    # A click on a name in the turn order picks that character, its best pool and odds drawn.
    name_in_order(table, smith).click()
    composer_holds(table, lang, smith, "dexterity", "archery", 6)
    # From the keyboard: the name is a button (Tab to it, Enter).
    name_in_order(table, guard).focus()
    table.keyboard.press("Enter")
    composer_holds(table, lang, guard, "strength", "melee", 5)
    shot(table, f"picked-from-turn-order-{lang}")

    # Koi rolls, and has acted: the composer follows the turn order to Smith.
    name_in_order(table, koi).click()
    composer_holds(table, lang, koi, "dexterity", "dodge", 7)
    dice.script(*(5,) * 7)
    expect(table.get_by_test_id("followed-note")).to_have_count(0)  # the GM's own pick: nothing to say
    roll(table, expected_cards=1)
    expect(table.locator("#turn-order [aria-current=step]")).to_have_attribute("data-order-id", str(smith.pk))
    composer_holds(table, lang, smith, "dexterity", "archery", 6)
    # The move is said under the list (the second walkthrough: a GM rolled for the next character unaware).
    expect(table.get_by_test_id("followed-note")).to_have_text(say(
        lang, "To act in the turn order: the composer moved to this character.",
        "Le toca actuar en el orden de turno: la tirada pasó a este personaje."))

    # Mid-edit: the GM has changed the modifier of Smith's roll; the turn moves on from another tab
    # (Next turn: Koi to act again). The composer keeps the GM's roll in the making.
    table.fill("#composer [name=modifier]", "-1")
    assert other_tab().post(reverse("time", args=[campaign.pk]), {"do": "next-turn"}).status_code == 200
    caught_up(table, campaign)
    expect(table.locator("#turn-order [aria-current=step]")).to_have_attribute("data-order-id", str(koi.pk))
    expect(table.locator("#composer [name=character]")).to_have_value(str(smith.pk))
    expect(table.locator("#composer [name=modifier]")).to_have_value("-1")
    # Once that roll is made, the composer follows to the one to act.
    dice.script(*(5,) * 5)
    roll(table, expected_cards=2)
    assert Roll.objects.order_by("-id").first().character == smith
    composer_holds(table, lang, koi, "dexterity", "dodge", 7)

    # Nothing changed in the composer: a roll made in another tab moves "to act" and the composer follows.
    dice.script(*(5,) * 7)
    data = {"character": koi.pk, "first": trait(koi, "dexterity"), "second": trait(koi, "dodge"), "dice": 0,
            "modifier": 0, "difficulty": 1, "stunt": 0, "pool_from": "traits"}
    assert other_tab().post(reverse("roll", args=[campaign.pk]), data).status_code == 200
    caught_up(table, campaign)
    expect(cards(table)).to_have_count(3)
    # Smith rolled this turn already: the Garrison guard is to act.
    expect(table.locator("#turn-order [aria-current=step]")).to_have_attribute("data-order-id", str(guard.pk))
    composer_holds(table, lang, guard, "strength", "melee", 5)

    # The GM's own Next turn: Koi, first in the order, is to act, and the composer follows.
    table.locator("#next-turn").click()
    expect(table.locator("#turn-order [aria-current=step]")).to_have_attribute("data-order-id", str(koi.pk))
    composer_holds(table, lang, koi, "dexterity", "dodge", 7)
    expect(name_in_order(table, koi)).to_have_attribute("title", say(lang, "Roll for this character",
                                                                     "Preparar la tirada de este personaje"))
    assert_same_page(table)
    shot(table, f"followed-to-act-{lang}")


def test_an_opposed_roll_picks_the_opposing_character_and_its_traits(table, lang, cast, dice):
    campaign, koi, smith, guard = cast  # no scene: no turn order for the composer to follow
    open_table(table, campaign)
    table.evaluate("document.body.dataset.hitchMark = 'same body'")
    composer_holds(table, lang, koi, "dexterity", "dodge", 7)
    open_extras(table)
    box = table.locator("#composer-opposition")
    expect(box.locator("label").first).to_have_text(say(lang, "Opposing character", "Personaje opositor"))

    # The Garrison guard opposes: its trait lists come, its best pool chosen (Strength 3 + Melee 2),
    # none of Koi's traits among them, and the odds price Koi's 7 dice against its 5.
    table.select_option("#composer [name=opponent_character]", str(guard.pk))
    expect(box.locator("[name=opponent_first]")).to_have_value(trait(guard, "strength"))
    expect(box.locator("[name=opponent_second]")).to_have_value(trait(guard, "melee"))
    expect(box.locator(f"[name=opponent_first] option[value='{trait(koi, 'dexterity')}']")).to_have_count(0)
    expect(chance(table)).to_have_text(pct(lang, exalted.contest(exalted.Request(pool=7), exalted.Request(pool=5)).p_win))
    expect(table.locator("#composer [name=difficulty]")).to_have_class(re.compile(r"\bopposed-ignored\b"))
    # Its other traits (3 dice), and a die more (4): the odds follow.
    table.select_option("#composer [name=opponent_first]", trait(guard, "perception"))
    table.select_option("#composer [name=opponent_second]", trait(guard, "awareness"))
    expect(chance(table)).to_have_text(pct(lang, exalted.contest(exalted.Request(pool=7), exalted.Request(pool=3)).p_win))
    table.fill("#composer [name=opponent_dice]", "1")
    expect(chance(table)).to_have_text(pct(lang, exalted.contest(exalted.Request(pool=7), exalted.Request(pool=4)).p_win))
    shot(table, f"opposed-composer-{lang}")

    # The roll: Koi's 7 dice, then the guard's 4; the card names the guard and its traits.
    dice.script(7, 8, 9, 2, 3, 4, 1, 7, 7, 2, 3)
    card = roll(table, expected_cards=1)
    dice.assert_all_drawn()
    opposition = card.locator("[data-testid=opposition]")
    expect(opposition).to_contain_text(say(lang, "vs Garrison guard · Perception + Awareness:",
                                           "contra Garrison guard · Percepción + Consciencia:"))
    expect(opposition.locator(".die")).to_have_count(4)
    assert faces(card) == [7, 8, 9, 2, 3, 4, 1]
    expect(card.locator("[data-testid=verdict]")).to_have_text(say(lang, "Koi wins by 1", "Koi gana por 1"))
    # The opposition was that roll's: the next one starts unopposed, its lists empty.
    expect(table.locator("#composer [name=opponent_character]")).to_have_value("")
    expect(box.locator("[name=opponent_first] option[value]:not([value=''])")).to_have_count(0)
    shot(table, f"opposed-card-{lang}")

    # A trait of another character than the opponent (a page drawn before the GM picked Smith in
    # another way) is refused inline, in the odds, and the Roll button says so.
    table.select_option("#composer [name=opponent_character]", str(guard.pk))
    expect(box.locator("[name=opponent_first]")).to_have_value(trait(guard, "strength"))
    table.evaluate(f"document.querySelector('#composer [name=opponent_character]').value = '{smith.pk}'")
    table.fill("#composer [name=modifier]", "1")
    expect(table.locator("#odds [data-testid=odds-error]")).to_contain_text(say(
        lang, "This trait is not the opposing character's", "Este rasgo no es del personaje opositor"))
    expect(table.locator("#roll-button")).to_be_disabled()
    assert Roll.objects.count() == 1
    assert_same_page(table)
