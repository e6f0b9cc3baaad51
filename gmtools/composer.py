"""The roll composer: what the GM picks on the table, turned into a ``rules`` request.

``ComposerForm`` shows only the fields of the campaign's game. ``compose`` turns its cleaned
data into a ``Composition``: the rules request for the acting side, the opposing side's if
any, the helpers of a teamwork roll and the resources the roll will spend. The odds panel and
the roll service both start from a ``Composition``, so what the GM sees priced is exactly
what gets rolled.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from gmtools import aspects as aspects_in_play
from gmtools import games
from gmtools.models import Aspect, Campaign, Character, ExtendedAction, ExtendedKind, Roll, Scene, Trait, TurnDeclaration
from gmtools.notes import game_term, refusal_text
from gmtools.sheets import Game, TraitCategory
from rules import exalted, fate, scifi, v5
from rules.dice import RulesError

# The first trait is the Attribute (Approach in Fate), the second the Ability / Skill.
FIRST_CATEGORY = {Game.EXALTED: TraitCategory.ATTRIBUTE, Game.V5: TraitCategory.ATTRIBUTE,
                  Game.FATE: TraitCategory.APPROACH, Game.SCIFI: TraitCategory.ATTRIBUTE}
SECOND_CATEGORY = {Game.EXALTED: (TraitCategory.ABILITY,), Game.V5: (TraitCategory.SKILL, TraitCategory.DISCIPLINE),
                   Game.FATE: (), Game.SCIFI: (TraitCategory.SKILL,)}

V5_DIFFICULTIES = [
    (1, _("Routine (1)")), (2, _("Simple (2)")), (3, _("Moderate (3)")), (4, _("Challenging (4)")),
    (5, _("Hard (5)")), (6, _("Very hard (6)")), (7, _("Nearly impossible (7)")), (8, "8"), (9, "9"), (10, "10"),
]
SCIFI_DIFFICULTIES = [
    ("easy", _("Easy (automatic)")), ("common", _("Common (1)")), ("hard", _("Hard (2)")),
    ("very-hard", _("Very hard (3)")), ("extreme", _("Extreme (4)")),
]
FATE_LADDER = [
    (8, _("+8 Legendary")), (7, _("+7 Epic")), (6, _("+6 Fantastic")), (5, _("+5 Superb")), (4, _("+4 Great")),
    (3, _("+3 Good")), (2, _("+2 Fair")), (1, _("+1 Average")), (0, _("0 Mediocre")), (-1, _("−1 Poor")),
    (-2, _("−2 Terrible")),
]
EXALTED_DIFFICULTIES = [(d, str(d)) for d in range(0, 11)]
FATE_ACTIONS = [
    ("overcome", _("Overcome")), ("create_advantage", _("Create an advantage")),
    ("attack", _("Attack")), ("defend", _("Defend")),
]
SCIFI_ACTIONS = [("short", _("Short (1 slot)")), ("long", _("Long (2 slots)")), ("fire", _("Fire a weapon (1 slot, once)")),
                 ("extended", _("Extended (both slots)"))]
V5_SHORTCUTS = [("roll", _("Roll")), ("take_half", _("Take half")), ("automatic", _("Automatic win"))]


class ModelMultipleChoiceField(forms.ModelMultipleChoiceField):
    """Refuses ids that no database column can hold, instead of letting the query overflow."""

    def _check_values(self, value):
        for pk in value:
            try:
                if not -(2**63) <= int(pk) < 2**63:
                    raise ValueError
            except (TypeError, ValueError):
                raise forms.ValidationError(self.error_messages["invalid_pk_value"], code="invalid_pk_value",
                                            params={"pk": pk}) from None
        return super()._check_values(value)


class AspectChoiceField(ModelMultipleChoiceField):
    """Aspects in play, each named with whose it is and its free invocations (``roller``: the rolling character)."""

    roller: int | None = None

    def label_from_instance(self, aspect: Aspect) -> str:
        return aspects_in_play.label(aspect, self.roller)


class TraitChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, trait: Trait) -> str:
        return f"{trait.label} {trait.rating}"


# The engine's bound on one side's pool, the same in every game (rules: MAX_POOL): an extended action
# accepts 100 dice a side, so the composer that rolls into it does too.
POOL_MAX = exalted.MAX_POOL


class ComposerForm(forms.Form):
    """Every option of a roll; ``__init__`` keeps those of the campaign's game."""

    character = forms.ModelChoiceField(queryset=Character.objects.none(), required=False,
                                       empty_label=_("Unnamed NPC"), label=_("Character"))
    first = TraitChoiceField(queryset=Trait.objects.none(), required=False, label=_("Attribute"))
    second = TraitChoiceField(queryset=Trait.objects.none(), required=False, label=_("Ability"))
    dice = forms.IntegerField(initial=0, min_value=-30, max_value=POOL_MAX, label=_("Extra dice"),
                              help_text=_("An unnamed NPC's whole pool, or dice added to the traits."))
    modifier = forms.IntegerField(initial=0, min_value=-20, max_value=20, label=_("Modifier"))
    difficulty = forms.TypedChoiceField(choices=(), coerce=int, label=_("Difficulty"))
    label = forms.CharField(max_length=120, required=False, label=_("What for"))
    opponent_dice = forms.IntegerField(initial=0, min_value=0, max_value=POOL_MAX, required=False,
                                       label=_("Opposed by (dice)"),
                                       help_text=_("Leave 0 for a roll against the difficulty."))
    opponent = forms.CharField(max_length=80, required=False, label=_("Opponent"))
    team = ModelMultipleChoiceField(queryset=Character.objects.none(), required=False, label=_("Teamwork"),
                                          widget=forms.CheckboxSelectMultiple)

    # exalted and v5: roll the traits, or a Willpower (Humanity) roll from the sheet's own rating
    pool_from = forms.ChoiceField(choices=[("traits", _("Traits")), ("willpower", _("Willpower roll")),
                                           ("humanity", _("Humanity roll"))], initial="traits", label=_("Roll"))
    # exalted
    stunt = forms.TypedChoiceField(choices=[(n, str(n)) for n in range(4)], coerce=int, initial=0,
                                   label=_("Stunt dice"))
    willpower = forms.BooleanField(required=False, label=_("Spend Willpower (+1 success)"))
    calm = forms.BooleanField(required=False, label=_("Calm: automatic success"),
                              help_text=_("Outside stress (never in combat), a pool of 7 or more meets the difficulty "
                                          "without a roll, with no extra successes."))
    # exalted, opposed: successes taken from one side's roll (seed 000's drunk guard); choices in __init__
    handicap = forms.TypedChoiceField(choices=(), coerce=int, initial=0, required=False,
                                      label=_("Successes taken away"),
                                      help_text=_("Opposed roll: successes subtracted from one side's roll "
                                                  "(a drunk guard's Perception, say)."))
    # v5
    specialty = forms.BooleanField(required=False, label=_("Specialty (+1 die)"))
    secret = forms.BooleanField(required=False, label=_("Secret difficulty"))
    shortcut = forms.ChoiceField(choices=V5_SHORTCUTS, initial="roll", label=_("How"))
    improvised = forms.BooleanField(required=False, label=_("Improvised equipment (+1 difficulty)"))
    no_equipment = forms.BooleanField(required=False, label=_("Impossible without equipment"),
                                      help_text=_("The character lacks the equipment the task needs: "
                                                  "a failure without a roll."))
    difficulty_modifier = forms.IntegerField(initial=0, min_value=-10, max_value=10, required=False,
                                             label=_("Difficulty modifier"),
                                             help_text=_("The GM's change to the difficulty; beyond ±2 the roll "
                                                         "says so."))
    # fate
    stunt_bonus = forms.TypedChoiceField(choices=[(0, "0"), (1, "+1"), (2, "+2")], coerce=int, initial=0,
                                         label=_("Stunt bonus"))
    helpers = forms.IntegerField(initial=0, min_value=0, max_value=5, label=_("Allies helping"),
                                 help_text=_("+1 for each ally who helps."))
    invoke = AspectChoiceField(queryset=Aspect.objects.none(), required=False,
                                            widget=forms.CheckboxSelectMultiple,
                                            label=_("Invoke aspects (+2 each)"),
                                            help_text=_("A free invocation is used first, else a fate point."))
    # The same aspect a second time on this roll: only with its second free invocation (gmtools.aspects).
    invoke_again = AspectChoiceField(queryset=Aspect.objects.none(), required=False,
                                     widget=forms.CheckboxSelectMultiple, label=_("Invoke again (a second free invocation)"))
    action = forms.ChoiceField(choices=FATE_ACTIONS, initial="overcome", label=_("Action"))
    # Create an advantage: the aspect it makes, and where it goes (the scene unless a character is chosen).
    advantage = forms.CharField(max_length=200, required=False, label=_("Aspect to create"),
                                help_text=_("Create an advantage: the new aspect's name (or an aspect already there, "
                                            "for its free invocations)."))
    advantage_on = forms.ModelChoiceField(queryset=Character.objects.none(), required=False,
                                          empty_label=_("The scene"), label=_("Put it on"))
    # turns: exalted reflexive actions and second chances; scifi's action kinds and Off-Rol
    reflexive = forms.BooleanField(required=False, label=_("Reflexive"),
                                   help_text=_("No multiple-action penalty (resisting poison, say)."))
    second_chance = forms.BooleanField(required=False, label=_("Second chance"),
                                       help_text=_("+1 success needed per earlier failure at the same task in this "
                                                   "scene (never in combat)."))
    kind = forms.ChoiceField(choices=SCIFI_ACTIONS, initial="short", label=_("Action"))
    knowledge = forms.BooleanField(required=False, label=_("Needs specific knowledge"),
                                   help_text=_("Impossible without a level in the skill, even when Easy (seed: "
                                               "“Comprobación de Acciones”)."))
    off_rol = forms.BooleanField(
        required=False, label=_("Off-Rol action"),
        help_text=_("Off-Rol: outside the adventure (shopping, healing between adventures, crafting, selling); "
                    "closed to a character while its adventure is open, unless the GM stages the scene (downtime)."))
    extended = forms.ModelChoiceField(queryset=ExtendedAction.objects.none(), required=False,
                                      empty_label=_("None"), label=_("Roll into extended action"),
                                      error_messages={"invalid_choice": _("That extended action is over (or gone): "
                                                                          "choose another, or none.")})
    # every game: the players see nothing of the roll until the GM reveals it
    hidden = forms.BooleanField(required=False, label=_("Secret roll"))

    GAME_FIELDS = {
        Game.EXALTED: ("pool_from", "stunt", "willpower", "calm", "team", "reflexive", "second_chance", "handicap"),
        Game.V5: ("pool_from", "specialty", "secret", "shortcut", "team", "improvised", "no_equipment",
                  "difficulty_modifier"),
        Game.FATE: ("stunt_bonus", "helpers", "invoke", "invoke_again", "action", "advantage", "advantage_on"),
        Game.SCIFI: ("kind", "off_rol", "knowledge"),
    }
    ALL_GAME_FIELDS = {name for names in GAME_FIELDS.values() for name in names}
    # Shown folded under "Opposed, teamwork, note", and the fields laid out two to a row.
    EXTRA_FIELDS = ("label", "opponent_dice", "opponent", "handicap", "team", "extended")
    # V5's difficulty modifier sits in the grid beside How; it and Exalted's handicap wide enough for Spanish.
    WIDE_FIELDS = ("first", "second", "label", "opponent", "opponent_dice", "difficulty", "action", "kind", "extended",
                   "advantage", "advantage_on", "difficulty_modifier", "handicap")
    # Drawn beside the Roll button, not in the grid.
    BESIDE_ROLL = ("hidden",)
    # Drawn inside the "invoke" field's box (templates/table.html#invoke-field), not in the grid.
    WITH_INVOKE = ("invoke_again",)
    # What one roll spends or decides: back to its default once the roll is made (static/gmtools.js).
    RESET_AFTER_ROLL = ("willpower", "stunt", "invoke", "specialty", "hidden", "shortcut", "opponent_dice",
                        "opponent", "label", "invoke_again", "advantage", "handicap", "improvised", "no_equipment",
                        "knowledge", "difficulty_modifier")

    def __init__(self, campaign: Campaign, *args: Any, scene: Scene | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        self.scene = scene
        game = campaign.game
        for name in self.ALL_GAME_FIELDS - set(self.GAME_FIELDS[game]):
            del self.fields[name]
        characters = campaign.characters.in_table_order()
        self.fields["character"].queryset = characters
        if "team" in self.fields:
            self.fields["team"].queryset = characters
        self.fields["difficulty"].choices = {
            Game.EXALTED: EXALTED_DIFFICULTIES, Game.V5: V5_DIFFICULTIES, Game.FATE: FATE_LADDER,
            Game.SCIFI: SCIFI_DIFFICULTIES,
        }[game]
        self.fields["difficulty"].coerce = str if game == Game.SCIFI else int
        self.fields["difficulty"].initial = {Game.EXALTED: 1, Game.V5: 1, Game.FATE: 0, Game.SCIFI: "common"}[game]
        if game == Game.FATE:
            self.fields["first"].label = _("Approach")
            self.fields["opponent_dice"].label = _("Opposed by (bonus)")
            del self.fields["second"]
        elif game in (Game.V5, Game.SCIFI):
            self.fields["second"].label = _("Skill")
        if "pool_from" in self.fields:  # each game's own word for Willpower ("Fuerza de Voluntad" in V5)
            self.fields["pool_from"].choices = [
                (value, game_term("Willpower roll", game) if value == "willpower" else label)
                for value, label in self.fields["pool_from"].choices]
        if game == Game.EXALTED:
            self.fields["pool_from"].choices = self.fields["pool_from"].choices[:2]
            self.fields["handicap"].choices = [(0, gettext("None"))] + [
                (n, gettext("Opponent −%(n)d") % {"n": n}) for n in (1, 2, 3)] + [
                (-n, gettext("This side −%(n)d") % {"n": n}) for n in (1, 2, 3)]
        character = self._chosen_character()
        traits = Trait.objects.filter(character=character).select_related("character__campaign")
        self.fields["first"].queryset = traits.filter(category=FIRST_CATEGORY[game])
        if "second" in self.fields:
            self.fields["second"].queryset = traits.filter(category__in=SECOND_CATEGORY[game])
        if not self.is_bound and character is not None:
            # Start from the character's best pool, so the odds show at once; the GM changes it.
            # A trait asked for (clicked on the card, or a saved roll's) is kept if it is the character's.
            # An empty choice asked for (a saved roll of an Attribute alone) stays empty.
            for name in ("first", "second"):
                if name in self.fields and self.initial.get(name) != "":
                    asked = self._own_trait(name, self.initial.get(name))
                    self.initial[name] = asked or self.fields[name].queryset.order_by("-rating", "id").first()
        if "pool_from" in self.fields and self.initial.get("pool_from") not in dict(self.fields["pool_from"].choices):
            self.initial.pop("pool_from", None)  # a choice this game does not have
        if "invoke" in self.fields:
            # Only what the character can pay for: an aspect in play with a free invocation, or any
            # while it has fate points (how many it can pay for is checked with the roll). In play:
            # its own, the scene's, the other characters' in the scene (gmtools.aspects).
            aspects = aspects_in_play.in_play(campaign, scene, character)
            if character is not None and character.fate_points < 1:
                aspects = aspects.filter(free_invocations__gte=1)
            self.fields["invoke"].queryset = aspects
            self.fields["invoke_again"].queryset = aspects.filter(free_invocations__gte=2)
            self.fields["advantage_on"].queryset = characters
            for name in ("invoke", "invoke_again"):
                self.fields[name].roller = getattr(character, "pk", None)
        if "willpower" in self.fields and not self._willpower_on_offer(character):
            # Drawn unavailable (and the odds do not count it): nothing left, or already spent this
            # turn. Only drawn so: a request that asks for it anyway is refused, never rolled without it.
            self.fields["willpower"].widget.attrs["disabled"] = "disabled"
            self.initial.pop("willpower", None)  # a saved roll's Willpower, when none is on offer
        if game == Game.FATE:
            del self.fields["extended"]
        else:
            # Only the actions still running: one query, then "over" is judged on each row.
            running = [a.pk for a in campaign.extended_actions.filter(ruined=False) if not a.over]
            self.fields["extended"].queryset = campaign.extended_actions.filter(pk__in=running)
            self.fields["extended"].widget.attrs["data-keep-value"] = ""  # the live redraw keeps the GM's choice
        for name, bound in self.fields.items():
            widget = bound.widget
            if name in self.RESET_AFTER_ROLL:
                widget.attrs["data-reset-after-roll"] = ""
            if isinstance(widget, forms.CheckboxSelectMultiple | forms.CheckboxInput):
                widget.attrs["class"] = "form-check-input"
            elif isinstance(widget, forms.Select):
                widget.attrs["class"] = "form-select form-select-sm"
            else:
                widget.attrs["class"] = "form-control form-control-sm"

    def _willpower_on_offer(self, character: Character | None) -> bool:
        """Exalted: Willpower's automatic success, if the character has a temporary point and has not
        spent one this turn (an unnamed NPC has none to spend)."""
        if character is None or character.exalted_willpower_temporary < 1:
            return False
        return self.scene is None or not Roll.objects.this_turn(self.scene, character).filter(willpower_spent=True).exists()

    def _group(self, extra: bool, flags: bool) -> list[forms.BoundField]:
        return [
            field for field in self
            if field.name not in self.BESIDE_ROLL + self.WITH_INVOKE
            and (field.name in self.EXTRA_FIELDS) == extra
            and (isinstance(field.field.widget, forms.CheckboxInput) and not extra) == flags
        ]

    @property
    def main_fields(self) -> list[forms.BoundField]:
        """Laid out as a grid: the pool and the difficulty, then the game's choices."""
        return self._group(extra=False, flags=False)

    @property
    def flag_fields(self) -> list[forms.BoundField]:
        """The game's on/off options, as checkboxes after the grid."""
        return self._group(extra=False, flags=True)

    @property
    def extra_fields(self) -> list[forms.BoundField]:
        return self._group(extra=True, flags=False)

    def _own_trait(self, name: str, value: Any) -> Trait | None:
        """The trait ``value`` (a Trait or its id) if the field offers it (the character's own), else None."""
        if isinstance(value, Trait):
            value = value.pk
        try:
            pk = int(value)
        except (TypeError, ValueError):
            return None
        return self.fields[name].queryset.filter(pk=pk).first() if -(2**63) <= pk < 2**63 else None

    def _chosen_character(self) -> Character | None:
        """The character whose traits the trait fields offer (from the submitted data, if any)."""
        raw = self.data.get(self.add_prefix("character")) if self.is_bound else self.initial.get("character")
        if isinstance(raw, Character):
            return raw
        try:
            return self.campaign.characters.get(pk=int(raw)) if raw else None
        except (ValueError, Character.DoesNotExist):
            return None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        character = data.get("character")
        for name in ("first", "second"):
            trait = data.get(name)
            if trait is not None and trait.character_id != getattr(character, "pk", None):
                self.add_error(name, gettext("This trait belongs to another character."))
        if data.get("invoke") and character is None:
            self.add_error("invoke", gettext("Pick the character who invokes the aspects."))
        for aspect in data.get("invoke_again") or ():
            if aspect not in (data.get("invoke") or ()):
                self.add_error("invoke_again", gettext("Tick “%(aspect)s” among the aspects to invoke too: its second "
                                                       "free invocation comes on top of the first.") % {"aspect": aspect.text})
        if data.get("pool_from", "traits") != "traits" and character is None:
            self.add_error("pool_from", gettext("An unnamed NPC has no sheet to roll from; pick a character."))
        if not self.errors:
            try:
                data["composition"] = compose(self.campaign, data, self.scene)
            except RulesError as error:
                raise forms.ValidationError(refusal_text(error)) from None
        return data


@dataclass(frozen=True)
class Spend:
    """A resource a roll consumes, paid in the roll's own transaction."""

    what: str  # "willpower" | "fate_point" | "free_invocation"
    character_id: int
    aspect_id: int | None = None
    label: str = ""

    def as_json(self) -> dict[str, Any]:
        return {"what": self.what, "character": self.character_id, "aspect": self.aspect_id, "label": self.label}


@dataclass(frozen=True)
class Composition:
    game: str
    character: Character | None
    label: str
    request: Any
    label_parts: tuple[str, ...] = ()  # what a label the composer made is made of, for every language
    opponent: Any | None = None
    opponent_name: str = ""
    team: tuple[tuple[str, Any], ...] = ()  # exalted: each helper's own request, rolled apart
    spends: tuple[Spend, ...] = ()
    shortcut: str = "roll"  # roll | automatic | take_half
    secret: bool = False  # v5: the difficulty is kept from the players
    hidden: bool = False  # a secret roll: kept from the players whole
    action: str = ""  # fate: the action; others: the action's place in the turn's budget
    team_names: tuple[str, ...] = ()
    scene: Scene | None = None
    earlier_actions: int = 0  # the character's rolls already logged this turn, re-checked when rolling
    extended: ExtendedAction | None = None
    notes: tuple[str, ...] = ()  # what the turn did to the roll, e.g. "second of 3 actions: −4 dice"
    deck: tuple[int, ...] | None = None  # fate: the cards left when the campaign draws from its deck
    willpower_on_offer: bool = False  # exalted: the character could spend Willpower on this roll
    invocation_on_offer: bool = False  # fate: the character could pay for one more invocation
    advantage: str = ""  # fate, Create an advantage: the aspect it makes (or adds free invocations to)
    advantage_on: Character | None = None  # ... on this character; None: on the scene in play
    handicap: tuple[int, int] = (0, 0)  # exalted, opposed: successes taken from (this side, the opponent)
    calm_note: str = ""  # exalted: why "Calm: automatic success" was asked for and the roll is rolled anyway

    @property
    def module(self) -> Any:
        return games.get(self.game).engine

    @property
    def actor(self) -> str:
        return self.character.name if self.character else gettext("Unnamed NPC")


def _ratings(data: dict[str, Any]) -> int:
    return sum(trait.rating for trait in (data.get("first"), data.get("second")) if trait is not None)


def _trait_label(data: dict[str, Any]) -> str:
    names = [str(trait.label) for trait in (data.get("first"), data.get("second")) if trait is not None]
    return " + ".join(names) if names else gettext("%(n)d dice") % {"n": data.get("dice") or 0}


def _label_parts(data: dict[str, Any]) -> tuple[str, ...]:
    """What the label made from the traits is made of (see ``Roll.display_label``)."""
    parts = tuple(f"trait:{t.key}" if t.key else f"name:{t.name}"
                  for t in (data.get("first"), data.get("second")) if t is not None)
    return parts or (f"dice:{data.get('dice') or 0}",)


def _team_pools(data: dict[str, Any]) -> list[tuple[Character, int, int]]:
    """Each helper's (character, pool, skill dots) in the acting character's traits."""
    team = [c for c in data.get("team") or () if c != data.get("character")]
    keys = [t.key for t in (data.get("first"), data.get("second")) if t is not None and t.key]
    if not team or not keys:
        return []
    ratings: dict[tuple[int, str], int] = {
        (t.character_id, t.key): t.rating for t in Trait.objects.filter(character__in=team, key__in=keys)
    }
    skill_key = data["second"].key if data.get("second") is not None else None
    return [
        (c, sum(ratings.get((c.pk, k), 0) for k in keys), ratings.get((c.pk, skill_key), 0) if skill_key else 1)
        for c in team
    ]


def _sheet_pool(game: str, character: Character, which: str) -> int:
    """Exalted rolls Willpower's permanent dots; V5 rolls the undamaged boxes (min 1) or Humanity."""
    if game == Game.EXALTED:
        return character.exalted_willpower
    return character.v5_willpower_dice if which == "willpower" else character.v5_humanity


def _exalted_turn(scene: Scene | None, character: Character | None, data: dict[str, Any],
                  earlier: list[Roll]) -> tuple[int, str, str]:
    """The multiple-action penalty of this roll, its budget entry, and a note saying why.

    With N actions declared for the turn, the first loses N dice, the next N+1, ... (reflexive
    actions are exempt and do not count). Willpower's automatic success: once a turn.
    """
    if scene is None or character is None:
        return 0, "", ""
    if data.get("willpower") and any(r.willpower_spent for r in earlier):
        raise RulesError(gettext("Willpower's automatic success is once a turn; %(name)s already spent it.")
                         % {"name": character.name})
    if data.get("reflexive"):
        return 0, "reflexive", ""
    declared = TurnDeclaration.objects.filter(scene=scene, turn=scene.turn, character=character).values_list(
        "actions", flat=True).first() or 1
    taken = sum(r.action != "reflexive" for r in earlier)
    if taken >= declared:
        raise RulesError(ngettext("%(name)s declared %(n)d action this turn and has taken it.",
                                  "%(name)s declared %(n)d actions this turn and has taken them all.", declared)
                         % {"name": character.name, "n": declared})
    penalty = exalted.multiple_action_penalties(declared)[taken] if declared > 1 else 0
    note = gettext("action %(i)d of %(n)d this turn: −%(p)d dice") % {"i": taken + 1, "n": declared, "p": penalty}
    return penalty, "action", note if penalty else ""


def scifi_budget(rolls: list[Roll]) -> scifi.TurnBudget:
    """The turn's action slots as the rules see them, from the character's rolls this turn."""
    return scifi.TurnBudget(taken=tuple(
        (scifi.ActionKind.SPECIAL, "fire") if r.action == "fire" else (scifi.ActionKind(r.action), None)
        for r in rolls if r.action
    ))


def _scifi_turn(scene: Scene | None, character: Character | None, kind: str, earlier: list[Roll]) -> None:
    """Refuse what the turn's two action slots cannot take, saying why."""
    if scene is None or character is None:
        return
    budget = scifi_budget(earlier)
    # An extended action rolled last turn and still running keeps the character concentrating:
    # it carries into this turn and takes both slots, until it ends (or the GM stops it).
    running = (Roll.objects.filter(scene=scene, turn=scene.turn - 1, character=character, action="extended",
                                   extended__isnull=False).select_related("extended").last())
    if not earlier and kind != "extended":
        if running is not None and not running.extended.over:
            budget = scifi.TurnBudget(taken=((scifi.ActionKind.EXTENDED, None),)).next_turn()
    try:
        budget.take(*(("special", "fire") if kind == "fire" else (kind, None)))
    except RulesError as refusal:
        reason = refusal_text(refusal)
        raise RulesError(gettext("%(name)s cannot: %(reason)s.") % {"name": character.name, "reason": reason}) from None


def compose(campaign: Campaign, data: dict[str, Any], scene: Scene | None = None) -> Composition:
    """The rules request(s) and spends for the cleaned composer data (RulesError if unplayable).

    ``scene`` is where play stands: the character's rolls this turn set the multiple-action
    penalty (exalted) and the action slots left (scifi).
    """
    game = campaign.game
    character: Character | None = data.get("character")
    pool = _ratings(data) + (data.get("dice") or 0)
    modifiers = (data["modifier"],) if data.get("modifier") else ()
    label = data.get("label") or _trait_label(data)
    label_parts = () if data.get("label") else _label_parts(data)
    opponent_dice = data.get("opponent_dice") or 0
    earlier = list(Roll.objects.this_turn(scene, character)) if scene and character else []
    extended = data.get("extended")
    if extended is not None and data.get("hidden"):
        # Its progress bar would tell the players what the secret roll gave.
        raise RulesError(gettext("A secret roll cannot go into an extended action: the players see its progress."))
    if extended is not None and extended.kind != ExtendedKind.SOLO and not opponent_dice:
        raise RulesError(gettext("A race or tug-of-war needs the opposing side's dice (Opposed by)."))
    common = dict(game=game, character=character, label=label, label_parts=label_parts,
                  opponent_name=data.get("opponent") or "",
                  scene=scene, earlier_actions=len(earlier), extended=extended, hidden=bool(data.get("hidden")))
    team_pools = _team_pools(data) if game in (Game.EXALTED, Game.V5) else []
    names = tuple(c.name for c, _, _ in team_pools)

    from_sheet = data.get("pool_from") or "traits"
    if from_sheet != "traits":
        # A tracker roll: Willpower or Humanity from the sheet, never the traits picked above.
        pool = _sheet_pool(game, character, from_sheet) + (data.get("dice") or 0)
        label = data.get("label") or {"willpower": gettext("Willpower roll"), "humanity": gettext("Humanity roll")}[from_sheet]
        common["label"] = label
        common["label_parts"] = () if data.get("label") else (f"term:{from_sheet}_roll",)

    if game == Game.EXALTED:
        if data.get("willpower") and character is None:
            raise RulesError(gettext("An unnamed NPC has no Willpower to spend; pick a character."))
        penalty, action, note = _exalted_turn(scene, character, data, earlier)
        difficulty = data["difficulty"]
        if data.get("second_chance") and scene is not None and character is not None:
            difficulty = exalted.second_chance_difficulty(
                difficulty, Roll.objects.failures_at(scene, character, common["label"]), combat=scene.combat)
        # The turn's penalty apart from the other modifiers: a stunt cannot bring back an action it took to 0 dice.
        request = exalted.Request(pool=max(0, pool), difficulty=difficulty, stunt=data.get("stunt") or 0,
                                  willpower=bool(data.get("willpower")), modifiers=modifiers, actions_penalty=penalty)
        spends = (Spend("willpower", character.pk, label=gettext("1 Willpower")),) if data.get("willpower") else ()
        calm = data.get("calm") and not (scene is not None and scene.combat)
        # Automatic only where a roll of the pool could reach the difficulty at all; else it is rolled.
        shortcut = ("automatic" if calm and request.dice >= exalted.AUTOMATIC_SUCCESS_DICE and not request.willpower
                    and exalted.could_reach(request) else "roll")
        calm_note = ""
        if data.get("calm") and shortcut == "roll":
            # Asked for and not given: the odds say why (combat, a pool under 7, Willpower, out of reach).
            try:
                exalted.automatic_success(request, stressful=bool(scene is not None and scene.combat))
            except RulesError as refusal:
                calm_note = refusal_text(refusal)
        opponent = exalted.Request(pool=opponent_dice) if opponent_dice else None
        handicap = data.get("handicap") or 0
        if handicap and opponent is None:
            raise RulesError(gettext("Successes are taken away in an opposed roll: give the opposing side's dice."))
        if handicap and extended is not None:
            raise RulesError(gettext("Successes are taken away in a single opposed roll, not in an extended one."))
        team = tuple((c.name, exalted.Request(pool=p, difficulty=0)) for c, p, _ in team_pools if p > 0)
        on_offer = (character is not None and character.exalted_willpower_temporary >= 1
                     and not any(r.willpower_spent for r in earlier))
        return Composition(**common, request=request, opponent=opponent, spends=spends, shortcut=shortcut,
                           team=team, team_names=names, action=action, notes=(note,) if note else (),
                           willpower_on_offer=on_offer, handicap=(max(0, -handicap), max(0, handicap)),
                           calm_note=calm_note)

    if game == Game.V5:
        if team_pools:
            pools = [pool] + [p for _, p, _ in team_pools]
            skills = [data["second"].rating] + [s for _, _, s in team_pools] if data.get("second") is not None else None
            pool = v5.teamwork_pool(pools, skills)
        hunger = character.v5_hunger if character is not None else 0
        # Hunger dice in every pool, Willpower rolls included; the Humanity (remorse) roll takes none.
        harder = data.get("difficulty_modifier") or 0
        request = v5.Request(pool=max(0, pool), hunger=hunger, difficulty=data["difficulty"],
                             specialty=bool(data.get("specialty")), tracker=from_sheet != "traits", modifiers=modifiers,
                             remorse=from_sheet == "humanity", difficulty_modifiers=(harder,) if harder else (),
                             improvised=bool(data.get("improvised")), no_equipment=bool(data.get("no_equipment")))
        opponent = v5.Request(pool=opponent_dice) if opponent_dice else None
        shortcut = data.get("shortcut") or "roll"
        combat = scene is not None and scene.combat
        if shortcut != "roll" and (combat or request.no_equipment):
            # Take half and the automatic win are for a calm moment, never in a combat scene, and win
            # nothing impossible: the rules say why.
            (v5.take_half if shortcut == "take_half" else v5.automatic_win)(request, stressful=combat)
        return Composition(**common, request=request, opponent=opponent, shortcut=shortcut,
                           secret=bool(data.get("secret")), team_names=names, action="action")

    if game == Game.FATE:
        again: list[Aspect] = list(data.get("invoke_again") or ())
        if any(aspect.free_invocations < 2 for aspect in again):
            raise RulesError(gettext("The same aspect twice on one roll needs two free invocations on it."))
        # The first invocation of each aspect, then the second free invocations (gmtools.aspects).
        aspects: list[Aspect] = list(data.get("invoke") or ()) + again
        approach = data["first"].rating if data.get("first") is not None else 0
        bonus = fate.bonus(approach, stunt=data.get("stunt_bonus") or 0, helpers=data.get("helpers") or 0,
                           invokes=len(aspects)) + (data.get("dice") or 0)
        request = fate.Request(bonus=bonus, difficulty=data["difficulty"], modifiers=modifiers)
        spends = tuple(
            Spend("free_invocation", character.pk, aspect.pk, aspect.text) if aspect.free_invocations > 0
            else Spend("fate_point", character.pk, aspect.pk, aspect.text)
            for aspect in aspects
        )
        paid = sum(spend.what == "fate_point" for spend in spends)
        if character is not None and paid > character.fate_points:
            raise RulesError(ngettext("%(name)s has %(n)d fate point: invoke fewer aspects, or those with a free invocation.",
                                      "%(name)s has %(n)d fate points: invoke fewer aspects, or those with a free invocation.",
                                      character.fate_points) % {"name": character.name, "n": character.fate_points})
        opponent = fate.Request(bonus=opponent_dice) if data.get("opponent") or opponent_dice else None
        label = data.get("label") or (str(data["first"].label) if data.get("first") is not None else gettext("No approach"))
        parts = common["label_parts"] if data.get("first") is not None or data.get("label") else ("term:no_approach",)
        free_left = aspects_in_play.in_play(campaign, scene, character).filter(free_invocations__gte=1).exclude(
            pk__in=[a.pk for a in aspects]).exists() if character is not None else False
        on_offer = character is not None and (character.fate_points > paid or free_left)
        action = data.get("action") or "overcome"
        advantage = " ".join((data.get("advantage") or "").split()) if action == "create_advantage" else ""
        if advantage and data.get("hidden"):
            # The new aspect shows on the players' table at once, and would tell them what the secret roll gave.
            raise RulesError(gettext("A secret roll cannot create an aspect: the players see the aspects in play."))
        if advantage and data.get("advantage_on") is None and scene is None:
            raise RulesError(gettext("No scene is in play to hold “%(aspect)s”: start one, or put the aspect on a "
                                     "character.") % {"aspect": advantage})
        return Composition(**{**common, "label": label, "label_parts": parts}, request=request, opponent=opponent, spends=spends,
                           invocation_on_offer=on_offer,
                           action=action, advantage=advantage, advantage_on=data.get("advantage_on") if advantage else None,
                           deck=tuple(campaign.fate_deck) if campaign.fate_uses_deck else None)

    # Rolling into an extended action is an extended action: both slots of the turn.
    kind = "extended" if extended is not None else data.get("kind") or "short"
    _scifi_turn(scene, character, kind, earlier)
    if data.get("off_rol") and character is not None:
        scifi.check_act(scifi.Sphere.OFF_ROL, adventure_open=not character.scifi_off_rol_allowed,
                        scene_staged=scene is not None and scene.downtime)
    skill = data["second"].rating if data.get("second") is not None else None
    if data.get("knowledge") and skill is None:
        raise RulesError(gettext("An action that needs specific knowledge is checked against a skill: pick it."))
    request = scifi.Request(pool=max(0, pool), difficulty=scifi.parse_difficulty(data["difficulty"]), skill=skill,
                            modifiers=modifiers, knowledge=bool(data.get("knowledge")))
    opponent = scifi.Request(pool=opponent_dice) if opponent_dice else None
    return Composition(**common, request=request, opponent=opponent, action=kind)
