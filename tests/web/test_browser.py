"""The GM's table in a real browser: Playwright drives Debian's Chromium against a live server.

What these tests prove that the view tests cannot: htmx wiring (the composer re-renders for
another character, the odds fragment follows every change, a roll's card lands at the top of the
log and the character's card is refreshed out of band) works in a browser, without a page reload.

The server is what ``make run`` gives a user: uvicorn serving ``gmtools.asgi`` with DEBUG on
(django-htmx's debug script included, which replaced the whole page on a 400 answer), in a thread
of this process.

Determinism: every die the server rolls comes from ``ScriptedDice``, patched in where the rules
draw when no source is given (``rules.dice.system_random``, and the names ``rules.scifi`` and
``rules.fate`` imported from it). The server runs in a thread of this process, so the patch
reaches it. Each test scripts the exact faces, asserts on what they imply, and checks that every
scripted face was drawn; an unscripted draw fails the request (and the test) instead of rolling.

Chromium is /usr/bin/chromium (Debian's package, which ``.ci/run`` installs); without it these
tests are skipped, except in CI where they fail. Run only them with ``pytest -m browser``, or
leave them out with ``-m "not browser"``. Screenshots of each game's table go to
``artifacts/screenshots/<game>.png``.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


def shooter(folder: Path):
    """A test module's screenshots: ``shot(page, name)`` saves the whole page as ``<folder>/<name>.png``
    (for a person to open: a page nobody has looked at is not done)."""
    def shot(page, name: str) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
    return shot


TIMEOUT_MS = 5_000

# On a developer's machine without Chromium these tests skip; in CI (CI=true) they must run, so
# there a missing browser fails them instead (.ci/run installs it).
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists() and not IN_CI,
                       reason=f"{CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium)"),
    pytest.mark.django_db(transaction=True),
]

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed: pip install -e '.[test]'")
expect = sync_api.expect

import uvicorn  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.test import Client  # noqa: E402

import rules.dice  # noqa: E402
import rules.fate  # noqa: E402
import rules.scifi  # noqa: E402
from gmtools.games.exalted.models import ExaltedResources  # noqa: E402
from gmtools.games.fate.models import Aspect
from gmtools.models import Campaign, Character, Roll, Trait  # noqa: E402
from tests.games import Game  # noqa: E402
from gmtools.formatting import percent  # noqa: E402
from rules import exalted, fate, scifi, v5  # noqa: E402
from tests.web.helpers import set_resources  # noqa: E402


# --- deterministic dice ----------------------------------------------------------------------

class ScriptedDice:
    """A random source that answers with the faces a test scripted, in order, and nothing else."""

    def __init__(self) -> None:
        self.queue: list[int] = []
        self.drawn: list[int] = []
        self.errors: list[str] = []

    def script(self, *faces: int) -> None:
        self.queue.extend(faces)

    def randint(self, a: int, b: int) -> int:
        if not self.queue:
            self.errors.append(f"an unscripted die was rolled: randint({a}, {b})")
            raise AssertionError(self.errors[-1])
        face = self.queue.pop(0)
        if not a <= face <= b:
            self.errors.append(f"scripted face {face} does not fit randint({a}, {b})")
            raise AssertionError(self.errors[-1])
        self.drawn.append(face)
        return face

    def assert_all_drawn(self) -> None:
        assert not self.errors, self.errors
        assert self.queue == [], f"scripted faces left undrawn: {self.queue}"


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> Iterator[ScriptedDice]:
    scripted = ScriptedDice()
    # roll_d10 and roll_fate_dice look up rules.dice.system_random; scifi.draw and the Fate deck
    # call the name they imported, so that is patched too.
    for module in (rules.dice, rules.scifi, rules.fate):
        monkeypatch.setattr(module, "system_random", lambda: scripted)
    yield scripted
    assert not scripted.errors, scripted.errors


# --- browser -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def browser() -> Iterator[sync_api.Browser]:
    if not CHROMIUM.exists():
        pytest.fail(f"CI=true but {CHROMIUM} is missing: .ci/run installs Debian's chromium package")
    with pytest.MonkeyPatch.context() as mp, sync_api.sync_playwright() as playwright:
        # Playwright's sync API leaves an asyncio loop marked as running in this thread while it
        # lives, and Django then refuses ORM calls here (test bodies, database flushes). The code
        # is still plain synchronous code, so that guard is lifted for as long as the browser runs.
        mp.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"])
        yield browser
        browser.close()


@pytest.fixture
def gm_user(transactional_db) -> User:
    return User.objects.create_user("table-gm", password="table-secret-1")


@pytest.fixture
def asgi_server(transactional_db, settings) -> Iterator[str]:
    """uvicorn on 127.0.0.1 in a thread, with the settings of ``make run`` (DEBUG on)."""
    settings.DEBUG = True
    from gmtools.asgi import application

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # Streams still open when a test ends are cut at shutdown; uvicorn's report of that is noise
    # (a server error would fail the test through the page's 5xx check instead).
    server = uvicorn.Server(uvicorn.Config(application, host="127.0.0.1", port=port, lifespan="off",
                                           log_level="critical", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@contextlib.contextmanager
def watched_page(browser: sync_api.Browser, asgi_server: str, user: User | None, **options) -> Iterator[sync_api.Page]:
    """A page of a new context (logged in as ``user`` unless None; ``options`` for the context) that
    fails the test on any server error or JS error."""
    context = browser.new_context(base_url=asgi_server, **options)
    if user is not None:
        client = Client()
        client.force_login(user)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": asgi_server}])
    context.set_default_timeout(TIMEOUT_MS)
    problems: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda error: problems.append(f"JavaScript error: {error}"))
    page.on("response", lambda r: r.status >= 500 and problems.append(f"{r.status} from {r.request.method} {r.url}"))
    try:
        yield page
    finally:
        context.close()
    assert not problems, problems


@pytest.fixture
def page(browser: sync_api.Browser, asgi_server: str, gm_user: User) -> Iterator[sync_api.Page]:
    """A logged-in page at 1366×768 in English; fails the test on any server error or JS error."""
    # bypass_csp: the tests' own probes (wait_for_function) are evaluated in the page, which the
    # policy refuses; tests/web/test_browser_csp.py drives pages that keep it.
    with watched_page(browser, asgi_server, gm_user, locale="en-US", viewport={"width": 1366, "height": 768},
                      bypass_csp=True) as page:
        yield page


expect.set_options(timeout=TIMEOUT_MS)

# --- data and page helpers ---------------------------------------------------------------------

def make_character(campaign: Campaign, name: str, ratings: dict[str, int] | None = None, **fields) -> Character:
    # The game's resources by their public names (``v5_hunger``), on its own row.
    resources = {key: fields.pop(key) for key in list(fields) if key.startswith(f"{campaign.game}_")}
    character = Character.objects.create_with_sheet(campaign=campaign, name=name, **fields)
    for key, rating in (ratings or {}).items():
        assert character.traits.filter(key=key).update(rating=rating) == 1, key
    set_resources(character, **resources)
    return character


def trait(character: Character, key: str) -> str:
    return str(Trait.objects.get(character=character, key=key).pk)


def log_earlier_roll(campaign: Campaign) -> Roll:
    """A roll already in the log, so that "at the top" means something."""
    main = {
        Game.EXALTED: lambda: exalted.resolve(exalted.Request(pool=2), (2, 3)),
        Game.V5: lambda: v5.resolve(v5.Request(pool=2), (2, 3)),
        Game.FATE: lambda: fate.resolve(fate.Request(), (0, 0, 0, 0)),
        Game.SCIFI: lambda: scifi.resolve(scifi.Request(pool=2), (2, 3)),
    }[campaign.game]()
    return Roll.objects.create(campaign=campaign, actor="Somebody else", system=campaign.game, label="An earlier roll",
                               request={}, result={"main": main.as_json()}, outcome=str(main.outcome))


def open_table(page: sync_api.Page, campaign: Campaign) -> None:
    page.goto(f"/campaigns/{campaign.pk}/")
    expect(page.locator("#odds [data-testid=odds]")).to_be_visible()
    # Survives only if nothing reloads the page from here on.
    page.evaluate("window.__sameDocument = 'still here'")


def assert_not_reloaded(page: sync_api.Page) -> None:
    assert page.evaluate("window.__sameDocument") == "still here", "the page was reloaded"


def choose_character(page: sync_api.Page, character: Character, first_trait: str) -> None:
    """Pick a character; the composer comes back with that character's traits."""
    page.select_option("#composer [name=character]", str(character.pk))
    expect(page.locator(f"#composer [name=first] option[value='{first_trait}']")).to_be_attached()


def success_chance(page: sync_api.Page) -> sync_api.Locator:
    return page.locator("#odds [data-testid=odds] .chance .p").first


def cards(page: sync_api.Page) -> sync_api.Locator:
    return page.locator("#log-list .roll-card")


def faces(card: sync_api.Locator) -> list[int]:
    return [int(t) for t in card.locator("[data-testid=dice] .die").evaluate_all("els => els.map(e => e.title)")]


def roll(page: sync_api.Page, expected_cards: int) -> sync_api.Locator:
    page.click("#roll-button")
    expect(cards(page)).to_have_count(expected_cards)
    assert_not_reloaded(page)
    return cards(page).first


def screenshot(page: sync_api.Page, game: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{game}.png"), full_page=True)


def campaign_of(gm: User, game: str) -> Campaign:
    return Campaign.objects.create(name=f"Browser {game}", game=game, gm=gm)


# --- compose and roll, one game at a time ------------------------------------------------------
#
# The table opens on the campaign's first player character, with the odds of its best pool; the
# GM picks the traits and the difficulty, and rolls.

def test_exalted_compose_and_roll(page, gm_user, dice):
    campaign = campaign_of(gm_user, Game.EXALTED)
    swan = make_character(campaign, "Swan", {"dexterity": 3, "melee": 4, "athletics": 2})
    log_earlier_roll(campaign)
    open_table(page, campaign)
    expect(page.locator("#composer [name=character]")).to_have_value(str(swan.pk))
    # Dexterity 3 + Melee 4 at difficulty 1, priced by the rules engine.
    expect(success_chance(page)).to_have_text(percent(exalted.odds(exalted.Request(pool=7)).p_success))
    expect(page.locator("#odds svg.odds-chart rect")).not_to_have_count(0)
    expect(page.locator("#odds .buys")).to_contain_text("Willpower:")

    page.select_option("#composer [name=first]", trait(swan, "dexterity"))
    page.select_option("#composer [name=second]", trait(swan, "athletics"))
    page.select_option("#composer [name=difficulty]", "2")
    expect(success_chance(page)).to_have_text(percent(exalted.odds(exalted.Request(pool=5, difficulty=2)).p_success))
    dice.script(10, 7, 3, 1, 5)  # Dexterity 3 + Athletics 2: five dice
    card = roll(page, expected_cards=2)
    dice.assert_all_drawn()
    expect(card).to_contain_text("Swan")
    expect(card).to_contain_text("Dexterity + Athletics")
    assert faces(card) == [10, 7, 3, 1, 5]
    expect(card.locator("[data-testid=dice] .die-ten")).to_have_text(["10"])
    expect(card.locator("[data-testid=verdict]")).to_have_text("Success")
    expect(card).to_contain_text("3 successes · margin +1")  # the 10 counts double, against difficulty 2
    expect(cards(page).nth(1)).to_contain_text("An earlier roll")
    screenshot(page, Game.EXALTED)


def test_v5_compose_and_roll(page, gm_user, dice):
    campaign = campaign_of(gm_user, Game.V5)
    koi = make_character(campaign, "Koi", {"dexterity": 3, "stealth": 2, "strength": 4, "brawl": 4}, v5_hunger=2)
    log_earlier_roll(campaign)
    open_table(page, campaign)
    expect(success_chance(page)).to_have_text(percent(v5.odds(v5.Request(pool=8, hunger=2)).p_win))
    expect(page.locator("#odds [data-testid=odds]")).to_contain_text("Messy critical")

    page.select_option("#composer [name=first]", trait(koi, "dexterity"))
    page.select_option("#composer [name=second]", trait(koi, "stealth"))
    page.select_option("#composer [name=difficulty]", "3")
    expect(success_chance(page)).to_have_text(percent(v5.odds(v5.Request(pool=5, hunger=2, difficulty=3)).p_win))
    # Dexterity 3 + Stealth 2: 3 normal dice, then Koi's 2 Hunger dice. A pair of 10s, one of
    # them on a Hunger die, is a messy critical: 10, 6 and 10 are 3 successes, the pair 2 more.
    dice.script(10, 4, 6, 10, 1)
    card = roll(page, expected_cards=2)
    dice.assert_all_drawn()
    expect(card).to_contain_text("Koi")
    assert faces(card) == [10, 4, 6, 10, 1]
    expect(card.locator(".die-hunger")).to_have_text(["10", "1"])
    expect(card.locator("[data-testid=verdict]")).to_have_text("Messy critical")
    expect(card).to_contain_text("5 successes · margin +2")
    expect(cards(page).nth(1)).to_contain_text("An earlier roll")
    screenshot(page, Game.V5)


def test_fate_compose_and_roll(page, gm_user, dice):
    campaign = campaign_of(gm_user, Game.FATE)
    wizard = make_character(campaign, "Wizard", {"clever": 3, "forceful": 2})
    Aspect.objects.create(character=wizard, kind="high_concept", text="Wizard of the Old Library")
    log_earlier_roll(campaign)
    open_table(page, campaign)
    # Clever +3 against Mediocre (0).
    expect(success_chance(page)).to_have_text(percent(fate.odds(fate.Request(bonus=3)).p_success))

    page.select_option("#composer [name=first]", trait(wizard, "forceful"))
    page.select_option("#composer [name=difficulty]", "1")
    page.select_option("#composer [name=action]", "overcome")
    expect(success_chance(page)).to_have_text(percent(fate.odds(fate.Request(bonus=2, difficulty=1)).p_success))
    expect(page.locator("#odds .buys")).to_contain_text("Invoke an aspect (+2)")
    dice.script(1, 1, 1, 0)
    card = roll(page, expected_cards=2)
    dice.assert_all_drawn()
    expect(card).to_contain_text("Wizard")
    assert faces(card) == [1, 1, 1, 0]
    expect(card.locator(".die-fate-2")).to_have_count(3)
    expect(card.locator("[data-testid=verdict]")).to_have_text("Success with style")
    expect(card).to_contain_text("total +5 · shifts +4")  # +3 on the dice, Forceful +2, against Average (+1)
    expect(card.locator(".effect")).not_to_be_empty()
    expect(cards(page).nth(1)).to_contain_text("An earlier roll")
    screenshot(page, Game.FATE)


def test_scifi_compose_and_roll(page, gm_user, dice):
    campaign = campaign_of(gm_user, Game.SCIFI)
    tracker = make_character(campaign, "Tracker", {"perception": 3, "survival": 2, "agility": 4, "stealth": 4})
    log_earlier_roll(campaign)
    open_table(page, campaign)
    # Agility 4 + Stealth 4 against Common (1 success).
    expect(success_chance(page)).to_have_text(
        percent(scifi.odds(scifi.Request(pool=8, difficulty="common", skill=4)).p_success))

    page.select_option("#composer [name=first]", trait(tracker, "perception"))
    page.select_option("#composer [name=second]", trait(tracker, "survival"))
    page.select_option("#composer [name=difficulty]", "hard")
    expect(success_chance(page)).to_have_text(
        percent(scifi.odds(scifi.Request(pool=5, difficulty="hard", skill=2)).p_success))
    dice.script(10, 3, 8, 1, 2, 7)  # Perception 3 + Survival 2: five dice, and one more for the 10
    card = roll(page, expected_cards=2)
    dice.assert_all_drawn()
    expect(card).to_contain_text("Tracker")
    assert faces(card) == [10, 3, 8, 1, 2, 7]
    expect(card.locator(".die-explosion")).to_have_text(["7"])
    expect(card.locator("[data-testid=verdict]")).to_have_text("Clean success")  # 3 successes against Hard (2)
    expect(card).to_contain_text("3 successes · margin +1")
    expect(cards(page).nth(1)).to_contain_text("An earlier roll")
    screenshot(page, Game.SCIFI)


def test_choosing_a_character_recomposes_for_it(page, gm_user, dice):
    campaign = campaign_of(gm_user, Game.EXALTED)
    make_character(campaign, "Aaron")  # the table opens on him
    swan = make_character(campaign, "Swan", {"dexterity": 3, "melee": 4, "athletics": 2})
    open_table(page, campaign)

    choose_character(page, swan, trait(swan, "dexterity"))
    expect(page.locator("form#composer")).to_have_count(1)
    expect(page.locator("#composer [name=first]")).to_have_value(trait(swan, "dexterity"))
    expect(page.locator("#composer [name=second]")).to_have_value(trait(swan, "melee"))
    expect(page.locator("[data-testid=odds]")).to_have_count(1)
    expect(success_chance(page)).to_have_text(percent(exalted.odds(exalted.Request(pool=7)).p_success))

    dice.script(8, 8, 2, 2, 2, 2, 2)
    card = roll(page, expected_cards=1)
    dice.assert_all_drawn()
    expect(card).to_contain_text("Swan")
    expect(card.locator("[data-testid=verdict]")).to_have_text("Success")
    assert_not_reloaded(page)


# --- follow-ups and spends --------------------------------------------------------------------

def test_v5_willpower_reroll(page, gm_user, dice):
    campaign = campaign_of(gm_user, Game.V5)
    bhavna = make_character(campaign, "Bhavna", {"strength": 2, "brawl": 2, "composure": 2, "resolve": 3}, v5_hunger=1)
    open_table(page, campaign)
    willpower = page.locator(f"#character-{bhavna.pk} [data-resource=willpower]")
    expect(willpower.locator(".box")).to_have_count(5)
    expect(willpower.locator(".box-superficial")).to_have_count(0)

    page.select_option("#composer [name=first]", trait(bhavna, "strength"))
    page.select_option("#composer [name=second]", trait(bhavna, "brawl"))
    page.select_option("#composer [name=difficulty]", "3")
    dice.script(2, 3, 7, 4)  # 3 normal dice and 1 Hunger die: 1 success against 3
    card = roll(page, expected_cards=1)
    expect(card.locator("[data-testid=verdict]")).to_have_text("Failure (win at a cost?)")

    form = card.locator(".reroll-form")
    form.locator("input[name=dice][value='0']").check()
    form.locator("input[name=dice][value='1']").check()
    dice.script(8, 9)
    form.get_by_role("button", name="Willpower: reroll up to 3").click()
    # The reroll is a line on its roll's card (issue 23), whose dice and verdict are now the reroll's.
    rerolled = cards(page).first
    expect(rerolled.locator("[data-testid=follow-ups] .follow-up")).to_have_attribute("data-kind", "reroll")
    expect(cards(page)).to_have_count(1)
    assert_not_reloaded(page)
    dice.assert_all_drawn()
    assert faces(rerolled) == [8, 9, 7, 4]
    expect(rerolled.locator("[data-testid=dice] .die-rerolled")).to_have_text(["8", "9"])
    expect(rerolled.locator("[data-testid=verdict]")).to_have_text("Win")
    expect(rerolled).to_contain_text("3 successes · margin 0")
    # The Willpower spent is one superficial box, on the character's card refreshed in place.
    expect(willpower.locator(".box-superficial")).to_have_count(1)
    bhavna.refresh_from_db()
    assert (bhavna.resources.willpower_superficial, bhavna.resources.willpower_aggravated) == (1, 0)


def test_fate_invoke_spends_free_invocation_then_fate_point(page, gm_user, dice):
    campaign = campaign_of(gm_user, Game.FATE)
    wizard = make_character(campaign, "Wizard", {"clever": 2}, fate_points=3)
    aspect = Aspect.objects.create(character=wizard, kind="high_concept", text="Wizard of the Old Library",
                                   free_invocations=1)
    trouble = Aspect.objects.create(character=wizard, kind="trouble", text="Cannot leave a locked book alone")
    open_table(page, campaign)
    character = page.locator(f"#character-{wizard.pk}")
    expect(character.locator(".aspects .badge")).to_have_text("1×")

    page.select_option("#composer [name=first]", trait(wizard, "clever"))
    page.select_option("#composer [name=difficulty]", "2")
    dice.script(-1, -1, 0, 0)
    card = roll(page, expected_cards=1)
    expect(card.locator("[data-testid=verdict]")).to_have_text("Fail")
    expect(card).to_contain_text("total 0 · shifts −2")

    # +2 from the aspect: its free invocation pays, and the same dice stand.
    form = card.locator(".invoke-form")
    form.locator("select[name=aspect]").select_option(str(aspect.pk))
    form.get_by_role("button", name="Invoke +2").click()
    # The invocation is a line on the roll's card (issue 23), whose total is now the invocation's.
    invoked = cards(page).first
    expect(invoked.locator("[data-testid=follow-ups] .follow-up")).to_have_attribute("data-kind", "invoke")
    expect(cards(page)).to_have_count(1)
    assert_not_reloaded(page)
    assert faces(invoked) == [-1, -1, 0, 0]
    expect(invoked).to_contain_text("total +2 · shifts 0")
    expect(invoked.locator("[data-testid=verdict]")).to_have_text("Tie")
    expect(character.locator(".aspects .badge")).to_have_count(0)
    expect(character.locator("[data-resource=fate-points]")).to_have_text("3")

    # Again, another aspect (an invocation names its aspect), with no free invocation: a fate point pays.
    invoked.locator(".invoke-form select[name=aspect]").select_option(str(trouble.pk))
    invoked.locator(".invoke-form").get_by_role("button", name="Invoke +2").click()
    again = cards(page).first
    expect(again.locator("[data-testid=follow-ups] .follow-up")).to_have_count(2)
    expect(cards(page)).to_have_count(1)
    expect(again).to_contain_text("total +4 · shifts +2")
    expect(again.locator("[data-testid=verdict]")).to_have_text("Success")
    expect(character.locator("[data-resource=fate-points]")).to_have_text("2")
    assert_not_reloaded(page)
    dice.assert_all_drawn()  # an invocation for +2 rolls nothing
    aspect.refresh_from_db()
    wizard.refresh_from_db()
    assert (aspect.free_invocations, wizard.resources.points) == (0, 2)


def test_refused_spend_shows_the_message_and_logs_nothing(page, gm_user, dice):
    campaign = campaign_of(gm_user, Game.EXALTED)
    tired = make_character(campaign, "Tired Solar", {"strength": 3, "melee": 2}, exalted_willpower=5,
                           exalted_willpower_temporary=1)
    log_earlier_roll(campaign)
    open_table(page, campaign)
    expect(page.locator(f"#character-{tired.pk} [data-resource=willpower]")).to_have_text("1/5")
    page.check("#composer [name=willpower]")
    expect(page.locator("#odds [data-testid=odds]")).to_contain_text("100%Success")  # Willpower: a success is sure
    expect(page.locator("#odds")).not_to_contain_text("Willpower:")  # chosen: no longer a choice to price
    # The last point goes meanwhile (another tab): the composer offered it, the roll must refuse it.
    ExaltedResources.objects.filter(pk=tired.pk).update(willpower_temporary=0)
    page.click("#roll-button")
    refusal = page.locator("#composer [data-testid=refusal]")  # beside the Roll button, not over the page
    expect(refusal).to_contain_text("Tired Solar has no temporary Willpower left.")
    expect(refusal).to_have_attribute("role", "alert")
    expect(cards(page)).to_have_count(1)  # only the earlier roll
    assert_not_reloaded(page)
    assert dice.drawn == []
    assert Roll.objects.filter(campaign=campaign).count() == 1
    # Drawn again for that character, Willpower is no longer on offer, nor priced by the odds.
    page.locator(f"#character-{tired.pk} .card-body").click(position={"x": 5, "y": 5})
    choose_character(page, tired, trait(tired, "strength"))
    expect(page.locator("#composer [name=willpower]")).to_be_disabled()
    expect(page.locator("#odds .buys")).not_to_contain_text("Willpower:")


def test_odds_follow_the_pool(page, gm_user):
    campaign = campaign_of(gm_user, Game.EXALTED)
    solar = make_character(campaign, "Solar", {"dexterity": 3, "strength": 1, "melee": 2})
    open_table(page, campaign)

    def p_success(pool: int) -> str:
        return percent(exalted.odds(exalted.Request(pool=pool)).p_success)

    chance = success_chance(page)
    expect(chance).to_have_text(p_success(5))  # the best pool: Dexterity 3 + Melee 2
    page.fill("#composer [name=dice]", "2")
    expect(chance).to_have_text(p_success(7))
    page.select_option("#composer [name=first]", trait(solar, "strength"))
    expect(chance).to_have_text(p_success(5))  # Strength 1 + Melee 2 + 2 extra dice
    page.fill("#composer [name=dice]", "0")
    expect(chance).to_have_text(p_success(3))
    # What a choice buys follows too: Willpower on 3 dice.
    willpower = percent(exalted.odds(exalted.Request(pool=3, willpower=True)).p_success)
    expect(page.locator("#odds .buys li").first).to_have_text(f"Willpower: {p_success(3)} → {willpower}")
    # One odds panel, in its place; the log holds roll cards only.
    expect(page.locator("[data-testid=odds]")).to_have_count(1)
    expect(page.locator("#log-list [data-testid=odds]")).to_have_count(0)
    assert_not_reloaded(page)
