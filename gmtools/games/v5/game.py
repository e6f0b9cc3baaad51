"""Vampire: The Masquerade 5e, as the table sees it (``V5``): its sheet, its demo campaign, and its parts:
its words (``words``), composer (``composer``), play at the table (``table``) and tables (``models``)."""

from types import ModuleType
from typing import ClassVar

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rules import v5 as engine

from gmtools.games.base import BaseGame, DemoCampaign, DemoCharacter, sheet_part
from gmtools.games.base import TraitCategory as C
from gmtools.games.v5 import words
from gmtools.games.v5.composer import V5Composer
from gmtools.games.v5.npcs import NPCS
from gmtools.games.v5.sheet import RESOURCES, SHEET
from gmtools.games.v5.table import V5Play

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


class V5(BaseGame):
    """Vampire: The Masquerade 5e: pools of d10s, 6 or more a success, Hunger dice among them."""

    id = "v5"
    label = _("Vampire: The Masquerade 5e")
    engine: ClassVar[ModuleType] = engine  # a module: mypy reads a bare one as an instance variable
    composer_class = V5Composer
    play_class = V5Play
    categories = CATEGORIES
    standard_sheet = STANDARD_SHEET
    sheet = SHEET
    resources = RESOURCES
    npcs = NPCS
    demo = DEMO
    note_texts = words.NOTE_TEXTS
    refusal_texts = words.REFUSAL_TEXTS
    terms = words.TERMS
    label_terms = {"willpower_roll": words.TERMS["Willpower roll"], "humanity_roll": _("Humanity roll"),
                   "rouse_check": _("Rouse check")}
    outcome_words = words.OUTCOME_WORDS
    tie_words = words.TIE_WORDS
    special_words = {"critical": _("Critical win"), "messy_critical": _("Messy critical"),
                     "bestial_failure": _("Bestial failure")}
    verdict_of = staticmethod(words.verdict_of)
    contest_mark = staticmethod(words.contest_mark)
    count_of = staticmethod(words.count_of)


GAME = V5()
