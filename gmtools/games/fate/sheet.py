"""Fate Accelerated's side of a character and of a campaign: its rating ranges, aspects, fate points,
stress and consequences, and the campaign's deck of Fate cards."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.forms.models import BaseInlineFormSet
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from gmtools.games.base import Bounds, CharacterKind, Columns, SheetRows, SheetRules, StateColumns
from gmtools.games.base import TraitCategory as C
from gmtools.games.fate.models import SEVERITIES, Aspect, AspectKind, FateResources, FateState, cards_left

if TYPE_CHECKING:  # the table's rows are named, never imported, here
    from gmtools.models import Character

# A Fate Accelerated stunt gives +2 or a once-per-session effect (rated 0).
RATING_BOUNDS: dict[str, Bounds] = {C.APPROACH: (0, 3), C.STUNT: (0, 2)}

# Fate's 0 to +3 is for player characters; an NPC can be as good as Legendary (+8).
NPC_APPROACH_MAX = 8


def rating_bounds_for(category: str, bounds: Bounds, character: Character) -> Bounds:
    """An NPC's Approaches reach +8."""
    if category == C.APPROACH and character.kind == CharacterKind.NPC:
        return bounds[0], NPC_APPROACH_MAX
    return bounds


class AspectFormSet(BaseInlineFormSet):  # type: ignore[type-arg]  # django-stubs' generic formset needs its form named
    """A character's aspects on its sheet: one high concept and one trouble at most."""

    def clean(self) -> None:
        super().clean()
        kinds = [form.cleaned_data.get("kind") for form in self.forms
                 if form.cleaned_data and not form.cleaned_data.get("DELETE")]
        if kinds.count(AspectKind.HIGH_CONCEPT) > 1 or kinds.count(AspectKind.TROUBLE) > 1:
            raise ValidationError(gettext("A character has one high concept and one trouble."))


# The sheet's aspects are the character's own: those a scene put on it end with the scene. A new
# character's sheet asks first for its high concept and trouble (FAE's first two aspects).
ASPECTS = SheetRows(
    model=Aspect,
    name="aspects",
    title=_("Aspects"),
    fields=("kind", "text", "free_invocations"),
    formset=AspectFormSet,
    template="games/fate/sheet.html#aspects",
    edited={"scene__isnull": True},
    starting=({"kind": AspectKind.HIGH_CONCEPT}, {"kind": AspectKind.TROUBLE}),
)

SHEET = SheetRules(
    rating_bounds=RATING_BOUNDS,
    rating_bounds_for=rating_bounds_for,
    rows=(ASPECTS,),
)

RESOURCES = Columns(
    model=FateResources,
    title=_("Fate points, stress and consequences"),
    rows=(
        ("points", "refresh"),
        ("stress_1", "stress_2", "stress_3"),
        # Each consequence with whoever inflicted it, until they invoke it for free.
        *((f"consequence_{s}", f"consequence_{s}_free_for") for s in SEVERITIES),
    ),
)

STATE = StateColumns(
    model=FateState,
    title=_("Fate deck"),
    rows=("uses_deck", (cards_left,)),
    switch="uses_deck",
)
