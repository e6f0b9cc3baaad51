"""Vampire: The Masquerade 5e, as the table sees it: its sheet, what the end of a scene clears, its demo campaign."""

from django.utils.translation import pgettext_lazy

from gmtools.games.base import DemoCampaign, DemoCharacter, GameSystem, sheet_part
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
            resources={"v5_hunger": 2, "v5_willpower_superficial": 3},
        ),
        DemoCharacter(
            name="Leo Marsh",
            player="Sam",
            concept="Rooftop runner",
            notes="Missed a rooftop jump with no successes at all: a total failure, and the cold hard ground.",
            ratings={"dexterity": 2, "stamina": 2, "athletics": 1},
            resources={"v5_health_superficial": 2},
        ),
    ),
)

SYSTEM = GameSystem(
    id=Game.V5,
    categories=CATEGORIES,
    standard_sheet=STANDARD_SHEET,
    demo=DEMO,
)
