"""The roll log: each Roll a campaign logged, its follow-ups, and the words of its label.

A roll points at the scene it was made in and the extended action it went into by name
(``"Scene"``, ``"ExtendedAction"``), so that this module imports neither (``time``, ``extended``).
"""

from typing import TYPE_CHECKING, Self

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Prefetch, Q
from django.utils.functional import cached_property
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from gmtools import games, luck
from gmtools.nulfree import NulFree
from gmtools.games.base import ROLL, FollowUp
from gmtools.models.campaigns import Campaign, game_choices
from gmtools.models.characters import Character
from gmtools.sheets import known_name

if TYPE_CHECKING:
    from gmtools.models.time import Scene


# Outcomes that fail a task, in every game's words (a scifi fumble and an exalted botch fail too).
FAILED_OUTCOMES = ("failure", "botch", "fumble", "fail")


def _label_part(system: str, token: str) -> str:
    kind, _sep, value = token.partition(":")
    if kind == "trait":
        standard = games.get(system).standard_traits.get(value)
        return str(standard.label) if standard else value
    if kind == "dice":
        return gettext("%(n)d dice") % {"n": int(value)}
    if kind == "term":  # the game's own words (``BaseGame.label_terms``)
        return str(games.get(system).label_terms.get(value, value))
    return known_name(system, value)  # "name:…": a trait the GM named, as named (or as the game names it)


def label_in_language(system: str, label_parts: tuple[str, ...] | list[str]) -> str:
    """A label made from the traits (``label_parts``), in the active language."""
    return " + ".join(_label_part(system, token) for token in label_parts)


# A follow-up chain as deep as this is read with its card's roll in one query a level (a Fate roll
# invoked on again and again goes deeper: each level further is read when its card is drawn).
CHAIN_PREFETCHED = 4


# A secret roll (and each follow-up, as secret as its roll) until the GM reveals it.
KEPT_FROM_PLAYERS = Q(hidden=True, revealed_at__isnull=True)


class RollQuerySet(models.QuerySet):
    def this_turn(self, scene: "Scene", character: Character) -> Self:
        """The character's own rolls (not follow-ups) in the scene's current turn, oldest first;
        a voided roll spent nothing of the turn."""
        return self.filter(scene=scene, turn=scene.turn, character=character, kind=ROLL,
                           voided_at__isnull=True).order_by("id")

    def failures_at(self, scene: "Scene", character: Character, label: str) -> int:
        """Earlier failed attempts at the same task (same label) by the character in the scene."""
        return self.filter(scene=scene, character=character, label=label, kind=ROLL,
                           outcome__in=FAILED_OUTCOMES, voided_at__isnull=True).count()

    def for_log(self) -> Self:
        """The log's cards, newest first: each roll (a check, a composed roll) with its follow-ups,
        which its card shows (``Roll.follow_ups_in_order``), in a constant number of queries."""
        resources = (f"character__{system.resources.relation}" for system in games.systems() if system.resources.model)
        own = (f"character__{rows.name}" for system in games.systems() for rows in system.sheet.rows)
        chain = [Prefetch("__".join(["children"] * depth), queryset=Roll.objects.select_related("voided_by").order_by("id"))
                 for depth in range(1, CHAIN_PREFETCHED + 1)]
        return (self.filter(parent__isnull=True).select_related("character__campaign", "voided_by", *resources)
                .prefetch_related(*chain, *own, "character__traits").order_by("-id"))

    def for_players(self) -> Self:
        """What the player link may see: every roll but the secret ones the GM has not revealed."""
        return self.exclude(KEPT_FROM_PLAYERS)

    def kept_from_players(self) -> Self:
        """The rest: the secret rolls not revealed yet, with their follow-ups."""
        return self.filter(KEPT_FROM_PLAYERS)


class Roll(NulFree):
    """One entry of a campaign's roll log, written once and never changed.

    ``request`` holds the arguments of the ``rules`` request, ``result`` what ``rules``
    answered (the faces in draw order included), so any roll can be replayed and re-rendered
    without the sheet it came from. A follow-up (a Willpower reroll, a Fate invocation, a
    stunt reward) is a new entry pointing at its ``parent``; the unique constraint below
    means each kind of follow-up happens at most once per roll, whoever clicks twice.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="rolls", verbose_name=_("campaign"))
    character = models.ForeignKey(
        Character, on_delete=models.SET_NULL, null=True, blank=True, related_name="rolls", verbose_name=_("character")
    )
    # The name at the time: the log stays readable if the character is renamed or deleted.
    actor = models.CharField(_("who"), max_length=120)
    system = models.CharField(_("game"), max_length=10, choices=game_choices)
    # ``ROLL`` for a roll made with the composer; else the kind of one of its game's follow-ups or checks
    # (``BasePlay.follow_ups``, ``checks``: "reroll", "invoke", "rouse"...), checked by ``clean``.
    kind = models.SlugField(_("kind"), max_length=10, default=ROLL, db_index=False)
    parent = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="children", verbose_name=_("follows")
    )
    label = models.CharField(_("what"), max_length=200, blank=True)
    # What a label the composer made is made of ("trait:dexterity", "term:rouse_check", ...), so
    # that every viewer reads it in their own language; empty when the GM typed the label.
    label_parts = models.JSONField(_("label parts"), default=list, blank=True)
    request = models.JSONField(_("request"), default=dict)
    result = models.JSONField(_("result"), default=dict)
    outcome = models.CharField(_("outcome"), max_length=20)
    spends = models.JSONField(_("spent"), default=list, blank=True)
    secret = models.BooleanField(_("secret difficulty"), default=False)
    # A secret roll: the players see nothing of it until the GM reveals it. A secret difficulty
    # (V5) shows the players the dice but not the difficulty, the margin or the verdict.
    hidden = models.BooleanField(_("secret roll"), default=False)
    # Revealing is the one change a logged roll takes: its content stays as rolled.
    revealed_at = models.DateTimeField(_("revealed"), null=True, blank=True)
    # Where play stood: the scene (and through it the episode and story) and its turn.
    scene = models.ForeignKey("Scene", on_delete=models.PROTECT, null=True, blank=True, related_name="rolls",
                              verbose_name=_("scene"))
    turn = models.PositiveIntegerField(_("turn"), null=True, blank=True)
    extended = models.ForeignKey("ExtendedAction", on_delete=models.SET_NULL, null=True, blank=True,
                                 related_name="log", verbose_name=_("extended action"))
    # The action's place in the turn's budget: scifi short/long/fire/extended, exalted reflexive or not.
    action = models.CharField(_("action"), max_length=10, blank=True)
    willpower_spent = models.BooleanField(_("Willpower spent"), default=False)
    # Where the roll fell in its own exact distribution when it was rolled, with its game's special
    # results and their chances before the roll (``rules.luck.Luck.as_json()``). None when nothing
    # was rolled (an automatic success, a +2 invocation, a reward), for a game that stores none, and
    # for an entry logged earlier whose stored fields did not allow it (``gmtools.luck.backfill``).
    luck = models.JSONField(_("luck"), null=True, blank=True)
    created_at = models.DateTimeField(_("when"), auto_now_add=True)
    # Voiding is a logged roll's other change (besides revealing): it stays in the log, struck through.
    voided_at = models.DateTimeField(_("voided"), null=True, blank=True)
    voided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="+", verbose_name=_("voided by"))
    # Who rolled it from a phone (the character's player, else its name), empty for the GM's own.
    rolled_by = models.CharField(_("rolled by"), max_length=120, blank=True)
    # The composer's key of the roll it drew (a fresh one after each roll and each redraw): a second
    # request with the same key (two clicks on Roll, a retry) is the same roll, refused, never rolled
    # twice. Empty for follow-ups, checks and rolls posted without one.
    once_key = models.UUIDField(_("one-click key"), null=True, blank=True, editable=False)

    objects = RollQuerySet.as_manager()

    class Meta:
        ordering = ["-id"]
        verbose_name = _("roll")
        verbose_name_plural = _("rolls")
        indexes = [models.Index(fields=["campaign", "-id"], name="roll_log_order")]
        constraints = [
            # Once per roll while it stands: a voided follow-up gave back what it spent, and the roll's
            # card offers it again (as a dice bot's "undo" would: the reroll did not happen).
            models.UniqueConstraint(
                fields=["parent", "kind"], condition=Q(parent__isnull=False, voided_at__isnull=True),
                name="roll_one_standing_follow_up_of_each_kind",
                violation_error_message=_("This roll has already been followed up that way."),
            ),
            models.UniqueConstraint(
                fields=["campaign", "once_key"], condition=Q(once_key__isnull=False), name="roll_once_per_key",
                violation_error_message=_("This roll was already made."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.actor}: {self.label} ({self.outcome})"

    def clean(self) -> None:
        play = games.get(self.system).play if self.system in dict(game_choices()) else None
        if play is not None and self.kind != ROLL and play.follow_up(self.kind) is None and play.check(self.kind) is None:
            raise ValidationError({"kind": ValidationError(_("Value %(value)r is not a valid choice."),
                                                           code="invalid_choice", params={"value": self.kind})})

    @property
    def follow_up_verdict(self) -> str:
        """What a follow-up that throws no dice says instead of dice and a verdict (an Exalted stunt
        reward's "Regained 2 motes", ``FollowUp.verdict``); "" for any other entry."""
        offer = games.get(self.system).play.follow_up(self.kind) if self.parent_id else None
        return offer.verdict(self) if offer is not None and offer.verdict is not None else ""

    @property
    def kind_label(self) -> str:
        """What the entry is, in its game's words: a roll, or which follow-up or check ("Willpower reroll")."""
        return games.get(self.system).play.entry_label(self.kind)

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise ValidationError(_("A logged roll cannot be changed."))
        super().save(*args, **kwargs)

    @property
    def main(self) -> dict:
        return self.result.get("main", {})

    @property
    def display_label(self) -> str:
        """The label in the active language (as rolled, when the GM typed it)."""
        return label_in_language(self.system, self.label_parts) if self.label_parts else self.label

    @property
    def opponent_label(self) -> str:
        """The opposing character's traits in the active language (a contest with a named opposition)."""
        parts = (self.result.get("opponent") or {}).get("label_parts") or ()
        return " + ".join(_label_part(self.system, token) for token in parts)

    @property
    def extended_taken(self) -> int:
        """The successes of this roll its extended action's difficulty per roll took (5 successes at
        difficulty 1 add 4): its card says so, or the total looks short. 0 for a botch or a roll-off."""
        step = self.result.get("extended") or {}
        rolled, before = step.get("rolled") or {}, step.get("before") or {}
        if not rolled or rolled.get("botched") or rolled.get("roll_off") or "total" not in before:
            return 0
        return max(0, rolled.get("successes", 0) - (step.get("total", 0) - before["total"]))

    @property
    def difficulty_secret(self) -> bool:
        return self.secret and self.revealed_at is None

    @property
    def private(self) -> bool:
        """Something of this roll is still kept from the players (all of it, or its difficulty)."""
        return (self.hidden or self.secret) and self.revealed_at is None

    def luck_line(self, player: bool = False) -> "luck.Line | None":
        """What the card says of the roll's luck (``gmtools.luck``): nothing when it has none, nor for
        the players while its difficulty is secret (the chances of its special results, a critical
        *win* say, depend on the difficulty)."""
        if self.luck is None or (player and self.difficulty_secret):
            return None
        return luck.line(self.system, self.luck, self.result, after=self.kind_label if self.parent_id is not None else None)

    def family(self) -> set[int]:
        """The ids of the roll a follow-up chain starts from and of every follow-up in it."""
        root = self
        while root.parent_id is not None:
            root = Roll.objects.only("parent_id").get(pk=root.parent_id)
        ids, frontier = {root.pk}, {root.pk}
        while frontier:
            frontier = set(Roll.objects.filter(parent__in=frontier).values_list("pk", flat=True)) - ids
            ids |= frontier
        return ids

    @cached_property
    def follow_ups_in_order(self) -> list["Roll"]:
        """Every follow-up below this roll (a Fate invocation's own invocations too), oldest first:
        its card shows them, from the prefetched children (``RollQuerySet.for_log``)."""
        found, level = [], [self]
        while level:
            level = [child for entry in level for child in entry.children.all()]
            found += level
        return sorted(found, key=lambda entry: entry.pk)

    @property
    def standing(self) -> "Roll":
        """What the card's headline shows: the last entry of the roll's chain still standing that
        has dice and a verdict (a stunt reward has none), the roll itself when voided or alone."""
        if self.voided_at is not None:
            return self
        return next((entry for entry in reversed(self.follow_ups_in_order)
                     if entry.voided_at is None and not entry.follow_up_verdict), self)

    @property
    def dice_thrown(self) -> "Roll":
        """Whose luck the card shows: the standing entry that last threw dice (a +2 invocation threw none)."""
        standing = self.standing
        chain = [self, *(e for e in self.follow_ups_in_order if e.pk <= standing.pk and e.voided_at is None)]
        return next((entry for entry in reversed(chain) if entry.luck is not None), self)

    def offers(self) -> list[FollowUp]:
        """The follow-ups its game offers after this entry now, each once: an entry with a character,
        not followed up that way yet, or only by a voided one (its card offers none on a voided roll; a player's composer those
        of them a player takes, ``gmtools.player_rolls``)."""
        if self.character_id is None:
            return []
        return [offer for offer in games.get(self.system).play.follow_ups
                if self.follow_up(offer.kind) is None and offer.offered(self)]

    def follow_up(self, kind: str) -> "Roll | None":
        """The follow-up of that kind still standing (a voided one is offered again), from the prefetched children."""
        return next((child for child in self.children.all() if child.kind == kind and child.voided_at is None), None)
