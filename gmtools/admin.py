"""The admin, where staff edit campaigns and full character sheets.

A character's traits are shown as one inline per category of its game (Attributes, Abilities, ...)
and its resources as one inline of its game's own table, so a Vampire sheet never shows Essence; a
campaign shows its game's own state the same way. The fieldsets, their derived values and the
game's own rows of a character (Fate's aspects) are the game's (``gmtools.games``). All of it needs the game, which
comes from the campaign: the add page therefore asks for the basics only and continues to the
change page, where the new character already has its game's standard sheet.
"""

import io
import re
import zipfile
from collections import Counter
from functools import cache
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.text import slugify
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from gmtools import backup, games
from gmtools.games.base import Columns, SheetRows
from gmtools.live import announce
from gmtools.models import Campaign, ChangeKind, Character, Trait

BOTH_LOCATIONS = [admin.ActionLocation.CHANGE_LIST, admin.ActionLocation.CHANGE_FORM]


class TraitForm(forms.ModelForm):
    class Meta:
        model = Trait
        fields = ["name", "rating", "specialties"]

    def __init__(self, *args, category: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if self.instance._state.adding:
            self.instance.category = category
        if self.instance.key:
            # A standard trait shows its translated label and cannot be renamed.
            self.fields["name"].disabled = True
            self.initial["name"] = str(self.instance.label)

    def clean_name(self) -> str:
        if self.instance.key:
            return ""
        if not self.cleaned_data["name"]:
            # A row added by hand with its name cleared: the database's check (trait_standard_or_named)
            # would refuse it as a 500, so the form says why beside the name.
            raise ValidationError(gettext("A trait added by hand needs a name."))
        return self.cleaned_data["name"]


class TraitFormSet(BaseInlineFormSet):
    category = ""

    def get_form_kwargs(self, index: int | None) -> dict:
        return {**super().get_form_kwargs(index), "category": self.category}

    def clean(self) -> None:
        super().clean()
        submitted = Counter(self._submitted_names())
        for form in self.forms:
            deleted = self.can_delete and self._should_delete_form(form)
            if deleted and form.instance.key:
                raise ValidationError(
                    gettext("“%(trait)s” is part of the game's sheet and cannot be deleted.")
                    % {"trait": form.instance.label}
                )
            name = form.cleaned_data.get("name", "") if not deleted else ""
            if name and submitted[name.casefold()] > 1:
                form.add_error("name", gettext("Another trait of this character has this name."))

    def _submitted_names(self) -> list[str]:
        # Trait names are unique across all categories, but each category is its own formset and
        # the database only checks rows one at a time, so read every trait row of the submission.
        row = re.compile(rf"{re.escape(self.get_default_prefix())}(?:-\d+)?-\d+-name")
        return [
            value.strip().casefold()
            for key, value in self.data.items()
            if row.fullmatch(key) and value.strip() and not self.data.get(key.removesuffix("name") + "DELETE")
        ]


class TraitInline(admin.TabularInline):
    model = Trait
    form = TraitForm
    formset = TraitFormSet
    extra = 0
    category = ""

    class Media:
        css = {"all": ["gmtools/admin-sheet.css"]}

    def get_queryset(self, request: HttpRequest) -> QuerySet[Trait]:
        return super().get_queryset(request).filter(category=self.category)

    def get_formset(self, request: HttpRequest, obj: Character | None = None, **kwargs) -> type[TraitFormSet]:
        formset = super().get_formset(request, obj, **kwargs)
        formset.category = self.category  # a fresh class on every call, so this is not shared
        return formset


@cache
def trait_inline(game: str, category: str) -> type[TraitInline]:
    """A category of a game's sheet, as one inline of the character's page."""
    system = games.get(game)
    return type(f"{category.title()}Inline", (TraitInline,), {
        "category": category, "verbose_name": system.category_label(category),
        "verbose_name_plural": system.category_label(category, plural=True),
    })


@cache
def sheet_rows_inline(rows: SheetRows) -> type[admin.TabularInline]:
    """A game's own rows of a character (Fate's aspects), as its sheet edits them."""
    return type(f"{rows.model.__name__}Inline", (admin.TabularInline,), {
        "model": rows.model, "formset": rows.formset, "extra": 0, "fields": list(rows.fields),
        "fk_name": "character",
    })


@cache
def game_row_inline(columns: Columns) -> type[admin.StackedInline]:
    """A game's row of a character (its resources) or of a campaign (its state), in the game's
    fieldset: one, made with its character (campaign), never deleted; its derived values read-only."""
    return type(f"{columns.model.__name__}Inline", (admin.StackedInline,), {
        "model": columns.model, "fk_name": columns.model._meta.pk.name,  # its link: its primary key
        "can_delete": False, "extra": 0, "min_num": 1, "max_num": 1,
        "verbose_name": columns.title, "verbose_name_plural": columns.title,
        "fieldsets": [(None, {"fields": columns.rows})], "readonly_fields": columns.derived,
        # Another character (Fate: whose free invocation a consequence is) by its id, not a list of every campaign's.
        "raw_id_fields": tuple(columns.links.values()),
    })


@admin.display(description=_("game"), ordering="campaign__game")
def character_game(character: Character) -> str:
    return character.campaign.get_game_display()


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", character_game, "kind", "player"]
    list_filter = ["campaign__game", "campaign", "kind"]
    list_select_related = ["campaign"]
    search_fields = ["name", "player"]
    actions = ["duplicate"]

    fields = ("campaign", ("name", "kind"), ("player", "concept"), "notes")

    def get_form(self, request: HttpRequest, obj: Character | None = None, change: bool = False, **kwargs) -> type:
        form = super().get_form(request, obj, change=change, **kwargs)
        if obj is not None:
            # A character moves only to a campaign of its own game: its sheet is that game's (any other
            # choice is refused as a field error before the traits are checked against the wrong game).
            form.base_fields["campaign"].queryset = Campaign.objects.filter(game=obj.game)
        return form

    def get_inlines(self, request: HttpRequest, obj: Character | None) -> list[type[admin.options.InlineModelAdmin]]:
        if obj is None:
            return []
        system = games.get(obj.game)
        inlines: list[type[admin.options.InlineModelAdmin]] = [
            *([game_row_inline(system.resources)] if system.resources.model else []),
            *(trait_inline(obj.game, category) for category in system.categories),
        ]
        return [*inlines, *(sheet_rows_inline(rows) for rows in system.sheet.rows)]

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context: dict | None = None) -> HttpResponse:
        # The sheet is edited on the change page; only offer the button that leads there.
        extra_context = {**(extra_context or {}), "show_save": False, "show_save_and_add_another": False}
        return super().add_view(request, form_url, extra_context)

    def save_model(self, request: HttpRequest, obj: Character, form: forms.ModelForm, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if not change:
            obj.add_standard_sheet()  # inside the admin's transaction for this request

    # Staff change what the tables show: the GM's pages and the players' phones hear of it (and a
    # table page drawn before it is out of date, gmtools.live.render_page), in the same transaction.
    def save_related(self, request: HttpRequest, form: forms.ModelForm, formsets: list, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        for campaign_id in {form.initial.get("campaign"), form.instance.campaign_id} - {None}:  # a move: both casts (gmtools.characters.announce_cast)
            announce(campaign_id, ChangeKind.CHARACTER)

    def delete_model(self, request: HttpRequest, obj: Character) -> None:
        super().delete_model(request, obj)
        announce(obj.campaign_id, ChangeKind.CHARACTER)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Character]) -> None:
        campaign_ids = set(queryset.values_list("campaign_id", flat=True))
        super().delete_queryset(request, queryset)
        for campaign_id in campaign_ids:
            announce(campaign_id, ChangeKind.CHARACTER)

    @admin.action(
        description=_("Duplicate this character"),
        description_plural=_("Duplicate the selected characters"),
        permissions=["add"],
        location=BOTH_LOCATIONS,
    )
    def duplicate(self, request: HttpRequest, queryset: QuerySet[Character]) -> None:
        copies = queryset.duplicate()
        for campaign_id in {copy.campaign_id for copy in copies}:
            announce(campaign_id, ChangeKind.CHARACTER)
        self.message_user(
            request,
            ngettext("%(count)d character duplicated.", "%(count)d characters duplicated.", len(copies))
            % {"count": len(copies)},
            messages.SUCCESS,
        )


class CampaignImportForm(forms.Form):
    file = forms.FileField(label=_("Campaign file (JSON)"))
    gm = forms.ModelChoiceField(queryset=get_user_model().objects.order_by("username"), label=_("game master"))
    name = forms.CharField(
        label=_("new name"), max_length=120, required=False, help_text=_("Leave empty to keep the name in the file.")
    )

    def clean_file(self) -> Any:
        """The file's document (refused by its size before it is read, or as not a campaign file)."""
        try:
            return backup.read_upload(self.cleaned_data["file"])
        except backup.BackupError as error:
            raise ValidationError(str(error)) from None


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "gm", "character_count"]
    list_filter = ["game", "gm"]
    search_fields = ["name"]
    actions = ["export_json"]
    change_list_template = "admin/gmtools/campaign/change_list.html"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Campaign]:
        return super().get_queryset(request).select_related("gm").annotate(character_count=Count("characters"))

    fields = ("name", "game", "gm", "time_zone")

    def get_inlines(self, request: HttpRequest, obj: Campaign | None) -> list[type[admin.options.InlineModelAdmin]]:
        state = games.get(obj.game).state if obj is not None else None
        return [game_row_inline(state)] if state is not None and state.model is not None else []

    def get_readonly_fields(self, request: HttpRequest, obj: Campaign | None = None) -> tuple:
        return ("game",) if obj is not None and obj.characters.exists() else ()

    def get_changeform_initial_data(self, request: HttpRequest) -> dict:
        return {"gm": request.user.pk, **super().get_changeform_initial_data(request)}

    @admin.display(description=_("characters"), ordering="character_count")
    def character_count(self, obj: Campaign) -> str:
        url = reverse("admin:gmtools_character_changelist") + f"?campaign__id__exact={obj.pk}"
        return format_html('<a href="{}">{}</a>', url, obj.character_count)

    @admin.action(
        description=_("Download as JSON"),
        description_plural=_("Download the selected campaigns as JSON"),
        location=BOTH_LOCATIONS,
    )
    def export_json(self, request: HttpRequest, queryset: QuerySet[Campaign]) -> HttpResponse:
        campaigns = list(queryset)
        if len(campaigns) == 1:
            response = HttpResponse(backup.dumps(backup.export_campaign(campaigns[0])), content_type="application/json")
            response["Content-Disposition"] = f'attachment; filename="{_filename(campaigns[0])}"'
            return response
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for campaign in campaigns:
                archive.writestr(_filename(campaign), backup.dumps(backup.export_campaign(campaign)))
        response = HttpResponse(buffer.getvalue(), content_type="application/zip")
        response["Content-Disposition"] = 'attachment; filename="gmtools-campaigns.zip"'
        return response

    def get_urls(self) -> list[URLPattern]:
        return [
            path("import/", self.admin_site.admin_view(self.import_view), name="gmtools_campaign_import"),
            *super().get_urls(),
        ]

    def import_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_add_permission(request):
            raise PermissionDenied
        # Bound on every POST, even one without a field (``request.POST or None`` would leave that one
        # unbound: the form back bare, without a word of what is missing).
        posted = (request.POST, request.FILES) if request.method == "POST" else ()
        form = CampaignImportForm(*posted, initial={"gm": request.user.pk})
        if request.method == "POST" and form.is_valid():
            try:
                campaign = backup.import_campaign(form.cleaned_data["file"], form.cleaned_data["gm"],
                                                  form.cleaned_data["name"])
            except backup.BackupError as error:
                form.add_error("file", str(error))
            else:
                self.log_addition(request, campaign, [{"added": {}}])
                self.message_user(request, gettext("Imported “%(name)s”.") % {"name": campaign.name}, messages.SUCCESS)
                return HttpResponseRedirect(reverse("admin:gmtools_campaign_change", args=[campaign.pk]))
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Import a campaign"),
            "opts": self.opts,
            "form": form,
        }
        return TemplateResponse(request, "admin/gmtools/campaign/import.html", context)


def _filename(campaign: Campaign) -> str:
    return f"{slugify(campaign.name) or 'campaign'}-{campaign.pk}.gmtools.json"
