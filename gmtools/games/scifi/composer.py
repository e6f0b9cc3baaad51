"""The sci-fi game's part of the roll composer: its difficulty ladder (Easy to Extreme), the kind of
action and the turn's two slots it takes, Off-Rol actions, and actions that need specific knowledge."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rules import scifi as engine
from rules.dice import RulesError

from gmtools.games.base import BaseComposer, Composition, Draft, OddsPanel, refusal_line
from gmtools.games.scifi.models import resources_of
from gmtools.games.scifi.odds import panel
from gmtools.games.scifi.slots import turn_budget
from gmtools.games.scifi.words import REFUSAL_TEXTS

DIFFICULTIES = (
    ("easy", _("Easy (automatic)")), ("common", _("Common (1)")), ("hard", _("Hard (2)")),
    ("very-hard", _("Very hard (3)")), ("extreme", _("Extreme (4)")),
)
ACTIONS = [("short", _("Short (1 slot)")), ("long", _("Long (2 slots)")), ("fire", _("Fire a weapon (1 slot, once)")),
           ("extended", _("Extended (both slots)"))]

FIELDS = {
    "kind": forms.ChoiceField(choices=ACTIONS, initial="short", label=_("Action")),
    "knowledge": forms.BooleanField(required=False, label=_("Needs specific knowledge"),
                                    help_text=_("Impossible without a level in the skill, even when Easy (recognizing "
                                                "a rare animal from another planet, talking chemistry).")),
    "off_rol": forms.BooleanField(
        required=False, label=_("Off-Rol action"),
        help_text=_("Off-Rol: outside the adventure (shopping, healing between adventures, crafting, selling); "
                    "closed to a character while its adventure is open, unless the GM stages the scene (downtime).")),
}


def _turn(draft: Draft, kind: str) -> None:
    """Refuse what the turn's two action slots cannot take, saying why."""
    character, earlier = draft.character, draft.earlier
    if draft.scene is None or character is None:
        return
    budget = turn_budget(earlier)
    # An extended action rolled last turn and still running keeps the character concentrating:
    # it carries into this turn and takes both slots, until it ends (or the GM stops it).
    running = draft.turn.last_turn_extended()
    if not earlier and kind != "extended":
        if running is not None and running.extended is not None and not running.extended.over:
            budget = engine.TurnBudget(taken=((engine.ActionKind.EXTENDED, None),)).next_turn()
    try:
        budget.take(*(("special", "fire") if kind == "fire" else (kind, None)))
    except RulesError as refusal:
        reason = refusal_line(REFUSAL_TEXTS, refusal)
        raise RulesError(gettext("%(name)s cannot: %(reason)s.") % {"name": character.name, "reason": reason}) from None


class ScifiComposer(BaseComposer):
    """The scifi game's part of the composer."""

    fields = FIELDS
    wide = ("kind",)
    # This action's: the knowledge it needs, and whether it is Off-Rol. The kind of action stays.
    # The kind of action too: each roll is its own action (a shot, once a turn, left chosen refused the next).
    reset_after_roll = ("knowledge", "off_rol", "kind")
    difficulties = DIFFICULTIES
    difficulty_initial = "common"

    def difficulty_of(self, choice: Any) -> Any:
        return str(choice)  # Easy to Extreme, by name (``engine.parse_difficulty``)

    def compose(self, draft: Draft) -> Composition:
        data, character, scene = draft.data, draft.character, draft.scene
        # Rolling into an extended action is an extended action: both slots of the turn.
        kind = "extended" if data.get("extended") is not None else data.get("kind") or "short"
        _turn(draft, kind)
        if data.get("off_rol") and character is not None:
            engine.check_act(engine.Sphere.OFF_ROL, adventure_open=not resources_of(character).off_rol_allowed,
                             scene_staged=scene is not None and scene.downtime)
        skill = data["second"].rating if data.get("second") is not None else None
        if data.get("knowledge") and skill is None:
            raise RulesError(gettext("An action that needs specific knowledge is checked against a skill: pick it."))
        request = engine.Request(pool=max(0, draft.pool), difficulty=engine.parse_difficulty(data["difficulty"]),
                                 skill=skill, modifiers=draft.modifiers, knowledge=bool(data.get("knowledge")))
        return draft.composition(Composition, request=request, opponent=draft.opponent(), action=kind)

    def odds(self, comp: Composition) -> OddsPanel:
        return panel(comp)
