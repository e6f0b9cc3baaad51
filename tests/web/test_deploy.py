"""Production settings (issue 13): what a club's server starts with, and what it refuses.

Each case runs in a fresh process, as a server starts: settings are read once, from the environment.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gmtools import serve, throttle
from tests.web.helpers import redis_unreachable

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
    backend = "cache.clear(); from django.core.cache import caches; print(type(caches['default']).__name__)"
    assert run(["-c", miss.format(body=backend)], env).stdout.strip() == "RedisCache"
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
