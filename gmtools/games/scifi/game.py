"""The science-fiction d10 game, as the table sees it (``Scifi``): its sheet, its demo campaign, and its
parts: its words (``words``), composer (``composer``), play at the table (``table``) and tables (``models``)."""

from types import ModuleType
from typing import ClassVar

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rules import scifi as engine

from gmtools.games.base import BaseGame, DemoCampaign, DemoCharacter, sheet_part
from gmtools.games.base import TraitCategory as C
from gmtools.games.scifi import words
from gmtools.games.scifi.composer import ScifiComposer
from gmtools.games.scifi.npcs import NPCS
from gmtools.games.scifi.sheet import RESOURCES, SHEET, STATE
from gmtools.games.scifi.table import ScifiPlay

# Advantages, disadvantages, augmentations (tecnificaciones) and mutations are the seed's
# sources of pool modifiers; their rating is the size of the modifier.
CATEGORIES = (C.ATTRIBUTE, C.SKILL, C.ADVANTAGE, C.DISADVANTAGE, C.AUGMENTATION, C.MUTATION)

# Each label is a literal pgettext_lazy call so that makemessages finds it.
STANDARD_SHEET = (
    *sheet_part(
        C.ATTRIBUTE,
        1,
        # FUE and RES drive the derived distances (swimming, jumping).
        ("strength", pgettext_lazy("scifi", "Strength")),
        ("agility", pgettext_lazy("scifi", "Agility")),
        ("endurance", pgettext_lazy("scifi", "Endurance")),
        ("perception", pgettext_lazy("scifi", "Perception")),
        ("intelligence", pgettext_lazy("scifi", "Intelligence")),
        ("charisma", pgettext_lazy("scifi", "Charisma")),
    ),
    *sheet_part(
        C.SKILL,
        0,
        ("athletics", pgettext_lazy("scifi", "Athletics")),
        ("melee", pgettext_lazy("scifi", "Melee")),
        ("firearms", pgettext_lazy("scifi", "Firearms")),
        ("piloting", pgettext_lazy("scifi", "Piloting")),
        ("stealth", pgettext_lazy("scifi", "Stealth")),
        ("survival", pgettext_lazy("scifi", "Survival")),
        ("animal_handling", pgettext_lazy("scifi", "Animal Handling")),
        ("science", pgettext_lazy("scifi", "Science")),
        ("computers", pgettext_lazy("scifi", "Computers")),
        ("electronics", pgettext_lazy("scifi", "Electronics")),
        ("medicine", pgettext_lazy("scifi", "Medicine")),
        ("persuasion", pgettext_lazy("scifi", "Persuasion")),
    ),
)

DEMO = DemoCampaign(
    name="Demo · Sci-fi d10: the jungle pursuit",
    characters=(
        DemoCharacter(
            name="Kade Ortiz",
            concept="Tracker (PJ1 in the seed)",
            notes="Perception + Survival 5 against the fugitive's Agility + Stealth 3: [4, 9, 2, 2, 7] beats [1, 5, 8]",
            ratings={
                "strength": 3,
                "agility": 2,
                "endurance": 2,
                "perception": 3,
                "intelligence": 2,
                "charisma": 1,
                "survival": 2,
                "athletics": 2,
                "firearms": 2,
                "animal_handling": 1,
            },
            resources={"in_adventure": True},
        ),
        DemoCharacter(
            name="Lio Sarr",
            concept="Fugitive (PJ2 in the seed)",
            ratings={
                "strength": 2,
                "agility": 2,
                "endurance": 3,
                "perception": 2,
                "intelligence": 2,
                "charisma": 2,
                "stealth": 1,
                "athletics": 2,
                "computers": 2,
                "electronics": 1,
            },
            custom=(("augmentation", "Subdermal climbing grips", 1),),
            resources={"in_adventure": True},
        ),
        DemoCharacter(
            name="Mara Quell",
            concept="Field medic, waiting at base",
            notes="Not in the adventure, so she can still shop and heal Off-Rol.",
            ratings={"intelligence": 3, "perception": 2, "medicine": 3, "science": 2},
        ),
    ),
    state={"adventure_open": True},
)


class Scifi(BaseGame):
    """The science-fiction d10 game: pools of d10s against a difficulty, 10s explode, two action slots a turn."""

    id = "scifi"
    label = _("Sci-fi d10")
    engine: ClassVar[ModuleType] = engine  # a module: mypy reads a bare one as an instance variable
    composer_class = ScifiComposer
    play_class = ScifiPlay
    categories = CATEGORIES
    standard_sheet = STANDARD_SHEET
    sheet = SHEET
    resources = RESOURCES
    state = STATE
    npcs = NPCS
    demo = DEMO
    note_texts = words.NOTE_TEXTS
    refusal_texts = words.REFUSAL_TEXTS
    outcome_words = words.OUTCOME_WORDS
    tie_words = words.TIE_WORDS
    victory_words = words.VICTORY_WORDS
    degree_hints = words.DEGREE_HINTS
    special_words = {"fumble": _("Fumble")}
    verdict_of = staticmethod(words.verdict_of)
    contest_mark = staticmethod(words.contest_mark)


GAME = Scifi()
