import copy
import json

import pytest
from django.core.management import CommandError, call_command

from gmtools import backup, demo, games, services
from gmtools.models import Aspect, Campaign, Character, Trait
from gmtools.sheets import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo_campaign(gm):
    """A game's demo campaign, imported for this GM."""

    def load(game: str) -> Campaign:
        [document] = [d for d in demo.DEMO_CAMPAIGNS if d["campaign"]["game"] == game]
        return backup.import_campaign(document, gm)

    return load


def without_name(document: dict) -> dict:
    document = copy.deepcopy(document)
    del document["campaign"]["name"]
    return document


@pytest.mark.parametrize("game", Game.values)
def test_round_trip_loses_nothing(demo_campaign, other_gm, game):
    original = demo_campaign(game)
    exported = backup.export_campaign(original)
    text = backup.dumps(exported)
    imported = backup.import_campaign(backup.loads(text), other_gm, name="Copy")
    assert imported.pk != original.pk and imported.gm == other_gm
    assert without_name(backup.export_campaign(imported)) == without_name(exported)
    # The copy stands on its own.
    original.delete()
    assert without_name(backup.export_campaign(imported)) == without_name(exported)


def test_round_trip_keeps_edited_state(demo_campaign, other_gm):
    fate = demo_campaign(Game.FATE)
    fate.fate_deck = [80, 3, 41]
    fate.save()
    brann = fate.characters.get(name="Brann")
    brann.fate_consequence_severe = "Broken <arm> & “pride”"
    brann.save()
    Aspect.objects.filter(character=brann, kind="trouble").update(free_invocations=2)
    exported = backup.export_campaign(fate)
    imported = backup.import_campaign(json.loads(json.dumps(exported)), other_gm)
    assert imported.fate_deck == [80, 3, 41]
    assert without_name(backup.export_campaign(imported)) == without_name(exported)


def test_the_file_is_versioned(demo_campaign):
    document = backup.export_campaign(demo_campaign(Game.EXALTED))
    assert (document["format"], document["version"]) == ("gmtools-campaign", 2)
    smith = next(c for c in document["characters"] if c["name"] == "Smith")
    assert smith["resources"]["exalted_willpower"] == 7
    assert "v5_hunger" not in smith["resources"]  # only the campaign's own game


def test_importing_under_a_name_already_taken_is_refused(demo_campaign, gm):
    document = backup.export_campaign(demo_campaign(Game.V5))
    with pytest.raises(backup.BackupError, match="already has a campaign with this name"):
        backup.import_campaign(document, gm)


def broken(mutate) -> dict:
    document = demo.campaign_document(games.get(Game.V5))
    mutate(document)
    return document


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ([], "not a gmtools campaign file"),
        ({"format": "gmtools-campaign"}, "no valid version"),
        (broken(lambda d: d.update(version=backup.VERSION + 1)), "newer gmtools"),
        (broken(lambda d: d.update(version=0)), "Unknown file version 0"),
        (broken(lambda d: d.pop("characters")), "“characters” is missing"),
        (broken(lambda d: d.update(extra=1)), "file: unknown keys extra"),
        (broken(lambda d: d["campaign"].update(game="chess")), "unknown game 'chess'"),
        (broken(lambda d: d["characters"][2]["resources"].update(v5_hunger=9)), "characters[2]: v5_hunger:"),
        (broken(lambda d: d["characters"][2]["resources"].update(v5_hunger="2")), "v5_hunger must be a JSON integer"),
        (broken(lambda d: d["characters"][2]["resources"].update(exalted_essence=2)), "unknown keys exalted_essence"),
        (broken(lambda d: d["characters"][3]["resources"].update(v5_health_superficial=6)), "Health has 5 boxes"),
        (broken(lambda d: d["characters"][0]["traits"][0].update(rating=6)), "characters[0].traits[0]: rating:"),
        (broken(lambda d: d["characters"][0]["traits"][0].update(rating=True)), "rating must be a JSON integer"),
        (broken(lambda d: d["characters"][0]["traits"][1].update(key="strength")), "characters[0].traits[1]"),
        (broken(lambda d: d["characters"][0]["traits"][0].update(key="flying")), "not a standard trait"),
        (broken(lambda d: d["characters"][0].update(name={"first": "Marcos"})), "name must be a JSON string"),
        (broken(lambda d: d["characters"][0].update(traits={})), "characters[0].traits: expected a list"),
        (broken(lambda d: d["characters"].append("Bhavna")), "characters[4]: expected an object"),
        (broken(lambda d: d["characters"][0]["aspects"].append({"kind": "other", "text": "Grim"})), "Only Fate"),
    ],
)
def test_import_refuses_bad_files_and_writes_nothing(gm, document, message):
    counts = (Campaign.objects.count(), Character.objects.count(), Trait.objects.count())
    with pytest.raises(backup.BackupError) as error:
        backup.import_campaign(document, gm)
    assert message in str(error.value)
    assert (Campaign.objects.count(), Character.objects.count(), Trait.objects.count()) == counts


def test_loads_refuses_what_is_not_json():
    with pytest.raises(backup.BackupError, match="not valid JSON"):
        backup.loads(b"\xff\xfe{")


@pytest.mark.parametrize(
    "text, message",
    [
        ("[" * 100_000 + "]" * 100_000, "nests lists or objects too deeply"),  # was a RecursionError
        ('{"format": "gmtools-campaign", "version": ' + "9" * 5000 + "}", "number too long"),  # was a ValueError
        (" " * (backup.MAX_BYTES + 1), "larger than 32 MB"),
    ],
    ids=["deep", "digits", "large"],
)
def test_loads_refuses_files_python_cannot_or_should_not_read(text, message):
    """Found by the security probe: each was a 500 in the admin and a traceback from the command."""
    with pytest.raises(backup.BackupError, match=message):
        backup.loads(text)


def test_an_import_with_a_nul_character_changes_nothing(demo_campaign, other_gm):
    """Found by the security probe: NUL bytes passed an import's validation (a 500 on PostgreSQL)."""
    document = backup.export_campaign(demo_campaign(Game.FATE))
    document["characters"][0]["resources"]["fate_consequence_mild"] = "a\x00b"
    counts = (Campaign.objects.count(), Character.objects.count())
    with pytest.raises(backup.BackupError, match=r"characters\[0\]\.resources: fate_consequence_mild: Null characters"):
        backup.import_campaign(document, other_gm)
    assert (Campaign.objects.count(), Character.objects.count()) == counts


def _set(document: dict, path: tuple, value) -> dict:
    document = copy.deepcopy(document)
    parent = document
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return document


@pytest.mark.parametrize(("path", "value", "message"), [
    (("campaign", "name"), "Night\x00", r"campaign: name: Null characters"),
    (("characters", 0, "name"), "\x00", r"characters\[0\]: name: Null characters"),
    (("characters", 1, "traits", 0, "specialties"), "a\x00b", r"characters\[1\]\.traits\[0\]: specialties: Null"),
    (("characters", 0, "aspects", 0, "text"), "Wiz\x00ard", r"characters\[0\]\.aspects\[0\]: text: Null"),
    (("campaign", "fate_deck"), ["\x00"], r"campaign: fate_deck: "),  # a JSON column: the deck's own check
])
def test_a_nul_character_anywhere_in_a_file_is_refused_and_changes_nothing(demo_campaign, other_gm, path, value,
                                                                              message):
    """Each string of a file, not only the resources: PostgreSQL would refuse any of them (a 500)."""
    document = _set(backup.export_campaign(demo_campaign(Game.FATE)), path, value)
    counts = (Campaign.objects.count(), Character.objects.count(), Trait.objects.count(), Aspect.objects.count())
    with pytest.raises(backup.BackupError, match=message):
        backup.import_campaign(document, other_gm, name="Copy")
    assert (Campaign.objects.count(), Character.objects.count(), Trait.objects.count(), Aspect.objects.count()) == counts


def test_an_upload_too_large_is_refused_before_it_is_read():
    class Upload:
        size = backup.MAX_BYTES + 1

        def read(self):
            raise AssertionError("read into memory")

    with pytest.raises(backup.BackupError, match="larger than 32 MB"):
        backup.read_upload(Upload())


def test_the_import_command_refuses_a_deep_file_with_a_message(tmp_path, gm):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(CommandError, match="too deeply"):
        call_command("import_campaign", str(path), "--gm", gm.username)
    assert not Campaign.objects.exists()


def test_management_commands_round_trip(demo_campaign, other_gm, tmp_path, capsys):
    original = demo_campaign(Game.SCIFI)
    path = tmp_path / "scifi.json"
    call_command("export_campaign", original.pk, "-o", str(path))
    call_command("import_campaign", str(path), "--gm", other_gm.username)
    assert "Imported" in capsys.readouterr().out
    imported = Campaign.objects.get(gm=other_gm)
    assert backup.export_campaign(imported) == json.loads(path.read_text(encoding="utf-8"))


def test_the_scheduled_backup_writes_every_campaign_to_a_folder(demo_campaign, other_gm, tmp_path):
    campaigns = [demo_campaign(game) for game in (Game.V5, Game.FATE)]
    call_command("export_campaign", "--all", str(tmp_path / "nightly"))
    written = sorted((tmp_path / "nightly").iterdir())
    assert [p.name for p in written] == [f"campaign-{c.pk}.json" for c in campaigns]
    # Each file imports back as it was.
    call_command("import_campaign", str(written[1]), "--gm", other_gm.username)
    assert backup.export_campaign(Campaign.objects.get(gm=other_gm)) == json.loads(written[1].read_text(encoding="utf-8"))


def test_export_command_writes_to_standard_output(demo_campaign, capsys):
    call_command("export_campaign", demo_campaign(Game.FATE).pk)
    assert json.loads(capsys.readouterr().out)["campaign"]["game"] == "fate"


def test_import_command_reports_bad_input(tmp_path, gm):
    path = tmp_path / "bad.json"
    path.write_text('{"format": "gmtools-campaign", "version": 7}', encoding="utf-8")
    with pytest.raises(CommandError, match="newer gmtools"):
        call_command("import_campaign", str(path), "--gm", gm.username)
    with pytest.raises(CommandError, match="No user is called 'nobody'"):
        call_command("import_campaign", str(path), "--gm", "nobody")
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_campaign", str(tmp_path / "missing.json"), "--gm", gm.username)
    with pytest.raises(CommandError, match="No campaign has id 999"):
        call_command("export_campaign", 999)


def test_an_aspect_a_scene_put_on_a_character_is_not_exported(demo_campaign):
    campaign = demo_campaign(Game.FATE)
    character = campaign.characters.order_by("id").first()
    own = [a["text"] for a in backup.export_campaign(campaign)["characters"][0]["aspects"]]
    scene = services.start_scene(campaign, title="Rooftops")
    Aspect.objects.create(character=character, scene=scene, text="Cornered", free_invocations=1)
    exported = backup.export_campaign(campaign)["characters"][0]["aspects"]
    assert [a["text"] for a in exported] == own and "Cornered" not in own
