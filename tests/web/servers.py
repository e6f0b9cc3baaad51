"""Real gmtools server processes on a throwaway PostgreSQL database, for the live tests and the bench.

Why real processes: the live push crosses processes through PostgreSQL's LISTEN/NOTIFY, which
Django's test client and live server (one process, one test database in a transaction) never
exercise. So each run creates its own database (a unique name: runs and engineers never share
one), migrated and with the demo loaded by ``manage.py`` (once per test process, into a template
database that each run then copies: PostgreSQL's ``CREATE DATABASE ... TEMPLATE`` takes a
fraction of a second, migrating takes many), starts ``python -m gmtools.serve`` on
free ports of 127.0.0.1, and talks to the servers over HTTP as a browser would: log in, read the
composer's defaults from the table page, POST the roll with the CSRF header, and read the
server-sent events of ``/p/<token>/stream/`` and ``/campaigns/<pk>/stream/``.

``running(n)`` is the whole life cycle in one ``with``: whatever happens inside (a failed
assertion, Ctrl-C), the processes are stopped and the database dropped. The servers' output goes
to log files, printed to stderr when the block fails, so a server-side traceback is never lost.
``running(1, workers=2)`` is one ``gmtools.serve --workers 2`` instead (uvicorn's supervisor and
two worker processes on one port), as ``make serve`` runs a club's server.

Everything here is asyncio + httpx, the bench's 50 viewers and the test's few alike. A ``Phone``
is a player's page as static/live.js keeps it: one stream, reopened from its cursor on another
server when its server dies.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import html
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import dj_database_url
import httpx

ROOT = Path(__file__).resolve().parents[2]
GM_USERNAME, GM_PASSWORD = "gm", "gm-demo-2026"  # gmtools.demo's demo GM
START_TIMEOUT = 30.0  # seconds for a server process to answer its login page
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
SERVERS_SECRET_KEY = secrets.token_urlsafe(50)


# --- the database -------------------------------------------------------------------------------

def pg_params() -> dict[str, str]:
    """Where PostgreSQL is: the server of ``DATABASE_URL`` when it names one, else this machine's."""
    url = os.environ.get("DATABASE_URL", "")
    found = dj_database_url.parse(url) if url.startswith(("postgres", "postgresql")) else {}
    return {"host": found.get("HOST") or "127.0.0.1", "port": str(found.get("PORT") or 5432),
            "user": found.get("USER") or "postgres"}


def postgres_unreachable() -> str | None:
    """Why PostgreSQL cannot be used here (psycopg missing, server down), or None when it can."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed: pip install -e '.[test]'"
    params = pg_params()
    try:
        with psycopg.connect(dbname="postgres", connect_timeout=3, **params):
            return None
    except psycopg.Error as error:
        return f"PostgreSQL is unreachable at {params['host']}:{params['port']} as {params['user']}: {error}".strip()


def _admin(sql: str) -> None:
    """One statement on the maintenance database; autocommit because CREATE/DROP DATABASE refuse a transaction."""
    import psycopg

    with psycopg.connect(dbname="postgres", autocommit=True, connect_timeout=5, **pg_params()) as conn:
        conn.execute(sql)  # type: ignore[arg-type]  # the name is ours (uuid), never user input


def create_database() -> str:
    """A new, empty database with a unique name (so parallel runs never meet)."""
    name = f"gmtools_live_{uuid.uuid4().hex[:12]}"
    _admin(f'CREATE DATABASE "{name}"')
    return name


def drop_database(name: str) -> None:
    """Drop it even if a server still holds a connection (FORCE, PostgreSQL 13+)."""
    _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def server_env(database: str) -> dict[str, str]:
    """The environment of every ``manage.py`` and server process: gmtools.settings on that database."""
    params = pg_params()
    return {**os.environ, "DJANGO_SETTINGS_MODULE": "gmtools.settings", "PYTHONUNBUFFERED": "1",
            "SECRET_KEY": SERVERS_SECRET_KEY,  # DEBUG is off, as on a club's server: no development key
            "DATABASE_URL": f"postgres://{params['user']}@{params['host']}:{params['port']}/{database}"}


def prepare(env: dict[str, str]) -> None:
    """Migrate and load the demo through manage.py, exactly as ``make run`` does."""
    for command in (["migrate", "--noinput"], ["load_demo"]):
        done = subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=300, check=False)
        if done.returncode:
            raise RuntimeError(f"manage.py {' '.join(command)} failed:\n{done.stdout}\n{done.stderr}")


_template: str | None = None  # this process's migrated database with the demo, copied by ``demo_database``


def demo_database() -> str:
    """A new database, migrated and with the demo loaded: a copy of this process's template (made on first use)."""
    global _template
    if _template is None:
        template = create_database()
        try:
            prepare(server_env(template))
        except BaseException:
            drop_database(template)
            raise
        _template = template
        atexit.register(drop_database, template)
    name = f"gmtools_live_{uuid.uuid4().hex[:12]}"
    _admin(f'CREATE DATABASE "{name}" TEMPLATE "{_template}"')
    return name


def query(database: str, sql: str, *args: object) -> list[tuple]:
    """One read of the servers' database, for what HTTP does not show (ids of changes, statistics)."""
    import psycopg

    with psycopg.connect(dbname=database, connect_timeout=5, **pg_params()) as conn:
        return conn.execute(sql, args).fetchall()  # type: ignore[arg-type]


# --- the server processes ---------------------------------------------------------------------

def free_port() -> int:
    """A port nobody listens on now (the OS picks it; a tiny race until the server binds it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Server:
    """One ``python -m gmtools.serve`` process; its stdout and stderr go to ``log_path``."""

    port: int
    process: subprocess.Popen
    log_path: Path
    workers: int = 1

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def stop(self) -> None:
        """SIGTERM (uvicorn's graceful shutdown cuts open streams after 2 s), then SIGKILL."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)

    def kill(self) -> None:
        """SIGKILL, as a crash or the kernel's OOM killer ends a process: no shutdown at all, its
        streams cut mid-way. For a one-worker server (the process is the worker); a supervisor
        killed so would leave its workers behind."""
        assert self.workers == 1, "kill() ends one worker process; this server has a supervisor"
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def worker_pids(self) -> list[int]:
        """The live worker processes, as the log names them: started and not reported dead since."""
        log = self.log()
        died = {int(pid) for pid in re.findall(r"Child process \[(\d+)\] died", log)}
        return [int(pid) for pid in re.findall(r"Started server process \[(\d+)\]", log) if int(pid) not in died]

    def kill_worker(self, pid: int, timeout: float = START_TIMEOUT) -> int:
        """SIGKILL one worker of a supervised server (``workers`` > 1), then wait for uvicorn's
        supervisor to notice and start its replacement; the new worker's pid. Blocking: from a
        coroutine, through ``asyncio.to_thread``."""
        before = self.worker_pids()
        assert self.workers > 1 and pid in before, (pid, before)
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + timeout
        while True:
            live = self.worker_pids()
            if pid not in live and len(live) == self.workers:
                return (set(live) - set(before)).pop()
            if time.monotonic() > deadline:
                raise RuntimeError(f"worker {pid} on port {self.port} was not replaced in {timeout:.0f} s:\n{self.log()}")
            time.sleep(0.1)


def start_server(env: dict[str, str], logs: Path, workers: int = 1) -> Server:
    port = free_port()
    log_path = logs / f"server-{port}.log"
    command = [sys.executable, "-m", "gmtools.serve", "--port", str(port)]
    if workers > 1:
        command += ["--workers", str(workers)]
    with log_path.open("wb") as out:  # the child keeps its own copy of the descriptor
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL)
    return Server(port, process, log_path, workers)


def wait_until_up(server: Server, timeout: float = START_TIMEOUT) -> None:
    """Poll the login page: the process is serving once it answers 200 (and, under a supervisor,
    once every worker has said it started: until then the first one takes every connection)."""
    deadline = time.monotonic() + timeout
    while True:
        if server.process.poll() is not None:
            raise RuntimeError(f"server on port {server.port} exited ({server.process.returncode}):\n{server.log()}")
        try:
            if (httpx.get(f"{server.url}/accounts/login/", timeout=2).status_code == 200
                    and server.log().count("Started server process") >= server.workers):
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"server on port {server.port} did not answer in {timeout:.0f} s:\n{server.log()}")
        time.sleep(0.1)


@dataclass(frozen=True)
class DemoCampaign:
    pk: int
    game: str
    player_token: str


@dataclass
class Cluster:
    """The running servers on one fresh database with the demo loaded."""

    database: str
    servers: list[Server]

    def campaign(self, game: str) -> DemoCampaign:
        """The demo campaign of a game, read straight from the database (the harness made it)."""
        [(pk, token)] = query(self.database, "SELECT id, player_token FROM gmtools_campaign WHERE game = %s", game)
        return DemoCampaign(pk, game, token)

    def change_of(self, roll: int) -> int:
        """The id of the change that announced a roll: what its event's ``id:`` must be."""
        [(change,)] = query(self.database, "SELECT id FROM gmtools_change WHERE roll_id = %s", roll)
        return change

    def logs(self) -> str:
        return "\n".join(f"===== server {i} (port {s.port}) =====\n{s.log()}" for i, s in enumerate(self.servers))

    def errors(self) -> list[str]:
        """Lines of the servers' logs that report a failure (tracebacks, errors, 5xx answers)."""
        bad = re.compile(r"Traceback|ERROR|Exception|WARNING| 5\d\d ")
        return [f"port {s.port}: {line}" for s in self.servers for line in s.log().splitlines() if bad.search(line)]


@contextlib.contextmanager
def running(count: int, workers: int = 1) -> Iterator[Cluster]:
    """``count`` servers (each ``workers`` processes) on a new database; always stopped and dropped on the way out."""
    database = demo_database()
    cluster = Cluster(database, [])
    logs = Path(tempfile.mkdtemp(prefix="gmtools-live-"))
    failed = True
    try:
        env = server_env(database)
        cluster.servers.extend(start_server(env, logs, workers) for _ in range(count))
        for server in cluster.servers:
            wait_until_up(server)
        yield cluster
        failed = False
    finally:
        for server in cluster.servers:
            server.stop()
        if failed:  # the logs stay in ``logs`` too
            print(f"\n--- server logs ({logs}, database {database}) ---\n{cluster.logs()}", file=sys.stderr)
        else:
            shutil.rmtree(logs, ignore_errors=True)
        drop_database(database)


# --- the GM, as a browser -----------------------------------------------------------------------

class FormDefaults(HTMLParser):
    """What a browser submits from one ``<form id=...>`` untouched: inputs, checked boxes, selected options."""

    def __init__(self, form_id: str) -> None:
        super().__init__(convert_charrefs=True)
        self.form_id = form_id
        self.inside = False
        self.fields: list[tuple[str, str]] = []
        self._select: tuple[str, bool] | None = None  # (name, multiple)
        self._options: list[tuple[str, bool]] = []  # (value, selected) of the open select
        self._option_text: list[str] | None = None
        self._textarea: tuple[str, list[str]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            self.inside = a.get("id") == self.form_id
            return
        if not self.inside or "disabled" in a:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text").lower()
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.fields.append((name, a.get("value", "on")))
            elif kind not in ("submit", "button", "image", "reset", "file"):
                self.fields.append((name, a.get("value", "")))
        elif tag == "select" and name:
            self._select, self._options = (name, "multiple" in a), []
        elif tag == "option" and self._select:
            self._options.append((a.get("value", ""), "selected" in a))
            self._option_text = [] if "value" not in a else None
        elif tag == "textarea" and name:
            self._textarea = (name, [])

    def handle_data(self, data: str) -> None:
        if self._option_text is not None:
            self._option_text.append(data)
        if self._textarea is not None:
            self._textarea[1].append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "option" and self._option_text is not None and self._options:
            # An option without a value attribute sends its text.
            self._options[-1] = ("".join(self._option_text).strip(), self._options[-1][1])
            self._option_text = None
        elif tag == "select" and self._select:
            name, multiple = self._select
            chosen = [v for v, selected in self._options if selected]
            if not chosen and not multiple and self._options:
                chosen = [self._options[0][0]]  # a single select shows (and sends) its first option
            if not multiple:
                chosen = chosen[-1:]
            self.fields.extend((name, v) for v in chosen)
            self._select = None
        elif tag == "textarea" and self._textarea:
            name, text = self._textarea
            self.fields.append((name, "".join(text).removeprefix("\n")))
            self._textarea = None


def form_defaults(page: str, form_id: str) -> list[tuple[str, str]]:
    parser = FormDefaults(form_id)
    parser.feed(page)
    parser.close()
    if not parser.fields:
        raise AssertionError(f"no <form id={form_id!r}> with fields in the page")
    return parser.fields


def page_attribute(page: str, name: str) -> str:
    """The first ``name="..."`` attribute of a page (e.g. the live root's data-cursor)."""
    found = re.search(rf'\b{re.escape(name)}="([^"]*)"', page)
    if found is None:
        raise AssertionError(f"no {name} in the page")
    return html.unescape(found.group(1))


ROLL_ID = re.compile(r'\bid="roll-(\d+)"')


@dataclass(frozen=True)
class Rolled:
    pk: int
    html: str
    seconds: float  # the roll request's own latency, seen by the client
    sent_at: float  # time.perf_counter() just before sending


class GM:
    """The demo GM's browser: one cookie jar (session, csrftoken) for every server, as on one laptop.

    Cookies do not depend on the port, so a session made through one server process is sent to
    the others too, and works there: the sessions live in the shared database.
    """

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client
        self._composer: dict[tuple[str, int], list[tuple[str, str]]] = {}

    @classmethod
    async def login(cls, server: Server, client: httpx.AsyncClient) -> GM:
        page = await client.get(f"{server.url}/accounts/login/")
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        if csrf is None:
            raise AssertionError(f"no CSRF token in the login page:\n{page.text[:2000]}")
        answer = await client.post(f"{server.url}/accounts/login/", data={
            "username": GM_USERNAME, "password": GM_PASSWORD, "csrfmiddlewaretoken": csrf.group(1)},
            headers={"Referer": f"{server.url}/accounts/login/"})
        if answer.status_code != 302:
            raise AssertionError(f"login failed: {answer.status_code}\n{answer.text[:2000]}")
        return cls(client)

    async def composer(self, server: Server, campaign: int) -> list[tuple[str, str]]:
        """The composer's fields as the table page shows them (read once per server and campaign)."""
        key = (server.url, campaign)
        if key not in self._composer:
            page = await self.client.get(f"{server.url}/campaigns/{campaign}/")
            page.raise_for_status()
            self._composer[key] = [(k, v) for k, v in form_defaults(page.text, "composer") if k != "csrfmiddlewaretoken"]
        return self._composer[key]

    async def composed(self, server: Server, campaign: int, **changed: str) -> dict[str, list[str]]:
        """What "Roll" posts: the composer as the page shows it but for ``changed`` fields (e.g. ``hidden="on"``)."""
        data: dict[str, list[str]] = {}
        for name, value in await self.composer(server, campaign):  # a repeated name (multiple select) stays repeated
            data.setdefault(name, []).append(value)
        data.update({name: [value] for name, value in changed.items()})
        if "once" in data:  # each press a key of its own, as each answer brings the page the next one (issue 23)
            data["once"] = [str(uuid.uuid4())]
        return data

    async def post(self, server: Server, path: str, data: dict) -> httpx.Response:
        """A POST as htmx sends one from the GM's page (the CSRF header, ``HX-Request``), whatever its answer."""
        headers = {"X-CSRFToken": self.client.cookies["csrftoken"], "HX-Request": "true"}
        return await self.client.post(f"{server.url}{path}", data=data, headers=headers)

    async def roll(self, server: Server, campaign: int, **changed: str) -> Rolled:
        """Press "Roll" as htmx posts it (``composed``); the new roll's pk from its card."""
        data = await self.composed(server, campaign, **changed)
        sent_at = time.perf_counter()
        answer = await self.post(server, f"/campaigns/{campaign}/roll/", data)
        seconds = time.perf_counter() - sent_at
        found = ROLL_ID.search(answer.text)
        if answer.status_code != 200 or found is None:
            raise AssertionError(f"roll refused: {answer.status_code}\n{answer.text[:2000]}")
        return Rolled(int(found.group(1)), answer.text, seconds, sent_at)


def refusal(answer: httpx.Response) -> str:
    """The message of a refused request (422: ``table.html#refusal``), as the GM reads it; "" if none."""
    if answer.status_code != 422:
        return ""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", answer.text)).split())


# --- the viewers' streams ---------------------------------------------------------------------

@dataclass(frozen=True)
class Event:
    """One server-sent event, with the client's clock when its blank line arrived."""

    name: str
    id: str | None
    data: str
    at: float  # time.perf_counter()

    @property
    def rolls(self) -> list[int]:
        """The roll cards it carries (``id="roll-<pk>"``), in order."""
        return [int(pk) for pk in ROLL_ID.findall(self.data)]


class EventParser:
    """The text/event-stream format, line by line (comments and ``retry:`` are not events)."""

    def __init__(self) -> None:
        self.name = ""
        self.id: str | None = None
        self.data: list[str] = []

    def feed(self, line: str) -> Event | None:
        if line == "":
            if not self.data and not self.name:
                return None
            event = Event(self.name or "message", self.id, "\n".join(self.data), time.perf_counter())
            self.name, self.data = "", []  # the id persists across events, as in EventSource
            return event
        if line.startswith(":"):
            return None
        key, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if key == "event":
            self.name = value
        elif key == "data":
            self.data.append(value)
        elif key == "id":
            self.id = value
        return None


@dataclass
class Stream:
    """One open viewer: a task reads its events into a queue (None when the stream ends) until ``close()``.

    ``light``: for many busy streams at once (the load test's 50 phones), each event is cut from
    the raw bytes (no line-by-line parsing), keeps of its data only the roll cards it carries
    (``Event.rolls`` still works) and goes to the queue only, not to ``received``: the reading
    process then costs the machine little beside the servers it measures.
    """

    url: str
    light: bool = False
    events: asyncio.Queue[Event | None] = field(default_factory=asyncio.Queue)
    received: list[Event] = field(default_factory=list)
    count: int = 0  # events received
    opened: asyncio.Event = field(default_factory=asyncio.Event)  # set at ``retry:``, or when it failed before
    started: bool = False  # the server's first block arrived
    task: asyncio.Task | None = None
    error: BaseException | None = None

    async def next(self, timeout: float) -> Event:
        """The next event; TimeoutError after ``timeout`` seconds, RuntimeError if the stream ended."""
        event = await asyncio.wait_for(self.events.get(), timeout)
        if event is None:
            self.events.put_nowait(None)  # it stays ended
            raise RuntimeError(f"stream {self.url} ended after {self.count} events") from self.error
        return event

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    def _started(self) -> None:
        self.started = True  # the server's first block: the stream is subscribed to its hub
        self.opened.set()

    def _got(self, event: Event) -> None:
        self.count += 1
        if not self.light:
            self.received.append(event)
        self.events.put_nowait(event)


BLOCK_EVENT = re.compile(rb"^event: ?(.*)$", re.MULTILINE)
BLOCK_ID = re.compile(rb"^id: ?(.*)$", re.MULTILINE)
BLOCK_ROLL_ID = re.compile(rb'\bid="roll-(\d+)"')


def _light_block(stream: Stream, block: bytes) -> None:
    """One event of a light stream, from its block of lines (our server ends its lines with LF alone)."""
    if block.startswith(b"retry:"):
        stream._started()
    elif block and not block.startswith(b":"):
        name, id_ = BLOCK_EVENT.search(block), BLOCK_ID.search(block)
        cards = " ".join(f'id="roll-{int(pk)}"' for pk in BLOCK_ROLL_ID.findall(block))
        stream._got(Event(name.group(1).decode() if name else "message", id_.group(1).decode() if id_ else None,
                          cards, time.perf_counter()))


async def _read(client: httpx.AsyncClient, stream: Stream) -> None:
    parser = EventParser()
    try:
        async with client.stream("GET", stream.url, headers={"Accept": "text/event-stream"},
                                 timeout=httpx.Timeout(10, read=None)) as answer:
            if answer.status_code != 200:
                raise AssertionError(f"{stream.url}: {answer.status_code}")
            if stream.light:
                rest = b""
                async for chunk in answer.aiter_bytes():
                    *blocks, rest = (rest + chunk).split(b"\n\n")
                    for block in blocks:
                        _light_block(stream, block)
            else:
                async for line in answer.aiter_lines():
                    if line.startswith("retry:"):
                        stream._started()
                    event = parser.feed(line)
                    if event is not None:
                        stream._got(event)
    except asyncio.CancelledError:
        raise
    except Exception as error:  # noqa: BLE001 - kept for the reader of the stream
        stream.error = error
    stream.events.put_nowait(None)
    stream.opened.set()


async def open_stream(client: httpx.AsyncClient, url: str, timeout: float = 10, light: bool = False) -> Stream:
    """Open a stream and wait for the server's first block (``retry:``).

    The server subscribes the stream to its campaign's hub (and starts its LISTEN) before that
    block, so a test that rolls after this returns measures delivery, not connection set-up.
    """
    stream = Stream(url, light)
    stream.task = asyncio.create_task(_read(client, stream))
    await asyncio.wait_for(stream.opened.wait(), timeout)
    if not stream.started:
        raise RuntimeError(f"stream {url} failed to open") from stream.error
    return stream


async def player_stream(client: httpx.AsyncClient, server: Server, token: str, after: int | None = None,
                        light: bool = False) -> Stream:
    """A player's phone: the player page's cursor (or ``after``), then its stream."""
    if after is None:
        page = await client.get(f"{server.url}/p/{token}/")
        page.raise_for_status()
        after = int(page_attribute(page.text, "data-cursor"))
    return await open_stream(client, f"{server.url}/p/{token}/stream/?after={after}", light=light)


async def gm_stream(gm: GM, server: Server, campaign: int, after: int | None = None, light: bool = False) -> Stream:
    """Another tab of the GM's (or the one that rolls): the table page's cursor (or ``after``), then its stream."""
    if after is None:
        page = await gm.client.get(f"{server.url}/campaigns/{campaign}/")
        page.raise_for_status()
        after = int(page_attribute(page.text, "data-cursor"))
    return await open_stream(gm.client, f"{server.url}/campaigns/{campaign}/stream/?after={after}", light=light)


@contextlib.asynccontextmanager
async def streams() -> AsyncIterator[list[Stream]]:
    """A list to put open streams in; every one is closed on the way out."""
    opened: list[Stream] = []
    try:
        yield opened
    finally:
        await asyncio.gather(*(s.close() for s in opened), return_exceptions=True)


# --- a phone that outlives its server ---------------------------------------------------------

@dataclass
class Phone:
    """A player's page as static/live.js keeps it: one stream at a time, reopened from its cursor.

    The cursor is the id of the last change received. When the stream ends (its server died) or
    cannot be opened, the phone waits ``retry`` seconds, then opens it again with ``?after=<cursor>``
    (live.js's way) and ``Last-Event-ID: <cursor>`` (what a browser's own EventSource retry
    sends) on the next server of ``servers``, as a proxy in front of several processes gives a new
    connection to one that answers. ``online`` is the phone's network: cleared, the phone does
    not reconnect until it is set again (a test decides what happens while it is away).

    Unlike live.js, nothing is skipped: every event that any of its streams sent is in
    ``received`` (and in ``events``), so a change sent twice shows.
    """

    token: str
    servers: list[Server]
    cursor: int
    retry: float = 0.5
    events: asyncio.Queue[Event] = field(default_factory=asyncio.Queue)
    received: list[Event] = field(default_factory=list)
    connections: list[int] = field(default_factory=list)  # the port of each stream that opened, in order
    failures: list[str] = field(default_factory=list)  # why each stream ended or did not open
    online: asyncio.Event = field(default_factory=asyncio.Event)
    connected: asyncio.Event = field(default_factory=asyncio.Event)  # a stream is open now
    dropped: asyncio.Event = field(default_factory=asyncio.Event)  # a stream has ended since last cleared
    task: asyncio.Task | None = None

    def start(self, client: httpx.AsyncClient) -> None:
        self.online.set()
        self.task = asyncio.create_task(self._follow(client))

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def until_connected(self, timeout: float = 10) -> int:
        """Wait for an open stream; the port of its server."""
        await asyncio.wait_for(self.connected.wait(), timeout)
        return self.connections[-1]

    def changes(self) -> list[Event]:
        return [event for event in self.received if event.name == "change"]

    async def _follow(self, client: httpx.AsyncClient) -> None:
        turn = 0
        while True:
            await self.online.wait()
            server = self.servers[turn % len(self.servers)]
            url = f"{server.url}/p/{self.token}/stream/?after={self.cursor}"
            headers = {"Accept": "text/event-stream", "Last-Event-ID": str(self.cursor)}
            parser = EventParser()
            try:
                async with client.stream("GET", url, headers=headers, timeout=httpx.Timeout(5, read=None)) as answer:
                    if answer.status_code != 200:
                        raise RuntimeError(f"answered {answer.status_code}")
                    async for line in answer.aiter_lines():
                        if line.startswith("retry:"):
                            self.connections.append(server.port)
                            self.connected.set()
                        event = parser.feed(line)
                        if event is None:
                            continue
                        if event.name == "change" and event.id is not None:
                            self.cursor = int(event.id)
                        self.received.append(event)
                        self.events.put_nowait(event)
                self.failures.append(f"port {server.port}: the stream ended")
            except (httpx.TransportError, RuntimeError) as error:
                self.failures.append(f"port {server.port}: {type(error).__name__}: {error}")
            self.connected.clear()
            self.dropped.set()
            turn += 1
            await asyncio.sleep(self.retry)
