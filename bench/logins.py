"""Failed logins against the real server (issue 28, item 6): ``python -m bench.logins [ROUNDS]``.

Each failed login hashes a password (PBKDF2), for a username that does not exist too; before
5f31e99 nothing bounded how many ran at once, and django-axes only locked a username *and*
address pair after 5 failures. Here ``python -m gmtools.serve`` runs on 127.0.0.1 (DEBUG=1, as
``make run``) over a temporary SQLite database, migrated and with the demo loaded (``make run``'s
steps, done in this process). Measured ROUNDS (2) times, each round from addresses of its own:
  (a) the demo GM, logged in from 127.0.0.1, GETs its table: median latency alone (the baseline);
  (b) the same while 20 failed logins with new usernames are sent at once from 127.0.1.ROUND:
      median latency, and its ratio to (a); the server's CPU seconds per failed login;
  (c) 4 passwords x 12 new usernames (48 guesses) from 127.0.2.ROUND: how many answers refused them
      (anything but the login form's 200 again).
Every address is loopback (Linux answers all of 127/8), one per phase and round, so that a lockout
of one does not carry into the next and the GM's own address is never the flood's.
Only what both the old and the new code have is used, so the same file runs in a worktree of
``5f31e99^`` (run it from inside with ``PYTHONPATH=.``; the server gets the same ``gmtools``,
printed). Not part of ``make test``.
"""

from __future__ import annotations

import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import httpx

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
FLOOD = 20


def client(address: str, port: int) -> httpx.Client:
    """A client whose requests come from ``address`` (what the server, and django-axes, see)."""
    return httpx.Client(base_url=f"http://127.0.0.1:{port}", transport=httpx.HTTPTransport(local_address=address),
                        timeout=120)


def login(http: httpx.Client, username: str, password: str) -> int:
    """One login through the form, as a browser sends it (its CSRF cookie and token first)."""
    token = CSRF.search(http.get("/accounts/login/").text)
    assert token is not None, "no CSRF token on the login page"
    return http.post("/accounts/login/", data={"username": username, "password": password,
                                               "csrfmiddlewaretoken": token.group(1)}).status_code


def cpu_seconds(pid: int) -> float:
    """The server process's user + system CPU (/proc/PID/stat, fields 14 and 15)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed_get(http: httpx.Client, url: str) -> float:
    start = time.perf_counter()
    response = http.get(url)
    seconds = time.perf_counter() - start
    assert response.status_code == 200, response.status_code
    return seconds


def run(rounds: int) -> None:
    workdir = tempfile.mkdtemp(prefix="gmtools-logins-")
    os.environ.update(DJANGO_SETTINGS_MODULE="gmtools.settings", DEBUG="1",
                      DATABASE_URL="sqlite:///" + os.path.join(workdir, "bench.sqlite3"))
    import django

    django.setup()
    import gmtools
    from django.core.management import call_command
    from django.db import connections

    from gmtools import demo
    from gmtools.models import Campaign

    call_command("migrate", verbosity=0)  # make run: migrate, then load_demo
    demo.load()
    pk = Campaign.objects.filter(gm__username=demo.GM_USERNAME, game="v5").values_list("pk", flat=True).first()
    connections.close_all()
    with socket.socket() as probe:  # a free port
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    root = os.path.dirname(os.path.dirname(gmtools.__file__))
    server = subprocess.Popen([sys.executable, "-m", "gmtools.serve", "--port", str(port)], cwd=root,
                              env={**os.environ, "PYTHONPATH": root}, stdout=subprocess.DEVNULL,
                              stderr=open(os.path.join(workdir, "server.log"), "w"))
    try:
        gm = client("127.0.0.1", port)
        for _ in range(100):
            try:
                if gm.get("/accounts/login/").status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.2)
        assert login(gm, demo.GM_USERNAME, demo.GM_PASSWORD) == 302, "the demo GM could not log in"
        table = f"/campaigns/{pk}/"
        print(f"gmtools from {os.path.dirname(gmtools.__file__)}; server pid {server.pid} on 127.0.0.1:{port}")
        for attempt in range(1, rounds + 1):
            timed_get(gm, table)  # warm
            alone = statistics.median(timed_get(gm, table) for _ in range(20))

            # (b) the flood: FLOOD threads, each one failed login with a username never seen, at once;
            # the GM keeps reading its table until they are all answered.
            barrier = threading.Barrier(FLOOD)

            def failed(n: int) -> int:
                with client(f"127.0.1.{attempt}", port) as http:
                    token = CSRF.search(http.get("/accounts/login/").text)
                    assert token is not None, "no CSRF token on the login page"
                    barrier.wait()  # sent together, as 20 browsers or a script would
                    return http.post("/accounts/login/", data={"username": f"flood-{attempt}-{n}",
                                     "password": "wrong", "csrfmiddlewaretoken": token.group(1)}).status_code

            cpu = cpu_seconds(server.pid)
            start = time.perf_counter()
            with ThreadPoolExecutor(FLOOD) as pool:
                answers = [pool.submit(failed, n) for n in range(FLOOD)]
                during = []
                while not all(answer.done() for answer in answers):
                    during.append(timed_get(gm, table))
            wall = time.perf_counter() - start
            cpu = cpu_seconds(server.pid) - cpu  # includes the GM's GETs: small beside the hashing
            codes = Counter(answer.result() for answer in answers)
            print(f"round {attempt}: table GET alone median {alone * 1000:.0f} ms; during {FLOOD} failed logins "
                  f"median {statistics.median(during) * 1000:.0f} ms over {len(during)} GETs = "
                  f"{statistics.median(during) / alone:.1f}x; flood {wall:.1f} s wall, server CPU {cpu:.1f} s "
                  f"({cpu / FLOOD:.2f} s a login); answers {dict(codes)}", flush=True)

            # (c) 4 passwords on each of 12 usernames from one address, 4 at a time.
            guesses = [(f"guess-{u}", f"password-{p}") for u in range(12) for p in range(4)]
            with client(f"127.0.2.{attempt}", port) as http, ThreadPoolExecutor(4) as pool:
                # The CSRF cookie first, once: four first GETs at once would each set another one, and
                # a token of the one overwritten is a 403 (CSRF) that is not a lockout.
                http.get("/accounts/login/")
                start = time.perf_counter()
                codes = Counter(pool.map(lambda guess: login(http, *guess), guesses))
            refused = sum(count for code, count in codes.items() if code != 200)
            print(f"round {attempt}: 4 passwords x 12 usernames from 127.0.2.{attempt}: {refused} of {len(guesses)} "
                  f"refused; answers {dict(codes)}; {time.perf_counter() - start:.1f} s", flush=True)
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    run(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
