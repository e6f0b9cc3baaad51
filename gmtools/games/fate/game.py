"""Fate Accelerated, as the table sees it (``Fate``): its sheet, what the end of a scene clears, its demo
campaign, and its parts: its words (``words``), composer (``composer``), play at the table (``table``)
and tables (``models``)."""

from types import ModuleType
from typing import ClassVar

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rules import fate as engine

from gmtools.games.base import BaseGame, DemoCampaign, DemoCharacter, sheet_part
from gmtools.games.base import TraitCategory as C
from gmtools.games.fate import words
from gmtools.games.fate.composer import FateComposer
from gmtools.games.fate.npcs import NPCS
from gmtools.games.fate.sheet import RESOURCES, SHEET, STATE
from gmtools.games.fate.table import FatePlay

CATEGORIES = (C.APPROACH, C.STUNT)

# Each label is a literal pgettext_lazy call so that makemessages finds it.
STANDARD_SHEET = sheet_part(
    C.APPROACH,
    0,
    ("careful", pgettext_lazy("fate", "Careful")),
    ("clever", pgettext_lazy("fate", "Clever")),
    ("flashy", pgettext_lazy("fate", "Flashy")),
    ("forceful", pgettext_lazy("fate", "Forceful")),
    ("quick", pgettext_lazy("fate", "Quick")),
    ("sneaky", pgettext_lazy("fate", "Sneaky")),
)

# Fate's stress boxes empty after each scene (its consequences stay).
SCENE_CLEARS = {"stress_1": False, "stress_2": False, "stress_3": False}

DEMO = DemoCampaign(
    name="Demo · Fate Accelerated: into the fortress",
    characters=(
        DemoCharacter(
            name="Vesper",
            concept="Wizard hunting a lost spell",
            ratings={"careful": 2, "clever": 3, "flashy": 1, "forceful": 0, "quick": 1, "sneaky": 2},
            custom=(("stunt", "Bookworm: +2 to Cleverly create advantages in a library", 2),),
            aspects=(
                ("high_concept", "Hedge wizard with a head full of spells", 0),
                ("trouble", "Cannot leave a locked book alone", 0),
                ("other", "The school library is my second home", 0),
            ),
        ),
        DemoCharacter(
            name="Brann",
            concept="Sword for hire",
            ratings={"careful": 1, "clever": 1, "flashy": 2, "forceful": 3, "quick": 2, "sneaky": 0},
            custom=(("stunt", "Shield wall: +2 to Forcefully defend an ally", 2),),
            aspects=(
                ("high_concept", "Warrior sworn to the caravan", 0),
                ("trouble", "Never backs down from a challenge", 0),
                ("other", "Jumped between the cars of a moving train, on purpose", 0),
            ),
            resources={"points": 2, "stress_1": True, "consequence_mild": "Bruised ribs"},
        ),
        DemoCharacter(
            name="Fortress guard",
            kind="npc",
            concept="Someone has to distract him",
            ratings={"careful": 2, "forceful": 2, "quick": 1},
            aspects=(("high_concept", "Bored guard at the fortress gate", 0), ("other", "Easily distracted", 1)),
            resources={"points": 0, "refresh": 1},
        ),
    ),
    state={
        "uses_deck": True,
        # Empty: the first draw shuffles the whole deck (a deck listed in order would deal card 0, 1, 2...).
        "deck": [],
    },
)


class Fate(BaseGame):
    """Fate Accelerated: four Fate dice (or the Fate deck) on the Ladder, aspects and fate points."""

    id = "fate"
    label = _("Fate Accelerated")
    engine: ClassVar[ModuleType] = engine  # a module: mypy reads a bare one as an instance variable
    composer_class = FateComposer
    play_class = FatePlay
    categories = CATEGORIES
    standard_sheet = STANDARD_SHEET
    sheet = SHEET
    resources = RESOURCES
    state = STATE
    npcs = NPCS
    scene_clears = SCENE_CLEARS
    demo = DEMO
    note_texts = words.NOTE_TEXTS
    effect_texts = words.EFFECT_TEXTS
    refusal_texts = words.REFUSAL_TEXTS
    terms = words.TERMS
    label_terms = {"no_approach": _("No approach")}
    outcome_words = words.OUTCOME_WORDS
    # Its verdicts judge the total on the Ladder, not successes.
    judged_field = "total"
    special_words = {"success_with_style": _("Success with style")}
    count_of = staticmethod(words.count_of)
    contest_of = staticmethod(words.contest_of)


GAME = Fate()
