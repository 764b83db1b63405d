"""One Redis subscription per API process, fanned out to every event stream of the process.

Each commit publishes the game's new version on ``sk:{<id>}:events``. A process subscribes once,
to the pattern of every game's channel, from one listener thread (a greenlet under gevent);
a stream registers a waiter on its game's ``Feed`` and sleeps until that game moves — a move
in another game never wakes it. The first stream of a game that wakes reads the new log
entries (and the game's status) from Redis once, for all the process's streams of that game;
each then redacts them for its own seat.

When the subscription drops (Redis restarted), every feed is marked to be read again and every
stream woken once the listener is back, so no move published meanwhile is missed.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from typing import Any

import orjson
import redis

from .keys import EVENTS_PATTERN, game_key, game_of_channel, log_key
from .records import LogEntry

log = logging.getLogger(__name__)

# Entries kept per game for the streams that wake late; a stream further behind reads Redis.
KEPT_ENTRIES = 64


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

    def read(self, client: redis.Redis, after: int) -> tuple[list[LogEntry], str, bool]:
        """The log entries after version ``after``, the game's status, and whether it is gone."""
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
                for raw in raw_entries:
                    entry: LogEntry = orjson.loads(raw)
                    self.entries[entry["version"]] = entry
                self.through = max(self.through, int(version))
                self.published = max(self.published, self.through)
                self.status = status.decode() if isinstance(status, bytes) else status
            newer = [self.entries[v] for v in range(after + 1, self.through + 1) if v in self.entries]
            for old in [v for v in self.entries if v <= self.through - KEPT_ENTRIES]:
                del self.entries[old]
            return newer, self.status, self.gone


class Dispatcher:
    """The process's subscription and its feeds, made on first use (after gunicorn has forked)."""

    def __init__(self, client: redis.Redis, *, on_change: Callable[[int], None] | None = None) -> None:
        self.client = client
        self.feeds: dict[str, Feed] = {}
        self.lock = threading.Lock()
        self.pid = os.getpid()
        self.connected = threading.Event()
        self.on_change = on_change  # told the number of open streams, for the gauge
        self.streams = 0
        self._closed = threading.Event()
        self._pubsub: Any = None
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

    def wake_all(self) -> None:
        """Wake every stream of this process (a stop begins). No lock: called from a signal's
        aftermath, it must not wait; list() copies the dict and the sets in one step."""
        for feed in list(self.feeds.values()):
            for waiter in list(feed.waiters):
                waiter.set()

    # ---- the listener -------------------------------------------------------------------------
    def _deliver(self, message: dict[str, Any]) -> None:
        if message.get("type") != "pmessage":
            return
        feed = self.feeds.get(game_of_channel(message["channel"]))
        if feed is None:
            return
        try:
            version = int(message["data"])
        except (TypeError, ValueError):
            return
        feed.announce(version)

    def _resync(self) -> None:
        with self.lock:
            feeds = list(self.feeds.values())
        for feed in feeds:
            feed.must_read = True
            feed.announce(-1)

    def _listen(self) -> None:
        delay = 0.1
        failures = 0  # in a row: an outage logs its cause once, not every few seconds
        while not self._closed.is_set():
            pubsub = self._pubsub = self.client.pubsub()
            try:
                pubsub.psubscribe(EVENTS_PATTERN)
                # Anything published while we were not subscribed is read from the log.
                self._resync()
                self.connected.set()
                if failures:
                    log.warning("event subscription back after %d failed attempts", failures)
                failures = 0
                delay = 0.1
                while not self._closed.is_set():
                    message = pubsub.get_message(timeout=5.0)
                    if message is not None:
                        self._deliver(message)
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
                try:
                    pubsub.close()
                except Exception:
                    pass


_dispatchers: dict[int, Dispatcher] = {}
_made = threading.Lock()


def wake_every_stream() -> None:
    """Wake every event stream of this process, on every Redis it serves."""
    for found in list(_dispatchers.values()):
        if found.pid == os.getpid():
            found.wake_all()


def dispatcher(client: redis.Redis, on_change: Callable[[int], None] | None = None) -> Dispatcher:
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
