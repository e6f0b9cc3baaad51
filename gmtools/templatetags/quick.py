"""What a character's card offers for a quick roll: its rated traits, by the composer's two slots,
and the sheet's own pools; and the game's own partials of the card (``game_template``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django import template
from django.utils.functional import Promise

from gmtools import games
from gmtools.composer import trait_slots
from gmtools.models import Character, Trait

register = template.Library()


@dataclass
class QuickTraits:
    first: list[Trait] = field(default_factory=list)
    second: list[Trait] = field(default_factory=list)
    pools: list[tuple[str, Promise, int]] = field(default_factory=list)  # (pool_from, label, dice)
    first_label: Promise | None = None
    second_label: Promise | None = None

    def __bool__(self) -> bool:
        return bool(self.first or self.second or self.pools)


@register.simple_tag
def quick_traits(character: Character) -> QuickTraits:
    """The rated traits that the composer can roll (from the prefetched traits), and the sheet's
    own pools (a Willpower or Humanity roll)."""
    game = character.game
    part = games.get(game).composer
    first, second = trait_slots(game)
    traits = [t for t in character.traits.all() if t.rating > 0 or part.zero_is_rated]
    return QuickTraits(
        first=[t for t in traits if t.category == first],
        second=[t for t in traits if t.category in second],
        pools=[(pool.key, pool.label, pool.dice(character)) for pool in part.sheet_pools],
        # The composer's names for its two slots: their categories'.
        first_label=games.get(game).category_label(first),
        second_label=games.get(game).category_label(second[0]) if second else None,
    )


@register.filter
def game_template(game: str, name: str) -> tuple[str, str]:
    """For ``{% include %}``, which draws the first that exists: the game's own ``name`` (a file
    and partial under templates/games/<game>/), else the shared one (templates/games/<name>)."""
    return f"games/{game}/{name}", f"games/{name}"
