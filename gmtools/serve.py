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
listen (the proxy's side). ``--proxy ADDRESS[,ADDRESS]`` names the reverse proxy whose
``X-Forwarded-For`` says the client's address (uvicorn's forwarded_allow_ips; also read from
``FORWARDED_ALLOW_IPS``): the limits per address (failed logins, wrong player links) then count each
client, not the proxy. Without it no forwarded header is trusted, whoever sends it.

Before anything listens, the settings are checked (gmtools.startup): a weak SECRET_KEY with DEBUG
off, a database that cannot be reached or is not migrated, and on the local network an account
that still has a password printed in the README stop it with exit status 2 and the reason; a Redis
that does not answer is a warning (each process caches on its own until it does).
"""

from __future__ import annotations

import argparse
import logging
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
    parser.add_argument("--proxy", default=os.environ.get("FORWARDED_ALLOW_IPS", ""),
                        help="the reverse proxy's address(es), comma-separated, whose X-Forwarded-For is trusted "
                             "(default: $FORWARDED_ALLOW_IPS, else none)")
    args = parser.parse_args(argv)
    proxies = [address.strip() for address in args.proxy.split(",") if address.strip()]
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
    if problem := _cannot_serve(args.workers, lan=args.lan):
        print(problem, file=sys.stderr)
        return 2
    _check_shared_cache(args.workers)
    os.environ["GMTOOLS_DISCORD_WORKER"] = "1"  # each server process posts to Discord (gmtools/asgi.py)
    # Open streams must not hold up Ctrl-C: they are cut after 2 s and the browsers reconnect.
    # uvicorn trusts X-Forwarded-For from 127.0.0.1 unless told otherwise: only from the named proxy here.
    uvicorn.run("gmtools.asgi:application", host=host, port=args.port, workers=args.workers,
                timeout_graceful_shutdown=2, lifespan="off",
                proxy_headers=bool(proxies), forwarded_allow_ips=proxies or None)
    return 0


def _cannot_serve(workers: int, *, lan: bool) -> str | None:
    """Why these settings cannot serve (said once, before any worker starts), or None."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gmtools.settings")
    import django
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured

    from gmtools.startup import database_problem, refuse_weak_key

    django.setup()
    from gmtools import demo  # its models need the apps ready
    try:
        refuse_weak_key()
    except ImproperlyConfigured as error:
        return str(error)
    if workers > 1 and settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        return "Several workers share the live streams through PostgreSQL: set DATABASE_URL=postgres://..."
    if problem := database_problem():
        return problem
    # Defence in depth: ``make table`` renews them (load_demo --lan), but a database made otherwise may
    # still have them, and on the local network any player could log in with one.
    if lan and (known := [user.get_username() for user in demo.users_with_known_passwords()]):
        return (f"On the local network no account may keep a password printed in the README, and these do: "
                f"{', '.join(known)}. `make table` gives them new ones (manage.py load_demo --lan), or set "
                f"your own: manage.py changepassword USER.")
    return None


def _check_shared_cache(workers: int) -> None:
    """A Redis that does not answer is said at start (the processes then cache on their own)."""
    from django.conf import settings
    from django.core.cache import caches

    # Without REDIS_URL there is no shared cache to ask, and the `redis` package is not imported: it is
    # a club server's extra, which `make run` does not install (it stopped every fresh laptop's start).
    if not os.environ.get("REDIS_URL"):
        return
    from gmtools.shared_cache import SharedCache, where

    cache = caches["default"]
    if isinstance(cache, SharedCache) and (reason := cache.unreachable()) is not None:
        shared = f"; the {workers} workers do not share it" if workers > 1 else ""
        logging.getLogger("gmtools.serve").warning(
            "Starting without the shared cache: Redis at %s does not answer (%s). Each process caches in its "
            "own memory until it does%s.", where(settings.CACHES["default"]["LOCATION"]), reason, shared)


if __name__ == "__main__":
    sys.exit(main())
