"""Vampire V5's side of a character: its rating ranges, the Disciplines and Backgrounds it names, and
its resources' fieldset (``models.V5Resources``: Hunger, Humanity, Blood Potency, the trackers)."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from gmtools.games.base import Bounds, Columns, SheetRules
from gmtools.games.v5.models import V5Resources, health_boxes, willpower_boxes, willpower_dice
from gmtools.games.base import TraitCategory as C

RATING_BOUNDS: dict[str, Bounds] = {
    C.ATTRIBUTE: (1, 5),
    C.SKILL: (0, 5),
    C.DISCIPLINE: (0, 5),
    C.BACKGROUND: (0, 5),
    C.MERIT: (0, 5),
    C.FLAW: (0, 5),
}

# Traits a GM adds by hand but that the book names: its Disciplines and Backgrounds. A hand-added
# trait called one of these (in English, as the demo and most character sheets write them) reads in
# the active language; any other name is the GM's text and shows as typed.
KNOWN_NAMES = {
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
}

SHEET = SheetRules(rating_bounds=RATING_BOUNDS, known_names=KNOWN_NAMES)

RESOURCES = Columns(
    model=V5Resources,
    title=_("Hunger, Humanity and trackers"),
    rows=(
        ("nature", "hunger", "humanity", "blood_potency"),
        (health_boxes, "health_superficial", "health_aggravated"),
        (willpower_boxes, "willpower_superficial", "willpower_aggravated", willpower_dice),
    ),
)
