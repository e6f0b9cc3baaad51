"""Saved rolls: a roll the GM makes often, kept on the character's card ("Dexterity + Stealth, stunt 1").

A saved roll is the composer's fields as the GM submitted them (trait ids, dice, modifier,
difficulty, the game's options), without what belongs to one moment: the character (the saved
roll's own), the extended action rolled into, the aspects invoked. Using it fills the composer
with those fields (the odds follow); the Roll button, or R, rolls. The fields are checked again
through ``ComposerForm`` when used: a trait deleted since is a refusal, never a server error.

Every view is the owning GM's (``views._campaign``: another GM gets 404) and every change a POST.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from gmtools import board, live
from gmtools.composer import ComposerForm
from gmtools.models import Campaign, ChangeKind, Character, SavedRoll, Scene
from gmtools.models.rolls import label_in_language
from gmtools.views import _campaign, _composer, _refused, errors_text

# Not kept in a saved roll: the character is the saved roll's own; an extended action ends, an
# invocation is a spend of the moment (its aspect and free invocations come and go), and the key of
# the composed roll is that roll's (``ComposerForm.once``).
NOT_SAVED = frozenset({"character", "extended", "invoke", "once"})
NAME_MAX = SavedRoll._meta.get_field("name").max_length


class NameForm(forms.Form):
    saved_name = forms.CharField(max_length=NAME_MAX, required=False, strip=True)


def saved_fields(form: ComposerForm, data: QueryDict) -> dict[str, Any]:
    """The composer's submitted fields worth keeping: a list for a multiple choice, else the text."""
    kept: dict[str, Any] = {}
    for name, field in form.fields.items():
        if name in NOT_SAVED or name not in data:
            continue
        if isinstance(field, forms.MultipleChoiceField | forms.ModelMultipleChoiceField):
            kept[name] = data.getlist(name)
        else:
            kept[name] = data.get(name)
    return kept


def as_data(fields: dict[str, Any], character: Character) -> QueryDict:
    """A saved roll's fields as the composer would submit them, for the character."""
    data = QueryDict(mutable=True)
    for name, value in fields.items():
        if isinstance(value, list):
            data.setlist(name, [str(v) for v in value])
        elif value is not None:
            data[name] = str(value)
    data["character"] = str(character.pk)
    return data


def default_name(form: ComposerForm) -> str:
    """What the roll is: its label (the traits, or the GM's note), then the options that change it."""
    data = form.cleaned_data
    composition = data.get("composition")
    parts = [(label_in_language(composition.game, composition.label_parts) if composition.label_parts
              else composition.label) if composition is not None else ""]
    if not parts[0]:
        traits = [str(data[n].label) for n in ("first", "second") if data.get(n) is not None]
        parts = [data.get("label") or " + ".join(traits) or gettext("%(n)d dice") % {"n": data.get("dice") or 0}]
    if data.get("pool_from") not in (None, "", "traits"):
        parts = [str(form.part.sheet_pool(data["pool_from"]).label)]
    if data.get("dice"):
        parts.append(gettext("%(n)+d dice") % {"n": data["dice"]})
    if data.get("modifier"):
        parts.append(gettext("modifier %(n)+d") % {"n": data["modifier"]})
    parts += form.part.name_options(data)
    return ", ".join(p for p in parts if p)[:NAME_MAX]


def default_names(form: ComposerForm) -> dict[str, str]:
    """``default_name`` in each of the site's languages (``SavedRoll.names``)."""
    names = {}
    for code, _language in settings.LANGUAGES:
        with translation.override(code):
            names[code] = default_name(form)
    return names


def _card(request: HttpRequest, campaign: Campaign, character_pk: int, oob: bool) -> str:
    """The character's card as the table draws it (its turn budget included)."""
    scene = Scene.objects.current(campaign)
    characters = list(board.characters(campaign).filter(pk=character_pk))
    board.annotate_turn(characters, scene)
    return render_to_string("table.html#character-card", {"campaign": campaign, "character": characters[0],
                                                          "scene": scene, "oob": oob}, request)


def _field_errors(form: ComposerForm) -> dict[str, list[str]]:
    """The fields' own errors; a rules refusal (a non-field error) is the odds' business, not ours."""
    return {name: errors for name, errors in form.errors.items() if name != NON_FIELD_ERRORS}


@login_required
@require_POST
def saved_roll_create(request: HttpRequest, pk: int) -> HttpResponse:
    """Save the composer as it stands on its character's card, named by the GM or by what it is."""
    campaign = _campaign(request, pk)
    form = ComposerForm(campaign, request.POST, scene=Scene.objects.current(campaign))
    names = NameForm(request.POST)
    form.is_valid()
    errors = _field_errors(form)
    if errors:
        return _refused(request, errors_text(form, errors))
    character = form.cleaned_data.get("character")
    if character is None:
        return _refused(request, gettext("Pick a character first: a saved roll goes on its card."))
    if not names.is_valid():
        return _refused(request, gettext("A saved roll's name has at most %(n)d characters.") % {"n": NAME_MAX})
    saved = SavedRoll(character=character, fields=saved_fields(form, request.POST),
                      name=names.cleaned_data["saved_name"] or default_name(form))
    if not names.cleaned_data["saved_name"]:
        saved.names = default_names(form)
    try:
        # The fields are kept as sent, and a checkbox takes any value as "on": a NUL character can pass
        # the composer's form, and PostgreSQL would refuse it (the model's own check says so first).
        saved.full_clean()
    except ValidationError as error:
        return _refused(request, " ".join(error.messages))
    with transaction.atomic():
        saved.save()
        live.announce(campaign.pk, ChangeKind.CHARACTER, character=character, public=False)
    response = render(request, "quick.html#save-roll", {"campaign": campaign, "saved": saved})
    response.content += _card(request, campaign, character.pk, oob=True).encode()
    return response


def _saved_roll(campaign: Campaign, saved_pk: int) -> SavedRoll:
    return get_object_or_404(SavedRoll.objects.select_related("character"), character__campaign=campaign, pk=saved_pk)


@login_required
@require_GET
def saved_roll_use(request: HttpRequest, pk: int, saved_pk: int) -> HttpResponse:
    """The composer filled with a saved roll's fields, and their odds; the GM then rolls."""
    campaign = _campaign(request, pk)
    saved = _saved_roll(campaign, saved_pk)
    scene = Scene.objects.current(campaign)
    check = ComposerForm(campaign, as_data(saved.fields, saved.character), scene=scene)
    check.is_valid()
    errors = _field_errors(check)
    if {"first", "second"} & errors.keys():
        return _refused(request, gettext("The saved roll “%(name)s” uses a trait %(character)s no longer has: "
                                         "delete it and save the roll again.")
                        % {"name": saved.shown_name, "character": saved.character.name})
    if errors:
        return _refused(request, gettext("The saved roll “%(name)s” no longer fits: %(errors)s")
                        % {"name": saved.shown_name, "errors": errors_text(check, errors)})
    return render(request, "table.html#composer",
                  {"campaign": campaign, **_composer(campaign, saved.character, scene, saved.fields)})


@login_required
@require_POST
def saved_roll_delete(request: HttpRequest, pk: int, saved_pk: int) -> HttpResponse:
    campaign = _campaign(request, pk)
    with transaction.atomic():
        saved = _saved_roll(campaign, saved_pk)
        saved.delete()
        live.announce(campaign.pk, ChangeKind.CHARACTER, character=saved.character, public=False)
    return HttpResponse(_card(request, campaign, saved.character_id, oob=False))
