"""Fate Accelerated, as the table sees it: its sheet, what the end of a scene clears, its demo campaign."""

from django.utils.translation import pgettext_lazy

from gmtools.games.base import DemoCampaign, DemoCharacter, GameSystem, sheet_part
from gmtools.sheets import Game
from gmtools.sheets import TraitCategory as C

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
SCENE_CLEARS = {"fate_stress_1": False, "fate_stress_2": False, "fate_stress_3": False}

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
            resources={"fate_points": 2, "fate_stress_1": True, "fate_consequence_mild": "Bruised ribs"},
        ),
        DemoCharacter(
            name="Fortress guard",
            kind="npc",
            concept="Someone has to distract him",
            ratings={"careful": 2, "forceful": 2, "quick": 1},
            aspects=(("high_concept", "Bored guard at the fortress gate", 0), ("other", "Easily distracted", 1)),
            resources={"fate_points": 0, "fate_refresh": 1},
        ),
    ),
    state={
        "fate_uses_deck": True,
        # Empty: the first draw shuffles the whole deck (a deck listed in order would deal card 0, 1, 2...).
        "fate_deck": [],
    },
)

SYSTEM = GameSystem(
    id=Game.FATE,
    categories=CATEGORIES,
    standard_sheet=STANDARD_SHEET,
    scene_clears=SCENE_CLEARS,
    demo=DEMO,
)
