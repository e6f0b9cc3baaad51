"""Campaigns, their characters, and the characters' sheets.

A Campaign belongs to one GM and plays one game; the game is fixed once the campaign has
characters, because their sheets are that game's. What is the game's own lives in its package
(``gmtools.games``) and is asked of it here; these models name no game.

A Character's resources (Willpower, Hunger, fate points, ...) and a Campaign's state (Fate's deck,
the scifi adventure) are in tables of their game's own app, one row per character (campaign), linked
one-to-one (``gmtools.games.base.models``): real columns, so that the database checks their bounds,
and no column of one game on every row. ``Character.resources`` and ``Campaign.state`` are that
row; each is made with its character (campaign).

Traits (attributes, abilities, approaches, disciplines, ...) are rows. How a standard trait is
named in both languages, and the rating bounds of each game, are explained in ``gmtools.sheets``.
Checks that need another row (the Exalted trait cap set by Essence, Vampire damage against the
boxes that Stamina and Composure + Resolve give) live in ``clean()``, which every form and the
campaign importer run.
"""

import re
import secrets
from collections.abc import Callable, Iterator, Mapping
from typing import ClassVar, Self

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models, transaction
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext_lazy, override
from django.utils.translation import gettext_lazy as _

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

from gmtools import games, luck
from gmtools.nulfree import NulFree
from gmtools.games.base import ROLL, BaseGame
from gmtools.sheets import (
    RATING_MAX,
    CharacterKind,
    TraitCategory,
    known_name,
    rating_bounds,
)


class PerGame[T](Mapping[str, T]):
    """What each registered game says of one thing, by game id; a game that says None is left out.

    Read from the registry at each look-up, so that a game registered after this module was
    imported (as a test registers one) is in it.
    """

    def __init__(self, read: Callable[[BaseGame], T | None]) -> None:
        self._read = read

    def __getitem__(self, game: str) -> T:
        value = self._read(games.get(game))
        if value is None:
            raise KeyError(game)
        return value

    def __iter__(self) -> Iterator[str]:
        return (system.id for system in games.systems() if self._read(system) is not None)

    def __len__(self) -> int:
        return sum(1 for _game in self)


def game_choices() -> list[tuple[str, Promise | str]]:
    """Every registered game, as the campaign form and the admin offer it (a game registered later too)."""
    return [(system.id, system.label or system.id) for system in games.systems()]


def new_player_token() -> str:
    """An unguessable token for a campaign's player link (32 URL-safe characters, 192 bits)."""
    return secrets.token_urlsafe(24)


class CampaignQuerySet(models.QuerySet):
    def for_gm(self, user: AbstractBaseUser | AnonymousUser) -> Self:
        """The campaigns this user runs; none for an anonymous visitor."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(gm=user)

    def visible_to(self, user: AbstractBaseUser | AnonymousUser) -> Self:
        """What a user may open: their own campaigns, or every campaign for a superuser. Staff status
        alone opens none (it only lets a user into the admin, where permissions decide)."""
        if user.is_authenticated and user.is_superuser:
            return self.all()
        return self.for_gm(user)


def _own_row(owner: models.Model, model: type[models.Model] | None) -> models.Model | None:
    """The owner's row of its game's table (``model``): cached, or read, or a new one at the table's
    defaults (saved with an owner not saved yet; see ``Character.save``)."""
    if model is None:
        return None
    name = model._meta.app_label  # the link's name on the owner (gmtools.games.base.models)
    try:
        return getattr(owner, name)
    except model.DoesNotExist:
        row = model()
        setattr(owner, name, row)  # cached on both sides, as if read
        return row


def _save_new_row(row: models.Model | None, **owner: models.Model) -> None:
    """A new owner's row of its game's table (``_own_row``), inserted with the owner's id."""
    if row is not None and row._state.adding:
        for name, value in owner.items():
            setattr(row, name, value)
        row.save(force_insert=True)


class Campaign(NulFree):
    name = models.CharField(_("name"), max_length=120)
    game = models.CharField(_("game"), max_length=10, choices=game_choices)
    gm = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        # Deleting an account must not silently take its campaigns with it.
        on_delete=models.PROTECT,
        related_name="campaigns",
        verbose_name=_("game master"),
    )
    # The player link's secret: whoever has it reads the table (never changes it). A new token
    # cuts off the old link at once, open streams included.
    player_token = models.CharField(_("player link token"), max_length=64, unique=True, default=new_player_token,
                                    editable=False)
    # The game whose demo this campaign was loaded from (gmtools.demo), else None: the demo knows
    # its campaigns by this, not by their names, which the GM may change.
    demo = models.CharField(_("demo of"), max_length=10, null=True, blank=True, editable=False)

    objects = CampaignQuerySet.as_manager()

    # The switch a GM flips from the table, for the games that have one (staff edit the rest in the admin).
    TABLE_SWITCHES: ClassVar[Mapping[str, str]] = PerGame(lambda system: system.state.switch)

    class Meta:
        ordering = ["name"]
        verbose_name = _("campaign")
        verbose_name_plural = _("campaigns")
        constraints = [
            # No database check of the game: the games are those registered (gmtools.games), a
            # fifth one from its own package; the choices (forms, admin, full_clean, imports) refuse others.
            models.UniqueConstraint(
                fields=["gm", "name"],
                name="campaign_name_unique_per_gm",
                violation_error_message=_("This game master already has a campaign with this name."),
            ),
            models.UniqueConstraint(fields=["gm", "demo"], condition=Q(demo__isnull=False),
                                    name="campaign_demo_unique_per_gm"),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if self._game_change_blocked():
            raise ValidationError({"game": _("The game cannot change once the campaign has characters.")})

    def save(self, *args, **kwargs) -> None:
        stored = self._stored_game()
        # Forms report this through clean(); this catches every other path.
        if stored is not None and stored != self.game and self.characters.exists():
            raise ValidationError(_("The game cannot change once the campaign has characters."))
        self.refuse_nul(kwargs.get("update_fields"))  # before the transaction, which a refusal inside would break
        with transaction.atomic(savepoint=False):
            super().save(*args, **kwargs)
            if stored != self.game:  # a new campaign, or one that took another game: that game's state
                _save_new_row(self.state, campaign=self)

    @property
    def state(self) -> models.Model | None:
        """The campaign's row of its game's state (``BaseGame.state``), None for a game without one."""
        return _own_row(self, games.get(self.game).state.model)

    def plays(self, other: str) -> bool:
        """Does this campaign play the game another row or file names? (Not a branch on a game.)"""
        return other == self.game

    def flip(self) -> None:
        """Flip this game's table switch (the Fate deck, or the scifi adventure being open)."""
        field, state = self.TABLE_SWITCHES[self.game], self.state
        flipped = models.Case(models.When(**{field: True}, then=models.Value(False)), default=models.Value(True))
        type(state).objects.filter(pk=self.pk).update(**{field: flipped})
        state.refresh_from_db(fields=[field])

    def regenerate_player_token(self) -> None:
        self.player_token = new_player_token()
        Campaign.objects.filter(pk=self.pk).update(player_token=self.player_token)

    @property
    def switch(self) -> bool | None:
        field = self.TABLE_SWITCHES.get(self.game)
        return getattr(self.state, field) if field else None

    def _stored_game(self) -> str | None:
        """The game the database holds for this campaign (None: not saved yet)."""
        if self._state.adding:
            return None
        return Campaign.objects.filter(pk=self.pk).values_list("game", flat=True).first()

    def _game_change_blocked(self) -> bool:
        stored = self._stored_game()
        return stored is not None and stored != self.game and self.characters.exists()


class CharacterQuerySet(models.QuerySet):
    def in_table_order(self) -> Self:
        """PCs first (the players' characters lead the table), then NPCs, each by name."""
        return self.order_by("-kind", "name")  # "pc" sorts after "npc"

    def with_resources(self, game: str) -> Self:
        """With each character's row of its game's resources (``Character.resources``), in the same query."""
        model = games.get(game).resources.model
        return self.select_related(model._meta.app_label) if model is not None else self

    def duplicate(self) -> list["Character"]:
        """Copy every character here (with traits and aspects), all or none."""
        with transaction.atomic():
            return [character.duplicate() for character in self]


class CharacterManager(models.Manager.from_queryset(CharacterQuerySet)):
    def create_with_sheet(self, **fields) -> "Character":
        """Create a character together with its game's standard sheet."""
        with transaction.atomic():
            character = self.create(**fields)
            character.add_standard_sheet()
        return character


class Character(NulFree):
    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="characters", verbose_name=_("campaign")
    )
    name = models.CharField(_("name"), max_length=120)
    kind = models.CharField(_("kind"), max_length=3, choices=CharacterKind.choices, default=CharacterKind.PC)
    player = models.CharField(_("player"), max_length=120, blank=True)
    concept = models.CharField(_("concept"), max_length=200, blank=True)
    notes = models.TextField(_("notes"), blank=True)

    objects = CharacterManager()

    # Not a column: the actions declared this turn, set on the table's cards by
    # ``gmtools.board.annotate_turn`` for a game's ``BasePlay.turn_done`` (Exalted's) to read.
    turn_declared: int

    class Meta:
        ordering = ["campaign", "name"]
        verbose_name = _("character")
        verbose_name_plural = _("characters")
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=CharacterKind.values), name="character_kind_known"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def game(self) -> str:
        return self.campaign.game

    @property
    def resources(self) -> models.Model | None:
        """The character's row of its game's resources (``BaseGame.resources``: Hunger, fate points...),
        None for a game without any. A character not saved yet has one at the defaults, saved with it."""
        return _own_row(self, games.get(self.game).resources.model)

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            super().save(*args, **kwargs)
            return
        self.refuse_nul(kwargs.get("update_fields"))  # before the transaction, which a refusal inside would break
        with transaction.atomic(savepoint=False):  # with its row of its game's resources, or neither
            super().save(*args, **kwargs)
            _save_new_row(self.resources, character=self)

    def standard_ratings(self) -> dict[str, int]:
        """The ratings of the character's standard traits, by key."""
        # Reads the prefetched traits when the caller prefetched them (the table does).
        return {trait.key: trait.rating for trait in self.traits.all() if trait.key}

    def clean(self) -> None:
        if not self.campaign_id:
            return  # The form already reports the missing campaign.
        if not self._state.adding:
            stored_game = Campaign.objects.filter(characters=self.pk).values_list("game", flat=True).first()
            if stored_game is not None and not self.campaign.plays(stored_game):
                raise ValidationError({"campaign": _("A character can only move to a campaign of the same game.")})

    def add_standard_sheet(self) -> None:
        """Give a new character its game's standard traits at their starting ratings."""
        Trait.objects.bulk_create(
            Trait(character=self, key=trait.key, category=trait.category, rating=trait.default)
            for trait in games.get(self.game).standard_sheet
        )

    def duplicate(self) -> "Character":
        """A copy of this character with its resources, traits and its game's own rows (Fate's aspects), in the same campaign."""
        with transaction.atomic(savepoint=False):
            traits = list(self.traits.all())
            models_own = [rows.model for rows in games.get(self.game).sheet.rows]
            own = [list(model._default_manager.filter(character=self)) for model in models_own]
            copy = Character.objects.select_related("campaign").with_resources(self.game).get(pk=self.pk)
            resources = copy.resources
            copy.pk, copy._state.adding = None, True
            if resources is not None:
                resources.pk, resources._state.adding = None, True
            copy.name = gettext("%(name)s (copy)") % {"name": self.name}
            copy.name = copy.name[: Character._meta.get_field("name").max_length]
            copy.save()
            for row in (*traits, *(row for rows in own for row in rows)):
                row.pk, row._state.adding, row.character = None, True, copy
            Trait.objects.bulk_create(traits)
            for model, rows in zip(models_own, own, strict=True):
                model._default_manager.bulk_create(rows)
        return copy


class Trait(NulFree):
    character = models.ForeignKey(
        Character, on_delete=models.CASCADE, related_name="traits", verbose_name=_("character")
    )
    category = models.CharField(_("category"), max_length=20, choices=TraitCategory.choices)
    # Set only for the standard traits of the character's game; see gmtools.sheets.
    key = models.SlugField(_("standard trait"), max_length=40, blank=True, editable=False)
    name = models.CharField(_("name"), max_length=80, blank=True)
    rating = models.PositiveSmallIntegerField(_("rating"), default=0, validators=[MaxValueValidator(RATING_MAX)])
    specialties = models.CharField(_("specialties"), max_length=200, blank=True, help_text=_("Separated by commas."))

    class Meta:
        # Creation order: the standard sheet in the book's order, then the traits added by hand.
        ordering = ["id"]
        verbose_name = _("trait")
        verbose_name_plural = _("traits")
        constraints = [
            models.CheckConstraint(condition=Q(rating__gte=0, rating__lte=RATING_MAX), name="trait_rating_range"),
            models.CheckConstraint(condition=Q(category__in=TraitCategory.values), name="trait_category_known"),
            models.CheckConstraint(
                condition=(Q(key="") & ~Q(name="")) | (~Q(key="") & Q(name="")),
                name="trait_standard_or_named",
                violation_error_message=_("A trait is either a standard trait or has a name of its own."),
            ),
            models.UniqueConstraint(fields=["character", "key"], condition=~Q(key=""), name="trait_standard_unique"),
            models.UniqueConstraint(
                Lower("name"),
                "character",
                condition=~Q(name=""),
                name="trait_name_unique",
                violation_error_message=_("This character already has a trait with this name."),
            ),
        ]

    def __str__(self) -> str:
        return str(self.label)

    @property
    def label(self) -> Promise | str:
        """The name to show: a standard trait's translated label, else the GM's own name."""
        if self.key:
            return games.get(self.character.game).standard_traits[self.key].label
        return known_name(self.character.game, self.name)

    def clean(self) -> None:
        if not self.character_id:
            return
        character = self.character
        game = character.game
        if self.category not in games.get(game).categories:
            message = gettext("A %(game)s sheet has no such category.") % {"game": dict(game_choices())[game]}
            raise ValidationError({"category": message})
        if self.key:
            standard = games.get(game).standard_traits.get(self.key)
            if standard is None or standard.category != self.category:
                raise ValidationError(
                    gettext("“%(key)s” is not a standard trait of this category.") % {"key": self.key}
                )
        elif self.name and self._names_standard_trait(game):
            raise ValidationError({"name": _("This is a standard trait of the game; rate that one instead.")})
        low, high = rating_bounds(game, self.category, character=character)
        if not low <= self.rating <= high:
            message = gettext("Must be from %(low)d to %(high)d.") % {"low": low, "high": high}
            raise ValidationError({"rating": message})

    def _names_standard_trait(self, game: str) -> bool:
        # Compare in every interface language, so "Fuerza" cannot shadow Strength either.
        name = self.name.casefold()
        for language, _label in settings.LANGUAGES:
            with override(language):
                if any(str(trait.label).casefold() == name for trait in games.get(game).standard_sheet):
                    return True
        return False


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
        """Newest first, with what a log card shows, in a constant number of queries."""
        resources = (f"character__{system.resources.relation}" for system in games.systems() if system.resources.model)
        own = (f"character__{rows.name}" for system in games.systems() for rows in system.sheet.rows)
        return (self.select_related("parent", "character__campaign", "voided_by", *resources)
                .prefetch_related("children", *own, "character__traits").order_by("-id"))

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

    objects = RollQuerySet.as_manager()

    class Meta:
        ordering = ["-id"]
        verbose_name = _("roll")
        verbose_name_plural = _("rolls")
        indexes = [models.Index(fields=["campaign", "-id"], name="roll_log_order")]
        constraints = [
            models.UniqueConstraint(
                fields=["parent", "kind"], condition=Q(parent__isnull=False), name="roll_one_follow_up_of_each_kind",
                violation_error_message=_("This roll has already been followed up that way."),
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
        if not self.label_parts:
            return self.label
        return " + ".join(_label_part(self.system, token) for token in self.label_parts)

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
        return luck.line(self.system, self.luck, self.result)

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

    def follow_up(self, kind: str) -> "Roll | None":
        """The follow-up of that kind, from the prefetched children."""
        return next((child for child in self.children.all() if child.kind == kind), None)


# --- time at the table: stories, episodes, scenes, turns -------------------------------------


class Story(NulFree):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="stories", verbose_name=_("campaign"))
    number = models.PositiveSmallIntegerField(_("number"))
    title = models.CharField(_("title"), max_length=120, blank=True)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)

    class Meta:
        ordering = ["number"]
        verbose_name = _("story")
        verbose_name_plural = _("stories")
        constraints = [models.UniqueConstraint(fields=["campaign", "number"], name="story_number_unique")]

    def __str__(self) -> str:
        return gettext("Story %(n)d") % {"n": self.number} + (f": {self.title}" if self.title else "")


class Episode(NulFree):
    story = models.ForeignKey(Story, on_delete=models.CASCADE, related_name="episodes", verbose_name=_("story"))
    number = models.PositiveSmallIntegerField(_("number"))
    title = models.CharField(_("title"), max_length=120, blank=True)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)

    class Meta:
        ordering = ["story__number", "number"]
        verbose_name = _("episode")
        verbose_name_plural = _("episodes")
        constraints = [models.UniqueConstraint(fields=["story", "number"], name="episode_number_unique")]

    def __str__(self) -> str:
        return gettext("Episode %(n)d") % {"n": self.number} + (f": {self.title}" if self.title else "")


class SceneQuerySet(models.QuerySet):
    def current(self, campaign: Campaign) -> "Scene | None":
        """The open scene of a campaign (the newest one not ended), with its story and episode."""
        return (
            self.filter(episode__story__campaign=campaign, ended_at__isnull=True)
            .select_related("episode__story")
            .order_by("-id")
            .first()
        )


class Scene(NulFree):
    """A scene of an episode; a downtime scene is the rest, healing and training between scenes.

    ``turn`` counts the turns of the scene (each about 3 seconds of combat, one action's worth).
    ``combat`` rules out automatic successes and second chances; ``calm`` is the GM saying the
    scene is free of stress, which Exalted's automatic success needs.
    """

    episode = models.ForeignKey(Episode, on_delete=models.CASCADE, related_name="scenes", verbose_name=_("episode"))
    number = models.PositiveSmallIntegerField(_("number"))
    title = models.CharField(_("title"), max_length=120, blank=True)
    downtime = models.BooleanField(_("downtime"), default=False)
    combat = models.BooleanField(_("combat"), default=False)
    calm = models.BooleanField(_("calm (no stress)"), default=False)
    notes = models.TextField(_("scene notes"), blank=True, max_length=2000,
                             help_text=_("What is on fire, who is hidden: shown in the time bar."))
    turn = models.PositiveIntegerField(_("turn"), default=1)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)

    objects = SceneQuerySet.as_manager()

    class Meta:
        ordering = ["episode__story__number", "episode__number", "number"]
        verbose_name = _("scene")
        verbose_name_plural = _("scenes")
        constraints = [
            models.UniqueConstraint(fields=["episode", "number"], name="scene_number_unique"),
            models.CheckConstraint(condition=Q(turn__gte=1), name="scene_turn_from_one"),
            models.CheckConstraint(condition=~Q(combat=True, calm=True), name="scene_not_calm_in_combat",
                                   violation_error_message=_("A combat scene is never calm.")),
        ]

    def __str__(self) -> str:
        return gettext("Scene %(n)d") % {"n": self.number} + (f": {self.title}" if self.title else "")

    @property
    def where(self) -> str:
        """Where play stands: "Story 2 · Episode 5 · Scene 3 · Turn 4"."""
        return gettext("Story %(story)d · Episode %(episode)d · Scene %(scene)d · Turn %(turn)d") % {
            "story": self.episode.story.number, "episode": self.episode.number, "scene": self.number, "turn": self.turn,
        }


class SceneParticipant(NulFree):
    """A character in a scene, at its place in the turn order (0 acts first)."""

    scene = models.ForeignKey(Scene, on_delete=models.CASCADE, related_name="participants", verbose_name=_("scene"))
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="+", verbose_name=_("character"))
    position = models.PositiveSmallIntegerField(_("position"), default=0)

    class Meta:
        ordering = ["position", "id"]
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        constraints = [models.UniqueConstraint(fields=["scene", "character"], name="participant_once_per_scene")]


class TurnDeclaration(NulFree):
    """Exalted: the number of actions a character declared for one turn of a scene."""

    scene = models.ForeignKey(Scene, on_delete=models.CASCADE, related_name="declarations", verbose_name=_("scene"))
    turn = models.PositiveIntegerField(_("turn"))
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="+", verbose_name=_("character"))
    actions = models.PositiveSmallIntegerField(_("actions"), validators=[MinValueValidator(1), MaxValueValidator(10)])

    class Meta:
        verbose_name = _("declared actions")
        verbose_name_plural = _("declared actions")
        constraints = [
            models.UniqueConstraint(fields=["scene", "turn", "character"], name="declaration_once_per_turn"),
            models.CheckConstraint(condition=Q(actions__gte=1, actions__lte=10), name="declaration_actions_range"),
        ]


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


# --- what changed at the table, for the live streams -------------------------------------------


class ChangeKind(models.TextChoices):
    ROLL = "roll", _("roll")
    REVEAL = "reveal", _("revealed roll")
    CHARACTER = "character", _("character")
    TIME = "time", _("time")
    ORDER = "order", _("turn order")
    EXTENDED = "extended", _("extended actions")
    SWITCH = "switch", _("table switch")
    LINK = "link", _("player link")


class Change(NulFree):
    """One change at a campaign's table, in commit order: the live streams' cursor.

    Written in the transaction of the change it announces, so a viewer who has seen change N
    has seen everything before it. It names what to redraw (a roll, a character, ...), not how:
    each viewer gets it drawn for its audience (GM or players) and language. ``public`` is false
    for a secret roll, which players never receive.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="changes", verbose_name=_("campaign"))
    kind = models.CharField(_("kind"), max_length=10, choices=ChangeKind.choices)
    roll = models.ForeignKey(Roll, on_delete=models.CASCADE, null=True, blank=True, related_name="+",
                             verbose_name=_("roll"))
    character = models.ForeignKey(Character, on_delete=models.CASCADE, null=True, blank=True, related_name="+",
                                  verbose_name=_("character"))
    public = models.BooleanField(_("shown to players"), default=True)
    created_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        ordering = ["id"]
        verbose_name = _("change")
        verbose_name_plural = _("changes")
        indexes = [models.Index(fields=["campaign", "id"], name="change_cursor")]
        constraints = [models.CheckConstraint(condition=Q(kind__in=ChangeKind.values), name="change_kind_known")]


# --- the GM's shortcuts and second thoughts -----------------------------------------------------


class SavedRoll(NulFree):
    """A roll the GM makes often ("Koi: Dexterity + Stealth, stunt 1"): the composer's fields as
    submitted (trait ids, dice, difficulty, options), listed on the character's card."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="saved_rolls",
                                  verbose_name=_("character"))
    name = models.CharField(_("name"), max_length=80)
    fields = models.JSONField(_("composer fields"), default=dict)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("saved roll")
        verbose_name_plural = _("saved rolls")
        constraints = [models.CheckConstraint(condition=~Q(name=""), name="saved_roll_name_not_empty")]

    def __str__(self) -> str:
        return self.name


class ResourceChange(NulFree):
    """One one-click change to a character's resources (a Health box, a Willpower point), kept so
    the GM can undo a misclick: the fields it changed, as they were before and after."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="resource_changes",
                                 verbose_name=_("campaign"))
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="+", verbose_name=_("character"))
    action = models.CharField(_("action"), max_length=40)
    before = models.JSONField(_("before"), default=dict)
    after = models.JSONField(_("after"), default=dict)
    created_at = models.DateTimeField(_("when"), auto_now_add=True)
    undone_at = models.DateTimeField(_("undone"), null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        verbose_name = _("resource change")
        verbose_name_plural = _("resource changes")
