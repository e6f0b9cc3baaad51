"""Export a campaign to a versioned JSON document and import one back as a new campaign.

The document::

    {"format": "gmtools-campaign", "version": 1,
     "campaign": {"name": ..., "game": ..., <the game's campaign state>},
     "characters": [{"name": ..., "kind": ..., "player": ..., "concept": ..., "notes": ...,
                     "resources": {<the game's resource columns>},
                     "traits": [{"category", "key", "name", "rating", "specialties"}, ...],
                     "aspects": [{"kind", "text", "free_invocations"}, ...]}, ...]}

Only the fields of the campaign's own game are written (see ``Campaign.STATE_FIELDS`` and
``Character.RESOURCE_FIELDS``); rows keep their order. Later versions will add the campaign's rolls
and scenes; an importer refuses a version it does not know rather than drop data silently.

Import is strict: an unknown key is an error (a typo must not lose a value), every row goes
through the models' full validation, and the whole campaign is written in one transaction, so a
refused file leaves nothing behind. Errors name the place in the document, e.g.
``characters[1].traits[3]: rating: Must be from 0 to 5.``
"""

import json
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.core.validators import ProhibitNullCharactersValidator
from django.db import models, transaction
from django.utils.translation import gettext as _

from gmtools import games
from gmtools.models import Aspect, Campaign, Character, Trait

FORMAT = "gmtools-campaign"
VERSION = 1
# The largest file an import reads. The demo campaigns weigh 2–6 kB; a campaign of 200 characters
# with full sheets stays under 1 MB, so 4 MB refuses only what is not a campaign.
MAX_BYTES = 4 * 2**20

CHARACTER_FIELDS = ("name", "kind", "player", "concept", "notes")
TRAIT_FIELDS = ("category", "key", "name", "rating", "specialties")
ASPECT_FIELDS = ("kind", "text", "free_invocations")


class BackupError(Exception):
    """A document that cannot be imported; the message says where and why."""


def export_campaign(campaign: Campaign) -> dict[str, Any]:
    characters = campaign.characters.order_by("id").prefetch_related("traits", "aspects")
    return {
        "format": FORMAT,
        "version": VERSION,
        "campaign": _values(campaign, ("name", "game", *Campaign.STATE_FIELDS[campaign.game])),
        "characters": [
            {
                **_values(character, CHARACTER_FIELDS),
                "resources": _values(character, Character.RESOURCE_FIELDS[campaign.game]),
                "traits": [_values(trait, TRAIT_FIELDS) for trait in character.traits.all()],
                # A character's own aspects: those a scene put on it end with the scene.
                "aspects": [_values(aspect, ASPECT_FIELDS) for aspect in character.aspects.all() if aspect.scene_id is None],
            }
            for character in characters
        ],
    }


def dumps(document: dict[str, Any]) -> str:
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def loads(text: str | bytes) -> Any:
    """The document in ``text``, or a BackupError that says, in the reader's language, why not."""
    if len(text) > MAX_BYTES:
        raise BackupError(_too_large())
    try:
        return json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise BackupError(_("The file is not valid JSON: %(error)s") % {"error": error}) from None
    except RecursionError:  # "[" * 100000: deeper than Python's parser goes, and than any campaign
        raise BackupError(_("The file nests lists or objects too deeply to be a campaign.")) from None
    except ValueError:  # Python refuses integers of more than 4,300 digits
        raise BackupError(_("The file holds a number too long to be a rating or a resource.")) from None


def read_upload(upload: UploadedFile) -> Any:
    """An uploaded file's document, refused by its size before a byte of it is read into memory."""
    if upload.size is None or upload.size > MAX_BYTES:
        raise BackupError(_too_large())
    return loads(upload.read())


def _too_large() -> str:
    return _("The file is larger than %(limit)s MB: no campaign is that large.") % {"limit": MAX_BYTES // 2**20}


def import_campaign(document: Any, gm: AbstractBaseUser, name: str = "") -> Campaign:
    """Create a new campaign owned by ``gm`` from an exported document, all or nothing."""
    _check_header(document)
    campaign_data = _object(document["campaign"], "campaign")
    game = campaign_data.get("game")
    if game not in {system.id for system in games.systems()}:
        raise BackupError(_("campaign: unknown game %(game)r.") % {"game": game})
    characters = _list(document["characters"], "characters")
    with transaction.atomic():
        campaign = _build(Campaign, campaign_data, ("name", "game", *Campaign.STATE_FIELDS[game]), "campaign", gm=gm)
        if name:
            campaign.name = name
        _save(campaign, "campaign")
        for index, data in enumerate(characters):
            _import_character(campaign, _object(data, f"characters[{index}]"), f"characters[{index}]")
    return campaign


def _import_character(campaign: Campaign, data: dict[str, Any], where: str) -> None:
    allowed = (*CHARACTER_FIELDS, "resources", "traits", "aspects")
    _reject_unknown(data, allowed, where)
    resources = _object(data.get("resources", {}), f"{where}.resources")
    _reject_unknown(resources, Character.RESOURCE_FIELDS[campaign.game], f"{where}.resources")
    _check_types(Character, resources, f"{where}.resources")
    character = _build(Character, {k: v for k, v in data.items() if k in CHARACTER_FIELDS}, CHARACTER_FIELDS, where)
    for field, value in resources.items():
        setattr(character, field, value)
    character.campaign = campaign
    _save(character, where)
    for index, row in enumerate(_list(data.get("traits", []), f"{where}.traits")):
        trait = _build(Trait, _object(row, f"{where}.traits[{index}]"), TRAIT_FIELDS, f"{where}.traits[{index}]")
        trait.character = character
        _save(trait, f"{where}.traits[{index}]")
    for index, row in enumerate(_list(data.get("aspects", []), f"{where}.aspects")):
        aspect = _build(Aspect, _object(row, f"{where}.aspects[{index}]"), ASPECT_FIELDS, f"{where}.aspects[{index}]")
        aspect.character = character
        _save(aspect, f"{where}.aspects[{index}]")
    # Checks that need the character's traits (Vampire trackers) can only run now.
    _save(character, where)


def _check_header(document: Any) -> None:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BackupError(_("This is not a gmtools campaign file."))
    version = document.get("version")
    if type(version) is not int:
        raise BackupError(_("The file has no valid version number."))
    if version > VERSION:
        raise BackupError(
            _("The file is version %(version)d, made by a newer gmtools; this one reads up to version %(known)d.")
            % {"version": version, "known": VERSION}
        )
    if version != VERSION:
        raise BackupError(_("Unknown file version %(version)d.") % {"version": version})
    _reject_unknown(document, ("format", "version", "campaign", "characters"), "file")
    for key in ("campaign", "characters"):
        if key not in document:
            raise BackupError(_("file: “%(key)s” is missing.") % {"key": key})


def _build[M: models.Model](
    model: type[M], data: dict[str, Any], fields: tuple[str, ...], where: str, **extra: Any
) -> M:
    _reject_unknown(data, fields, where)
    _check_types(model, data, where)
    return model(**{field: data[field] for field in fields if field in data}, **extra)


def _save(instance: models.Model, where: str) -> None:
    try:
        instance.full_clean()
    except ValidationError as error:
        raise BackupError(f"{where}: {_describe(error)}") from None
    instance.save()


def _describe(error: ValidationError) -> str:
    if not hasattr(error, "error_dict"):
        return " ".join(error.messages)
    return "; ".join(
        " ".join(messages) if field == NON_FIELD_ERRORS else f"{field}: {' '.join(messages)}"
        for field, messages in error.message_dict.items()
    )


def _reject_unknown(data: dict[str, Any], allowed: tuple[str, ...], where: str) -> None:
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise BackupError(_("%(where)s: unknown keys %(keys)s.") % {"where": where, "keys": ", ".join(unknown)})


def _check_types(model: type[models.Model], data: dict[str, Any], where: str) -> None:
    # Django's own validation would turn 3 into "3" or {"a": 1} into a string; a file that
    # says either where the other belongs is damaged, so refuse it.
    for name, value in data.items():
        if isinstance(value, str) and "\x00" in value:  # PostgreSQL cannot store it; SQLite would keep it
            raise BackupError(f"{where}: {name}: {ProhibitNullCharactersValidator.message}")
        expected = _json_type(model._meta.get_field(name))
        # bool is an int in Python but not in JSON.
        if expected is not None and not (isinstance(value, expected) and isinstance(value, bool) == (expected is bool)):
            raise BackupError(
                _("%(where)s: %(field)s must be a JSON %(type)s.")
                % {"where": where, "field": name, "type": _JSON_TYPE_NAMES[expected]}
            )


_JSON_TYPE_NAMES = {bool: "boolean", int: "integer", str: "string"}


def _json_type(field: models.Field) -> type | None:
    if isinstance(field, models.BooleanField):
        return bool
    if isinstance(field, models.IntegerField):
        return int
    if isinstance(field, models.CharField | models.TextField):
        return str
    return None  # JSON fields hold any JSON; the model's clean() checks their shape.


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BackupError(_("%(where)s: expected an object.") % {"where": where})
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise BackupError(_("%(where)s: expected a list.") % {"where": where})
    return value


def _values(instance: models.Model, fields: tuple[str, ...]) -> dict[str, Any]:
    return {field: getattr(instance, field) for field in fields}
