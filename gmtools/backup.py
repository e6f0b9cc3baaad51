"""Export a whole campaign to a versioned JSON document, and import one back as a new campaign.

The document (version 2)::

    {"format": "gmtools-campaign", "version": 2,
     "campaign": {"name": ..., "game": ..., "time_zone": ..., "language": ..., <the game's campaign state>},
     "characters": [{"name", "kind", "player", "concept", "notes",
                     "resources": {<the game's resource columns; one naming a character, by its position>},
                     "traits": [{"category", "key", "name", "rating", "specialties"}, ...],
                     "aspects": [{"kind", "text", "free_invocations", "boost"}, ...],
                     "saved_rolls": [{"name", "fields", "created_at"}, ...]}, ...],
     "stories": [{"number", "title", "started_at", "ended_at"}, ...],
     "episodes": [{"story": 0, "number", ...}, ...],
     "scenes": [{"episode": 0, "number", "title", "downtime", "combat", "calm", "notes", "turn",
                 "started_at", "ended_at",
                 "participants": [{"character": 0, "position": 0}, ...],
                 "declarations": [{"turn": 1, "character": 0, "actions": 2}, ...],
                 "aspects": [{"character": null, "kind", "text", "free_invocations", "boost"}, ...]}, ...],
     "extended_actions": [{"scene": null, "character": 0, "first": "characters[0].traits[1]", "second": null,
                           "name", "goal", "total", ...}, ...],
     "rolls": [{"character": 0, "parent": null, "scene": 2, "extended": null, "voided_by": "gm",
                "actor", "system", "kind", "label", "label_parts", "request", "result", "outcome",
                "spends", "secret", "hidden", "revealed_at", "turn", "action", "willpower_spent", "luck",
                "created_at", "voided_at", "rolled_by"}, ...],
     "resource_changes": [{"character": 0, "action", "before", "after", "created_at", "undone_at"}, ...]}

Every table of a campaign is there, with every column of its rows but their ids; a row names
another by its position in that table's list (``"character": 0`` is the first character), an
aspect by its place (``"characters[2].aspects[0]"``, ``"scenes[4].aspects[1]"``), a trait named
outside its character's sheet (an extended action's) too (``"characters[0].traits[1]"``), a roll only an
earlier roll as its parent. The ids the game's code keeps inside JSON columns (a roll's spends
name the character and aspect paid, a Fate roll the aspects invoked and the advantage made, a
saved roll its traits: ``ROLL_JSON_REFS``, ``SAVED_ROLL_JSON_REFS``) are written the same way
and become the new rows' ids on import; one that names a row gone since is written null. Who
voided a roll is a username, kept where the importing server has that user and null where not.
Times are ISO 8601 with their offset. Rows keep their order, so the log and the turn order read
as they did. Only the columns of the campaign's own game are written (its ``state`` and each
character's ``resources``, in tables of the game's own), each by its public name (``v5_hunger``:
``gmtools.games.base.models``), in a one-click change's ``before`` and ``after`` too. Not in the file: the player link and the characters' own links (an import gets a new one
and none, so a backup opens nothing), whether players roll from their phones (an import starts with
the GM rolling), whether the campaign was a demo (``Campaign.demo``, this server's), and the
live streams' log of changes (``Change``: what each open page has drawn, meaningless elsewhere;
an imported table starts with none and its pages start from there), and anything of Discord (the
webhook is a secret; its posts and health are this server's). The campaign's time zone and language
are optional on import (files of before issue 25 have neither): the new campaign then takes the
server's zone and English, as one made without a browser does.

Version 1 (characters, traits and aspects only) is version 2 without the other tables: a file of
either imports, and a table left out is empty. An importer refuses a version it does not know
rather than drop data silently.

Import is strict: an unknown key is an error (a typo must not lose a value), every row gets the
models' validation (``gmtools.bulk``: ``full_clean()``'s fields, ``clean()`` and constraints,
evaluated without a query per row), and the whole campaign is written in one transaction of bulk
inserts, so a refused file leaves nothing behind. Errors name the place in the document, e.g.
``characters[1].traits[3]: rating: Must be from 0 to 5.``
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.core.validators import ProhibitNullCharactersValidator
from django.db import IntegrityError, models, transaction
from django.db.models import Prefetch
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from gmtools import bulk, games
from gmtools.games.base import Columns
from gmtools.games.fate.models import Aspect
from gmtools.models import (
    Campaign,
    Character,
    Episode,
    ExtendedAction,
    ResourceChange,
    Roll,
    SavedRoll,
    Scene,
    SceneParticipant,
    Story,
    Trait,
    TurnDeclaration,
)

FORMAT = "gmtools-campaign"
# The campaign's own columns in the file (its game's state is written beside them).
CAMPAIGN_FIELDS = ("name", "game", "time_zone", "language")
VERSION = 2
# The largest file an import reads (into one worker's memory, parsed). A character with a full
# sheet weighs ~3 kB and a logged roll ~1 kB: a campaign of 200 characters and 20,000 rolls stays
# under 24 MB, so 32 MB refuses only what is not a campaign.
MAX_BYTES = 32 * 2**20
# How deep a file nests lists and objects: a roll's result is the deepest part of a campaign
# (about 8 levels from the top of the file); a deeper file is not one gmtools wrote.
MAX_DEPTH = 32
# The rows one import may write, each far above any campaign played at a table (the demo has 3-4
# characters of ~40 traits, a long chronicle some hundreds of characters and tens of thousands of
# rolls), so that a file of junk is refused by its counts, at once, before a row is checked.
LIMITS = {
    "characters": 5_000,
    "traits": 250_000,
    "aspects": 50_000,
    "saved_rolls": 50_000,
    "stories": 1_000,
    "episodes": 10_000,
    "scenes": 50_000,
    "participants": 250_000,
    "declarations": 250_000,
    "extended_actions": 10_000,
    "rolls": 250_000,
    "resource_changes": 250_000,
}

CHARACTER_FIELDS = ("name", "kind", "player", "concept", "notes")
TRAIT_FIELDS = ("category", "key", "name", "rating", "specialties")
ASPECT_FIELDS = ("kind", "text", "free_invocations", "boost")
TABLES = ("stories", "episodes", "scenes", "extended_actions", "rolls", "resource_changes")


def _own_fields(model: type[models.Model]) -> tuple[str, ...]:
    """A table's columns but its id and its links to other rows (written as positions)."""
    return tuple(f.name for f in model._meta.concrete_fields if not f.primary_key and not f.is_relation)


STORY_FIELDS = _own_fields(Story)
EPISODE_FIELDS = _own_fields(Episode)
SCENE_FIELDS = _own_fields(Scene)
PARTICIPANT_FIELDS = _own_fields(SceneParticipant)
DECLARATION_FIELDS = _own_fields(TurnDeclaration)
EXTENDED_FIELDS = _own_fields(ExtendedAction)
ROLL_FIELDS = _own_fields(Roll)
SAVED_ROLL_FIELDS = _own_fields(SavedRoll)
RESOURCE_CHANGE_FIELDS = _own_fields(ResourceChange)

# Ids of other rows that the table's code keeps inside a roll's JSON columns, by path ("*": each
# item of a list), with the table each names: the composer's spends (``composer.Spend.as_json``, a
# Fate boost used up: ``games.fate.table``), the extended action rolled into
# (``services._advance_extended``), a Fate roll's invoked aspects and the advantage it made
# (``games.fate.table.logged``). And a saved roll's composer fields (``saved_roll_views``): its
# traits (the character's own: their position in its list) and other characters, kept as text.
ROLL_JSON_REFS = (
    (("spends", "*", "character"), "characters"),
    (("spends", "*", "aspect"), "aspects"),
    (("spends", "*", "boost", "character"), "characters"),
    (("spends", "*", "boost", "scene"), "scenes"),
    (("result", "extended", "id"), "extended_actions"),
    (("result", "invoked", "*", "aspect"), "aspects"),
    (("result", "advantage", "on"), "characters"),
    (("result", "advantage", "scene"), "scenes"),
    (("result", "advantage", "aspect"), "aspects"),
)
SAVED_ROLL_JSON_REFS = (
    (("fields", "first"), "traits"),
    (("fields", "second"), "traits"),
    (("fields", "team", "*"), "characters"),
    (("fields", "advantage_on"), "characters"),
)


class BackupError(Exception):
    """A document that cannot be imported; the message says where and why."""


# --- export ----------------------------------------------------------------------------------------


def export_campaign(campaign: Campaign) -> dict[str, Any]:
    """The whole campaign as a document (module docstring), read in a constant number of queries."""
    saved = Prefetch("saved_rolls", queryset=SavedRoll.objects.order_by("id"))
    characters = list(campaign.characters.with_resources(campaign.game).order_by("id")
                      .prefetch_related("traits", "aspects", saved))
    stories = list(Story.objects.filter(campaign=campaign).order_by("id"))
    episodes = list(Episode.objects.filter(story__campaign=campaign).order_by("id"))
    scenes = list(Scene.objects.filter(episode__story__campaign=campaign).order_by("id").prefetch_related(
        Prefetch("participants", queryset=SceneParticipant.objects.order_by("id")),
        Prefetch("declarations", queryset=TurnDeclaration.objects.order_by("id")),
        Prefetch("aspects", queryset=Aspect.objects.order_by("id"))))
    actions = list(ExtendedAction.objects.filter(campaign=campaign).order_by("id"))
    rolls = list(Roll.objects.filter(campaign=campaign).order_by("id").select_related("voided_by"))
    changes = ResourceChange.objects.filter(campaign=campaign).order_by("id")
    resources = games.get(campaign.game).resources

    places: dict[str, dict[int, Any]] = {
        "characters": _positions(characters), "stories": _positions(stories), "episodes": _positions(episodes),
        "scenes": _positions(scenes), "extended_actions": _positions(actions), "rolls": _positions(rolls),
        # A trait named outside its character's sheet (an extended action's) by its place, as an aspect.
        "traits": {t.pk: f"characters[{i}].traits[{k}]" for i, c in enumerate(characters) for k, t in enumerate(c.traits.all())},
        "aspects": {
            **{a.pk: f"characters[{i}].aspects[{k}]" for i, c in enumerate(characters) for k, a in enumerate(_own(c))},
            **{a.pk: f"scenes[{j}].aspects[{k}]" for j, s in enumerate(scenes) for k, a in enumerate(s.aspects.all())},
        },
    }

    def at(table: str, pk: int | None) -> Any:
        return places[table].get(pk) if pk is not None else None

    def character(row: Character) -> dict[str, Any]:
        mine = {**places, "traits": _positions(row.traits.all())}  # a saved roll names its character's own traits
        return {**export_character(row, places["characters"]),
                "saved_rolls": [_exported_json(_values(s, SAVED_ROLL_FIELDS), SAVED_ROLL_JSON_REFS, mine)
                                for s in row.saved_rolls.all()]}

    def scene(row: Scene) -> dict[str, Any]:
        return {
            "episode": at("episodes", row.episode_id), **_values(row, SCENE_FIELDS),
            "participants": [{"character": at("characters", p.character_id), **_values(p, PARTICIPANT_FIELDS)}
                             for p in row.participants.all()],
            "declarations": [{"character": at("characters", d.character_id), **_values(d, DECLARATION_FIELDS)}
                             for d in row.declarations.all()],
            "aspects": [{"character": at("characters", a.character_id), **_values(a, ASPECT_FIELDS)}
                        for a in row.aspects.all()],
        }

    def roll(row: Roll) -> dict[str, Any]:
        return {
            "character": at("characters", row.character_id), "parent": at("rolls", row.parent_id),
            "scene": at("scenes", row.scene_id), "extended": at("extended_actions", row.extended_id),
            "voided_by": row.voided_by.get_username() if row.voided_by is not None else None,
            **_exported_json(_values(row, ROLL_FIELDS), ROLL_JSON_REFS, places),
        }

    return {
        "format": FORMAT,
        "version": VERSION,
        "campaign": {**_values(campaign, CAMPAIGN_FIELDS), **_public(games.get(campaign.game).state, campaign.state)},
        "characters": [character(row) for row in characters],
        "stories": [_values(row, STORY_FIELDS) for row in stories],
        "episodes": [{"story": at("stories", row.story_id), **_values(row, EPISODE_FIELDS)} for row in episodes],
        "scenes": [scene(row) for row in scenes],
        "extended_actions": [{"scene": at("scenes", row.scene_id), "character": at("characters", row.character_id),
                              "first": at("traits", row.first_id), "second": at("traits", row.second_id),
                              **_values(row, EXTENDED_FIELDS)} for row in actions],
        "rolls": [roll(row) for row in rolls],
        "resource_changes": [{"character": at("characters", row.character_id), **_values(row, RESOURCE_CHANGE_FIELDS),
                              **{side: _public_keys(resources, getattr(row, side), places["characters"])
                                 for side in ("before", "after")}}
                             for row in changes],
    }


def export_character(character: Character, characters: dict[int, int] | None = None) -> dict[str, Any]:
    """A character's row, resources, traits and own aspects, as the file writes them. ``characters``:
    the places of the file's characters, which its resources may name (none: a character alone)."""
    return {
        **_values(character, CHARACTER_FIELDS),
        "resources": _public(games.get(character.game).resources, character.resources, characters),
        "traits": [_values(trait, TRAIT_FIELDS) for trait in character.traits.all()],
        "aspects": [_values(aspect, ASPECT_FIELDS) for aspect in _own(character)],
    }


def _public(columns: Columns, row: models.Model | None, characters: dict[int, int] | None = None) -> dict[str, Any]:
    """A row of a game's table (a character's resources, a campaign's state) as the file writes it
    (``_public_keys``)."""
    if row is None:
        return {}
    return _public_keys(columns, {row._meta.get_field(name).attname: row.serializable_value(name) for name in columns.fields},
                        characters or {})


def _public_keys(columns: Columns, values: dict[str, Any], characters: dict[int, int]) -> dict[str, Any]:
    """A row's columns (a one-click change's ``before`` and ``after`` too) by their public names; a
    link to another character, kept by its id (``consequence_mild_free_for_id``), by its place in the
    file's characters (null: not in it)."""
    return {columns.public(columns.links.get(name, name)): characters.get(value) if name in columns.links else value
            for name, value in values.items()}


def _own(character: Character) -> list[Aspect]:
    # A character's own aspects: those a scene put on it are the scene's (they end with it).
    return [aspect for aspect in character.aspects.all() if aspect.scene_id is None]


def _positions(rows: Sequence[models.Model]) -> dict[int, int]:
    return {row.pk: position for position, row in enumerate(rows)}


def _values(instance: models.Model, fields: tuple[str, ...]) -> dict[str, Any]:
    values = {field: getattr(instance, field) for field in fields}
    return {field: value.isoformat() if isinstance(value, datetime) else value for field, value in values.items()}


def _exported_json(values: dict[str, Any], refs: tuple, places: dict[str, dict[int, Any]]) -> dict[str, Any]:
    """The ids inside the row's JSON columns as the file names those rows (null: a row gone since;
    None and "", no row chosen, as they are)."""
    for path, table in refs:
        values = _rewritten(values, path, lambda old, table=table: old if old in (None, "")
                            else places[table].get(_as_id(old)))
    return values


def _as_id(value: Any) -> int | None:
    if type(value) is int:
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return int(value)
    return None


def _rewritten(value: Any, path: tuple[str, ...], change: Callable[[Any], Any]) -> Any:
    """``value`` with what is at ``path`` changed (copied along the path); a path not there is left."""
    if not path:
        return change(value)
    step, rest = path[0], path[1:]
    if step == "*":
        return [_rewritten(item, rest, change) for item in value] if isinstance(value, list) else value
    if isinstance(value, dict) and step in value:
        return {**value, step: _rewritten(value[step], rest, change)}
    return value


def dumps(document: dict[str, Any]) -> str:
    """The document as text: one line per row of each table (a roll's thrown faces do not take a line
    each, so a long log stays a few MB), the whole still plain JSON."""
    parts = []
    for key, value in document.items():
        if isinstance(value, list) and value:
            rows = ",\n".join(f"  {_compact(row)}" for row in value)
            parts.append(f"{json.dumps(key)}: [\n{rows}\n]")
        else:
            parts.append(f"{json.dumps(key)}: {_compact(value)}")
    return "{" + ",\n".join(parts) + "}\n"


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


# --- reading a file --------------------------------------------------------------------------------


def loads(text: str | bytes) -> Any:
    """The document in ``text``, or a BackupError that says, in the reader's language, why not."""
    if len(text) > MAX_BYTES:
        raise BackupError(_too_large())
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:  # where, in the reader's language (Python's own words are English)
        raise BackupError(_("The file is not valid JSON (line %(line)d, column %(column)d): cut short or not "
                            "written as JSON.") % {"line": error.lineno, "column": error.colno}) from None
    except UnicodeDecodeError:  # an image or a document renamed .json
        raise BackupError(_("The file is not valid JSON: it is not text (an image or a document renamed "
                            ".json?).")) from None
    except RecursionError:  # "[" * 100000: deeper than Python's parser goes, and than any campaign
        raise BackupError(_("The file nests lists or objects too deeply to be a campaign.")) from None
    except ValueError:  # Python refuses integers of more than 4,300 digits
        raise BackupError(_("The file holds a number too long to be a rating or a resource.")) from None
    _check_texts_and_depth(document)
    return document


def read_upload(upload: UploadedFile) -> Any:
    """An uploaded file's document, refused by its size before a byte of it is read into memory."""
    if upload.size is None or upload.size > MAX_BYTES:
        raise BackupError(_too_large())
    return loads(upload.read())


def _too_large() -> str:
    return _("The file is larger than %(limit)s MB: no campaign is that large.") % {"limit": MAX_BYTES // 2**20}


# A UTF-16 surrogate on its own (JSON's "\ud800" escape, or its bytes decoded as JSON allows): half
# of a character, which no database column can store (a UnicodeEncodeError on write: a 500).
_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _check_texts_and_depth(document: Any) -> None:
    """Refuse, naming the place, a file nested deeper than ``MAX_DEPTH`` (each row's checks walk
    their JSON by recursion) or with a lone surrogate in any text, keys included. Walked with a
    stack, not by recursion, so no depth breaks the walk itself."""
    stack: list[tuple[Any, _Place | None, int]] = [(document, None, 0)]
    while stack:
        value, place, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise BackupError(_("%(where)s: lists or objects nested more than %(most)d deep; no campaign file is.")
                              % {"where": _where(place, cut=3), "most": MAX_DEPTH})
        if isinstance(value, dict):
            for key, item in value.items():
                if _LONE_SURROGATE.search(key):
                    raise BackupError(_lone_surrogate(_where(place)))
                stack.append((item, (key, place), depth + 1))
        elif isinstance(value, list):
            stack.extend((item, (index, place), depth + 1) for index, item in enumerate(value))
        elif isinstance(value, str) and _LONE_SURROGATE.search(value):
            raise BackupError(_lone_surrogate(_where(place)))


type _Place = tuple[str | int, "_Place | None"]  # a step and the place it is taken from


def _where(place: _Place | None, cut: int | None = None) -> str:
    """A place as the error messages write it: "characters[0].traits[2].name"."""
    steps: list[str | int] = []
    while place is not None:
        steps.append(place[0])
        place = place[1]
    steps.reverse()
    text = "".join(f"[{step}]" if isinstance(step, int) else f".{step}" for step in steps[:cut]).lstrip(".")
    return (text or _("file")) + ("…" if cut is not None and len(steps) > cut else "")


def _lone_surrogate(where: str) -> str:
    return _("%(where)s: the text holds half of a character (a lone UTF-16 surrogate such as \\ud800), which cannot "
             "be stored.") % {"where": where}


# --- import ----------------------------------------------------------------------------------------


def import_campaign(document: Any, gm: AbstractBaseUser, name: str = "") -> Campaign:
    """Create a new campaign owned by ``gm`` from an exported document, all or nothing."""
    check_header(document)
    campaign_data = _object(document["campaign"], "campaign")
    game = campaign_data.get("game")
    if game not in {system.id for system in games.systems()}:
        raise BackupError(_("campaign: unknown game %(game)r.") % {"game": game})
    characters = _list(document["characters"], "characters")
    tables = {key: _list(document.get(key, []), key) for key in TABLES}
    _check_counts(characters, tables)
    with _one_transaction():
        state = games.get(game).state
        _reject_unknown(campaign_data, (*CAMPAIGN_FIELDS, *state.public_fields), "campaign")
        campaign = _build(Campaign, {k: v for k, v in campaign_data.items() if k in CAMPAIGN_FIELDS}, CAMPAIGN_FIELDS,
                          "campaign", gm=gm)
        if name:
            campaign.name = name
        _columns_in(state, campaign.state, {k: v for k, v in campaign_data.items() if k in state.public_fields},
                    "campaign")
        try:
            campaign.full_clean()
            if campaign.state is not None:
                campaign.state.full_clean(exclude=["campaign"])
        except ValidationError as error:
            raise BackupError(f"campaign: {bulk.describe(error, _names(state))}") from None
        campaign.save()
        writer = _Writer(campaign)
        writer.characters(list(enumerate(characters)))
        writer.time(tables["stories"], tables["episodes"], tables["scenes"])
        writer.extended_actions(tables["extended_actions"])
        writer.rolls(tables["rolls"])
        writer.resource_changes(tables["resource_changes"])
    return campaign


def add_characters(campaign: Campaign, characters: list[Any], only: set[int] | None = None) -> list[Character]:
    """A file's characters (those at the positions ``only``, else all) added to a campaign with their
    sheets, aspects and saved rolls, all or none: the GM's import, a copy to another campaign. A saved
    roll's teammate left out is left out of it."""
    chosen = [(position, row) for position, row in enumerate(characters) if only is None or position in only]
    _check_counts([row for _position, row in chosen], {})
    with _one_transaction():
        return _Writer(campaign, left_out=set(range(len(characters))) - {p for p, _row in chosen}).characters(chosen)


def characters_of(document: Any) -> tuple[str, list[Any]]:
    """A campaign file's game and its characters (BackupError if it is no campaign file)."""
    check_header(document)
    game = _object(document["campaign"], "campaign").get("game")
    if not isinstance(game, str):
        raise BackupError(_("campaign: unknown game %(game)r.") % {"game": game})
    return game, _list(document["characters"], "characters")


def check_header(document: Any) -> int:
    """The file's version, if it is a campaign file this gmtools reads (else BackupError)."""
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
    if version < 1:
        raise BackupError(_("Unknown file version %(version)d.") % {"version": version})
    _reject_unknown(document, ("format", "version", "campaign", "characters", *(TABLES if version >= 2 else ())), "file")
    for key in ("campaign", "characters"):
        if key not in document:
            raise BackupError(_("file: “%(key)s” is missing.") % {"key": key})
    return version


def _check_counts(characters: list[Any], tables: dict[str, list[Any]]) -> None:
    """Refuse a file with more rows than ``LIMITS`` allow, before any row is looked at closely."""
    def nested(rows: list[Any], key: str) -> int:
        return sum(len(row[key]) for row in rows if isinstance(row, dict) and isinstance(row.get(key), list))

    scenes = tables.get("scenes", [])
    counts = {
        **{key: len(rows) for key, rows in tables.items()},
        "characters": len(characters),
        "traits": nested(characters, "traits"),
        "aspects": nested(characters, "aspects") + nested(scenes, "aspects"),
        "saved_rolls": nested(characters, "saved_rolls"),
        "participants": nested(scenes, "participants"),
        "declarations": nested(scenes, "declarations"),
    }
    for table, count in counts.items():
        if count > LIMITS[table]:
            raise BackupError(_("The file has %(count)s rows of “%(table)s”; an import takes at most %(most)s.")
                              % {"count": f"{count:,}", "table": table, "most": f"{LIMITS[table]:,}"})


@contextmanager
def _one_transaction() -> Iterator[None]:
    """The whole import in one transaction. A row that the checks let through and the database
    refuses (its constraints are the last guard) is a refusal too, with nothing written."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError as error:
        raise BackupError(_("The database refused a row of the file: %(error)s") % {"error": error}) from None


class _Writer:
    """Writes the tables of one file into a campaign, in bulk, table by table: each checked whole
    (``gmtools.bulk``) once the rows it names are written and have their ids."""

    def __init__(self, campaign: Campaign, left_out: set[int] = frozenset()) -> None:
        self.campaign = campaign
        self.game = campaign.game
        self.columns = games.get(self.game).resources
        # The new rows' ids by their place in the file (an aspect's place is its path).
        self.ids: dict[str, dict[Any, int]] = {table: {} for table in ("characters", "traits", "aspects", *TABLES)}
        self.left_out = left_out  # characters of the file not imported (the GM's import of one)
        # The characters each character's resources name (Fate: whose free invocation a consequence
        # is), by their places in the file: set once every character has its id.
        self.linked: dict[str, dict[str, Any]] = {}

    # -- characters, with their sheets, aspects and saved rolls

    def characters(self, rows: list[tuple[int, Any]]) -> list[Character]:
        built: list[tuple[str, Character]] = []
        for position, row in rows:
            where = f"characters[{position}]"
            row = _object(row, where)
            _reject_unknown(row, (*CHARACTER_FIELDS, "resources", "traits", "aspects", "saved_rolls"), where)
            resources = dict(_object(row.get("resources", {}), f"{where}.resources"))
            character = _build(Character, {k: v for k, v in row.items() if k in CHARACTER_FIELDS}, CHARACTER_FIELDS,
                               where, campaign=self.campaign)
            self.linked[where] = {column: resources.pop(self.columns.public(name))
                                  for column, name in self.columns.links.items() if self.columns.public(name) in resources}
            _columns_in(self.columns, character.resources, resources, f"{where}.resources")
            built.append((where, character))
        made = _created(Character, built, exclude=("campaign",))
        self.ids["characters"].update(zip((position for position, _row in rows), (c.pk for c in made), strict=True))

        def each(key: str) -> Iterator[tuple[int, str, Character, Any]]:
            for (position, row), (where, character) in zip(rows, built, strict=True):
                for k, item in enumerate(_list(row.get(key, []), f"{where}.{key}")):
                    yield position, f"{where}.{key}[{k}]", character, _object(item, f"{where}.{key}[{k}]")

        traits = [(position, (place, _build(Trait, item, TRAIT_FIELDS, place, character=character)))
                  for position, place, character, item in each("traits")]
        _created(Trait, [trait for _position, trait in traits], exclude=("character",))
        self.ids["traits"].update((place, trait.pk) for _position, (place, trait) in traits)
        self._resources(built)
        own: dict[int, list[int]] = {position: [] for position, _row in rows}
        for position, (_place, trait) in traits:
            own[position].append(trait.pk)

        aspects = [(place, _build(Aspect, item, ASPECT_FIELDS, place, character=character))
                   for _position, place, character, item in each("aspects")]
        for (place, _aspect), aspect in zip(aspects, _created(Aspect, aspects, exclude=("character",)), strict=True):
            self.ids["aspects"][place] = aspect.pk

        saved = [(place, _build(SavedRoll, self._imported_json(item, SAVED_ROLL_JSON_REFS, place, own[position]),
                                SAVED_ROLL_FIELDS, place, character=character))
                 for position, place, character, item in each("saved_rolls")]
        _created(SavedRoll, saved, exclude=("character",))
        return made

    def _resources(self, built: list[tuple[str, Character]]) -> None:
        """The characters' rows of the game's resources, checked once their traits are written (what
        needs them, Vampire's tracker boxes, reads them back for all the characters in one query)."""
        if self.columns.model is None:
            return
        models.prefetch_related_objects([c for _w, c in built], Prefetch("traits", queryset=Trait.objects.order_by("id")))
        rows = []
        made = {character.pk: character for _where, character in built}
        for where, character in built:
            row = character.resources
            row.character = character  # saved now: its id
            for column, place in self.linked[where].items():
                name = self.columns.links[column]
                # The row itself, as the model's clean() reads it (its campaign) without a query.
                setattr(row, name, made.get(self._character(place, self.columns.public(name), f"{where}.resources")))
            rows.append((where, row))
        _created(self.columns.model, rows, exclude=("character", *self.columns.links.values()), names=_names(self.columns))

    # -- stories, episodes and scenes (with who is in each, the turns declared, the scene's aspects)

    def time(self, stories: list[Any], episodes: list[Any], scenes: list[Any]) -> None:
        self._rows("stories", Story, STORY_FIELDS, stories, {}, campaign=self.campaign)
        self._rows("episodes", Episode, EPISODE_FIELDS, episodes, {"story": ("stories", True)})
        nested = {"participants": (SceneParticipant, PARTICIPANT_FIELDS, True),
                  "declarations": (TurnDeclaration, DECLARATION_FIELDS, True),
                  "aspects": (Aspect, ASPECT_FIELDS, False)}  # the model, its fields, whether it names a character
        scenes = [_object(row, f"scenes[{i}]") for i, row in enumerate(scenes)]
        made = self._rows("scenes", Scene, SCENE_FIELDS, [{k: v for k, v in row.items() if k not in nested}
                                                          for row in scenes], {"episode": ("episodes", True)})
        for key, (model, fields, required) in nested.items():
            built = [self._built(model, fields, f"scenes[{i}].{key}[{k}]", item, {"character": ("characters", required)},
                                 scene=scene)
                     for i, (row, scene) in enumerate(zip(scenes, made, strict=True))
                     for k, item in enumerate(_list(row.get(key, []), f"scenes[{i}].{key}"))]
            written = _created(model, built, exclude=("scene", "character"))
            if model is Aspect:
                self.ids["aspects"].update(zip((place for place, _row in built), (row.pk for row in written), strict=True))

    # -- extended actions, the log, the one-click changes

    def extended_actions(self, rows: list[Any]) -> None:
        self._rows("extended_actions", ExtendedAction, EXTENDED_FIELDS, rows,
                   {"scene": ("scenes", False), "character": ("characters", False), "first": ("traits", False),
                    "second": ("traits", False)}, campaign=self.campaign)

    def rolls(self, rows: list[Any]) -> None:
        voiders = self._users(rows)
        built: list[tuple[str, Roll]] = []
        for i, row in enumerate(rows):
            where = f"rolls[{i}]"
            row = self._imported_json(dict(_object(row, where)), ROLL_JSON_REFS, where)
            parent, voided_by = row.pop("parent", None), row.pop("voided_by", None)
            if parent is not None and not (type(parent) is int and 0 <= parent < i):
                raise BackupError(_("%(where)s: parent must be the position of an earlier roll.") % {"where": where})
            if voided_by is not None and not isinstance(voided_by, str):
                raise BackupError(_("%(where)s: voided_by must be a username or null.") % {"where": where})
            where, roll = self._built(Roll, ROLL_FIELDS, where, row, {
                "character": ("characters", False), "scene": ("scenes", False), "extended": ("extended_actions", False),
            }, campaign=self.campaign, voided_by_id=voiders.get(voided_by))
            if not self.campaign.plays(roll.system):
                raise BackupError(_("%(where)s: system: a roll of another game than the campaign's.") % {"where": where})
            _check_roll_json(roll, where)
            if parent is not None:
                roll.parent = built[parent][1]  # checked by identity (one follow-up of each kind), written after it
            built.append((where, roll))
        made = _created(Roll, built, exclude=("campaign", "character", "scene", "extended", "voided_by", "parent"),
                        then=("parent",))
        self.ids["rolls"].update(enumerate(roll.pk for roll in made))

    def resource_changes(self, rows: list[Any]) -> None:
        columns = self.columns
        stored = []
        for i, row in enumerate(rows):
            if isinstance(row, dict):
                row = dict(row)
                for side in ("before", "after"):
                    # The Undo writes them back onto the character: only its game's columns, each of its type.
                    where = f"resource_changes[{i}].{side}"
                    values = _object(row.get(side, {}), where)
                    _reject_unknown(values, tuple(columns.public_fields), where)
                    # A link to another character (kept by its id's column) by its place in the file.
                    links = {name: column for column, name in columns.links.items()}
                    row[side] = {}
                    for key, value in values.items():
                        name = columns.public_fields[key]
                        row[side][links.get(name, name)] = (
                            self._character(value, key, where) if name in links
                            else _typed(columns.model, name, value, where, shown=key))
            stored.append(row)
        self._rows("resource_changes", ResourceChange, RESOURCE_CHANGE_FIELDS, stored,
                   {"character": ("characters", True)}, campaign=self.campaign)

    # -- what every table does

    def _rows[M: models.Model](self, table: str, model: type[M], fields: tuple[str, ...], rows: list[Any],
                               links: dict[str, tuple[str, bool]], **extra: Any) -> list[M]:
        """A flat table of the file written: each row's links to others turned into their new ids."""
        built = [self._built(model, fields, f"{table}[{i}]", row, links, **extra) for i, row in enumerate(rows)]
        made = _created(model, built, exclude=(*links, *extra))
        self.ids[table].update(enumerate(row.pk for row in made))
        return made

    def _built[M: models.Model](self, model: type[M], fields: tuple[str, ...], where: str, row: Any,
                                links: dict[str, tuple[str, bool]], **extra: Any) -> tuple[str, M]:
        """One row: ``links`` are its keys naming another row (its table, and whether one is required)."""
        row = dict(_object(row, where))
        for key, (table, required) in links.items():
            extra[f"{key}_id"] = self._ref(row.pop(key, None), key, table, where, required)
        return where, _build(model, row, fields, where, **extra)

    def _character(self, position: Any, key: str, where: str) -> int | None:
        """The new id of a character a game's column names (None: nobody, or one not imported)."""
        if type(position) is int and position in self.left_out:
            return None
        return self._ref(position, key, "characters", where, required=False)

    def _ref(self, position: Any, key: str, table: str, where: str, required: bool) -> int | None:
        """The new id of the row of ``table`` at ``position`` in the file."""
        if position is None and not required:
            return None
        if type(position) not in (int, str) or position not in self.ids[table]:  # a trait's place is its path
            raise BackupError(_("%(where)s: %(key)s must be the position of a row of “%(table)s” in the file.")
                              % {"where": where, "key": key, "table": table})
        return self.ids[table][position]

    def _imported_json(self, row: dict[str, Any], refs: tuple, where: str, traits: list[int] = ()) -> dict[str, Any]:
        """The row with the places its JSON columns name turned into the new rows' ids (as text in a
        saved roll's fields, which keep the composer's fields as submitted)."""
        as_text = refs is SAVED_ROLL_JSON_REFS
        for path, table in refs:
            ids = dict(enumerate(traits)) if table == "traits" else self.ids[table]

            def new_id(place: Any, ids=ids, path=path, table=table) -> Any:
                if place is None or place == "":
                    return place
                # A place is a position, or an aspect's path: a list or an object is no key (a TypeError).
                known = type(place) in (int, str) and place in ids
                if table == "characters" and type(place) is int and place in self.left_out:
                    return None
                if not known:
                    raise BackupError(_("%(where)s: %(path)s must name a row of “%(table)s” in the file.")
                                      % {"where": where, "path": ".".join(path), "table": table})
                return str(ids[place]) if as_text else ids[place]

            row = _rewritten(row, path, new_id)
        return row

    def _users(self, rows: list[Any]) -> dict[str, int]:
        """Who voided the rolls, by username: those this server has (one query)."""
        names = [name for row in rows if isinstance(row, dict) and isinstance(name := row.get("voided_by"), str)]
        User = get_user_model()
        return dict(User._default_manager.filter(**{f"{User.USERNAME_FIELD}__in": set(names)})
                    .values_list(User.USERNAME_FIELD, "pk"))


def _created[M: models.Model](model: type[M], built: list[tuple[str, M]], exclude: tuple[str, ...],
                              then: tuple[str, ...] = (), names: dict[str, str] | None = None) -> list[M]:
    """The rows checked as ``full_clean()`` would (``gmtools.bulk``), then inserted in one go. Then
    what the insert cannot take is written back: the creation times the file gives (an insert
    stamps ``auto_now_add`` with its own time) and the links ``then`` to rows of the same insert.
    ``names``: the file's names of the columns, for the refusals (a game's public names)."""
    try:
        bulk.validate(built, exclude)
    except bulk.Invalid as refused:
        raise BackupError(f"{refused.where}: {bulk.describe(refused.error, names)}") from None
    rows = [row for _where, row in built]
    stamps = [f.name for f in model._meta.concrete_fields if getattr(f, "auto_now_add", False)]
    later = [{name: getattr(row, name) for name in (*stamps, *then)} for row in rows]
    for row in rows:
        for name in then:
            setattr(row, name, None)
    model.objects.bulk_create(rows)
    written_back = []
    for row, values in zip(rows, later, strict=True):
        given = {name: value for name, value in values.items() if value is not None}
        if given.keys() - set(stamps) or any(getattr(row, name) != value for name, value in given.items()):
            for name, value in given.items():
                setattr(row, name, value)
            written_back.append(row)
    if written_back:
        model.objects.bulk_update(written_back, [*stamps, *then], batch_size=500)
    return rows


def _check_roll_json(roll: Roll, where: str) -> None:
    """What the log's cards read of a roll's JSON without looking: its luck an object (or none), its
    spends objects, its label's parts texts."""
    if not isinstance(roll.luck, dict | None):
        raise BackupError(_("%(where)s: luck must be a JSON object or null.") % {"where": where})
    if not all(isinstance(spend, dict) for spend in roll.spends):
        raise BackupError(_("%(where)s: spends must be a list of objects.") % {"where": where})
    if not all(isinstance(part, str) for part in roll.label_parts):
        raise BackupError(_("%(where)s: label_parts must be a list of texts.") % {"where": where})


def _build[M: models.Model](
    model: type[M], data: dict[str, Any], fields: tuple[str, ...], where: str, **extra: Any
) -> M:
    _reject_unknown(data, fields, where)
    return model(**{name: _typed(model, name, value, where) for name, value in data.items()}, **extra)


def _typed(model: type[models.Model], name: str, value: Any, where: str, shown: str = "") -> Any:
    """The value as the column takes it, or BackupError: Django's validation would turn 3 into "3"
    or {"a": 1} into a string; a file that says either where the other belongs is damaged. ``shown``:
    the column's name in the file, when it is not its own (a game's public name)."""
    shown = shown or name
    if isinstance(value, str) and "\x00" in value:  # PostgreSQL cannot store it; SQLite would keep it
        raise BackupError(f"{where}: {shown}: {ProhibitNullCharactersValidator.message}")
    field = model._meta.get_field(name)
    if value is None and field.null:
        return None
    if isinstance(field, models.DateTimeField):
        moment = parse_datetime(value) if isinstance(value, str) else None
        if moment is None or moment.tzinfo is None:
            raise BackupError(_("%(where)s: %(field)s must be a date and time with its offset (ISO 8601).")
                              % {"where": where, "field": shown})
        return moment
    expected = _json_type(field)
    # bool is an int in Python but not in JSON.
    if expected is not None and not (isinstance(value, expected) and isinstance(value, bool) == (expected is bool)):
        raise BackupError(
            _("%(where)s: %(field)s must be a JSON %(type)s.")
            % {"where": where, "field": shown, "type": _JSON_TYPE_NAMES[expected]}
        )
    return value


_JSON_TYPE_NAMES = {bool: "boolean", int: "integer", str: "string", dict: "object", list: "list"}


def _json_type(field: models.Field) -> type | None:
    if isinstance(field, models.BooleanField):
        return bool
    if isinstance(field, models.IntegerField):
        return int
    if isinstance(field, models.CharField | models.TextField):
        return str
    if isinstance(field, models.JSONField) and isinstance(field.get_default(), dict | list):
        return type(field.get_default())  # a column whose default is an object (or a list) holds one
    return None  # a JSON column without one holds any JSON; the model's clean() checks its shape


def _columns_in(columns: Columns, row: models.Model | None, data: dict[str, Any], where: str) -> None:
    """The file's values of a game's columns (by their public names) set on its row, each of its type."""
    _reject_unknown(data, tuple(columns.public_fields), where)
    for key, value in data.items():
        name = columns.public_fields[key]
        setattr(row, name, _typed(columns.model, name, value, where, shown=key))


def _names(columns: Columns) -> dict[str, str]:
    """A game's columns' public names, for a refusal that names one."""
    return {name: columns.public(name) for name in columns.fields}


def _reject_unknown(data: dict[str, Any], allowed: tuple[str, ...], where: str) -> None:
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise BackupError(_("%(where)s: unknown keys %(keys)s.") % {"where": where, "keys": ", ".join(unknown)})


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BackupError(_("%(where)s: expected an object.") % {"where": where})
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise BackupError(_("%(where)s: expected a list.") % {"where": where})
    return value
