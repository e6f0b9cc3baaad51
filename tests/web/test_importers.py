"""Characters from other tools (gmtools/importers.py, the import panel's preview and confirmation).

Each fixture of tests/web/fixtures/imports/ (their README says where each comes from) is uploaded,
previewed (nothing written, what is not imported listed) and confirmed; the traits and resources
saved are checked against the values the fixture itself holds. A file of another game, of a tool
gmtools does not read, or damaged (not JSON, too large, too deep, wrong types, NUL bytes, huge
numbers, ratings out of range) is refused inline with nothing written; so is a confirmation whose
signed rows were altered, are stale, or were made for another campaign.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from gmtools import backup, games, importers
from gmtools.games.fate.models import Aspect
from gmtools.models import Campaign, Character, Trait
from tests.games import Game

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).parent / "fixtures" / "imports"
WOD5E = "foundry-wod5e-vampire_built-from-WoD5E-Developers-wod5e-data-models.json"
PROGENY = "progeny-v5_built-from-Odin94-Progeny-vtm-v5-character-creator-Character-schema.json"
EXALTED = "foundry-exalted2e_Alediran-exalted2e_src-packs-actors-admiral-tirak.json"
FATE = "foundry-fate-core-official_built-from-Sk1mble-fate-core-official-models.json"
REFUSED = 422


def fixture(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / name).read_text())


def upload(document: Any, name: str = "actor.json") -> SimpleUploadedFile:
    body = document if isinstance(document, bytes) else json.dumps(document).encode()
    return SimpleUploadedFile(name, body, content_type="application/json")


@pytest.fixture
def campaign(gm):
    made = iter(range(1, 100))

    def make(game: str) -> Campaign:
        return Campaign.objects.create(name=f"Table {next(made)}", game=game, gm=gm)
    return make


def url(name: str, campaign: Campaign) -> str:
    return reverse(name, kwargs={"pk": campaign.pk})


def page(response) -> str:
    return unescape(response.content.decode())


def rows(campaign: Campaign) -> tuple:
    """Everything a preview or a refusal must leave as it was."""
    resources = games.get(campaign.game).resources.model
    return (list(Character.objects.filter(campaign=campaign).order_by("pk").values()),
            list(resources.objects.filter(character__campaign=campaign).order_by("pk").values()) if resources else [],
            list(Trait.objects.filter(character__campaign=campaign).order_by("pk").values()),
            list(Aspect.objects.filter(character__campaign=campaign).order_by("pk").values()))


def preview(gm_client, target: Campaign, document: Any) -> str:
    """Upload a file: its preview's page (asserted shown, and nothing written)."""
    before = rows(target)
    response = gm_client.post(url("character-import", target), {"file": upload(document)})
    assert response.status_code == 200, page(response)[:2000]
    assert 'data-testid="import-preview"' in page(response)
    assert rows(target) == before
    return page(response)


def confirm(gm_client, target: Campaign, shown: str) -> Character:
    payload = re.search(r'name="payload" value="([^"]+)"', shown)[1]
    response = gm_client.post(url("character-import-confirm", target), {"payload": payload})
    assert response.status_code == 200, page(response)[:2000]
    return target.characters.get()


def left_out(shown: str) -> str:
    line = re.search(r'data-testid="import-left-out">(.*?)</p>', shown, re.S)[1]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", line)).strip()


def imported(gm_client, campaign, name: str, game: str, not_imported: str) -> tuple[dict, Character, dict]:
    """A fixture previewed (its "not imported" line as expected) then confirmed: the file, the
    character saved, its traits."""
    document = fixture(name)
    target = campaign(game)
    shown = preview(gm_client, target, document)
    assert left_out(shown) == not_imported
    character = confirm(gm_client, target, shown)
    return document, character, ratings(character)


def ratings(character: Character) -> dict[str, tuple[str, int, str]]:
    """Each trait by its standard key or its name: (category, rating, specialties)."""
    return {t.key or t.name: (t.category, t.rating, t.specialties) for t in character.traits.all()}


# --- each tool's file -------------------------------------------------------------------------------


def test_a_foundry_wod5e_vampire_is_previewed_then_imported(gm_client, campaign):
    actor, dana, traits = imported(gm_client, campaign, WOD5E, Game.V5,
                                   "Not imported: 3 discipline powers: Cat's Grace, Fleetness, Lethal Body; "
                                   "1 item (weapon, gear, …): Tire iron; 1 Humanity stain; 3 experience points")
    system = actor["system"]
    assert (system["humanity"]["stains"], system["exp"]["value"]) == (1, 3)  # what the line counts
    assert "True age: 41" in dana.notes and "Died: 2014" in dana.notes
    assert system["attributes"]["strength"]["value"] == 3 and traits["strength"] == ("attribute", 3, "")
    assert system["skills"]["brawl"]["bonuses"][0]["source"] == "Grappling"
    assert traits["brawl"] == ("skill", 3, "Grappling")
    assert system["skills"]["animalken"]["value"] == 0 and traits["animal_ken"] == ("skill", 0, "")
    assert system["disciplines"]["celerity"]["value"] == 2 and traits["Celerity"] == ("discipline", 2, "")
    assert traits["Iron Gullet"] == ("merit", 3, "") and traits["Contacts"] == ("background", 2, "")
    assert traits["Prey Exclusion (Mortals)"] == ("flaw", 1, "")
    v5 = dana.resources
    assert system["hunger"]["value"] == 2 and v5.hunger == 2
    assert (v5.nature, v5.humanity, v5.blood_potency) == ("vampire", 6, 1)
    assert (v5.health_superficial, v5.willpower_superficial) == (1, 2)
    assert dana.concept == "Bouncer who never clocked out"
    assert "Clan: Brujah" in dana.notes and "Owes Old Vic a boon." in dana.notes and "<p>" not in dana.notes


def test_a_foundry_wod5e_ghoul_has_no_hunger(gm_client, campaign):
    target = campaign(Game.V5)
    confirm(gm_client, target, preview(gm_client, target, _set(fixture(WOD5E), "type", "ghoul")))
    resources = target.characters.get().resources
    assert (resources.nature, resources.hunger, resources.humanity) == ("ghoul", 0, 6)  # the file's Hunger 2 unread


def test_a_progeny_export_is_previewed_then_imported(gm_client, campaign):
    document, teodora, traits = imported(gm_client, campaign, PROGENY, Game.V5,
                                         "Not imported: 3 discipline powers: A Taste for Blood, Extinguish Vitae, "
                                         "Cloud Memory; 1 ritual; 1 touchstone")
    assert document["attributes"]["intelligence"] == 4 and traits["intelligence"] == ("attribute", 4, "")
    assert traits["academics"] == ("skill", 3, "History")
    assert traits["etiquette"] == ("skill", 2, "Nightclubs")  # the predator type's specialty
    # A Discipline is rated by its highest power's level (Blood Sorcery: levels 1 and 2).
    assert traits["Blood Sorcery"] == ("discipline", 2, "") and traits["Dominate"] == ("discipline", 1, "")
    assert traits["Haven"] == ("background", 1, "") and traits["Linguistics"] == ("merit", 2, "")
    assert traits["Prey Exclusion (Bagged)"] == ("flaw", 1, "")
    assert document["ephemeral"]["hunger"] == 2 and teodora.resources.hunger == 2
    assert (teodora.player, teodora.concept, teodora.resources.willpower_superficial) == ("Maite", "Tremere", 1)


def test_a_progeny_discipline_takes_the_name_gmtools_sheet_gives_it(gm_client, campaign):
    document = _set(fixture(PROGENY), "disciplines.2.discipline", "thin-blood alchemy")
    document["disciplines"].append({**document["disciplines"][0], "discipline": "Homebrew Sight", "level": 1})
    target = campaign(Game.V5)
    traits = ratings(confirm(gm_client, target, preview(gm_client, target, document)))
    assert traits["Thin-blood Alchemy"] == ("discipline", 1, "") and traits["Homebrew Sight"] == ("discipline", 1, "")


def test_a_foundry_exalted_2e_actor_is_imported_with_nothing_left_out(gm_client, campaign):
    actor, tirak, traits = imported(gm_client, campaign, EXALTED, Game.EXALTED,
                                    "Everything in the file has a place on the sheet.")
    assert actor["system"]["attributes"]["manipulation"]["value"] == 5 and traits["manipulation"][1] == 5
    assert actor["system"]["abilities"]["martialArts"]["value"] == 1 and traits["martial_arts"][1] == 1
    assert traits["sail"] == ("ability", 4, "")
    exalted = tirak.resources
    assert (exalted.essence, exalted.willpower, exalted.willpower_temporary) == (1, 8, 8)
    assert (exalted.compassion, exalted.conviction, exalted.temperance, exalted.valor) == (1, 5, 3, 2)


def test_an_exalted_2e_actors_backgrounds_and_specialties_are_imported_its_charms_listed(gm_client, campaign):
    """The system's item types (module/data/item/*-data.mjs): a background's value, an ability's
    specialties ({name, value}), charms and the rest left out."""
    actor = _set(fixture(EXALTED), "system.abilities.sail.specialties", [{"name": "Storms", "value": 2}])
    actor["items"] = [{"name": "Allies", "type": "background", "system": {"value": 5, "description": ""}},
                      {"name": "Ox-Body Technique", "type": "charm", "system": {}},
                      {"name": "Slashing sword", "type": "weapon", "system": {}}]
    target = campaign(Game.EXALTED)
    shown = preview(gm_client, target, actor)
    assert left_out(shown) == "Not imported: 1 charm or spell: Ox-Body Technique; 1 item (weapon, gear, …): Slashing sword"
    traits = ratings(confirm(gm_client, target, shown))
    assert traits["Allies"] == ("background", 5, "") and traits["sail"] == ("ability", 4, "Storms")


def test_what_the_sheet_has_no_place_for_is_counted_not_dropped_without_a_word(gm_client, campaign):
    """Walkthrough A1: an Exalted actor's wounds, peripheral motes and experience have no column here;
    the preview says how much of each is left out (the file unhurt said nothing was)."""
    actor = fixture(EXALTED)
    actor["items"] = []
    actor["system"]["health"].update(bashing=1, lethal=2)
    actor["system"]["motes"]["peripheral"]["value"] = 4
    actor["system"]["experience"]["value"] = 6
    shown = preview(gm_client, campaign(Game.EXALTED), actor)
    assert left_out(shown) == ("Not imported: 3 levels of damage (the sheet has no health track); "
                               "4 peripheral motes; 6 experience points")


def test_a_fate_core_official_actor_is_imported_with_its_approaches_aspects_and_stunt(gm_client, campaign):
    actor, wren, traits = imported(gm_client, campaign, FATE, Game.FATE,
                                   "Not imported: 1 skill that is no approach: Pilot 2; "
                                   "1 stress or consequence track: Fame")
    assert actor["system"]["skills"]["Quick"]["rank"] == 3 and traits["quick"] == ("approach", 3, "")
    assert traits["forceful"] == ("approach", 0, "")
    assert traits["Wind Reader: +2 to Quickly overcome bad weather in the air."] == ("stunt", 2, "")
    assert list(wren.aspects.values_list("kind", "text")) == [
        ("high_concept", "Courier of the Broken Skies"), ("trouble", "The Guild wants its ship back"),
        ("other", "I know every dock by its smell")]
    assert (wren.resources.points, wren.resources.refresh) == (2, 3)
    assert actor["system"]["tracks"]["Stress"]["box_values"] == [False, True, False]
    assert (wren.resources.stress_1, wren.resources.stress_2, wren.resources.stress_3) == (False, True, False)
    assert wren.resources.consequence_mild == "Singed coat" and wren.resources.consequence_severe == ""


def test_the_preview_names_the_tool_the_character_and_its_traits(gm_client, campaign):
    shown = preview(gm_client, campaign(Game.V5), fixture(WOD5E))
    assert "Read from Foundry VTT · World of Darkness 5e." in shown
    assert "Dana Kowalczyk" in shown and "Brawl 3 (Grappling)" in shown and "Celerity 2" in shown
    assert "Hunger 2" in shown and "Humanity 6" in shown


def test_the_preview_of_a_fate_character_shows_the_boxes_marked_and_its_aspects(gm_client, campaign):
    shown = preview(gm_client, campaign(Game.FATE), fixture(FATE))
    resources = re.search(r'data-testid="import-preview-resources">(.*?)</dd>', shown)[1]
    assert resources == "Fate points 2 · Refresh 3 · Stress box 2 ✓ · Mild consequence (2) Singed coat"
    assert "Courier of the Broken Skies · The Guild wants its ship back" in shown


def test_only_the_character_named_is_previewed_and_a_name_not_in_the_file_is_refused(gm_client, campaign):
    target = campaign(Game.V5)
    response = gm_client.post(url("character-import", target), {"file": upload(fixture(WOD5E)), "name": "Nobody"})
    assert response.status_code == REFUSED and "The file has no character named “Nobody”." in page(response)
    response = gm_client.post(url("character-import", target), {"file": upload(fixture(WOD5E)), "name": "dana kowalczyk"})
    assert response.status_code == 200 and 'data-testid="import-preview"' in page(response)


# --- refusals: another game, another tool, a damaged file ----------------------------------------------


@pytest.mark.parametrize(("name", "game", "message"), [
    (WOD5E, Game.EXALTED, "This file holds a character of another game (Vampire: The Masquerade 5e); "
                          "this campaign plays Exalted 2e."),
    (PROGENY, Game.FATE, "another game (Vampire: The Masquerade 5e); this campaign plays Fate Accelerated."),
    (EXALTED, Game.V5, "another game (Exalted 2e); this campaign plays Vampire: The Masquerade 5e."),
    (FATE, Game.SCIFI, "another game (Fate Accelerated)"),
])
def test_a_character_of_another_game_is_refused_naming_both(gm_client, campaign, name, game, message):
    target = campaign(game)
    before = rows(target)
    response = gm_client.post(url("character-import", target), {"file": upload(fixture(name))})
    assert response.status_code == REFUSED and message in page(response)
    assert rows(target) == before


def _set(document: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    document = copy.deepcopy(document)
    *steps, last = path.split(".")
    here: Any = document
    for step in steps:
        here = here[int(step)] if isinstance(here, list) else here[step]
    here[last] = value
    return document


def _raw(document: dict[str, Any], number: str) -> bytes:
    """The file with Strength written as ``number`` (what json.dumps cannot write itself)."""
    return json.dumps(_set(document, "system.attributes.strength.value", 123454321)).replace("123454321", number).encode()


def _nested(depth: int) -> dict[str, Any]:
    value: Any = 1
    for _ in range(depth):
        value = {"value": value}
    return value


@pytest.mark.parametrize(("damage", "message"), [
    (lambda d: b"{not json", "The file is not valid JSON"),
    (lambda d: b"[" * 100_000, "nests lists or objects too deeply"),
    (lambda d: _set(d, "system.bio", _nested(60)), "lists or objects nested more than 32 deep"),
    (lambda d: {"name": "Nobody", "kind": "sheet"}, "This is not a gmtools campaign file. Nor is it a character"),
    (lambda d: _set(d, "_stats.systemId", "dnd5e"),
     "This is a Foundry VTT actor of the “dnd5e” system; gmtools reads actors of World of Darkness 5e"),
    (lambda d: _set(d, "type", "werewolf"), "This World of Darkness 5e actor is a “werewolf”"),
    (lambda d: _set(d, "type", "spc"), "This World of Darkness 5e actor is a “spc”"),
    (lambda d: _set(d, "system.attributes", [3, 2, 1]), "system.attributes: must be an object."),
    (lambda d: _set(d, "system.attributes.strength.value", "three"), "system.attributes.strength.value: must be a number."),
    (lambda d: _set(d, "system.attributes.strength.value", 2.5), "system.attributes.strength.value: must be a whole number."),
    (lambda d: _set(d, "system.hunger.value", True), "system.hunger.value: must be a number."),
    (lambda d: _set(d, "system.attributes.strength.value", 10**30),
     "system.attributes.strength.value: 1000000000000000000000000000000 is too large"),
    (lambda d: _raw(d, "1e400"), "system.attributes.strength.value: must be a whole number."),  # read as infinity
    (lambda d: _raw(d, "9" * 5000), "a number too long to be a rating"),
    (lambda d: _set(d, "system.attributes.strength.value", 9),
     "system.attributes.strength.value: rating: Must be from 1 to 5."),
    (lambda d: _set(d, "system.hunger.value", 6), "system.hunger.value: Ensure this value is less than or equal to 5."),
    (lambda d: _set(d, "items.5.system.points", 7), "items[5].system.points: rating: Must be from 0 to 5."),
    (lambda d: _set(d, "name", "Dana\u0000"), "name: Null characters are not allowed."),
    (lambda d: _set(d, "name", "   "), "name: the character has no name."),
    (lambda d: _set(d, "name", ["Dana"]), "name: must be a text."),
    (lambda d: _set(d, "items", {"a": 1}), "items: must be a list."),
    (lambda d: json.dumps(d).replace("Dana", "\\ud800", 1).encode(), "half of a character"),
    (lambda d: _set(d, "system.notes", "<a" * 600), "system.notes: the HTML is nested too deeply to be read."),
])
def test_a_damaged_or_hostile_file_is_refused_inline_and_nothing_is_written(gm_client, campaign, damage, message):
    target = campaign(Game.V5)
    before = rows(target)
    response = gm_client.post(url("character-import", target), {"file": upload(damage(fixture(WOD5E)))})
    assert response.status_code == REFUSED
    assert message in page(response) and 'data-testid="import-form"' in page(response)
    assert rows(target) == before


def test_notes_too_long_to_carry_to_the_confirmation_are_refused(gm_client, campaign, monkeypatch):
    monkeypatch.setattr(importers, "MAX_SIGNED", 2000)
    target = campaign(Game.V5)
    diary = "".join(f"<p>{hashlib.sha256(str(n).encode()).hexdigest()}</p>" for n in range(200))  # compresses little
    document = _set(fixture(WOD5E), "system.notes", diary)
    response = gm_client.post(url("character-import", target), {"file": upload(document)})
    assert response.status_code == REFUSED and "The character's notes are too long to import" in page(response)
    assert rows(target) == ([], [], [], [])


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(gm_client, campaign, monkeypatch):
    monkeypatch.setattr(backup, "MAX_BYTES", 1000)
    target = campaign(Game.V5)
    response = gm_client.post(url("character-import", target), {"file": upload(fixture(WOD5E))})
    assert response.status_code == REFUSED and "The file is larger than" in page(response)
    assert rows(target) == ([], [], [], [])


@pytest.mark.parametrize(("name", "bad"), [
    (PROGENY, lambda d: _set(d, "merits.0.level", 6)),
    (PROGENY, lambda d: _set(d, "attributes.wits", None) | {"skills": "many"}),
    (EXALTED, lambda d: _set(d, "system.virtues.valor.value", 0)),
    (EXALTED, lambda d: _set(d, "system.abilities.sail.specialties", [{"name": 4}])),
    (FATE, lambda d: _set(d, "system.stunts.Wind Reader.bonus", 5)),
    (FATE, lambda d: _set(d, "system.aspects.Trouble", "a text")),
    (FATE, lambda d: _set(d, "system.tracks.Stress.box_values", ["x"])),
    (FATE, lambda d: _set(d, "system.tracks.Mild Consequence.aspect", {"name": "x" * 121})),
])
def test_every_reader_refuses_a_damaged_file_of_its_tool(gm_client, campaign, name, bad):
    target = campaign(importers.read(fixture(name)).game)
    response = gm_client.post(url("character-import", target), {"file": upload(bad(fixture(name)))})
    assert response.status_code == REFUSED, page(response)[:1500]
    assert 'data-testid="import-form"' in page(response) and rows(target) == ([], [], [], [])


# --- the confirmation -----------------------------------------------------------------------------------


def _payload(gm_client, target: Campaign) -> str:
    return re.search(r'name="payload" value="([^"]+)"', preview(gm_client, target, fixture(WOD5E)))[1]


@pytest.mark.parametrize(("change", "message"), [
    (lambda token: token[:-3] + ("aaa" if not token.endswith("aaa") else "bbb"), "was not made here or was altered"),
    (lambda token: "", "This field is required."),
])
def test_an_altered_confirmation_is_refused_and_nothing_is_written(gm_client, campaign, change, message):
    target = campaign(Game.V5)
    token = _payload(gm_client, target)
    response = gm_client.post(url("character-import-confirm", target), {"payload": change(token)})
    assert response.status_code == REFUSED
    assert message in page(response)
    assert not target.characters.exists()


def test_a_confirmation_for_another_campaign_or_too_old_is_refused(gm_client, campaign, monkeypatch):
    here, there = campaign(Game.V5), campaign(Game.V5)
    token = _payload(gm_client, here)
    response = gm_client.post(url("character-import-confirm", there), {"payload": token})
    assert response.status_code == REFUSED and "made for another campaign" in page(response)
    monkeypatch.setattr(importers, "CONFIRM_MAX_AGE", -1)
    response = gm_client.post(url("character-import-confirm", here), {"payload": token})
    assert response.status_code == REFUSED and "more than an hour old" in page(response)
    assert not here.characters.exists() and not there.characters.exists()


def test_a_confirmation_the_checks_now_refuse_writes_nothing(gm_client, campaign):
    """The rows are checked again on confirmation: a character saved in between can make them fail."""
    target = campaign(Game.V5)
    reading = importers.read(fixture(WOD5E))
    broken = importers.Reading(reading.source, reading.game,
                               [{**reading.characters[0], "traits": reading.characters[0]["traits"] * 2}])
    response = gm_client.post(url("character-import-confirm", target), {"payload": importers.sign(target, broken)})
    assert response.status_code == REFUSED and 'data-testid="import-confirm-error"' in page(response)
    assert not target.characters.exists()


def test_the_preview_and_a_refusal_speak_the_gms_language(gm_client, campaign):
    gm_client.cookies["django_language"] = "es"
    target = campaign(Game.V5)
    shown = preview(gm_client, target, fixture(WOD5E))
    assert left_out(shown) == ("No importado: 3 poderes de disciplina: Cat's Grace, Fleetness, Lethal Body; "
                               "1 objeto (arma, equipo, …): Tire iron; 1 mancha de Humanidad; 3 puntos de experiencia")
    assert "Recursos" in shown and "Ansia 2" in shown and "Pelea 3 (Grappling)" in shown
    response = gm_client.post(url("character-import", campaign(Game.EXALTED)), {"file": upload(fixture(WOD5E))})
    assert "Este archivo contiene un personaje de otro juego" in page(response)


@pytest.mark.parametrize(("name", "change", "source"), [
    (WOD5E, lambda d: {k: v for k, v in d.items() if k != "_stats"}, "wod5e"),  # an older Foundry's export
    (EXALTED, lambda d: {k: v for k, v in d.items() if k != "_stats"}, "exalted2e"),
    (FATE, lambda d: {k: v for k, v in d.items() if k != "_stats"}, "fco"),
    (WOD5E, lambda d: _set(d, "_stats.systemId", "vtm5e"), "wod5e"),  # the system's id before it was renamed
    (PROGENY, lambda d: {**d, "version": "progeny_1.0.0"}, "progeny"),  # Progeny's first exports
    (PROGENY, lambda d: {k: v for k, v in d.items() if k != "version"}, "progeny"),
])
def test_each_tools_file_is_recognised_by_its_mark_or_its_shape(name, change, source):
    assert importers.read(change(fixture(name))).source == source


def test_a_gmtools_campaign_file_still_imports_at_once(gm_client, campaign):
    """gmtools' own file has nothing to leave out: no preview, its characters are added at once."""
    source = campaign(Game.V5)
    Character.objects.create_with_sheet(campaign=source, name="Ana")
    target = campaign(Game.V5)
    response = gm_client.post(url("character-import", target), {"file": upload(backup.export_campaign(source))})
    assert response.status_code == 200 and 'data-testid="import-preview"' not in page(response)
    assert list(target.characters.values_list("name", flat=True)) == ["Ana"]


@pytest.mark.parametrize("body, said", [
    (b"\x89PNG\r\n\x1a\n\x00\x00", "El archivo no es JSON válido: no es texto"),
    (b'{"name": "Koi", "system": {', "El archivo no es JSON válido (línea 1, columna 28)"),
])
def test_a_file_that_is_no_json_is_refused_in_the_readers_language(gm_client, campaign, body, said):
    """Walkthrough B3: a PNG renamed .json or a file cut short read Python's English error on a Spanish page."""
    target = campaign(Game.V5)
    before = Character.objects.count()
    answer = gm_client.post(reverse("character-import", args=[target.pk]),
                            {"file": SimpleUploadedFile("koi.json", body, "application/json")},
                            headers={"accept-language": "es"})
    assert said in unescape(answer.content.decode())
    assert "codec" not in answer.content.decode() and Character.objects.count() == before


def test_a_preview_confirmed_twice_adds_its_character_once_and_a_twin_is_said_before(gm_client, campaign):
    """Walkthrough B1, B2: the same preview posted again (a retry, a second tab) added another copy;
    importing the file again made an identical twin with no word."""
    target = campaign(Game.V5)
    shown = preview(gm_client, target, fixture(WOD5E))
    assert 'data-testid="import-twins"' not in shown
    dana = confirm(gm_client, target, shown)
    payload = re.search(r'name="payload" value="([^"]+)"', shown)[1]
    again = page(gm_client.post(url("character-import-confirm", target), {"payload": payload}))
    assert f"This preview was confirmed already: {dana.name} joined the table since. Nothing was added." in again
    assert target.characters.count() == 1
    # A new preview of the same file says the name is taken; confirming it is the GM's choice.
    second = preview(gm_client, target, fixture(WOD5E))
    assert f"Already on this table: {dana.name}. Confirming adds a second one of the same name." in second
    payload = re.search(r'name="payload" value="([^"]+)"', second)[1]
    assert gm_client.post(url("character-import-confirm", target), {"payload": payload}).status_code == 200
    assert list(target.characters.values_list("name", flat=True)) == [dana.name, dana.name]


def test_the_preview_shows_the_player_and_the_notes_the_file_fills(gm_client, campaign):
    """Walkthrough B4: what went into Player and Notes (the clan, the sire, the sect...) was saved unseen."""
    document = fixture(PROGENY)
    shown = preview(gm_client, campaign(Game.V5), document)
    player = re.search(r'data-testid="import-preview-player">([^<]*)<', shown)[1]
    notes = re.search(r'data-testid="import-preview-notes">(.*?)</dd>', shown, re.S)[1]
    assert player == document["player"] == "Maite"
    assert f"Clan: {document['clan']}" in notes and f"Sect: {document['sect']}" in notes


def test_the_not_imported_line_names_five_of_a_kind_at_most():
    reading = importers.Reading("wod5e", Game.V5, [], {"powers": 7, "stains": 2},
                                {"powers": [f"Power {n}" for n in range(1, 8)]})
    assert reading.left_out_text == "7 discipline powers: Power 1, Power 2, Power 3, Power 4, Power 5, …; 2 Humanity stains"
