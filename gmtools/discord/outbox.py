"""The worker's wake-up: a roll's transaction, at commit, tells this process's worker (if it runs one)
that the outbox has a row, so a post leaves at once instead of at the next look (every few seconds,
which is how a worker in another process hears of it)."""

from __future__ import annotations

import threading

WAKE = threading.Event()


def wake_discord() -> None:
    WAKE.set()
