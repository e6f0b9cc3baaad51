"""Physical dice in the pure engine (issue 24): ``Thrown`` gives the faces entered in draw order, and
``Entry.wanted`` counts the dice an entry calls for, scifi's explosions as they come."""

from __future__ import annotations

import pytest

from rules import scifi, v5
from rules.dice import Entry, RulesError, Thrown


def test_thrown_reads_the_faces_in_order_and_refuses_one_more() -> None:
    source = Thrown([10, 6, 2, 10, 1])
    result = v5.roll(v5.Request(pool=5, hunger=2, difficulty=1), source)
    assert (result.faces, result.hunger_faces, source.left) == ((10, 6, 2), (10, 1), 0)
    with pytest.raises(RulesError, match="die 6"):
        source.randint(1, 10)


def test_thrown_refuses_a_face_the_die_has_not() -> None:
    with pytest.raises(RulesError, match="die 1: 0"):
        Thrown([0]).randint(1, 10)


@pytest.mark.parametrize(("faces", "wanted"), [
    ((), 3), ((10,), 4), ((10, 4, 2), 4), ((10, 4, 2, 10), 5), ((10, 4, 2, 10, 7), 5), ((1, 10, 10, 10, 10), 7),
    ((1, 2, 3, 10), 3),  # a 10 past the dice called for (a fourth die typed by mistake) calls for none
])
def test_scifi_entries_grow_with_their_tens(faces, wanted) -> None:
    assert Entry(dice=3, explodes=10).wanted(faces) == wanted


def test_an_entry_without_explosions_wants_its_pool() -> None:
    assert Entry(dice=5).wanted((10, 10, 10)) == 5


def test_scifi_reads_the_explosions_as_entered() -> None:
    result = scifi.roll(scifi.Request(pool=3, difficulty=1), Thrown([10, 4, 2, 10, 7]))
    assert (result.roll.faces, result.roll.explosions, result.successes) == ((10, 4, 2), (10, 7), 3)
