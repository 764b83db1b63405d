"""Issue 56's event fan-out on a real Redis Cluster (harness/cluster.py): commits SPUBLISH on their
partition's channel, one Dispatcher SSUBSCRIBEs to all 1,024 and wakes the streams of the game that
moved, through a failover, a slot move and a kill -9 of a primary.

Each test drives the Dispatcher itself (service/store/fanout.py) with its own cluster client and
commits through GameStore on another, as an API process and a worker would. A follower reads a
game's log only when the Dispatcher says the game moved (as service/http/sse.py does), so a lost
message shows as a follower that stalls. A commit "in the gap" is made while the listener is held
before it subscribes again: it reaches the follower only through the resync (``must_read``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest
import redis
from redis.crc import key_slot

from harness.cluster import ClusterNode, LocalCluster
from service.store import fanout as fanout_module
from service.store.connect import store_client
from service.store.fanout import Dispatcher, Feed
from service.store.games import GameMovedOn, GameStore, new_game_id
from service.store.keys import game_key
from service.store.partitions import partition_of, slot_range

T = TypeVar("T")

# redis-py's cluster client sometimes leaves a socket to the garbage collector after a failover or
# a kill (seen once in six runs; which of its objects drops it is not pinned down): that warning,
# raised in whatever test collects it, is not this module's finding.
pytestmark = pytest.mark.filterwarnings(
    "ignore:Exception ignored in. <socket.socket:pytest.PytestUnraisableExceptionWarning"
)

# What a client may see while a primary is gone or a slot is moving.
TRANSIENT = (redis.ConnectionError, redis.TimeoutError, redis.exceptions.ClusterDownError)
DELIVERY_SECONDS = 15.0


def _retried(attempt: Callable[[], T], seconds: float = 30.0) -> T:
    began = time.monotonic()
    while True:
        try:
            return attempt()
        except TRANSIENT:
            if time.monotonic() - began > seconds:
                raise
            time.sleep(0.05)


class Follower:
    """One stream of one game: wakes on the Dispatcher's waiter only, then reads what is new."""

    def __init__(self, fanout: Dispatcher, client: redis.Redis, game_id: str) -> None:
        self.client = client
        self.feed: Feed
        self.feed, self.waiter = fanout.join(game_id)
        self.fanout = fanout
        self.seen: list[int] = []
        self.after = 0
        self.changed = threading.Condition()

    def catch_up(self) -> None:
        """What a stream does on a wake: read the entries after the last it sent, if any."""
        self.waiter.clear()
        if self.feed.moved_past(self.after):
            entries, _status, _gone = _retried(lambda: self.feed.read(self.client, self.after))
            for entry in entries:
                self.seen.append(entry["version"])
                self.after = entry["version"]

    def wait_for(self, version: int, seconds: float = DELIVERY_SECONDS) -> bool:
        """Whether the game's stream reached ``version``, woken only by the Dispatcher."""
        deadline = time.monotonic() + seconds
        self.catch_up()
        while self.after < version:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self.waiter.wait(remaining):
                return False
            self.catch_up()
        return True

    def leave(self) -> None:
        self.fanout.leave(self.feed, self.waiter)


class Game:
    """A game in the cluster and its next commit, made through GameStore (retried while a
    primary is gone; a retry that finds its own commit landed counts it)."""

    def __init__(self, store: GameStore, game_id: str) -> None:
        self.store, self.id, self.version = store, game_id, 0
        _retried(lambda: store.create(game_id, {"title": "t"}, {"n": 0}, "active"))  # type: ignore[typeddict-item]

    def commit(self) -> int:
        def once() -> int:
            try:
                entry: Any = {"version": self.version + 1}
                return self.store.commit(self.id, self.version, {"n": self.version + 1}, "active", entry)
            except GameMovedOn as moved:
                if moved.current == self.version + 1:
                    return self.version + 1  # the first attempt landed before its reply was lost
                raise

        self.version = _retried(once)
        return self.version


def _game_on(cluster: LocalCluster, primary: ClusterNode) -> str:
    ranges = cluster.slot_ranges(primary)
    while True:
        game_id = new_game_id()
        slot = key_slot(game_key(game_id).encode())
        if any(first <= slot <= last for first, last in ranges):
            return game_id


class Gate:
    """Holds the Dispatcher's listener before it subscribes again, until opened."""

    def __init__(self, fanout: Dispatcher) -> None:
        self.held = threading.Event()
        self.opened = threading.Event()
        real = fanout._subscribe

        def gated() -> Any:
            self.held.set()
            self.opened.wait(60)
            return real()

        fanout._subscribe = gated  # type: ignore[method-assign]

    def open(self) -> None:
        self.opened.set()


@pytest.fixture
def store(cluster: LocalCluster) -> Iterator[GameStore]:
    client = store_client(cluster.url, cluster=True)
    yield GameStore(client, ttl_seconds=600, finished_ttl_seconds=600)
    client.close()


@pytest.fixture
def watching(cluster: LocalCluster) -> Iterator[tuple[Dispatcher, redis.Redis]]:
    """A Dispatcher on a client of its own (it learns a move from Redis, not from the commits')."""
    client = store_client(cluster.url, cluster=True)
    fanout = Dispatcher(client)
    assert fanout.connected.wait(30), "the Dispatcher subscribed to the partition channels"
    yield fanout, client
    fanout.close()
    client.close()


def test_streams_on_games_of_every_primary_receive_every_commit(
    cluster: LocalCluster, store: GameStore, watching: tuple[Dispatcher, redis.Redis]
) -> None:
    fanout, client = watching
    games = [Game(store, _game_on(cluster, primary)) for primary in cluster.primaries() for _ in range(2)]
    followers = [Follower(fanout, client, game.id) for game in games]
    for follower in followers:
        assert follower.wait_for(0)
    for _ in range(5):
        for game in games:
            game.commit()
    for game, follower in zip(games, followers, strict=True):
        assert follower.wait_for(5), f"{game.id} stalled at {follower.seen}"
        assert follower.seen == [1, 2, 3, 4, 5]
    pubsub = fanout._pubsub
    assert len(pubsub.node_pubsub_mapping) == 3, "one connection per primary"
    assert len(pubsub.shard_channels) == 1024
    for follower in followers:
        follower.leave()


def _watched_pair(
    cluster: LocalCluster, store: GameStore, fanout: Dispatcher, client: redis.Redis, primary: ClusterNode
) -> tuple[Game, Follower]:
    game = Game(store, _game_on(cluster, primary))
    follower = Follower(fanout, client, game.id)
    assert follower.wait_for(0)
    game.commit()
    assert follower.wait_for(1), "delivered before the event"
    return game, follower


def _gap_then_after(game: Game, follower: Follower, gate: Gate) -> None:
    assert gate.held.wait(30), "the listener saw the move and is subscribing again"
    follower.catch_up()  # a stream woken by the loss reads at once: the gap comes after its read
    assert not follower.feed.must_read
    in_the_gap = game.commit()  # no subscription where the slot is now: only the resync brings it
    gate.open()
    assert follower.wait_for(in_the_gap), f"the commit in the gap was caught up: {follower.seen}"
    after = game.commit()
    assert follower.wait_for(after), f"a commit after the event was delivered: {follower.seen}"
    assert follower.seen == list(range(1, after + 1))


def test_a_failover_of_the_watched_games_primary(
    cluster: LocalCluster, store: GameStore, watching: tuple[Dispatcher, redis.Redis]
) -> None:
    fanout, client = watching
    primary = cluster.primaries()[0]
    game, follower = _watched_pair(cluster, store, fanout, client, primary)
    gate = Gate(fanout)
    cluster.failover(cluster.replica_of(primary))
    _gap_then_after(game, follower, gate)
    follower.leave()


def test_a_reshard_of_the_watched_games_partition(
    cluster: LocalCluster, store: GameStore, watching: tuple[Dispatcher, redis.Redis]
) -> None:
    fanout, client = watching
    source, target = cluster.primaries()[:2]
    game, follower = _watched_pair(cluster, store, fanout, client, source)
    neighbour = Game(store, _game_on(cluster, cluster.primaries()[2]))  # on a node the move leaves alone
    beside = Follower(fanout, client, neighbour.id)
    gate = Gate(fanout)
    cluster.reshard(slot_range(partition_of(game.id)), source, target)
    assert cluster.primary_of_slot(key_slot(game_key(game.id).encode())).node_id == target.node_id
    _gap_then_after(game, follower, gate)
    assert beside.wait_for(neighbour.commit()), "the other partitions' games still reach their streams"
    for one in (follower, beside):
        one.leave()


def test_a_kill_of_the_watched_games_primary(
    cluster: LocalCluster, store: GameStore, watching: tuple[Dispatcher, redis.Redis]
) -> None:
    fanout, client = watching
    primary = cluster.primaries()[1]
    replica = cluster.replica_of(primary)
    game, follower = _watched_pair(cluster, store, fanout, client, primary)
    gate = Gate(fanout)
    cluster.kill(primary)
    cluster.wait_promoted(replica)
    _gap_then_after(game, follower, gate)
    follower.leave()


def test_a_failover_redis_does_not_tell_is_found_by_the_slots_check(
    cluster: LocalCluster,
    store: GameStore,
    watching: tuple[Dispatcher, redis.Redis],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Redis 7.0 may not tell the demoted primary's subscribers: the listener's reload of the slots
    finds the new primary. Here every ``sunsubscribe`` is withheld from the Dispatcher."""
    fanout, client = watching
    monkeypatch.setattr(fanout_module, "OWNERS_CHECK_SECONDS", 1.0)
    deliver = fanout._deliver

    def without_sunsubscribe(message: dict[str, Any]) -> None:
        if message.get("type") not in ("sunsubscribe", b"sunsubscribe"):
            deliver(message)

    monkeypatch.setattr(fanout, "_deliver", without_sunsubscribe)
    primary = cluster.primaries()[2]
    game, follower = _watched_pair(cluster, store, fanout, client, primary)
    gate = Gate(fanout)
    cluster.failover(cluster.replica_of(primary))
    _gap_then_after(game, follower, gate)
    follower.leave()
