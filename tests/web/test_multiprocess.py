"""The live push across server processes: a roll made through one reaches viewers of another.

Two real ``gmtools.serve`` processes share a fresh PostgreSQL database (tests/web/servers.py);
the only path from a roll committed by process A to a stream held by process B is PostgreSQL's
NOTIFY (gmtools/live.py), which no in-process test can exercise. A stream also re-reads the
database every ``live.KEEPALIVE`` (15) seconds, so the 5 s limit below fails a lost notification
instead of letting that fallback hide it.

These tests use no Django test database (no ``db`` fixture): the servers own theirs. Without a
reachable PostgreSQL they are skipped, except in CI (CI=true), where they fail instead.
"""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest

from tests.web import servers
from tests.web.servers import Cluster, Event, Stream

ARRIVAL = 5.0  # seconds for an event to reach another process's viewers
QUIET = 1.0  # seconds of silence that prove no duplicate follows


@pytest.fixture(scope="module")
def postgres() -> None:
    """Skip (or, in CI, fail) at once when there is no PostgreSQL to run the servers on."""
    reason = servers.postgres_unreachable()
    if reason is not None:
        if servers.IN_CI:
            pytest.fail(f"CI must run the multi-process tests: {reason}")
        pytest.skip(reason)


async def arrival(stream: Stream, sent_at: float, what: str) -> Event:
    """The stream's next event, which must come within ``ARRIVAL`` seconds of the roll's request."""
    try:
        return await stream.next(timeout=max(0.0, sent_at + ARRIVAL - time.perf_counter()))
    except TimeoutError:
        raise AssertionError(f"{what}: no event within {ARRIVAL} s of the roll (received so far: "
                             f"{[(e.name, e.id, e.rolls) for e in stream.received]})") from None


async def quiet(stream: Stream, what: str) -> None:
    """Nothing more arrives (a duplicate or a stray change would)."""
    try:
        extra = await stream.next(timeout=QUIET)
    except TimeoutError:
        return
    raise AssertionError(f"{what}: unexpected event {extra.name} id={extra.id} rolls={extra.rolls}")


def assert_announces(event: Event, roll: int, change: int, what: str) -> None:
    assert event.name == "change", (what, event)
    assert f'id="roll-{roll}"' in event.data, f"{what}: the event does not carry roll {roll}'s card: {event.data[:500]}"
    assert event.rolls[0] == roll, (what, event.rolls)
    assert event.id == str(change), f"{what}: event id {event.id}, but roll {roll} was announced by change {change}"


async def roll_through_a_watch_on_b(cluster: Cluster) -> None:
    a, b = cluster.servers
    v5 = cluster.campaign("v5")
    async with httpx.AsyncClient() as gm_browser, httpx.AsyncClient() as phone, servers.streams() as opened:
        gm = await servers.GM.login(a, gm_browser)
        player = await servers.player_stream(phone, b, v5.player_token)
        tab = await servers.gm_stream(gm, b, v5.pk)
        opened += [player, tab]

        first = await gm.roll(a, v5.pk)
        change = cluster.change_of(first.pk)
        for stream, what in ((player, "player stream on B"), (tab, "GM stream on B")):
            event = await arrival(stream, first.sent_at, what)
            assert_announces(event, first.pk, change, what)

        # The phone reconnects where it was; two more rolls arrive, each once, in order.
        await player.close()
        player = await servers.player_stream(phone, b, v5.player_token, after=change)
        opened.append(player)
        second = await gm.roll(a, v5.pk)
        third = await gm.roll(a, v5.pk)
        for stream, what in ((player, "reconnected player stream on B"), (tab, "GM stream on B")):
            for rolled in (second, third):
                event = await arrival(stream, rolled.sent_at, what)
                assert_announces(event, rolled.pk, cluster.change_of(rolled.pk), what)
            await quiet(stream, what)


def test_a_roll_through_one_process_reaches_the_streams_of_another(postgres: None) -> None:
    # The servers' logs are printed to stderr (shown by pytest) when anything in the block fails.
    with servers.running(2) as cluster:
        asyncio.run(roll_through_a_watch_on_b(cluster))
        errors = cluster.errors()
        assert not errors, "the servers logged errors:\n" + "\n".join(errors)


async def open_many_then_count_connections(cluster: Cluster, count: int) -> tuple[int, int]:
    """Database sessions of the servers before and after ``count`` phones and a GM tab open streams."""
    server = cluster.servers[0]
    v5 = cluster.campaign("v5")
    sessions = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
    async with httpx.AsyncClient() as gm_browser, httpx.AsyncClient() as phones, servers.streams() as opened:
        gm = await servers.GM.login(server, gm_browser)
        opened.append(await servers.gm_stream(gm, server, v5.pk))
        [(before,)] = servers.query(cluster.database, sessions)
        opened += await asyncio.gather(*(servers.player_stream(phones, server, v5.player_token, after=0)
                                         for _ in range(count)))
        rolled = await gm.roll(server, v5.pk)
        for stream in opened:  # every stream is alive and served
            while rolled.pk not in (await arrival(stream, rolled.sent_at, "open stream")).rolls:
                pass
        [(after,)] = servers.query(cluster.database, sessions)
    return before, after


def test_open_streams_hold_no_database_connection(postgres: None) -> None:
    """30 phones watching do not cost 30 database sessions: a stream holds none while it waits."""
    with servers.running(1) as cluster:
        before, after = asyncio.run(open_many_then_count_connections(cluster, 30))
        # The pool may keep a few more for the threads that drew the roll, never one per phone.
        assert after < before + 30 // 2, (before, after)
        errors = cluster.errors()
        assert not errors, "the servers logged errors:\n" + "\n".join(errors)
