"""The table's Undo button: which one-click change it would undo, in words.

``services.adjust`` keeps each one-click change (``ResourceChange``: the fields before and after);
``services.undo_last_change`` undoes the campaign's newest one not undone yet. This module says
what that is ("Undo: Koi, Health +1 superficial") for the GM's table, and whether it can still be
undone (the character still shows what the change made of it).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext, gettext_lazy as _

from gmtools.models import Campaign, ResourceChange

# What each one-click action did, as the Undo button names it.
ACTION_TEXT = {
    "willpower-spend": _("Willpower −1"), "willpower-regain": _("Willpower +1"),
    "motes-spend": _("Motes −1"), "motes-regain": _("Motes +1"),
    "hunger-up": _("Hunger +1"), "hunger-down": _("Hunger −1"),
    "health-superficial-damage": _("Health +1 superficial"), "health-aggravated-damage": _("Health +1 aggravated"),
    "health-superficial-heal": _("Health −1 superficial"), "health-aggravated-heal": _("Health −1 aggravated"),
    "willpower-superficial-damage": _("Willpower +1 superficial"),
    "willpower-aggravated-damage": _("Willpower +1 aggravated"),
    "willpower-superficial-heal": _("Willpower −1 superficial"),
    "willpower-aggravated-heal": _("Willpower −1 aggravated"),
    "fate-point-spend": _("Fate points −1"), "fate-point-gain": _("Fate points +1"), "refresh": _("Refresh"),
    "stress-1": _("Stress box 1"), "stress-2": _("Stress box 2"), "stress-3": _("Stress box 3"),
    "consequence-mild": _("Mild consequence"), "consequence-moderate": _("Moderate consequence"),
    "consequence-severe": _("Severe consequence"),
    "adventure": _("In the adventure"), "health-damage": _("Health −1"), "health-heal": _("Health +1"),
}


@dataclass(frozen=True)
class Offer:
    change: ResourceChange
    text: str  # "Koi, Health +1 superficial"
    stale: bool  # the character has changed since: undoing it would be refused


def offer(campaign: Campaign) -> Offer | None:
    """The change the Undo button would undo now (None: nothing to undo); one query."""
    change = (ResourceChange.objects.filter(campaign=campaign, undone_at__isnull=True)
              .select_related("character").order_by("-id").first())
    if change is None:
        return None
    character = change.character
    what = str(ACTION_TEXT.get(change.action, change.action))
    text = gettext("%(name)s, %(what)s") % {"name": character.name, "what": what}
    stale = any(getattr(character, name) != value for name, value in change.after.items())
    return Offer(change, text, stale)
