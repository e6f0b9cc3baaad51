"""``manage.py discord_worker``: post the campaigns' rolls to Discord (gmtools.discord.worker).

``python -m gmtools.serve`` runs one in each server process already; this command is for a server
run otherwise, or to drain the outbox once (``--once``: post what is due, wait out Discord's short
rate limits, then exit).
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.management.base import BaseCommand

from gmtools.discord.worker import Worker


class Command(BaseCommand):
    help = "Post the campaigns' rolls to their Discord webhooks (a loop; --once to drain and exit)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--once", action="store_true", help="post what is due, then exit")

    def handle(self, *args: Any, once: bool = False, **options: Any) -> None:
        worker = Worker()
        if once:
            try:
                worker.drain(wait_up_to=30.0)
            finally:
                worker.discord.close()
            return
        try:
            worker.run(threading.Event())
        except KeyboardInterrupt:
            pass
