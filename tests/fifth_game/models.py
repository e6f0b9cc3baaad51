"""The fifth game's own table: each character's grit, spent to push a roll (reroll its misses)."""

from gmtools.games.base.models import CharacterResources, bounded, range_constraints

BOUNDS = {"grit": (0, 5)}


class D6Resources(CharacterResources):
    """A character's grit (``character.d6pool``, ``character.resources``)."""

    grit = bounded(BOUNDS, "grit", "grit", 3, "Spent to push a roll: its misses rolled again.")

    class Meta:
        verbose_name = verbose_name_plural = "Grit"
        constraints = range_constraints("d6pool", BOUNDS)
