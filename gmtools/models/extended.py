"""Extended actions: a long task rolled again and again until its goal, or a contest of two sides over rounds.

The bounds and the steps are the rules engine's (``rules.extended``); this module keeps the state
between rolls and says how long it took, in the GM's own unit of time.
"""

import re

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.conf import settings
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy as _
from django.utils.translation import ngettext_lazy

from rules.extended import (
    MAX_GOAL,
    MAX_ROLLS,
    MAX_TUG_ROUNDS,
    ExtendedState,
    TieBreak,
    advance,
    botch_policy,
    broken_tie,
    gain,
)

from gmtools.models.campaigns import Campaign
from gmtools.models.characters import Character, Trait
from gmtools.models.time import Scene
from gmtools.nulfree import NulFree


_UNIT_WORDS = {
    "second": ("second", "seconds", "segundo", "segundos", "s"),
    "turn": ("turn", "turns", "turno", "turnos"),
    "round": ("round", "rounds", "asalto", "asaltos"),
    "minute": ("minute", "minutes", "min", "minuto", "minutos"),
    "hour": ("hour", "hours", "h", "hora", "horas"),
    "scene": ("scene", "scenes", "escena", "escenas"),
    "day": ("day", "days", "día", "días", "dia", "dias"),
    "week": ("week", "weeks", "semana", "semanas"),
    "month": ("month", "months", "mes", "meses"),
}
_UNIT_PHRASES = {
    "second": ngettext_lazy("%(n)d second", "%(n)d seconds", "n"),
    "turn": ngettext_lazy("%(n)d turn", "%(n)d turns", "n"),
    "round": ngettext_lazy("%(n)d round", "%(n)d rounds", "n"),
    "minute": ngettext_lazy("%(n)d minute", "%(n)d minutes", "n"),
    "hour": ngettext_lazy("%(n)d hour", "%(n)d hours", "n"),
    "scene": ngettext_lazy("%(n)d scene", "%(n)d scenes", "n"),
    "day": ngettext_lazy("%(n)d day", "%(n)d days", "n"),
    "week": ngettext_lazy("%(n)d week", "%(n)d weeks", "n"),
    "month": ngettext_lazy("%(n)d month", "%(n)d months", "n"),
}
# An extended action's interval unit, as a GM types it in either language → its phrase, counted
# (singular or plural by the number given, in the active language).
_TIME_UNITS = {word: _UNIT_PHRASES[unit] for unit, words in _UNIT_WORDS.items() for word in words}


class ExtendedKind(models.TextChoices):
    SOLO = "solo", _("Accumulate successes")
    RACE = "race", _("Race (first to the goal)")
    TUG = "tug", _("Tug-of-war (lead by the goal)")


_SIDES = {1: "first", 2: "second"}  # ``rules.extended.broken_tie``'s answer, as ``ExtendedAction`` names the sides


class ExtendedAction(NulFree):
    """A long task rolled again and again until its goal, or a contest of two sides over rounds.

    ``total`` accumulates the acting side's successes (each roll adds successes − difficulty, at
    least 0); ``opponent_total`` the other side's in a race or tug-of-war. Rolls into it lock
    the row, so parallel rolls never lose an update.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="extended_actions",
                                 verbose_name=_("campaign"))
    scene = models.ForeignKey(Scene, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
                              verbose_name=_("scene"))
    name = models.CharField(_("name"), max_length=120)
    # Who rolls it and with what ("Dexterity + Athletics"); filled by the first roll into it if left blank.
    character = models.ForeignKey(Character, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
                                  verbose_name=_("character"))
    traits = models.CharField(_("traits"), max_length=200, blank=True)
    # ... those traits themselves (its character's): what picking it in the composer selects. Read
    # from ``traits`` when it is made (``named_traits``), else taken from the first roll into it
    # with traits (an action made before these columns, from its next such roll).
    first = models.ForeignKey(Trait, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
                              verbose_name=_("first trait"))
    second = models.ForeignKey(Trait, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
                               verbose_name=_("second trait"))
    kind = models.CharField(_("kind"), max_length=5, choices=ExtendedKind.choices, default=ExtendedKind.SOLO)
    # The bounds are the engine's (rules.extended), so that the odds beside the bar answer within a second.
    goal = models.PositiveSmallIntegerField(_("goal"), validators=[MinValueValidator(1), MaxValueValidator(MAX_GOAL)])
    interval = models.CharField(_("interval"), max_length=40, blank=True, help_text=_("e.g. 10 minutes, 1 turn, 1 day"))
    difficulty = models.PositiveSmallIntegerField(_("difficulty per roll"), default=0, validators=[MaxValueValidator(20)])
    botch = models.CharField(_("on a botch"), max_length=6, default="reset",
                             choices=[("reset", _("reset the total")), ("ruin", _("ruin the task")),
                                      ("ignore", _("ignore it"))])
    limit = models.PositiveSmallIntegerField(_("limit (intervals)"), null=True, blank=True,
                                             validators=[MinValueValidator(1), MaxValueValidator(MAX_ROLLS)])
    # The dice each side rolls, for the odds shown beside the progress bar (0: not shown).
    pool = models.PositiveSmallIntegerField(_("dice per roll"), default=0, validators=[MaxValueValidator(100)])
    opponent = models.CharField(_("opponent"), max_length=120, blank=True)
    opponent_pool = models.PositiveSmallIntegerField(_("opponent's dice"), default=0, validators=[MaxValueValidator(100)])
    total = models.PositiveIntegerField(_("successes"), default=0)
    opponent_total = models.PositiveIntegerField(_("opponent's successes"), default=0)
    # A race's dead heat (both sides reach the goal on the same roll): the seed is silent, so the
    # GM chooses when creating it (``rules.extended.TieBreak``); ``tie_winner`` is the side it went to.
    tie_break = models.CharField(_("on a dead heat"), max_length=7, default=TieBreak.TIE.value,
                                 choices=[(TieBreak.TIE.value, _("a tie")),
                                          (TieBreak.ROLL.value, _("most successes on that roll wins")),
                                          (TieBreak.ROLL_OFF.value, _("roll off until one rolls more"))])
    tie_winner = models.CharField(_("dead heat won by"), max_length=6, blank=True,
                                  choices=[("first", _("the first side")), ("second", _("the second side"))])
    rolls = models.PositiveIntegerField(_("rolls"), default=0)
    ruined = models.BooleanField(_("ruined"), default=False)
    stopped = models.BooleanField(_("stopped by the GM"), default=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        verbose_name = _("extended action")
        verbose_name_plural = _("extended actions")
        constraints = [
            models.CheckConstraint(condition=Q(goal__gte=1, goal__lte=200), name="extended_goal_range"),
            models.CheckConstraint(condition=Q(kind__in=ExtendedKind.values), name="extended_kind_known"),
            models.CheckConstraint(condition=Q(botch__in=["reset", "ruin", "ignore"]), name="extended_botch_known"),
            models.CheckConstraint(condition=Q(tie_break__in=[rule.value for rule in TieBreak]), name="extended_tie_break_known"),
            models.CheckConstraint(condition=Q(tie_winner__in=["", "first", "second"]), name="extended_tie_winner_known"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def traits_label(self) -> str:
        """Its traits in the viewer's language when ``traits`` only names its linked traits (as the
        composer labelled its first roll, or the GM typed them, in the language of then: the third
        walkthrough read "Strength + Melee" on a Spanish table); else ``traits`` as written."""
        linked = [trait for trait in (self.first, self.second) if trait is not None]

        written = [name.strip().casefold() for name in self.traits.split("+")]

        def written_in(code: str) -> bool:
            with translation.override(code):
                return [str(trait.label).casefold() for trait in linked] == written

        if linked and any(written_in(code) for code, _name in settings.LANGUAGES):
            return " + ".join(str(trait.label) for trait in linked)
        return self.traits

    def named_traits(self) -> tuple[Trait | None, Trait | None]:
        """The character's traits that ``traits`` names ("Strength + Athletics", as the composer labels
        a roll, each by its name in the active language), or none unless it names one or two, all found."""
        names = [name.strip().casefold() for name in self.traits.split("+")]
        if self.character is None or not 1 <= len(names) <= 2:
            return None, None
        sheet = {str(trait.label).casefold(): trait for trait in self.character.traits.all()}
        found = [sheet.get(name) for name in names]
        if None in found:
            return None, None
        return found[0], found[1] if len(found) > 1 else None

    def clean(self) -> None:
        super().clean()
        # A tug-of-war's odds walk twice the lead: the engine looks at most MAX_TUG_ROUNDS ahead.
        if self.kind == ExtendedKind.TUG and self.limit is not None and self.limit > MAX_TUG_ROUNDS:
            raise ValidationError({"limit": _("A tug-of-war's limit is at most %(most)d rounds.") % {"most": MAX_TUG_ROUNDS}})
        if self.kind != ExtendedKind.RACE and self.tie_break != TieBreak.TIE:
            raise ValidationError({"tie_break": _("Only a race has a dead heat to break.")})

    @property
    def winner(self) -> str | None:
        """"first", "second", "tie" (a race's dead heat, unbroken) once decided, else None."""
        if self.kind == ExtendedKind.SOLO:
            return "first" if self.total >= self.goal else None
        if self.kind == ExtendedKind.RACE:
            first, second = self.total >= self.goal, self.opponent_total >= self.goal
            if first and second:
                return self.tie_winner or (None if self.tie_break == TieBreak.ROLL_OFF else "tie")
            return "first" if first else "second" if second else None
        lead = self.total - self.opponent_total
        return "first" if lead >= self.goal else "second" if -lead >= self.goal else None

    @property
    def rolling_off(self) -> bool:
        """A race's dead heat waiting for its roll-off: the next roll into it is one (the limit
        does not end it, and it adds to neither total)."""
        return (self.kind == ExtendedKind.RACE and self.tie_break == TieBreak.ROLL_OFF and not self.tie_winner
                and self.total >= self.goal and self.opponent_total >= self.goal)

    @property
    def over(self) -> bool:
        return (self.ruined or self.stopped or self.winner is not None
                or (self.limit is not None and self.rolls >= self.limit and not self.rolling_off))

    def after_roll(self, successes: int, botched: bool, other: int | None) -> dict[str, object]:
        """The columns one more roll makes of it: the acting side's successes, whether it botched
        (the game's reading), the other side's successes in a contest. RulesError if it is over."""
        if self.rolling_off:
            side = broken_tie(TieBreak.ROLL_OFF, successes, other or 0, roll_off=True)
            return {"tie_winner": _SIDES.get(side, "")}
        state = advance(ExtendedState(goal=self.goal if self.kind == ExtendedKind.SOLO else 10**6, total=self.total,
                                      rolls=self.rolls, ruined=self.ruined),
                        successes, botched, self.difficulty, botch_policy(self.botch))
        fields: dict[str, object] = {"total": state.total, "rolls": state.rolls, "ruined": state.ruined}
        if self.kind != ExtendedKind.SOLO:
            fields["opponent_total"] = self.opponent_total + gain(other or 0, self.difficulty)
            if self.kind == ExtendedKind.RACE and min(state.total, fields["opponent_total"]) >= self.goal:
                side = broken_tie(TieBreak(self.tie_break), successes, other or 0, roll_off=False)
                fields["tie_winner"] = _SIDES.get(side, "")
        return fields

    # Whose rolls go into it (``roller``): the character the GM named or whose roll went in first; an
    # unnamed NPC's when the first roll in was one's (nobody named); anyone's while neither is so.
    ANYONE = "any"

    @property
    def roller(self) -> str:
        """Whose rolls it takes, as the composer's character list says it: the character's id, "" (an
        unnamed NPC's), or ``ANYONE`` (no roller yet: the first roll in makes it its roller's)."""
        if self.character_id is not None:
            return str(self.character_id)
        return "" if self.rolls else self.ANYONE

    def takes_roll_of(self, character: Character | None) -> bool:
        return self.roller in (self.ANYONE, str(character.pk) if character is not None else "")

    def refuses_roll_of(self, character: Character | None) -> str:
        """Why a roll by ``character`` (None: an unnamed NPC) cannot go into it, or "" when it can. A
        contest's second side is its opponent's dice in the same roll (Opposed by): its rolls are its
        first side's, like any other's."""
        if self.takes_roll_of(character):
            return ""
        if self.character_id is None:
            return gettext("“%(name)s” is rolled by an unnamed NPC: only an unnamed NPC's roll goes into it. "
                           "Choose another extended action, or none.") % {"name": self.name}
        return gettext("“%(name)s” is rolled by %(roller)s: only %(roller)s's rolls go into it. "
                       "Choose %(roller)s as the character, or another extended action.") % {
            "name": self.name, "roller": self.character.name}

    @property
    def percent(self) -> int:
        if self.kind == ExtendedKind.TUG:
            return max(0, min(100, round(50 + 50 * (self.total - self.opponent_total) / self.goal)))
        return min(100, round(100 * self.total / self.goal))

    @property
    def elapsed(self) -> str:
        """Rolls × interval: "3 × 10 minutes" reads "30 minutes", "3 × 1 turn" reads "3 turns"
        (in the active language when the unit is one of ``_TIME_UNITS``; else as the GM wrote it)."""
        match = re.fullmatch(r"\s*(\d+)\s*(.*?)\s*", self.interval)
        if not match:
            return f"{self.rolls} × {self.interval}"
        n, unit = int(match[1]) * self.rolls, match[2]
        known = _TIME_UNITS.get(unit.casefold())
        return known % {"n": n} if known else f"{n} {unit}".strip()

    @property
    def opponent_percent(self) -> int:
        return min(100, round(100 * self.opponent_total / self.goal))
