"""Exalted 2e, as the table sees it: its sheet, what the end of a scene clears, its demo campaign."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, npgettext, pgettext, pgettext_lazy

from rules import exalted as engine

from gmtools.games.base import (
    DemoCampaign, DemoCharacter, GameSystem, Line, Params, sheet_part, signed, with_text_value,
)
from gmtools.games.exalted.npcs import NPCS
from gmtools.games.exalted.sheet import RESOURCES, SHEET
from gmtools.sheets import Game
from gmtools.sheets import TraitCategory as C

# Exalted's Virtues, Willpower and Essence are not here: they are resources with their own columns and bounds.
CATEGORIES = (C.ATTRIBUTE, C.ABILITY, C.BACKGROUND)

# Each label is a literal pgettext_lazy call so that makemessages finds it.
STANDARD_SHEET = (
    *sheet_part(
        C.ATTRIBUTE,
        1,
        ("strength", pgettext_lazy("exalted", "Strength")),
        ("dexterity", pgettext_lazy("exalted", "Dexterity")),
        ("stamina", pgettext_lazy("exalted", "Stamina")),
        ("charisma", pgettext_lazy("exalted", "Charisma")),
        ("manipulation", pgettext_lazy("exalted", "Manipulation")),
        ("appearance", pgettext_lazy("exalted", "Appearance")),
        ("perception", pgettext_lazy("exalted", "Perception")),
        ("intelligence", pgettext_lazy("exalted", "Intelligence")),
        ("wits", pgettext_lazy("exalted", "Wits")),
    ),
    # The 25 Abilities of the core book, grouped by caste: Dawn, Zenith, Twilight, Night, Eclipse.
    *sheet_part(
        C.ABILITY,
        0,
        ("archery", pgettext_lazy("exalted", "Archery")),
        ("martial_arts", pgettext_lazy("exalted", "Martial Arts")),
        ("melee", pgettext_lazy("exalted", "Melee")),
        ("thrown", pgettext_lazy("exalted", "Thrown")),
        ("war", pgettext_lazy("exalted", "War")),
        ("integrity", pgettext_lazy("exalted", "Integrity")),
        ("performance", pgettext_lazy("exalted", "Performance")),
        ("presence", pgettext_lazy("exalted", "Presence")),
        ("resistance", pgettext_lazy("exalted", "Resistance")),
        ("survival", pgettext_lazy("exalted", "Survival")),
        ("craft", pgettext_lazy("exalted", "Craft")),
        ("investigation", pgettext_lazy("exalted", "Investigation")),
        ("lore", pgettext_lazy("exalted", "Lore")),
        ("medicine", pgettext_lazy("exalted", "Medicine")),
        ("occult", pgettext_lazy("exalted", "Occult")),
        ("athletics", pgettext_lazy("exalted", "Athletics")),
        ("awareness", pgettext_lazy("exalted", "Awareness")),
        ("dodge", pgettext_lazy("exalted", "Dodge")),
        ("larceny", pgettext_lazy("exalted", "Larceny")),
        ("stealth", pgettext_lazy("exalted", "Stealth")),
        ("bureaucracy", pgettext_lazy("exalted", "Bureaucracy")),
        ("linguistics", pgettext_lazy("exalted", "Linguistics")),
        ("ride", pgettext_lazy("exalted", "Ride")),
        ("sail", pgettext_lazy("exalted", "Sail")),
        ("socialize", pgettext_lazy("exalted", "Socialize")),
    ),
)

DEMO = DemoCampaign(
    name="Demo · Exalted: the Realm garrison",
    characters=(
        DemoCharacter(
            name="Smith",
            player="Phyllis",
            concept="Solar Exalt and notorious bandit",
            notes="Strength + Athletics 6 (the oak); Stamina + Athletics 6 (climbing with a soldier on his boot); "
            "Perception + Athletics 8 (the botched leap); Intelligence + Linguistics 5 (the documents).",
            ratings={
                "strength": 3,
                "dexterity": 3,
                "stamina": 3,
                "charisma": 2,
                "manipulation": 2,
                "appearance": 2,
                "perception": 5,
                "intelligence": 3,
                "wits": 2,
                "archery": 3,
                "martial_arts": 3,
                "survival": 2,
                "athletics": 3,
                "awareness": 2,
                "dodge": 2,
                "stealth": 1,
                "linguistics": 2,
            },
            specialties={"martial_arts": "Kicks"},
            custom=(("background", "Resources", 1),),
            resources={
                "essence": 2,
                "willpower": 7,
                "willpower_temporary": 7,
                "motes": 13,
                "motes_max": 13,
                "compassion": 2,
                "conviction": 3,
                "temperance": 2,
                "valor": 4,
                "limit": 1,
            },
        ),
        DemoCharacter(
            name="Koi",
            player="Rebecca",
            concept="Smith's companion, a silent infiltrator",
            notes="Dexterity + Athletics 6 (the wall, an extended action to 10); Dexterity + Stealth 6 against the "
            "guard's Perception + Awareness 4; Intelligence + Linguistics 7 (teamwork with Smith).",
            ratings={
                "strength": 2,
                "dexterity": 4,
                "stamina": 2,
                "charisma": 2,
                "manipulation": 3,
                "appearance": 3,
                "perception": 3,
                "intelligence": 4,
                "wits": 3,
                "martial_arts": 2,
                "athletics": 2,
                "awareness": 2,
                "dodge": 3,
                "larceny": 3,
                "stealth": 2,
                "linguistics": 3,
            },
            specialties={"larceny": "Documents"},
            resources={
                "essence": 2,
                "willpower": 6,
                "willpower_temporary": 6,
                "motes": 12,
                "motes_max": 12,
                "compassion": 2,
                "conviction": 3,
                "temperance": 3,
                "valor": 2,
            },
        ),
        DemoCharacter(
            name="Garrison guard",
            kind="npc",
            concept="A Realm soldier left behind at the fort",
            ratings={"strength": 2, "stamina": 2, "perception": 2, "wits": 2, "melee": 2, "awareness": 2},
        ),
        DemoCharacter(
            name="Garrison commander",
            kind="npc",
            concept="Wood Aspect Dragon-Blood, tracker of bandits",
            ratings={
                "strength": 3,
                "dexterity": 3,
                "stamina": 3,
                "perception": 3,
                "wits": 3,
                "melee": 3,
                "martial_arts": 2,
                "athletics": 3,
                "awareness": 3,
                "survival": 3,
                "war": 2,
            },
            resources={
                "essence": 2,
                "willpower": 6,
                "willpower_temporary": 6,
                "motes": 8,
                "motes_max": 8,
                "valor": 3,
                "conviction": 3,
            },
        ),
    ),
)


# --- the engine's notes and refusals, in the active language (gmtools.notes reads them) -------
# Every line has the game as gettext context, like the sheet's labels.

def _exalted_met(p: Params) -> str:
    p = with_text_value(p, "difficulty", r"^difficulty (\d+) met")
    if "difficulty" in p:
        return npgettext("exalted", "difficulty %(difficulty)d met with %(extra)d extra success",
                         "difficulty %(difficulty)d met with %(extra)d extra successes", p["extra"]) % p
    return npgettext("exalted", "difficulty met with %(extra)d extra success",
                     "difficulty met with %(extra)d extra successes", p["extra"]) % p


def _exalted_short(p: Params) -> str:
    p = with_text_value(p, "difficulty", r"short of difficulty (\d+)$")
    if "difficulty" in p:
        return npgettext("exalted", "%(short)d success short of difficulty %(difficulty)d",
                         "%(short)d successes short of difficulty %(difficulty)d", p["short"]) % p
    return npgettext("exalted", "%(short)d success short of the difficulty",
                     "%(short)d successes short of the difficulty", p["short"]) % p


def _exalted_opposed_win(p: Params) -> str:
    if p["side"] == "first":
        return pgettext("exalted", "the first side wins by %(net)d") % p
    if p["side"] == "second":
        return pgettext("exalted", "the second side wins by %(net)d") % p
    raise ValueError(p["side"])


NOTE_TEXTS: dict[str, Line] = {
    "stunt": lambda p: npgettext("exalted", "%(dice)d-die stunt: +%(dice)d die",
                                 "%(dice)d-die stunt: +%(dice)d dice", p["dice"]) % p,
    "dice_modifier": lambda p: pgettext("exalted", "dice modifiers: %(dice)s") % {"dice": signed(p["dice"])},
    "botch": lambda p: npgettext("exalted", "botch (%(ones)d one)", "botch (%(ones)d ones)", p["ones"]) % p,
    "met": _exalted_met,
    "short": _exalted_short,
    "tens_double": lambda p: npgettext("exalted", "%(tens)d ten counts double: +%(tens)d",
                                       "%(tens)d tens count double: +%(tens)d", p["tens"]) % p,
    "willpower": lambda p: pgettext("exalted", "1 Willpower: +1 success"),
    "automatic_success": lambda p: pgettext(
        "exalted", "automatic success with %(dice)d dice: no roll, no extra successes") % p,
    "opposed_tie": lambda p: pgettext("exalted", "equal successes: a tie, nobody prevails"),
    "opposed_win": _exalted_opposed_win,
}

# The engine's refusals (``RulesError.code``) that a GM meets at the table.
REFUSAL_TEXTS: dict[str, Line] = {
    "pool_unrollable": lambda p: pgettext("exalted", "a pool of %(dice)d dice after modifiers cannot be rolled") % p,
    "automatic_stress": lambda p: pgettext("exalted", "no automatic success in stressful situations or combat: roll the dice"),
    "automatic_pool": lambda p: pgettext(
        "exalted", "an automatic success needs %(needed)d or more dice, the pool has %(dice)d") % p,
    "actions_unrollable": lambda p: pgettext(
        "exalted", "the multiple-action penalty takes the pool to %(dice)d dice: this action cannot be taken "
        "(a stunt does not bring it back)") % p,
    "automatic_unreachable": lambda p: pgettext(
        "exalted", "%(dice)d dice can never reach difficulty %(difficulty)d: no automatic success") % p,
}

# Words the game says its own way ("Willpower" is *Voluntad* in Exalted, *Fuerza de Voluntad*
# in Vampire): ``gmtools.notes.game_term`` and the ``term`` filter read them.
TERMS = {
    "Willpower": pgettext_lazy("exalted", "Willpower"),
    "Willpower roll": pgettext_lazy("exalted", "Willpower roll"),
    "Stunt": pgettext_lazy("exalted", "Stunt"),
}

# --- the roll's verdict in the game's words (gmtools.verdicts reads them) --------------------

OUTCOME_WORDS = {"success": (_("Success"), "good"), "failure": (_("Failure"), "bad")}


def verdict_of(result: Params) -> tuple[str, str] | None:
    """A botch, with its ones."""
    if result.get("outcome", "") == "botch":
        ones = result.get("ones", 1)
        return ngettext("Botch (%(n)d one)", "Botch (%(n)d ones)", ones) % {"n": ones}, "worst"
    return None


def contest_mark(main: Params, winner: str | None) -> tuple[str, str] | None:
    """A botch stays a botch, whoever wins the contest."""
    if main.get("outcome") == "botch":
        return verdict_of(main)[0], "worst"
    return None


def taken_away(n: int, name: str) -> str:
    """The successes a contest took from one side first."""
    return npgettext("exalted", "%(n)d success taken away from %(name)s",
                     "%(n)d successes taken away from %(name)s", n) % {"n": n, "name": name}


# RULES.md: in a contest, a tie means nobody prevails.
TIE_WORDS = _("Tie: nobody prevails")


SYSTEM = GameSystem(
    id=Game.EXALTED,
    engine=engine,
    categories=CATEGORIES,
    standard_sheet=STANDARD_SHEET,
    demo=DEMO,
    outcome_words=OUTCOME_WORDS,
    verdict_of=verdict_of,
    contest_mark=contest_mark,
    taken_away=taken_away,
    special_words={"botch": _("Botch")},
    tie_words=TIE_WORDS,
    note_texts=NOTE_TEXTS,
    refusal_texts=REFUSAL_TEXTS,
    terms=TERMS,
    label=Game.EXALTED.label,
    sheet=SHEET,
    resources=RESOURCES,
    npcs=NPCS,
    table="gmtools.games.exalted.table.PLAY",  # imported when first asked: it uses the models
    composer_module="gmtools.games.exalted.composer",
)
