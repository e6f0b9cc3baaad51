"""Issue 9, "A session without a hitch", in a real browser: every item, in English and in Spanish.

Each test drives the GM's table as ``make run`` serves it (uvicorn, DEBUG on: see test_browser's
``asgi_server``) in a browser context whose locale is ``en-US`` or ``es-ES`` (the ``lang``
parameter), and checks the language's own words where it checks text: the Spanish ones are
written out here, from locale/es/LC_MESSAGES/django.po, so a missing translation fails the test
instead of passing in English. Every die is scripted (test_browser's ``dice``).

Item 7 (the demo deck is shuffled) is server-side only: tests/web/test_demo.py. The server-side
half of the other items is tests/web/test_hitches.py.

Screenshots of the four games' tables at 1366×768 in both languages, after one roll in a scene:
``artifacts/screenshots/issue9-<game>-<lang>.png``.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from datetime import timedelta

import pytest

# The fixtures (browser, asgi_server, gm_user, dice) are imported so that pytest finds them in this module;
# pytestmark brings the same marks: browser, skipped without Chromium (outside CI), transactional db.
from tests.web.test_browser import (  # noqa: F401
    SCREENSHOTS,
    TIMEOUT_MS,
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
    sync_api,
    trait,
)

from django.conf import settings  # noqa: E402
from django.test import Client  # noqa: E402
from django.utils import timezone, translation  # noqa: E402
from django.utils.formats import date_format  # noqa: E402

from gmtools import services  # noqa: E402
from gmtools.games.exalted.models import ExaltedResources  # noqa: E402
from gmtools.games.fate.models import FateState  # noqa: E402
from gmtools.games.v5.models import V5Resources  # noqa: E402
from gmtools.games.fate.models import Aspect
from gmtools.models import Campaign, Character, ExtendedAction, Roll, Scene  # noqa: E402
from tests.games import Game  # noqa: E402
from tests.web.test_browser_time import caught_up  # noqa: E402
from gmtools.formatting import percent  # noqa: E402
from rules import exalted, fate, v5  # noqa: E402

Page = sync_api.Page
Locator = sync_api.Locator

LANGS = ["en", "es"]
LOCALES = {"en": "en-US", "es": "es-ES"}
VIEWPORT = {"width": 1366, "height": 768}


# --- the GM's table in one language ------------------------------------------------------------

@contextlib.contextmanager
def gm_table(browser, server: str, user, lang: str) -> Iterator[Page]:
    """A logged-in page at 1366×768 in ``lang``'s locale. It fails the test on a server error, a
    JavaScript error, or any 4xx answer but a refusal's 422 (under DEBUG, htmx's error handling
    and django-htmx's debug script act on those: a refusal must never be one)."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=server, locale=LOCALES[lang], viewport=VIEWPORT, bypass_csp=True)  # see test_browser.page
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                          "url": server}])
    context.set_default_timeout(TIMEOUT_MS)
    problems: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda error: problems.append(f"JavaScript error: {error}"))
    page.on("response", lambda r: (r.status >= 500 or (400 <= r.status < 500 and r.status != 422))
            and problems.append(f"{r.status} from {r.request.method} {r.url}"))
    try:
        yield page
    finally:
        context.close()
    assert not problems, problems


@pytest.fixture(params=LANGS)
def lang(request) -> str:
    return request.param


@pytest.fixture
def table(browser, asgi_server, gm_user, lang) -> Iterator[Page]:
    with gm_table(browser, asgi_server, gm_user, lang) as page:
        yield page


def say(lang: str, english: str, spanish: str) -> str:
    """The words the page must show in its language."""
    return {"en": english, "es": spanish}[lang]


def pct(lang: str, p: float) -> str:
    """A chance as the table writes it in ``lang`` (92.2% / 92,2%)."""
    with translation.override(lang):
        return percent(p)


def open_table(page: Page, campaign: Campaign) -> None:
    page.goto(f"/campaigns/{campaign.pk}/")
    expect(page.locator("#composer")).to_be_visible()
    expect(page.locator("#odds [data-testid=odds], #odds [data-testid=odds-error]")).to_have_count(1)
    # Both marks survive only if nothing reloads or rewrites the document from here on.
    page.evaluate("window.__sameDocument = 'still here'; document.body.dataset.hitchMark = 'same body'")


def assert_same_page(page: Page) -> None:
    """Not reloaded, not rewritten: the window and the body the test marked, with the table in them."""
    assert page.evaluate("window.__sameDocument") == "still here", "the page was reloaded"
    assert page.evaluate("document.body.dataset.hitchMark") == "same body", "the document was replaced"
    for part in ("#time-bar", "#composer", "#odds", "#log-list", "#characters"):
        expect(page.locator(part)).to_have_count(1)


def chance(page: Page) -> Locator:
    """The headline chance of the odds panel."""
    return page.locator("#odds [data-testid=odds] .chance .p").first


def open_extras(page: Page) -> None:
    """Open the composer's fold (opposed, teamwork, extended action, note)."""
    details = page.locator("#composer details.composer-extras")
    if not details.evaluate("d => d.open"):
        details.locator("summary").click()
    expect(details).to_have_attribute("open", "")


def where(page: Page) -> Locator:
    return page.locator("#time-bar [data-testid=where]")


def where_text(lang: str, scene: int, turn: int) -> str:
    return say(lang, f"Story 1 · Episode 1 · Scene {scene} · Turn {turn}", f"Historia 1 · Episodio 1 · Escena {scene} · Turno {turn}")


def time_button(page: Page, do: str) -> Locator:
    return page.locator(f"#time-bar button[hx-vals*='\"{do}\"']")


def action_url(campaign: Campaign, what: str) -> re.Pattern:
    """The address of one of the table's actions (``what``: "roll", "time", "rolls/7/reroll"...)."""
    return re.compile(rf"/campaigns/{campaign.pk}/{re.escape(what)}/(\?.*)?$")


def roll_pk(card: Locator) -> int:
    return int(card.get_attribute("data-roll"))


# --- 1. a refusal shows beside what caused it, never over the page -----------------------------

def test_refusals_show_in_the_time_bar_and_on_the_character_card(table, lang, gm_user):
    """Item 1: "Previous turn" at turn 1 and "−" on motes at 0 answer 422 and say why in the time
    bar, on the character's card, without replacing the page; the next click there clears it."""
    campaign = campaign_of(gm_user, Game.EXALTED)
    swan = make_character(campaign, "Swan", {"dexterity": 3, "melee": 4}, exalted_motes=0)
    services.start_scene(campaign)
    open_table(table, campaign)
    expect(where(table)).to_have_text(where_text(lang, 1, 1))

    with table.expect_response(action_url(campaign, "time")) as answer:
        time_button(table, "previous-turn").click()
    assert answer.value.status == 422
    refusal = table.locator("#time-bar [data-testid=refusal]")
    expect(refusal).to_have_text(say(lang, "Already at the first turn.", "Ya es el primer turno."))
    expect(refusal).to_have_attribute("role", "alert")
    expect(table.locator("[data-testid=refusal]")).to_have_count(1)  # beside the time bar, nowhere else
    expect(where(table)).to_have_text(where_text(lang, 1, 1))
    assert_same_page(table)

    # The time bar's next successful request clears its refusal.
    table.click("#next-turn")
    expect(where(table)).to_have_text(where_text(lang, 1, 2))
    expect(table.locator("[data-testid=refusal]")).to_have_count(0)

    card = table.locator(f"#character-{swan.pk}")
    expect(card.locator("[data-resource=motes]")).to_have_text(re.compile(r"^0/"))
    with table.expect_response(action_url(campaign, f"characters/{swan.pk}/adjust")) as answer:
        card.locator("button[data-action=motes-spend]").click()
    assert answer.value.status == 422
    expect(card.locator("[data-testid=refusal]")).to_have_text(say(lang, "Swan has no motes left.", "A Swan no le quedan motas."))
    expect(card.locator("[data-testid=refusal]")).to_have_attribute("role", "alert")
    expect(card.locator("[data-resource=motes]")).to_have_text(re.compile(r"^0/"))
    expect(table.locator("#table-messages [data-testid=refusal]")).to_have_count(0)
    assert_same_page(table)


def compose_a_roll_that_will_be_refused(page: Page, campaign: Campaign, character: Character) -> None:
    """Tick "Spend Willpower" and type a label, then spend the last point meanwhile (another tab)."""
    page.check("#composer [name=willpower]")
    open_extras(page)
    page.fill("#composer [name=label]", "Hold the gate")
    ExaltedResources.objects.filter(pk=character.pk).update(willpower_temporary=0)


def test_a_refused_roll_keeps_what_the_gm_composed(table, lang, gm_user, dice):
    """Item 1: a roll refused (its last Willpower spent meanwhile, in another tab) says why in the
    composer (422), and the composer keeps what the GM had chosen and typed."""
    campaign = campaign_of(gm_user, Game.EXALTED)
    tired = make_character(campaign, "Tired Solar", {"strength": 3, "melee": 2}, exalted_willpower=5,
                           exalted_willpower_temporary=1)
    open_table(table, campaign)
    compose_a_roll_that_will_be_refused(table, campaign, tired)
    with table.expect_response(action_url(campaign, "odds")):
        table.press("#composer [name=label]", "Tab")  # the label's change refreshes the odds: let it land first

    with table.expect_response(action_url(campaign, "roll")) as answer:
        table.click("#roll-button")
    assert answer.value.status == 422
    refusal = table.locator("#composer [data-testid=refusal]")
    expect(refusal).to_have_text(say(lang, "Tired Solar has no temporary Willpower left.",
                                     "A Tired Solar no le queda Voluntad temporal."))
    expect(refusal).to_have_attribute("role", "alert")
    expect(table.locator("#composer [name=label]")).to_have_value("Hold the gate")
    expect(table.locator("#composer [name=willpower]")).to_be_checked()
    expect(table.locator("#composer details.composer-extras")).to_have_attribute("open", "")
    expect(cards(table)).to_have_count(0)
    assert_same_page(table)
    assert dice.drawn == [] and not Roll.objects.filter(campaign=campaign).exists()


def test_a_refusal_outlives_the_odds_refresh_of_the_same_click(table, lang, gm_user, dice):
    """Item 1: typing a label and clicking Roll at once sends two requests: the odds (the label's
    change, on leaving it) and the roll. When the roll is refused, its refusal must stay, whichever
    answer lands last. Here the odds answer is held until the refusal is shown, then let through."""
    campaign = campaign_of(gm_user, Game.EXALTED)
    tired = make_character(campaign, "Tired Solar", {"strength": 3, "melee": 2}, exalted_willpower=5,
                           exalted_willpower_temporary=1)
    open_table(table, campaign)
    compose_a_roll_that_will_be_refused(table, campaign, tired)
    held: list = []
    table.route(re.compile(rf"/campaigns/{campaign.pk}/odds/"), lambda route: held.append(route))

    with table.expect_response(action_url(campaign, "roll")) as answer:
        table.click("#roll-button")  # the label loses focus: its change asks for the odds
    assert answer.value.status == 422
    refusal = table.locator("#composer [data-testid=refusal]")
    expect(refusal).to_have_text(say(lang, "Tired Solar has no temporary Willpower left.",
                                     "A Tired Solar no le queda Voluntad temporal."))
    assert len(held) == 1, "the label's change did not ask for the odds"

    with table.expect_response(action_url(campaign, "odds")):
        held[0].continue_()
    table.wait_for_function("() => !document.querySelector('#odds.htmx-request')")
    expect(refusal).to_have_count(1)
    expect(refusal).to_be_visible()
    assert_same_page(table)


def test_a_refused_reroll_shows_on_its_card(table, lang, gm_user, dice):
    """Item 1: a V5 Willpower reroll of 4 dice is refused on the roll's own card (422), which keeps
    its form; nothing is spent."""
    campaign = campaign_of(gm_user, Game.V5)
    bhavna = make_character(campaign, "Bhavna", {"strength": 3, "brawl": 2, "composure": 2, "resolve": 3}, v5_hunger=1)
    open_table(table, campaign)
    table.select_option("#composer [name=first]", trait(bhavna, "strength"))
    table.select_option("#composer [name=second]", trait(bhavna, "brawl"))
    dice.script(2, 3, 4, 5, 7)  # 4 normal dice and 1 Hunger die
    card = roll(table, expected_cards=1)
    dice.assert_all_drawn()
    form = card.locator(".reroll-form")
    for i in range(4):
        form.locator(f"input[name=dice][value='{i}']").check()
    # rules.v5.roll_reroll draws the new dice before it checks how many were asked for: script them.
    dice.script(8, 8, 8, 8)
    with table.expect_response(action_url(campaign, f"rolls/{roll_pk(card)}/follow-up/reroll")) as answer:
        form.locator("button[type=submit]").click()
    assert answer.value.status == 422
    refusal = card.locator("[data-testid=refusal]")
    expect(refusal).to_contain_text(say(lang, "Willpower rerolls 1 to 3 normal dice, not 4",
                                        "La Fuerza de Voluntad repite de 1 a 3 dados normales, no 4"))
    expect(refusal).to_have_attribute("role", "alert")
    expect(cards(table)).to_have_count(1)
    expect(form.locator("input[name=dice]:checked")).to_have_count(4)
    assert_same_page(table)
    bhavna.refresh_from_db()
    assert bhavna.resources.willpower_superficial == 0
    assert Roll.objects.filter(campaign=campaign).count() == 1


# --- 2. what will be refused is not offered ------------------------------------------------------

def test_the_roll_button_says_when_the_odds_refuse_the_roll(table, lang, gm_user, dice):
    """Item 2: once Koi has taken the turn's one declared action, the odds warn and the Roll button
    says so and is disabled; the next turn gives it back."""
    campaign = campaign_of(gm_user, Game.EXALTED)
    make_character(campaign, "Koi", {"dexterity": 3, "athletics": 2})
    services.start_scene(campaign)
    open_table(table, campaign)
    button = table.locator("#roll-button")
    expect(button).to_be_enabled()
    expect(button).to_have_text(say(lang, "Roll", "Tirar"))

    dice.script(7, 7, 2, 3, 5)
    roll(table, expected_cards=1)
    dice.assert_all_drawn()
    expect(table.locator("#odds [data-testid=odds-error]")).to_have_text(say(
        lang, "Koi declared 1 action this turn and has taken it.", "Koi declaró 1 acción este turno y ya la ha realizado."))
    expect(button).to_be_disabled()
    expect(button).to_have_text(say(lang, "Cannot roll: see why below", "No se puede tirar: mira abajo por qué"))

    table.click("#next-turn")
    expect(where(table)).to_have_text(where_text(lang, 1, 2))
    expect(table.locator("#odds [data-testid=odds-error]")).to_have_count(0)
    expect(button).to_be_enabled()
    expect(button).to_have_text(say(lang, "Roll", "Tirar"))
    assert_same_page(table)


def test_willpower_is_not_offered_without_temporary_willpower(table, lang, gm_user):
    """Items 2 and 13: "Spend Willpower" is offered to a character with temporary Willpower and
    drawn disabled, saying why, for one with none (picked by clicking its card)."""
    campaign = campaign_of(gm_user, Game.EXALTED)
    rested = make_character(campaign, "Arden", {"strength": 3, "melee": 2}, exalted_willpower=5, exalted_willpower_temporary=3)
    tired = make_character(campaign, "Tamsin", {"wits": 3, "awareness": 2}, exalted_willpower=5, exalted_willpower_temporary=0)
    open_table(table, campaign)
    expect(table.locator("#composer [name=character]")).to_have_value(str(rested.pk))
    expect(table.locator("#composer [name=willpower]")).to_be_enabled()

    table.locator(f"#character-{tired.pk} strong").first.click()  # its name, not a button
    expect(table.locator("#composer [name=character]")).to_have_value(str(tired.pk))
    expect(table.locator("#composer [name=first]")).to_have_value(trait(tired, "wits"))  # the composer came back for Tamsin
    willpower = table.locator("#composer [name=willpower]")
    expect(willpower).to_be_disabled()
    expect(table.locator("#composer label[for=id_willpower]")).to_have_attribute("title", say(
        lang, "Nothing left to spend, or already spent this turn.", "No queda nada que gastar, o ya se gastó este turno."))
    assert_same_page(table)


def test_fate_offers_only_free_invocations_without_fate_points(table, lang, gm_user, dice):
    """Item 2: a Fate character with no fate point is offered, in the composer and on its roll's
    card, only the aspects with a free invocation, and no fate point."""
    campaign = campaign_of(gm_user, Game.FATE)
    zara = make_character(campaign, "Zara", {"clever": 2}, fate_points=0)
    free = Aspect.objects.create(character=zara, kind="high_concept", text="Free-spirited pilot", free_invocations=1)
    Aspect.objects.create(character=zara, kind="trouble", text="Owes the mob")
    open_table(table, campaign)
    expect(table.locator(f"#character-{zara.pk} [data-resource=fate-points]")).to_have_text("0")
    offered = table.locator("#composer [name=invoke]")
    expect(offered).to_have_count(1)
    expect(offered).to_have_attribute("value", str(free.pk))

    dice.script(0, 0, -1, 1)
    card = roll(table, expected_cards=1)
    dice.assert_all_drawn()
    # The aspect with a free invocation, after the "Choose an aspect…" that is no choice (issue 23).
    options = card.locator(".invoke-form select[name=aspect] option:not([value=''])")
    expect(options).to_have_count(1)
    expect(options).to_have_attribute("value", str(free.pk))
    expect(card.locator(".invoke-form")).not_to_contain_text(say(lang, "Fate point", "Punto de destino"))

    # Its free invocation spent, Zara has nothing left to invoke with: her card offers nothing more.
    card.locator(".invoke-form select[name=aspect]").select_option(str(free.pk))
    card.locator(".invoke-form button[value=bonus]").click()
    expect(cards(table).first.locator("[data-testid=follow-ups] .follow-up")).to_have_count(1)
    expect(cards(table)).to_have_count(1)
    expect(cards(table).first.locator(".invoke-form")).to_have_count(0)
    spent = cards(table).first.locator("[data-testid=follow-ups] .spends")
    expect(spent).to_contain_text(say(lang, "Spent: ", "Gastado: "))
    expect(spent).to_contain_text("Free-spirited pilot")
    expect(spent).not_to_contain_text("free_invocation")
    assert_same_page(table)


def test_v5_reroll_is_not_offered_with_willpower_all_damaged(table, lang, gm_user, dice):
    """Item 2: a V5 roll's card offers no Willpower reroll when every Willpower box is damaged."""
    campaign = campaign_of(gm_user, Game.V5)
    # Composure 2 + Resolve 3: five Willpower boxes, all of them superficially damaged.
    bhavna = make_character(campaign, "Bhavna", {"strength": 2, "brawl": 2, "composure": 2, "resolve": 3}, v5_hunger=1)
    V5Resources.objects.filter(pk=bhavna.pk).update(willpower_superficial=5)
    open_table(table, campaign)
    expect(table.locator(f"#character-{bhavna.pk} [data-resource=willpower] .box-superficial")).to_have_count(5)
    table.select_option("#composer [name=first]", trait(bhavna, "strength"))
    table.select_option("#composer [name=second]", trait(bhavna, "brawl"))
    dice.script(2, 3, 7, 4)
    card = roll(table, expected_cards=1)
    dice.assert_all_drawn()
    expect(card.locator("[data-testid=verdict]")).to_be_visible()
    expect(card.locator(".reroll-form")).to_have_count(0)
    expect(card).not_to_contain_text(say(lang, "Willpower: reroll up to 3", "Fuerza de Voluntad: repetir hasta 3"))


# --- 3. an opposed roll has one verdict, from the contest ---------------------------------------

# The seed's contests (tests/web/test_hitches.py has the arithmetic), each with a difficulty that
# would have judged the roll otherwise.
OPPOSED = {
    Game.EXALTED: dict(traits={"dexterity": 3, "stealth": 3}, difficulty="3", faces=(1, 3, 5, 7, 8, 8, 3, 6, 8, 9),
                       dice=4, opponent="Guard", theirs=4, en="Koi wins by 1", es="Koi gana por 1"),
    Game.V5: dict(traits={"strength": 2, "brawl": 1}, difficulty="4", faces=(6, 2, 2, 7, 7, 7),
                  dice=3, opponent="Guard", theirs=3, en="Guard wins by 2", es="Guard gana por 2"),
    Game.SCIFI: dict(traits={"perception": 3, "survival": 2}, difficulty="hard", faces=(4, 9, 2, 2, 7, 1, 5, 8),
                     dice=3, opponent="Guard", theirs=3, en="Koi wins narrowly (by 1)", es="Koi gana por muy poco (por 1)"),
    # Koi +2 (Forceful) +2 on the dice = +4 against the Ogre's +3 −1 = +2: two shifts, not "with style" against Mediocre.
    Game.FATE: dict(traits={"forceful": 2}, difficulty="0", faces=(1, 1, 0, 0, -1, 0, 0, 0),
                    dice=3, opponent="Ogre", theirs=4, en="Success against Ogre", es="Éxito contra Ogre"),
}


@pytest.mark.parametrize("game", list(OPPOSED))
def test_an_opposed_roll_has_one_verdict_from_the_contest(table, lang, gm_user, dice, game):
    """Item 3: an opposed roll's card has one verdict, the contest's in the game's words; no margin
    against the difficulty; the other side's dice under the opposition."""
    case = OPPOSED[game]
    campaign = campaign_of(gm_user, game)
    koi = make_character(campaign, "Koi", case["traits"], **({"v5_hunger": 0} if game == Game.V5 else {}))
    open_table(table, campaign)
    first, *second = case["traits"]
    table.select_option("#composer [name=first]", trait(koi, first))
    if second:
        table.select_option("#composer [name=second]", trait(koi, second[0]))
    table.select_option("#composer [name=difficulty]", case["difficulty"])
    open_extras(table)
    table.fill("#composer [name=opponent_dice]", str(case["dice"]))
    table.fill("#composer [name=opponent]", case["opponent"])
    expect(table.locator("#composer [name=difficulty]")).to_have_class(re.compile(r"\bopposed-ignored\b"))

    dice.script(*case["faces"])
    card = roll(table, expected_cards=1)
    dice.assert_all_drawn()
    expect(card.locator("[data-testid=verdict]")).to_have_count(1)
    expect(card.locator("[data-testid=verdict]")).to_have_text(case[lang])
    expect(card).not_to_contain_text(say(lang, "margin", "margen"))
    opposition = card.locator("[data-testid=opposition]")
    expect(opposition).to_contain_text(say(lang, f"vs {case['opponent']}", f"contra {case['opponent']}"))
    expect(opposition.locator(".die")).to_have_count(case["theirs"])
    assert faces(card) == list(case["faces"][:len(case["faces"]) - case["theirs"]])


# --- 4 and 9: a V5 reroll redraws the card it follows, and its spend reads in words -------------

def test_v5_reroll_redraws_the_original_card_and_spends_read_as_words(table, lang, gm_user, dice):
    """Items 4 and 9: after a Willpower reroll the original card loses its reroll form, the new card
    is at the top, and its spend reads "1 Willpower" in the language, never "v5_willpower"."""
    campaign = campaign_of(gm_user, Game.V5)
    bhavna = make_character(campaign, "Bhavna", {"strength": 2, "brawl": 2, "composure": 2, "resolve": 3}, v5_hunger=1)
    open_table(table, campaign)
    table.select_option("#composer [name=first]", trait(bhavna, "strength"))
    table.select_option("#composer [name=second]", trait(bhavna, "brawl"))
    table.select_option("#composer [name=difficulty]", "3")
    dice.script(2, 3, 7, 4)  # 3 normal dice and 1 Hunger die: 1 success against 3
    original = roll(table, expected_cards=1)
    original_pk = roll_pk(original)
    form = original.locator(".reroll-form")
    form.locator("input[name=dice][value='0']").check()
    form.locator("input[name=dice][value='1']").check()
    dice.script(8, 9)
    form.get_by_role("button", name=say(lang, "Willpower: reroll up to 3", "Fuerza de Voluntad: repetir hasta 3")).click()
    # The reroll is a line on the original card (issue 23), redrawn in place with the reroll's dice.
    rerolled = table.locator(f"#roll-{original_pk} [data-testid=follow-ups] .follow-up")
    expect(rerolled).to_have_attribute("data-kind", "reroll")
    expect(cards(table)).to_have_count(1)
    dice.assert_all_drawn()
    assert faces(cards(table).first) == [8, 9, 7, 4]
    expect(cards(table).first).to_have_id(f"roll-{original_pk}")
    expect(table.locator(f"#roll-{original_pk} .reroll-form")).to_have_count(0)  # redrawn without it
    expect(table.locator(f"#roll-{original_pk} input[type=checkbox]")).to_have_count(0)
    expect(cards(table).first).to_contain_text(say(lang, "Bhavna · Strength + Brawl", "Bhavna · Fuerza + Pelea"))
    expect(rerolled).to_contain_text(say(lang, "Willpower reroll", "Repetición con Fuerza de Voluntad"))
    expect(rerolled.locator(".spends")).to_have_text(say(lang, "Spent: 1 Willpower", "Gastado: 1 punto de Fuerza de Voluntad"))
    expect(table.locator("#log-list")).not_to_contain_text("v5_willpower")
    assert_same_page(table)


# --- 5. fragments stay fresh: the Fate deck, finished extended actions, the end of a scene -------

def test_the_fate_deck_counter_drops_with_each_draw(table, lang, gm_user, dice):
    """Item 5: with "Draw from the Fate deck" on, the time bar's count of cards left drops by one at
    each roll, at once."""
    campaign = campaign_of(gm_user, Game.FATE)
    FateState.objects.filter(pk=campaign.pk).update(uses_deck=False, deck=[10, 20, 30, 40, 50])
    make_character(campaign, "Wizard", {"clever": 3})
    open_table(table, campaign)
    switch = table.locator("#time-bar [data-testid=campaign-switch]")
    expect(switch).not_to_be_checked()
    switch.click()
    counter = table.locator("#time-bar label.form-switch")
    expect(counter).to_have_text(say(lang, "Draw from the Fate deck (5 cards left)", "Robar de la Baraja Fate (quedan 5 cartas)"))

    for drawn, card, left in ((1, 10, 4), (2, 20, 3)):
        with table.expect_response(action_url(campaign, "roll")) as answer:
            rolled = roll(table, expected_cards=drawn)
        assert faces(rolled) == list(fate.CARDS[card])
        words = say(lang, f"({left} cards left)", f"(quedan {left} cartas)")
        # The roll's own answer redraws the time bar (the live stream's echo of the roll does too,
        # and either may land last): both must count the card just drawn.
        assert words in answer.value.text(), re.findall(r"\(.*?cart.*?\)|\(\d+ cards? left\)", answer.value.text())
        expect(counter).to_have_text(say(lang, f"Draw from the Fate deck {words}", f"Robar de la Baraja Fate {words}"))
    assert dice.drawn == []  # cards, not dice
    campaign.refresh_from_db()
    assert campaign.state.deck == [30, 40, 50]
    assert_same_page(table)


def test_end_scene_empties_fate_stress_boxes(table, lang, gm_user):
    """Item 5: "End scene" (confirmed) empties the Fate stress boxes on the characters' cards."""
    campaign = campaign_of(gm_user, Game.FATE)
    brann = make_character(campaign, "Brann", {"forceful": 2}, fate_stress_1=True, fate_stress_3=True,
                           fate_consequence_mild="Bruised")
    services.start_scene(campaign)
    open_table(table, campaign)
    boxes = table.locator(f"#character-{brann.pk} .box-button")
    expect(boxes).to_have_count(3)
    expect(table.locator(f"#character-{brann.pk} .box-button.checked")).to_have_count(2)

    asked: list[str] = []
    table.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    time_button(table, "end-scene").click()
    expect(table.locator("#time-bar")).to_contain_text(say(lang, "No scene in play.", "Ninguna escena en juego."))
    expect(table.locator(f"#character-{brann.pk} .box-button.checked")).to_have_count(0)
    expect(boxes).to_have_count(3)
    assert asked == [say(lang, "End this scene? Its turn order is closed (and, in Fate, stress boxes empty).",
                         "¿Terminar esta escena? Su orden de turno se cierra (y, en Fate, las casillas de estrés se vacían).")]
    brann.refresh_from_db()
    assert (brann.resources.stress_1, brann.resources.stress_2, brann.resources.stress_3) == (False, False, False)
    assert brann.resources.consequence_mild == "Bruised"
    assert_same_page(table)


def test_a_finished_extended_action_leaves_the_composer_and_reads_elapsed_turns(table, lang, gm_user, dice):
    """Items 5 and 9: an extended action ("1 turn" a roll) finished by its third roll is no longer
    offered by the composer (the one still running is), and reads "elapsed 3 turns" in words."""
    campaign = campaign_of(gm_user, Game.EXALTED)
    koi = make_character(campaign, "Koi", {"dexterity": 3, "athletics": 1})
    scene = services.start_scene(campaign)
    climb = services.create_extended(campaign, scene, name="Climb the wall", goal=6, interval="1 turn")
    swim = services.create_extended(campaign, scene, name="Swim the moat", goal=40, interval="1 minute")
    open_table(table, campaign)
    table.select_option("#composer [name=first]", trait(koi, "dexterity"))
    table.select_option("#composer [name=second]", trait(koi, "athletics"))
    open_extras(table)
    extended = table.locator("#composer [name=extended]")
    extended.select_option(str(climb.pk))
    climb_card = table.locator(f"#extended-list [data-testid=extended-{climb.pk}]")

    elapsed = {1: say(lang, "elapsed 1 turn", "tiempo transcurrido: 1 turno"), 2: say(lang, "elapsed 2 turns", "tiempo transcurrido: 2 turnos"),
               3: say(lang, "elapsed 3 turns", "tiempo transcurrido: 3 turnos")}
    for turn in (1, 2, 3):  # Dexterity 3 + Athletics 1: two successes a roll, 6 in three turns
        if turn > 1:
            caught_up(table, campaign)  # the roll's echo redraws the time bar: not under the click
            table.click("#next-turn")
            expect(where(table)).to_have_text(where_text(lang, 1, turn))
        expect(extended).to_have_value(str(climb.pk))
        dice.script(7, 8, 2, 3)
        roll(table, expected_cards=turn)
        expect(climb_card.locator(".progress-bar")).to_have_text(f"{2 * turn}/6")
        expect(climb_card).to_contain_text(elapsed[turn])
    dice.assert_all_drawn()

    expect(climb_card.locator("[data-testid=extended-status]")).to_contain_text(say(lang, "Done", "Completada"))
    expect(table.locator(f"#composer [name=extended] option[value='{climb.pk}']")).to_have_count(0)
    expect(table.locator(f"#composer [name=extended] option[value='{swim.pk}']")).to_have_count(1)
    expect(extended).not_to_have_value(str(climb.pk))
    assert ExtendedAction.objects.get(pk=climb.pk).over
    assert_same_page(table)


# --- 6. what one roll spends is not spent again by the next -------------------------------------

def test_exalted_spends_and_secret_reset_after_a_roll(table, lang, gm_user, dice):
    """Items 6 and 12: "Spend Willpower", stunt dice and "Secret roll" go back to their defaults
    after the roll, and the odds follow; the secret mark is an icon we ship (an SVG)."""
    campaign = campaign_of(gm_user, Game.EXALTED)
    swan = make_character(campaign, "Swan", {"dexterity": 3, "melee": 4}, exalted_willpower=5, exalted_willpower_temporary=5)
    open_table(table, campaign)
    plain = pct(lang, exalted.odds(exalted.Request(pool=7)).p_success)
    expect(chance(table)).to_have_text(plain)
    table.check("#composer [name=willpower]")
    table.select_option("#composer [name=stunt]", "2")
    table.check("#composer [name=hidden]")
    expect(chance(table)).to_have_text(pct(lang, exalted.odds(exalted.Request(pool=7, stunt=2, willpower=True)).p_success))

    dice.script(1, 2, 3, 4, 5, 6, 7, 8, 9)  # 7 dice and 2 stunt dice
    card = roll(table, expected_cards=1)
    dice.assert_all_drawn()
    expect(card.locator("[data-testid=secret-mark]")).to_have_text(say(lang, "Secret roll", "Tirada secreta"))
    expect(card.locator("[data-testid=secret-mark] svg")).to_be_visible()
    expect(card.locator(".spends")).to_have_text(say(lang, "Spent: 1 Willpower", "Gastado: 1 punto de Voluntad"))

    expect(table.locator("#composer [name=willpower]")).not_to_be_checked()
    expect(table.locator("#composer [name=stunt]")).to_have_value("0")
    expect(table.locator("#composer [name=hidden]")).not_to_be_checked()
    expect(chance(table)).to_have_text(plain)
    swan.refresh_from_db()
    assert swan.resources.willpower_temporary == 4
    assert_same_page(table)


def test_v5_specialty_resets_after_a_roll(table, lang, gm_user, dice):
    """Item 6: the V5 specialty die is unticked after the roll, and the odds follow."""
    campaign = campaign_of(gm_user, Game.V5)
    make_character(campaign, "Koi", {"strength": 2, "brawl": 2}, v5_hunger=0)
    open_table(table, campaign)
    plain = pct(lang, v5.odds(v5.Request(pool=4)).p_win)
    expect(chance(table)).to_have_text(plain)
    table.check("#composer [name=specialty]")
    expect(chance(table)).to_have_text(pct(lang, v5.odds(v5.Request(pool=4, specialty=True)).p_win))
    dice.script(6, 2, 3, 8, 1)  # 4 dice and the specialty's
    roll(table, expected_cards=1)
    dice.assert_all_drawn()
    expect(table.locator("#composer [name=specialty]")).not_to_be_checked()
    expect(chance(table)).to_have_text(plain)


def test_fate_invocations_reset_after_a_roll(table, lang, gm_user, dice):
    """Item 6: an aspect invoked in the composer is unticked after the roll, and the odds follow."""
    campaign = campaign_of(gm_user, Game.FATE)
    wizard = make_character(campaign, "Wizard", {"clever": 2}, fate_points=3)
    aspect = Aspect.objects.create(character=wizard, kind="high_concept", text="Wizard of the Old Library")
    open_table(table, campaign)
    plain = pct(lang, fate.odds(fate.Request(bonus=2)).p_success)
    expect(chance(table)).to_have_text(plain)
    invoke = table.locator(f"#composer [name=invoke][value='{aspect.pk}']")
    invoke.check()
    expect(chance(table)).to_have_text(pct(lang, fate.odds(fate.Request(bonus=4)).p_success))
    dice.script(0, -1, 1, 0)
    card = roll(table, expected_cards=1)
    dice.assert_all_drawn()
    expect(card).to_contain_text(say(lang, "total +4", "total +4"))
    expect(invoke).not_to_be_checked()
    expect(chance(table)).to_have_text(plain)
    expect(table.locator(f"#character-{wizard.pk} [data-resource=fate-points]")).to_have_text("2")


# --- 8. teamwork ----------------------------------------------------------------------------------

def compose_teamwork(table, lang, gm_user) -> tuple[Character, str, str]:
    """Exalted's Smith (Strength 4 + Athletics 3, difficulty 4) composed with Lyra (5 dice) helping,
    the odds of Smith alone seen first: Lyra, and the odds alone and with her, as the page prints them."""
    campaign = campaign_of(gm_user, Game.EXALTED)
    smith = make_character(campaign, "Smith", {"strength": 4, "athletics": 3})
    lyra = make_character(campaign, "Lyra", {"strength": 3, "athletics": 2}, kind="npc")
    open_table(table, campaign)
    expect(table.locator("#composer [name=character]")).to_have_value(str(smith.pk))
    table.select_option("#composer [name=first]", trait(smith, "strength"))
    table.select_option("#composer [name=second]", trait(smith, "athletics"))
    table.select_option("#composer [name=difficulty]", "4")
    alone = pct(lang, exalted.odds(exalted.Request(pool=7, difficulty=4)).p_success)
    expect(chance(table)).to_have_text(alone)
    open_extras(table)
    table.check(f"#composer [name=team][value='{lyra.pk}']")
    team = exalted.teamwork_odds(exalted.Request(pool=7, difficulty=4), [exalted.Request(pool=5, difficulty=0)])
    return lyra, alone, pct(lang, team.p_success)


def test_exalted_teamwork_odds_and_card_count_the_helpers(table, lang, gm_user, dice):
    """Item 8: the odds of a teamwork roll count the helper, and the card says the team's total
    beside the lead's own successes."""
    _lyra, alone, together = compose_teamwork(table, lang, gm_user)
    assert together != alone
    expect(chance(table)).to_have_text(together)

    # The seed's teamwork: Smith 1 3 4 6 7 9 9 (3) + Lyra 1 1 3 6 7 (1) = 4 against difficulty 4.
    dice.script(1, 3, 4, 6, 7, 9, 9, 1, 1, 3, 6, 7)
    card = roll(table, expected_cards=1)
    dice.assert_all_drawn()
    expect(card.locator("[data-testid=verdict]")).to_have_text(say(lang, "Success", "Éxito"))
    expect(card.locator("[data-testid=count]")).to_have_text(say(
        lang, "4 successes with help (3 own) · margin 0", "4 éxitos con ayuda (3 propios) · margen 0"))
    expect_lyra_helped(card, lang)


def expect_lyra_helped(card, lang: str) -> None:
    """The teamwork card names Lyra with her own dice (the seed's 1 1 3 6 7) and her 1 success."""
    helper = card.locator("[data-testid=team] [data-testid=helper]")
    expect(card.locator("[data-testid=team]")).to_contain_text(say(lang, "Helpers:", "Ayudantes:"))
    expect(helper.locator(".dice > span")).to_have_text(["1", "1", "3", "6", "7"])
    expect(helper).to_contain_text("Lyra")
    expect(helper).to_contain_text(say(lang, "1 success", "1 éxito"))


# --- 9. no internal keys on the cards ------------------------------------------------------------

def test_a_fate_point_invocation_reads_in_words(table, lang, gm_user, dice):
    """Item 9: an invocation paid with a fate point reads "1 fate point" in the language, never
    "fate_point"."""
    campaign = campaign_of(gm_user, Game.FATE)
    wizard = make_character(campaign, "Wizard", {"clever": 2}, fate_points=2)
    Aspect.objects.create(character=wizard, text="Bookish")
    open_table(table, campaign)
    dice.script(-1, -1, 0, 0)
    card = roll(table, expected_cards=1)
    form = card.locator(".invoke-form")
    # An invocation names its aspect (issue 23): no "Fate point" without one.
    expect(form.locator("select[name=aspect] option")).to_have_text([
        say(lang, "Choose an aspect…", "Elige un aspecto…"), "Bookish"])
    form.locator("select[name=aspect]").select_option(label="Bookish")
    form.get_by_role("button", name=say(lang, "Invoke +2", "Invocar +2")).click()
    invoked = cards(table).first.locator("[data-testid=follow-ups] .follow-up")
    expect(invoked).to_have_attribute("data-kind", "invoke")
    expect(cards(table)).to_have_count(1)
    dice.assert_all_drawn()
    expect(invoked.locator(".spends")).to_have_text(say(lang, "Spent: 1 fate point (Bookish)",
                                                        "Gastado: 1 punto de destino (Bookish)"))
    expect(table.locator("#log-list")).not_to_contain_text("fate_point")
    expect(table.locator(f"#character-{wizard.pk} [data-resource=fate-points]")).to_have_text("1")


# --- 10. each viewer reads the table in its own language -----------------------------------------

def test_a_roll_reads_in_the_viewers_language_whatever_it_was_rolled_in(browser, asgi_server, gm_user, lang, dice):
    """Item 10: a roll composed in the other language shows its label and its spend in the
    viewer's; no English blank choice in Spanish; chances and the mean with the language's
    decimal mark."""
    other = {"en": "es", "es": "en"}[lang]
    campaign = campaign_of(gm_user, Game.EXALTED)
    make_character(campaign, "Swan", {"dexterity": 3, "melee": 4}, exalted_willpower=5, exalted_willpower_temporary=5)
    with gm_table(browser, asgi_server, gm_user, other) as composer:
        open_table(composer, campaign)
        composer.check("#composer [name=willpower]")
        dice.script(7, 8, 2, 3, 9, 1, 4)
        roll(composer, expected_cards=1)
        dice.assert_all_drawn()
    logged = Roll.objects.get(campaign=campaign)

    with gm_table(browser, asgi_server, gm_user, lang) as viewer:
        open_table(viewer, campaign)
        card = viewer.locator(f"#roll-{logged.pk}")
        expect(card).to_contain_text(say(lang, "Swan · Dexterity + Melee", "Swan · Destreza + Combate Cuerpo a Cuerpo"))

        # Django's blank choice (the extended action form's selects) in the viewer's language.
        options = [" ".join(text.split()) for text in viewer.locator("select option").all_text_contents()]
        assert say(lang, "- Select an option -", "- Elige una opción -") in options
        if lang == "es":
            assert "Select an option" not in viewer.content()

        mark, other_mark = say(lang, ".", ","), say(lang, ",", ".")
        chances = viewer.locator("#odds [data-testid=odds] .chance .p").all_text_contents()
        assert chances and any(mark in c for c in chances) and not any(other_mark in c for c in chances), chances
        expect(viewer.locator("#odds")).to_contain_text(re.compile(say(lang, r"mean \d+\.\d\d", r"media \d+,\d\d")))

        # What the roll spent, too, in the viewer's words (not the words of the GM who rolled it).
        expect(card.locator(".spends")).to_have_text(say(lang, "Spent: 1 Willpower", "Gastado: 1 punto de Voluntad"))


# --- 11 and 12: layout at 1366×768, every game, both languages; the screenshots -----------------

# Demo-like tables: a player character with traits, a scene in play, one roll (no 10s: nothing explodes).
TABLES = {
    Game.EXALTED: dict(name="Swan", traits={"dexterity": 3, "melee": 4, "athletics": 2}, fields={"exalted_willpower_temporary": 4},
                       faces=(7, 3, 8, 1, 5, 9, 6)),
    Game.V5: dict(name="Koi", traits={"strength": 4, "brawl": 4, "dexterity": 3, "stealth": 2}, fields={"v5_hunger": 2},
                  faces=(7, 3, 8, 5, 2, 9, 6, 4)),
    Game.FATE: dict(name="Wizard", traits={"clever": 3, "forceful": 2}, fields={"fate_points": 3}, faces=(1, 0, -1, 1)),
    Game.SCIFI: dict(name="Tracker", traits={"perception": 3, "survival": 2, "agility": 4, "stealth": 4}, fields={},
                     faces=(7, 3, 8, 2, 2, 9, 5, 6)),
}
SCENE_TITLES = {Game.EXALTED: "The fortress wall", Game.V5: "Elysium at midnight", Game.FATE: "The Old Library",
                Game.SCIFI: "Dust on the ridge"}


def rect(locator: Locator) -> dict:
    """Where an element is in the viewport (not the page): what the GM sees without scrolling."""
    return locator.evaluate("e => { const r = e.getBoundingClientRect(); "
                            "return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; }")


def assert_composer_fits(page: Page) -> None:
    """Without scrolling: the Roll button, and the odds' headline (their first chance, or their
    warning when the roll would be refused)."""
    assert page.evaluate("window.scrollY") == 0
    button = rect(page.locator("#roll-button"))
    headline = rect(page.locator("#odds .chance, #odds [data-testid=odds-error]").first)
    assert 0 <= button["top"] and button["bottom"] <= VIEWPORT["height"], f"the Roll button is off screen: {button}"
    assert headline["bottom"] <= VIEWPORT["height"], f"the headline odds are below the fold: {headline}"


def roll_and_let_the_odds_follow(page: Page, expected_cards: int) -> Locator:
    """Roll, then wait until the odds panel has followed the roll (it refreshes for the new turn)."""
    page.evaluate("""() => { window.__oddsSettled = false;
        document.body.addEventListener("htmx:afterSettle", (e) => {
            if (e.target.id === "odds") window.__oddsSettled = true; }); }""")
    card = roll(page, expected_cards)
    page.wait_for_function("window.__oddsSettled === true")
    return card


# A select shows its chosen option's text between its paddings (the right one holds the arrow):
# the text is cut when it is wider than that room. (A select's scrollWidth never exceeds its
# clientWidth, whatever it shows, so the text is measured with the select's own font.)
SELECT_TEXT = """(sel, every) => {
    const style = getComputedStyle(sel);
    const ctx = document.createElement("canvas").getContext("2d");
    ctx.font = style.font;
    const room = sel.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const options = every ? [...sel.options] : [sel.options[sel.selectedIndex]].filter(Boolean);
    return options.map((o) => ({name: sel.name, text: o.text, width: Math.ceil(ctx.measureText(o.text).width),
                                room: Math.floor(room), scroll: sel.scrollWidth, client: sel.clientWidth}));
}"""


def cut_selects(selects: Locator, every: bool = False) -> list[str]:
    """The texts cut in the visible selects: the chosen one's, or with ``every`` any option's."""
    shown = [o for s in selects.all() if s.is_visible() for o in s.evaluate(SELECT_TEXT, every)]
    return [f"{o['name']}: {o['text']!r} needs {o['width']}px, has {o['room']}px" for o in shown
            if o["width"] > o["room"] + 1 or o["scroll"] > o["client"] + 1]


@pytest.mark.parametrize("game", list(TABLES))
def test_the_table_fits_1366x768_and_nothing_is_cut(table, lang, gm_user, dice, game):
    """Items 11 and 12: at 1366×768 the Roll button and the headline odds show without scrolling,
    and the Roll button stays in sight with "Opposed, teamwork, note" open; nothing is cut or
    stacked (the log filters, the composer's choices, a card's time and label, the −/+ buttons).
    Saves the screenshot of the table after its first roll."""
    setup = TABLES[game]
    campaign = campaign_of(gm_user, game)
    character = make_character(campaign, setup["name"], setup["traits"], **setup["fields"])
    if game == Game.FATE:
        Aspect.objects.create(character=character, kind="high_concept", text="Wizard of the Old Library", free_invocations=1)
    services.start_scene(campaign, title=SCENE_TITLES[game])
    open_table(table, campaign)
    assert_composer_fits(table)

    dice.script(*setup["faces"])
    card = roll_and_let_the_odds_follow(table, expected_cards=1)
    dice.assert_all_drawn()
    assert faces(card) == list(setup["faces"])
    assert_composer_fits(table)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    table.screenshot(path=str(SCREENSHOTS / f"issue9-{game}-{lang}.png"), full_page=False)

    # Item 12: nothing cut, nothing overlapping, nothing stacked.
    # The log filters as they stand ("All stories"...: a scene's own title may be long), the composer's
    # choices as chosen, and every difficulty and every way to settle it (V5's How) the GM may pick.
    cut = (cut_selects(table.locator(".log-filter select")) + cut_selects(table.locator("#composer select"))
           + cut_selects(table.locator("#composer [name=difficulty], #composer [name=shortcut]"), every=True))
    label, time = rect(card.locator(".card-body > div").first.locator("> span").first), rect(card.locator("time"))
    assert label["right"] <= time["left"] or label["bottom"] <= time["top"], f"the time runs into the label: {label} {time}"
    for adjust in table.locator(f"#character-{character.pk} .adjust").all():
        tops = adjust.locator("button").evaluate_all("bs => bs.map(b => Math.round(b.getBoundingClientRect().top))")
        assert len(tops) >= 2 and len(set(tops)) == 1, f"the −/+ buttons are not side by side: {tops}"

    # Item 11: with the extras open, the Roll button is still in sight (sticky at the screen's foot).
    open_extras(table)
    table.locator("#composer details.composer-extras").evaluate("d => d.scrollIntoView({block: 'end'})")
    button = rect(table.locator("#roll-button"))
    assert 0 <= button["top"] and button["bottom"] <= VIEWPORT["height"], f"the Roll button left the screen: {button}"
    expect(table.locator("#roll-button")).to_be_in_viewport()
    cut += cut_selects(table.locator("#composer details.composer-extras select"))  # the extras' own choices
    assert cut == [], f"cut in {lang}: {cut}"
    assert_same_page(table)


# --- 13. small things: a card picks its character, dates, the scene's title, confirmations, budgets

def test_clicking_a_character_card_picks_it_in_the_composer(table, lang, gm_user):
    """Item 13: a click on a character's card (its name, not a button) picks it in the composer,
    which comes back with its traits."""
    campaign = campaign_of(gm_user, Game.V5)
    aaron = make_character(campaign, "Aaron", {"strength": 3, "brawl": 2})
    koi = make_character(campaign, "Koi", {"dexterity": 4, "stealth": 3})
    open_table(table, campaign)
    expect(table.locator("#composer [name=character]")).to_have_value(str(aaron.pk))
    table.locator(f"#character-{koi.pk} strong").first.click()
    expect(table.locator("#composer [name=character]")).to_have_value(str(koi.pk))
    expect(table.locator("#composer [name=first]")).to_have_value(trait(koi, "dexterity"))
    expect(table.locator("#composer [name=second]")).to_have_value(trait(koi, "stealth"))
    expect(table.locator(f"#composer [name=first] option[value='{trait(aaron, 'strength')}']")).to_have_count(0)
    expect(table.locator("#composer [name=first] option:checked")).to_have_text(say(lang, "Dexterity 4", "Destreza 4"))
    assert_same_page(table)


def test_a_card_from_an_earlier_day_shows_its_date(table, lang, gm_user, dice):
    """Item 13: a roll from two days ago shows its date as well as its time; today's only the time."""
    campaign = campaign_of(gm_user, Game.EXALTED)
    make_character(campaign, "Swan", {"dexterity": 3, "melee": 4})
    open_table(table, campaign)
    dice.script(7, 3, 8, 1, 5, 9, 6)
    roll(table, expected_cards=1)
    dice.script(2, 3, 8, 1, 5, 9, 6)
    roll(table, expected_cards=2)
    old, new = Roll.objects.filter(campaign=campaign).order_by("id")
    earlier = timezone.now() - timedelta(days=2)
    Roll.objects.filter(pk=old.pk).update(created_at=earlier)
    table.reload()
    local = timezone.localtime(earlier)
    with translation.override(lang):
        dated = date_format(local, "SHORT_DATE_FORMAT") + " " + date_format(local, "H:i")
    expect(table.locator(f"#roll-{old.pk} time")).to_have_text(dated)
    assert dated.startswith(say(lang, local.strftime("%m/%d/%Y"), local.strftime("%d/%m/%Y")))
    expect(table.locator(f"#roll-{new.pk} time")).to_have_text(re.compile(r"^\d\d:\d\d:\d\d$"))


def test_the_scene_title_shows_and_ending_asks_first(table, lang, gm_user):
    """Item 13: the scene's title shows in the time bar; "End scene" and "End episode" ask first,
    and nothing ends when the GM says no."""
    campaign = campaign_of(gm_user, Game.SCIFI)
    make_character(campaign, "Kade", {"perception": 3, "survival": 2})
    open_table(table, campaign)
    table.locator("#time-bar details.new-scene summary").click()
    table.fill("#time-bar [name=title]", "Dust on the ridge")
    table.click("#start-scene")
    expect(where(table)).to_have_text(where_text(lang, 1, 1))
    expect(table.locator("#time-bar [data-testid=scene-title]")).to_have_text("Dust on the ridge")
    scene = Scene.objects.current(campaign)

    asked: list[str] = []
    table.on("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    time_button(table, "end-scene").click()
    time_button(table, "end-episode").click()
    table.click("#next-turn")  # a request after the two refusals: had either ended anything, this would say so
    expect(where(table)).to_have_text(where_text(lang, 1, 2))
    expect(table.locator("#time-bar [data-testid=scene-title]")).to_have_text("Dust on the ridge")
    assert asked == [
        say(lang, "End this scene? Its turn order is closed (and, in Fate, stress boxes empty).",
            "¿Terminar esta escena? Su orden de turno se cierra (y, en Fate, las casillas de estrés se vacían)."),
        say(lang, "End this episode and its scene?", "¿Terminar este episodio y su escena?"),
    ]
    scene.refresh_from_db()
    assert scene.ended_at is None and scene.episode.ended_at is None
    assert_same_page(table)


def test_an_npc_outside_the_turn_order_shows_no_action_budget(table, lang, gm_user):
    """Item 13: a player character in the scene's turn order shows its action budget; an NPC
    outside it shows none."""
    campaign = campaign_of(gm_user, Game.EXALTED)
    pc = make_character(campaign, "Swan", {"dexterity": 3, "melee": 4})
    npc = make_character(campaign, "Guard captain", {"strength": 3, "melee": 3}, kind="npc")
    services.start_scene(campaign)  # the player characters join the turn order; the NPC does not
    open_table(table, campaign)
    expect(table.locator("#turn-order [data-order-id]")).to_have_count(1)
    expect(table.locator(f"#character-{pc.pk} [data-testid=turn-budget]")).to_contain_text(
        say(lang, "Actions this turn: 0 of 1", "Acciones este turno: 0 de 1"))
    expect(table.locator(f"#character-{npc.pk}")).to_be_visible()
    expect(table.locator(f"#character-{npc.pk} [data-testid=turn-budget]")).to_have_count(0)
