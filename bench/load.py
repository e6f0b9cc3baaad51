"""``make loadtest``: the GM's rolls and 50 player streams against two worker processes on PostgreSQL.

The server is a club's: one ``python -m gmtools.serve --workers 2`` (uvicorn's supervisor, two
worker processes sharing one port; the kernel gives each new connection to one of them) on a
fresh PostgreSQL database with the demo loaded (tests/web/servers.py), DEBUG off, 127.0.0.1 only,
with the shared cache the README's production section sets up (``REDIS_URL``: the Redis at
127.0.0.1:6379, or the one REDIS_URL names; without one each worker keeps its own, and says so).
50 phones open the V5 demo campaign's player stream, and the GM's table its own stream, as it is
while the GM rolls (this process: asyncio + httpx, light readers), so each worker holds some of
them and hears of a roll made by the other only through PostgreSQL's NOTIFY. Locust (bench/load_http.py, in its own process) then sends the GM's
requests, in three phases, the 50 streams open throughout:

1. roll, steady: ``STEADY_USERS`` GM tabs rolling ``STEADY_RATE`` times a second between them
   for ``STEADY_SECONDS`` (paced: a slow answer does not lower the rate while it stays under
   ``STEADY_USERS / STEADY_RATE`` seconds); the roll request's latency, and the push latency:
   from just before a roll's request is sent to the moment a phone has read the whole event
   carrying that roll's card, over every (phone, roll) (the GM's table counts as a phone);
2. home page, flat out: ``FLAT_OUT_USERS`` users requesting the logged-in GM's home page (the
   cheapest page we serve, as in bench/web.py) without pause: the trivial view's throughput;
3. roll, flat out: the same users rolling without pause: the roll endpoint's throughput, which
   includes its pushes to the 50 phones. Goal: at least ``GOAL_RATIO`` of the home page's.

Throughput counts the requests completed after the first ``WARM`` second of a phase. Errors: failed
requests (anything but the page or the roll's card), rolls that did not reach a phone (every roll
of every phase must reach each phone once), events sent twice or unexpected, streams that ended,
and error lines in the server's log. Everything runs on this 2-core machine: the load generators
take CPU from the server they measure, so the CPU line says who used what. Speed is printed, never
asserted; the command fails only on errors.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from tests.web import servers
from tests.web.servers import GM, Cluster, Stream

VIEWERS = 50
WORKERS = 2
STEADY_USERS = 2
STEADY_RATE = 3.0  # rolls a second, all tabs together
STEADY_SECONDS = 15.0
FLAT_OUT_USERS = 8
FLAT_OUT_SECONDS = 8.0
WARM = 1.0  # seconds at the start of a flat-out phase left out of its throughput
DRAIN = 15.0  # seconds after the last phase for the last rolls to reach every phone
GOAL_RATIO = 0.5

STEADY, HOME, ROLLS = "roll, steady", "home page, flat out", "roll, flat out"
PHASES = [
    {"name": STEADY, "users_of": "roll at pace", "users": STEADY_USERS, "rate": STEADY_RATE, "seconds": STEADY_SECONDS},
    {"name": HOME, "users_of": "home flat out", "users": FLAT_OUT_USERS, "seconds": FLAT_OUT_SECONDS},
    {"name": ROLLS, "users_of": "roll flat out", "users": FLAT_OUT_USERS, "seconds": FLAT_OUT_SECONDS},
]


@dataclass
class Phones:
    """What the 50 phones (and the GM's table, the last) received: for each, when each roll's event arrived."""

    arrivals: list[dict[int, list[float]]]
    unexpected: list[str] = field(default_factory=list)
    ended: list[str] = field(default_factory=list)


async def watch(index: int, stream: Stream, phones: Phones) -> None:
    while True:
        event = await stream.events.get()
        if event is None:
            phones.ended.append(f"phone {index}: {stream.error!r}")
            return
        if event.name == "change" and event.rolls:
            phones.arrivals[index][event.rolls[0]].append(event.at)
        else:
            phones.unexpected.append(f"phone {index}: {event.name} id={event.id}")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a live process, from /proc (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def sample_cpu(pids: list[int], samples: list[tuple[float, float]]) -> None:
    """The workers' CPU seconds so far, every 0.1 s, with the moment (``time.perf_counter``)."""
    while True:
        samples.append((time.perf_counter(), sum(map(cpu_seconds, pids))))
        await asyncio.sleep(0.1)


def cpu_per_request(samples: list[tuple[float, float]], done: list[float], start: float, end: float) -> float:
    """The workers' CPU seconds per request completed between ``start`` and ``end`` (a phase's window:
    a roll's pushes run in the workers right after its answer, so they fall in the same window)."""
    inside = [(at, cpu) for at, cpu in samples if start <= at <= end]
    if len(inside) < 2:
        return float("nan")
    (first, before), (last, after) = inside[0], inside[-1]
    count = sum(first <= at <= last for at in done)
    return (after - before) / count if count else float("nan")


async def measure(cluster: Cluster, workdir: Path) -> dict:
    [server] = cluster.servers
    v5 = cluster.campaign("v5")
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    async with (httpx.AsyncClient() as browser, httpx.AsyncClient(limits=limits, timeout=30) as phone_client,
                servers.streams() as opened):
        gm = await GM.login(server, browser)
        data = await gm.composed(server, v5.pk)
        page = await phone_client.get(f"{server.url}/p/{v5.player_token}/")
        cursor = int(servers.page_attribute(page.text, "data-cursor"))
        opened += await asyncio.gather(*(servers.player_stream(phone_client, server, v5.player_token, after=cursor,
                                                               light=True) for _ in range(VIEWERS)))
        # The GM's own table, open as it is while the GM rolls: its stream brings every roll back too.
        opened.append(await servers.gm_stream(gm, server, v5.pk, after=cursor, light=True))
        phones = Phones([defaultdict(list) for _ in opened])
        watchers = [asyncio.create_task(watch(i, stream, phones)) for i, stream in enumerate(opened)]

        config = {
            "host": server.url,
            "cookie": "; ".join(f"{name}={browser.cookies[name]}" for name in ("sessionid", "csrftoken")),
            "csrftoken": browser.cookies["csrftoken"],
            "roll_path": f"/campaigns/{v5.pk}/roll/",
            # Without the one-click key: each press adds its own (bench/load_http.py).
            "roll_body": str(httpx.QueryParams([(k, v) for k, values in data.items() for v in values if k != "once"])),
            "phases": PHASES,
        }
        (workdir / "config.json").write_text(json.dumps(config))
        pids = server.worker_pids()
        cpu = {"server": sum(map(cpu_seconds, pids)), "phones": time.process_time(),
               "locust": resource.getrusage(resource.RUSAGE_CHILDREN)}
        started = time.perf_counter()
        samples: list[tuple[float, float]] = []
        sampler = asyncio.create_task(sample_cpu(pids, samples))
        locust = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bench.load_http", str(workdir / "config.json"), str(workdir / "out.json"),
            cwd=servers.ROOT)
        if await locust.wait():
            raise RuntimeError(f"bench.load_http failed ({locust.returncode})")
        results = json.loads((workdir / "out.json").read_text())
        wanted = {pk for pk, _sent, _phase in results["rolls"]}
        deadline = time.perf_counter() + DRAIN
        while time.perf_counter() < deadline and any(not wanted <= a.keys() for a in phones.arrivals):
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.5)  # a duplicate would come now
        wall = time.perf_counter() - started
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        results["cpu"] = {
            "wall": wall,
            "server": sum(map(cpu_seconds, pids)) - cpu["server"],
            "phones": time.process_time() - cpu["phones"],
            "locust": (children.ru_utime + children.ru_stime) - (cpu["locust"].ru_utime + cpu["locust"].ru_stime),
        }
        results["cpu_samples"] = samples
        for task in (*watchers, sampler):
            task.cancel()
    results["phones"] = phones
    return results


def p50_p95(values: list[float]) -> tuple[float, float]:
    if len(values) < 2:
        return (values[0], values[0]) if values else (float("nan"), float("nan"))
    return statistics.median(values), statistics.quantiles(values, n=20, method="inclusive")[-1]


def report(results: dict, cluster: Cluster, load_before: float) -> int:
    """Print the table; the number of errors."""
    phases = {phase["name"]: phase for phase in results["phases"]}
    phones: Phones = results["phones"]
    rows = []
    failures: list[str] = []
    throughput: dict[str, float] = {}
    cpu_ms: dict[str, float] = {}
    for name, phase in phases.items():
        ok = [(at, seconds) for at, seconds, failure in phase["done"] if failure is None]
        failed = [failure for _at, _seconds, failure in phase["done"] if failure is not None]
        failures += [f"{name}: {failure}" for failure in failed]
        window = [at for at, _seconds in ok if phase["started"] + WARM <= at <= phase["ended"]]
        throughput[name] = len(window) / (phase["seconds"] - WARM)
        cpu_ms[name] = 1000 * cpu_per_request(results["cpu_samples"], [at for at, _seconds in ok],
                                              phase["started"] + WARM, phase["ended"])
        p50, p95 = p50_p95([seconds for _at, seconds in ok])
        rows.append((f"{name} ({phase['users']} user{'s' if phase['users'] > 1 else ''}, {phase['seconds']:.0f} s)",
                     len(phase["done"]), len(failed), throughput[name], p50 * 1000, p95 * 1000, cpu_ms[name]))

    missing = duplicates = 0
    push: list[float] = []
    for pk, sent, phase in results["rolls"]:
        for arrivals in phones.arrivals:
            times = arrivals.get(pk, [])
            missing += not times
            duplicates += max(0, len(times) - 1)
            if times and phase == STEADY:
                push.append(times[0] - sent)
    steady_rolls = sum(phase == STEADY for _pk, _sent, phase in results["rolls"])
    p50, p95 = p50_p95(push)
    rows.insert(1, (f"push: roll -> each of {len(phones.arrivals) - 1} phones + GM", len(push), 0, float("nan"),
                    p50 * 1000, p95 * 1000, float("nan")))
    log_errors = cluster.errors()

    print(f"\nloadtest: gmtools.serve --workers {WORKERS} on PostgreSQL, {len(phones.arrivals) - 1} player streams "
          f"and the GM's table's, on {os.cpu_count()} cores (load average {load_before:.1f} before the run: other work shares them)")
    print(f"  {'':44} {'requests':>8} {'errors':>6} {'req/s':>7} {'p50 ms':>8} {'p95 ms':>8} {'CPU ms':>7}")
    for label, count, errors, rate, q50, q95, cpu_each in rows:
        rate_text = "" if rate != rate else f"{rate:7.1f}"
        cpu_text = "" if cpu_each != cpu_each else f"{cpu_each:7.1f}"
        print(f"  {label:44} {count:8d} {errors:6d} {rate_text:>7} {q50:8.1f} {q95:8.1f} {cpu_text:>7}")
    ratio = throughput[ROLLS] / throughput[HOME] if throughput[HOME] else float("nan")
    print(f"  roll throughput / home page throughput: {ratio:.2f}x (goal >= {GOAL_RATIO}x)")
    print(f"  the workers' CPU per request (CPU ms: a roll's includes its pushes): a steady roll costs "
          f"{cpu_ms[STEADY] / cpu_ms[HOME]:.1f} home pages, a flat-out one {cpu_ms[ROLLS] / cpu_ms[HOME]:.1f}")
    print(f"  push: {steady_rolls} steady rolls x {len(phones.arrivals)} streams = {len(push)} deliveries; over all "
          f"{len(results['rolls'])} rolls: {missing} missing, {duplicates} duplicates, {len(phones.unexpected)} "
          f"unexpected events, {len(phones.ended)} streams ended")
    cpu = results["cpu"]
    print(f"  CPU seconds in {cpu['wall']:.0f} s: server workers {cpu['server']:.1f}, locust {cpu['locust']:.1f}, "
          f"phones' reader {cpu['phones']:.1f} (PostgreSQL not counted)")
    errors = len(failures) + missing + duplicates + len(phones.unexpected) + len(phones.ended) + len(log_errors)
    print(f"  errors: {errors} ({len(failures)} failed requests, {missing} missing deliveries, {duplicates} "
          f"duplicates, {len(phones.unexpected)} unexpected events, {len(phones.ended)} ended streams, "
          f"{len(log_errors)} server log lines)")
    for line in (failures[:5] + phones.unexpected[:5] + phones.ended[:5] + log_errors[:10]):
        print(f"    {line}")
    logs = cluster.logs()
    if "Traceback" in logs:  # the error lines above name it; the whole first one says where
        print("  the servers' first traceback:")
        for line in logs[logs.index("Traceback"):].splitlines()[:60]:
            print(f"    {line}")
    return errors


def shared_cache() -> str:
    """REDIS_URL for the servers (set it in this process's environment, which they inherit)."""
    url = os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/0")
    try:
        import redis

        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except Exception as error:  # noqa: BLE001 - any failure means: no shared cache
        del os.environ["REDIS_URL"]
        return f"none (Redis at {url}: {error}); each worker caches alone"
    return f"Redis at {url}"


def main() -> int:
    reason = servers.postgres_unreachable()
    if reason is not None:
        print(f"loadtest: {reason}", file=sys.stderr)
        return 2
    cache = shared_cache()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="gmtools-load-") as workdir, servers.running(1, workers=WORKERS) as cluster:
        results = asyncio.run(measure(cluster, Path(workdir)))
        errors = report(results, cluster, load_before)
    print(f"  shared cache: {cache}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
