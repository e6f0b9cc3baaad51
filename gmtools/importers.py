"""Characters from other tools: a file another tool wrote, read as gmtools' own character rows.

An uploaded JSON document is recognised (``read``) as one of:

- a gmtools campaign file (``gmtools.backup``: its rows as they are, nothing left out);
- a Foundry VTT actor of the World of Darkness 5e system (``vtm5e``/``wod5e``: a vampire, ghoul or
  mortal), of Exalted Second Edition (``exalted2e``) or of Fate Core Official
  (``fate-core-official``), the JSON that Foundry's "Export Data" writes;
- a Progeny (the V5 character creator) JSON export.

Each reader turns the file into the campaign file's character rows (``backup`` module docstring:
name, kind, concept, notes, resources by their public names, traits by category and standard key or
name) and counts what it could not map (``Reading.left_out``: discipline powers, rituals, weapons, a
Fate skill that is no approach, ...), which the GM reads before saving. The rows then go through the
one import path there is, ``backup.add_characters``: its strict checks and its one transaction. The
preview runs that path too, in a transaction rolled back (``check``), so a file the import would
refuse is refused before the GM confirms, with nothing written; the confirmation carries the rows
in a signed field (``sign``/``unsign``: django.core.signing, no file kept on the server).

A reader is strict about types (a rating must be a whole number, a name a text: else a message
naming the place in the file) and leaves the bounds to the models' own checks; an error the checks
find names the place in the other tool's file (``Reading.places``), not the rows made from it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.core import signing
from django.core.exceptions import SuspiciousOperation
from django.db import transaction
from django.db.models import Max
from django.utils.html import strip_tags
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from gmtools import backup, games
from gmtools.games.base.sheets import CATEGORY_PLURALS
from gmtools.models import Campaign, game_choices
from gmtools.sheets import TraitCategory as C
from gmtools.sheets import known_name, rating_bounds

# How long a preview may wait for the GM's confirmation (a file read, a coffee, a question).
CONFIRM_MAX_AGE = 3600
SALT = "gmtools.importers.preview"
# The largest preview signed into the page: the confirmation posts it back as a form field, which
# Django reads up to DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB). A character of another tool is a few kB;
# only pages of notes reach this, and they are refused, not cut.
MAX_SIGNED = 1_000_000
# A number in a character's file: any rating or resource is far below (the models bound each).
MAX_NUMBER = 10_000

SOURCES = {
    "gmtools": "gmtools",
    "wod5e": "Foundry VTT · World of Darkness 5e",
    "progeny": "Progeny",
    "exalted2e": "Foundry VTT · Exalted Second Edition",
    "fco": "Foundry VTT · Fate Core Official",
}


def _left_out_words() -> dict[str, Callable[[int], str]]:
    """What a reader leaves out, each said with its count, in the active language."""
    return {
        "powers": lambda n: ngettext("%(count)d discipline power", "%(count)d discipline powers", n),
        "rituals": lambda n: ngettext("%(count)d ritual", "%(count)d rituals", n),
        "items": lambda n: ngettext("%(count)d item (weapon, gear, …)", "%(count)d items (weapons, gear, …)", n),
        "touchstones": lambda n: ngettext("%(count)d touchstone", "%(count)d touchstones", n),
        "charms": lambda n: ngettext("%(count)d charm or spell", "%(count)d charms or spells", n),
        "skills": lambda n: ngettext("%(count)d skill that is no approach", "%(count)d skills that are no approach", n),
        "tracks": lambda n: ngettext("%(count)d stress or consequence track", "%(count)d stress or consequence tracks", n),
        "disciplines": lambda n: ngettext("%(count)d discipline gmtools does not rate",
                                          "%(count)d disciplines gmtools does not rate", n),
        # A state the sheet has no place for, said with its amount: a wound must not vanish without a word.
        "damage": lambda n: ngettext("%(count)d level of damage (the sheet has no health track)",
                                     "%(count)d levels of damage (the sheet has no health track)", n),
        "peripheral": lambda n: ngettext("%(count)d peripheral mote", "%(count)d peripheral motes", n),
        "experience": lambda n: ngettext("%(count)d experience point", "%(count)d experience points", n),
        "stains": lambda n: ngettext("%(count)d Humanity stain", "%(count)d Humanity stains", n),
    }


class _LeftOut(Counter[str]):
    """What a reader leaves out: a count (or an amount) by kind, and the names it can say of them
    ("1 skill that is no approach (Pilot 2)": a count alone left the GM guessing which)."""

    def __init__(self) -> None:
        super().__init__()
        self.names: dict[str, list[str]] = {}

    def leave(self, kind: str, name: str) -> None:
        self[kind] += 1
        if name := name.strip():
            self.names.setdefault(kind, []).append(name)


# How many names the "not imported" line says of one kind before "…".
NAMES_SAID = 5


def _unplaced(left_out: _LeftOut, kind: str, container: dict[str, Any], key: str, where: str) -> None:
    """Count an amount of the file (damage, experience, ...) that no column of the sheet holds."""
    if (value := container.get(key)) is not None:
        left_out[kind] += _number(value, where)


@dataclass
class Reading:
    """A file read as gmtools' rows: which tool wrote it, the game, the characters, what is left out."""

    source: str
    game: str
    characters: list[dict[str, Any]]
    left_out: dict[str, int] = field(default_factory=dict)
    left_out_names: dict[str, list[str]] = field(default_factory=dict)  # the names said of each kind
    # The place in the other tool's file each row was made from ("characters[0].traits[3]" ->
    # "system.attributes.strength"), so that an error of the checks names what the GM can find.
    places: dict[str, str] = field(default_factory=dict)
    # A preview's: the campaign's last character when it was made. Its confirmation refuses when one of
    # its names has joined the table since (the same preview confirmed twice: a retry, a second tab).
    after: int | None = None

    @property
    def names(self) -> list[str]:
        return [str(row.get("name", "")) for row in self.characters if isinstance(row, dict)]

    def twins(self, campaign: Campaign) -> list[str]:
        """The names of this file's characters that the campaign has already (one made since the
        preview, when it is a preview's)."""
        return sorted(set(campaign.characters.filter(name__in=self.names, pk__gt=self.after or 0)
                          .values_list("name", flat=True)))

    @property
    def source_label(self) -> str:
        return SOURCES[self.source]

    @property
    def left_out_text(self) -> str:
        """ "3 discipline powers: Blink, Prowess, Fleetness; 1 ritual" (empty: nothing left out)."""
        words = _left_out_words()
        said = []
        for kind, count in self.left_out.items():
            if count:
                names = self.left_out_names.get(kind, [])
                listed = ", ".join(names[:NAMES_SAID]) + (", …" if len(names) > NAMES_SAID else "")
                said.append(words[kind](count) % {"count": count} + (f": {listed}" if names else ""))
        return "; ".join(said)

    def shown(self) -> list[dict[str, Any]]:
        """Each character as the preview shows it: its traits rated (by category, the book's order
        first), its resources and aspects, in the active language."""
        system = games.get(self.game)
        columns = system.resources
        shown = []
        for row in self.characters:
            groups: dict[str, list[str]] = {}
            for trait in row.get("traits", []):
                if not trait["rating"] and trait.get("key"):
                    continue  # the sheet's untrained skills: every character has them
                label = (system.standard_traits[trait["key"]].label if trait.get("key")
                         else known_name(self.game, trait["name"]))
                specialties = f" ({trait['specialties']})" if trait.get("specialties") else ""
                groups.setdefault(trait["category"], []).append(f"{label} {trait['rating']}{specialties}")
            resources = []
            order = {columns.public(name): n for n, name in enumerate(columns.fields)}  # the sheet's order
            for public, value in sorted(row.get("resources", {}).items(), key=lambda item: order[item[0]]):
                if value is False or value == "":
                    continue  # a box not marked, a consequence not taken
                value = "✓" if value is True else value
                model_field = columns.model._meta.get_field(columns.public_fields[public])
                shown_value = dict(model_field.choices).get(value, value) if model_field.choices else value
                resources.append(f"{capfirst(model_field.verbose_name)} {shown_value}")
            shown.append({"name": row["name"], "concept": row.get("concept", ""), "player": row.get("player", ""),
                          "notes": row.get("notes", ""),
                          "groups": [(CATEGORY_PLURALS.get(category, category), ", ".join(items))
                                     for category, items in groups.items()],
                          "resources": " · ".join(resources),
                          "aspects": [aspect["text"] for aspect in row.get("aspects", [])]})
        return shown

    def only(self, name: str) -> Reading:
        """The characters named ``name`` (any case) alone; all of them when ``name`` is empty."""
        if not name:
            return self
        kept = [row for row in self.characters
                if isinstance(row, dict) and str(row.get("name", "")).casefold() == name.casefold()]
        if not kept:
            raise backup.BackupError(_("The file has no character named “%(name)s”.") % {"name": name})
        return Reading(self.source, self.game, kept, self.left_out, self.left_out_names,
                       self.places if len(kept) == len(self.characters) else {})


def read(document: Any) -> Reading:
    """The file's characters as gmtools rows (BackupError, saying why, if it is no file gmtools reads)."""
    if isinstance(document, dict) and document.get("format") == backup.FORMAT:
        game, rows = backup.characters_of(document)
        return Reading("gmtools", game, rows)
    if not isinstance(document, dict):
        raise backup.BackupError(_unknown())
    system = _foundry_system(document)
    if system is not None:
        reader = FOUNDRY_READERS.get(system)
        if reader is None:
            raise backup.BackupError(
                _("This is a Foundry VTT actor of the “%(system)s” system; gmtools reads actors of World of "
                  "Darkness 5e, Exalted Second Edition and Fate Core Official.") % {"system": system})
        return reader(document)
    if _is_progeny(document):
        return _progeny(document)
    raise backup.BackupError(_unknown())


def _unknown() -> str:
    return _("This is not a gmtools campaign file. Nor is it a character of another tool that gmtools reads: a Foundry "
             "VTT actor (World of Darkness 5e, Exalted Second Edition, Fate Core Official) or a Progeny export.")


def refuse_other_game(campaign: Campaign, reading: Reading) -> None:
    """A character of another game than the campaign's is refused, naming both."""
    if not campaign.plays(reading.game):
        names = dict(game_choices())
        raise backup.BackupError(_("This file holds a character of another game (%(file)s); this campaign plays %(campaign)s.")
                                 % {"file": names.get(reading.game, reading.game), "campaign": names[campaign.game]})


class _Checked(Exception):
    """Raised inside the preview's transaction to roll back what the checks wrote."""


def check(campaign: Campaign, reading: Reading) -> None:
    """Run the import's own checks and writes on the rows, then roll them back: the preview refuses
    what the confirmation would, and writes nothing."""
    refuse_other_game(campaign, reading)
    if not reading.characters:
        raise backup.BackupError(_("The file has no characters."))
    try:
        with transaction.atomic():
            backup.add_characters(campaign, reading.characters)
            raise _Checked
    except _Checked:
        return
    except backup.BackupError as error:
        raise backup.BackupError(_named_in_file(str(error), reading.places)) from None


def _named_in_file(message: str, places: dict[str, str]) -> str:
    """An error of the checks with the row it names replaced by its place in the other tool's file."""
    for row in sorted(places, key=len, reverse=True):
        if message.startswith(row):
            return places[row] + message[len(row):]
    return message


def sign(campaign: Campaign, reading: Reading) -> str:
    """The preview's rows, signed for the confirmation to post back (only to this campaign)."""
    after = campaign.characters.aggregate(last=Max("pk"))["last"] or 0
    token = signing.dumps({"campaign": campaign.pk, "source": reading.source, "game": reading.game,
                           "characters": reading.characters, "left_out": reading.left_out,
                           "left_out_names": reading.left_out_names, "after": after},
                          salt=SALT, compress=True)
    if len(token) > MAX_SIGNED:
        raise backup.BackupError(_("The character's notes are too long to import (over %(most)s characters in all).")
                                 % {"most": f"{MAX_SIGNED:,}"})
    return token


def unsign(campaign: Campaign, token: str) -> Reading:
    """The rows a preview signed for this campaign (BackupError if altered, stale or another campaign's)."""
    try:
        data = signing.loads(token, salt=SALT, max_age=CONFIRM_MAX_AGE)
    except signing.SignatureExpired:
        raise backup.BackupError(_("This preview is more than an hour old: upload the file again.")) from None
    except signing.BadSignature:
        raise backup.BackupError(_("This preview was not made here or was altered: upload the file again.")) from None
    if not isinstance(data, dict) or data.get("campaign") != campaign.pk:
        raise backup.BackupError(_("This preview was made for another campaign: upload the file again."))
    return Reading(data["source"], data["game"], data["characters"], data["left_out"], data["left_out_names"],
                   after=data["after"])


# --- reading values by type -------------------------------------------------------------------------


def _object(value: Any, where: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise backup.BackupError(_("%(where)s: must be an object.") % {"where": where})
    return value


def _list(value: Any, where: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise backup.BackupError(_("%(where)s: must be a list.") % {"where": where})
    return value


def _number(value: Any, where: str, default: int = 0) -> int:
    """A whole number (JavaScript writes 3 or 3.0 alike); a fraction, an infinity, a text are refused."""
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise backup.BackupError(_("%(where)s: must be a number.") % {"where": where})
    if isinstance(value, float):
        if not value.is_integer():
            raise backup.BackupError(_("%(where)s: must be a whole number.") % {"where": where})
        value = int(value)
    if abs(value) > MAX_NUMBER:
        raise backup.BackupError(_("%(where)s: %(value)s is too large to be a rating or a resource.")
                                 % {"where": where, "value": value})
    return value


def _text(value: Any, where: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise backup.BackupError(_("%(where)s: must be a text.") % {"where": where})
    return value


def _plain(value: Any, where: str) -> str:
    """A Foundry HTML field as plain text (notes are text in gmtools). Django's strip_tags refuses
    markup nested past its depth (SuspiciousOperation, a 400): a refusal naming the place instead."""
    html = _text(value, where)
    try:
        text = strip_tags(html.replace("</p>", "\n\n").replace("<br>", "\n"))
    except SuspiciousOperation:
        raise backup.BackupError(_("%(where)s: the HTML is nested too deeply to be read.") % {"where": where}) from None
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def _squash(name: str) -> str:
    """A trait's name as the tools key it: "Animal Ken", "animalken", "animal_ken", "martialArts" alike."""
    return re.sub(r"[^a-z0-9]", "", name.casefold())


class _Sheet:
    """One character's rows as they are made, with the place in the file each came from."""

    def __init__(self, game: str, name: str, kind: str = "pc") -> None:
        self.game = game
        self.row: dict[str, Any] = {"name": name, "kind": kind, "player": "", "concept": "", "notes": "",
                                    "resources": {}, "traits": []}
        self.places: dict[str, str] = {"characters[0].name": "name"}
        self.standard = {_squash(t.key): t for t in games.get(game).standard_sheet}
        self.rated: dict[str, tuple[int, str, str]] = {}  # standard key -> rating, specialties, place
        self.names: set[str] = set()

    def standard_trait(self, name: str, rating: int, place: str, specialties: str = "") -> bool:
        """Rate the game's standard trait called ``name`` (False: the game has none so called)."""
        trait = self.standard.get(_squash(name))
        if trait is None:
            return False
        self.rated[trait.key] = (rating, specialties, place)
        return True

    def custom(self, category: str, name: str, rating: int, place: str) -> None:
        """A trait added by hand (a Discipline, a merit); a second of one name is numbered, as the sheet
        refuses two alike."""
        name = name.strip()[:76] or "?"
        unique, n = name, 1
        while unique.casefold() in self.names:
            n += 1
            unique = f"{name} {n}"
        self.names.add(unique.casefold())
        self.row["traits"].append({"category": category, "name": unique, "rating": rating})
        self.places[f"characters[0].traits[{len(self.row['traits']) - 1}]"] = place

    def resource(self, column: str, value: Any, place: str) -> None:
        public = games.get(self.game).resources.public(column)
        self.row["resources"][public] = value
        self.places[f"characters[0]: {public}"] = place  # as the checks name a column of its resources

    def reading(self, source: str, left_out: _LeftOut) -> Reading:
        """The rows: every standard trait of the game first (the file's rating, else the lowest), in
        the book's order, then the ones added by hand."""
        standard = []
        places = {key: value for key, value in self.places.items() if ".traits[" not in key}
        for trait in games.get(self.game).standard_sheet:
            rating, specialties, place = self.rated.get(trait.key, (rating_bounds(self.game, trait.category)[0], "", ""))
            if place:
                places[f"characters[0].traits[{len(standard)}]"] = place
            standard.append({"category": trait.category, "key": trait.key, "rating": rating,
                             "specialties": specialties[:200]})
        for key, place in self.places.items():
            if match := re.fullmatch(r"characters\[0\]\.traits\[(\d+)\]", key):
                places[f"characters[0].traits[{len(standard) + int(match[1])}]"] = place
        row = {**self.row, "traits": standard + self.row["traits"]}
        return Reading(source, self.game, [row], {kind: n for kind, n in left_out.items() if n}, left_out.names, places)


def _name(document: dict[str, Any]) -> str:
    name = _text(document.get("name"), "name").strip()
    if not name:
        raise backup.BackupError(_("name: the character has no name."))
    return name[:120]


def _foundry_system(document: dict[str, Any]) -> str | None:
    """The Foundry system an actor's export names (``_stats.systemId``), else the one its data's shape
    says (an export of an older Foundry has no ``_stats``); None: no Foundry actor."""
    stats = document.get("_stats")
    if isinstance(stats, dict) and isinstance(stats.get("systemId"), str) and "system" in document:
        return stats["systemId"]
    system = document.get("system")
    if not isinstance(system, dict) or not isinstance(document.get("type"), str):
        return None
    if "hunger" in system or document["type"] in WOD5E_NATURES:
        return "wod5e"
    if "virtues" in system and "abilities" in system:
        return "exalted2e"
    if isinstance(system.get("details"), dict) and "fatePoints" in system["details"]:
        return "fate-core-official"
    return None


# --- Foundry VTT: World of Darkness 5e (github.com/WoD5E-Developers/wod5e) --------------------------

# The actor types gmtools plays, and what each is; a Hunter or Werewolf is another game, and an SPC
# (a storyteller character) a sheet of dice pools, no Attributes or Skills to rate.
WOD5E_NATURES = {"vampire": "vampire", "ghoul": "ghoul", "mortal": "mortal"}
# The system's discipline keys that are V5's Disciplines, by the name gmtools' sheet knows (KNOWN_NAMES).
WOD5E_DISCIPLINES = {
    "animalism": "Animalism", "auspex": "Auspex", "celerity": "Celerity", "dominate": "Dominate",
    "fortitude": "Fortitude", "obfuscate": "Obfuscate", "potence": "Potence", "presence": "Presence",
    "protean": "Protean", "sorcery": "Blood Sorcery", "oblivion": "Oblivion", "alchemy": "Thin-blood Alchemy",
}
WOD5E_FEATURES = {"merit": C.MERIT, "flaw": C.FLAW, "background": C.BACKGROUND}


def _wod5e(document: dict[str, Any]) -> Reading:
    kind = _text(document.get("type"), "type")
    if kind not in WOD5E_NATURES:
        raise backup.BackupError(_("This World of Darkness 5e actor is a “%(type)s”; gmtools plays Vampire: its "
                                   "vampires, ghouls and mortals.") % {"type": kind})
    system = _object(document.get("system"), "system")
    sheet = _Sheet("v5", _name(document))
    left_out = _LeftOut()
    for group in ("attributes", "skills"):
        for key, value in _object(system.get(group), f"system.{group}").items():
            where = f"system.{group}.{key}"
            value = _object(value, where)
            specialties = [_text(_object(b, f"{where}.bonuses").get("source"), f"{where}.bonuses")
                           for b in _list(value.get("bonuses"), f"{where}.bonuses")]
            sheet.standard_trait(key, _number(value.get("value"), f"{where}.value"), f"{where}.value",
                                 ", ".join(s for s in specialties if s))
    for key, value in _object(system.get("disciplines"), "system.disciplines").items():
        where = f"system.disciplines.{key}"
        rating = _number(_object(value, where).get("value"), f"{where}.value")
        if rating and key in WOD5E_DISCIPLINES:
            sheet.custom(C.DISCIPLINE, WOD5E_DISCIPLINES[key], rating, f"{where}.value")
        elif rating:
            left_out.leave("disciplines" if key not in ("rituals", "ceremonies") else "rituals", capfirst(key))
    notes = []
    for i, item in enumerate(_list(document.get("items"), "items")):
        where = f"items[{i}]"
        item = _object(item, where)
        item_type = _text(item.get("type"), f"{where}.type")
        data = _object(item.get("system"), f"{where}.system")
        name = _text(item.get("name"), f"{where}.name")
        feature = _text(data.get("featuretype"), f"{where}.system.featuretype") if item_type == "feature" else ""
        if feature in WOD5E_FEATURES:
            sheet.custom(WOD5E_FEATURES[feature], name, _number(data.get("points"), f"{where}.system.points"),
                         f"{where}.system.points")
        elif item_type in ("clan", "predatorType", "resonance"):
            notes.append(f"{_item_words()[item_type]}: {name}")
        elif item_type == "power":
            left_out.leave("rituals" if _text(data.get("discipline"), f"{where}.system.discipline")
                           in ("rituals", "ceremonies") else "powers", name)
        else:
            left_out.leave("items", name)
    headers = _object(system.get("headers"), "system.headers")
    sheet.row["concept"] = _text(headers.get("concept"), "system.headers.concept")[:200]
    for key, label in (("sire", _("Sire")), ("generation", _("Generation")), ("ambition", _("Ambition")),
                       ("desire", _("Desire"))):
        if value := _text(headers.get(key), f"system.headers.{key}").strip():
            notes.append(f"{label}: {value}")
    for key in ("biography", "notes"):
        if value := _plain(system.get(key), f"system.{key}"):
            notes.append(value)
    if touchstones := _plain(headers.get("touchstones"), "system.headers.touchstones"):
        notes.append(f"{_('Touchstones')}: {touchstones}")
    bio = _object(system.get("bio"), "system.bio")
    age, dates = _object(bio.get("age"), "system.bio.age"), _object(bio.get("dateof"), "system.bio.dateof")
    for value, label, where in ((age.get("trueage"), _("True age"), "system.bio.age.trueage"),
                                (age.get("apparent"), _("Apparent age"), "system.bio.age.apparent"),
                                (dates.get("birth"), _("Born"), "system.bio.dateof.birth"),
                                (dates.get("death"), _("Died"), "system.bio.dateof.death")):
        said = f"{_number(value, where)}" if isinstance(value, int | float) else _text(value, where)  # "41" or 41
        if said := said.strip():
            notes.append(f"{label}: {said}")
    sheet.row["notes"] = "\n".join(notes)
    _unplaced(left_out, "stains", _object(system.get("humanity"), "system.humanity"), "stains", "system.humanity.stains")
    _unplaced(left_out, "experience", _object(system.get("exp"), "system.exp"), "value", "system.exp.value")
    sheet.resource("nature", WOD5E_NATURES[kind], "type")
    for column, path in (("hunger", ("hunger", "value")), ("humanity", ("humanity", "value")),
                         ("blood_potency", ("blood", "potency")),
                         ("health_superficial", ("health", "superficial")), ("health_aggravated", ("health", "aggravated")),
                         ("willpower_superficial", ("willpower", "superficial")),
                         ("willpower_aggravated", ("willpower", "aggravated"))):
        where = "system." + ".".join(path)
        value = _object(system.get(path[0]), f"system.{path[0]}").get(path[1])
        if column == "hunger" and kind != "vampire":
            sheet.resource(column, 0, "type")  # a ghoul or a mortal has no Hunger (the model refuses one)
        elif value is not None:
            sheet.resource(column, _number(value, where), where)
    return sheet.reading("wod5e", left_out)


def _item_words() -> dict[str, str]:
    return {"clan": _("Clan"), "predatorType": _("Predator type"), "resonance": _("Resonance")}


# --- Progeny, the V5 character creator (github.com/Odin94/Progeny-vtm-v5-character-creator) -----------


V5_BACKGROUNDS = frozenset({"allies", "contacts", "fame", "haven", "herd", "influence", "mask", "resources",
                            "retainers", "status", "mawla"})


def _is_progeny(document: dict[str, Any]) -> bool:
    """Progeny's export: its own version mark, else the shape of its character (attributes as numbers)."""
    version = document.get("version")
    if isinstance(version, str) and version.startswith("progeny"):
        return True
    return all(key in document for key in ("attributes", "skills", "clan", "disciplines", "bloodPotency"))


def _progeny(document: dict[str, Any]) -> Reading:
    sheet = _Sheet("v5", _name(document))
    left_out = _LeftOut()
    specialties: dict[str, list[str]] = {}
    predator = _object(document.get("predatorType"), "predatorType")
    picked = _list(predator.get("pickedSpecialties"), "predatorType.pickedSpecialties")
    for where, items in (("skillSpecialties", _list(document.get("skillSpecialties"), "skillSpecialties")),
                         ("predatorType.pickedSpecialties", picked)):
        for i, item in enumerate(items):
            item = _object(item, f"{where}[{i}]")
            skill, name = _text(item.get("skill"), f"{where}[{i}].skill"), _text(item.get("name"), f"{where}[{i}].name")
            if name.strip():
                specialties.setdefault(_squash(skill), []).append(name.strip())
    for group in ("attributes", "skills"):
        for key, value in _object(document.get(group), group).items():
            sheet.standard_trait(key, _number(value, f"{group}.{key}"), f"{group}.{key}",
                                 ", ".join(specialties.get(_squash(key), [])))
    # Progeny lists the powers taken; a Discipline's rating is its highest power's level, as Progeny counts it.
    ratings: dict[str, tuple[int, str]] = {}
    for i, power in enumerate(_list(document.get("disciplines"), "disciplines")):
        where = f"disciplines[{i}]"
        power = _object(power, where)
        discipline = _text(power.get("discipline"), f"{where}.discipline").strip()
        level = _number(power.get("level"), f"{where}.level")
        if discipline and level >= ratings.get(discipline, (0, ""))[0]:
            ratings[discipline] = (level, f"{where}.level")
        left_out.leave("powers", _text(power.get("name"), f"{where}.name"))
    known = {_squash(name): name for name in WOD5E_DISCIPLINES.values()}  # V5's, as gmtools' sheet names them
    for discipline, (rating, where) in ratings.items():
        sheet.custom(C.DISCIPLINE, known.get(_squash(discipline), discipline), rating, where)
    for group, category in (("merits", C.MERIT), ("flaws", C.FLAW)):
        for i, item in enumerate(_list(document.get(group), group)):
            item = _object(item, f"{group}[{i}]")
            name = _text(item.get("name"), f"{group}[{i}].name")
            # Progeny lists V5's Backgrounds (Haven, Resources, ...) among its merits; the sheet has their category.
            sheet.custom(C.BACKGROUND if category == C.MERIT and name.strip().casefold() in V5_BACKGROUNDS else category,
                         name, _number(item.get("level"), f"{group}[{i}].level"), f"{group}[{i}].level")
    left_out["rituals"] += len(_list(document.get("rituals"), "rituals")) + len(_list(document.get("ceremonies"), "ceremonies"))
    touchstones = [t for i, t in enumerate(_list(document.get("touchstones"), "touchstones"))
                   if _text(_object(t, f"touchstones[{i}]").get("name"), f"touchstones[{i}].name").strip()]
    left_out["touchstones"] += len(touchstones)
    sheet.row["player"] = _text(document.get("player"), "player")[:120]
    clan = _text(document.get("clan"), "clan")
    sheet.row["concept"] = clan[:200]
    notes = [f"{_('Clan')}: {clan}"] if clan else []
    if predator_name := _text(predator.get("name"), "predatorType.name"):
        notes.append(f"{_('Predator type')}: {predator_name}")
    for key, label in (("sire", _("Sire")), ("sect", _("Sect")), ("ambition", _("Ambition")), ("desire", _("Desire"))):
        if value := _text(document.get(key), key).strip():
            notes.append(f"{label}: {value}")
    if generation := _number(document.get("generation"), "generation"):
        notes.append(f"{_('Generation')}: {generation}")
    for key in ("description", "notes"):
        if value := _text(document.get(key), key).strip():
            notes.append(value)
    sheet.row["notes"] = "\n".join(notes)
    sheet.resource("nature", "vampire", "clan")
    for column, key in (("humanity", "humanity"), ("blood_potency", "bloodPotency")):
        if document.get(key) is not None:
            sheet.resource(column, _number(document[key], key), key)
    ephemeral = _object(document.get("ephemeral"), "ephemeral")
    for column, key in (("hunger", "hunger"), ("health_superficial", "superficialDamage"),
                        ("health_aggravated", "aggravatedDamage"),
                        ("willpower_superficial", "superficialWillpowerDamage"),
                        ("willpower_aggravated", "aggravatedWillpowerDamage")):
        if ephemeral.get(key) is not None:
            sheet.resource(column, _number(ephemeral[key], f"ephemeral.{key}"), f"ephemeral.{key}")
    _unplaced(left_out, "stains", ephemeral, "humanityStains", "ephemeral.humanityStains")
    _unplaced(left_out, "experience", document, "experience", "experience")
    return sheet.reading("progeny", left_out)


# --- Foundry VTT: Exalted Second Edition (github.com/Alediran/exalted2e) ------------------------------


def _exalted2e(document: dict[str, Any]) -> Reading:
    system = _object(document.get("system"), "system")
    kind = "npc" if _text(document.get("type"), "type") == "npc" else "pc"
    sheet = _Sheet("exalted", _name(document), kind)
    left_out = _LeftOut()
    for group in ("attributes", "abilities"):
        for key, value in _object(system.get(group), f"system.{group}").items():
            where = f"system.{group}.{key}"
            value = _object(value, where)
            specialties = []
            for i, item in enumerate(_list(value.get("specialties"), f"{where}.specialties")):
                name = item.get("name") if isinstance(item, dict) else item
                specialties.append(_text(name, f"{where}.specialties[{i}]").strip())
            sheet.standard_trait(key, _number(value.get("value"), f"{where}.value"), f"{where}.value",
                                 ", ".join(s for s in specialties if s))
    for i, item in enumerate(_list(document.get("items"), "items")):
        where = f"items[{i}]"
        item = _object(item, where)
        item_type = _text(item.get("type"), f"{where}.type")
        if item_type == "background":
            data = _object(item.get("system"), f"{where}.system")
            sheet.custom(C.BACKGROUND, _text(item.get("name"), f"{where}.name"),
                         _number(data.get("value"), f"{where}.system.value"), f"{where}.system.value")
        elif item_type in ("charm", "spell"):
            left_out.leave("charms", _text(item.get("name"), f"{where}.name"))
        else:
            left_out.leave("items", _text(item.get("name"), f"{where}.name"))
    sheet.row["concept"] = _text(system.get("concept"), "system.concept")[:200]
    notes = []
    if caste := _text(system.get("caste"), "system.caste").strip():
        notes.append(f"{_('Caste')}: {caste}")
    if motivation := _text(system.get("motivation"), "system.motivation").strip():
        notes.append(f"{_('Motivation')}: {motivation}")
    for key in ("biography", "notes"):
        if text := _plain(system.get(key), f"system.{key}"):
            notes.append(text)
    sheet.row["notes"] = "\n".join(notes)
    for column, path in (("essence", ("essence", "value")), ("willpower", ("willpower", "max")),
                         ("willpower_temporary", ("willpower", "value"))):
        value = _object(system.get(path[0]), f"system.{path[0]}").get(path[1])
        if value is not None:
            sheet.resource(column, _number(value, f"system.{'.'.join(path)}"), f"system.{'.'.join(path)}")
    personal = _object(_object(system.get("motes"), "system.motes").get("personal"), "system.motes.personal")
    for column, key in (("motes", "value"), ("motes_max", "max")):
        if personal.get(key) is not None:
            sheet.resource(column, _number(personal[key], f"system.motes.personal.{key}"), f"system.motes.personal.{key}")
    for virtue in ("compassion", "conviction", "temperance", "valor"):
        where = f"system.virtues.{virtue}"
        value = _object(_object(system.get("virtues"), "system.virtues").get(virtue), where).get("value")
        if value is not None:
            sheet.resource(virtue, _number(value, f"{where}.value"), f"{where}.value")
    if system.get("limit") is not None:
        sheet.resource("limit", _number(system["limit"], "system.limit"), "system.limit")
    health = _object(system.get("health"), "system.health")
    for level in ("bashing", "lethal", "aggravated"):
        _unplaced(left_out, "damage", health, level, f"system.health.{level}")
    peripheral = _object(_object(system.get("motes"), "system.motes").get("peripheral"), "system.motes.peripheral")
    _unplaced(left_out, "peripheral", peripheral, "value", "system.motes.peripheral.value")
    _unplaced(left_out, "experience", _object(system.get("experience"), "system.experience"), "value",
              "system.experience.value")
    return sheet.reading("exalted2e", left_out)


# --- Foundry VTT: Fate Core Official (github.com/Sk1mble/fate-core-official) ---------------------------

FATE_ASPECTS = {"high concept": "high_concept", "trouble": "trouble"}


def _fco(document: dict[str, Any]) -> Reading:
    system = _object(document.get("system"), "system")
    sheet = _Sheet("fate", _name(document))
    left_out = _LeftOut()
    for key, skill in _object(system.get("skills"), "system.skills").items():
        where = f"system.skills.{key}"
        skill = _object(skill, where)
        name = _text(skill.get("name"), f"{where}.name") or key
        rank = _number(skill.get("rank"), f"{where}.rank")
        if not sheet.standard_trait(name, rank, f"{where}.rank"):
            left_out.leave("skills", f"{name} {rank}")
    for key, stunt in _object(system.get("stunts"), "system.stunts").items():
        where = f"system.stunts.{key}"
        stunt = _object(stunt, where)
        name = _text(stunt.get("name"), f"{where}.name") or key
        description = _plain(stunt.get("description"), f"{where}.description")
        sheet.custom(C.STUNT, f"{name}: {description}" if description else name,
                     _number(stunt.get("bonus"), f"{where}.bonus"), f"{where}.bonus")
    aspects, seen = [], set()
    for key, aspect in _object(system.get("aspects"), "system.aspects").items():
        where = f"system.aspects.{key}"
        aspect = _object(aspect, where)
        text = _plain(aspect.get("value"), f"{where}.value")
        if not text:
            continue
        kind = FATE_ASPECTS.get(_text(aspect.get("name"), f"{where}.name").strip().casefold(), "other")
        kind = "other" if kind in seen else kind
        seen.add(kind)
        sheet.places[f"characters[0].aspects[{len(aspects)}]"] = f"{where}.value"
        aspects.append({"kind": kind, "text": text[:200]})
    sheet.row["aspects"] = aspects
    _fco_tracks(sheet, _object(system.get("tracks"), "system.tracks"), left_out)
    details = _object(system.get("details"), "system.details")
    points = _object(details.get("fatePoints"), "system.details.fatePoints")
    for column, key in (("points", "current"), ("refresh", "refresh")):
        if points.get(key) is not None:
            sheet.resource(column, _number(points[key], f"system.details.fatePoints.{key}"),
                           f"system.details.fatePoints.{key}")
    notes = []
    if pronouns := _text(_object(details.get("pronouns"), "system.details.pronouns").get("value"),
                         "system.details.pronouns.value").strip():
        notes.append(f"{_('Pronouns')}: {pronouns}")
    for key in ("description", "biography", "notes"):
        value = _object(details.get(key), f"system.details.{key}").get("value")
        if text := _plain(value, f"system.details.{key}.value"):
            notes.append(text)
    sheet.row["notes"] = "\n".join(notes)
    return sheet.reading("fco", left_out)


FATE_SEVERITIES = ("mild", "moderate", "severe")


def _fco_tracks(sheet: _Sheet, tracks: dict[str, Any], left_out: _LeftOut) -> None:
    """Fate Accelerated's three stress boxes from the first stress track, and its mild, moderate and
    severe consequences from the consequence tracks (the aspect the GM named when marked); any
    other track (a second stress track, Fate Core's extra boxes, a custom one) is left out."""
    stress = False
    for key, track in tracks.items():
        where = f"system.tracks.{key}"
        track = _object(track, where)
        name = (_text(track.get("name"), f"{where}.name") or key).casefold()
        severity = next((s for s in FATE_SEVERITIES if s in name), None) if "consequence" in name else None
        if "stress" in name and not stress:
            stress = True
            boxes = _list(track.get("box_values"), f"{where}.box_values")
            for i, marked in enumerate(boxes[:3]):
                if not isinstance(marked, bool):
                    raise backup.BackupError(_("%(where)s: must be true or false.") % {"where": f"{where}.box_values[{i}]"})
                sheet.resource(f"stress_{i + 1}", marked, f"{where}.box_values[{i}]")
            if len(boxes) > 3:  # Fate Core's longer track: its boxes past the third have no place
                left_out.leave("tracks", capfirst(name))
        elif severity is not None:
            aspect = track.get("aspect")
            text = _text(aspect.get("name"), f"{where}.aspect.name") if isinstance(aspect, dict) else ""
            if text.strip():
                sheet.resource(f"consequence_{severity}", _plain(text, f"{where}.aspect.name"), f"{where}.aspect.name")
        else:
            left_out.leave("tracks", capfirst(name))


FOUNDRY_READERS: dict[str, Callable[[dict[str, Any]], Reading]] = {
    "vtm5e": _wod5e, "wod5e": _wod5e, "exalted2e": _exalted2e, "fate-core-official": _fco,
}
