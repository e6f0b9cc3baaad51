"""What a character's card offers for a quick roll: its rated traits, by the composer's two slots."""

from __future__ import annotations

from dataclasses import dataclass, field

from django import template
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from gmtools.composer import FIRST_CATEGORY, SECOND_CATEGORY
from gmtools.models import Character, Trait
from gmtools.sheets import Game, TraitCategory

register = template.Library()

# The composer's names for its two trait slots, per game (see ComposerForm.__init__).
FIRST_LABEL = {Game.EXALTED: _("Attribute"), Game.V5: _("Attribute"), Game.FATE: _("Approach"), Game.SCIFI: _("Attribute")}
SECOND_LABEL = {Game.EXALTED: _("Ability"), Game.V5: _("Skill"), Game.FATE: None, Game.SCIFI: _("Skill")}


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
    # Rated: above 0, but for Fate's approaches, where 0 is a rating (Mediocre) like any other.
    traits = [t for t in character.traits.all() if t.rating > 0 or t.category == TraitCategory.APPROACH]
    pools: list[tuple[str, Promise, int]] = []
    if game == Game.EXALTED:
        pools = [("willpower", _("Willpower roll"), character.exalted_willpower)]
    elif game == Game.V5:
        pools = [("willpower", _("Willpower roll"), character.v5_willpower_dice),
                 ("humanity", _("Humanity roll"), character.v5_humanity)]
    return QuickTraits(
        first=[t for t in traits if t.category == FIRST_CATEGORY[game]],
        second=[t for t in traits if t.category in SECOND_CATEGORY[game]],
        pools=pools, first_label=FIRST_LABEL[game], second_label=SECOND_LABEL[game],
    )
