"""Exalted 2e, as the table sees it (``Exalted``): its sheet, its demo campaign, and its parts: its words
(``words``), composer (``composer``), play at the table (``table``) and tables (``models``)."""

from types import ModuleType
from typing import ClassVar

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rules import exalted as engine

from gmtools.games.base import BaseGame, DemoCampaign, DemoCharacter, sheet_part
from gmtools.games.base import TraitCategory as C
from gmtools.games.exalted import words
from gmtools.games.exalted.composer import ExaltedComposer
from gmtools.games.exalted.npcs import NPCS
from gmtools.games.exalted.sheet import RESOURCES, SHEET
from gmtools.games.exalted.table import ExaltedPlay

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


class Exalted(BaseGame):
    """Exalted 2e: pools of d10s, 7 or more a success and 10s twice; stunts, Willpower, botches."""

    id = "exalted"
    label = _("Exalted 2e")
    engine: ClassVar[ModuleType] = engine  # a module: mypy reads a bare one as an instance variable
    composer_class = ExaltedComposer
    play_class = ExaltedPlay
    categories = CATEGORIES
    standard_sheet = STANDARD_SHEET
    sheet = SHEET
    resources = RESOURCES
    npcs = NPCS
    demo = DEMO
    note_texts = words.NOTE_TEXTS
    refusal_texts = words.REFUSAL_TEXTS
    terms = words.TERMS
    label_terms = {"willpower_roll": words.TERMS["Willpower roll"]}
    outcome_words = words.OUTCOME_WORDS
    tie_words = words.TIE_WORDS
    special_words = {"botch": _("Botch")}
    verdict_of = staticmethod(words.verdict_of)
    contest_mark = staticmethod(words.contest_mark)
    taken_away = staticmethod(words.taken_away)


GAME = Exalted()
