"""What a character sheet is made of: the games, trait categories, rating bounds and standard traits.

Each game's own categories and standard sheet live with the game, in ``gmtools.games`` (issue 12).

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
