"""Discord's webhook API through httpx: post a message (``?wait=true``, so that Discord answers with
it and its id is kept for the edit), edit one (PATCH ``/messages/<id>``). Every answer that is not a
success is a ``Failed``: its status, Discord's words, and how long Discord asked us to wait (429).

The stored URL is Discord's (``Campaign.discord_webhook``, validated); the request goes to
``settings.DISCORD_API_BASE`` with that URL's id and token, so that the tests point the real code
at a local server.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx
from django.conf import settings

from gmtools.models.campaigns import DISCORD_WEBHOOK

TIMEOUT = 10.0  # seconds for one request: a slow Discord fails this attempt, the next one retries


@dataclass
class Failed(Exception):
    status: int  # 0: no answer (refused, timed out)
    text: str
    retry_after: float | None = None  # seconds Discord asked for (429)

    def __str__(self) -> str:
        return f"{self.status} {self.text}" if self.status else self.text


def endpoint(webhook: str) -> str:
    found = DISCORD_WEBHOOK.fullmatch(webhook)
    if found is None:
        raise Failed(0, "not a Discord webhook URL")
    return f"{settings.DISCORD_API_BASE.rstrip('/')}/webhooks/{found['id']}/{found['token']}"


class Discord:
    """One webhook client per worker (httpx keeps the connection to Discord open between posts)."""

    def __init__(self, *, timeout: float = TIMEOUT, transport: httpx.BaseTransport | None = None) -> None:
        self.http = httpx.Client(timeout=timeout, transport=transport,
                                 headers={"User-Agent": "gmtools-webhook/0.1"})

    def close(self) -> None:
        self.http.close()

    def post(self, webhook: str, message: dict[str, Any]) -> str:
        """Post a message; its id ("" when Discord answered 204, without it)."""
        answer = self._send("POST", endpoint(webhook), params={"wait": "true"}, json=message)
        return str(_json(answer).get("id", "")) if answer.status_code != 204 else ""

    def edit(self, webhook: str, message_id: str, message: dict[str, Any]) -> None:
        self._send("PATCH", f"{endpoint(webhook)}/messages/{message_id}", json=message)

    def _send(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        try:
            answer = self.http.request(method, url, **kwargs)
        except httpx.TimeoutException:
            raise Failed(0, "no answer from Discord (timed out)") from None
        except httpx.HTTPError as error:
            raise Failed(0, f"cannot reach Discord ({type(error).__name__})") from None
        if answer.is_success:
            return answer
        body = _json(answer)
        text = str(body.get("message") or answer.reason_phrase or "error").replace("\x00", "")[:120]
        raise Failed(answer.status_code, text.lower(), _retry_after(answer, body) if answer.status_code == 429 else None)


def _json(answer: httpx.Response) -> dict[str, Any]:
    try:
        body = answer.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _retry_after(answer: httpx.Response, body: dict[str, Any]) -> float:
    """Discord's wait in seconds: the body's ``retry_after`` (a float), else the ``Retry-After`` header,
    else a second; never negative, never more than an hour (a broken answer must not park the queue)."""
    for value in (body.get("retry_after"), answer.headers.get("Retry-After")):
        try:
            seconds = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            continue
        if seconds == seconds:  # not NaN
            return min(max(seconds, 0.0), 3600.0)
    return 1.0
