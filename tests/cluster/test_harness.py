"""Issue 56's cluster harness on real processes: three primaries and three replicas of Debian's
redis-server, redis-py's cluster client through a failover, a kill -9 and a slot move."""

from __future__ import annotations

import itertools
import os
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
import redis
from redis.cluster import RedisCluster
from redis.crc import key_slot

from harness.cluster import ClusterError, ClusterNode, LocalCluster
from harness.live import free_port

T = TypeVar("T")

# What a client may see while a primary is gone and before its replica is promoted.
TRANSIENT = (redis.ConnectionError, redis.TimeoutError, redis.exceptions.ClusterDownError)


def within(seconds: float, attempt: Callable[[], T]) -> tuple[T, float]:
    """``attempt()`` retried until it succeeds, for at most ``seconds``; its result and the time taken."""
    began = time.monotonic()
    while True:
        try:
            return attempt(), time.monotonic() - began
        except TRANSIENT:
            if time.monotonic() - began > seconds:
                raise
            time.sleep(0.05)


def keys_held(node: ClusterNode) -> set[bytes]:
    return set(node.client().scan_iter(count=1000))


def test_three_primaries_each_with_its_own_replica_started_within_seconds(cluster: LocalCluster) -> None:
    primaries = cluster.primaries()
    assert len(primaries) == 3 and len(cluster.replicas()) == 3
    assert {cluster.replica_of(p).port for p in primaries} == {n.port for n in cluster.replicas()}
    assert len({n.pid for n in cluster.nodes}) == 6 and all(n.alive for n in cluster.nodes)
    covered = sorted(r for p in primaries for r in cluster.slot_ranges(p))
    assert covered[0][0] == 0 and covered[-1][1] == 16383
    assert all(a[1] + 1 == b[0] for a, b in zip(covered, covered[1:], strict=False))
    assert cluster.startup_seconds is not None and cluster.startup_seconds < 15, cluster.startup_seconds


def test_the_keys_of_a_few_hundred_tags_spread_over_all_three_primaries(
    cluster: LocalCluster, cluster_client: RedisCluster
) -> None:
    keys = [f"spread:{{game-{n}}}:state".encode() for n in range(300)]
    for key in keys:
        cluster_client.set(key, b"x")
    primaries = cluster.primaries()
    for primary in primaries:
        ranges = cluster.slot_ranges(primary)
        expected = {k for k in keys if any(first <= key_slot(k) <= last for first, last in ranges)}
        # Each primary holds exactly the keys of its slots, as the harness reads its ranges.
        assert {k for k in keys_held(primary) if k.startswith(b"spread:")} == expected
        assert len(expected) > 60, f"{primary.address} holds only {len(expected)} of 300 keys"


def test_a_write_survives_a_failover_and_the_client_writes_again_within_seconds(
    cluster: LocalCluster, cluster_client: RedisCluster
) -> None:
    key = b"failover:{acknowledged}"
    cluster_client.set(key, b"before")
    old_primary = cluster.primary_of_slot(key_slot(key))
    replica = cluster.replica_of(old_primary)

    cluster.failover(replica)

    assert replica.role == "primary" and old_primary.role == "replica"
    assert cluster.primary_of_slot(key_slot(key)) is replica
    assert replica.client().get(key) == b"before"  # on the new primary itself, not a cache
    _, took = within(5, lambda: cluster_client.set(key, b"after"))
    assert cluster_client.get(key) == b"after" and replica.client().get(key) == b"after"
    assert took < 5


def test_kill_9_of_a_primary_its_replica_promoted_and_the_client_goes_on(
    cluster: LocalCluster, cluster_client: RedisCluster
) -> None:
    key = b"crash:{replicated}"
    primary = cluster.primary_of_slot(key_slot(key))
    replica = cluster.replica_of(primary)
    primary.client().set(key, b"kept")
    # Replication is asynchronous: WAIT makes this write one the replica has before the crash.
    assert primary.client().wait(1, 5000) == 1

    cluster.kill(primary)
    assert not primary.alive and primary.role == "down"
    cluster.wait_promoted(replica)

    assert replica.role == "primary" and cluster.primary_of_slot(key_slot(key)) is replica
    value, _ = within(10, lambda: cluster_client.get(key))
    assert value == b"kept"
    within(5, lambda: cluster_client.set(key, b"later"))
    assert replica.client().get(key) == b"later"

    cluster.restart(primary)  # back as the replica of the node that took its slots
    assert primary.role == "replica" and cluster.replica_of(replica) is primary


def test_a_resharded_slot_range_moves_its_keys_and_the_client_still_reads_them(
    cluster: LocalCluster, cluster_client: RedisCluster
) -> None:
    key = b"moving:{slot-range}"
    slot = key_slot(key)
    source = cluster.primary_of_slot(slot)
    target = next(p for p in cluster.primaries() if p is not source)
    (first, last) = next(r for r in cluster.slot_ranges(source) if r[0] <= slot <= r[1])
    slots = range(max(first, slot - 2), min(last, slot + 2) + 1)
    neighbours = [f"moving:{{slot-range}}:{n}".encode() for n in range(50)]  # the same slot
    cluster_client.set(key, b"here")
    for neighbour in neighbours:
        cluster_client.set(neighbour, b"too")

    cluster.reshard(slots, source, target)

    assert all(cluster.primary_of_slot(s) is target for s in slots)
    assert cluster.primary_of_slot(slots.start - 1 if slots.start > first else slots.stop) is source
    held = keys_held(target)
    assert key in held and set(neighbours) <= held
    assert key not in keys_held(source)
    assert cluster_client.get(key) == b"here"
    assert cluster_client.mget(neighbours) == [b"too"] * 50
    cluster_client.set(key, b"moved")
    assert target.client().get(key) == b"moved"


def test_a_cluster_that_cannot_be_created_leaves_no_node_running(tmp_path: Path) -> None:
    # redis-cli refuses to create a cluster of fewer than three primaries: start() must fail
    # and kill the two servers it had started.
    refused = LocalCluster(tmp_path, primaries=2, replicas_each=0)
    with pytest.raises(ClusterError, match="--cluster create failed"):
        refused.start()
    assert len(refused.nodes) == 2
    assert all(not node.alive for node in refused.nodes)
    for node in refused.nodes:
        assert node.pid is not None
        with pytest.raises(ProcessLookupError):
            os.kill(node.pid, 0)


def test_redis_cli_reshard_moves_the_sources_lowest_slots_and_the_client_follows(
    cluster: LocalCluster, cluster_client: RedisCluster
) -> None:
    source, target = cluster.primaries()[:2]
    lowest = cluster.slot_ranges(source)[0][0]
    key = next(
        k for k in (f"cli-reshard:{{{n}}}".encode() for n in itertools.count()) if key_slot(k) == lowest
    )
    cluster_client.set(key, b"first slot")

    moved = cluster.reshard_with_cli(8, source, target)

    assert len(moved) == 8 and lowest in moved
    assert all(cluster.primary_of_slot(s) is target for s in moved)
    assert key in keys_held(target) and key not in keys_held(source)
    assert cluster_client.get(key) == b"first slot"


def test_a_port_taken_before_redis_binds_it_is_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # free_port() hands out a port that nothing holds; another process may bind it before
    # redis-server does. Here this test holds the first port given out.
    import harness.cluster

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    given = iter([taken.getsockname()[1]])
    monkeypatch.setattr(harness.cluster, "free_port", lambda: next(given, None) or free_port())
    try:
        with LocalCluster(tmp_path) as started:
            assert taken.getsockname()[1] not in {node.port for node in started.nodes}
            assert len(started.primaries()) == 3
    finally:
        taken.close()
