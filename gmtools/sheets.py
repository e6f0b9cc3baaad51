"""What each game's character sheet holds: its trait categories, rating bounds and standard traits.

How a standard trait is named
-----------------------------
A standard trait (one that every character of a game has, such as Strength or Occult) is stored
by a stable English ``key`` (``"strength"``, ``"martial_arts"``) and never by its label. The label
is looked up here at display time through ``pgettext_lazy`` with the game id as the context, so
the same row reads "Occult" in English and "Ocultismo" in Spanish, renaming a label never
touches the database, and each game keeps its own published Spanish term even where the English
words coincide (Exalted's Melee and Vampire's Melee have different Spanish names). A trait the
GM adds by hand (a Discipline, a Background, a Fate stunt) has no key and stores the
``name`` as typed: it is the GM's text and is shown as is in every language.

Spanish labels follow RULES.md: Vampire's from Nosolorol's edition, Exalted's attributes and the
abilities named in the seed (Atletismo, Consciencia, Sigilo, Lingüística, and Vigor for
Resistance) from La Factoría's, Fate Accelerated's approaches from conBarba's; the other Exalted
abilities use the usual Spanish names. The science-fiction game's seed names only a few traits
(Percepción, Agilidad, FUE, RES, Supervivencia, Sigilo, Trato con Animales, Ciencia), so its
sheet is those plus a small, conventional set of attributes and skills, rated like the other
d10 games: attributes 1-5, skills 0-5.

Bounds
------
``rating_bounds`` gives the inclusive range of a trait's rating for a game and category. The
database can only check the widest range (0-10, see ``Trait``) because the game lives on the
campaign, two joins away; the narrower per-game ranges are checked in ``Trait.clean``.
"""

from dataclasses import dataclass

from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class Game(models.TextChoices):
    EXALTED = "exalted", _("Exalted 2e")
    V5 = "v5", _("Vampire: The Masquerade 5e")
    FATE = "fate", _("Fate Accelerated")
    SCIFI = "scifi", _("Sci-fi d10")


class TraitCategory(models.TextChoices):
    ATTRIBUTE = "attribute", _("Attribute")
    ABILITY = "ability", _("Ability")
    SKILL = "skill", _("Skill")
    APPROACH = "approach", _("Approach")
    DISCIPLINE = "discipline", _("Discipline")
    BACKGROUND = "background", _("Background")
    MERIT = "merit", _("Merit")
    FLAW = "flaw", _("Flaw")
    STUNT = "stunt", _("Stunt")
    ADVANTAGE = "advantage", _("Advantage")
    DISADVANTAGE = "disadvantage", _("Disadvantage")
    AUGMENTATION = "augmentation", _("Augmentation")
    MUTATION = "mutation", _("Mutation")


C = TraitCategory

# The categories a game's sheet has, in the order the sheet shows them. Exalted's Virtues,
# Willpower and Essence are not here: they are resources with their own columns and bounds.
GAME_CATEGORIES: dict[str, tuple[str, ...]] = {
    Game.EXALTED: (C.ATTRIBUTE, C.ABILITY, C.BACKGROUND),
    Game.V5: (C.ATTRIBUTE, C.SKILL, C.DISCIPLINE, C.BACKGROUND, C.MERIT, C.FLAW),
    Game.FATE: (C.APPROACH, C.STUNT),
    # Advantages, disadvantages, augmentations (tecnificaciones) and mutations are the seed's
    # sources of pool modifiers; their rating is the size of the modifier.
    Game.SCIFI: (C.ATTRIBUTE, C.SKILL, C.ADVANTAGE, C.DISADVANTAGE, C.AUGMENTATION, C.MUTATION),
}

# The widest rating any game allows; the database enforces it on every trait.
RATING_MAX = 10

_BOUNDS: dict[tuple[str, str], tuple[int, int]] = {
    (Game.EXALTED, C.ATTRIBUTE): (1, 5),
    (Game.EXALTED, C.ABILITY): (0, 5),
    (Game.EXALTED, C.BACKGROUND): (0, 5),
    (Game.V5, C.ATTRIBUTE): (1, 5),
    (Game.V5, C.SKILL): (0, 5),
    (Game.V5, C.DISCIPLINE): (0, 5),
    (Game.V5, C.BACKGROUND): (0, 5),
    (Game.V5, C.MERIT): (0, 5),
    (Game.V5, C.FLAW): (0, 5),
    (Game.FATE, C.APPROACH): (0, 3),
    # A Fate Accelerated stunt gives +2 or a once-per-session effect (rated 0).
    (Game.FATE, C.STUNT): (0, 2),
    (Game.SCIFI, C.ATTRIBUTE): (1, 5),
    (Game.SCIFI, C.SKILL): (0, 5),
    # Positive modifiers never add more than 3 dice, so a larger rating would mean nothing.
    (Game.SCIFI, C.ADVANTAGE): (0, 3),
    (Game.SCIFI, C.DISADVANTAGE): (0, 3),
    (Game.SCIFI, C.AUGMENTATION): (0, 3),
    (Game.SCIFI, C.MUTATION): (0, 3),
}

# Fate's 0 to +3 is for player characters; an NPC can be as good as Legendary (+8).
FATE_NPC_APPROACH_MAX = 8


def rating_bounds(game: str, category: str, *, essence: int = 1, npc: bool = False) -> tuple[int, int]:
    """The inclusive (low, high) range of a trait's rating; KeyError if the game lacks the category."""
    low, high = _BOUNDS[(game, category)]
    if game == Game.EXALTED and category in (C.ATTRIBUTE, C.ABILITY):
        # Exalted 2e: Attributes and Abilities may exceed 5 only up to the character's Essence.
        high = max(high, essence)
    if game == Game.FATE and category == C.APPROACH and npc:
        high = FATE_NPC_APPROACH_MAX
    return low, high


@dataclass(frozen=True)
class StandardTrait:
    key: str
    category: str
    label: Promise
    default: int


def _sheet(category: str, default: int, *labels: tuple[str, Promise]) -> tuple[StandardTrait, ...]:
    return tuple(StandardTrait(key, category, label, default) for key, label in labels)


# Each label is a literal pgettext_lazy call so that makemessages finds it.
STANDARD_SHEETS: dict[str, tuple[StandardTrait, ...]] = {
    Game.EXALTED: (
        *_sheet(
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
        *_sheet(
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
    ),
    Game.V5: (
        *_sheet(
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
        *_sheet(
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
    ),
    Game.FATE: _sheet(
        C.APPROACH,
        0,
        ("careful", pgettext_lazy("fate", "Careful")),
        ("clever", pgettext_lazy("fate", "Clever")),
        ("flashy", pgettext_lazy("fate", "Flashy")),
        ("forceful", pgettext_lazy("fate", "Forceful")),
        ("quick", pgettext_lazy("fate", "Quick")),
        ("sneaky", pgettext_lazy("fate", "Sneaky")),
    ),
    Game.SCIFI: (
        *_sheet(
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
        *_sheet(
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
    ),
}

STANDARD_TRAITS: dict[str, dict[str, StandardTrait]] = {
    game: {trait.key: trait for trait in sheet} for game, sheet in STANDARD_SHEETS.items()
}


# Traits a GM adds by hand but that the published games name: V5's Disciplines and Backgrounds.
# A hand-added trait called one of these (in English, as the demo and most character sheets write
# them) reads in the active language; any other name is the GM's text and shows as typed.
KNOWN_NAMES: dict[str, dict[str, object]] = {
    Game.V5: {
        "animalism": pgettext_lazy("v5", "Animalism"), "auspex": pgettext_lazy("v5", "Auspex"),
        "blood sorcery": pgettext_lazy("v5", "Blood Sorcery"), "celerity": pgettext_lazy("v5", "Celerity"),
        "dominate": pgettext_lazy("v5", "Dominate"), "fortitude": pgettext_lazy("v5", "Fortitude"),
        "obfuscate": pgettext_lazy("v5", "Obfuscate"), "oblivion": pgettext_lazy("v5", "Oblivion"),
        "potence": pgettext_lazy("v5", "Potence"), "presence": pgettext_lazy("v5", "Presence"),
        "protean": pgettext_lazy("v5", "Protean"), "thin-blood alchemy": pgettext_lazy("v5", "Thin-blood Alchemy"),
        "allies": pgettext_lazy("v5", "Allies"), "contacts": pgettext_lazy("v5", "Contacts"),
        "fame": pgettext_lazy("v5", "Fame"), "haven": pgettext_lazy("v5", "Haven"), "herd": pgettext_lazy("v5", "Herd"),
        "influence": pgettext_lazy("v5", "Influence"), "mask": pgettext_lazy("v5", "Mask"),
        "resources": pgettext_lazy("v5", "Resources"), "retainers": pgettext_lazy("v5", "Retainers"),
        "status": pgettext_lazy("v5", "Status"),
    },
}


def known_name(game: str, name: str) -> str:
    """A hand-added trait's name, in the active language when the game publishes it (see KNOWN_NAMES)."""
    return str(KNOWN_NAMES.get(game, {}).get(name.casefold(), name))
