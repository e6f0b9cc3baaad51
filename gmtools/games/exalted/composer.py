"""Exalted's part of the roll composer: stunts, Willpower's automatic success, a calm moment's
automatic success, the turn's multiple actions, second chances, teamwork and successes taken away."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext, ngettext, pgettext
from django.utils.translation import gettext_lazy as _

from rules import exalted as engine
from rules.dice import RulesError

from gmtools.games.base import (
    BaseComposer, Composition, Draft, OddsPanel, SheetPool, Spend, TurnReads, form_field, refusal_line,
)
from gmtools.games.exalted.models import resources_of
from gmtools.games.exalted.odds import panel
from gmtools.games.exalted.words import REFUSAL_TEXTS, TERMS

if TYPE_CHECKING:
    from gmtools.composer import ComposerForm
    from gmtools.models import Character

@dataclass(frozen=True)
class ExaltedComposition(Composition):
    """An Exalted roll as composed, with what its odds read of Exalted's."""

    willpower_on_offer: bool = False  # the character could spend Willpower on this roll
    calm_note: str = ""  # why "Calm: automatic success" was asked for and the roll is rolled anyway


FIELDS = {
    "stunt": forms.TypedChoiceField(choices=[(n, str(n)) for n in range(4)], coerce=int, initial=0,
                                    label=_("Stunt dice")),
    "willpower": forms.BooleanField(required=False, label=_("Spend Willpower (+1 success)")),
    "calm": forms.BooleanField(required=False, label=_("Calm: automatic success"),
                               help_text=_("Outside stress (never in combat), a pool of 7 or more meets the difficulty "
                                           "without a roll, with no extra successes.")),
    # Opposed: successes taken from one side's roll (seed 000's drunk guard); choices in ``setup``.
    "handicap": forms.TypedChoiceField(choices=(), coerce=int, initial=0, required=False,
                                       label=_("Successes taken away"),
                                       help_text=_("Opposed roll: successes subtracted from one side's roll "
                                                   "(a drunk guard's Perception, say).")),
    # The turn: reflexive actions and second chances.
    "reflexive": forms.BooleanField(required=False, label=_("Reflexive"),
                                    help_text=_("No multiple-action penalty (resisting poison, say).")),
    "second_chance": forms.BooleanField(required=False, label=_("Second chance"),
                                        help_text=_("+1 success needed per earlier failure at the same task in this "
                                                    "scene (never in combat).")),
}


def _turn(draft: Draft) -> tuple[int, str, str]:
    """The multiple-action penalty of this roll, its budget entry, and a note saying why.

    With N actions declared for the turn, the first loses N dice, the next N+1, ... (reflexive
    actions are exempt and do not count). Willpower's automatic success: once a turn.
    """
    scene, character, data, earlier = draft.scene, draft.character, draft.data, draft.earlier
    if scene is None or character is None:
        return 0, "", ""
    if data.get("willpower") and any(r.willpower_spent for r in earlier):
        raise RulesError(gettext("Willpower's automatic success is once a turn; %(name)s already spent it.")
                         % {"name": character.name})
    if data.get("reflexive"):
        return 0, "reflexive", ""
    declared = draft.turn.declared_actions()
    taken = sum(r.action != "reflexive" for r in earlier)
    if taken >= declared:
        raise RulesError(ngettext("%(name)s declared %(n)d action this turn and has taken it.",
                                  "%(name)s declared %(n)d actions this turn and has taken them all.", declared)
                         % {"name": character.name, "n": declared})
    penalty = engine.multiple_action_penalties(declared)[taken] if declared > 1 else 0
    note = gettext("action %(i)d of %(n)d this turn: −%(p)d dice") % {"i": taken + 1, "n": declared, "p": penalty}
    return penalty, "action", note if penalty else ""


class ExaltedComposer(BaseComposer):
    """Exalted's part of the composer."""

    fields = FIELDS
    folded = ("handicap",)
    wide = ("handicap",)
    # Each is this roll's: a spend, the GM's award, or a ruling on this action (calm, reflexive, a
    # second chance at a task); the turn's own budget (declared actions) lives in the scene.
    reset_after_roll = ("willpower", "stunt", "handicap", "calm", "reflexive", "second_chance")
    # A Willpower roll rolls the permanent dots.
    sheet_pools = (SheetPool(key="willpower", label=TERMS["Willpower roll"],
                             dice=lambda character: resources_of(character).willpower),)
    teamwork = True

    def setup(self, form: ComposerForm, character: Character | None, turn: TurnReads) -> None:
        form_field(form, "handicap", forms.TypedChoiceField).choices = [(0, gettext("None"))] + [
            (n, gettext("Opponent −%(n)d") % {"n": n}) for n in (1, 2, 3)] + [
            (-n, gettext("This side −%(n)d") % {"n": n}) for n in (1, 2, 3)]
        # Willpower's automatic success, if the character has a temporary point and has not spent one
        # this turn (an unnamed NPC has none to spend). Else drawn unavailable (and the odds do not
        # count it); only drawn so: a request that asks for it anyway is refused, never rolled without it.
        if character is None or resources_of(character).willpower_temporary < 1 or turn.willpower_spent():
            form.fields["willpower"].widget.attrs["disabled"] = "disabled"
            form.initial.pop("willpower", None)  # a saved roll's Willpower, when none is on offer

    def compose(self, draft: Draft) -> Composition:
        data, character, scene = draft.data, draft.character, draft.scene
        if data.get("willpower") and character is None:
            raise RulesError(gettext("An unnamed NPC has no Willpower to spend; pick a character."))
        penalty, action, note = _turn(draft)
        difficulty = data["difficulty"]
        if data.get("second_chance") and scene is not None and character is not None:
            difficulty = engine.second_chance_difficulty(
                difficulty, draft.turn.failures_at(draft.shared["label"]), combat=scene.combat)
        # The turn's penalty apart from the other modifiers: a stunt cannot bring back an action it took to 0 dice.
        request = engine.Request(pool=max(0, draft.pool), difficulty=difficulty, stunt=data.get("stunt") or 0,
                                 willpower=bool(data.get("willpower")), modifiers=draft.modifiers, actions_penalty=penalty)
        spends = ((Spend("willpower", character.pk, label=pgettext("exalted", "1 Willpower")),)
                  if data.get("willpower") and character is not None else ())
        calm = data.get("calm") and not (scene is not None and scene.combat)
        # Automatic only where a roll of the pool could reach the difficulty at all; else it is rolled.
        shortcut = ("automatic" if calm and request.dice >= engine.AUTOMATIC_SUCCESS_DICE and not request.willpower
                    and engine.could_reach(request) else "roll")
        calm_note = ""
        if data.get("calm") and shortcut == "roll":
            # Asked for and not given: the odds say why (combat, a pool under 7, Willpower, out of reach).
            try:
                engine.automatic_success(request, stressful=bool(scene is not None and scene.combat))
            except RulesError as refusal:
                calm_note = refusal_line(REFUSAL_TEXTS, refusal)
        opponent = draft.opponent()
        handicap = data.get("handicap") or 0
        if handicap and opponent is None:
            raise RulesError(gettext("Successes are taken away in an opposed roll: give the opposing side's dice."))
        if handicap and data.get("extended") is not None:
            raise RulesError(gettext("Successes are taken away in a single opposed roll, not in an extended one."))
        # Teamwork: each helper rolls apart, and their successes add up.
        team = tuple((c.name, engine.Request(pool=p, difficulty=0)) for c, p, _ in draft.team if p > 0)
        on_offer = (character is not None and resources_of(character).willpower_temporary >= 1
                    and not any(r.willpower_spent for r in draft.earlier))
        return draft.composition(ExaltedComposition, request=request, opponent=opponent, spends=spends, shortcut=shortcut, team=team,
                                 action=action, notes=(note,) if note else (), willpower_on_offer=on_offer,
                                 handicap=(max(0, -handicap), max(0, handicap)), calm_note=calm_note)

    def odds(self, comp: Composition) -> OddsPanel:
        assert isinstance(comp, ExaltedComposition)  # what ``compose`` made
        return panel(comp)

    def name_options(self, data: Mapping[str, Any]) -> list[str]:
        return ([gettext("stunt %(n)d") % {"n": data["stunt"]}] if data.get("stunt") else []) + (
            [pgettext("exalted", "Willpower")] if data.get("willpower") else [])
