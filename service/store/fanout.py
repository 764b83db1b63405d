"""One Redis subscription per API process, fanned out to every event stream of the process.

Each commit publishes ``<game> <version>`` on its partition's channel, ``sk:{<T>}:events``
(``store.keys``). A process subscribes once, from one listener thread (a greenlet under gevent);
a stream registers a waiter on its game's ``Feed`` and sleeps until that game moves — a move
in another game never wakes it. The first stream of a game that wakes reads the new log
entries (and the game's status) from Redis once, for all the process's streams of that game;
each then redacts them for its own seat.

On one Redis the subscription is one PSUBSCRIBE of every partition's channel (and of the
per-game channels of the release before, which its processes publish on during a rolling
upgrade). On a Redis Cluster the commits SPUBLISH (sharded pub/sub: a message stays on the
channel's shard instead of crossing every node's bus), which has no pattern: the listener
SSUBSCRIBEs to the 1,024 partition channels through redis-py's ``ClusterPubSub``, one
connection per primary, and polls them in turn.

When the subscription drops (Redis restarted, a node killed) or a slot moves (a reshard, a
failover: Redis 7 tells a subscriber ``sunsubscribe`` for the channels of a slot moved away,
and every few seconds the listener reloads the slots and compares their primaries with those it
subscribed on, for a failover, which 7.0 does not tell),
the listener subscribes again from scratch on the slots as they are now, then marks every
feed to be read again and wakes every stream once, so no move published meanwhile is missed.
All feeds, not only the moved partitions': a stream costs one read of its game's log, and a
resync is rare.

A stream opened with a player key also watches its player (``watch``): a rotation or a deletion
of the player publishes ``!player <id>`` on a partition's channel (``store.players``), which the
same subscription hears; the listener marks that player's watches stale and wakes their streams,
which check the key again (one read each). A stream therefore costs nothing more while its key
stays current, rather than a read every second; a resync marks every watch stale too, since a
rotation published while the subscription was down was not heard.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from .connect import StoreRedis, is_cluster
from .keys import (
    EVENTS_PATTERN,
    LEGACY_EVENTS_PATTERN,
    game_key,
    game_of_channel,
    log_key,
    parse_event_message,
    parse_revoked_message,
    partition_channels,
)
from .logform import decoded
from .records import LogEntry

log = logging.getLogger(__name__)

# What a stream's reader makes of entries read after a version: each with its events.
MakeWhole = Callable[[int, list[LogEntry]], list[LogEntry]]

# Entries kept per game for the streams that wake late; a stream further behind reads Redis.
KEPT_ENTRIES = 64

# On a cluster, how long the listener waits on each node's connection in turn: a message on one
# node waits at most this much per other node. (A wait on all sockets at once would need
# redis-py's private connection objects.)
NODE_POLL_SECONDS = 0.02
# On a cluster, how often the listener reloads the slots and checks that each partition's is
# still served by the node it subscribed on. Redis 7.0 tells a subscriber nothing when its node
# is demoted by a failover (the demoted node still gets its shard's messages, until it leaves).
OWNERS_CHECK_SECONDS = 5.0


class SubscriptionMoved(Exception):
    """A slot of a subscribed channel moved to another node: subscribe again where it is now."""


class Feed:
    """One game's moves as seen by this process, and the waiters of its streams."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.published = -1  # the newest version announced on the channel
        self.must_read = True  # something may have been missed: read Redis on the next wake
        self.waiters: set[threading.Event] = set()
        self.entries: dict[int, LogEntry] = {}  # version -> log entry
        self.through = 0  # entries are known up to this version
        self.status = "active"
        self.gone = False
        self.lock = threading.Lock()

    def announce(self, version: int) -> None:
        if version > self.published:
            self.published = version
        for waiter in list(self.waiters):
            waiter.set()

    def moved_past(self, version: int) -> bool:
        return self.must_read or self.published > version

    def read(
        self, client: StoreRedis, after: int, made_whole: MakeWhole | None = None
    ) -> tuple[list[LogEntry], str, bool]:
        """The log entries after version ``after``, the game's status, and whether it is gone.
        ``made_whole``: the entries read, with their events (a move's are made by replay:
        ``logform``), kept for every stream of the game in this process."""
        with self.lock:
            missing = any(v not in self.entries for v in range(after + 1, self.through + 1))
            if self.must_read or self.published > self.through or missing:
                pipe = client.pipeline(transaction=True)  # one slot: the status matches the log
                pipe.hmget(game_key(self.game_id), ["version", "status"])
                pipe.lrange(log_key(self.game_id), after, -1)  # entry i made version i + 1
                (version, status), raw_entries = pipe.execute()
                self.must_read = False
                if version is None:
                    self.gone = True
                    return [], self.status, True
                decoded_entries = [decoded(raw, at) for at, raw in enumerate(raw_entries, start=after + 1)]
                for entry in made_whole(after, decoded_entries) if made_whole else decoded_entries:
                    self.entries[entry["version"]] = entry
                self.through = max(self.through, int(version))
                self.published = max(self.published, self.through)
                self.status = status.decode() if isinstance(status, bytes) else status
            newer = [self.entries[v] for v in range(after + 1, self.through + 1) if v in self.entries]
            for old in [v for v in self.entries if v <= self.through - KEPT_ENTRIES]:
                del self.entries[old]
            return newer, self.status, self.gone


class Watch:
    """A stream's watch on its player's key: ``stale`` once told the key may have changed."""

    def __init__(self, player_id: str, waiter: threading.Event) -> None:
        self.player_id = player_id
        self.waiter = waiter
        self.stale = False

    def tell(self) -> None:
        self.stale = True  # before the wake: a stream that wakes sees it
        self.waiter.set()


class Dispatcher:
    """The process's subscription and its feeds, made on first use (after gunicorn has forked)."""

    def __init__(self, client: StoreRedis, *, on_change: Callable[[int], None] | None = None) -> None:
        self.client = client
        self.feeds: dict[str, Feed] = {}
        self.watches: dict[str, set[Watch]] = {}  # player id -> the watches of its streams
        self.lock = threading.Lock()
        self.pid = os.getpid()
        self.connected = threading.Event()
        self.on_change = on_change  # told the number of open streams, for the gauge
        self.streams = 0
        self._closed = threading.Event()
        self._pubsub: Any = None
        self._owners: list[str] = []  # on a cluster: the node each partition was subscribed on
        self._thread = threading.Thread(target=self._listen, name="sse-dispatcher", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop listening (the thread ends within a poll); for callers that drop a Redis."""
        self._closed.set()
        pubsub = self._pubsub
        if pubsub is not None:
            try:
                pubsub.close()
            except Exception:
                pass
        self._thread.join(timeout=10)

    # ---- streams join and leave -------------------------------------------------------------
    def join(self, game_id: str) -> tuple[Feed, threading.Event]:
        waiter = threading.Event()
        with self.lock:
            feed = self.feeds.get(game_id)
            if feed is None:
                feed = self.feeds[game_id] = Feed(game_id)
            feed.waiters.add(waiter)
            self.streams += 1
            count = self.streams
        if self.on_change is not None:
            self.on_change(count)
        return feed, waiter

    def leave(self, feed: Feed, waiter: threading.Event) -> None:
        with self.lock:
            if waiter not in feed.waiters:
                return
            feed.waiters.discard(waiter)
            if not feed.waiters and self.feeds.get(feed.game_id) is feed:
                del self.feeds[feed.game_id]
            self.streams -= 1
            count = self.streams
        if self.on_change is not None:
            self.on_change(count)

    def watch(self, player_id: str, waiter: threading.Event) -> Watch:
        """Wake ``waiter`` (marking the watch stale) when the player's key is rotated or the
        player deleted."""
        watch = Watch(player_id, waiter)
        with self.lock:
            self.watches.setdefault(player_id, set()).add(watch)
        return watch

    def unwatch(self, watch: Watch) -> None:
        with self.lock:
            found = self.watches.get(watch.player_id)
            if found is None:
                return
            found.discard(watch)
            if not found:
                del self.watches[watch.player_id]

    def wake_all(self) -> None:
        """Wake every stream of this process (a stop begins). No lock: called from a signal's
        aftermath, it must not wait; list() copies the dict and the sets in one step."""
        for feed in list(self.feeds.values()):
            for waiter in list(feed.waiters):
                waiter.set()

    # ---- the listener -------------------------------------------------------------------------
    def _deliver(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        kind = kind.decode() if isinstance(kind, bytes) else kind
        if kind == "sunsubscribe":  # never asked for: Redis dropped a slot that moved away
            raise SubscriptionMoved(str(message.get("channel")))
        if kind not in ("pmessage", "smessage"):
            return
        player_id = parse_revoked_message(message["data"])
        if player_id is not None:
            for watch in list(self.watches.get(player_id, ())):
                watch.tell()
            return
        announced = parse_event_message(message["data"])
        if announced is None:  # the release before's per-game channel: the version alone
            game_id = game_of_channel(message["channel"])
            try:
                announced = None if game_id is None else (game_id, int(message["data"]))
            except (TypeError, ValueError):
                return
        if announced is None:
            return
        feed = self.feeds.get(announced[0])
        if feed is not None:
            feed.announce(announced[1])

    def _resync(self) -> None:
        with self.lock:
            feeds = list(self.feeds.values())
            watches = [watch for found in self.watches.values() for watch in found]
        for watch in watches:
            watch.tell()
        for feed in feeds:
            feed.must_read = True
            feed.announce(-1)

    def _listen(self) -> None:
        delay = 0.1
        failures = 0  # in a row: an outage logs its cause once, not every few seconds
        while not self._closed.is_set():
            pubsub: Any = None
            try:
                pubsub = self._pubsub = self._subscribe()
                # Anything published while we were not subscribed is read from the log.
                self._resync()
                self.connected.set()
                if failures:
                    log.warning("event subscription back after %d failed attempts", failures)
                failures = 0
                delay = 0.1
                if is_cluster(self.client):
                    self._listen_sharded(pubsub)
                else:
                    while not self._closed.is_set():
                        message = pubsub.get_message(timeout=5.0)
                        if message is not None:
                            self._deliver(message)
            except SubscriptionMoved as moved:  # not an outage: subscribe again at once
                self.connected.clear()
                if self._closed.is_set():
                    return
                log.info("a slot of the event channels moved (%s); subscribing again", moved)
                self._resync()
            except Exception as error:  # Redis down or restarted: subscribe again, with a backoff
                self.connected.clear()
                if self._closed.is_set():
                    return
                failures += 1
                if failures == 1:
                    log.warning("event subscription lost; subscribing again in %.1f s", delay, exc_info=True)
                else:
                    log.warning("event subscription still down (%s); again in %.1f s", error, delay)
                self._resync()
                self._closed.wait(delay)
                delay = min(delay * 2, 5.0)
            finally:
                if pubsub is not None:
                    try:
                        pubsub.close()
                    except Exception:
                        pass

    def _subscribe(self) -> Any:
        """A new subscription to every partition's channel, made on the slots as they are now."""
        if not is_cluster(self.client):
            pubsub = self.client.pubsub()
            pubsub.psubscribe(EVENTS_PATTERN, LEGACY_EVENTS_PATTERN)
            return pubsub
        cluster: Any = self.client
        self._reload_slots()  # the slots' owners now, not before a move or a death
        self._owners = self._slot_owners()
        pubsub = cluster.pubsub()
        for channel in partition_channels():  # one slot each: SSUBSCRIBE takes one slot a call
            pubsub.ssubscribe(channel)
        return pubsub

    def _reload_slots(self) -> None:
        """Ask the cluster which node serves each slot. The idle connections of the client's pools
        stay open: the store shares this client, and its requests would otherwise reconnect."""
        cluster: Any = self.client
        cluster.nodes_manager.initialize(disconnect_startup_nodes_pools=False)

    def _slot_owners(self) -> list[str]:
        """The node the client would send each partition channel's commands to, in order."""
        cluster: Any = self.client
        return [cluster.get_node_from_key(channel).name for channel in partition_channels()]

    def _listen_sharded(self, pubsub: Any) -> None:
        checked = time.monotonic()
        while not self._closed.is_set():
            message = pubsub.get_sharded_message(timeout=NODE_POLL_SECONDS)
            if message is not None:
                self._deliver(message)
            if time.monotonic() - checked >= OWNERS_CHECK_SECONDS:
                checked = time.monotonic()
                self._reload_slots()
                if self._slot_owners() != self._owners:
                    raise SubscriptionMoved("a partition's slot has a new primary")
            if not pubsub.node_pubsub_mapping:  # every node's connection gone: nothing to poll
                raise SubscriptionMoved("no node's subscription is left")


_dispatchers: dict[int, Dispatcher] = {}
_made = threading.Lock()


def wake_every_stream() -> None:
    """Wake every event stream of this process, on every Redis it serves."""
    for found in list(_dispatchers.values()):
        if found.pid == os.getpid():
            found.wake_all()


def dispatcher(client: StoreRedis, on_change: Callable[[int], None] | None = None) -> Dispatcher:
    """This process's dispatcher for ``client``'s Redis (a forked process makes its own).

    A server process has one client, so one dispatcher; a process holding apps on several
    Redis servers (tests, an embedding program) gets one per client, each subscribed where
    its games are published.
    """
    found = _dispatchers.get(id(client))  # the dispatcher holds its client: the id stays its own
    if found is None or found.pid != os.getpid():
        with _made:
            found = _dispatchers.get(id(client))
            if found is None or found.pid != os.getpid():
                found = _dispatchers[id(client)] = Dispatcher(client, on_change=on_change)
    return found
