"""A local server on 127.0.0.1 that answers as Discord's webhook API does, for the tests of
gmtools.discord: ``POST /webhooks/<id>/<token>?wait=true`` answers 200 with the message (its id),
``PATCH .../messages/<id>`` 200 with it; a test scripts other answers in order (204, 429 with
retry_after, 404 Unknown Webhook, 500, a slow answer). Every request is recorded, answered or not.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

UNKNOWN_WEBHOOK = {"message": "Unknown Webhook", "code": 10015}


@dataclass
class Answer:
    status: int = 200
    body: dict[str, Any] | None = None  # None: the message, as Discord sends it back
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds before answering (a slow Discord)


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, list[str]]
    body: dict[str, Any]
    status: int = 0  # what it was answered

    @property
    def title(self) -> str:
        return (self.body.get("embeds") or [{}])[0].get("title", "")

    @property
    def description(self) -> str:
        return (self.body.get("embeds") or [{}])[0].get("description", "")


class FakeDiscord:
    def __init__(self) -> None:
        self.requests: list[Request] = []
        self.script: list[Answer] = []
        self.next_id = 1000
        self.lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                fake._answer(self)

            def do_PATCH(self) -> None:
                fake._answer(self)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.handle_error = lambda *args: None  # a client that gave up on a slow answer: not news
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/api"

    def __enter__(self) -> "FakeDiscord":
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()

    def then(self, *answers: Answer) -> None:
        with self.lock:
            self.script.extend(answers)

    def posts(self) -> list[Request]:
        """The posts Discord took (answered 2xx)."""
        return [r for r in self.requests if r.method == "POST" and 200 <= r.status < 300]

    def edits(self) -> list[Request]:
        return [r for r in self.requests if r.method == "PATCH" and 200 <= r.status < 300]

    def _answer(self, handler: BaseHTTPRequestHandler) -> None:
        split = urlsplit(handler.path)
        length = int(handler.headers.get("Content-Length") or 0)
        body = json.loads(handler.rfile.read(length) or b"{}")
        request = Request(handler.command, split.path, parse_qs(split.query), body)
        with self.lock:
            answer = self.script.pop(0) if self.script else Answer()
            self.requests.append(request)
            if handler.command == "POST":
                self.next_id += 1
                message_id = str(self.next_id)
            else:
                message_id = split.path.rsplit("/", 1)[-1]
        if answer.delay:
            time.sleep(answer.delay)
        request.status = answer.status
        payload = answer.body if answer.body is not None else {"id": message_id, "type": 0, **body}
        data = b"" if answer.status == 204 else json.dumps(payload).encode()
        handler.send_response(answer.status)
        for name, value in {"Content-Type": "application/json", **answer.headers}.items():
            handler.send_header(name, value)
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)
