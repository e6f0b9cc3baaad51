"""Fate Accelerated's own tables: each character's fate points, refresh, stress and consequences,
each campaign's deck of Fate cards, and the aspects of characters and scenes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import Q
from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from gmtools.games.base.models import CampaignState, CharacterResources, bounded, own_row, range_constraints
from gmtools.nulfree import NulFree

if TYPE_CHECKING:  # the table's rows are named, never imported, here
    from django.utils.functional import _StrPromise

    from gmtools.models import Campaign, Character

BOUNDS = {
    "points": (0, 99),
    # Fate Accelerated: refresh never drops below 1.
    "refresh": (1, 10),
}


class AspectKind(models.TextChoices):
    HIGH_CONCEPT = "high_concept", _("High concept")
    TROUBLE = "trouble", _("Trouble")
    OTHER = "other", _("Other")


# A consequence is a short aspect: its column's length, which a change from the card checks first.
CONSEQUENCE_LENGTH = 120
SEVERITIES = ("mild", "moderate", "severe")


class ConsequenceSlot(NamedTuple):
    """One of a character's three consequences as its card shows it (``FateResources.consequences``)."""

    severity: str  # "mild", "moderate", "severe"
    label: Promise  # "Moderate (4)"
    text: str  # "" while free
    free_for: int | None  # the character whose next invocation of it costs no fate point


def _free_for(label: _StrPromise) -> models.ForeignKey[Any, Any]:
    return models.ForeignKey(
        "gmtools.Character", on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=label,
        help_text=_("Whoever inflicted it: their next invocation of it costs no fate point (once)."))


class FateResources(CharacterResources):
    """A Fate character's fate points, stress and consequences (``character.fate``, ``character.resources``)."""

    points = bounded(BOUNDS, "points", _("fate points"), 3)
    refresh = bounded(BOUNDS, "refresh", _("refresh"), 3)
    stress_1 = models.BooleanField(_("stress box 1"), default=False)
    stress_2 = models.BooleanField(_("stress box 2"), default=False)
    stress_3 = models.BooleanField(_("stress box 3"), default=False)
    consequence_mild = models.CharField(_("mild consequence (2)"), max_length=CONSEQUENCE_LENGTH, blank=True)
    consequence_moderate = models.CharField(_("moderate consequence (4)"), max_length=CONSEQUENCE_LENGTH, blank=True)
    consequence_severe = models.CharField(_("severe consequence (6)"), max_length=CONSEQUENCE_LENGTH, blank=True)
    # Fate Core: whoever inflicted a consequence invokes it once for free. Who that is until they
    # have (None: nobody, or used; gmtools.games.fate.aspects).
    consequence_mild_free_for = _free_for(_("mild: free invocation for"))
    consequence_moderate_free_for = _free_for(_("moderate: free invocation for"))
    consequence_severe_free_for = _free_for(_("severe: free invocation for"))

    class Meta:
        verbose_name = _("Fate points, stress and consequences")
        verbose_name_plural = _("Fate points, stress and consequences")
        constraints = range_constraints("fate", BOUNDS)

    def invocable_aspects(self) -> list[Any]:
        """The aspects this character can invoke now: with a free invocation, or any while it has a
        fate point to pay with (from the character's prefetched aspects)."""
        return [a for a in self.character.aspects.all() if a.free_invocations > 0 or self.points > 0]

    @property
    def stress_boxes(self) -> list[tuple[int, bool]]:
        return [(1, self.stress_1), (2, self.stress_2), (3, self.stress_3)]

    @property
    def stress_words(self) -> str:
        """The stress track in words, for a screen reader (the players' view draws its boxes): "Stress: 1, 3 checked"."""
        checked = [str(n) for n, on in self.stress_boxes if on]
        return gettext("Stress: %(boxes)s checked") % {"boxes": ", ".join(checked)} if checked else gettext("Stress: none checked")

    @property
    def consequences(self) -> list[ConsequenceSlot]:
        return [ConsequenceSlot(severity, label, getattr(self, f"consequence_{severity}"),
                                getattr(self, f"consequence_{severity}_free_for_id"))
                for severity, label in zip(SEVERITIES, (_("Mild (2)"), _("Moderate (4)"), _("Severe (6)")), strict=True)]

    def clean(self) -> None:
        """A consequence not taken has no free invocation; one is another character's of the campaign
        (read from the character the sheet, the admin or an import has set: no query)."""
        for severity in SEVERITIES:
            name = f"consequence_{severity}_free_for"
            if not getattr(self, f"consequence_{severity}"):
                setattr(self, name, None)
                continue
            by = getattr(self, name)
            if by is not None and (by.pk == self.character_id or by.campaign_id != self.character.campaign_id):
                raise ValidationError({name: FREE_FOR_REFUSAL})


FREE_FOR_REFUSAL = _("Choose who inflicted it among the other characters of the campaign.")


# One card per ordered combination of four Fate dice (3 ** 4).
DECK_SIZE = 81


class FateState(CampaignState):
    """A Fate campaign's deck (``campaign.fate``, ``campaign.state``)."""

    uses_deck = models.BooleanField(
        _("draw from the Fate deck"),
        default=False,
        help_text=_("Draw a card from the 81-card Fate deck instead of rolling four Fate dice."),
    )
    deck = models.JSONField(
        _("Fate deck cards left"),
        # Empty: the next draw shuffles a full deck (a deck listed in order would deal 0, 1, 2, ...).
        default=list,
        blank=True,
        help_text=_("The indices (0-80) of the cards not yet drawn, next card first; an empty deck is shuffled at the next draw."),
    )

    class Meta:
        verbose_name = _("Fate deck")
        verbose_name_plural = _("Fate deck")

    @property
    def cards_left(self) -> int:
        """An empty deck is shuffled whole at the next draw."""
        return len(self.deck) or DECK_SIZE

    def clean(self) -> None:
        deck = self.deck
        if not (
            isinstance(deck, list)
            and all(type(card) is int and 0 <= card < DECK_SIZE for card in deck)
            and len(set(deck)) == len(deck)
        ):
            raise ValidationError({"deck": _("The Fate deck must be a list of distinct card numbers from 0 to 80.")})


def resources_of(character: Character) -> FateResources:
    """A Fate character's row of this table (``character.resources``)."""
    return own_row(character.resources, FateResources)


def state_of(campaign: Campaign) -> FateState:
    """A Fate campaign's row of this table (``campaign.state``)."""
    return own_row(campaign.state, FateState)


@admin.display(description=_("cards left"))
def cards_left(state: FateState) -> int:
    return len(state.deck)


class Aspect(NulFree):
    """A Fate aspect: a character's, or a situation aspect of a scene (``scene`` set, no character).

    Free invocations are those already paid for (Create an Advantage gives them). A boost is an
    aspect that lasts until it is invoked once.
    """

    character = models.ForeignKey(
        "gmtools.Character", on_delete=models.CASCADE, null=True, blank=True, related_name="aspects", verbose_name=_("character")
    )
    scene = models.ForeignKey(
        "gmtools.Scene", on_delete=models.CASCADE, null=True, blank=True, related_name="aspects", verbose_name=_("scene")
    )
    kind = models.CharField(_("kind"), max_length=12, choices=AspectKind.choices, default=AspectKind.OTHER)
    text = models.CharField(_("aspect"), max_length=200)
    free_invocations = models.PositiveSmallIntegerField(
        _("free invocations"), default=0, validators=[MaxValueValidator(9)]
    )
    boost = models.BooleanField(_("boost"), default=False, help_text=_("Gone once invoked."))

    class Meta:
        ordering = ["id"]
        verbose_name = _("aspect")
        verbose_name_plural = _("aspects")
        # The names they had in the core's app, where the model lived until issue 21 moved it here.
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=AspectKind.values), name="aspect_kind_known"),
            models.CheckConstraint(condition=~Q(text=""), name="aspect_text_not_empty"),
            models.CheckConstraint(condition=Q(character__isnull=False) | Q(scene__isnull=False),
                                   name="aspect_of_a_character_or_a_scene"),
            models.CheckConstraint(
                condition=Q(free_invocations__gte=0, free_invocations__lte=9), name="aspect_free_invocations_range"
            ),
            models.UniqueConstraint(
                fields=["character", "kind"],
                condition=Q(kind__in=[AspectKind.HIGH_CONCEPT, AspectKind.TROUBLE]),
                name="aspect_one_high_concept_and_trouble",
                violation_error_message=_("A character has one high concept and one trouble."),
            ),
        ]

    def __str__(self) -> str:
        return self.text

    def clean(self) -> None:
        character = self.character if self.character_id else None
        if character is not None and character.game != self._meta.app_label:  # the app is named by its game
            raise ValidationError(_("Only Fate characters have aspects."))
