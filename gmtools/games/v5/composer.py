"""Vampire's part of the roll composer: Hunger dice, specialties, the difficulty's own modifiers and
equipment, a secret difficulty, the calm shortcuts (take half, an automatic win), teamwork, and
Willpower and Humanity rolls."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from rules import v5 as engine

from gmtools.games.base import BaseComposer, Composition, Draft, OddsPanel, SheetPool, TraitCategory
from gmtools.games.v5.models import resources_of
from gmtools.games.v5.odds import panel
from gmtools.games.v5.words import TERMS

DIFFICULTIES = (
    (1, _("Routine (1)")), (2, _("Simple (2)")), (3, _("Moderate (3)")), (4, _("Challenging (4)")),
    (5, _("Hard (5)")), (6, _("Very hard (6)")), (7, _("Nearly impossible (7)")), (8, "8"), (9, "9"), (10, "10"),
)
SHORTCUTS = [("roll", _("With dice")), ("take_half", _("Take half")), ("automatic", _("Automatic win"))]

FIELDS = {
    "specialty": forms.BooleanField(required=False, label=_("Specialty (+1 die)")),
    "secret": forms.BooleanField(required=False, label=_("Secret difficulty")),
    "shortcut": forms.ChoiceField(choices=SHORTCUTS, initial="roll", label=_("How")),
    "improvised": forms.BooleanField(required=False, label=_("Improvised equipment (+1 difficulty)")),
    "no_equipment": forms.BooleanField(required=False, label=_("Impossible without equipment"),
                                       help_text=_("The character lacks the equipment the task needs: "
                                                   "a failure without a roll.")),
    "difficulty_modifier": forms.IntegerField(initial=0, min_value=-10, max_value=10, required=False,
                                              label=_("Difficulty modifier"),
                                              help_text=_("The GM's change to the difficulty; beyond ±2 the roll "
                                                          "says so.")),
}


class V5Composer(BaseComposer):
    """Vampire's part of the composer."""

    second_categories = (TraitCategory.SKILL, TraitCategory.DISCIPLINE)
    fields = FIELDS
    # How and the difficulty modifier, wide enough for Spanish ("Victoria automática").
    wide = ("shortcut", "difficulty_modifier")
    reset_after_roll = ("specialty", "shortcut", "improvised", "no_equipment", "difficulty_modifier")
    difficulties = DIFFICULTIES
    # A Willpower roll rolls the undamaged boxes (never fewer than 1 die); a Humanity roll, the rating.
    sheet_pools = (SheetPool(key="willpower", label=TERMS["Willpower roll"],
                             dice=lambda character: resources_of(character).willpower_dice),
                   SheetPool(key="humanity", label=_("Humanity roll"), dice=lambda character: resources_of(character).humanity))
    teamwork = True

    def compose(self, draft: Draft) -> Composition:
        data, character, scene = draft.data, draft.character, draft.scene
        pool = draft.pool
        notes: list[str] = []
        idle: tuple[str, ...] = ()
        if draft.team:
            # Teamwork (seed 002): the largest pool rolls, +1 die per helper with a dot in the skill.
            second = data.get("second")
            pools = [pool] + [p for _, p, _ in draft.team]
            skills = [second.rating] + [s for _, _, s in draft.team] if second is not None else None
            team = engine.teamwork(pools, skills)
            pool = team.dice
            notes, idle = _teamwork_notes(draft, team)
        row = resources_of(character) if character is not None else None
        # Hunger dice in every pool, Willpower rolls included, a vampire's alone; the Humanity (remorse) roll takes none.
        hunger = row.pool_hunger if row is not None else 0
        # Impaired: a full Health tracker takes 2 dice from Physical pools, a full Willpower one from Social and Mental.
        kind = engine.pool_kind(t.key for t in (data.get("first"), data.get("second"))
                                if t is not None) if draft.sheet_pool == "traits" else None
        impaired = row is not None and engine.impaired(kind, row.health_tracker, row.willpower_tracker)
        harder = data.get("difficulty_modifier") or 0
        request = engine.Request(pool=max(0, pool), hunger=hunger, difficulty=data["difficulty"], impaired=impaired,
                                 specialty=bool(data.get("specialty")), tracker=draft.sheet_pool != "traits",
                                 modifiers=draft.modifiers, remorse=draft.sheet_pool == "humanity",
                                 difficulty_modifiers=(harder,) if harder else (), improvised=bool(data.get("improvised")),
                                 no_equipment=bool(data.get("no_equipment")))
        shortcut = data.get("shortcut") or "roll"
        combat = scene is not None and scene.combat
        if shortcut != "roll":
            # Take half and the automatic win are for a calm moment, never in a combat scene, win
            # nothing impossible, and an automatic win needs twice the difficulty in dice: the rules
            # say why, so the odds say it and Roll is off before the GM clicks it.
            (engine.take_half if shortcut == "take_half" else engine.automatic_win)(request, stressful=combat)
        return draft.composition(Composition, request=request, opponent=draft.opponent(), shortcut=shortcut,
                                 secret=bool(data.get("secret")), action="action", notes=tuple(notes), team_idle=idle)

    def odds(self, comp: Composition) -> OddsPanel:
        return panel(comp)

    def name_options(self, data: Mapping[str, Any]) -> list[str]:
        return [gettext("specialty")] if data.get("specialty") else []


def _teamwork_notes(draft: Draft, team: engine.Teamwork) -> tuple[list[str], tuple[str, ...]]:
    """What teamwork did to the pool, in words (the odds panel says it before the roll), and the
    helpers who add no die (the card says it after)."""
    names = [draft.character.name if draft.character is not None else gettext("Unnamed NPC")]
    names += [c.name for c, _, _ in draft.team]
    second = draft.data.get("second")
    notes = []
    if team.roller:
        notes.append(gettext("Teamwork: %(name)s has the largest pool and rolls it") % {"name": names[team.roller]})
    if team.adding:
        notes.append(ngettext("Teamwork: +%(n)d die (%(names)s)", "Teamwork: +%(n)d dice (%(names)s)", len(team.adding))
                     % {"n": len(team.adding), "names": ", ".join(names[i] for i in team.adding)})
    idle = tuple(names[i] for i in team.idle)
    if idle:
        notes.append(gettext("Teamwork: no die from %(names)s, without a dot in %(skill)s")
                     % {"names": ", ".join(idle), "skill": second.label if second is not None else ""})
    return notes, idle
