"""The shared cache in Redis (``REDIS_URL``), and what a process does while Redis does not answer.

Django's RedisCache raises when Redis is unreachable, and every table, roll and player URL reads
the cache: with Redis down, at start or later, they all answered 500. ``SharedCache`` is that
RedisCache, except that an operation Redis does not answer is served by the process's own cache
instead (what settings.CACHES uses without REDIS_URL: LocMem for "default", nothing for "live"),
with a warning; the process asks Redis again ``RETRY`` seconds later, and says when it answers.

Meanwhile the workers of ``make serve`` share nothing: each counts its own wrong player links,
caches its own odds, and draws each change for its own streams; nothing is lost but work done twice.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, ClassVar
from urllib.parse import urlsplit

import redis
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.dummy import DummyCache
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache

log = logging.getLogger(__name__)

RETRY = 10.0  # seconds a process serves from its own cache before it asks Redis again
UNREACHABLE = (redis.ConnectionError, redis.TimeoutError)


def where(location: str) -> str:
    """Redis's host and port, from its URL, without the password it may carry."""
    url = urlsplit(location)
    return f"{url.hostname or 'localhost'}:{url.port or 6379}"


class SharedCache(RedisCache):
    # Per process and Redis URL: Django makes a cache object per thread and per request, and every
    # one of them must know that Redis is down (or each request pays a connection attempt).
    _down_until: ClassVar[dict[str, float]] = {}
    _lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = dict(params.get("OPTIONS", {}))
        fallback = options.pop("fallback")
        super().__init__(server, {**params, "OPTIONS": options})
        self._location = server
        own = {key: params[key] for key in ("TIMEOUT", "KEY_PREFIX", "VERSION", "KEY_FUNCTION") if key in params}
        self._fallback: BaseCache = {
            "memory": lambda: LocMemCache(f"gmtools-fallback:{server}", own),  # one store per process
            "none": lambda: DummyCache(server, own),
        }[fallback]()

    def unreachable(self) -> str | None:
        """Why Redis does not answer now (then it is marked down for ``RETRY`` s, and the caller says
        so), or None."""
        try:
            self._cache.get_client(None).ping()
        except UNREACHABLE as error:
            self._went_down(error, say=False)
            return str(error)
        return None

    def _either(self, name: str, redis_operation: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if time.monotonic() >= self._down_until.get(self._location, 0.0):
            try:
                result = redis_operation(*args, **kwargs)
            except UNREACHABLE as error:
                self._went_down(error)
            else:
                self._answers()
                return result
        return getattr(self._fallback, name)(*args, **kwargs)

    def _went_down(self, error: Exception, say: bool = True) -> None:
        with self._lock:
            first = self._location not in self._down_until
            self._down_until[self._location] = time.monotonic() + RETRY
        if first and say:
            log.warning("Redis at %s does not answer (%s): this process caches in its own memory until it does; "
                        "the server's processes share no cache meanwhile (asking again every %.0f s).",
                        where(self._location), error, RETRY)

    def _answers(self) -> None:
        if self._location in self._down_until:
            with self._lock:
                back = self._down_until.pop(self._location, None) is not None
            if back:
                log.warning("Redis at %s answers again: the cache is shared again.", where(self._location))


def _served_either_way(name: str) -> Callable[..., Any]:
    """One of RedisCache's operations, through ``SharedCache._either``."""

    def operation(self: SharedCache, *args: Any, **kwargs: Any) -> Any:
        return self._either(name, getattr(super(SharedCache, self), name), *args, **kwargs)

    operation.__name__ = operation.__qualname__ = name
    return operation


# Every operation RedisCache implements; BaseCache's others (get_or_set, decr, the async ones...)
# are made of these.
for _name in ("add", "get", "set", "touch", "delete", "get_many", "has_key", "incr", "set_many", "delete_many", "clear"):
    setattr(SharedCache, _name, _served_either_way(_name))
