"""What a character sheet is made of: trait categories, rating bounds and standard traits, the kinds
of character (``gmtools.games.base.sheets``, where the games declare their sheets).

Each game's own categories, standard sheet, rating ranges and published trait names live with the
game, in ``gmtools.games`` (issue 12); the functions here ask it.

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
``rating_bounds`` gives the inclusive range of a trait's rating for a game and category: the game's
own (``BaseGame.sheet``, in its package), ``DEFAULT_RATING_BOUNDS`` for a category it does not
bound. The database can only check the widest range (0-10, see ``Trait``) because the game lives
on the campaign, two joins away; the narrower per-game ranges are checked in ``Trait.clean``.
"""

from typing import Any

from gmtools import games
from gmtools.games.base.sheets import CharacterKind as CharacterKind
from gmtools.games.base.sheets import StandardTrait as StandardTrait
from gmtools.games.base.sheets import TraitCategory as TraitCategory

C = TraitCategory

# The widest rating any game allows; the database enforces it on every trait.
RATING_MAX = 10

# A category a game does not bound is rated as most dots in the books are: 0 to 5.
DEFAULT_RATING_BOUNDS = (0, 5)


def rating_bounds(game: str, category: str, *, character: Any = None) -> tuple[int, int]:
    """The inclusive (low, high) range of a trait's rating; KeyError if the game lacks the category.

    With ``character`` (a ``Character``, saved or not), the range is that character's: a game may
    widen it by what the character is (``SheetRules.rating_bounds_for``).
    """
    system = games.get(game)
    if category not in system.categories:
        raise KeyError((game, category))
    bounds = system.sheet.rating_bounds.get(category, DEFAULT_RATING_BOUNDS)
    if character is not None and system.sheet.rating_bounds_for is not None:
        return system.sheet.rating_bounds_for(category, bounds, character)
    return bounds


def known_name(game: str, name: str) -> str:
    """A hand-added trait's name, in the active language when the game publishes it (``SheetRules.known_names``)."""
    return str(games.get(game).sheet.known_names.get(name.casefold(), name))
