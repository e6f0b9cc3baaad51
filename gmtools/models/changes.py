"""What changed at the table, for the live streams: one Change row per change, in commit order (``gmtools.live``)."""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from gmtools.models.campaigns import Campaign
from gmtools.models.characters import Character
from gmtools.models.rolls import Roll
from gmtools.nulfree import NulFree


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
