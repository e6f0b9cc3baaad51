"""The GM's side of Discord at the table: the campaign's settings (its time zone, its language, the
webhook), the link's health line, and the button that posts a scene's recap."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from gmtools import recap
from gmtools.discord.messages import queue_scene_recap
from gmtools.models import Campaign, DiscordHealth
from gmtools.views import _campaign, _refused

class CampaignSettingsForm(forms.ModelForm):
    """What the GM changes of a campaign from the table. The time zone and the webhook are checked by
    the model's own validators (the campaign form's and the admin's); a blank webhook keeps the one
    saved (shown masked, never sent back to the page), ``remove_webhook`` takes it away."""

    remove_webhook = forms.BooleanField(required=False, label=gettext_lazy("Stop posting to Discord"))

    class Meta:
        model = Campaign
        fields = ["time_zone", "language", "discord_webhook"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.saved_webhook = self.instance.discord_webhook
        self.fields["discord_webhook"].required = False
        self.fields["discord_webhook"].initial = ""

    def clean_discord_webhook(self) -> str:
        return (self.cleaned_data.get("discord_webhook") or "").strip() or self.saved_webhook

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if cleaned.get("remove_webhook"):
            cleaned["discord_webhook"] = ""
        return cleaned


@login_required
@require_POST
def campaign_settings(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    form = CampaignSettingsForm(request.POST, instance=campaign)
    if not form.is_valid():
        return render(request, "discord.html#settings", {"campaign": Campaign.objects.get(pk=pk), "settings_form": form,
                                                         "settings_open": True})  # the errors inline, as a sheet's
    form.save(commit=False).save(update_fields=["time_zone", "language", "discord_webhook"])
    return render(request, "discord.html#settings", {"campaign": campaign, "settings_open": True, "saved": True})


@login_required
@require_GET
def health(request: HttpRequest, pk: int) -> HttpResponse:
    """The link's health line ("Discord: last post 21:04 · failing since 21:10: 404 unknown webhook")."""
    campaign = _campaign(request, pk)
    return render(request, "discord.html#health-line", {
        "campaign": campaign, "health": DiscordHealth.objects.filter(campaign=campaign).first()})


@login_required
@require_POST
def post_recap(request: HttpRequest, pk: int) -> HttpResponse:
    """Queue the chosen scene's recap for the campaign's Discord (the export panel's part)."""
    campaign = _campaign(request, pk)
    form = recap.ExportForm(campaign, {"part": request.POST.get("part", ""), "format": "md"})  # the export's parts
    if not campaign.discord_webhook:
        return _refused(request, _("This campaign posts to no Discord yet: set its webhook in its settings."))
    if not form.is_valid() or form.cleaned_data["part"] not in form.scenes:
        return _refused(request, _("Choose a scene to post its recap."))
    count = queue_scene_recap(campaign, form.scenes[form.cleaned_data["part"]])
    said = ngettext("The scene's recap is on its way to Discord (%(count)d message).",
                    "The scene's recap is on its way to Discord (%(count)d messages).", count) % {"count": count}
    return render(request, "discord.html#recap-said", {"said": said})
