"""What a server checks, or prepares, before it serves anyone (gmtools/asgi.py, wsgi.py, serve.py)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured


def refuse_development_key() -> None:
    """Sessions and password resets signed with a key printed in our own settings could be forged:
    with DEBUG off (anything that others reach) the server refuses to start with it."""
    if not settings.DEBUG and settings.SECRET_KEY == settings.DEVELOPMENT_SECRET_KEY:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set: with DEBUG off gmtools refuses the development key. Set SECRET_KEY to a "
            "long random string (python -c 'import secrets; print(secrets.token_urlsafe(50))'), or DEBUG=1 "
            "on your own computer."
        )


def local_secret_key(path: Path) -> str:
    """The key of the GM's own laptop on the local network (``make table``): made once, kept in a file
    only its owner reads, so that a restart keeps everyone logged in."""
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as file:
            file.write(secrets.token_urlsafe(50))
    return path.read_text().strip()
