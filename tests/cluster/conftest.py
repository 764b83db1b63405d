"""A real Redis Cluster for the tests (harness/cluster.py): three primaries, three replicas.

Under `make test` (SKYLINE_REQUIRE_TOOLS=1) redis-server 7 is installed by
tools/system-packages.sh, so a cluster that cannot be had fails the test; elsewhere a machine
without redis-server 7 skips, saying so. A cluster found but failing to start always fails.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from redis.cluster import RedisCluster

from harness.cluster import LocalCluster, find_cluster_binaries


@contextmanager
def three_primaries(directory: Path) -> Iterator[LocalCluster]:
    """A started LocalCluster, stopped (every node killed) on the way out, failure or not."""
    if find_cluster_binaries() is None:
        reason = "a Redis Cluster needs redis-server 7+ and redis-cli on PATH: apt-get install redis-server"
        if os.environ.get("SKYLINE_REQUIRE_TOOLS") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    cluster = LocalCluster(directory).start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="module")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    """One cluster for a module's tests (starting one costs ~2-3 s): see ``cluster``."""
    with three_primaries(tmp_path_factory.mktemp("cluster")) as cluster:
        yield cluster


@pytest.fixture
def cluster(redis_cluster: LocalCluster) -> LocalCluster:
    """The module's cluster, whole again before each test: a node an earlier test killed (and
    did not bring back, failing) is restarted, and every node agrees before the test begins."""
    for node in redis_cluster.nodes:
        if not node.alive:
            redis_cluster.restart(node)
    redis_cluster.wait_settled()
    return redis_cluster


@pytest.fixture
def cluster_client(cluster: LocalCluster) -> Iterator[RedisCluster]:
    """redis-py's cluster client on the cluster: it follows MOVED and ASK, and finds the new
    primary after a failover by reloading the slots."""
    client = RedisCluster.from_url(cluster.url)
    yield client
    client.close()
