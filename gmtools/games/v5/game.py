"""Vampire: The Masquerade 5e, as the table sees it: its sheet, what the end of a scene clears, its demo campaign."""

from django.utils.functional import Promise
from django.utils.translation import gettext, npgettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from rules import v5 as engine

from gmtools.games.base import (
    DemoCampaign, DemoCharacter, GameSystem, Line, Params, sheet_part, signed, with_text_value,
)
from gmtools.games.v5.npcs import NPCS
from gmtools.games.v5.sheet import RESOURCES, SHEET
from gmtools.sheets import Game
from gmtools.sheets import TraitCategory as C

CATEGORIES = (C.ATTRIBUTE, C.SKILL, C.DISCIPLINE, C.BACKGROUND, C.MERIT, C.FLAW)

# Each label is a literal pgettext_lazy call so that makemessages finds it.
STANDARD_SHEET = (
    *sheet_part(
        C.ATTRIBUTE,
        1,
        ("strength", pgettext_lazy("v5", "Strength")),
        ("dexterity", pgettext_lazy("v5", "Dexterity")),
        ("stamina", pgettext_lazy("v5", "Stamina")),
        ("charisma", pgettext_lazy("v5", "Charisma")),
        ("manipulation", pgettext_lazy("v5", "Manipulation")),
        ("composure", pgettext_lazy("v5", "Composure")),
        ("intelligence", pgettext_lazy("v5", "Intelligence")),
        ("wits", pgettext_lazy("v5", "Wits")),
        ("resolve", pgettext_lazy("v5", "Resolve")),
    ),
    # Physical, social and mental skills, in the book's order.
    *sheet_part(
        C.SKILL,
        0,
        ("athletics", pgettext_lazy("v5", "Athletics")),
        ("brawl", pgettext_lazy("v5", "Brawl")),
        ("craft", pgettext_lazy("v5", "Craft")),
        ("drive", pgettext_lazy("v5", "Drive")),
        ("firearms", pgettext_lazy("v5", "Firearms")),
        ("larceny", pgettext_lazy("v5", "Larceny")),
        ("melee", pgettext_lazy("v5", "Melee")),
        ("stealth", pgettext_lazy("v5", "Stealth")),
        ("survival", pgettext_lazy("v5", "Survival")),
        ("animal_ken", pgettext_lazy("v5", "Animal Ken")),
        ("etiquette", pgettext_lazy("v5", "Etiquette")),
        ("insight", pgettext_lazy("v5", "Insight")),
        ("intimidation", pgettext_lazy("v5", "Intimidation")),
        ("leadership", pgettext_lazy("v5", "Leadership")),
        ("performance", pgettext_lazy("v5", "Performance")),
        ("persuasion", pgettext_lazy("v5", "Persuasion")),
        ("streetwise", pgettext_lazy("v5", "Streetwise")),
        ("subterfuge", pgettext_lazy("v5", "Subterfuge")),
        ("academics", pgettext_lazy("v5", "Academics")),
        ("awareness", pgettext_lazy("v5", "Awareness")),
        ("finance", pgettext_lazy("v5", "Finance")),
        ("investigation", pgettext_lazy("v5", "Investigation")),
        ("medicine", pgettext_lazy("v5", "Medicine")),
        ("occult", pgettext_lazy("v5", "Occult")),
        ("politics", pgettext_lazy("v5", "Politics")),
        ("science", pgettext_lazy("v5", "Science")),
        ("technology", pgettext_lazy("v5", "Technology")),
    ),
)

DEMO = DemoCampaign(
    name="Demo · Vampire: nights in the neighbourhood",
    characters=(
        DemoCharacter(
            name="Marcos Vidal",
            player="Juan",
            concept="Sounds out the neighbourhood",
            notes="Resolve + Investigation 6 against difficulty 2: three successes, a win with margin 1.",
            ratings={
                "strength": 2,
                "dexterity": 2,
                "stamina": 2,
                "charisma": 2,
                "manipulation": 2,
                "composure": 2,
                "intelligence": 2,
                "wits": 3,
                "resolve": 3,
                "investigation": 3,
                "streetwise": 2,
                "insight": 1,
            },
        ),
        DemoCharacter(
            name="Elias Crane",
            player="John",
            concept="Occult researcher",
            notes="Intelligence + Occult 5 in the arcane bookshop.",
            ratings={
                "stamina": 2,
                "composure": 2,
                "intelligence": 3,
                "wits": 2,
                "resolve": 2,
                "occult": 2,
                "academics": 2,
                "investigation": 1,
            },
            specialties={"occult": "Grimoires"},
            custom=(("discipline", "Auspex", 2),),
        ),
        DemoCharacter(
            name="Bhavna",
            concept="The coterie's negotiator",
            notes="Willpower 7 (Composure 3 + Resolve 4) with 3 spent this session: Willpower rolls take 4 dice.",
            ratings={
                "stamina": 2,
                "charisma": 3,
                "manipulation": 3,
                "composure": 3,
                "intelligence": 2,
                "wits": 2,
                "resolve": 4,
                "persuasion": 3,
                "etiquette": 2,
                "insight": 2,
                "subterfuge": 2,
            },
            custom=(("discipline", "Dominate", 2), ("background", "Contacts", 2)),
            resources={"hunger": 2, "willpower_superficial": 3},
        ),
        DemoCharacter(
            name="Leo Marsh",
            player="Sam",
            concept="Rooftop runner",
            notes="Missed a rooftop jump with no successes at all: a total failure, and the cold hard ground.",
            ratings={"dexterity": 2, "stamina": 2, "athletics": 1},
            resources={"health_superficial": 2},
        ),
    ),
)


# --- the engine's notes and refusals, in the active language (gmtools.notes reads them) -------
# Every line has the game as gettext context, like the sheet's labels.

def _v5_rouse(p: Params, with_face: Promise, without: Promise) -> str:
    p = with_text_value(p, "face", r"^rouse check (\d+):")
    return str(with_face if "face" in p else without) % p


NOTE_TEXTS: dict[str, Line] = {
    "specialty": lambda p: pgettext("v5", "Specialty: +1 die"),
    "modifiers_beyond_guideline": lambda p: pgettext(
        "v5", "modifiers %(modifiers)s dice: beyond the ±%(limit)d guideline") % {
        "modifiers": signed(p["modifiers"]), "limit": p["limit"]},
    "pool_minimum": lambda p: pgettext("v5", "a pool never drops below 1 die"),
    "difficulty_beyond_guideline": lambda p: pgettext(
        "v5", "difficulty modifiers %(modifiers)s: beyond the ±%(limit)d guideline") % {
        "modifiers": signed(p["modifiers"]), "limit": p["limit"]},
    "improvised": lambda p: pgettext("v5", "improvised equipment: +%(difficulty)d difficulty") % p,
    "no_equipment": lambda p: pgettext("v5", "impossible without the equipment: failure without a roll"),
    # Emitted for the Humanity (remorse) roll, the one tracker roll without Hunger dice.
    "tracker_no_hunger": lambda p: pgettext("v5", "tracker roll: no Hunger dice"),
    "win": lambda p: npgettext("v5", "win: %(successes)d success vs difficulty %(difficulty)d, margin %(margin)d",
                               "win: %(successes)d successes vs difficulty %(difficulty)d, margin %(margin)d",
                               p["successes"]) % p,
    "failure": lambda p: npgettext("v5", "failure: %(successes)d success vs difficulty %(difficulty)d",
                                   "failure: %(successes)d successes vs difficulty %(difficulty)d",
                                   p["successes"]) % p,
    "total_failure": lambda p: pgettext("v5", "no successes: total failure"),
    "win_at_cost": lambda p: npgettext("v5", "%(short)d success short: the Storyteller may offer a win at a cost",
                                       "%(short)d successes short: the Storyteller may offer a win at a cost",
                                       p["short"]) % p,
    "critical_pairs": lambda p: npgettext("v5", "%(tens)d tens: %(pairs)d critical pair, +%(bonus)d",
                                          "%(tens)d tens: %(pairs)d critical pairs, +%(bonus)d", p["pairs"]) % {
        "tens": p["tens"], "pairs": p["pairs"], "bonus": 2 * p["pairs"]},
    "critical_win": lambda p: pgettext("v5", "critical win"),
    "messy_critical": lambda p: pgettext("v5", "a Hunger die shows 10: messy critical"),
    "bestial_failure": lambda p: pgettext("v5", "a Hunger die shows 1: bestial failure"),
    "automatic_win": lambda p: pgettext(
        "v5", "automatic win: %(dice)d dice, at least twice difficulty %(difficulty)d") % p,
    "take_half": lambda p: npgettext("v5", "took half: %(successes)d success from %(dice)d dice",
                                     "took half: %(successes)d successes from %(dice)d dice", p["successes"]) % p,
    "willpower_reroll": lambda p: npgettext(
        "v5", "Willpower: rerolled %(dice)d normal die (1 superficial Willpower damage)",
        "Willpower: rerolled %(dice)d normal dice (1 superficial Willpower damage)", p["dice"]) % p,
    "hunger_at_maximum": lambda p: pgettext(
        "v5", "Hunger is already %(hunger)d: a forced rouse check calls for a hunger frenzy test "
              "(difficulty %(difficulty)d)") % p,
    "hunger_frenzy_risk": lambda p: pgettext(
        "v5", "Hunger is still %(hunger)d: the next failed rouse check calls for a hunger frenzy test "
              "(difficulty %(difficulty)d)") % p,
    "rouse_pass": lambda p: _v5_rouse(p, pgettext_lazy("v5", "rouse check %(face)d: Hunger stays %(hunger)d"),
                                      pgettext_lazy("v5", "rouse check passed: Hunger stays %(hunger)d")),
    "rouse_fail": lambda p: _v5_rouse(p, pgettext_lazy("v5", "rouse check %(face)d: Hunger rises to %(hunger)d"),
                                      pgettext_lazy("v5", "rouse check failed: Hunger rises to %(hunger)d")),
    "rouse_fail_at_maximum": lambda p: _v5_rouse(
        p, pgettext_lazy("v5", "rouse check %(face)d: failed, Hunger stays %(hunger)d"),
        pgettext_lazy("v5", "rouse check failed: Hunger stays %(hunger)d")),
}

# The engine's refusals (``RulesError.code``) that a GM meets at the table.
REFUSAL_TEXTS: dict[str, Line] = {
    "automatic_win_pool": lambda p: pgettext(
        "v5", "an automatic win needs at least %(needed)d dice (twice difficulty %(difficulty)d), the pool has %(dice)d") % p,
    "automatic_win_stress": lambda p: pgettext("v5", "no automatic win under stress or in combat: roll the dice"),
    "take_half_stress": lambda p: pgettext("v5", "no taking half under stress or in combat: roll the dice"),
    "no_equipment_shortcut": lambda p: pgettext("v5", "the task is impossible without equipment: nothing to win"),
    "reroll_tracker": lambda p: pgettext("v5", "Willpower cannot reroll a tracker roll (Willpower, Humanity)"),
    "reroll_again": lambda p: pgettext("v5", "this roll was already rerolled with Willpower"),
    "reroll_hunger_only": lambda p: pgettext("v5", "every die is a Hunger die, and Willpower cannot reroll Hunger dice"),
    "reroll_count": lambda p: pgettext("v5", "Willpower rerolls 1 to %(most)d normal dice, not %(dice)d") % p,
}

# Words the game says its own way ("Willpower" is *Voluntad* in Exalted, *Fuerza de Voluntad*
# in Vampire): ``gmtools.notes.game_term`` and the ``term`` filter read them.
TERMS = {
    "Willpower": pgettext_lazy("v5", "Willpower"),
    "Willpower roll": pgettext_lazy("v5", "Willpower roll"),
}

# --- the roll's verdict in the game's words (gmtools.verdicts reads them) --------------------

# A rouse check's outcomes; a roll's win or failure reads through ``verdict_of``.
OUTCOME_WORDS = {"pass": (_("Rouse check passed"), "good"), "fail": (_("Rouse check failed: Hunger rises"), "bad")}


def verdict_of(result: Params) -> tuple[str, str] | None:
    """A win or a failure, with what the Hunger dice and the tens made of it."""
    outcome = result.get("outcome", "")
    if outcome not in ("win", "failure"):
        return None
    if result.get("messy"):
        return gettext("Messy critical"), "worst"
    if result.get("critical"):
        return gettext("Critical win"), "best"
    if outcome == "win":
        return gettext("Win"), "good"
    if result.get("bestial"):
        text = gettext("Bestial failure")
        return (text + " · " + gettext("Total failure") if result.get("total_failure") else text), "worst"
    if result.get("total_failure"):
        return gettext("Total failure"), "bad"
    return gettext("Failure (win at a cost?)"), "bad"


def contest_mark(main: Params, winner: str | None) -> tuple[str, str] | None:
    """A critical or a bestial result, judged against the contest (won or lost)."""
    hunger = main.get("hunger_faces", [])
    pairs = (list(main.get("faces", [])) + list(hunger)).count(10) // 2
    if winner == "first" and pairs:
        return (gettext("Messy critical"), "worst") if 10 in hunger else (gettext("Critical win"), "best")
    if winner == "second" and 1 in hunger:
        return gettext("Bestial failure"), "worst"
    return None


TIE_WORDS = _("Tie: neither side prevails")


def count_of(main: Params) -> str | None:
    """A rouse check counts its Hunger, before and after (its dice are no successes); a roll, its successes."""
    if "hunger_before" not in main:
        return None
    return gettext("Hunger") + f" {main['hunger_before']} → {main['hunger_after']}"


SYSTEM = GameSystem(
    id=Game.V5,
    count_of=count_of,
    engine=engine,
    categories=CATEGORIES,
    standard_sheet=STANDARD_SHEET,
    demo=DEMO,
    outcome_words=OUTCOME_WORDS,
    verdict_of=verdict_of,
    contest_mark=contest_mark,
    tie_words=TIE_WORDS,
    special_words={"critical": _("Critical win"), "messy_critical": _("Messy critical"),
                   "bestial_failure": _("Bestial failure")},
    note_texts=NOTE_TEXTS,
    refusal_texts=REFUSAL_TEXTS,
    terms=TERMS,
    label=Game.V5.label,
    sheet=SHEET,
    resources=RESOURCES,
    npcs=NPCS,
    table="gmtools.games.v5.table.PLAY",  # imported when first asked: it uses the models
    composer_module="gmtools.games.v5.composer",
)
