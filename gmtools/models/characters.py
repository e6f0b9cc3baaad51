"""Characters and their sheets: a Character of a campaign, its row of its game's resources, its traits.

Traits (attributes, abilities, approaches, disciplines, ...) are rows. How a standard trait is
named in both languages, and the rating bounds of each game, are explained in ``gmtools.sheets``.
Checks that need another row (the Exalted trait cap set by Essence, Vampire damage against the
boxes that Stamina and Composure + Resolve give) live in ``clean()``, which every form and the
campaign importer run.
"""

from typing import Self

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import models, transaction
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.functional import Promise
from django.utils.translation import gettext, override
from django.utils.translation import gettext_lazy as _

from gmtools import games
from gmtools.models.campaigns import Campaign, _own_row, _save_new_row, game_choices
from gmtools.nulfree import NulFree
from gmtools.sheets import (
    RATING_MAX,
    CharacterKind,
    TraitCategory,
    known_name,
    rating_bounds,
)


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
    # The character's own player link (``/p/<token>/``), from which its player rolls for it when the
    # campaign lets players roll (``Campaign.players_roll``); none until the GM makes one. A new
    # token, or none, cuts off the old link at once, open streams included.
    # Unique by a constraint, not ``unique=True``: the bulk import checks constraints among its rows
    # (``gmtools.bulk``) and leaves the fields' own unique checks to none (an import carries no token).
    player_token = models.CharField(_("player's link token"), max_length=64, null=True, blank=True, editable=False)
    # The difficulty the GM asks the player's next roll from the phone to face (issue 24: "the GM keeps
    # control"), as the composer's difficulty field posts it ("3", "hard"); "" for none, the player
    # then picks the one the GM announces. ``asked_secret``: kept from the player (V5's secret difficulty).
    # The player's roll takes it, once (``services.record_roll``).
    asked_difficulty = models.CharField(_("difficulty asked of the phone"), max_length=20, blank=True, editable=False)
    asked_secret = models.BooleanField(_("difficulty asked kept secret"), default=False, editable=False)

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
            models.UniqueConstraint(fields=["player_token"], name="character_player_token_unique"),
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
            copy.player_token = None  # another character: the original's player link is not its
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
