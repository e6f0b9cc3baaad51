"""Live push under load: 50 player streams on two server processes (PostgreSQL), 20 rolls by the GM.

Two real ``gmtools.serve`` processes on a fresh database (tests/web/servers.py); half the phones
watch through process A, where the GM rolls, half through process B, which hears of each roll
only through PostgreSQL's NOTIFY. For each roll, the delivery time is from just before the GM's
request is sent to the moment each phone has read the whole event carrying that roll's card;
p50 and p95 are over every (phone, roll) pair. The roll request's own latency is measured in the
same run twice, without any viewer and then with the 50 connected, to show what the push costs
the GM. One roll of each phase is a warm-up, not counted.

The phones and the GM are coroutines of this one process (httpx, asyncio), on the same clock; a
delivery time therefore includes this process reading 50 streams at once, so it is an upper
bound of what the servers need. Needs PostgreSQL at DATABASE_URL's server (default
127.0.0.1:5432); without it this part says so and the rest of ``make bench`` goes on.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from dataclasses import dataclass, field

import httpx

from bench.load import cpu_seconds
from tests.web import servers
from tests.web.servers import GM, Cluster, Server, Stream

VIEWERS = 50
ROLLS = 20
PAUSE = 0.2  # seconds between the GM's rolls
DELIVERY_TIMEOUT = 10.0  # seconds before a roll's event counts as missing at a phone
GOAL_P95_MS = 100.0


@dataclass
class Results:
    without: list[float] = field(default_factory=list)  # roll request seconds, no viewer connected
    with_viewers: list[float] = field(default_factory=list)  # the same with the phones connected
    delivery: dict[str, list[float]] = field(default_factory=lambda: {"A": [], "B": []})  # seconds, by process
    missing: int = 0
    unexpected: list[str] = field(default_factory=list)  # events that were not the roll awaited
    sessions: dict[str, float] = field(default_factory=dict)  # database sessions opened per roll
    cpu: dict[str, float] = field(default_factory=dict)  # the two servers' CPU seconds per roll


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[-1]


def sessions(cluster: Cluster) -> int:
    """Connections ever opened to the bench's database (each ``_db`` call of a stream opens one)."""
    [(count,)] = servers.query(cluster.database, "SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
    return count


def server_cpu(cluster: Cluster) -> float:
    """The CPU seconds the servers' processes have used so far (Linux /proc)."""
    return sum(cpu_seconds(pid) for server in cluster.servers for pid in server.worker_pids())


async def rolls(gm: GM, server: Server, campaign: int, count: int) -> list[float]:
    """Roll ``count`` times, one after the other; the requests' own latencies in seconds."""
    times = []
    for _ in range(count):
        times.append((await gm.roll(server, campaign)).seconds)
        await asyncio.sleep(PAUSE)
    return times


async def delivered(stream: Stream, roll: int, results: Results) -> float | None:
    """When the event with this roll's card reached the phone (perf_counter), None if it did not."""
    deadline = time.perf_counter() + DELIVERY_TIMEOUT
    while True:
        try:
            event = await stream.next(timeout=max(0.0, deadline - time.perf_counter()))
        except TimeoutError:
            return None
        if event.name == "change" and event.rolls[:1] == [roll]:
            return event.at
        results.unexpected.append(f"{stream.url}: {event.name} id={event.id} rolls={event.rolls}, awaiting roll {roll}")


async def measure(cluster: Cluster, viewers: int) -> Results:
    a, b = cluster.servers
    v5 = cluster.campaign("v5")
    results = Results()
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    async with (httpx.AsyncClient() as gm_browser, httpx.AsyncClient(limits=limits, timeout=30) as phones,
                servers.streams() as opened):
        gm = await GM.login(a, gm_browser)

        await rolls(gm, a, v5.pk, 1)  # warm-up
        start, cpu = sessions(cluster), server_cpu(cluster)
        results.without = await rolls(gm, a, v5.pk, ROLLS)
        results.cpu["without"] = (server_cpu(cluster) - cpu) / ROLLS
        await asyncio.sleep(1.5)  # PostgreSQL's statistics are flushed about once a second
        results.sessions["without"] = (sessions(cluster) - start) / ROLLS

        page = await phones.get(f"{a.url}/p/{v5.player_token}/")
        cursor = int(servers.page_attribute(page.text, "data-cursor"))
        where = [("A" if i % 2 == 0 else "B") for i in range(viewers)]
        opened += await asyncio.gather(*(servers.player_stream(phones, a if w == "A" else b, v5.player_token, after=cursor)
                                         for w in where))

        async def roll_and_watch(count: int, record: bool) -> None:
            for _ in range(count):
                rolled = await gm.roll(a, v5.pk)
                arrivals = await asyncio.gather(*(delivered(s, rolled.pk, results) for s in opened))
                if record:
                    results.with_viewers.append(rolled.seconds)
                    for w, at in zip(where, arrivals):
                        if at is None:
                            results.missing += 1
                        else:
                            results.delivery[w].append(at - rolled.sent_at)
                await asyncio.sleep(PAUSE)

        await roll_and_watch(1, record=False)  # warm-up
        start, cpu = sessions(cluster), server_cpu(cluster)
        await roll_and_watch(ROLLS, record=True)
        results.cpu["with"] = (server_cpu(cluster) - cpu) / ROLLS  # every phone has the last roll: all pushed
        await asyncio.sleep(1.5)
        results.sessions["with"] = (sessions(cluster) - start) / ROLLS
    return results


def row(label: str, values: list[float], note: str = "") -> None:
    print(f"live: {label:34} p50 {statistics.median(values) * 1000:6.1f} ms  p95 {p95(values) * 1000:6.1f} ms  {note}".rstrip())


def report(results: Results, viewers: int) -> None:
    every = results.delivery["A"] + results.delivery["B"]
    print(f"\nlive: {viewers} player streams on 2 server processes (PostgreSQL), {ROLLS} rolls through process A, "
          f"{PAUSE:.1f} s apart")
    if every:
        row("roll -> its event, every phone", every, f"(goal p95 < {GOAL_P95_MS:.0f} ms; {len(every)} deliveries, "
            f"{results.missing} missing, {len(results.unexpected)} unexpected)")
        for name, label in (("A", "  phones on A (the roll's process)"), ("B", "  phones on B (through NOTIFY)")):
            if results.delivery[name]:
                row(label, results.delivery[name])
    without, with_ = results.without, results.with_viewers
    if without and with_:
        row("roll request, no viewer", without, f"({results.sessions.get('without', 0):.1f} db sessions per roll)")
        row(f"roll request, {viewers} viewers", with_, f"({results.sessions.get('with', 0):.1f} db sessions per roll)")
        print(f"live: {'roll request, with/without viewers':34} p50 {statistics.median(with_) / statistics.median(without):5.2f}x"
              f"    p95 {p95(with_) / p95(without):5.2f}x")
    if len(results.cpu) == 2:
        print(f"live: {'servers CPU per roll (and its push)':34} {results.cpu['without'] * 1000:.1f} ms without viewers, "
              f"{results.cpu['with'] * 1000:.1f} ms with {viewers}: {results.cpu['with'] / results.cpu['without']:.2f}x")
    for line in results.unexpected[:5]:
        print(f"live:   unexpected event: {line}")


def run(viewers: int = VIEWERS) -> None:
    reason = servers.postgres_unreachable()
    if reason is not None:
        print(f"\nlive: skipped, {reason}")
        return
    with servers.running(2) as cluster:
        results = asyncio.run(measure(cluster, viewers))
        report(results, viewers)
        for line in cluster.errors()[:10]:
            print(f"live:   server log: {line}")


def main() -> None:
    """``python -m bench.live [viewers]``: only this part of ``make bench`` (50 viewers by default)."""
    run(int(sys.argv[1]) if len(sys.argv) > 1 else VIEWERS)


if __name__ == "__main__":
    main()
