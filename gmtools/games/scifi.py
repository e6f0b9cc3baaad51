"""the science-fiction d10 game, as the table sees it: its sheet, what the end of a scene clears, its demo campaign."""

from django.utils.translation import pgettext_lazy

from gmtools.games.base import DemoCampaign, DemoCharacter, GameSystem, sheet_part
from gmtools.sheets import Game
from gmtools.sheets import TraitCategory as C

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
            resources={"scifi_in_adventure": True},
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
            resources={"scifi_in_adventure": True},
        ),
        DemoCharacter(
            name="Mara Quell",
            concept="Field medic, waiting at base",
            notes="Not in the adventure, so she can still shop and heal Off-Rol.",
            ratings={"intelligence": 3, "perception": 2, "medicine": 3, "science": 2},
        ),
    ),
    state={"scifi_adventure_open": True},
)

SYSTEM = GameSystem(
    id=Game.SCIFI,
    categories=CATEGORIES,
    standard_sheet=STANDARD_SHEET,
    demo=DEMO,
)
