"""What a server checks, or prepares, before it serves anyone (gmtools/asgi.py, wsgi.py, serve.py)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.checks.security.base import (
    SECRET_KEY_INSECURE_PREFIX,
    SECRET_KEY_MIN_LENGTH,
    SECRET_KEY_MIN_UNIQUE_CHARACTERS,
)
from django.core.exceptions import ImproperlyConfigured

# How long the start-up check waits for PostgreSQL: a wrong host answers nothing, and the pool's own
# wait (10 s, settings.DATABASES) ended in "couldn't get a connection" without saying where it looked.
DATABASE_CONNECT_TIMEOUT = 5


def refuse_weak_key() -> None:
    """Sessions and password resets are signed with SECRET_KEY: with DEBUG off (anything that others
    reach) the server refuses to start with the key printed in our own settings, or with one that
    Django's deploy check calls weak (security.W009: shorter than 50 characters, fewer than 5
    different ones, or Django's "django-insecure-" placeholder), which could be guessed."""
    if settings.DEBUG:
        return
    key = settings.SECRET_KEY
    how_to = ("Set SECRET_KEY to a long random string (python -c 'import secrets; print(secrets.token_urlsafe(50))'), "
              "or DEBUG=1 on your own computer.")
    if key == settings.DEVELOPMENT_SECRET_KEY:
        raise ImproperlyConfigured(f"SECRET_KEY is not set: with DEBUG off gmtools refuses the development key. {how_to}")
    if (len(key) < SECRET_KEY_MIN_LENGTH or len(set(key)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS
            or key.startswith(SECRET_KEY_INSECURE_PREFIX)):
        raise ImproperlyConfigured(
            f"SECRET_KEY is too weak ({len(key)} characters, {len(set(key))} different): with DEBUG off gmtools "
            f"needs at least {SECRET_KEY_MIN_LENGTH} characters, {SECRET_KEY_MIN_UNIQUE_CHARACTERS} different ones, "
            f"and not Django's '{SECRET_KEY_INSECURE_PREFIX}' placeholder. {how_to}"
        )


def local_secret_key(path: Path) -> str:
    """The key of the GM's own laptop on the local network (``make table``): made once, kept in a file
    only its owner reads, so that a restart keeps everyone logged in."""
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as file:
            file.write(secrets.token_urlsafe(50))
    return path.read_text().strip()


def database_location(database: dict[str, Any] | None = None) -> str:
    """Where the database is, as an operator would look for it: engine, host, port, name and user,
    never the password."""
    database = database or settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        return f"SQLite database {database['NAME']}"
    where = f"{database.get('HOST') or 'localhost'}:{database.get('PORT') or 5432}"
    return f"PostgreSQL database {database.get('NAME')!r} at {where} as user {database.get('USER') or '(none)'!r}"


def database_problem() -> str | None:
    """Why the database cannot serve (unreachable, refused, not migrated), naming where it is; None
    when it can. A wrong DATABASE_URL used to start a server whose every page waited 10 s for the
    pool, then answered 500.

    Through a connection of its own, outside the pool, with a short timeout: the pool would wait its
    full timeout, and a failed pool start is no answer to give an operator.
    """
    from django.db import DatabaseError, connections
    from django.db.migrations.loader import MigrationLoader

    database = connections["default"].settings_dict
    options = {key: value for key, value in database.get("OPTIONS", {}).items() if key != "pool"}
    if database["ENGINE"] == "django.db.backends.postgresql":
        options["connect_timeout"] = DATABASE_CONNECT_TIMEOUT
    probe = type(connections["default"])({**database, "OPTIONS": options}, alias="startup-check")
    try:
        with probe.cursor() as cursor:
            applied: set[tuple[str, str]] = set()
            if "django_migrations" in probe.introspection.table_names(cursor):
                cursor.execute("SELECT app, name FROM django_migrations")
                applied = set(cursor.fetchall())
    except DatabaseError as error:
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        return f"Cannot use the {database_location(database)}: {reason}. Check DATABASE_URL."
    finally:
        probe.close()
    # The code's latest migration of each app (read from disk, no connection needed), not in the table.
    if missing := sorted(set(MigrationLoader(None, ignore_no_migrations=True).graph.leaf_nodes()) - applied):
        return (f"The {database_location(database)} is not migrated for this code (missing: "
                f"{', '.join(f'{app}.{name}' for app, name in missing)}): run `python manage.py migrate` first "
                "(make run, make table and make serve do).")
    return None
