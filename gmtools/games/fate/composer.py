"""Fate's part of the roll composer: the Approach alone on the Ladder, stunts and helping allies,
aspects invoked (paid with free invocations or fate points), the four actions, and the aspect
that Create an advantage makes."""

from __future__ import annotations

from collections.abc import Mapping
import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Self

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from rules import fate as engine
from rules.dice import RulesError

from gmtools.games.base import (
    BaseComposer, Composition, Draft, ModelMultipleChoiceField, OddsPanel, Spend, TurnReads, form_field,
)
from gmtools.games.fate import aspects as aspects_in_play
from gmtools.games.fate.models import Aspect, resources_of, state_of
from gmtools.games.fate.odds import panel
from gmtools.models import Character

if TYPE_CHECKING:  # the core's form is named, never imported, here
    from gmtools.composer import ComposerForm

@dataclass(frozen=True)
class FateComposition(Composition):
    """A Fate roll as composed, with what its odds and its play read of Fate's."""

    deck: tuple[int, ...] | None = None  # the cards left when the campaign draws from its deck
    invocation_on_offer: bool = False  # the character could pay for one more invocation
    advantage: str = ""  # Create an advantage: the aspect it makes (or adds free invocations to)
    advantage_on: Character | None = None  # ... on this character; None: on the scene in play

    def thrown_at_table(self) -> Self:
        # Four Fate dice thrown at the table, whatever the campaign draws from: no card of the deck
        # (the roll takes none), so the odds are the dice's (the walkthrough's preview read the deck's).
        return dataclasses.replace(self, deck=None)


LADDER = (
    (8, _("+8 Legendary")), (7, _("+7 Epic")), (6, _("+6 Fantastic")), (5, _("+5 Superb")), (4, _("+4 Great")),
    (3, _("+3 Good")), (2, _("+2 Fair")), (1, _("+1 Average")), (0, _("0 Mediocre")), (-1, _("−1 Poor")),
    (-2, _("−2 Terrible")),
)
ACTIONS = [
    ("overcome", _("Overcome")), ("create_advantage", _("Create an advantage")),
    ("attack", _("Attack")), ("defend", _("Defend")),
]


class AspectChoiceField(ModelMultipleChoiceField):
    """Aspects in play, each named with whose it is and its free invocations (``roller``: the rolling character)."""

    roller: int | None = None

    def label_from_instance(self, aspect: Aspect) -> str:
        return aspects_in_play.label(aspect, self.roller)


FIELDS = {
    "stunt_bonus": forms.TypedChoiceField(choices=[(0, "0"), (1, "+1"), (2, "+2")], coerce=int, initial=0,
                                          label=_("Stunt bonus")),
    "helpers": forms.IntegerField(initial=0, min_value=0, max_value=5, label=_("Allies helping"),
                                  help_text=_("+1 for each ally who helps.")),
    "invoke": AspectChoiceField(queryset=Aspect.objects.none(), required=False, widget=forms.CheckboxSelectMultiple,
                                label=_("Invoke aspects (+2 each)"),
                                help_text=_("A free invocation is used first, else a fate point.")),
    # A consequence taken by a character in play: an aspect, invoked with a fate point, or free once
    # for whoever inflicted it (gmtools.games.fate.aspects).
    "invoke_consequence": forms.MultipleChoiceField(choices=(), required=False, widget=forms.CheckboxSelectMultiple,
                                                    label=_("Invoke consequences (+2 each, a fate point unless free)")),
    # The same aspect a second time on this roll: only with its second free invocation (gmtools.games.fate.aspects).
    "invoke_again": AspectChoiceField(queryset=Aspect.objects.none(), required=False,
                                      widget=forms.CheckboxSelectMultiple,
                                      label=_("Invoke again (a second free invocation)")),
    "action": forms.ChoiceField(choices=ACTIONS, initial="overcome", label=_("Action")),
    # Create an advantage: the aspect it makes, and where it goes (the scene unless a character is chosen).
    "advantage": forms.CharField(max_length=200, required=False, label=_("Aspect to create"),
                                 help_text=_("Create an advantage: the new aspect's name (or an aspect already there, "
                                             "for its free invocations).")),
    "advantage_on": forms.ModelChoiceField(queryset=Character.objects.none(), required=False,
                                           empty_label=_("The scene"), label=_("Put it on")),
}


class FateComposer(BaseComposer):
    """Fate's part of the composer."""

    # The Approach alone.
    second_categories = ()
    zero_is_rated = True
    fields = FIELDS
    # The modifier takes the row the extra dice shared with it (Fate has none): the Approach and it.
    wide = ("action", "advantage", "advantage_on", "modifier")
    # Each is this roll's: the invocations it pays for, the aspect it creates and where, a stunt that
    # fits this action, the allies helping with it. The action itself stays (attack after attack).
    reset_after_roll = ("invoke", "invoke_consequence", "invoke_again", "advantage", "advantage_on", "stunt_bonus", "helpers")
    # The aspects to invoke are drawn by Fate's own partial, which redraws itself when the scene's
    # aspects change; the second free invocations are drawn in its box.
    drawn_by = {"invoke": "games/fate/composer.html#invoke-field"}
    drawn_inside = ("invoke_consequence", "invoke_again")
    difficulties = LADDER
    difficulty_initial = 0
    opposed_by_name = True
    contest_axis = _("shifts")
    # Four Fate dice, always: no extra dice (an unnamed NPC's bonus is the modifier).
    extra_dice = False

    def setup(self, form: ComposerForm, character: Character | None, turn: TurnReads) -> None:
        # The other side's bonus, down the Ladder as the difficulty goes: Poor and Terrible opposition
        # are ordinary (a field's bounds are its validators, so the field is made anew, not altered).
        shared = form_field(form, "opponent_dice", forms.IntegerField)
        form.fields["opponent_dice"] = forms.IntegerField(
            initial=0, min_value=min(value for value, _name in LADDER), max_value=shared.max_value, required=False,
            label=_("Opposed by (bonus)"), help_text=shared.help_text, widget=shared.widget)
        # Only what the character can pay for: an aspect in play with a free invocation, or any while
        # it has fate points (how many it can pay for is checked with the roll). In play: its own, the
        # scene's, the other characters' in the scene (gmtools.games.fate.aspects).
        aspects = aspects_in_play.in_play(form.campaign, form.scene, character)
        points = resources_of(character).points if character is not None else 0
        if character is not None and points < 1:
            aspects = aspects.filter(free_invocations__gte=1)
        # A consequence is paid with a fate point, or free for whoever inflicted it: none on offer
        # otherwise (nor for an unnamed NPC).
        form_field(form, "invoke_consequence", forms.MultipleChoiceField).choices = [] if character is None else [
            (c.key, c.label(character.pk)) for c in aspects_in_play.consequences_in_play(form.campaign, form.scene, character)
            if c.payable(character.pk, points) is not None]
        form_field(form, "invoke", AspectChoiceField).queryset = aspects
        form_field(form, "invoke_again", AspectChoiceField).queryset = aspects.filter(free_invocations__gte=2)
        characters = form_field(form, "character", forms.ModelChoiceField).queryset
        form_field(form, "advantage_on", forms.ModelChoiceField).queryset = characters
        for name in ("invoke", "invoke_again"):
            form_field(form, name, AspectChoiceField).roller = getattr(character, "pk", None)


    def clean(self, form: ComposerForm, data: dict[str, Any]) -> None:
        if (data.get("invoke") or data.get("invoke_consequence")) and data.get("character") is None:
            form.add_error("invoke", gettext("Pick the character who invokes the aspects."))
        for aspect in data.get("invoke_again") or ():
            if aspect not in (data.get("invoke") or ()):
                form.add_error("invoke_again", gettext("Tick “%(aspect)s” among the aspects to invoke too: its second "
                                                       "free invocation comes on top of the first.") % {"aspect": aspect.text})


    def compose(self, draft: Draft) -> Composition:
        data, character, scene, campaign = draft.data, draft.character, draft.scene, draft.campaign
        again: list[Aspect] = list(data.get("invoke_again") or ())
        if any(aspect.free_invocations < 2 for aspect in again):
            raise RulesError(gettext("The same aspect twice on one roll needs two free invocations on it."))
        # The first invocation of each aspect, then the second free invocations (gmtools.games.fate.aspects).
        aspects: list[Aspect] = list(data.get("invoke") or ()) + again
        consequences = [aspects_in_play.consequence_of(key, campaign, scene, character)
                        for key in data.get("invoke_consequence") or ()]
        if any(c is None for c in consequences):
            raise RulesError(gettext("A consequence ticked is no longer on its character's card: tick the aspects again."))
        approach = data["first"].rating if data.get("first") is not None else 0
        bonus = engine.bonus(approach, stunt=data.get("stunt_bonus") or 0, helpers=data.get("helpers") or 0,
                             invokes=len(aspects) + len(consequences))
        request = engine.Request(bonus=bonus, difficulty=data["difficulty"], modifiers=draft.modifiers)
        # No aspect without a character (``clean``): an unnamed NPC spends nothing.
        spends: tuple[Spend, ...] = ()
        if character is not None:
            spends = tuple(
                Spend("free_invocation", character.pk, aspect.pk, aspect.text) if aspect.free_invocations > 0
                else Spend("fate_point", character.pk, aspect.pk, aspect.text)
                for aspect in aspects
            ) + tuple(aspects_in_play.paying_for(character.pk, c) for c in consequences if c is not None)
        paid = sum(spend.what == "fate_point" for spend in spends)
        points = resources_of(character).points if character is not None else 0
        if character is not None and paid > points:
            raise RulesError(ngettext("%(name)s has %(n)d fate point: invoke fewer aspects, or those with a free invocation.",
                                      "%(name)s has %(n)d fate points: invoke fewer aspects, or those with a free invocation.",
                                      points) % {"name": character.name, "n": points})
        # Opposed by name alone: the other side's bonus may be 0 (Mediocre).
        opponent = engine.Request(bonus=draft.opponent_dice) if data.get("opponent") or draft.opponent_dice else None
        label = data.get("label") or (str(data["first"].label) if data.get("first") is not None else gettext("No approach"))
        parts = draft.shared["label_parts"] if data.get("first") is not None or data.get("label") else ("term:no_approach",)
        free_left = aspects_in_play.in_play(campaign, scene, character).filter(free_invocations__gte=1).exclude(
            pk__in=[a.pk for a in aspects]).exists() if character is not None else False
        on_offer = character is not None and (points > paid or free_left)
        action = data.get("action") or "overcome"
        advantage = " ".join((data.get("advantage") or "").split()) if action == "create_advantage" else ""
        if action == "create_advantage" and not advantage:
            # Its card would promise an aspect (or a boost) that nothing makes: the third walkthrough's.
            raise RulesError(gettext("Create an advantage names its aspect: type it in “Aspect to create” (a new "
                                     "one, or one already in play to add a free invocation to)."))
        if advantage and data.get("hidden"):
            # The new aspect shows on the players' table at once, and would tell them what the secret roll gave.
            raise RulesError(gettext("A secret roll cannot create an aspect: the players see the aspects in play."))
        if advantage and data.get("advantage_on") is None and scene is None:
            raise RulesError(gettext("No scene is in play to hold “%(aspect)s”: start one, or put the aspect on a "
                                     "character.") % {"aspect": advantage})
        state = state_of(campaign)
        return draft.composition(FateComposition, label=label, label_parts=parts, request=request, opponent=opponent, spends=spends,
                                 invocation_on_offer=on_offer, action=action, advantage=advantage,
                                 advantage_on=data.get("advantage_on") if advantage else None,
                                 deck=tuple(state.deck) if state.uses_deck else None)


    def name_options(self, data: Mapping[str, Any]) -> list[str]:
        return [gettext("stunt +%(n)d") % {"n": data["stunt_bonus"]}] if data.get("stunt_bonus") else []

    def odds(self, comp: Composition) -> OddsPanel:
        assert isinstance(comp, FateComposition)  # what ``compose`` made
        return panel(comp)
