"""A campaign exported before each game's columns moved to tables of its own (issue 21) imports after
it identically: the files in ``fixtures/before-issue-21`` were written by main at d94776b from each
game's demo campaign played through the table (``test_backup.play``: rolls and their follow-ups, voids,
secret rolls, extended actions, saved rolls, one-click changes and an undo)."""

from pathlib import Path

import pytest

from gmtools import backup, games
from gmtools.models import Campaign, ResourceChange, SavedRoll
from gmtools.models.campaigns import default_time_zone
from tests.games import Game

pytestmark = pytest.mark.django_db

BEFORE = Path(__file__).parent / "fixtures" / "before-issue-21"


def with_columns_added_since(document: dict, game: str) -> dict:
    """The file as this version writes the same campaign: a column gained since the file was written
    (V5's nature in a game's table, a saved roll's names by language, a roll's one-click key, Fate's free
    invocation of a consequence, an extended action's traits: issue 23; who rolled a roll from a phone:
    issue 24; the campaign's time zone and language: issue 25), at its default,
    which is what an old file's row gets."""
    document["campaign"].setdefault("time_zone", default_time_zone())
    document["campaign"].setdefault("language", "en")
    resources = games.get(game).resources
    for row in document["characters"]:
        row["resources"] |= {public: resources.model._meta.get_field(name).get_default()
                             for public, name in resources.public_fields.items() if public not in row["resources"]}
        for saved in row.get("saved_rolls", ()):
            saved.setdefault("names", SavedRoll._meta.get_field("names").get_default())
    for roll in document["rolls"]:
        roll.setdefault("once_key", None)  # the one-click key: none on a roll made before it
        roll.setdefault("rolled_by", "")  # who rolled it from a phone (issue 24): the GM, before
    for action in document.get("extended_actions", ()):
        for trait in ("first", "second"):  # its traits (issue 23): none until its next roll
            action.setdefault(trait, None)
    return document


@pytest.mark.parametrize("game", Game.values)
def test_a_file_written_before_the_move_comes_back_as_it_was_written(gm, game):
    written = backup.loads((BEFORE / f"{game}.json").read_text())
    imported = backup.import_campaign(written, gm)
    # Every table the file holds, the characters' resources and the campaign's state among them, comes
    # back out of the game's own tables as the old version wrote it: the same document, every value
    # (a JSON object's keys in any order: PostgreSQL's jsonb keeps no order).
    assert backup.export_campaign(Campaign.objects.get(pk=imported.pk)) == with_columns_added_since(written, game)


@pytest.mark.parametrize("game", Game.values)
def test_its_resources_are_in_the_games_table_and_its_undo_names_their_columns(gm, game):
    document = backup.loads((BEFORE / f"{game}.json").read_text())
    imported = backup.import_campaign(document, gm)
    resources = games.get(game).resources
    for row, character in zip(with_columns_added_since(document, game)["characters"], imported.characters.order_by("id"),
                              strict=True):
        stored = resources.model.objects.get(pk=character.pk)
        assert {public: getattr(stored, name) for public, name in resources.public_fields.items()} == row["resources"]
    changes = list(ResourceChange.objects.filter(campaign=imported).order_by("id"))
    assert len(changes) == len(document["resource_changes"]) > 0
    for change, written in zip(changes, document["resource_changes"], strict=True):
        assert {f"{game}_{name}": value for name, value in change.before.items()} == written["before"]
        assert {f"{game}_{name}": value for name, value in change.after.items()} == written["after"]
