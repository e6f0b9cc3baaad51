"""Serve gmtools with uvicorn, an ASGI server: ``python -m gmtools.serve [--lan] [--port 8000]``.

ASGI because each open player view holds a stream (server-sent events): under ASGI a stream is a
coroutine waiting on the event loop, not a thread, so 30 phones cost 30 idle coroutines.

``--lan`` listens on every interface so that phones on the same Wi-Fi can connect, turns DEBUG
off (whatever the network reaches shows no debug page), and gives the player link and its QR code
the laptop's LAN address. Without it, gmtools listens on 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import os
import sys

import uvicorn

from gmtools.lan import lan_address


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gmtools.serve", description=__doc__.splitlines()[0])
    parser.add_argument("--lan", action="store_true", help="serve the local network (phones at the table)")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    host = "127.0.0.1"
    if args.lan:
        address = lan_address()
        if address is None:
            print("No local network found: connect this computer to the table's Wi-Fi, then run it again.",
                  file=sys.stderr)
            return 2
        host = "0.0.0.0"  # noqa: S104 - the point of --lan
        os.environ["GMTOOLS_LAN"] = "1"
        os.environ["GMTOOLS_PUBLIC_URL"] = f"http://{address}:{args.port}"
        print(f"Players: http://{address}:{args.port} (the QR code on the table says the same). "
              f"GM: http://127.0.0.1:{args.port}/")
    # Open streams must not hold up Ctrl-C: they are cut after 2 s and the browsers reconnect.
    uvicorn.run("gmtools.asgi:application", host=host, port=args.port, timeout_graceful_shutdown=2, lifespan="off")
    return 0


if __name__ == "__main__":
    sys.exit(main())
