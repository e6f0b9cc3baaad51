"""Discord's side of the log (gmtools.discord): the outbox of what is still to post, the message each
posted entry became, and the link's health per campaign.

The outbox is written in the transaction of the change it reports (``gmtools.live.announce``): a roll
that commits is posted, a roll rolled back never is, and a server restarted mid-queue finds the rows
where it left them. A row names a roll, not what to send: the worker reads the roll as it stands when
it posts (secret still, revealed, voided), so a row that waited behind a failing one sends what is
true then, not what was.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from gmtools.models.campaigns import Campaign
from gmtools.models.rolls import Roll
from gmtools.nulfree import NulFree


class DiscordPost(NulFree):
    """One thing to post to the campaign's Discord, in id order per campaign: a roll (posted, or its
    message edited, as the roll stands then) or a text (a part of a scene's recap)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+", verbose_name=_("campaign"))
    roll = models.ForeignKey(Roll, on_delete=models.CASCADE, null=True, blank=True, related_name="+",
                             verbose_name=_("roll"))
    text = models.TextField(_("text"), blank=True)
    created_at = models.DateTimeField(_("when"), auto_now_add=True)
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    # Not tried again before this (a backoff, or Discord's retry_after); None: at once.
    not_before = models.DateTimeField(_("not before"), null=True, blank=True)
    # A worker's claim on the row while it posts: another worker (another process) leaves the campaign
    # alone until then; a claim left by a worker that died runs out by itself.
    claimed_until = models.DateTimeField(_("claimed until"), null=True, blank=True)

    class Meta:
        ordering = ["id"]
        verbose_name = _("Discord post")
        verbose_name_plural = _("Discord posts")
        indexes = [models.Index(fields=["campaign", "id"], name="discord_outbox_order")]


class DiscordMessage(NulFree):
    """The Discord message a log entry became: its id, for the edit that strikes it through."""

    roll = models.OneToOneField(Roll, on_delete=models.CASCADE, related_name="+", verbose_name=_("roll"))
    # Empty when Discord answered without the message (204): it is then never edited.
    message_id = models.CharField(_("message id"), max_length=32, blank=True)
    struck = models.BooleanField(_("struck through"), default=False)
    posted_at = models.DateTimeField(_("posted"), auto_now_add=True)

    class Meta:
        verbose_name = _("Discord message")
        verbose_name_plural = _("Discord messages")


class DiscordHealth(NulFree):
    """How the campaign's Discord link fares, for the line the table shows."""

    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, primary_key=True, related_name="+",
                                    verbose_name=_("campaign"))
    last_post_at = models.DateTimeField(_("last post"), null=True, blank=True)
    failing_since = models.DateTimeField(_("failing since"), null=True, blank=True)
    last_error = models.CharField(_("last error"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("Discord health")
        verbose_name_plural = _("Discord health")
