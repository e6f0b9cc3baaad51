"""The migration that moved each game's columns off the shared tables into its own (issue 21).

Until then every character had every game's resource columns, and every campaign every game's state,
named ``<game>_<column>`` (``v5_hunger``); each game's first migration makes its own tables and copies
its characters' and campaigns' values into them, before the core's next migration drops the shared
columns (``gmtools/migrations/0015``). The one-click changes kept for Undo name the columns as they
are now. Backwards, the values go back the same way.
"""

from collections.abc import Callable
from typing import Any

from django.db import migrations


def _columns(model: Any) -> list[str]:
    return [field.name for field in model._meta.local_fields if not field.primary_key]


def _copied(game: str, owner: str, model_name: str) -> tuple[Callable[..., None], Callable[..., None]]:
    """Copy a game's columns of ``owner`` (Character or Campaign) into its model, and back."""
    link = f"{owner.lower()}_id"

    def forwards(apps: Any, schema_editor: Any) -> None:
        shared, own = apps.get_model("gmtools", owner), apps.get_model(game, model_name)
        names = _columns(own)
        where = {"campaign__game": game} if owner == "Character" else {"game": game}
        rows = shared.objects.filter(**where).values("pk", *(f"{game}_{name}" for name in names))
        own.objects.bulk_create((own(**{link: row["pk"]}, **{name: row[f"{game}_{name}"] for name in names})
                                 for row in rows.iterator()), batch_size=500)

    def backwards(apps: Any, schema_editor: Any) -> None:
        shared, own = apps.get_model("gmtools", owner), apps.get_model(game, model_name)
        names = _columns(own)
        for row in own.objects.values(link, *names).iterator():
            shared.objects.filter(pk=row[link]).update(**{f"{game}_{name}": row[name] for name in names})

    return forwards, backwards


def _undo_keys(game: str, forwards: bool) -> Callable[..., None]:
    """A one-click change's ``before`` and ``after`` by the columns' new names (or back)."""
    def rename(apps: Any, schema_editor: Any) -> None:
        changes = apps.get_model("gmtools", "ResourceChange").objects.filter(campaign__game=game)
        for change in changes.iterator():
            for side in ("before", "after"):
                values = getattr(change, side)
                setattr(change, side, {(key.removeprefix(f"{game}_") if forwards else f"{game}_{key}"): value
                                       for key, value in values.items()})
            change.save(update_fields=["before", "after"])
    return rename


def moved(game: str, resources: str | None = None, state: str | None = None) -> list[migrations.RunPython]:
    """The operations that move a game's columns into its models ``resources`` (of its characters)
    and ``state`` (of its campaigns), and back."""
    operations = []
    for owner, model_name in (("Character", resources), ("Campaign", state)):
        if model_name is not None:
            operations.append(migrations.RunPython(*_copied(game, owner, model_name)))
    if resources is not None:
        operations.append(migrations.RunPython(_undo_keys(game, True), _undo_keys(game, False)))
    return operations
