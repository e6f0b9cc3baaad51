"""Issue 10's "Done when", in a real browser, once per game (English, 1366×768, ``make run``'s settings:
uvicorn with DEBUG on, from tests/web/test_browser.py).

From the home page the GM creates a new campaign and meets an empty table; then, only by clicking and
typing as a GM does:

- a PC through "New character" (a few traits of the game's standard sheet and the resource a spend
  will use), a "Quick NPC" with a pool and an NPC from the game's template;
- a roll from the PC's card: the trait list opened, an Attribute (Fate: an Approach) clicked, then an
  Ability or Skill (Fate: another Approach); the composer shows them and the odds follow each click;
- "☆ Save this roll", the composer moved elsewhere, the saved roll clicked on the card, and rolled;
- a roll that spends, voided from its card (after the confirmation): the card struck through with who
  and when, the spend back on the character's card and in the database. Exalted: Spend Willpower;
  V5: a Willpower reroll from the card; Fate: a scene started, a situation aspect added from the time
  bar with a free invocation, then a roll invoking it (free) and the PC's own aspect (a fate point);
  scifi, which spends nothing on a roll: a roll into an extended action, whose progress and action
  slots come back.

The page is never reloaded, nothing answers 4xx (a refusal's 422 aside) or 5xx, no JavaScript or
console error. At the end every campaign URL the GM's page requested is replayed by another GM (404)
and by a browser that holds only the players' link (sent to log in, or 404): nothing changes.
Every die is scripted. Screenshots: ``artifacts/screenshots/issue10-campaign-<game>.png``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from tests.web.test_access import changed, snapshot
from tests.web.test_browser import (  # noqa: F401 - fixtures
    SCREENSHOTS,
    asgi_server,
    assert_not_reloaded,
    browser,
    cards,
    dice,
    expect,
    faces,
    gm_user,
    page,
    pytestmark,
    success_chance,
    sync_api,
)
from tests.web.test_browser_aspects import add_scene_aspect, chip as scene_chip
from tests.web.test_browser_characters import card as card_named, open_panel, panel
from tests.web.test_browser_time import caught_up, roll_into_wall, start_scene

from gmtools.games.fate.models import Aspect
from gmtools.models import Campaign, Character, ExtendedAction, Roll, Trait
from tests.games import Game
from gmtools.formatting import percent
from rules import exalted, fate, scifi, v5

Page = sync_api.Page
Locator = sync_api.Locator


# --- what each game's PC and NPCs are --------------------------------------------------------------

@dataclass(frozen=True)
class Plan:
    pc: str
    ratings: dict[str, int]  # standard traits typed on the sheet
    resources: dict[str, str]  # the sheet's resource fields, typed
    first: str  # the Attribute (Approach) clicked first on the card
    best_second: str  # what the composer pairs it with (the best Ability/Skill), or "" in Fate
    second: str  # then clicked: an Ability/Skill (Fate: another Approach, which replaces the first)
    label: str  # the roll's label, made of those traits
    template: str
    aspect: str = ""  # Fate: the PC's high concept, typed on the sheet
    extra: dict[str, str] = field(default_factory=dict)


PLANS = {
    Game.EXALTED: Plan("Swan", {"dexterity": 4, "melee": 3, "athletics": 2},
                       {"exalted_willpower": "6", "exalted_willpower_temporary": "5"},
                       first="dexterity", best_second="melee", second="athletics", label="Dexterity + Athletics",
                       template="soldier"),
    Game.V5: Plan("Koi", {"strength": 3, "dexterity": 2, "composure": 2, "resolve": 3, "stealth": 3, "brawl": 2},
                  {"v5_hunger": "1"},
                  first="strength", best_second="stealth", second="brawl", label="Strength + Brawl", template="ghoul"),
    Game.FATE: Plan("Zara", {"clever": 3, "forceful": 2}, {"fate_points": "3"},
                    first="forceful", best_second="", second="clever", label="Clever", template="average",
                    aspect="Free-spirited pilot"),
    Game.SCIFI: Plan("Kade", {"agility": 4, "stealth": 3, "perception": 3, "survival": 2},
                     {"scifi_health_max": "12", "scifi_health": "12"},
                     first="agility", best_second="stealth", second="survival", label="Agility + Survival",
                     template="mook"),
}


def chance(game: str, ratings: dict[str, int], first: str, second: str) -> str:
    """The headline chance the odds panel must show for the PC's first + second (difficulty left as it is)."""
    pool = ratings[first] + (ratings[second] if second else 0)
    if game == Game.EXALTED:
        return percent(exalted.odds(exalted.Request(pool=pool)).p_success)
    if game == Game.V5:
        return percent(v5.odds(v5.Request(pool=pool, hunger=1)).p_win)
    if game == Game.FATE:
        return percent(fate.odds(fate.Request(bonus=pool)).p_success)
    return percent(scifi.odds(scifi.Request(pool=pool, difficulty="common", skill=ratings[second])).p_success)


# Faces for a roll of the PC's first + second (no 10 in scifi: it would explode).
FIRST_ROLL = {Game.EXALTED: (8, 7, 10, 2, 3, 1), Game.V5: (6, 7, 2, 3, 8), Game.FATE: (1, 0, 0, -1),
              Game.SCIFI: (8, 3, 7, 2, 2, 5)}
SAVED_ROLL = {Game.EXALTED: (2, 3, 4, 5, 6, 7), Game.V5: (2, 3, 4, 5, 6), Game.FATE: (0, 0, 0, 0),
              Game.SCIFI: (4, 4, 4, 4, 4, 4)}


# --- the page, watched -----------------------------------------------------------------------------

@dataclass
class Watch:
    """What the GM's page asked the server (to replay as strangers), and what went wrong in it."""

    requests: list[tuple[str, str, str]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    noise: list[str] = field(default_factory=list)


# htmx's own console.error lines that are known and harmless (each reported on issue 10), kept apart from
# the problems so that they fail nothing but are still visible (``Watch.noise``):
# - "htmx:afterRequest" / "htmx:sendAbort" on #odds: an odds request superseded by a newer one
#   (hx-sync="this:replace" aborts it, and htmx logs every abort as an error).
# "htmx:oobErrorNoTarget" is a problem, not noise: static/live.js holds what the stream hears while the
# page's own change is on its way, so the clicked button is still there when its answer is swapped in.
KNOWN_HTMX_NOISE = re.compile(r"^htmx:(afterRequest|sendAbort), \[object HTMLDivElement\]$")


def watch(page: Page) -> Watch:
    seen = Watch()

    def console(message) -> None:
        if message.type == "error":
            (seen.noise if KNOWN_HTMX_NOISE.match(message.text) else seen.problems).append(message.text)

    page.on("console", console)
    page.on("response", lambda r: 400 <= r.status < 500 and r.status != 422
            and seen.problems.append(f"{r.status} from {r.request.method} {r.url}"))

    def record(request) -> None:
        path = urlsplit(request.url).path
        if path.startswith("/campaigns/"):
            query = urlsplit(request.url).query
            seen.requests.append((request.method, path + (f"?{query}" if query else ""), request.post_data or ""))

    page.on("request", record)
    return seen


def mark_page(page: Page) -> None:
    page.evaluate("window.__sameDocument = 'still here'; document.body.dataset.hitchMark = 'same body'")


def assert_same_page(page: Page) -> None:
    assert_not_reloaded(page)
    assert page.evaluate("document.body.dataset.hitchMark") == "same body", "the document was replaced"


def character_card(page: Page, character: Character) -> Locator:
    return page.locator(f"#character-{character.pk}")


def trait_chip(page: Page, character: Character, key: str) -> Locator:
    pk = Trait.objects.get(character=character, key=key).pk
    return character_card(page, character).locator(f"[data-quick][data-trait='{pk}']")


def composer_value(page: Page, name: str) -> Locator:
    return page.locator(f"#composer [name={name}]")


def start_scene_and_settle(page: Page, campaign: Campaign) -> None:
    """Start a scene from the time bar, then wait until both the click's answer and the GM's own live
    stream have drawn it (either may come last and redraw the time bar, closing what a test opened;
    ``start_scene`` waits for the stream)."""
    with page.expect_response(lambda r: r.url.endswith(f"/campaigns/{campaign.pk}/time/")):
        start_scene(page)
    page.evaluate("() => new Promise((done) => setTimeout(done, 100))")  # htmx's settle (20 ms), with room


def void(page: Page, card: Locator) -> list[str]:
    """Void a roll from its card, saying yes to the confirmation; the card is struck through."""
    asked: list[str] = []
    card = page.locator(f"#{card.get_attribute('id')}")  # this roll's card, whoever draws it next
    page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    card.locator("[data-testid=void]").click()
    expect(card).to_have_class(re.compile(r"\broll-voided\b"))
    expect(card.locator("[data-testid=voided-mark]")).to_have_text(re.compile(r"Voided by table-gm at \d\d:\d\d"))
    expect(card.locator("[data-testid=void]")).to_have_count(0)
    expect(card).to_have_count(1)  # the click's answer and the live stream's copy: one card
    expect(card.locator("[data-testid=verdict]")).to_have_css("text-decoration-line", "line-through")
    assert asked and "stays in the log" in asked[0], asked
    return asked


def assert_voided_in_db(roll: Roll, gm: User) -> None:
    roll.refresh_from_db()
    assert roll.voided_at is not None and roll.voided_by == gm


# --- the steps ---------------------------------------------------------------------------------------

def create_campaign(page: Page, game: str, gm: User) -> Campaign:
    page.goto("/")
    expect(page.get_by_text("You have no campaigns yet.")).to_be_visible()
    name = f"New {game} campaign"
    page.locator("form[action='/campaigns/new/'] [name=name]").fill(name)
    page.locator("form[action='/campaigns/new/'] [name=game]").select_option(game)
    page.locator("form[action='/campaigns/new/']").get_by_role("button", name="Create").click()
    campaign = Campaign.objects.get(gm=gm, name=name)
    expect(page).to_have_url(re.compile(rf"/campaigns/{campaign.pk}/$"))
    assert campaign.game == game
    # An empty table: no character, no roll, an invitation to create them.
    expect(page.locator("[data-testid=no-characters]")).to_have_text("No characters yet: create one, import one from a file (Foundry VTT, Progeny), or a quick NPC.")
    expect(cards(page)).to_have_count(0)
    expect(page.locator("#time-bar")).to_contain_text("No scene in play.")
    expect(page.locator("#composer")).to_be_visible()
    mark_page(page)
    return campaign


def create_pc(page: Page, campaign: Campaign, plan: Plan) -> Character:
    open_panel(page, "character-new")
    sheet = panel(page)
    expect(sheet.locator(f"[data-trait={plan.first}]")).to_be_visible()
    sheet.locator("[name=sheet-name]").fill(plan.pc)
    sheet.locator("[name=sheet-player]").fill("Lucía")
    for key, rating in plan.ratings.items():
        sheet.locator(f"[data-trait={key}] input[name$='-rating']").fill(str(rating))
    for name, value in plan.resources.items():
        sheet.locator(f"[name=sheet-{name}]").fill(value)
    if plan.aspect:
        row = sheet.locator(".aspect-row").first
        row.locator("select[name$='-kind']").select_option("high_concept")
        row.locator("input[name$='-text']").fill(plan.aspect)
    sheet.locator("[data-testid=character-save]").click()
    expect(panel(page)).to_be_hidden()
    expect(card_named(page, plan.pc)).to_be_visible()
    expect(page.locator("[data-testid=no-characters]")).to_have_count(0)
    pc = Character.objects.get(campaign=campaign, name=plan.pc)
    assert pc.kind == "pc" and pc.player == "Lucía"
    for key, rating in plan.ratings.items():
        assert pc.traits.get(key=key).rating == rating, key
    for name, value in plan.resources.items():
        assert str(getattr(pc.resources, name.removeprefix(f"{campaign.game}_"))) == value, name
    if plan.aspect:
        assert list(pc.aspects.values_list("kind", "text")) == [("high_concept", plan.aspect)]
        expect(character_card(page, pc).locator(".aspects")).to_contain_text(plan.aspect)
    return pc


def create_npcs(page: Page, campaign: Campaign, plan: Plan) -> None:
    open_panel(page, "npc-quick")
    quick = panel(page).locator("[data-testid=quick-form]")
    quick.locator("[name=name]").fill("Harbour guard")
    quick.locator("[name=pool]").fill("2" if campaign.game == Game.FATE else "6")
    panel(page).locator("[data-testid=quick-create]").click()
    expect(card_named(page, "Harbour guard")).to_be_visible()
    expect(panel(page)).to_be_hidden()

    open_panel(page, "npc-quick")
    panel(page).locator("[data-testid=template-form] [name=template]").select_option(plan.template)
    panel(page).locator("[data-testid=template-form] [name=name]").fill("Gate watch")
    panel(page).locator("[data-testid=template-create]").click()
    expect(card_named(page, "Gate watch")).to_be_visible()
    expect(panel(page)).to_be_hidden()
    assert sorted(Character.objects.filter(campaign=campaign).values_list("name", "kind")) == sorted(
        [(plan.pc, "pc"), ("Harbour guard", "npc"), ("Gate watch", "npc")])
    for name in (plan.pc, "Harbour guard", "Gate watch"):
        expect(page.locator("#composer [name=character] option", has_text=name)).to_have_count(1)


def roll_from_clicked_traits(page: Page, campaign: Campaign, plan: Plan, pc: Character, dice) -> Locator:
    game = campaign.game
    card = character_card(page, pc)
    card.locator("details.card-traits summary").click()
    first = trait_chip(page, pc, plan.first)
    expect(first).to_be_visible()
    expect(first).to_have_text(re.compile(rf"^\S.* {plan.ratings[plan.first]}$"))
    # The Attribute: the PC and that trait in the composer (with the PC's best Ability/Skill), odds at once.
    first.click()
    expect(composer_value(page, "character")).to_have_value(str(pc.pk))
    expect(composer_value(page, "first")).to_have_value(str(Trait.objects.get(character=pc, key=plan.first).pk))
    expect(success_chance(page)).to_have_text(chance(game, plan.ratings, plan.first, plan.best_second))
    # Then the Ability/Skill (Fate: another Approach, in the same place): the odds follow.
    trait_chip(page, pc, plan.second).click()
    which = "first" if game == Game.FATE else "second"
    expect(composer_value(page, which)).to_have_value(str(Trait.objects.get(character=pc, key=plan.second).pk))
    if game == Game.FATE:
        expect(success_chance(page)).to_have_text(chance(game, plan.ratings, plan.second, ""))
    else:
        expect(composer_value(page, "first")).to_have_value(str(Trait.objects.get(character=pc, key=plan.first).pk))
        expect(success_chance(page)).to_have_text(chance(game, plan.ratings, plan.first, plan.second))
    expect(trait_chip(page, pc, plan.second)).to_have_attribute("aria-pressed", "true")

    dice.script(*FIRST_ROLL[game])
    page.click("#roll-button")
    expect(cards(page)).to_have_count(1)
    dice.assert_all_drawn()
    rolled = cards(page).first
    expect(rolled).to_contain_text(plan.pc)
    expect(rolled).to_contain_text(plan.label)
    assert faces(rolled) == list(FIRST_ROLL[game])
    assert_same_page(page)
    logged = Roll.objects.get(campaign=campaign)
    assert logged.character_id == pc.pk and logged.voided_at is None
    return rolled


def roll_from_a_saved_roll(page: Page, campaign: Campaign, plan: Plan, pc: Character, dice) -> Locator:
    game = campaign.game
    page.locator("#save-roll summary").click()
    page.locator("#save-roll button[type=submit]").click()
    expect(page.locator("[data-testid=saved-note]")).to_have_text(f"Saved “{plan.label}” on {plan.pc}’s card.")
    saved = character_card(page, pc).locator(".saved-roll-use")
    expect(saved).to_have_text(f"★ {plan.label}")
    assert list(pc.saved_rolls.values_list("name", flat=True)) == [plan.label]

    # The composer moves elsewhere (the other trait clicked); the saved roll brings it all back.
    other = plan.first if game == Game.FATE else plan.best_second
    trait_chip(page, pc, other).click()
    which = "first" if game == Game.FATE else "second"
    other_pk = str(Trait.objects.get(character=pc, key=other).pk)
    expect(composer_value(page, which)).to_have_value(other_pk)
    saved.click()
    expect(composer_value(page, "character")).to_have_value(str(pc.pk))
    expect(composer_value(page, which)).to_have_value(str(Trait.objects.get(character=pc, key=plan.second).pk))
    if game == Game.FATE:
        expect(success_chance(page)).to_have_text(chance(game, plan.ratings, plan.second, ""))
    else:
        expect(success_chance(page)).to_have_text(chance(game, plan.ratings, plan.first, plan.second))
    dice.script(*SAVED_ROLL[game])
    page.click("#roll-button")
    expect(cards(page)).to_have_count(2)
    dice.assert_all_drawn()
    rolled = cards(page).first
    expect(rolled).to_contain_text(plan.label)
    assert faces(rolled) == list(SAVED_ROLL[game])
    assert_same_page(page)
    return rolled


# --- a spend, and its void, per game -----------------------------------------------------------------

def exalted_willpower(page: Page, campaign: Campaign, pc: Character, gm: User, dice, count: int) -> Locator:
    willpower = character_card(page, pc).locator("[data-resource=willpower]")
    expect(willpower).to_have_text("5/6")
    page.check("#composer [name=willpower]")
    expect(page.locator("#odds [data-testid=odds]")).to_contain_text("100%")  # a success is sure
    dice.script(2, 2, 2, 2, 2, 2)  # no success on the dice: Willpower's own
    page.click("#roll-button")
    expect(cards(page)).to_have_count(count + 1)
    dice.assert_all_drawn()
    spent = cards(page).first
    expect(spent.locator(".spends")).to_have_text("Spent: 1 Willpower")
    expect(spent.locator("[data-testid=verdict]")).to_have_text("Success")
    expect(willpower).to_have_text("4/6")
    assert Character.objects.get(pk=pc.pk).resources.willpower_temporary == 4

    void(page, spent)
    expect(willpower).to_have_text("5/6")
    assert Character.objects.get(pk=pc.pk).resources.willpower_temporary == 5
    assert_voided_in_db(Roll.objects.get(campaign=campaign, willpower_spent=True), gm)
    return spent


def v5_willpower_reroll(page: Page, campaign: Campaign, pc: Character, gm: User, dice, count: int) -> Locator:
    willpower = character_card(page, pc).locator("[data-resource=willpower]")
    expect(willpower.locator(".box")).to_have_count(5)  # Composure 2 + Resolve 3
    expect(willpower.locator(".box-superficial")).to_have_count(0)
    form = cards(page).first.locator(".reroll-form")  # the saved roll's card: 2, 3, 4, 5 and a Hunger 6
    form.locator("input[name=dice][value='0']").check()
    form.locator("input[name=dice][value='1']").check()
    dice.script(8, 9)
    form.get_by_role("button", name="Willpower: reroll up to 3").click()
    # A line on the saved roll's card (issue 23), whose dice are now the reroll's.
    card = cards(page).first
    rerolled = card.locator("[data-testid=follow-ups] .follow-up")
    expect(rerolled).to_have_attribute("data-kind", "reroll")
    expect(cards(page)).to_have_count(count)
    dice.assert_all_drawn()
    assert faces(card) == [8, 9, 4, 5, 6]
    expect(willpower.locator(".box-superficial")).to_have_count(1)
    assert Character.objects.get(pk=pc.pk).resources.willpower_superficial == 1

    page.once("dialog", lambda d: d.accept())
    rerolled.locator("[data-testid=void-follow-up]").click()
    expect(rerolled).to_have_class(re.compile(r"\bfollow-up-voided\b"))
    expect(rerolled.locator("[data-testid=voided-mark]")).to_have_text(re.compile(r"Voided by table-gm at \d\d:\d\d"))
    expect(willpower.locator(".box-superficial")).to_have_count(0)
    assert (Character.objects.get(pk=pc.pk).resources.willpower_superficial,
            Character.objects.get(pk=pc.pk).resources.willpower_aggravated) == (0, 0)
    assert_voided_in_db(Roll.objects.get(campaign=campaign, kind="reroll"), gm)
    expect(card).not_to_have_class(re.compile(r"\broll-voided\b"))  # the roll it followed stands
    return rerolled


def fate_situation_aspect(page: Page, campaign: Campaign, pc: Character, gm: User, dice, count: int) -> Locator:
    points = character_card(page, pc).locator("[data-resource=fate-points]")
    expect(points).to_have_text("3")
    start_scene_and_settle(page, campaign)
    add_scene_aspect(page, campaign, "Thick smoke", free=1)
    expect(scene_chip(page, "Thick smoke")).to_contain_text("1 free")
    smoke = Aspect.objects.get(scene__isnull=False, text="Thick smoke")
    own = Aspect.objects.get(character=pc)
    invoke = page.locator("#composer-invoke")
    expect(invoke).to_contain_text("Thick smoke (scene, 1 free)")
    expect(invoke).to_contain_text("Free-spirited pilot")
    # Both on one roll: the scene's with its free invocation, the PC's own with a fate point.
    page.check(f"#composer [name=invoke][value='{smoke.pk}']")
    page.check(f"#composer [name=invoke][value='{own.pk}']")
    page.select_option("#composer [name=difficulty]", "4")
    expect(success_chance(page)).to_have_text(percent(fate.odds(fate.Request(bonus=3 + 4, difficulty=4)).p_success))
    dice.script(-1, -1, 0, 0)
    page.click("#roll-button")
    expect(cards(page)).to_have_count(count + 1)
    dice.assert_all_drawn()
    invoked = cards(page).first
    expect(invoked).to_contain_text("total +5")  # −2 on the dice, Clever +3, two invocations +4
    expect(invoked.locator("[data-testid=invoked]")).to_contain_text("“Thick smoke” (free)")
    expect(invoked.locator("[data-testid=invoked]")).to_contain_text("“Free-spirited pilot” (fate point)")
    expect(scene_chip(page, "Thick smoke")).not_to_contain_text("free")  # its free invocation is used
    expect(points).to_have_text("2")
    smoke.refresh_from_db()
    assert (smoke.free_invocations, Character.objects.get(pk=pc.pk).resources.points) == (0, 2)

    void(page, invoked)
    expect(points).to_have_text("3")
    expect(scene_chip(page, "Thick smoke")).to_contain_text("1 free")
    smoke.refresh_from_db()
    assert (smoke.free_invocations, Character.objects.get(pk=pc.pk).resources.points) == (1, 3)
    assert_voided_in_db(Roll.objects.filter(campaign=campaign).order_by("-id").first(), gm)
    expect(page.locator("#composer-invoke")).to_contain_text("Thick smoke (scene, 1 free)")
    return invoked


def scifi_extended(page: Page, campaign: Campaign, pc: Character, gm: User, dice, count: int) -> Locator:
    """Sci-fi spends nothing on a roll: a roll into an extended action is voided, and its progress
    and the turn's action slots come back."""
    start_scene_and_settle(page, campaign)
    budget = character_card(page, pc).locator("[data-testid=turn-budget]")
    expect(budget).to_have_text("Action slots used: 0 of 2")
    extended = page.locator("#extended-list")
    extended.locator("details summary", has_text="New extended action").click()
    form = extended.locator("form")
    form.locator("[name=name]").fill("Crack the vault")
    form.locator("[name=kind]").select_option("solo")
    form.locator("[name=goal]").fill("10")
    form.locator("[name=pool]").fill("6")
    form.locator("[name=interval]").fill("1 turn")
    form.locator("[name=difficulty]").fill("0")
    form.get_by_role("button", name="Create").click()
    card = page.locator("#extended-list .extended-action")
    expect(card).to_have_count(1)
    bar = card.locator(".progress-bar")
    status = card.locator("[data-testid=extended-status]")
    expect(bar).to_have_text("0/10")
    action = ExtendedAction.objects.get(campaign=campaign)

    roll_into_wall(page, action)  # the composer's "Roll into extended action" (any extended action)
    page.select_option("#composer [name=kind]", "extended")
    dice.script(8, 9, 7, 2, 3, 4)
    page.click("#roll-button")
    expect(cards(page)).to_have_count(count + 1)
    dice.assert_all_drawn()
    into = cards(page).first
    expect(into.locator("[data-testid=into-extended]")).to_contain_text("Into “Crack the vault”")
    action.refresh_from_db()
    assert action.total > 0 and action.rolls == 1, (action.total, action.rolls)
    expect(bar).to_have_text(f"{action.total}/10")
    expect(status).to_contain_text("1 roll ·")
    expect(budget).to_have_text("Action slots used: 2 of 2")

    void(page, into)
    expect(bar).to_have_text("0/10")
    expect(status).to_contain_text("0 rolls ·")
    expect(budget).to_have_text("Action slots used: 0 of 2")
    action.refresh_from_db()
    assert (action.total, action.rolls, action.ruined) == (0, 0, False)
    assert_voided_in_db(Roll.objects.get(campaign=campaign, extended=action), gm)
    return into


SPEND = {Game.EXALTED: exalted_willpower, Game.V5: v5_willpower_reroll, Game.FATE: fate_situation_aspect,
         Game.SCIFI: scifi_extended}


# --- strangers ---------------------------------------------------------------------------------------

def stranger(browser, server: str, user: User | None, token: str = "") -> tuple[sync_api.BrowserContext, str]:
    """A browser of another GM (logged in) or of a player (who opened the link), with its CSRF token, so
    that a refusal is the view's and not the CSRF check's."""
    context = browser.new_context(base_url=server, locale="en-US", bypass_csp=True)  # see test_browser.page
    if user is not None:
        client = Client()
        client.force_login(user)
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                              "url": server}])
    if token:
        assert context.request.get(f"/p/{token}/").status == 200
    assert context.request.get("/accounts/login/").status == 200  # sets the CSRF cookie
    csrf = next(c["value"] for c in context.cookies() if c["name"] == settings.CSRF_COOKIE_NAME)
    return context, csrf


def replay_as_strangers(browser, server: str, seen: Watch, campaign: Campaign) -> int:
    """Every campaign URL the GM's page used, as another GM (404) and as the players' link (nothing)."""
    other_gm = User.objects.create_user("other-gm", password="other-secret-1")
    visitors = {"another GM": stranger(browser, server, other_gm), "the player link": stranger(browser, server, None,
                                                                                              campaign.player_token)}
    before = snapshot(campaign)
    unique = [r for r in dict.fromkeys(seen.requests) if r[1].startswith(f"/campaigns/{campaign.pk}/")]
    assert len({path.split("?")[0] for _, path, _ in unique}) >= 10, unique  # the table's many URLs, really used
    for method, path, body in unique:
        body = "&".join(part for part in body.split("&") if not part.startswith("csrfmiddlewaretoken="))
        for who, (context, csrf) in visitors.items():
            response = context.request.fetch(path, method=method, data=body or None, max_redirects=0, headers={
                "X-CSRFToken": csrf, "HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded"})
            if who == "another GM":
                assert response.status == 404, (who, method, path, response.status)
            else:  # sent to log in, or 404
                assert response.status == 404 or (
                    response.status == 302 and response.headers["location"].startswith("/accounts/login/?next=")), (
                    who, method, path, response.status)
            assert campaign.name not in response.text(), (who, method, path)
    for context, _ in visitors.values():
        context.close()
    assert changed(before, snapshot(campaign)) == []
    return len(unique)


# --- the test ----------------------------------------------------------------------------------------

@pytest.mark.known_flake("failed once and passed on its rerun in one of four full runs on 2026-12-07 (fate); "
                        "not yet diagnosed: the next session finds the event it misses")
@pytest.mark.parametrize("game", [Game.EXALTED, Game.V5, Game.FATE, Game.SCIFI])
def test_a_new_campaign_from_the_table(page, browser, asgi_server, gm_user, dice, game):
    plan = PLANS[game]
    seen = watch(page)
    campaign = create_campaign(page, game, gm_user)

    pc = create_pc(page, campaign, plan)
    create_npcs(page, campaign, plan)
    roll_from_clicked_traits(page, campaign, plan, pc, dice)
    roll_from_a_saved_roll(page, campaign, plan, pc, dice)
    voided = SPEND[game](page, campaign, pc, gm_user, dice, count=2)

    assert_same_page(page)
    # The card's trait list, opened once, stays open through every redraw (a void's answer draws it
    # closed for a moment; quick.js opens it again once settled).
    expect(character_card(page, pc).locator("details.card-traits")).to_have_attribute("open", "")
    # Every change applied (the void's echo redraws its card: a line scrolled to mid-redraw is gone).
    caught_up(page, campaign)
    voided.scroll_into_view_if_needed()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"issue10-campaign-{game}.png"), full_page=True)
    assert seen.problems == [], seen.problems
    replay_as_strangers(browser, asgi_server, seen, campaign)
