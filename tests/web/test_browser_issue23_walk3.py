"""Issue 23, the third walkthrough's findings (V5 and wording), in a real browser, in English and in
Spanish: each game's own word for Willpower (V5 says *Fuerza de Voluntad*, Exalted *Voluntad*); a V5
automatic win that the pool cannot earn turns Roll off and says why; a failed rouse check at Hunger 5
says it calls for a hunger frenzy test, not that Hunger rises; a sci-fi turn's refusal reads as one
sentence; the luck line says "no roll like it does worse" rather than "better than 0%".

The GM's table as ``make run`` serves it (test_browser's ``asgi_server``) at 1366×768; every die is
scripted. The server side sits beside the tests it extends: test_services, test_table, test_time,
test_i18n and tests/rules/test_scifi.
"""

from __future__ import annotations

import re

import pytest

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
    roll,
    trait,
)
from tests.web.test_browser_hitches import assert_same_page, chance, gm_table, lang, open_table, pct, say, table  # noqa: F401

from django.utils import translation  # noqa: E402

from gmtools import games, services  # noqa: E402
from gmtools.games.v5.models import V5Resources  # noqa: E402
from gmtools.luck import band_words  # noqa: E402
from gmtools.models import Roll  # noqa: E402
from rules import v5  # noqa: E402
from tests.games import Game  # noqa: E402


# --- A4: each game's Willpower ------------------------------------------------------------------

@pytest.mark.parametrize("game, ratings, spanish", [
    (Game.V5, {"composure": 2, "resolve": 3}, "Tirada de Fuerza de Voluntad"),
    (Game.EXALTED, {"dexterity": 3}, "Tirada de Voluntad"),
])
def test_the_card_and_the_composer_name_willpower_rolls_in_the_games_own_words(table, lang, gm_user, game, ratings, spanish):
    campaign = campaign_of(gm_user, game)
    mara = make_character(campaign, "Mara", ratings)
    open_table(table, campaign)
    card = table.locator(f"#character-{mara.pk}")
    card.locator("details.card-traits summary").click()
    dice = games.get(game).composer.sheet_pool("willpower").dice(mara)
    expect(card.locator("[data-pool=willpower]")).to_have_text(f"{say(lang, 'Willpower roll', spanish)} {dice}")
    expect(table.locator("#composer [name=pool_from] option[value=willpower]")).to_have_text(
        say(lang, "Willpower roll", spanish))


# --- B8: an automatic win the pool cannot earn ---------------------------------------------------

def test_an_automatic_win_under_twice_the_difficulty_turns_roll_off_and_says_why(table, lang, gm_user, dice):
    campaign = campaign_of(gm_user, Game.V5)
    ratings = {"wits": 3, "investigation": 3}
    marcos = make_character(campaign, "Marcos", ratings)
    open_table(table, campaign)
    table.select_option("#composer [name=first]", trait(marcos, "wits"))
    table.select_option("#composer [name=second]", trait(marcos, "investigation"))
    table.select_option("#composer [name=shortcut]", "automatic")
    pool, difficulty = sum(ratings.values()), 4
    table.select_option("#composer [name=difficulty]", str(difficulty))
    why = say(lang, f"An automatic win needs at least {2 * difficulty} dice (twice difficulty {difficulty}), "
                    f"the pool has {pool}",
              f"Una victoria automática necesita al menos {2 * difficulty} dados (el doble de la dificultad "
              f"{difficulty}); la reserva tiene {pool}")
    button = table.locator("#roll-button")
    expect(table.locator("#odds [data-testid=odds-error]")).to_have_text(why)
    expect(button).to_be_disabled()
    expect(button).to_have_text(say(lang, "Cannot roll: see why below", "No se puede tirar: mira abajo por qué"))

    # A click that gets through anyway (a stale page) is refused, nothing logged, in a box whose ✕
    # covers none of its words.
    button.evaluate("b => { b.disabled = false; }")
    button.click()
    refusal = table.locator("#composer [data-testid=refusal]")
    expect(refusal).to_have_text(why)
    text, close = refusal.evaluate("""box => { const range = document.createRange();
        range.selectNodeContents(box.firstChild);
        return [range.getBoundingClientRect().right, box.querySelector('.btn-close').getBoundingClientRect().left]; }""")
    assert text <= close, f"the ✕ covers the refusal's text: it ends at {text}px, the ✕ starts at {close}px"
    expect(cards(table)).to_have_count(0)

    # Half the pool earns it: Roll is back, and the odds say the win is certain.
    table.select_option("#composer [name=difficulty]", str(pool // 2))
    expect(button).to_be_enabled()
    expect(chance(table)).to_have_text(pct(lang, 1.0))
    expect(table.locator("#odds [data-testid=odds] .chance").first).to_contain_text(
        say(lang, "Automatic win", "Victoria automática"))
    assert_same_page(table)


# --- C4: a failed rouse check at Hunger 5 -------------------------------------------------------

@pytest.mark.parametrize("hunger", [2, 5])
def test_a_failed_rouse_check_says_what_it_does_to_hunger(table, lang, gm_user, dice, hunger):
    """Hunger rises after a failed rouse check; at 5 it cannot, and the failure calls for a hunger
    frenzy test: the headline says which, beside the count of Hunger before and after."""
    campaign = campaign_of(gm_user, Game.V5)
    bhavna = make_character(campaign, "Bhavna", {"strength": 2}, v5_hunger=hunger)
    open_table(table, campaign)
    dice.script(3)  # under 6: failed
    table.locator(f"#character-{bhavna.pk} button[hx-post$='/check/rouse/']").click()
    expect(cards(table)).to_have_count(1)
    dice.assert_all_drawn()
    after = min(hunger + 1, v5.MAX_HUNGER)
    assert V5Resources.objects.get(pk=bhavna.pk).hunger == after
    card = cards(table).first
    if after > hunger:
        verdict = say(lang, "Rouse check failed: Hunger rises", "Control de Enardecimiento fallido: el Ansia sube")
    else:
        verdict = say(lang, "Rouse check failed: hunger frenzy test",
                      "Control de Enardecimiento fallido: prueba de frenesí de hambre")
    expect(card.locator("[data-testid=verdict]")).to_have_text(verdict)
    expect(card.locator("[data-testid=count]")).to_have_text(f"{say(lang, 'Hunger', 'Ansia')} {hunger} → {after}")
    assert_same_page(table)


# --- C1: a sci-fi refusal reads as a sentence ---------------------------------------------------

def test_a_scifi_turn_refusal_reads_as_one_sentence(table, lang, gm_user, dice):
    """"an extended action" (never "a extended"), and firing twice in a turn said without a second colon."""
    campaign = campaign_of(gm_user, Game.SCIFI)
    raider = make_character(campaign, "Raider 1", {"perception": 3, "survival": 2})
    services.start_scene(campaign, title="Ambush at the river")
    open_table(table, campaign)
    table.select_option("#composer [name=first]", trait(raider, "perception"))
    table.select_option("#composer [name=second]", trait(raider, "survival"))
    table.select_option("#composer [name=kind]", "fire")
    dice.script(4, 9, 2, 2, 7)
    roll(table, expected_cards=1)
    dice.assert_all_drawn()
    why = table.locator("#odds [data-testid=odds-error]")
    # The kind of action resets after the roll (each roll its own action: issue 24); firing again is refused.
    expect(table.locator("#composer [name=kind]")).to_have_value("short")
    table.select_option("#composer [name=kind]", "fire")
    expect(why).to_have_text(say(lang, "Raider 1 cannot: firing a weapon is allowed once a turn.",
                                 "Raider 1 no puede: disparar un arma solo se permite una vez por turno."))
    table.select_option("#composer [name=kind]", "extended")
    expect(why).to_have_text(say(lang, "Raider 1 cannot: an extended action needs 2 action slots, 1 of 2 left.",
                                 "Raider 1 no puede: una acción extendida necesita 2 huecos de acción; quedan 1 de 2."))
    expect(table.locator("#roll-button")).to_be_disabled()
    assert_same_page(table)


# --- C3: the luck line of a roll no roll like it does worse than --------------------------------

def band(lang: str, roll: Roll) -> str:
    with translation.override(lang):
        return str(band_words(roll.luck["band"]))


def test_the_luck_line_says_in_words_when_no_roll_like_it_does_worse(table, lang, gm_user, dice):
    """A failed rouse check (one die: half of all checks fail the same way) and an Exalted botch
    read "no roll like it does worse", never "better than 0%"; a better roll keeps its number."""
    campaign = campaign_of(gm_user, Game.V5)
    bhavna = make_character(campaign, "Bhavna", {"strength": 2}, v5_hunger=1)
    open_table(table, campaign)
    rouse = table.locator(f"#character-{bhavna.pk} button[hx-post$='/check/rouse/']")
    dice.script(3)  # failed
    rouse.click()
    expect(cards(table)).to_have_count(1)
    failed = Roll.objects.get()
    assert failed.luck["below"] == 0 and failed.luck["equal"] > 0
    line = cards(table).first.locator("[data-testid=luck]")
    expect(line).to_have_text(f"{band(lang, failed)} · " + say(
        lang, f"no roll like it does worse, and {pct(lang, failed.luck['equal'])} roll the same",
        f"ninguna tirada como esta sale peor, y el {pct(lang, failed.luck['equal'])} saca lo mismo"))
    dice.script(8)  # passed: half of all checks do worse
    rouse.click()
    expect(cards(table)).to_have_count(2)
    passed = Roll.objects.latest("pk")
    assert passed.luck["below"] > 0
    expect(cards(table).first.locator("[data-testid=luck]")).to_contain_text(say(
        lang, f"better than {pct(lang, passed.luck['below'])} of rolls like it",
        f"mejor que el {pct(lang, passed.luck['below'])} de las tiradas como esta"))

    exalted_campaign = campaign_of(gm_user, Game.EXALTED)
    koi = make_character(exalted_campaign, "Koi", {"dexterity": 2, "melee": 1})
    open_table(table, exalted_campaign)
    table.select_option("#composer [name=first]", trait(koi, "dexterity"))
    table.select_option("#composer [name=second]", trait(koi, "melee"))
    dice.script(1, 2, 3)  # no success and a 1: a botch
    botch = roll(table, expected_cards=1)
    dice.assert_all_drawn()
    botched = Roll.objects.get(campaign=exalted_campaign)
    assert botched.outcome == "botch" and botched.luck["below"] == 0
    expect(botch.locator("[data-testid=luck]")).to_have_text(re.compile(
        "^" + re.escape(f"{band(lang, botched)} · " + say(lang, "no roll like it does worse",
                                                         "ninguna tirada como esta sale peor")) + "( · |$)"))
    assert_same_page(table)
