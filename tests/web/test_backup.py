import copy
import json

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection, models
from django.db.models import Q
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from django.core.management import CommandError, call_command

from gmtools import backup, demo, games, services
from gmtools.composer import ComposerForm
from gmtools.games.base.apps import GameConfig
from gmtools.games.fate.models import Aspect
from gmtools.models import (
    Campaign,
    Change,
    Character,
    DiscordHealth,
    DiscordMessage,
    DiscordPost,
    ExtendedAction,
    ResourceChange,
    Roll,
    SavedRoll,
    Scene,
    Trait,
)
from tests.games import Game
from tests.web.helpers import COMMON, DEFAULTS

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
    fate.state.deck = [80, 3, 41]
    fate.state.save()
    brann = fate.characters.get(name="Brann")
    brann.resources.consequence_severe = "Broken <arm> & “pride”"
    brann.resources.save()
    Aspect.objects.filter(character=brann, kind="trouble").update(free_invocations=2)
    exported = backup.export_campaign(fate)
    imported = backup.import_campaign(json.loads(json.dumps(exported)), other_gm)
    assert imported.state.deck == [80, 3, 41]
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


# --- a whole campaign played, and every table of it round-tripped (issue 28, item 8) -------------

class Steady:
    """A random source answering the same face every time (within the range asked): no luck in it."""

    def __init__(self, face: int) -> None:
        self.face = face

    def randint(self, a: int, b: int) -> int:
        return min(max(self.face, a), b)


# The traits each game's rolls below are made of (first, second): rated on the demo's characters.
PLAY_TRAITS = {Game.EXALTED: ("dexterity", "martial_arts"), Game.V5: ("dexterity", "investigation"),
               Game.FATE: ("clever", None), Game.SCIFI: ("agility", "athletics")}


def composer_fields(character: Character, **data) -> dict:
    first, second = PLAY_TRAITS[character.campaign.game]
    fields = {**COMMON, **DEFAULTS[character.campaign.game], "character": character.pk,
              "first": character.traits.get(key=first).pk}
    if second:
        fields["second"] = character.traits.get(key=second).pk
    return {**fields, **data}


def play_roll(character: Character, face: int = 7, **data) -> Roll:
    """A roll composed as the table composes it and logged by ``services.record_roll``; in a scene, the
    turn then moves on (so the next roll is never over the turn's budget)."""
    campaign = character.campaign
    form = ComposerForm(campaign, composer_fields(character, **data), scene=Scene.objects.current(campaign))
    assert form.is_valid(), form.errors
    logged = services.record_roll(campaign, form.cleaned_data["composition"], Steady(face))
    if logged.scene_id is not None:
        services.change_turn(logged.scene, 1)
    return logged


# The one-click changes each game's card offers (``BasePlay.adjustments``), two of them: the second is undone.
CLICKS = {Game.EXALTED: ("motes-spend", "willpower-spend"), Game.V5: ("hunger-up", "hunger-down"),
          Game.FATE: ("fate-point-gain", "fate-point-spend"), Game.SCIFI: ("health-damage", "adventure")}


def play(campaign: Campaign, gm, gm_client: Client) -> None:
    """A session at the table through the real services (and the saved-roll view): stories, episodes,
    scenes with notes, who is in them and the turns declared, secret, voided and follow-up rolls,
    extended actions, saved rolls, one-click changes and an undo, and each game's own follow-ups."""
    game = campaign.game
    first, second = campaign.characters.filter(kind="pc").order_by("id")[:2]
    play_roll(second, label="Before the first story")  # in no scene
    services.start_story(campaign, title="Prologue")
    services.start_scene(campaign, title="Opening")
    play_roll(first)  # in a scene that then ends: the roll keeps its scene
    services.start_story(campaign, title="The long night")
    services.start_episode(campaign, title="Arrival")
    scene = services.start_scene(campaign, title="Rooftops", characters=list(campaign.characters.order_by("id")))
    services.set_scene_notes(scene, "The east wing is on fire.\nThe guard is asleep.")
    services.move_in_order(scene, second, -1)
    services.declare_actions(scene, second, 2)
    play_roll(first, hidden="on")  # a secret roll kept secret
    services.reveal(play_roll(first, hidden="on", label="Spot the spy"))  # and one revealed
    services.void_roll(play_roll(second), gm)
    response = gm_client.post(reverse("saved-roll-create", args=[campaign.pk]),
                              {**composer_fields(first, **({"team": [second.pk]} if game == Game.EXALTED else {})),
                               "saved_name": "The usual"})
    assert response.status_code == 200, response.content[:500]
    if game != Game.FATE:  # Fate's engine prices no extended action
        action = services.create_extended(campaign, scene, name="Climb the wall", goal=10, interval="1 turn")
        play_roll(first, extended=action.pk)
        services.void_roll(play_roll(first, extended=action.pk), gm)
        services.create_extended(campaign, None, name="Research", goal=5, character=second)
    if game == Game.EXALTED:
        stunted = play_roll(first, stunt=2, willpower="on")
        services.follow_up(stunted, "reward", choice="willpower")  # the Willpower it spent
        play_roll(first, team=[second.pk])
    elif game == Game.V5:
        parent = play_roll(first, difficulty=2, secret="on")
        services.follow_up(parent, "reroll", Steady(9), dice=[0])
        services.check(first, "rouse", Steady(3))
    elif game == Game.FATE:
        own = first.aspects.order_by("id").first()
        services.change_scene(scene, "aspect-add", text="Smoke everywhere", free_invocations=1, boost=False)
        boost = services.change_scene(scene, "aspect-add", text="Dazzled guard", free_invocations=0, boost=True)
        invoked = play_roll(first, face=0, invoke=[own.pk, boost.pk])  # a fate point, and the boost used up
        services.follow_up(invoked, "invoke", Steady(1), aspect=second.aspects.order_by("id").first(), mode="reroll")
        play_roll(first, face=1, action="create_advantage", advantage="Cornered", advantage_on=second.pk)
        play_roll(second, face=1, action="create_advantage", advantage="Slippery roof")  # on the scene
        services.flip(campaign)
        # A consequence whose free invocation is the first character's (who inflicted it): a link in
        # the resources' row and in the one-click change's before and after.
        services.adjust(second, "consequence-mild", "Bruised ribs", by=str(first.pk))
    for click in CLICKS[game]:
        services.adjust(first, click)
    services.undo_last_change(campaign)


# Not in the file, by design (gmtools.backup's docstring): the live streams' log of changes, which
# says what each open page on this server has drawn; an imported table starts with none.
NOT_EXPORTED = {Change}
# Nor Discord's side of the log (issue 25): what this server has still to post and the messages it
# posted, for the campaign's webhook, which is never in the file either (an import posts nowhere).
NOT_EXPORTED |= {DiscordPost, DiscordMessage, DiscordHealth}
# Columns that differ by design: the player link's secret (an import gets a new one, so a backup opens
# nothing) and the GM (the import's, here another one).
DIFFERENT_BY_DESIGN = {(Campaign, "player_token"), (Campaign, "gm"), (Campaign, "discord_webhook")}
# The ids of other rows that the table's code keeps inside JSON columns: (model, column) → (path,
# the table it names). Written here from the code that writes them (the composer's spends, Fate's
# invocations and advantages, a roll into an extended action, the saved roll's composer fields),
# not read from gmtools.backup, so that an id the backup forgot to rewrite shows as a difference.
JSON_IDS = {
    (Roll, "spends"): [(("*", "character"), Character), (("*", "aspect"), Aspect),
                       (("*", "boost", "character"), Character), (("*", "boost", "scene"), Scene)],
    (Roll, "result"): [(("extended", "id"), ExtendedAction), (("invoked", "*", "aspect"), Aspect),
                       (("advantage", "on"), Character), (("advantage", "scene"), Scene),
                       (("advantage", "aspect"), Aspect)],
    (SavedRoll, "fields"): [(("first",), Trait), (("second",), Trait), (("team", "*"), Character),
                            (("advantage_on",), Character)],
    # A one-click change keeps the columns it wrote: Fate's link to whose free invocation a consequence is.
    **{(ResourceChange, side): [((f"consequence_{severity}_free_for_id",), Character)
                                for severity in ("mild", "moderate", "severe")] for side in ("before", "after")},
}


def campaign_tables(game: str | None = None) -> list[type[models.Model]]:
    """Every table of gmtools and of the game's app (of every game's, without one) but those not
    exported: a new table is in the comparison at once."""
    configs = [apps.get_app_config("gmtools"), *(config for config in apps.get_app_configs()
                                                  if isinstance(config, GameConfig) and game in (None, config.label))]
    return [model for config in configs for model in config.get_models() if model not in NOT_EXPORTED]


_models = campaign_tables()


def _links(model: type[models.Model]) -> list[models.ForeignKey]:
    """The model's links to other tables of gmtools (not to itself, not to users)."""
    return [f for f in model._meta.concrete_fields
            if f.is_relation and f.related_model is not model and f.related_model in _models]


def _of_campaign(model: type[models.Model], campaign: Campaign) -> Q:
    """The model's rows that belong to the campaign, by any chain of links that leads to it."""
    if model is Campaign:
        return Q(pk=campaign.pk)

    def paths(m: type[models.Model]) -> list[str]:
        if m is Campaign:
            return [""]
        return [f"{f.name}__{rest}" if rest else f.name for f in _links(m) for rest in paths(f.related_model)]

    found = paths(model)
    assert found, f"{model.__name__} belongs to no campaign: the comparison does not know it"
    where = Q(pk__in=[])
    for path in found:
        where |= Q(**{path: campaign})
    return where


def _walk(value, path: tuple, change):
    """``value`` with what is at ``path`` changed ("*": each item of a list); a path not there is left."""
    if not path:
        return change(value)
    step, rest = path[0], path[1:]
    if step == "*":
        return [_walk(item, rest, change) for item in value] if isinstance(value, list) else value
    if isinstance(value, dict) and step in value:
        return {**value, step: _walk(value[step], rest, change)}
    return value


def tables(campaign: Campaign) -> dict[str, list[dict]]:
    """Every table's rows of the campaign, each with all its columns but its id: a link to another row
    as that row's place in its table (rows in order of their links, then of creation), a user by
    username, and so the ids inside JSON columns too (null: a row gone since)."""
    rows = {model: list(model.objects.filter(_of_campaign(model, campaign)).distinct().order_by("pk"))
            for model in campaign_tables(campaign.game)}
    places: dict[type[models.Model], dict[int, int]] = {}
    pending = list(rows)
    while pending:
        model = next((m for m in pending if all(f.related_model in places for f in _links(m))), None)
        assert model is not None, f"links in a circle: {pending}"
        pending.remove(model)

        def order(row, model=model):
            return (*(places[f.related_model].get(getattr(row, f.attname), -1) for f in _links(model)), row.pk)

        places[model] = {row.pk: place for place, row in enumerate(sorted(rows[model], key=order))}

    def place(target, value):
        pk = int(value) if isinstance(value, str) and value.isdigit() else value
        return places[target].get(pk) if type(pk) is int else value

    out: dict[str, list[dict]] = {}
    for model, found in rows.items():
        values = []
        for row in sorted(found, key=lambda r: places[model][r.pk]):
            row_values = {}
            for field in model._meta.concrete_fields:
                if field.primary_key or (model, field.name) in DIFFERENT_BY_DESIGN:
                    continue
                value = getattr(row, field.attname)
                if field.is_relation and value is not None:
                    if field.related_model is get_user_model():
                        value = get_user_model().objects.get(pk=value).get_username()
                    else:
                        # A row of the campaign by its place; one of another campaign would show as such.
                        value = places[field.related_model].get(value, ("not in this campaign", value))
                for path, target in JSON_IDS.get((model, field.name), ()):
                    value = _walk(value, path, lambda v, target=target: place(target, v))
                row_values[field.name] = value
            values.append(row_values)
        out[model.__name__] = values
    return out


# What a game's table never makes: Fate prices no extended action. Every other
# table must have rows after ``play``, or the comparison could pass on an empty table.
NEVER_MADE = {Game.FATE: {"ExtendedAction"}, Game.EXALTED: set(), Game.V5: set(), Game.SCIFI: set()}


@pytest.mark.parametrize("game", Game.values)
def test_a_campaign_played_comes_back_whole_table_by_table(demo_campaign, gm, gm_client, other_gm, game):
    """Issue 28, item 8: the file is a backup. Every table of a played campaign is the same after
    export, text, and import as another GM: every column, every link (as a place), every id inside
    the log's JSON."""
    original = demo_campaign(game)
    play(original, gm, gm_client)
    before = tables(original)
    assert {name for name, found in before.items() if not found} == NEVER_MADE[game]
    log = Roll.objects.filter(campaign=original)
    assert log.filter(parent__isnull=False).exists() == (game != Game.SCIFI)  # scifi has no follow-ups
    assert log.filter(voided_by=gm).exists() and log.filter(hidden=True, revealed_at__isnull=True).exists()
    assert log.filter(hidden=True, revealed_at__isnull=False).exists() and log.filter(scene__isnull=True).exists()
    assert original.resource_changes.filter(undone_at__isnull=False).exists()
    assert any(scene["notes"] for scene in before["Scene"])
    # The traits an extended action is rolled with (links to traits, by place), from its first roll.
    assert any(row["first"] is not None and row["second"] is not None for row in before["ExtendedAction"]) == (
        game != Game.FATE)

    exported = backup.export_campaign(Campaign.objects.get(pk=original.pk))  # as the export view reads it
    imported = backup.import_campaign(backup.loads(backup.dumps(exported)), other_gm)

    assert imported.pk != original.pk and imported.gm == other_gm
    assert imported.player_token != original.player_token
    after = tables(imported)
    assert after.keys() == before.keys()
    for name in before:
        assert after[name] == before[name], name
    assert not Change.objects.filter(campaign=imported).exists()


def test_the_comparison_sees_ids_inside_the_log(demo_campaign, gm, gm_client):
    """The ids inside JSON columns are compared as places: the play above makes some of each kind
    that a game keeps (so the round trip really checks their rewriting)."""
    named = []
    for game in (Game.EXALTED, Game.FATE):
        campaign = demo_campaign(game)
        play(campaign, gm, gm_client)
        rows = tables(campaign)
        for (model, column), refs in JSON_IDS.items():
            for row in rows[model.__name__]:
                for path, _target in refs:
                    _walk(row[column], path, lambda value, where=(game, column, path): named.append((where, value)))
    found = {where for where, value in named if type(value) is int}
    assert {(Game.EXALTED, "result", ("extended", "id")), (Game.EXALTED, "fields", ("first",)),
            (Game.EXALTED, "fields", ("team", "*")), (Game.EXALTED, "spends", ("*", "character")),
            (Game.FATE, "spends", ("*", "aspect")), (Game.FATE, "result", ("invoked", "*", "aspect")),
            (Game.FATE, "result", ("advantage", "on")), (Game.FATE, "result", ("advantage", "scene")),
            (Game.FATE, "result", ("advantage", "aspect")),
            (Game.FATE, "after", ("consequence_mild_free_for_id",))} <= found


@pytest.fixture
def played(demo_campaign, gm, gm_client):
    """A game's demo campaign after ``play``, as its file holds it."""

    def load(game: str) -> dict:
        campaign = demo_campaign(game)
        play(campaign, gm, gm_client)
        return json.loads(backup.dumps(backup.export_campaign(Campaign.objects.get(pk=campaign.pk))))

    return load


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in campaign_tables()}


# --- version 1 files (characters, traits, aspects) -----------------------------------------------

def test_a_version_1_file_still_imports_with_the_other_tables_empty(other_gm):
    [document] = [d for d in demo.DEMO_CAMPAIGNS if d["campaign"]["game"] == Game.FATE]
    document = {**copy.deepcopy(document), "version": 1}
    imported = backup.import_campaign(document, other_gm)
    rows = tables(imported)
    assert [c["name"] for c in rows["Character"]] == [c["name"] for c in document["characters"]]
    assert len(rows["Trait"]) == sum(len(c["traits"]) for c in document["characters"]) > 0
    assert len(rows["Aspect"]) == sum(len(c["aspects"]) for c in document["characters"]) > 0
    # (and the game's rows every campaign and character has: Fate's state, its characters' resources)
    assert {name for name, found in rows.items() if not found} == {
        name for name in rows if name not in ("Campaign", "Character", "Trait", "Aspect", "FateResources", "FateState")}


def test_whose_free_invocation_a_consequence_is_goes_by_place_and_an_older_file_says_nobody(played, other_gm, gm):
    """Fate (issue 23): a consequence's free invocation for whoever inflicted it is a link to a
    character, written as its place; a file from before it imports with nobody's."""
    document = played(Game.FATE)
    [linked] = [(i, row) for i, row in enumerate(document["characters"])
                if row["resources"]["fate_consequence_mild_free_for"] is not None]
    position, row = linked
    assert row["resources"]["fate_consequence_mild_free_for"] == 0 and position != 0  # the first character, by place
    imported = backup.import_campaign(copy.deepcopy(document), other_gm)
    names = dict(imported.characters.values_list("pk", "name"))
    resources = imported.characters.get(name=row["name"]).fate
    assert names[resources.consequence_mild_free_for_id] == document["characters"][0]["name"]
    older = copy.deepcopy(document)
    for character in older["characters"]:
        for severity in ("mild", "moderate", "severe"):
            del character["resources"][f"fate_consequence_{severity}_free_for"]
    for change in older["resource_changes"]:
        for side in ("before", "after"):
            change[side].pop("fate_consequence_mild_free_for", None)
    again = backup.import_campaign(older, other_gm, name="From an older gmtools")
    resources = again.characters.get(name=row["name"]).fate
    assert resources.consequence_mild == "Bruised ribs" and resources.consequence_mild_free_for_id is None
    # One character imported alone, or copied to another campaign, names nobody the file has left out.
    [alone] = backup.add_characters(again, document["characters"], {position})
    assert alone.fate.consequence_mild == "Bruised ribs" and alone.fate.consequence_mild_free_for_id is None
    original = Character.objects.get(campaign__gm=gm, name=row["name"])
    assert original.fate.consequence_mild_free_for_id is not None
    assert backup.export_character(original)["resources"]["fate_consequence_mild_free_for"] is None
    # A place that is no character of the file is refused, naming it.
    wrong = copy.deepcopy(document)
    wrong["characters"][position]["resources"]["fate_consequence_mild_free_for"] = 99
    with pytest.raises(backup.BackupError, match=rf"characters\[{position}\]\.resources: fate_consequence_mild_free_for must "):
        backup.import_campaign(wrong, other_gm, name="Wrong")


@pytest.mark.parametrize("key", backup.TABLES)
def test_a_version_1_file_with_a_table_of_version_2_is_refused(other_gm, key):
    [document] = [d for d in demo.DEMO_CAMPAIGNS if d["campaign"]["game"] == Game.V5]
    document = {**copy.deepcopy(document), "version": 1, key: []}
    with pytest.raises(backup.BackupError, match=rf"file: unknown keys {key}\."):
        backup.import_campaign(document, other_gm)
    assert not Campaign.objects.filter(gm=other_gm).exists()


# --- the rows one import may write (issue 28, item 5) ---------------------------------------------

def _rows_by_limit(document: dict) -> dict[str, int]:
    """How many rows of each of ``backup.LIMITS``'s tables the file holds, counted here."""
    characters, scenes = document["characters"], document.get("scenes", [])
    return {
        "characters": len(characters), "traits": sum(len(c["traits"]) for c in characters),
        "aspects": sum(len(c["aspects"]) for c in characters) + sum(len(s["aspects"]) for s in scenes),
        "saved_rolls": sum(len(c.get("saved_rolls", [])) for c in characters),
        "participants": sum(len(s["participants"]) for s in scenes),
        "declarations": sum(len(s["declarations"]) for s in scenes),
        **{table: len(document.get(table, [])) for table in backup.TABLES},
    }


def test_a_file_with_one_row_more_than_a_limit_is_refused_naming_its_table(played, other_gm, monkeypatch):
    documents = [played(Game.FATE), played(Game.EXALTED)]  # between them, rows of every table
    found = [_rows_by_limit(document) for document in documents]
    assert set(backup.LIMITS) == set(found[0])
    assert all(max(f[table] for f in found) > 0 for table in backup.LIMITS)
    before, limits = counts(), dict(backup.LIMITS)
    for document, rows in zip(documents, found, strict=True):
        for table, count in rows.items():
            if not count:
                continue
            monkeypatch.setattr(backup, "LIMITS", {**limits, table: count - 1})
            with pytest.raises(backup.BackupError) as refused:
                backup.import_campaign(document, other_gm)
            assert str(refused.value) == (f"The file has {count:,} rows of “{table}”; "
                                          f"an import takes at most {count - 1:,}.")
            assert counts() == before
    # At each limit exactly, the file imports.
    monkeypatch.setattr(backup, "LIMITS", {table: max(f[table] for f in found) for table in backup.LIMITS})
    for document in documents:
        backup.import_campaign(document, other_gm)
    assert Campaign.objects.filter(gm=other_gm).count() == 2


def test_the_characters_a_gm_adds_are_bounded_too(played, monkeypatch):
    document = played(Game.V5)
    target = Campaign.objects.create(name="Another night", game=Game.V5, gm=get_user_model().objects.get(username="gm1"))
    monkeypatch.setattr(backup, "LIMITS", {**backup.LIMITS, "traits": len(document["characters"][0]["traits"])})
    with pytest.raises(backup.BackupError, match="rows of “traits”"):
        backup.add_characters(target, document["characters"])
    assert not target.characters.exists()
    assert len(backup.add_characters(target, document["characters"], {0})) == 1  # one character's fit


def scaled(document: dict, n: int) -> dict:
    """The file with ``n`` characters (copies of its own, renamed) and ``n`` more rolls (copies of its
    first roll, which follows none): the import's queries must not grow with either."""
    document = copy.deepcopy(document)
    characters = document["characters"]
    document["characters"] = characters + [{**copy.deepcopy(characters[i % len(characters)]), "name": f"Copy {i}"}
                                           for i in range(n)]
    document["rolls"] += [copy.deepcopy(document["rolls"][0]) for _ in range(n)]
    return document


@pytest.mark.parametrize("game", [Game.EXALTED, Game.FATE])
def test_an_import_makes_as_many_queries_for_fifty_characters_as_for_five(played, other_gm, game):
    document = played(game)
    assert document["rolls"][0]["parent"] is None
    queries = []
    for n in (5, 50):
        with CaptureQueriesContext(connection) as made:
            imported = backup.import_campaign(scaled(document, n), other_gm, name=f"{n} characters")
        assert imported.characters.count() == len(document["characters"]) + n
        assert imported.rolls.count() == len(document["rolls"]) + n
        queries.append(len(made))
    assert queries[0] == queries[1], queries


# --- what a roll names: rows of the file, an earlier roll, a user (issue 28, item 8) ---------------

def _first(rows: list[dict], holds) -> int:
    return next(i for i, row in enumerate(rows) if holds(row))


def refusal(document: dict, gm) -> str:
    """What importing the document refuses, checked to have written nothing."""
    before = counts()
    with pytest.raises(backup.BackupError) as refused:
        backup.import_campaign(document, gm)
    assert counts() == before
    return str(refused.value)


@pytest.mark.parametrize(("which", "damage", "message"), [
    (lambda r: "extended" in r["result"], lambda row, d: row["result"]["extended"].update(id=len(d["extended_actions"])),
     "result.extended.id must name a row of “extended_actions” in the file."),
    (lambda r: r["spends"], lambda row, d: row["spends"][0].update(character=99),
     "spends.*.character must name a row of “characters” in the file."),
    # A list or an object where a place belongs was a TypeError (no key of a dict): a 500.
    (lambda r: r["spends"], lambda row, d: row["spends"][0].update(character=[0]),
     "spends.*.character must name a row of “characters” in the file."),
    (lambda r: "extended" in r["result"], lambda row, d: row["result"]["extended"].update(id={"id": 0}),
     "result.extended.id must name a row of “extended_actions” in the file."),
    (lambda r: True, lambda row, d: row.update(character=len(d["characters"])),
     "character must be the position of a row of “characters” in the file."),
    (lambda r: r["scene"] is not None, lambda row, d: row.update(scene="0"),
     "scene must be the position of a row of “scenes” in the file."),
], ids=["extended-id", "spend-character", "spend-character-list", "extended-id-object", "character", "scene-text"])
def test_a_roll_naming_a_row_not_in_the_file_is_refused(played, other_gm, which, damage, message):
    document = copy.deepcopy(played(Game.EXALTED))
    i = _first(document["rolls"], which)
    damage(document["rolls"][i], document)
    assert refusal(document, other_gm) == f"rolls[{i}]: {message}"


def test_a_saved_roll_naming_a_trait_not_its_characters_is_refused(played, other_gm):
    document = copy.deepcopy(played(Game.EXALTED))
    c = _first(document["characters"], lambda row: row["saved_rolls"])
    document["characters"][c]["saved_rolls"][0]["fields"]["first"] = len(document["characters"][c]["traits"])
    with pytest.raises(backup.BackupError) as refused:
        backup.import_campaign(document, other_gm)
    assert str(refused.value) == f"characters[{c}].saved_rolls[0]: fields.first must name a row of “traits” in the file."
    assert not Campaign.objects.filter(gm=other_gm).exists()


@pytest.mark.parametrize("parent", ["self", "later", "0", True, -1, 0.0, [0]])
def test_a_parent_must_be_an_earlier_roll(played, other_gm, parent):
    document = copy.deepcopy(played(Game.V5))
    i = _first(document["rolls"], lambda r: r["parent"] is not None)
    assert i >= 1
    document["rolls"][i]["parent"] = {"self": i, "later": i + 1}.get(parent, parent) if isinstance(parent, str) else parent
    assert refusal(document, other_gm) == f"rolls[{i}]: parent must be the position of an earlier roll."


@pytest.mark.parametrize("voided_by", [7, True, {"username": "gm1"}, ["gm1"]])
def test_voided_by_must_be_a_username(played, other_gm, voided_by):
    document = copy.deepcopy(played(Game.V5))
    i = _first(document["rolls"], lambda r: r["voided_by"] is not None)
    document["rolls"][i]["voided_by"] = voided_by
    assert refusal(document, other_gm) == f"rolls[{i}]: voided_by must be a username or null."


def test_a_roll_voided_by_a_user_this_server_lacks_imports_voided_by_nobody(played, other_gm):
    document = copy.deepcopy(played(Game.V5))
    voided = [i for i, r in enumerate(document["rolls"]) if r["voided_by"] is not None]
    assert voided and all(document["rolls"][i]["voided_by"] == "gm1" for i in voided)
    document["rolls"][voided[0]]["voided_by"] = "someone-elsewhere"
    imported = backup.import_campaign(document, other_gm)
    log = list(imported.rolls.order_by("id"))
    assert log[voided[0]].voided_by is None and log[voided[0]].voided_at is not None  # still voided
    assert all(log[i].voided_by.username == "gm1" for i in voided[1:])
    assert backup.export_campaign(imported)["rolls"][voided[0]]["voided_by"] is None


def test_the_campaigns_zone_and_language_travel_with_it_and_older_files_take_the_defaults(demo_campaign, other_gm,
                                                                                         monkeypatch):
    monkeypatch.setattr("tzlocal.get_localzone_name", lambda: "America/Sao_Paulo")
    fate = demo_campaign(Game.FATE)
    Campaign.objects.filter(pk=fate.pk).update(time_zone="Europe/Madrid", language="es")
    exported = backup.export_campaign(Campaign.objects.get(pk=fate.pk))
    imported = backup.import_campaign(json.loads(json.dumps(exported)), other_gm, name="Copy")
    assert (imported.time_zone, imported.language) == ("Europe/Madrid", "es")
    for key in ("time_zone", "language"):
        del exported["campaign"][key]
    older = backup.import_campaign(exported, other_gm, name="Older")
    assert (older.time_zone, older.language) == ("America/Sao_Paulo", "en")
    exported["campaign"]["time_zone"] = "Mars/Olympus_Mons"
    with pytest.raises(backup.BackupError, match="Mars/Olympus_Mons"):
        backup.import_campaign(exported, other_gm, name="Martian")
    assert not Campaign.objects.filter(name="Martian").exists()
