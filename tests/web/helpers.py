"""Helpers shared by the web tests: scripted dice, the composer's defaults, parallel writers, Redis."""

from __future__ import annotations

import socket
import threading

from django.db import close_old_connections, connection

from tests.games import Game


def set_resources(owner, **values) -> None:
    """Set a character's resource columns (or a campaign's state) by their public names (``v5_hunger``,
    ``fate_deck``: ``gmtools.games.base.models``), on its game's row, saved."""
    from gmtools import games
    from gmtools.models import Campaign

    system = games.get(owner.game)
    columns, row = (system.state, owner.state) if isinstance(owner, Campaign) else (system.resources, owner.resources)
    for name, value in values.items():
        setattr(row, columns.public_fields[name], value)
    if values:
        row.save()


class Faces:
    """A random source returning scripted faces in order; asking for more fails the test."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)
        self.asked: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        self.asked.append((a, b))
        assert self.faces, f"the roll asked for more dice than scripted (die {len(self.asked)})"
        face = self.faces.pop(0)
        assert a <= face <= b, (face, a, b)
        return face

    @property
    def spent(self) -> bool:
        return not self.faces


# What the composer submits when the GM changes nothing, per game.
COMMON = {"dice": 0, "modifier": 0, "pool_from": "traits", "kind": "short"}
DEFAULTS = {
    Game.EXALTED: {"difficulty": 1, "stunt": 0},
    Game.V5: {"difficulty": 1, "shortcut": "roll"},
    Game.FATE: {"difficulty": 0, "stunt_bonus": 0, "helpers": 0, "action": "overcome"},
    Game.SCIFI: {"difficulty": "common"},
}
# The traits a roll of each game is made of (first, second).
POOL_TRAITS = {
    Game.EXALTED: ("dexterity", "melee"), Game.V5: ("strength", "brawl"),
    Game.FATE: ("forceful", None), Game.SCIFI: ("agility", "firearms"),
}


def compose_and_roll(campaign, character, faces, *, streams=None, **data):
    """A roll through the composer's form and ``services.record_roll``, on scripted faces (all of
    them drawn): the game's usual traits (``POOL_TRAITS``) unless ``data`` says otherwise; claimed for
    ``streams`` (a request's ``gmtools.live.WritersDrawing``) if given."""
    from gmtools import services
    from gmtools.composer import ComposerForm
    from gmtools.models import Scene

    fields = {**COMMON, **DEFAULTS[campaign.game], **data}
    if character is not None:
        fields["character"] = character.pk
        for name, key in zip(("first", "second"), POOL_TRAITS[campaign.game]):
            if key:
                fields.setdefault(name, character.traits.get(key=key).pk)
    form = ComposerForm(campaign, fields, scene=Scene.objects.current(campaign))
    assert form.is_valid(), form.errors
    rng = Faces(*faces)
    logged = services.record_roll(campaign, form.cleaned_data["composition"], rng, streams=streams)
    assert rng.spent, f"faces left undrawn: {rng.faces}"
    return logged


def run_at_once(*jobs, timeout: float = 120) -> list:
    """Run the jobs at once, each in its own thread (and connection); their results or exceptions."""
    start = threading.Barrier(len(jobs))
    results: list[object] = [None] * len(jobs)

    def run(i: int, job) -> None:
        try:
            start.wait(timeout=10)
            results[i] = job()
        except BaseException as error:  # noqa: BLE001 - reported to the test
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
        assert not thread.is_alive(), "a writer is stuck"
    close_old_connections()
    return results


def redis_unreachable() -> str | None:
    """Why the Redis at 127.0.0.1:6379 (there on this machine and in CI) cannot be used, or None."""
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
    except OSError:
        return "no Redis at 127.0.0.1:6379"
    return None


def named_aspect(entry):
    """A new aspect of the character who made ``entry``, for an invocation paid with a fate point:
    an invocation names its aspect (issue 23)."""
    from gmtools.games.fate.models import Aspect
    return Aspect.objects.create(character_id=entry.character_id,
                                 text=f"Aspect {Aspect.objects.count() + 1}")
