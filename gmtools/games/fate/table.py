"""Fate Accelerated at the table: the Fate deck, an action's effect, aspects invoked (on the roll
and after it) and created, fate points, the scene's situation aspects, and the character card's
one-click changes (fate points, stress, consequences).

Which aspects are in play and what one roll may invoke are ``gmtools.games.fate.aspects``' rules; the
writes they lead to are here, each in the transaction of the workflow that calls it.
It calls back into the table (paying, logging, telling the viewers of another character's card) only
through the ``Table`` each callback is handed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import F, QuerySet
from django.db.models.functions import Least
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from gmtools.games.base import (
    ROLL, AdjustmentWords, BasePlay, Composition, Die, FollowUp, FollowUpForm, Ledger, Refused, SceneChange, Spend,
    Spent, SpendKind, Table, character_spend, contest, logged_request, rebuild, request_args, request_doc,
    step, toggle,
)
from gmtools.games.fate import aspects
from gmtools.games.fate.composer import FateComposition
from gmtools.games.fate.models import (
    BOUNDS, CONSEQUENCE_LENGTH, FREE_FOR_REFUSAL, SEVERITIES, Aspect, FateResources, FateState, resources_of,
)
from gmtools.models import Campaign, Character, Roll, Scene
from rules import fate
from rules.dice import Entry, RandomSource, Thrown
from rules.fairness import FATE_DIE
from rules.luck import Luck

# The kinds of log entry its follow-up make (a composed roll's is ``ROLL``).
INVOKE_KIND = "invoke"

# --- the dice: four Fate dice, or the campaign's deck ----------------------------------------


def draw(campaign_id: int, req: fate.Request, rng: RandomSource | None) -> tuple[fate.Result, dict[str, Any]]:
    """Four Fate dice, or the campaign's next card when it draws from the Fate deck.

    The campaign row is locked first: two draws at once must not take the same card.
    """
    uses_deck, deck = FateState.objects.select_for_update().values_list("uses_deck", "deck").get(pk=campaign_id)
    # Physical dice were thrown at the table whatever the campaign draws from: no card leaves the deck.
    if not uses_deck or isinstance(rng, Thrown):
        return fate.roll(req, rng), {}
    result, drawn = fate.roll_deck(req, fate.Deck.from_list(deck), rng)
    FateState.objects.filter(pk=campaign_id).update(deck=drawn.deck.as_list())
    return result, {"card": drawn.card, "reshuffled": drawn.reshuffled}


_CARD_SYMBOLS = {-1: "−", 0: "\u00a0", 1: "+"}
_TEXT_SYMBOLS = {-1: "−", 0: "0", 1: "+"}
_SPOKEN = {-1: "−1", 0: "0", 1: "+1"}  # a screen reader reads a blank face as nothing, "−" as a dash


# --- luck and fair dice (issue 14) -------------------------------------------------------------

FATE_DICE = Die(code="fate", name=ngettext_lazy("%(dice)s Fate die", "%(dice)s Fate dice", "count"), faces=FATE_DIE)
# The deck's cards, dealt without replacement: tested by when they come (``rules.fairness.fair_deck``).
DECK = Die(code="deck", name=ngettext_lazy("%(dice)s card of the Fate deck", "%(dice)s cards of the Fate deck", "count"))


def _deck_before(campaign_id: int, drawn: Mapping[str, Any]) -> fate.Deck | None:
    """The deck a card was drawn from, as it stood before the draw; None for four dice. Read in the
    draw's transaction, the campaign row still locked: the cards left now, and the card on top."""
    if "card" not in drawn:
        return None
    if drawn.get("reshuffled"):
        return fate.Deck()  # a fresh deck: all 81 cards
    left = FateState.objects.values_list("deck", flat=True).get(pk=campaign_id)
    return fate.Deck((drawn["card"], *left))


def luck(campaign_id: int, request: fate.Request, result: fate.Result, document: Mapping[str, Any]) -> Luck:
    """The dice's total against its exact odds: four Fate dice, or the cards left in the deck."""
    return fate.luck(request, result, _deck_before(campaign_id, document))


def _replayed_deck(result: Mapping[str, Any], state: dict[str, Any]) -> fate.Deck | None:
    """The deck before a logged draw, from the draws before it since the last reshuffle (the deck
    as nobody edited it by hand); None for dice."""
    if "card" not in result:
        return None
    drawn = state.setdefault("drawn", set())
    if result.get("reshuffled"):
        drawn.clear()
    deck = fate.Deck(tuple(card for card in range(fate.DECK_SIZE) if card not in drawn))
    drawn.add(result["card"])
    return deck


def _rerolled(kind: str, result: Mapping[str, Any]) -> bool:
    """Whether an entry threw dice: a roll, or an invocation that rerolled (a +2 threw none)."""
    return kind == ROLL or (kind == INVOKE_KIND and result.get("invoke", {}).get("mode") == "reroll")


# --- an action's effect and the advantage it creates -----------------------------------------


def _effect(action: str, result: fate.Result, opponent_total: int | None, known: bool = False) -> dict[str, Any]:
    """The action's effect by the Fate table; against an opponent the shifts are the totals' difference.
    ``known``: a Create an advantage on an aspect already there (gmtools.games.fate.aspects)."""
    shifts = result.total - opponent_total if opponent_total is not None else result.shifts
    effect = fate.effects(fate.Action(action), fate.outcome_of(shifts), known_aspect=known, shifts=shifts)
    return {**effect.as_json(), "action": action}


def _start_advantage(campaign: Campaign, scene: Scene | None, comp: FateComposition) -> dict[str, Any]:
    """What a Create an advantage roll will make, before its result: its aspect, where, and whether it is known."""
    on = comp.advantage_on
    if on is None and scene is None:
        raise Refused(_("No scene is in play to hold “%(aspect)s”: start one, or put the aspect on a character.")
                      % {"aspect": comp.advantage})
    known = aspects.known_aspect(campaign, scene, on, comp.advantage)
    return {"text": known.text if known else comp.advantage, "on": getattr(on, "pk", None),
            "on_name": on.name if on else "", "scene": getattr(scene, "pk", None), "known": known is not None,
            "aspect": known.pk if known else None, "free": 0, "boost": False}


def _advance_advantage(table: Table, campaign_id: int, roller_id: int | None, state: dict[str, Any],
                       effect: dict[str, Any]) -> dict[str, Any]:
    """Bring a Create an advantage up to what its latest result gives (only ever up: see gmtools.games.fate.aspects)."""
    now = aspects.grant(effect, state["known"])
    before = aspects.Grant(state["free"], state["boost"])
    if not now.better_than(before):
        return state
    more = now.free - before.free
    row = Aspect.objects.filter(pk=state["aspect"]) if state["aspect"] else Aspect.objects.none()
    if state["known"] or (state["aspect"] and row.exists()):
        row.update(free_invocations=Least(F("free_invocations") + more, 9), boost=now.boost and not state["known"])
    elif not (state["aspect"] and now.boost):  # never made yet, or made and gone since (a boost used elsewhere)
        free = now.free if state["aspect"] is None else max(0, more)
        made = Aspect.objects.create(character_id=state["on"], scene_id=state["scene"] if not state["known"] else None,
                                     text=state["text"], free_invocations=min(free, 9), boost=now.boost)
        state = {**state, "aspect": made.pk}
    if state["on"] not in (None, roller_id):
        # Its card shows the new aspect (the roller's card and the scene are redrawn with the roll).
        table.character_changed(Character(pk=state["on"], campaign_id=campaign_id))
    return {**state, "free": now.free, "boost": now.boost}


# --- what invoking spends: a free invocation, or a fate point --------------------------------


def _use_free_invocation(table: Table, character: Character, spend: Spend) -> dict[str, Any]:
    """One free invocation of an aspect in play for this character's roll; a boost is gone once used."""
    if isinstance(spend, aspects.ConsequenceSpend):
        return _use_free_consequence(table, character, spend)
    campaign = character.campaign
    in_play = aspects.in_play(campaign, Scene.objects.current(campaign), character)
    aspect = in_play.filter(pk=spend.aspect_id).first() if spend.aspect_id is not None else None
    if aspect is None:
        raise Refused(_("“%(aspect)s” is no longer in play.") % {"aspect": spend.label})
    rows = Aspect.objects.filter(pk=aspect.pk, free_invocations__gte=1)
    # Atomic in the database: two rolls never use the same last free invocation (or the same boost).
    done = rows.filter(boost=True).delete()[0] if aspect.boost else rows.update(free_invocations=F("free_invocations") - 1)
    if not done:
        raise Refused(_("“%(aspect)s” has no free invocation left.") % {"aspect": spend.label})
    owner = aspect.character
    if owner is not None and owner.pk != character.pk:
        # Another character's card shows the invocation used (the roller's and the scene's are redrawn with the roll).
        table.character_changed(owner)
    return {"boost": {"text": aspect.text, "scene": aspect.scene_id, "character": aspect.character_id}} if aspect.boost else {}


def _use_free_consequence(table: Table, character: Character, spend: aspects.ConsequenceSpend) -> dict[str, Any]:
    """The free invocation of a consequence by whoever inflicted it: theirs no more (Fate Core's once)."""
    owner, severity = aspects.consequence_slot(spend.consequence) or (None, "")
    field = f"consequence_{severity}"
    # Atomic in the database: two rolls never use the same free invocation.
    if owner is None or not FateResources.objects.filter(
            character_id=owner, character__campaign_id=character.campaign_id, **{f"{field}_free_for": character.pk}
    ).exclude(**{field: ""}).update(**{f"{field}_free_for": None}):
        raise Refused(_("“%(aspect)s” has no free invocation left.") % {"aspect": spend.label})
    if owner != character.pk:
        # The card of the character who has the consequence no longer says it is free for the roller.
        table.character_changed(Character(pk=owner, campaign_id=character.campaign_id))
    return {}


def _give_back_free_consequence(key: str, invoker: int | None, ledger: Ledger) -> None:
    """A consequence's free invocation back to whoever used it, while both are characters of one
    campaign, the consequence is still taken and nobody else's free invocation stands on it."""
    owner, severity = aspects.consequence_slot(key) or (None, "")
    character, used_by = ledger.character(owner), ledger.character(invoker)
    if character is None or used_by is None or character.campaign_id != used_by.campaign_id:
        return
    row, field = resources_of(character), f"consequence_{severity}"
    if getattr(row, field) and getattr(row, f"{field}_free_for_id") is None:
        ledger.update(character, **{f"{field}_free_for_id": used_by.pk})


def _made_by_a_voided_roll(entry: Roll, aspect_id: int | None) -> bool:
    """Whether the aspect was made by a log entry (a Create an advantage, or the invocation that made
    it succeed: the first entry naming it) that has been voided since, taking what it made off."""
    if aspect_id is None:
        return False
    maker = (Roll.objects.filter(campaign_id=entry.campaign_id, result__advantage__aspect=aspect_id)
             .order_by("pk").values("voided_at").first())
    return maker is not None and maker["voided_at"] is not None


def _give_back_free_invocation(entry: Roll, spend: dict[str, Any], ledger: Ledger) -> None:
    if key := spend.get("consequence"):
        _give_back_free_consequence(key, spend.get("character"), ledger)
        return
    if boost := spend.get("boost"):
        # A boost used up: back as it was, while its scene is still in play (it would have ended with it),
        # as the same row, so that voiding the roll that made it takes it off again; and not at all once
        # that roll is voided (the third walkthrough voided the tie, then the invocation: the boost was back).
        if _made_by_a_voided_roll(entry, spend.get("aspect")):
            return
        if ledger.scene_open(boost["scene"]) or (boost["scene"] is None and ledger.character(boost["character"])):
            ledger.make_row(Aspect, pk=spend.get("aspect"), text=boost["text"], scene_id=boost["scene"],
                            character_id=boost["character"], boost=True, free_invocations=1)
        return
    # At most 9, as the aspect's constraint says; an aspect deleted since gets nothing back.
    aspect = ledger.row(Aspect, spend.get("aspect"))
    if aspect is not None and aspect.free_invocations < 9:
        ledger.update_row(aspect, free_invocations=aspect.free_invocations + 1)


def _consequence(severity: str) -> Callable[[Character, str, str | None], dict[str, Any]]:
    """A consequence written on the card, with whoever inflicted it (``by``: a character's id, ""
    nobody; None: as it was), whose next invocation of it is free (Fate Core). None once cleared."""
    field = f"consequence_{severity}"

    def change(c: Character, value: str = "", by: str | None = None) -> dict[str, Any]:
        text = " ".join(value.split())
        if len(text) > CONSEQUENCE_LENGTH:
            raise Refused(_("A consequence is a short aspect: at most 120 characters."))
        free_for = getattr(resources_of(c), f"{field}_free_for_id") if by is None else _inflicter(c, by)
        return {field: text, f"{field}_free_for_id": free_for if text else None}
    return change


def _inflicter(c: Character, by: str) -> int | None:
    """The character the GM chose as who inflicted a consequence on ``c``: another of its campaign ("" nobody)."""
    if by == "":
        return None
    found: int | None = (Character.objects.filter(pk=int(by), campaign_id=c.campaign_id).exclude(pk=c.pk)
             .values_list("pk", flat=True).first() if by.isascii() and by.isdigit() and len(by) < 10 else None)
    if found is None:
        raise Refused(str(FREE_FOR_REFUSAL))
    return found


ADJUSTMENTS = {
    "fate-point-spend": step("points", -1, 0, 99, gettext_lazy("%(name)s has no fate points left.")),
    "fate-point-gain": step("points", 1, 0, 99, gettext_lazy("%(name)s cannot hold more fate points.")),
    "refresh": lambda c: {"points": max(resources_of(c).points, resources_of(c).refresh)},
    **{f"stress-{n}": toggle(f"stress_{n}") for n in (1, 2, 3)},
}
CONSEQUENCES = {f"consequence-{severity}": _consequence(severity) for severity in SEVERITIES}
ADJUSTMENT_WORDS = {
    "fate-point-spend": AdjustmentWords(gettext_lazy("Fate points −1"), gettext_lazy("Spend a fate point")),
    "fate-point-gain": AdjustmentWords(gettext_lazy("Fate points +1"), gettext_lazy("Gain a fate point")),
    "refresh": AdjustmentWords(gettext_lazy("Refresh")),
    "stress-1": AdjustmentWords(gettext_lazy("Stress box 1")),
    "stress-2": AdjustmentWords(gettext_lazy("Stress box 2")),
    "stress-3": AdjustmentWords(gettext_lazy("Stress box 3")),
    "consequence-mild": AdjustmentWords(gettext_lazy("Mild consequence")),
    "consequence-moderate": AdjustmentWords(gettext_lazy("Moderate consequence")),
    "consequence-severe": AdjustmentWords(gettext_lazy("Severe consequence")),
}

SPENDS = {
    # An aspect's text (the GM's) is kept as written.
    "free_invocation": SpendKind(pay=_use_free_invocation, give_back=_give_back_free_invocation,
                                 words=lambda spend: _("free invocation of “%(aspect)s”") % {"aspect": spend.get("label", "")}),
    "fate_point": character_spend(
        pay=ADJUSTMENTS["fate-point-spend"],
        give_back=lambda c, spend: {"points": min(BOUNDS["points"][1], resources_of(c).points + 1)},
        words=lambda spend: _("1 fate point") + (f" ({spend['label']})" if spend.get("label") else "")),
}


# --- invoking after the roll ------------------------------------------------------------------


NO_ASPECT = gettext_lazy("Choose the aspect to invoke: an invocation names its aspect.")


class InvokeForm(FollowUpForm):
    # An invocation names its aspect: an aspect in play (its id) or a consequence (its key), never none.
    aspect = forms.CharField(max_length=60, error_messages={"required": NO_ASPECT})
    mode = forms.ChoiceField(choices=[("bonus", "+2"), ("reroll", gettext_lazy("Reroll"))])

    def clean_aspect(self) -> Aspect | aspects.Consequence:
        """Any aspect in play for the roll's character (its own, the scene's, the others' in the
        scene), or a consequence one of them has taken."""
        value = self.cleaned_data["aspect"]
        roll = self.roll
        found: Aspect | aspects.Consequence | None
        if value.startswith(f"{aspects.Consequence.PREFIX}:"):
            found = aspects.consequence_of(value, roll.campaign_id, self.scene, roll.character_id)
        else:  # an id a column can hold, else nothing
            found = (aspects.in_play(roll.campaign_id, self.scene, roll.character_id).filter(pk=int(value)).first()
                     if value.isascii() and value.isdigit() and len(value) < 10 else None)
        if found is None:  # as a list of aspects would refuse it
            raise forms.ValidationError(forms.ModelChoiceField.default_error_messages["invalid_choice"])
        return found


def _invoke(table: Table, parent: Roll, rng: RandomSource | None, aspect: Aspect | aspects.Consequence | None,
            mode: str) -> Roll:
    """Invoke an aspect (or a consequence) after the roll, for +2 or to reroll all four dice.

    A free invocation on the aspect is used first, else a fate point (a consequence: a fate point).
    The new entry's request carries the +2 in its bonus, so every entry replays on its own.
    """
    if mode not in ("bonus", "reroll"):
        raise Refused(_("Choose +2 or a reroll."))
    if aspect is None:
        raise Refused(NO_ASPECT)
    assert parent.character_id is not None  # ``INVOKE.applies`` to a character's roll alone
    spend: Spend
    key: int | str  # how the log's invocations name it: an aspect's id, a consequence's key
    if isinstance(aspect, aspects.Consequence):
        spend, key = aspects.paying_for(parent.character_id, aspect), aspect.key
    elif aspect.free_invocations > 0:
        spend, key = Spend("free_invocation", parent.character_id, aspect.pk, aspect.text), aspect.pk
    else:
        spend, key = Spend("fate_point", parent.character_id, aspect.pk, aspect.text), aspect.pk
    # The aspects invoked on this roll so far and standing: the roll's own and each invocation after it.
    standing = Roll.objects.filter(pk__in=parent.family(), voided_at__isnull=True)  # a voided one gave its point back
    earlier = [invoked for spends in standing.order_by("id").values_list("spends", flat=True)
               for invoked in aspects.invocations(spends)]
    advantage = parent.result.get("advantage")
    if advantage and advantage.get("aspect") == key:
        raise Refused(_("“%(aspect)s” comes from this roll: invoke it on a later roll.") % {"aspect": aspect.text})
    if not aspects.may_invoke_again([i["paid"] for i in earlier if i["aspect"] == key], spend.what):
        raise Refused(aspects.twice_refusal(aspect.text))
    paid = table.pay(spend)
    request = rebuild(fate, logged_request(parent))
    extra: dict[str, Any] = {}
    if mode == "bonus":
        request = dataclasses.replace(request, bonus=request.bonus + fate.INVOKE_BONUS)
        result = fate.resolve(request, parent.main["faces"])
        rolled = None  # no dice thrown: the roll's own luck stands
    else:
        result, extra = draw(parent.campaign_id, request, rng)
        rolled = luck(parent.campaign_id, request, result, extra)  # a fresh roll of the same request
    document = {"main": result.as_json(), **extra, "invoke": {"mode": mode, "aspect": spend.label, "paid": spend.what}}
    if mode == "bonus":
        # The same card still gives the dice: its lines ("Fate deck card 52", a reshuffle) stay on the
        # roll's card, whose headline is this entry's now (the deck's tally counts the draw once: the roll's).
        drawn = [n for n in parent.main.get("notes", []) if n.get("code") in DRAW_NOTES]
        document["main"]["notes"] = [*drawn, *document["main"]["notes"]]
    if invoked := earlier + aspects.invocations([spend.as_json()]):
        document["invoked"] = invoked
    opponent = parent.result.get("opponent")
    if opponent is not None:
        # Still against the same opposition: re-net the new total against the opponent's.
        document["opponent"] = opponent
        document["opposed"] = contest(result.total - opponent["total"])
    if "effect" in parent.result:
        action = parent.result["effect"].get("action")
        if action:
            document["effect"] = _effect(action, result, opponent["total"] if opponent else None,
                                         known=bool(advantage and advantage.get("known")))
            if advantage:
                # An invocation that improves a Create an advantage improves the advantage (gmtools.games.fate.aspects).
                document["advantage"] = _advance_advantage(table, parent.campaign_id, parent.character_id, advantage,
                                                           document["effect"])
    return table.log_follow_up(parent, INVOKE_KIND, luck=rolled, label=parent.label,
                               request={**request_doc(request), "shortcut": "roll"}, result=document,
                               outcome=str(result.outcome), spends=[paid])


_INVOCABLE = (ROLL, INVOKE_KIND)
DRAW_NOTES = ("deck_reshuffled", "card")  # how a card was drawn (``rules.fate.Draw.notes``)

INVOKE = FollowUp(
    kind=INVOKE_KIND,
    label=gettext_lazy("Invocation"),
    form_class=InvokeForm,
    # The form itself offers only what can be paid (``invoke_choices``), and nothing when nothing can.
    form="games/fate/card.html#invoke",
    offered=lambda roll: roll.kind in _INVOCABLE,
    applies=lambda roll: roll.character_id is not None and roll.kind in _INVOCABLE,
    take=_invoke,
    refusal=gettext_lazy("Only a Fate character's roll can be improved by an invocation."),
    # A reroll throws the four dice again; +2 throws none.
    entry=lambda parent, choice: Entry(dice=fate.DICE, fate=True) if choice.get("mode") == "reroll" else None,
)


# --- the scene's situation aspects and boosts (the time bar) -----------------------------------


class SceneAspectForm(forms.Form):
    text = forms.CharField(max_length=200, label=gettext_lazy("Aspect"))
    free_invocations = forms.IntegerField(min_value=0, max_value=9, required=False, initial=0,
                                          label=gettext_lazy("Free invocations"))
    boost = forms.BooleanField(required=False, label=gettext_lazy("Boost"))


class SceneAspectRemoveForm(forms.Form):
    aspect = forms.IntegerField(min_value=1)


def _add_scene_aspect(scene: Scene, text: str, free_invocations: int | None, boost: bool) -> Aspect:
    """A situation aspect (or a boost: one free invocation, gone once used) on the scene in play."""
    text = " ".join(text.split())
    if not text:
        raise Refused(_("Name the aspect."))
    aspect = Aspect(scene=scene, text=text, boost=boost, free_invocations=1 if boost else free_invocations or 0)
    try:
        aspect.full_clean()
    except ValidationError as error:
        raise Refused(" ".join(error.messages)) from None
    aspect.save()
    return aspect


def _remove_scene_aspect(scene: Scene, aspect: int) -> None:
    """The GM takes a situation aspect or a boost of the scene off the table (never a character's)."""
    if not Aspect.objects.filter(pk=aspect, scene=scene, character__isnull=True).delete()[0]:
        raise Refused(_("That aspect is no longer on the scene."))


_SITUATION_ONLY = gettext_lazy("Situation aspects and boosts are Fate's.")
# The composer redraws its aspects to invoke (games/fate/composer.html#invoke-field).
ASPECTS_CHANGED = "aspects-changed"
SCENE_CHANGES = (
    SceneChange(kind="aspect-add", form_class=SceneAspectForm, take=_add_scene_aspect, refusal=_SITUATION_ONLY,
                event=ASPECTS_CHANGED),
    SceneChange(kind="aspect-remove", form_class=SceneAspectRemoveForm, take=_remove_scene_aspect,
                refusal=_SITUATION_ONLY, event=ASPECTS_CHANGED),
)


class FatePlay(BasePlay):
    """Fate at the table."""

    # Its four actions (overcome, create an advantage, attack, defend) are no slots of a turn's budget.
    logged_action = "action"
    extended_refusal = gettext_lazy("Fate Accelerated has no extended actions: play it as a challenge or a contest.")
    spends = SPENDS
    follow_ups = (INVOKE,)
    adjustments = ADJUSTMENTS
    text_adjustments = CONSEQUENCES
    adjustment_words = ADJUSTMENT_WORDS
    scene_changes = SCENE_CHANGES
    card_details = "games/fate/card.html#details"
    switch = "games/fate/play.html#switch"
    scene_extras = "games/fate/play.html#scene-aspects"
    player_scene = "games/fate/play.html#player-scene-aspects"
    party_card = "games/fate/play.html#party-card"
    dice = (FATE_DICE, DECK)
    spent = (Spent(label=gettext_lazy("Fate points"), spends=("fate_point",), adjustments=("fate-point-spend",)),
             Spent(label=gettext_lazy("Free invocations"), spends=("free_invocation",)))

    def roll(self, campaign_id: int, request: fate.Request, rng: RandomSource | None) -> tuple[fate.Result, dict[str, Any]]:
        return draw(campaign_id, request, rng)

    def entry(self, request: fate.Request) -> Entry:
        """The four Fate dice."""
        return Entry(dice=fate.DICE, fate=True)

    def scene_rows(self, scene: Scene) -> QuerySet[Aspect]:
        return scene.aspects.filter(character__isnull=True)  # those put on a character show on its card

    def scenes_ending(self, scenes: QuerySet[Scene]) -> None:
        # Situation aspects and boosts end with their scene, those put on a character too (gmtools.games.fate.aspects).
        Aspect.objects.filter(scene__in=scenes).delete()

    def logged(self, table: Table, campaign: Campaign, scene: Scene | None, comp: Composition, main: fate.Result,
               document: dict[str, Any]) -> dict[str, Any]:
        """What a roll's entry adds: its action's effect, the aspects it invoked, the advantage it created."""
        assert isinstance(comp, FateComposition)  # what its composer made
        opponent_total = document["opponent"]["total"] if comp.opponent is not None else None
        advantage = _start_advantage(campaign, scene, comp) if comp.advantage else None
        added: dict[str, Any] = {"effect": _effect(comp.action, main, opponent_total,
                                                   known=bool(advantage and advantage["known"]))}
        if invoked := aspects.invocations(spend.as_json() for spend in comp.spends):
            added["invoked"] = invoked  # the aspects invoked on this roll so far (its follow-ups add theirs)
        if advantage is not None:
            added["advantage"] = _advance_advantage(table, campaign.pk, getattr(comp.character, "pk", None), advantage,
                                                    added["effect"])
        return added

    def take_back(self, entry: Roll, ledger: Ledger) -> None:
        """A Create an advantage given back (or an invocation that improved one) goes back to what stood
        before it: the aspect it made is deleted, the free invocations it added are taken back (never
        below 0: some may have been used since), a boost it turned into an aspect is a boost again."""
        now = entry.result.get("advantage")
        if not now or now.get("aspect") is None:
            return  # it made nothing
        parent = Roll.objects.filter(pk=entry.parent_id).values_list("result", flat=True).first() if entry.parent_id else None
        before = (parent or {}).get("advantage") or {"aspect": now["aspect"] if now.get("known") else None,
                                                      "free": 0, "boost": False}
        aspect = ledger.row(Aspect, now["aspect"])
        if aspect is None:
            return  # gone since
        if before.get("aspect") != now["aspect"]:
            ledger.delete_row(aspect)
            return
        less = now.get("free", 0) - before.get("free", 0)
        if less > 0 or before.get("boost") != now.get("boost"):
            ledger.update_row(aspect, free_invocations=max(0, aspect.free_invocations - max(0, less)),
                                 boost=bool(before.get("boost")) and not now.get("known"))

    def card_dice(self, result: Mapping[str, Any]) -> list[dict[str, Any]]:
        return [{"face": f, "label": _CARD_SYMBOLS[f], "css": f"die die-fate die-fate-{f + 1}", "words": _SPOKEN[f]}
                for f in result.get("faces", [])]

    def dice_text(self, result: Mapping[str, Any]) -> str:
        return " ".join(_TEXT_SYMBOLS[f] for f in result.get("faces", []))

    # --- luck and fair dice (issue 14) ---

    def luck(self, campaign_id: int, request: fate.Request, result: fate.Result, document: Mapping[str, Any]) -> Luck:
        return luck(campaign_id, request, result, document)

    def stored_luck(self, entry: Mapping[str, Any], state: dict[str, Any]) -> Luck | None:
        """A logged roll or reroll replayed from its stored request and dice (or card)."""
        result = entry["result"]
        if entry["kind"] not in (ROLL, INVOKE_KIND):
            return None
        deck = _replayed_deck(result, state)
        if not _rerolled(entry["kind"], result):
            return None
        request = rebuild(fate, request_args(entry["request"]))
        return fate.luck(request, fate.resolve(request, result["main"]["faces"]), deck)

    def thrown(self, kind: str, result: Mapping[str, Any]) -> Iterator[tuple[str, list[Any]]]:
        """The four dice thrown (or the card drawn), and the opposition's dice; a +2 invocation threw none."""
        if not _rerolled(kind, result):
            return
        if "card" in result:
            yield DECK.code, [(result["card"], bool(result.get("reshuffled")))]
        else:
            yield FATE_DICE.code, result.get("main", {}).get("faces", [])
        if kind == ROLL and result.get("opponent"):  # an invocation keeps its roll's opposition
            yield FATE_DICE.code, result["opponent"].get("faces", [])
