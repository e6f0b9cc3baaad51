"""What the character panel's forms post (gmtools/characters.py), built from the forms themselves."""

from __future__ import annotations

from typing import Any

from django import forms

from gmtools.characters import CharacterSheet
from gmtools.models import Campaign, Character


def _values(form: forms.BaseForm, data: dict[str, Any]) -> None:
    for bound in form:
        if bound.field.disabled:
            continue
        value = bound.value()
        if isinstance(bound.field.widget, forms.CheckboxInput):
            if value:
                data[bound.html_name] = "on"
        elif value is not None:
            data[bound.html_name] = str(getattr(value, "pk", value))


def sheet_post(campaign: Campaign, character: Character | None = None, ratings: dict[str, int] | None = None,
               **fields: Any) -> dict[str, Any]:
    """The sheet as the panel shows it (a new one, or ``character``'s), with ``fields`` and standard ``ratings`` changed."""
    sheet = CharacterSheet(campaign, instance=character)
    data: dict[str, Any] = {}
    for form in sheet.forms:
        _values(form, data)
    for formset in sheet.formsets:
        _values(formset.management_form, data)
        for form in formset.forms:
            _values(form, data)
    for key, rating in (ratings or {}).items():
        data[rating_field(sheet, key)] = str(rating)
    data.update({f"sheet-{name}": value for name, value in fields.items()})
    return data


def rating_field(sheet: CharacterSheet, key: str) -> str:
    for group in sheet.groups:
        for form in group.formset.forms:
            if form.instance.key == key:
                return form.add_prefix("rating")
    raise KeyError(key)


def custom_trait(data: dict[str, Any], prefix: str, name: str, rating: int) -> dict[str, Any]:
    """Fill the blank row a category's formset offers (its last form) with a trait added by hand."""
    index = int(data[f"{prefix}-TOTAL_FORMS"]) - 1
    return {**data, f"{prefix}-{index}-name": name, f"{prefix}-{index}-rating": str(rating)}


def character_file(character: Character, name: str = "character.json"):
    """A campaign file holding one character (the campaign export format), as an upload."""
    import json

    from django.core.files.uploadedfile import SimpleUploadedFile

    from gmtools import backup

    document = {**backup.export_campaign(character.campaign), "characters": [backup.export_character(character)]}
    for table in backup.TABLES:  # the character alone, not the campaign's log
        del document[table]
    # One line: the access walk also sends it in a GET's query string, where each line would be a value.
    return SimpleUploadedFile(name, json.dumps(document).encode(), content_type="application/json")


def confirmed_import(character: Character) -> dict[str, str]:
    """What an import preview's Confirm posts: the character's rows, signed for its campaign."""
    from gmtools import backup, importers

    reading = importers.Reading("gmtools", character.game, [backup.export_character(character)])
    return {"payload": importers.sign(character.campaign, reading)}
