"""Serve gmtools with uvicorn, an ASGI server: ``python -m gmtools.serve [--lan] [--port 8000]``.

ASGI because each open player view holds a stream (server-sent events): under ASGI a stream is a
coroutine waiting on the event loop, not a thread, so 30 phones cost 30 idle coroutines.

``--lan`` listens on every interface so that phones on the same Wi-Fi can connect, turns DEBUG
off (whatever the network reaches shows no debug page), gives the player link and its QR code
the laptop's LAN address, and signs sessions with a key of the laptop's own (``.secret_key``, made
once). Without it, gmtools listens on 127.0.0.1 only.

``--workers N`` (``make serve``, a club's server behind a reverse proxy) runs N processes under
uvicorn's supervisor, which restarts one that dies; they share the live streams through PostgreSQL
(LISTEN/NOTIFY), so several workers need ``DATABASE_URL`` to name one. ``--host`` says where to
listen (the proxy's side).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import uvicorn

from gmtools.lan import lan_address
from gmtools.startup import local_secret_key

KEY_FILE = Path(__file__).resolve().parent.parent / ".secret_key"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gmtools.serve", description=__doc__.splitlines()[0])
    parser.add_argument("--lan", action="store_true", help="serve the local network (phones at the table)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: this computer only)")
    parser.add_argument("--workers", type=int, default=1, help="server processes (several need PostgreSQL)")
    args = parser.parse_args(argv)
    host = args.host
    if args.lan:
        address = lan_address()
        if address is None:
            print("No local network found: connect this computer to the table's Wi-Fi, then run it again.",
                  file=sys.stderr)
            return 2
        host = "0.0.0.0"  # noqa: S104 - the point of --lan
        os.environ["GMTOOLS_LAN"] = "1"
        os.environ["GMTOOLS_PUBLIC_URL"] = f"http://{address}:{args.port}"
        os.environ.setdefault("SECRET_KEY", local_secret_key(KEY_FILE))
        print(f"Players: http://{address}:{args.port} (the QR code on the table says the same). "
              f"GM: http://127.0.0.1:{args.port}/")
    if problem := _cannot_serve(args.workers):
        print(problem, file=sys.stderr)
        return 2
    # Open streams must not hold up Ctrl-C: they are cut after 2 s and the browsers reconnect.
    uvicorn.run("gmtools.asgi:application", host=host, port=args.port, workers=args.workers,
                timeout_graceful_shutdown=2, lifespan="off")
    return 0


def _cannot_serve(workers: int) -> str | None:
    """Why these settings cannot serve (said once, before any worker starts), or None."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gmtools.settings")
    import django
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured

    from gmtools.startup import refuse_development_key

    django.setup()
    try:
        refuse_development_key()
    except ImproperlyConfigured as error:
        return str(error)
    if workers > 1 and settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        return "Several workers share the live streams through PostgreSQL: set DATABASE_URL=postgres://..."
    return None


if __name__ == "__main__":
    sys.exit(main())
