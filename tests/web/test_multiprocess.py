"""The live push across server processes: a roll made through one reaches viewers of another.

Two real ``gmtools.serve`` processes share a fresh PostgreSQL database (tests/web/servers.py);
the only path from a roll committed by process A to a stream held by process B is PostgreSQL's
NOTIFY (gmtools/live/waking.py), which no in-process test can exercise. A stream also re-reads the
database every ``live.streaming.KEEPALIVE`` (15) seconds, so the 5 s limit below fails a lost notification
instead of letting that fallback hide it.

These tests use no Django test database (no ``db`` fixture): the servers own theirs. Without a
reachable PostgreSQL they are skipped, except in CI (CI=true), where they fail instead.
"""

from __future__ import annotations

import asyncio
import re
import time
import uuid
from collections.abc import Iterator

import httpx
import pytest

from tests.web import servers
from tests.web.helpers import redis_unreachable
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


@pytest.mark.skipif(redis_unreachable() is not None, reason="Redis is not running here")
def test_with_the_shared_cache_rolls_drawn_by_their_request_reach_another_process(postgres: None, monkeypatch) -> None:
    """As a club runs it (REDIS_URL, README "Production"): the request that rolls through A claims the
    players' drawing before commit and stores it after (gmtools.live.writers.WritersDrawing; the in-process
    tests in test_live.py show that no stream draws it again); B's streams, woken at commit, send
    it, each roll once and in order, and one drawing per roll is shared."""
    import redis

    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:6379/0")  # the servers inherit this environment
    with servers.running(2) as cluster:
        asyncio.run(roll_through_a_watch_on_b(cluster))
        errors = cluster.errors()
        assert not errors, "the servers logged errors:\n" + "\n".join(errors)
        shared = redis.Redis.from_url("redis://127.0.0.1:6379/0")
        drawn = shared.keys(f"{cluster.database}:1:gmtools:drawn:*:player:*")
        claimed = shared.keys(f"{cluster.database}:1:gmtools:drawn:*:player:*:claimed")
        assert len(drawn) - len(claimed) == 3  # the three rolls, drawn for the players once each
        shared.delete(*drawn)


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


# --- a worker killed mid-session -----------------------------------------------------------------

async def until_rolls(phone: servers.Phone, wanted: list[int], sent_at: float, what: str) -> None:
    """Wait until the phone has received a change for each roll in ``wanted`` (or fail after ``ARRIVAL`` s)."""
    deadline = sent_at + ARRIVAL
    while not set(wanted) <= {e.rolls[0] for e in phone.changes() if e.rolls}:
        try:
            await asyncio.wait_for(phone.events.get(), max(0.0, deadline - time.perf_counter()))
        except TimeoutError:
            raise AssertionError(f"{what}: rolls {wanted} not all received within {ARRIVAL} s; received "
                                 f"{[(e.name, e.id, e.rolls) for e in phone.received]}; streams "
                                 f"{phone.connections}, failures {phone.failures}") from None


async def kill_the_phones_server(cluster: Cluster) -> None:
    a, b = cluster.servers
    v5 = cluster.campaign("v5")
    async with httpx.AsyncClient() as gm_browser, httpx.AsyncClient() as phone_browser:
        gm = await servers.GM.login(b, gm_browser)
        page = await phone_browser.get(f"{a.url}/p/{v5.player_token}/")
        phone = servers.Phone(v5.player_token, [a, b], cursor=int(servers.page_attribute(page.text, "data-cursor")))
        phone.start(phone_browser)
        try:
            assert await phone.until_connected() == a.port
            rolls = []
            for _ in range(2):  # before: live on A, through NOTIFY
                rolls.append(await gm.roll(b, v5.pk))
                await until_rolls(phone, [rolls[-1].pk], rolls[-1].sent_at, "before the kill, on A")

            phone.online.clear()  # from now on the phone reconnects only when the test says
            rolls.append(await gm.roll(b, v5.pk))  # just before the kill: A may or may not pass it on
            a.kill()
            await asyncio.wait_for(phone.dropped.wait(), ARRIVAL)
            assert not phone.connected.is_set()
            for _ in range(2):  # while the phone is away: committed before its next stream opens
                rolls.append(await gm.roll(b, v5.pk))
            phone.online.set()
            assert await phone.until_connected() == b.port
            rolls.append(await gm.roll(b, v5.pk))  # after: live on B
            await until_rolls(phone, [r.pk for r in rolls], rolls[-1].sent_at, "after the reconnect, on B")
            await asyncio.sleep(QUIET)  # a duplicate would come now
        finally:
            await phone.close()

    # Every roll exactly once, in order, each under the id of the change that announced it: what
    # the two streams sent, not what a page would keep after skipping known ids.
    changes = phone.changes()
    assert [e.rolls[:1] for e in changes] == [[r.pk] for r in rolls], [(e.id, e.rolls) for e in phone.received]
    assert [e.id for e in changes] == [str(cluster.change_of(r.pk)) for r in rolls]
    assert [e.name for e in phone.received] == ["change"] * len(rolls)
    assert phone.connections == [a.port, b.port], phone.connections
    assert len(phone.failures) == 1 and phone.failures[0].startswith(f"port {a.port}:"), phone.failures


def test_a_worker_killed_mid_session_loses_no_roll_for_the_players(postgres: None) -> None:
    """A phone watches through process A, the GM rolls through B, A is SIGKILLed: the phone
    reopens its stream on B from its cursor and gets every roll, before and after, exactly once."""
    with servers.running(2) as cluster:
        asyncio.run(kill_the_phones_server(cluster))
        errors = cluster.errors()
        assert not errors, "the servers logged errors:\n" + "\n".join(errors)


PHONES = 6


async def kill_each_worker_in_turn(cluster: Cluster) -> None:
    [server] = cluster.servers
    v5 = cluster.campaign("v5")
    no_reuse = httpx.Limits(max_keepalive_connections=0)  # the GM's next request never rides a dead worker's socket
    async with httpx.AsyncClient(limits=no_reuse) as gm_browser, httpx.AsyncClient() as phone_browser:
        gm = await servers.GM.login(server, gm_browser)
        page = await phone_browser.get(f"{server.url}/p/{v5.player_token}/")
        cursor = int(servers.page_attribute(page.text, "data-cursor"))
        phones = [servers.Phone(v5.player_token, [server], cursor) for _ in range(PHONES)]
        for phone in phones:
            phone.start(phone_browser)
        try:
            for phone in phones:
                await phone.until_connected()
            rolls = [await gm.roll(server, v5.pk)]
            for worker in server.worker_pids():  # the two original workers, one after the other
                await asyncio.to_thread(server.kill_worker, worker)
                rolls += [await gm.roll(server, v5.pk) for _ in range(2)]
                for phone in phones:
                    await phone.until_connected()
            rolls.append(await gm.roll(server, v5.pk))
            for i, phone in enumerate(phones):
                await until_rolls(phone, [r.pk for r in rolls], rolls[-1].sent_at, f"phone {i}")
            await asyncio.sleep(QUIET)
        finally:
            for phone in phones:
                await phone.close()

    for i, phone in enumerate(phones):
        changes = phone.changes()
        assert [e.rolls[:1] for e in changes] == [[r.pk] for r in rolls], (i, [(e.id, e.rolls) for e in phone.received])
        assert [e.id for e in changes] == [str(cluster.change_of(r.pk)) for r in rolls], i
        # Each phone was on one of the two killed workers: it lost its stream once or twice, and resumed.
        assert 1 <= len(phone.failures) <= 2 and len(phone.connections) == len(phone.failures) + 1, (i, phone.failures)


def test_a_supervised_worker_killed_is_replaced_and_its_phones_resume(postgres: None) -> None:
    """``gmtools.serve --workers 2``: each worker SIGKILLed in turn; uvicorn's supervisor starts a
    new one, the phones it held resume at the same address from their cursors, and every phone
    gets every roll exactly once."""
    with servers.running(1, workers=2) as cluster:
        asyncio.run(kill_each_worker_in_turn(cluster))
        errors = cluster.errors()
        assert not errors, "the servers logged errors:\n" + "\n".join(errors)


# --- concurrency through real servers ---------------------------------------------------------
#
# PARALLEL requests of the same kind, sent together over HTTP (asyncio tasks, one connection each),
# alternately to process A and process B: the row locks (select_for_update) must serialise them
# across processes. The dice are the servers' own, so every assertion holds whatever the faces:
# counts, sums, and the chain of totals each accepted request saw.

PARALLEL = 20


@pytest.fixture(scope="module")
def pair(postgres: None) -> Iterator[Cluster]:
    """Two server processes shared by the concurrency tests (each works on its own character or roll)."""
    with servers.running(2) as cluster:
        yield cluster


async def at_once(gm: servers.GM, cluster: Cluster, path: str, data: dict) -> list[httpx.Response]:
    """PARALLEL posts of the same form, all in flight together, half through each process: as many
    clicks, each with its own one-click key when the form has one (issue 23)."""
    def click() -> dict:
        return {**data, "once": [str(uuid.uuid4())]} if "once" in data else data
    return list(await asyncio.gather(*(gm.post(cluster.servers[i % 2], path, click()) for i in range(PARALLEL))))


ENTRY_ID = re.compile(r'\bid="(?:roll|follow-up)-(\d+)"')


def accepted_of(answers: list[httpx.Response], *refusals: str) -> list[int]:
    """The new log cards' roll ids of the accepted answers; every other answer a 422 saying one of ``refusals``."""
    odd = [(a.status_code, a.text[:500]) for a in answers if a.status_code not in (200, 422)]
    assert not odd, odd
    for answer in answers:
        if answer.status_code == 422:
            message = servers.refusal(answer)
            assert any(words in message for words in refusals), message
    # The entry each made: its card's roll, or the follow-up the card now ends with (issue 23: a
    # follow-up is a line on its roll's card, the newest entry on it).
    made = [max((int(pk) for pk in ENTRY_ID.findall(a.text)), default=None) for a in answers if a.status_code == 200]
    assert None not in made, "an accepted answer without its log card"
    return sorted(pk for pk in made if pk is not None)


def newer(cluster: Cluster, sql: str, *args: object) -> list[tuple]:
    return servers.query(cluster.database, sql, *args)


def latest_ids(cluster: Cluster) -> tuple[int, int]:
    [(roll, change)] = newer(cluster, "SELECT (SELECT coalesce(max(id), 0) FROM gmtools_roll), "
                                      "(SELECT coalesce(max(id), 0) FROM gmtools_change)")
    return roll, change


def assert_logged_once_each(cluster: Cluster, accepted: list[int], since: tuple[int, int]) -> list[tuple]:
    """Each accepted request is one roll and one change; a refused one left neither. The new rows."""
    rolls = newer(cluster, "SELECT id, kind, spends, result, willpower_spent, parent_id, extended_id "
                           "FROM gmtools_roll WHERE id > %s ORDER BY id", since[0])
    assert [r[0] for r in rolls] == accepted
    announced = newer(cluster, "SELECT roll_id FROM gmtools_change WHERE id > %s ORDER BY id", since[1])
    assert sorted(r for (r,) in announced) == accepted
    return rolls


async def spend_willpower_at_once(cluster: Cluster) -> None:
    exalted = cluster.campaign("exalted")
    async with httpx.AsyncClient(timeout=60) as browser:
        gm = await servers.GM.login(cluster.servers[0], browser)
        data = await gm.composed(cluster.servers[0], exalted.pk, willpower="on")
        character = int(data["character"][0])
        sql = "SELECT willpower_temporary FROM exalted_exaltedresources WHERE character_id = %s"
        [(start,)] = newer(cluster, sql, character)
        assert 0 < start < PARALLEL  # some are paid, the rest must be refused
        since = latest_ids(cluster)
        answers = await at_once(gm, cluster, f"/campaigns/{exalted.pk}/roll/", data)
    accepted = accepted_of(answers, "no temporary Willpower")
    [(left,)] = newer(cluster, sql, character)
    assert (len(accepted), left) == (start, 0)  # each point spent once, none twice, none below zero
    rolls = assert_logged_once_each(cluster, accepted, since)
    assert all(r[4] and [s["what"] for s in r[2]] == ["willpower"] for r in rolls), rolls


def test_parallel_rolls_spend_each_willpower_point_once(pair: Cluster) -> None:
    asyncio.run(spend_willpower_at_once(pair))
    errors = pair.errors()
    assert not errors, "the servers logged errors:\n" + "\n".join(errors)


LIMIT = 7  # rolls the extended action takes; its goal (200) is out of reach in as many rolls


async def roll_into_one_extended_action_at_once(cluster: Cluster) -> None:
    exalted = cluster.campaign("exalted")
    async with httpx.AsyncClient(timeout=60) as browser:
        gm = await servers.GM.login(cluster.servers[0], browser)
        data = await gm.composed(cluster.servers[0], exalted.pk)
        made = await gm.post(cluster.servers[1], f"/campaigns/{exalted.pk}/extended/new/", {
            "name": "Scale the garrison wall", "character": data["character"][0], "traits": "", "kind": "solo",
            "goal": 200, "pool": 0, "interval": "1 turn", "difficulty": 0, "botch": "ignore", "limit": LIMIT,
            "opponent": "", "opponent_pool": 0})
        assert made.status_code == 200, made.text[:1000]
        [(action,)] = newer(cluster, "SELECT id FROM gmtools_extendedaction WHERE campaign_id = %s AND name = %s",
                            exalted.pk, "Scale the garrison wall")
        since = latest_ids(cluster)
        answers = await at_once(gm, cluster, f"/campaigns/{exalted.pk}/roll/", {**data, "extended": [str(action)]})
    accepted = accepted_of(answers, "is already over", "is over (or gone)")
    assert len(accepted) == LIMIT  # a botch is ignored and the goal is out of reach: only the limit ends it
    rolls = assert_logged_once_each(cluster, accepted, since)
    assert all(r[6] == action for r in rolls)
    # No lost update: each roll, in the order the lock let them in, found the total the previous one left.
    total = 0
    for done, (_pk, _kind, _spends, result, *_rest) in enumerate(rolls):
        step = result["extended"]
        assert (step["before"]["total"], step["before"]["rolls"]) == (total, done), (done, step)
        assert step["total"] == total + step["rolled"]["successes"] == total + result["main"]["successes"]
        total = step["total"]
    [(kept, count, ruined)] = newer(cluster, "SELECT total, rolls, ruined FROM gmtools_extendedaction WHERE id = %s",
                                    action)
    assert (kept, count, ruined) == (total, LIMIT, False)


def test_parallel_rolls_into_one_extended_action_lose_no_update(pair: Cluster) -> None:
    asyncio.run(roll_into_one_extended_action_at_once(pair))
    errors = pair.errors()
    assert not errors, "the servers logged errors:\n" + "\n".join(errors)


async def reroll_one_roll_at_once(cluster: Cluster) -> None:
    v5 = cluster.campaign("v5")
    async with httpx.AsyncClient(timeout=60) as browser:
        gm = await servers.GM.login(cluster.servers[0], browser)
        parent = await gm.roll(cluster.servers[0], v5.pk)
        [(character,)] = newer(cluster, "SELECT character_id FROM gmtools_roll WHERE id = %s", parent.pk)
        sql = "SELECT willpower_superficial, willpower_aggravated FROM v5_v5resources WHERE character_id = %s"
        [before] = newer(cluster, sql, character)
        since = latest_ids(cluster)
        answers = await at_once(gm, cluster, f"/campaigns/{v5.pk}/rolls/{parent.pk}/follow-up/reroll/", {"dice": ["0"]})
    accepted = accepted_of(answers, "already been followed up")
    assert len(accepted) == 1  # one reroll per roll, paid once
    [after] = newer(cluster, sql, character)
    assert after == (before[0] + 1, before[1])
    [(_pk, kind, spends, _result, _wp, parent_id, _ext)] = assert_logged_once_each(cluster, accepted, since)
    assert (kind, parent_id, [s["what"] for s in spends]) == ("reroll", parent.pk, ["v5_willpower"])


def test_parallel_rerolls_of_one_roll_make_one(pair: Cluster) -> None:
    asyncio.run(reroll_one_roll_at_once(pair))
    errors = pair.errors()
    assert not errors, "the servers logged errors:\n" + "\n".join(errors)
