"""Issue 23, in a real browser under the settings ``make run`` gives, in English and in Spanish:
what one roll chose is not chosen again for the next (item 8), and the composer and its messages
say what a GM understands (the polish items). The server side is tests/web/test_one_roll.py.

Screenshots: ``/tmp/i23-small/<test>-<lang>.png``.
"""

from __future__ import annotations

from pathlib import Path

# The fixtures and marks of the browser tests (see test_browser_hitches: browser, uvicorn under
# DEBUG, scripted dice, a page per language that fails on a server or JavaScript error).
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
from tests.web.test_browser_hitches import (  # noqa: F401
    assert_same_page,
    chance,
    compose_teamwork,
    expect_lyra_helped,
    lang,
    open_extras,
    open_table,
    pct,
    say,
    table,
)

from rules import exalted, fate  # noqa: E402
from tests.games import Game  # noqa: E402

SHOTS = Path("/tmp/i23-small")


def shot(page, name: str, lang: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{lang}.png"), full_page=True)


# --- item 8: a roll's one-roll choices do not carry into the next -----------------------------------

def test_exalted_teamwork_and_the_rulings_of_one_roll_reset_after_it(table, lang, gm_user, dice):
    """Item 8: Teamwork stayed ticked after the roll, so the character's next roll was teamwork again.
    The helpers, Reflexive and Second chance are this roll's: unticked after it, the odds back to the
    character alone, and the next roll rolls the character's dice alone."""
    lyra, alone, together = compose_teamwork(table, lang, gm_user)
    helper = table.locator(f"#composer [name=team][value='{lyra.pk}']")
    expect(chance(table)).to_have_text(together)
    table.check("#composer [name=reflexive]")
    table.check("#composer [name=second_chance]")

    dice.script(1, 3, 4, 6, 7, 9, 9, 1, 1, 3, 6, 7)  # Smith's 7 dice, then Lyra's 5
    card = roll(table, expected_cards=1)
    dice.assert_all_drawn()
    expect_lyra_helped(card, lang)

    expect(helper).not_to_be_checked()
    expect(table.locator("#composer [name=reflexive]")).not_to_be_checked()
    expect(table.locator("#composer [name=second_chance]")).not_to_be_checked()
    expect(chance(table)).to_have_text(alone)
    shot(table, "item8-exalted-after-teamwork-roll", lang)

    # The next roll of the same character is its own: 7 dice, no helper rolled.
    dice.script(7, 8, 9, 10, 1, 2, 3)
    card = roll(table, expected_cards=2)
    dice.assert_all_drawn()
    expect(card).not_to_contain_text(say(lang, "Helpers", "Ayudantes"))
    expect(card.locator("[data-testid=count]")).to_have_text(say(lang, "5 successes · margin +1", "5 éxitos · margen +1"))
    assert_same_page(table)


def test_fate_stunt_and_allies_helping_reset_after_a_roll(table, lang, gm_user, dice):
    """Item 8, Fate: a stunt's bonus and the allies helping are this roll's, as its invocations are;
    the action chosen stays (attack after attack)."""
    campaign = campaign_of(gm_user, Game.FATE)
    make_character(campaign, "Wizard", {"clever": 2}, fate_points=3)
    open_table(table, campaign)
    plain = pct(lang, fate.odds(fate.Request(bonus=2)).p_success)
    expect(chance(table)).to_have_text(plain)
    table.select_option("#composer [name=stunt_bonus]", "2")
    table.fill("#composer [name=helpers]", "1")
    table.select_option("#composer [name=action]", "attack")
    expect(chance(table)).to_have_text(pct(lang, fate.odds(fate.Request(bonus=5)).p_success))
    dice.script(0, -1, 1, 0)
    card = roll(table, expected_cards=1)
    dice.assert_all_drawn()
    expect(card).to_contain_text("total +5")
    expect(table.locator("#composer [name=stunt_bonus]")).to_have_value("0")
    expect(table.locator("#composer [name=helpers]")).to_have_value("0")
    expect(table.locator("#composer [name=action]")).to_have_value("attack")
    expect(chance(table)).to_have_text(plain)
    assert_same_page(table)


# --- polish: the Fate composer has no "Extra dice" -------------------------------------------------

def test_the_fate_composer_has_no_extra_dice_and_still_rolls(table, lang, gm_user, dice):
    """Fate rolls four Fate dice plus a bonus: its composer showed an "Extra dice" field. The rest of
    the composer (its fields two to a row, the odds, the roll) is as it was; a d10 game keeps the field."""
    campaign = campaign_of(gm_user, Game.FATE)
    make_character(campaign, "Wizard", {"clever": 2}, fate_points=3)
    open_table(table, campaign)
    composer = table.locator("#composer")
    expect(composer.locator("[name=dice]")).to_have_count(0)
    expect(composer).not_to_contain_text(say(lang, "Extra dice", "Dados extra"))
    # The Approach and the modifier share the first row, as the Approach, extra dice and modifier did.
    approach = table.locator("#composer [name=first]").bounding_box()
    modifier = table.locator("#composer [name=modifier]").bounding_box()
    box = composer.bounding_box()
    assert approach and modifier and box and abs(approach["y"] - modifier["y"]) < 2, (approach, modifier)
    right = lambda b: b["x"] + b["width"]  # noqa: E731
    assert right(modifier) > right(box) - 40, "a gap at the end of the composer's first row"
    table.fill("#composer [name=modifier]", "1")
    expect(chance(table)).to_have_text(pct(lang, fate.odds(fate.Request(bonus=2, modifiers=(1,))).p_success))
    shot(table, "polish-fate-composer-without-extra-dice", lang)
    dice.script(1, 0, 0, -1)
    card = roll(table, expected_cards=1)
    dice.assert_all_drawn()
    expect(card).to_contain_text("total +3")

    exalted_campaign = campaign_of(gm_user, Game.EXALTED)
    make_character(exalted_campaign, "Swan", {"dexterity": 3, "melee": 4})
    open_table(table, exalted_campaign)
    expect(table.locator("#composer [name=dice]")).to_have_count(1)
    expect(table.locator("#composer")).to_contain_text(say(lang, "Extra dice", "Dados extra"))


# --- polish: sci-fi's words ---------------------------------------------------------------------------

def test_scifi_tooltip_and_off_rol_refusal_say_the_gm_and_no_seed(table, lang, gm_user):
    """A tooltip showed "(seed: «Comprobación de Acciones»)"; the Off-Rol refusal said "Director" in
    English (the game's GM is "Director" in Spanish, RULES.md's published term)."""
    from tests.web.helpers import set_resources

    campaign = campaign_of(gm_user, Game.SCIFI)
    make_character(campaign, "Mira", {"perception": 3, "survival": 2}, scifi_in_adventure=True)
    set_resources(campaign, scifi_adventure_open=True)
    open_table(table, campaign)
    knowledge = table.locator("#composer label[for=id_knowledge]")
    expect(knowledge).to_have_attribute("title", say(
        lang, "Impossible without a level in the skill, even when Easy (recognizing a rare animal from another "
              "planet, talking chemistry).",
        "Imposible sin un nivel en la habilidad, incluso si es Fácil (reconocer un animal poco común de otro "
        "planeta, hablar de química)."))
    table.check("#composer [name=off_rol]")
    refusal = table.locator("#odds [data-testid=odds-error]")
    expect(refusal).to_contain_text(say(lang, "unless the GM stages a scene for them",
                                        "salvo que el Director prepare una escena para ellas"))
    expect(table.locator("#roll-button")).to_be_disabled()
    knowledge.hover()
    shot(table, "polish-scifi-off-rol-refusal", lang)


# --- polish: messages a GM understands --------------------------------------------------------------

def test_a_pool_over_a_hundred_dice_and_a_tied_luck_line_read_plainly(table, lang, gm_user, dice):
    """"pool must be at most 100, got 104" named neither the pool nor why; "better than 18.7% and as
    good as 32.6%" read as two thresholds."""
    from gmtools.models import Roll
    from gmtools.formatting import percent
    from django.utils import translation

    campaign = campaign_of(gm_user, Game.EXALTED)
    smith = make_character(campaign, "Smith", {"strength": 4, "athletics": 3, "dexterity": 3, "melee": 2})
    open_table(table, campaign)
    table.select_option("#composer [name=first]", trait(smith, "strength"))
    table.select_option("#composer [name=second]", trait(smith, "athletics"))
    table.fill("#composer [name=dice]", "100")
    expect(table.locator("#odds [data-testid=odds-error]")).to_have_text(say(
        lang, "Strength 4 + Athletics 3 + 100 extra dice = 107 dice: at most 100 dice can be rolled. "
              "Take some extra dice away.",
        "Fuerza 4 + Atletismo 3 + 100 dados adicionales = 107 dados: como máximo se pueden tirar 100 dados. "
        "Quita dados adicionales."))
    expect(table.locator("#roll-button")).to_be_disabled()
    shot(table, "polish-pool-over-100", lang)

    table.fill("#composer [name=dice]", "0")
    table.select_option("#composer [name=first]", trait(smith, "dexterity"))
    table.select_option("#composer [name=second]", trait(smith, "melee"))
    expect(table.locator("#roll-button")).to_be_enabled()
    expect(chance(table)).to_have_text(pct(lang, exalted.odds(exalted.Request(pool=5)).p_success))
    dice.script(7, 8, 2, 3, 4)  # 2 successes of 5 dice: a third of such rolls tie with it
    card = roll(table, expected_cards=1)
    dice.assert_all_drawn()
    tied = Roll.objects.get()
    with translation.override(lang):
        below, equal = percent(tied.luck["below"]), percent(tied.luck["equal"])
    expect(card.locator("[data-testid=luck]")).to_have_text(say(
        lang, f"Average · better than {below} of rolls like it, and {equal} roll the same",
        f"En la media · mejor que el {below} de las tiradas como esta, y el {equal} saca lo mismo"))
    shot(table, "polish-luck-tie-line", lang)
