"""The GM's shortcuts and second thoughts: the rolls saved on a card, the one-click changes kept to undo."""

from django.db import models
from django.db.models import Q
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from gmtools.models.campaigns import Campaign
from gmtools.models.characters import Character
from gmtools.nulfree import NulFree


class SavedRoll(NulFree):
    """A roll the GM makes often ("Koi: Dexterity + Stealth, stunt 1"): the composer's fields as
    submitted (trait ids, dice, difficulty, options), listed on the character's card."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="saved_rolls",
                                  verbose_name=_("character"))
    name = models.CharField(_("name"), max_length=80)
    fields = models.JSONField(_("composer fields"), default=dict)
    # A name the GM did not type is what the roll is ("Dexterity + Stealth, stunt 1"), written in each
    # of the site's languages when saved ({"en": ..., "es": ...}), so that the card reads in the
    # language of whoever looks; empty for a name the GM typed, which stays as typed.
    names = models.JSONField(_("names by language"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("saved roll")
        verbose_name_plural = _("saved rolls")
        constraints = [models.CheckConstraint(condition=~Q(name=""), name="saved_roll_name_not_empty")]

    def __str__(self) -> str:
        return self.name

    @property
    def shown_name(self) -> str:
        """The name in the active language, when it was not the GM's own."""
        return self.names.get(get_language() or "", self.name)


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
