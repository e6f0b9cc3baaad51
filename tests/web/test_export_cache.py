"""Whole-campaign exports (gmtools.recap.written): written once per change at the table, for each
audience, format and language; and a few a minute per address and per player link (gmtools.throttle)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from gmtools import recap, throttle
from gmtools.models import Campaign, Character
from tests.games import Game
from tests.web.helpers import compose_and_roll


@pytest.fixture
def ana(make_character, set_ratings) -> Character:
    """V5, Strength 2 + Brawl 1 at Hunger 1: two dice and a hunger die."""
    character = make_character(Game.V5, name="Ana", v5_hunger=1)
    set_ratings(character, strength=2, brawl=1)
    return character


@pytest.fixture
def writes(monkeypatch) -> list[str]:
    """Each time the log is written out, its format."""
    calls: list[str] = []
    for name, fmt in (("to_markdown", "md"), ("to_csv", "csv")):
        write = getattr(recap, name)
        monkeypatch.setattr(recap, name, lambda *args, write=write, fmt=fmt, **kwargs: calls.append(fmt) or write(*args, **kwargs))
    return calls


def export(client: Client, character: Character, fmt: str = "md", players: bool = False, **headers):
    params = {"part": "campaign", "format": fmt} | ({"players": "on"} if players else {})
    response = client.get(reverse("export", args=[character.campaign.pk]), params, **headers)
    assert response.status_code == 200, response.content[:300]
    return response.content.decode()


def recap_of(character: Character, client: Client | None = None, **headers):
    return (client or Client()).get(reverse("player-recap", args=[character.campaign.player_token]),
                                    {"part": "campaign"}, **headers)


def test_an_export_is_written_once_until_the_next_change(gm_client, ana, writes):
    compose_and_roll(ana.campaign, ana, (6, 2, 3), label="Climb")
    first = export(gm_client, ana)
    assert export(gm_client, ana) == first and writes == ["md"]
    assert export(gm_client, ana, "csv") == export(gm_client, ana, "csv") and writes == ["md", "csv"]
    compose_and_roll(ana.campaign, ana, (7, 2, 3), label="Punch")  # a change at the table
    assert "Punch" in export(gm_client, ana) and "Punch" in export(gm_client, ana, "csv")
    assert writes == ["md", "csv", "md", "csv"]


def test_the_heading_is_the_requests_own_and_the_log_beneath_it_is_kept(gm_client, ana, writes, monkeypatch):
    compose_and_roll(ana.campaign, ana, (6, 2, 3), label="Climb")
    first = export(gm_client, ana)
    real, later_on = timezone.localtime, datetime(2031, 1, 2, 3, 4, tzinfo=UTC)
    monkeypatch.setattr(timezone, "localtime", lambda value=None: real(later_on if value is None else value))
    later = export(gm_client, ana)
    assert later.splitlines()[2].endswith("exported 2031-01-02 03:04_") and "2031" not in first
    assert later.splitlines()[3:] == first.splitlines()[3:] and writes == ["md"]


def test_the_players_never_read_the_gms_written_export(gm_client, ana, writes):
    compose_and_roll(ana.campaign, ana, (6, 2, 3), label="Climb")
    compose_and_roll(ana.campaign, ana, (9, 8, 3), label="Pickpocket", hidden="on")
    assert "Pickpocket" in export(gm_client, ana)
    players = recap_of(ana).content.decode()
    assert "Climb" in players and "Pickpocket" not in players
    assert "Pickpocket" not in export(gm_client, ana, players=True)  # the GM's copy for the players
    assert writes == ["md", "md"]  # the players' text, written once for the link and the GM's copy


def test_each_language_has_its_own_written_export(gm_client, ana):
    compose_and_roll(ana.campaign, ana, (6, 2, 3), label="Climb")
    english, spanish = export(gm_client, ana), export(gm_client, ana, HTTP_ACCEPT_LANGUAGE="es")
    assert "**Special results**" in english and "**Resultados especiales**" in spanish  # in the log, not its heading


def test_an_address_gets_a_few_exports_a_minute_then_a_429_page_in_its_language(gm_client, ana, monkeypatch):
    monkeypatch.setattr(throttle, "EXPORTS_PER_ADDRESS", 3)
    for _ in range(3):
        export(gm_client, ana)
    url = reverse("export", args=[ana.campaign.pk])
    refused = gm_client.get(url, {"part": "campaign", "format": "csv"})
    assert refused.status_code == 429 and refused["Retry-After"] == str(throttle.EXPORT_WINDOW)
    assert "asked for the roll log too many times" in refused.content.decode()
    spanish = gm_client.get(url, {"part": "campaign", "format": "md"}, HTTP_ACCEPT_LANGUAGE="es")
    assert spanish.status_code == 429 and "ha pedido el registro de tiradas demasiadas veces" in spanish.content.decode()
    assert recap_of(ana).status_code == 429  # the players' recap from this address too
    assert recap_of(ana, Client(REMOTE_ADDR="192.0.2.4")).status_code == 200  # another address goes on


def test_a_player_link_gets_its_tables_share_whatever_addresses_ask(ana, monkeypatch):
    monkeypatch.setattr(throttle, "EXPORTS_PER_ADDRESS", 3)
    monkeypatch.setattr(throttle, "EXPORTS_PER_LINK", 5)
    looping, second, third = (Client(REMOTE_ADDR=f"192.0.2.{n}") for n in (10, 11, 12))
    assert [recap_of(ana, looping).status_code for _ in range(6)] == [200] * 3 + [429] * 3
    # The loop's refused recaps spent nothing of the link's: two are left for the table.
    assert [recap_of(ana, second).status_code for _ in range(3)] == [200, 200, 429]
    body = recap_of(ana, third).content.decode()
    assert "asked for the roll log too many times" in body
    other = Character.objects.create_with_sheet(
        campaign=Campaign.objects.create(name="Other table", game=Game.V5, gm=ana.campaign.gm), name="Bo")
    assert recap_of(other, third).status_code == 200  # another campaign's link has its own share
