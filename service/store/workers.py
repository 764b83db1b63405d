"""Which bot workers are alive: one sorted set, each worker's last heartbeat by Redis's clock.

A worker announces itself once RQ has registered it, then every few seconds from a thread of
its own (a bot turn in the main thread does not silence it), and leaves on a warm shutdown.
A worker killed with SIGKILL stops beating and drops out of the count ``window`` seconds
later. RQ's own registry cannot tell that soon: a SimpleWorker's key outlives it by its
whole TTL, and it sends no heartbeat while a job runs.

Readers: ``/readyz`` (``degraded`` while no worker is alive) and `skyline serve`'s supervisor
(a worker child is ready once its member is here). Members are ``<hostname>:<pid>``. Times
come from Redis (``TIME``) so API and worker machines whose clocks differ still agree.
"""

from __future__ import annotations

import os
import socket

from .connect import StoreRedis
from .keys import BOT_WORKERS as KEY

# A member older than this is a dead worker's; a live one beats every WINDOW / 4 seconds.
WINDOW_SECONDS = 10

_BEAT = """
local now = tonumber(redis.call('TIME')[1])
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - 3600)
return now
"""

_COUNT = """
local now = tonumber(redis.call('TIME')[1])
return redis.call('ZCOUNT', KEYS[1], now - tonumber(ARGV[1]), '+inf')
"""

_SEEN = """
local now = tonumber(redis.call('TIME')[1])
local seen = redis.call('ZSCORE', KEYS[1], ARGV[1])
return seen and tonumber(seen) >= now - tonumber(ARGV[2]) and 1 or 0
"""


def member(pid: int | None = None, hostname: str | None = None) -> str:
    return f"{hostname or socket.gethostname()}:{pid or os.getpid()}"


class WorkerPresence:
    def __init__(self, client: StoreRedis, *, window_seconds: int = WINDOW_SECONDS, key: str = KEY) -> None:
        self.client = client
        self.window = window_seconds
        self.key = key
        self._beat = client.register_script(_BEAT)
        self._count = client.register_script(_COUNT)
        self._seen = client.register_script(_SEEN)

    def beat(self, name: str) -> None:
        self._beat(keys=[self.key], args=[name])

    def leave(self, name: str) -> None:
        self.client.zrem(self.key, name)

    def alive(self) -> int:
        """How many workers have beaten within the window."""
        return int(self._count(keys=[self.key], args=[self.window]))

    def is_alive(self, name: str) -> bool:
        return bool(self._seen(keys=[self.key], args=[name, self.window]))
