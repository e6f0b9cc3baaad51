"""The GM's table: characters and NPCs made, edited, copied, imported and deleted (htmx panels).

Each view finds the campaign among those the user may open (404 otherwise) and the character in
it; a GET draws a form into the table's character panel, a POST (CSRF-checked) calls one workflow of
``gmtools.characters``. A refused form comes back in the panel with its errors (HTTP 422, as every
refusal at the table; nothing was written). A saved change answers with what it redraws: the
character cards, the turn order and the composer's list of characters, as the live streams draw it.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import reswap, retarget, trigger_client_event

from gmtools import board
from gmtools import characters as workflows
from gmtools.composer import Cast
from gmtools.models import Campaign, ChangeKind, Character
from gmtools.views import REFUSED, _campaign, _composer


def _character(campaign: Campaign, character_pk: int) -> Character:
    return get_object_or_404(campaign.characters.select_related("campaign"), pk=character_pk)


def _posted(request: HttpRequest) -> tuple:
    """A form's data: a POST's, even one without a field (its form then says what is required), else none."""
    return (request.POST, request.FILES) if request.method == "POST" else ()


def _panel(request: HttpRequest, partial: str, context: dict) -> HttpResponse:
    """A form in the panel: 200 to show it, 422 when a POST was refused (its errors inline)."""
    return render(request, f"characters.html#{partial}", context, status=REFUSED if request.method == "POST" else 200)


def _saved(request: HttpRequest, campaign: Campaign, touched: int | None = None) -> HttpResponse:
    """The panel closes; the cards, the turn order, the composer's character list and the extended
    actions are redrawn (out of band), as the live streams draw them.

    The composer keeps the GM's chosen character (sent along with the form), and the page asks the
    rest of it again, keeping the GM's choices (static/live.js: a character edited offers its new
    ratings, the traits chosen kept by id). If the chosen character was just deleted, the whole composer
    is drawn again for the first PC; so it is for the first character created in an empty campaign.
    """
    context = board.redraw(campaign, ChangeKind.CHARACTER, oob=True)
    chosen = request.POST.get("character", "")
    cast = {str(c.pk): c for c in context["characters"]}
    # The first character of an empty campaign: the composer takes it (it could only show "Unnamed NPC").
    first_ever = not chosen and touched is None and len(cast) == 1
    if first_ever or (chosen and chosen not in cast):
        chosen = next((c for c in context["characters"] if c.kind == "pc"), next(iter(cast.values()), None))
        context.update(_composer(campaign, chosen, context["scene"]), composer_oob=True, redraw_composer=True)
    context["composer_character"] = Cast(campaign, initial={"character": chosen or None})["character"]
    response = reswap(retarget(render(request, "characters.html#saved", context), "#character-panel"), "innerHTML")
    return trigger_client_event(response, "turn-changed")


@login_required
@require_http_methods(["GET", "POST"])
def character_new(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    sheet = workflows.CharacterSheet(campaign, request.POST if request.method == "POST" else None)
    if request.method == "POST" and sheet.save() is not None:
        return _saved(request, campaign)
    return _panel(request, "sheet", {"campaign": campaign, "sheet": sheet})


@login_required
@require_http_methods(["GET", "POST"])
def character_edit(request: HttpRequest, pk: int, character_pk: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    character = _character(campaign, character_pk)
    sheet = workflows.CharacterSheet(campaign, request.POST if request.method == "POST" else None, instance=character)
    if request.method == "POST" and sheet.save() is not None:
        return _saved(request, campaign, touched=character.pk)
    return _panel(request, "sheet", {
        "campaign": campaign, "sheet": sheet, "character": character,
        "duplicate_form": workflows.DuplicateForm(), "copy_form": workflows.CopyForm(character=character, gm=campaign.gm),
    })


@login_required
@require_POST
def character_delete(request: HttpRequest, pk: int, character_pk: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    character = _character(campaign, character_pk)
    workflows.delete_character(character)
    return _saved(request, campaign, touched=character_pk)


@login_required
@require_POST
def character_duplicate(request: HttpRequest, pk: int, character_pk: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    character = _character(campaign, character_pk)
    form = workflows.DuplicateForm(request.POST)
    if form.is_valid():
        workflows.duplicate(character, form.cleaned_data["count"])
        return _saved(request, campaign, touched=character.pk)
    return _panel(request, "duplicate", {"campaign": campaign, "character": character, "duplicate_form": form})


@login_required
@require_POST
def character_copy(request: HttpRequest, pk: int, character_pk: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    character = _character(campaign, character_pk)
    form = workflows.CopyForm(request.POST, character=character, gm=campaign.gm)
    if form.is_valid() and form.save() is not None:
        return _saved(request, campaign)
    return _panel(request, "copy", {"campaign": campaign, "character": character, "copy_form": form})


@login_required
@require_http_methods(["GET", "POST"])
def npc_quick(request: HttpRequest, pk: int) -> HttpResponse:
    """The quick NPC panel (a name and a pool, or a template); its POST makes the quick NPC."""
    campaign = _campaign(request, pk)
    form = workflows.QuickNpcForm(*_posted(request), campaign=campaign)
    if request.method == "POST" and form.is_valid() and form.save() is not None:
        return _saved(request, campaign)
    return _panel(request, "quick", {"campaign": campaign, "quick_form": form,
                                     "template_form": workflows.TemplateForm(campaign=campaign)})


@login_required
@require_POST
def npc_template(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    form = workflows.TemplateForm(request.POST, campaign=campaign)
    if form.is_valid() and form.save():
        return _saved(request, campaign)
    return _panel(request, "quick", {"campaign": campaign, "quick_form": workflows.QuickNpcForm(campaign=campaign),
                                     "template_form": form})


@login_required
@require_http_methods(["GET", "POST"])
def character_import(request: HttpRequest, pk: int) -> HttpResponse:
    """The import panel; its POST adds a campaign file's characters, or previews another tool's."""
    campaign = _campaign(request, pk)
    form = workflows.ImportForm(*_posted(request), campaign=campaign)
    if request.method == "POST" and form.is_valid() and form.save():
        return _saved(request, campaign)
    if form.preview is not None:
        return render(request, "characters.html#import-preview", {
            "campaign": campaign, "preview": form.preview, "twins": form.preview.twins(campaign),
            "confirm_form": workflows.ConfirmImportForm(initial={"payload": form.signed}, campaign=campaign)})
    return _import_panel(request, campaign, form)


@login_required
@require_POST
def character_import_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    """The GM confirms a preview: its characters are added (or the panel says why not, nothing added)."""
    campaign = _campaign(request, pk)
    form = workflows.ConfirmImportForm(request.POST, campaign=campaign)
    made = form.save() if form.is_valid() else []
    return (_saved(request, campaign) if made
            else _import_panel(request, campaign, workflows.ImportForm(campaign=campaign), confirm_form=form))


def _import_panel(request: HttpRequest, campaign: Campaign, form: workflows.ImportForm, **context: object) -> HttpResponse:
    """The import panel with its errors (the file's, or a confirmation's refused)."""
    return _panel(request, "import", {"campaign": campaign, "import_form": form, **context})

