"""An open stream is a coroutine of the server, not a thread (README, gmtools.serve).

Through the real server (``python -m gmtools.serve`` on a free port of 127.0.0.1, SQLite, as ``make run``
and ``make table`` serve it), N phones hold their streams open and read them; the server process's
threads (``/proc/<pid>/task``) must not grow with N. Issue 28 (13a) counted ~208 threads at 200 streams;
on this tree (Django 6.1, asgiref 3.13, uvicorn 0.55 with uvloop and httptools) 200 streams leave the
server at 11 threads, as 10 do: this test keeps it so.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.web.servers import ROOT, free_port

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="threads are counted in /proc (Linux)")

FEW, MANY = 5, 80
# Threads the server may start as streams open beyond its first few: its pools' and the database's
# helpers, started on first use, at most a default thread pool's (min(32, cores + 4): a loaded machine
# opening 75 streams at once may fill it, seen once as 9 -> 14 threads on 2 cores); a thread per
# stream would be MANY - FEW = 75 more.
SLACK = min(32, (os.cpu_count() or 1) + 4)


def threads(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/task"))


@pytest.fixture
def server(tmp_path: Path):
    """``gmtools.serve`` on a SQLite database with the demo loaded: its pid, address, a player token, the cursor."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "gmtools.settings", "SECRET_KEY": secrets.token_urlsafe(50),
           "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "PYTHONUNBUFFERED": "1"}
    for name in ("REDIS_URL", "DEBUG", "GMTOOLS_LAN"):
        env.pop(name, None)
    for command in (["migrate", "--noinput"], ["load_demo"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True,
                       timeout=300)
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:
        (pk, token), = db.execute("SELECT id, player_token FROM gmtools_campaign ORDER BY id LIMIT 1")
        (cursor,), = db.execute("SELECT COALESCE(MAX(id), 0) FROM gmtools_change WHERE campaign_id = ?", (pk,))
    port = free_port()
    log = (tmp_path / "server.log").open("wb")
    process = subprocess.Popen([sys.executable, "-m", "gmtools.serve", "--port", str(port)], cwd=ROOT, env=env,
                               stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, (tmp_path / "server.log").read_text()
            try:
                if httpx.get(f"{url}/accounts/login/", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, (tmp_path / "server.log").read_text()
            time.sleep(0.1)
        yield process.pid, url, token, cursor
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        log.close()


async def hold_streams(url: str, token: str, cursor: int, pid: int) -> dict[int, int]:
    """Open FEW, then MANY player streams (each read as a phone reads it); the server's threads at each."""
    counted: dict[int, int] = {}
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=httpx.Limits(max_connections=None)) as client:
        readers: list[asyncio.Task] = []

        async def phone(opened: asyncio.Future) -> None:
            async with client.stream("GET", f"/p/{token}/stream/", params={"after": cursor}) as answer:
                assert answer.status_code == 200, answer.status_code
                async for text in answer.aiter_text():
                    if not opened.done():
                        assert text.startswith("retry:"), text[:200]
                        opened.set_result(None)

        for count in (FEW, MANY):
            loop = asyncio.get_running_loop()
            openings = [loop.create_future() for _ in range(count - len(readers))]
            readers += [asyncio.create_task(phone(opened)) for opened in openings]
            await asyncio.wait_for(asyncio.gather(*openings), 30)  # every stream has sent its first event
            assert not any(reader.done() for reader in readers), "a stream ended"
            counted[count] = threads(pid)
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
    return counted


def test_open_streams_cost_the_server_no_thread_each(server) -> None:
    pid, url, token, cursor = server
    counted = asyncio.run(hold_streams(url, token, cursor, pid))
    assert counted[MANY] <= counted[FEW] + SLACK, counted
