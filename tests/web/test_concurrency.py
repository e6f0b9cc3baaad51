"""Concurrent writers never lose an update and never spend a resource twice.

Two threads, each with its own database connection, spend the same last point at once. The
interleaving is forced rather than hoped for: each thread's dice wait (up to ``WINDOW`` seconds)
for the other thread to reach its dice too. With correct locking the second writer is held at
the lock until the first commits, so the first one's wait times out, it commits, and the second
then finds nothing left to spend and is refused. Without the lock both threads would pay and
meet inside the window, and the test would see two rolls.

The threads need a database they can share with real locking. SQLite's in-memory test database
is shared between threads (shared-cache mode) but answers a second writer with "database table
is locked" at once, so tests/web/conftest.py makes the SQLite test database a file: there,
``transaction_mode=IMMEDIATE`` (gmtools/settings.py) takes the write lock at BEGIN and the second
writer waits (``timeout``) as in production. On PostgreSQL (DATABASE_URL=postgres://..., with
psycopg installed) the row locks (``select_for_update``) do the same.
"""

from __future__ import annotations

import threading

import pytest
from django.db import close_old_connections, connection

from gmtools import games, services
from gmtools.composer import ComposerForm
from gmtools.games.fate.models import Aspect
from gmtools.models import Character, Roll
from tests.games import Game
from tests.web.helpers import run_at_once

WINDOW = 1.0  # seconds a thread's dice wait for the other thread to reach its dice


class Rendezvous:
    """A random source whose first die waits for the other thread's first die (or times out)."""

    def __init__(self, barrier: threading.Barrier, face: int) -> None:
        self.barrier, self.face, self.waited = barrier, face, False
        self.met = False

    def randint(self, a: int, b: int) -> int:
        if not self.waited:
            self.waited = True
            try:
                self.barrier.wait(timeout=WINDOW)
                self.met = True
            except threading.BrokenBarrierError:
                pass  # the other thread is not rolling at the same time: as it should be
        return max(a, min(b, self.face))




def composition(character: Character, **data):
    base = {"dice": 0, "modifier": 0, "pool_from": "traits", "kind": "short", "character": character.pk,
            "first": character.traits.get(key="dexterity").pk, "second": character.traits.get(key="melee").pk,
            "difficulty": 1, "stunt": 0}
    form = ComposerForm(character.campaign, {**base, **data})
    assert form.is_valid(), form.errors
    return form.cleaned_data["composition"]


@pytest.mark.django_db(transaction=True)
def test_the_last_willpower_is_spent_once(make_character, set_ratings):
    solar = make_character(Game.EXALTED, name="Solar", exalted_willpower=5, exalted_willpower_temporary=1)
    set_ratings(solar, dexterity=3, melee=2)
    comps = [composition(solar, willpower="on"), composition(solar, willpower="on")]  # two tabs, one click each
    meet = threading.Barrier(2)
    dice = [Rendezvous(meet, 7), Rendezvous(meet, 7)]

    results = run_at_once(*(lambda i=i: services.record_roll(solar.campaign, comps[i], dice[i]) for i in range(2)))

    rolls = [r for r in results if isinstance(r, Roll)]
    refused = [r for r in results if isinstance(r, services.Refused)]
    assert len(rolls) == 1 and len(refused) == 1, results
    assert "no temporary Willpower" in str(refused[0])
    assert not any(d.met for d in dice)  # the two writers were never inside at the same time
    assert Roll.objects.count() == 1
    assert Character.objects.get(pk=solar.pk).resources.willpower_temporary == 0
    assert Roll.objects.get().spends[0]["what"] == "willpower"


@pytest.mark.django_db(transaction=True)
def test_the_last_fate_point_is_spent_once(make_character, set_ratings):
    hero = make_character(Game.FATE, name="Hero", fate_points=1)
    aspect = Aspect.objects.create(character=hero, text="Lucky", free_invocations=0)
    form = ComposerForm(hero.campaign, {"dice": 0, "modifier": 0, "character": hero.pk, "difficulty": 0,
                                        "stunt_bonus": 0, "helpers": 0, "action": "overcome", "invoke": [aspect.pk]})
    assert form.is_valid(), form.errors
    comp = form.cleaned_data["composition"]
    meet = threading.Barrier(2)
    dice = [Rendezvous(meet, 0), Rendezvous(meet, 0)]

    results = run_at_once(*(lambda i=i: services.record_roll(hero.campaign, comp, dice[i]) for i in range(2)))

    assert sorted(type(r).__name__ for r in results) == ["Refused", "Roll"], results
    assert Character.objects.get(pk=hero.pk).resources.points == 0
    assert Roll.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_adjustments_at_once_are_both_kept(make_character, monkeypatch):
    # A lost update would leave Hunger at 2 (both read 1, both write 2).
    vampire = make_character(Game.V5, name="Vamp", v5_hunger=1)
    meet = threading.Barrier(2)
    change = games.get(Game.V5).play.adjustments["hunger-up"]
    met = []

    def slow_change(character: Character) -> dict:
        # Between reading the row and writing it back: wait for the other click to get here too.
        try:
            meet.wait(timeout=WINDOW)
            met.append(True)
        except threading.BrokenBarrierError:
            pass
        return change(character)

    monkeypatch.setitem(games.get(Game.V5).play.adjustments, "hunger-up", slow_change)
    results = run_at_once(lambda: services.adjust(vampire, "hunger-up"), lambda: services.adjust(vampire, "hunger-up"))
    assert all(isinstance(r, Character) for r in results), results
    assert sorted(r.resources.hunger for r in results) == [2, 3]
    assert not met
    assert Character.objects.get(pk=vampire.pk).resources.hunger == 3


@pytest.mark.django_db(transaction=True)
def test_a_double_click_rerolls_once(make_character, set_ratings):
    vampire = make_character(Game.V5, name="Vamp", v5_hunger=0)
    set_ratings(vampire, strength=3, brawl=2, composure=3, resolve=3)
    form = ComposerForm(vampire.campaign, {"dice": 0, "modifier": 0, "pool_from": "traits", "character": vampire.pk,
                                           "first": vampire.traits.get(key="strength").pk,
                                           "second": vampire.traits.get(key="brawl").pk, "difficulty": 1,
                                           "shortcut": "roll"})
    assert form.is_valid(), form.errors
    parent = services.record_roll(vampire.campaign, form.cleaned_data["composition"], Rendezvous(threading.Barrier(1), 2))
    meet = threading.Barrier(2)
    dice = [Rendezvous(meet, 9), Rendezvous(meet, 9)]
    results = run_at_once(*(lambda i=i: services.follow_up(parent, "reroll", dice[i], dice=[0]) for i in range(2)))
    assert sorted(type(r).__name__ for r in results) == ["Refused", "Roll"], results
    assert Character.objects.get(pk=vampire.pk).resources.willpower_superficial == 1
    assert Roll.objects.count() == 2
