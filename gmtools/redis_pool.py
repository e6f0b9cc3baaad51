"""One Redis connection pool per server for the whole process (``CACHES[...]["OPTIONS"]["pool_class"]``).

Django gives each thread and each async context its own cache object (``django.core.cache.caches``),
and each of its Redis clients makes its own pool. Under the ASGI server every request is a new
context, and the live streams' reads run on a pool of threads (``gmtools.live.read``): nearly every
request or claim that touched the cache opened a new connection to Redis (120 claims, 120
connections; a test in tests/web/test_deploy.py). redis-py's pools are thread-safe and start afresh
in a forked worker, so every cache object of a process can share one.
"""

from __future__ import annotations

import threading

import redis


class SharedConnectionPool(redis.ConnectionPool):
    _pools: dict[tuple, redis.ConnectionPool] = {}
    _lock = threading.Lock()

    @classmethod
    def from_url(cls, url: str, **options) -> redis.ConnectionPool:
        key = (url, repr(sorted(options.items())))
        with cls._lock:
            if key not in cls._pools:
                cls._pools[key] = super().from_url(url, **options)
            return cls._pools[key]
