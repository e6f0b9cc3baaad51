"""The request path under the ASGI server (uvicorn, ``make run`` and ``make serve``)."""

from __future__ import annotations

import asyncio

from django.conf import settings
from django.test import AsyncClient
from django.utils.module_loading import import_string


def test_every_middleware_runs_in_the_async_request_path():
    """One sync-only middleware makes Django run everything below it, the views and the live
    streams included, through a thread and back into the loop (async_to_sync) on every request."""
    sync_only = [name for name in settings.MIDDLEWARE if not getattr(import_string(name), "async_capable", False)]
    assert sync_only == []


def test_static_files_are_served_in_the_async_request_path():
    async def fetch() -> tuple[int, bytes]:
        answer = await AsyncClient().get("/static/live.js")
        return answer.status_code, answer.getvalue()  # a file: a sync iterator, as uvicorn reads it

    status, body = asyncio.run(fetch())
    assert status == 200
    assert b"window.gmtoolsLive" in body
