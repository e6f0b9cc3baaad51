"""Simultaneous saves of the character panel (gmtools/characters.py): the losers are refused inline, never a 500.

Five GM tabs (five threads, each with its own test client and database connection) post at once. As in
test_concurrency.py the worst interleaving is forced rather than hoped for: each save, once it has read
what it checks (the sheet validated, the NPC names taken), waits up to ``WINDOW`` seconds for the other
four to get there too. With the row locked before those reads, the others are held at the lock
meanwhile, so the first save's wait times out and the rest follow one at a time; without the lock all
five read the table as it was before any of them wrote. What is asserted does not depend on that
timing: no answer is a 500, exactly one trait is added, every NPC name is distinct.

They run on the suite's database: SQLite here (a file, see conftest.py), PostgreSQL under
``make test-postgres`` or ``DATABASE_URL=postgres://...``.
"""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.test import Client
from django.urls import reverse

from gmtools import characters
from gmtools.characters import NPC_TEMPLATES, CharacterSheet
from gmtools.models import Campaign, Character, Trait
from tests.games import Game
from tests.web.character_data import custom_trait, sheet_post
from tests.web.helpers import run_at_once

pytestmark = pytest.mark.django_db(transaction=True)

TABS = 5
WINDOW = 1.0  # seconds a save waits, after its reads, for the other tabs' saves


class Meeting:
    """Where each save waits for the others after its reads; ``met`` says whether they ever all got there."""

    def __init__(self) -> None:
        self.barrier, self.met = threading.Barrier(TABS), False

    def wait(self) -> None:
        try:
            self.barrier.wait(timeout=WINDOW)
            self.met = True
        except threading.BrokenBarrierError:
            pass  # the others are held at the lock: as they should be


def tab(gm) -> Client:
    client = Client()
    client.force_login(gm)
    return client


def test_five_saves_adding_the_same_trait_add_it_once_and_refuse_the_rest_inline(gm, monkeypatch):
    campaign = Campaign.objects.create(name="Five tabs", game=Game.V5, gm=gm)
    ana = Character.objects.create_with_sheet(campaign=campaign, name="Ana")
    data = custom_trait(sheet_post(campaign, ana), "traits-3", "Dominate", 2)  # Disciplines: the third category
    url = reverse("character-edit", kwargs={"pk": campaign.pk, "character_pk": ana.pk})
    meeting = Meeting()
    validated = CharacterSheet.is_valid

    def validated_then_wait(sheet: CharacterSheet) -> bool:
        valid = validated(sheet)
        meeting.wait()
        return valid

    monkeypatch.setattr(CharacterSheet, "is_valid", validated_then_wait)
    clients = [tab(gm) for _ in range(TABS)]
    answers = run_at_once(*(lambda c=c: c.post(url, data) for c in clients))

    assert not any(isinstance(a, BaseException) for a in answers), answers  # a 500 raises in the test client
    assert sorted(a.status_code for a in answers) == [200] + [422] * (TABS - 1)
    for refused in (a for a in answers if a.status_code == 422):
        assert "already has a trait with this name" in refused.content.decode()
    assert Trait.objects.filter(character=ana, name="Dominate").count() == 1
    assert not meeting.met


@pytest.mark.parametrize("game", [Game.SCIFI, Game.EXALTED])
def test_five_npc_templates_at_once_are_numbered_apart(gm, monkeypatch, game):
    campaign = Campaign.objects.create(name="Five tabs", game=game, gm=gm)
    template = NPC_TEMPLATES[game][0]
    url = reverse("npc-template", kwargs={"pk": campaign.pk})
    meeting = Meeting()
    numbered = characters._numbered

    def numbered_then_wait(*args, **kwargs) -> list[str]:
        names = numbered(*args, **kwargs)
        meeting.wait()
        return names

    monkeypatch.setattr(characters, "_numbered", numbered_then_wait)
    clients = [tab(gm) for _ in range(TABS)]
    answers = run_at_once(*(lambda c=c: c.post(url, {"template": template.key, "name": "", "count": 2})
                            for c in clients))

    assert not any(isinstance(a, BaseException) for a in answers), answers
    assert [a.status_code for a in answers] == [200] * TABS
    names = Counter(campaign.characters.values_list("name", flat=True))
    assert sorted(names) == sorted(f"{template.name} {n}" for n in range(1, 2 * TABS + 1))
    assert set(names.values()) == {1}
    assert not meeting.met

