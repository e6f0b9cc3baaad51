"""Production settings (issue 13): what a club's server starts with, and what it refuses.

Each case runs in a fresh process, as a server starts: settings are read once, from the environment.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from gmtools import serve, throttle
from tests.web.helpers import redis_unreachable
from tests.web.servers import GM, Server, free_port, page_attribute, player_stream, wait_until_up

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "SECRET_KEY": "k7PzQw2VbN9xR4tLm8sJd3Fh6Yc1Ge5Ua0Ki7Oo2Pq9Rr4St8Uv3Wx6Yz1Ab5Cd",
    "ALLOWED_HOSTS": "gm.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://gm.example.org",
    "HTTPS": "1",
}


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, env={"PATH": "/usr/bin:/bin", **env},
                          capture_output=True, text=True, timeout=120)


def test_check_deploy_reports_nothing_under_production_settings():
    done = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], PRODUCTION)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout


def test_check_deploy_warns_without_them():
    """The same check, with the settings a laptop ships: it must see what is missing."""
    done = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], {})
    assert done.returncode != 0
    for code in ("W004", "W008", "W009", "W012", "W016"):
        assert code in done.stderr + done.stdout


@pytest.mark.parametrize("module", ["gmtools.asgi", "gmtools.wsgi"])
def test_a_server_refuses_the_development_key_with_debug_off(module):
    done = run(["-c", f"import {module}"], {})
    assert done.returncode != 0 and "SECRET_KEY is not set" in done.stderr
    assert run(["-c", f"import {module}"], {"DEBUG": "1"}).returncode == 0  # the GM's own laptop
    assert run(["-c", f"import {module}"], {"SECRET_KEY": PRODUCTION["SECRET_KEY"]}).returncode == 0


# Django's deploy check (security.W009) calls these weak: short, few different characters, its placeholder.
WEAK_KEYS = ["short", "ab" * 40, "django-insecure-" + PRODUCTION["SECRET_KEY"]]


@pytest.mark.parametrize("key", WEAK_KEYS)
def test_a_server_refuses_a_weak_key_with_debug_off(key):
    done = run(["-c", "import gmtools.asgi"], {"SECRET_KEY": key})
    assert done.returncode != 0 and "SECRET_KEY is too weak" in done.stderr, done.stderr
    assert run(["-c", "import gmtools.asgi"], {"SECRET_KEY": key, "DEBUG": "1"}).returncode == 0
    served = run(["-m", "gmtools.serve"], {"SECRET_KEY": key})  # said once, before anything listens
    assert served.returncode == 2 and "at least 50 characters" in served.stderr, served.stderr


@pytest.mark.django_db
def test_serve_says_why_it_cannot_start(monkeypatch, settings, capsys):
    started = []
    monkeypatch.setattr(serve.uvicorn, "run", lambda *a, **k: started.append(k))
    settings.DEBUG = False
    settings.SECRET_KEY = settings.DEVELOPMENT_SECRET_KEY
    assert serve.main(["--workers", "2"]) == 2
    assert "SECRET_KEY is not set" in capsys.readouterr().err
    settings.SECRET_KEY = PRODUCTION["SECRET_KEY"]
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        assert serve.main(["--workers", "2"]) == 2
        assert "through PostgreSQL" in capsys.readouterr().err
    assert started == []
    assert serve.main(["--workers", "1", "--host", "0.0.0.0"]) == 0
    assert started[-1]["host"] == "0.0.0.0" and started[-1]["workers"] == 1


def test_https_settings_secure_the_cookies_and_the_transport():
    code = ("import django, os; os.environ['DJANGO_SETTINGS_MODULE']='gmtools.settings'; django.setup(); "
            "from django.conf import settings as s; print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, "
            "s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS > 0, s.SESSION_COOKIE_HTTPONLY, s.CSRF_COOKIE_HTTPONLY, "
            "s.DEBUG, s.CSRF_TRUSTED_ORIGINS)")
    out = run(["-c", code], PRODUCTION).stdout.split()
    assert out == ["True", "True", "True", "True", "True", "True", "False", "['https://gm.example.org']"]
    out = run(["-c", code], {"GMTOOLS_LAN": "1"}).stdout.split()  # the table's Wi-Fi: plain HTTP
    assert out[:4] == ["False", "False", "False", "False"]


@pytest.mark.skipif(redis_unreachable() is not None, reason="Redis is not running here")
def test_with_redis_every_worker_counts_the_same_wrong_player_links():
    """Two processes (two workers of ``make serve``) with REDIS_URL: the misses of one hold back the other."""
    env = {"REDIS_URL": "redis://127.0.0.1:6379/9", "SECRET_KEY": PRODUCTION["SECRET_KEY"]}
    miss = ("import django, os; os.environ['DJANGO_SETTINGS_MODULE']='gmtools.settings'; django.setup(); "
            "from django.core.cache import cache; from django.test import RequestFactory; from gmtools import throttle; "
            "r = RequestFactory().get('/', REMOTE_ADDR='203.0.113.50'); {body}")
    backend = ("cache.clear(); from django.core.cache import caches; "
               "from django.core.cache.backends.redis import RedisCache; print(isinstance(caches['default'], RedisCache))")
    assert run(["-c", miss.format(body=backend)], env).stdout.strip() == "True"
    body = f"[throttle.missed(r) for _ in range({throttle.MISSES})]; print(throttle.held_back(r))"
    assert run(["-c", miss.format(body=body)], env).stdout.strip() == "True"  # one worker counts the misses
    held = run(["-c", miss.format(body="print(throttle.held_back(r)); cache.clear()")], env)
    assert held.stdout.strip() == "True", held.stderr  # another worker holds the address back


@pytest.mark.skipif(redis_unreachable() is not None, reason="Redis is not running here")
def test_two_databases_sharing_one_redis_never_read_each_others_entries(tmp_path):
    """The cache's keys hold row ids (an extended action's odds): a test server's database beside a
    club's, on one Redis, must not answer with the other's entries."""
    script = ("import django, os; os.environ['DJANGO_SETTINGS_MODULE']='gmtools.settings'; django.setup(); "
              "from django.core.cache import cache; {body}")

    def env(database: str) -> dict[str, str]:
        return {"REDIS_URL": "redis://127.0.0.1:6379/9", "SECRET_KEY": PRODUCTION["SECRET_KEY"],
                "DATABASE_URL": f"sqlite:///{tmp_path / database}"}
    written = run(["-c", script.format(body="cache.set('odds:1', 'club', 60); print(cache.get('odds:1'))")], env("club.sqlite3"))
    assert written.stdout.strip() == "club", written.stderr
    other = run(["-c", script.format(body="print(cache.get('odds:1'))")], env("test.sqlite3"))
    same = run(["-c", script.format(body="print(cache.get('odds:1')); cache.delete('odds:1')")], env("club.sqlite3"))
    assert (other.stdout.strip(), same.stdout.strip()) == ("None", "club")


@pytest.mark.skipif(redis_unreachable() is not None, reason="Redis is not running here")
def test_with_redis_requests_and_streams_share_the_connections(tmp_path):
    """Each request is a new async context and each stream's read a pool thread: Django's cache
    objects made nearly each of them a new Redis connection. 40 requests' odds lookups and 40
    changes claimed by 3 streams each open a handful between them."""
    code = """
import asyncio, os, django
os.environ['DJANGO_SETTINGS_MODULE'] = 'gmtools.settings'
django.setup()
import redis
from asgiref.sync import sync_to_async
from django.core.cache import caches
from gmtools import live

server = redis.Redis.from_url(os.environ['REDIS_URL'])
before = server.info('stats')['total_connections_received']

async def table():
    for n in range(40):
        await asyncio.gather(sync_to_async(caches['default'].get)(f'odds:{n}'),
                             *(live.read(live._claim, f'change:{n}:{stream}') for stream in range(3)))

asyncio.run(asyncio.wait_for(table(), 60))
caches['live'].clear()
print(server.info('stats')['total_connections_received'] - before)
"""
    env = {"REDIS_URL": "redis://127.0.0.1:6379/9", "SECRET_KEY": PRODUCTION["SECRET_KEY"],
           "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    opened = run(["-c", code], env)
    assert opened.returncode == 0, opened.stderr
    assert int(opened.stdout) <= 12, opened.stdout  # Django alone: 122 (other clients of this Redis may add a few)


# --- what gmtools.serve checks before it listens, against real server processes (issue 28) -------

@pytest.fixture(scope="module")
def demo_sqlite(tmp_path_factory) -> Path:
    """A SQLite database migrated and with the demo (``make run``'s), made once; each server copies it."""
    path = tmp_path_factory.mktemp("deploy") / "demo.sqlite3"
    for command in (["migrate", "--noinput"], ["load_demo"]):
        done = run(["manage.py", *command], {"DATABASE_URL": f"sqlite:///{path}", "DEBUG": "1"})
        assert done.returncode == 0, done.stdout + done.stderr
    return path


@contextlib.contextmanager
def sqlite_server(template: Path, folder: Path, *args: str, **env: str) -> Iterator[Server]:
    """``python -m gmtools.serve`` on a copy of ``template``, DEBUG off as on a club's server."""
    database = folder / "db.sqlite3"
    shutil.copy(template, database)
    port, log_path = free_port(), folder / "server.log"
    with log_path.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "gmtools.serve", "--port", str(port), *args], cwd=ROOT, stdin=subprocess.DEVNULL,
            stdout=out, stderr=subprocess.STDOUT,
            env={"PATH": "/usr/bin:/bin", "PYTHONUNBUFFERED": "1", "SECRET_KEY": PRODUCTION["SECRET_KEY"],
                 "DATABASE_URL": f"sqlite:///{database}", **env})
    server = Server(port, process, log_path)
    try:
        wait_until_up(server)
        yield server
    finally:
        server.stop()


def test_a_wrong_database_url_stops_the_server_at_once_saying_where_it_looked():
    """It used to start, then every page waited 10 s for the pool and answered 500."""
    port = free_port()  # nobody listens there
    url = f"postgres://club:hunter2-secret@127.0.0.1:{port}/clubgames"
    done = run(["-m", "gmtools.serve"], {"SECRET_KEY": PRODUCTION["SECRET_KEY"], "DATABASE_URL": url})
    assert done.returncode == 2, done.stderr
    assert f"PostgreSQL database 'clubgames' at 127.0.0.1:{port} as user 'club'" in done.stderr
    assert "hunter2" not in done.stderr + done.stdout
    assert "couldn't get a connection" not in done.stderr


# What a club's server installs beyond gmtools' own dependencies (pyproject's "server" extra), which
# `make run` does not: each a module that fails to import, ahead of the installed one on the path.
SERVER_EXTRAS = ("redis", "psycopg", "psycopg_pool")


def test_make_run_serves_without_a_club_servers_extras(tmp_path):
    """`make run` installs gmtools alone (`pip install -e .`): its server stopped at start on
    `import redis` (the third walkthrough, on a fresh venv; every test venv has the extras)."""
    absent = tmp_path / "absent"
    absent.mkdir()
    for module in SERVER_EXTRAS:
        message = f"No module named {module!r}"
        (absent / f"{module}.py").write_text(f"raise ModuleNotFoundError({message!r}, name={module!r})\n")
    env = {"PYTHONPATH": str(absent), "DEBUG": "1", "DATABASE_URL": f"sqlite:///{tmp_path / 'laptop.sqlite3'}"}
    assert "ModuleNotFoundError: No module named 'redis'" in run(["-c", "import redis"], env).stderr
    for command in (["migrate", "--noinput"], ["load_demo"]):  # make run's steps, in its order
        done = run(["manage.py", *command], env)
        assert done.returncode == 0, done.stdout + done.stderr
    with sqlite_server(tmp_path / "laptop.sqlite3", tmp_path, **env) as server:
        home = httpx.get(f"{server.url}/", follow_redirects=True, timeout=10)
    assert home.status_code == 200 and "csrfmiddlewaretoken" in home.text, home.text[:300]


def test_a_database_not_migrated_stops_the_server(tmp_path):
    done = run(["-m", "gmtools.serve"], {"SECRET_KEY": PRODUCTION["SECRET_KEY"],
                                         "DATABASE_URL": f"sqlite:///{tmp_path / 'new.sqlite3'}"})
    assert done.returncode == 2 and "is not migrated" in done.stderr and "manage.py migrate" in done.stderr


def test_a_server_error_reaches_stderr_with_its_traceback(demo_sqlite, tmp_path):
    """16 answers of 500 left no trace anywhere: with DEBUG off Django sent them to the admins' mail only."""
    with sqlite_server(demo_sqlite, tmp_path) as server:
        with sqlite3.connect(tmp_path / "db.sqlite3") as db:
            db.execute("DROP TABLE axes_accessattempt")  # the login's lockout check now fails
        answer = httpx.post(f"{server.url}/accounts/login/", data={"username": "gm", "password": "x"})
        assert answer.status_code == 403  # no CSRF token: refused before anything breaks
        client = httpx.Client()
        page = client.get(f"{server.url}/accounts/login/")
        token = page_attribute(page.text.split('name="csrfmiddlewaretoken"', 1)[1], "value")
        broken = client.post(f"{server.url}/accounts/login/", data={
            "username": "gm", "password": "x", "csrfmiddlewaretoken": token})
        assert broken.status_code == 500
    log = server.log()
    assert "ERROR django.request: Internal Server Error: /accounts/login/" in log
    assert "Traceback (most recent call last)" in log and "no such table: axes_accessattempt" in log


def test_serve_lan_refuses_accounts_with_a_password_of_the_readme(demo_sqlite, tmp_path):
    """``make run``'s database served on the local network: the demo's logins are in the README."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "SECRET_KEY": PRODUCTION["SECRET_KEY"]}
    shutil.copy(demo_sqlite, tmp_path / "db.sqlite3")
    code = ("import sys; from gmtools import serve; serve.lan_address = lambda: '192.168.7.9'; "
            "serve.uvicorn.run = lambda *a, **k: print('listening on', k['host']); sys.exit(serve.main(['--lan']))")
    refused = run(["-c", code], env)
    assert refused.returncode == 2 and "listening" not in refused.stdout
    assert "no account may keep a password printed in the README, and these do: gm, admin" in refused.stderr
    renewed = run(["manage.py", "load_demo", "--lan"], env)  # what make table runs first
    assert renewed.returncode == 0 and renewed.stdout.count("A new password for") == 2, renewed.stdout
    served = run(["-c", code], env)
    assert served.returncode == 0 and "listening on 0.0.0.0" in served.stdout, served.stderr


async def _table_works(server: Server, database: Path) -> None:
    """The GM logs in, opens the V5 table and rolls; a player opens the link and its stream."""
    with sqlite3.connect(database) as db:
        [(campaign, token)] = db.execute("SELECT id, player_token FROM gmtools_campaign WHERE game = 'v5'").fetchall()
    async with httpx.AsyncClient(timeout=30) as client, httpx.AsyncClient(timeout=30) as phone:
        gm = await GM.login(server, client)
        assert (await client.get(f"{server.url}/")).status_code == 200
        assert (await client.get(f"{server.url}/campaigns/{campaign}/")).status_code == 200
        await gm.roll(server, campaign)
        stream = await player_stream(phone, server, token)  # the player page, then its stream
        await stream.close()


def test_with_redis_unreachable_at_start_the_server_warns_and_serves(demo_sqlite, tmp_path):
    """REDIS_URL set, nothing listening: it started silently, then every table, roll and player URL answered 500."""
    port = free_port()  # nobody listens there
    with sqlite_server(demo_sqlite, tmp_path, REDIS_URL=f"redis://:pw-in-url@127.0.0.1:{port}/0") as server:
        asyncio.run(_table_works(server, tmp_path / "db.sqlite3"))
    log = server.log()
    assert f"Starting without the shared cache: Redis at 127.0.0.1:{port} does not answer" in log
    assert "Traceback" not in log and " 500 " not in log and "pw-in-url" not in log


def _answers(port: int) -> bool:
    import redis

    try:
        return bool(redis.Redis(port=port, socket_connect_timeout=1).ping())
    except redis.ConnectionError:
        return False


@contextlib.contextmanager
def private_redis() -> Iterator[tuple[int, subprocess.Popen]]:
    """A Redis server of this test's own on a free port of 127.0.0.1 (the machine's is shared): the test may kill it."""
    port = free_port()
    process = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while not _answers(port):
            assert process.poll() is None and time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
        yield port, process
    finally:
        process.kill()
        process.wait(timeout=10)


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="no redis-server here")
def test_when_redis_dies_the_server_warns_and_keeps_serving(demo_sqlite, tmp_path):
    with private_redis() as (port, redis_server):
        with sqlite_server(demo_sqlite, tmp_path, REDIS_URL=f"redis://127.0.0.1:{port}/0") as server:
            asyncio.run(_table_works(server, tmp_path / "db.sqlite3"))
            assert "does not answer" not in server.log()
            redis_server.kill()
            redis_server.wait(timeout=10)
            asyncio.run(_table_works(server, tmp_path / "db.sqlite3"))
    log = server.log()
    assert f"Redis at 127.0.0.1:{port} does not answer" in log
    assert "Traceback" not in log and " 500 " not in log


# --- a named proxy's forwarded address (issue 28) ------------------------------------------------

def _misses_until_held_back(server: Server, source: str, forwarded_for: str) -> int:
    """Wrong player links sent from ``source`` (a loopback address of this machine) saying they come
    from ``forwarded_for``, until the server holds that client back (429); how many it took."""
    transport = httpx.HTTPTransport(local_address=source)
    with httpx.Client(transport=transport, headers={"X-Forwarded-For": forwarded_for}) as client:
        for sent in range(1, throttle.MISSES + 2):
            answer = client.get(f"{server.url}/p/{'Z' * 32}/")
            if answer.status_code == 429:
                return sent
            assert answer.status_code == 404
    return sent


def test_the_limits_count_each_client_of_the_named_proxy_and_ignore_anyone_elses_header(demo_sqlite, tmp_path):
    """Behind one proxy every client had one address, so all shared the limits (wrong player links,
    failed logins). With --proxy, its X-Forwarded-For names the client; from anyone else it is ignored."""
    with sqlite_server(demo_sqlite, tmp_path, "--proxy", "127.0.0.1") as server:
        # Through the proxy (127.0.0.1): two clients, two counts.
        assert _misses_until_held_back(server, "127.0.0.1", "203.0.113.1") == throttle.MISSES + 1
        assert _misses_until_held_back(server, "127.0.0.1", "203.0.113.2") == throttle.MISSES + 1
        # From 127.0.0.2, not the proxy: its header changes nothing, the address is held back as one.
        assert _misses_until_held_back(server, "127.0.0.2", "203.0.113.3") == throttle.MISSES + 1
        assert _misses_until_held_back(server, "127.0.0.2", "203.0.113.4") == 1


def test_without_a_named_proxy_no_forwarded_header_is_trusted(demo_sqlite, tmp_path):
    """uvicorn itself trusts X-Forwarded-For from 127.0.0.1: on the laptop (make run, make table) any
    local program could pose as many clients."""
    with sqlite_server(demo_sqlite, tmp_path) as server:
        assert _misses_until_held_back(server, "127.0.0.1", "203.0.113.1") == throttle.MISSES + 1
        assert _misses_until_held_back(server, "127.0.0.1", "203.0.113.2") == 1


@pytest.mark.parametrize("collected", [False, True])
def test_static_files_are_served_with_or_without_collectstatic_and_no_warning_without(settings, tmp_path, collected):
    """``make table`` (DEBUG off, no collectstatic) printed WhiteNoise's "No directory at: staticfiles/"
    at every start; the finders serve the files then. Once collected, STATIC_ROOT's files are served."""
    import warnings

    from gmtools.staticfiles import StaticFilesMiddleware

    settings.DEBUG, settings.WHITENOISE_AUTOREFRESH = False, False
    settings.STATIC_ROOT = tmp_path / "staticfiles"
    if collected:
        (tmp_path / "staticfiles").mkdir()
        (tmp_path / "staticfiles" / "collected-only.txt").write_text("x")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        files = StaticFilesMiddleware(lambda request: None).files
    # (WhiteNoise's own: a garbage-collected connection's ResourceWarning may land here too)
    assert [str(w.message) for w in seen if "No directory" in str(w.message)] == []
    assert any(name.endswith("/bootstrap.min.css") for name in files)  # the finders'
    assert ("/static/collected-only.txt" in files) is collected
