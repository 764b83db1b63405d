"""The partition channels on one Redis (issue 56): a move's and a seat change's commit publish
``<game> <version>`` on the partition's channel, the Dispatcher's one pattern subscription wakes
only that game's streams, and a process of the release before (the per-game channel) still does."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from service.store.fanout import Dispatcher
from service.store.games import GameStore, new_game_id
from service.store.keys import (
    event_message,
    events_channel,
    events_channel_of,
    parse_event_message,
    partition_channel,
    partition_channels,
)
from service.store.partitions import partition_of
from service.store.seats import SeatStore


@pytest.fixture
def fanout(redis_client: redis.Redis) -> Iterator[Dispatcher]:
    made = Dispatcher(redis_client)
    assert made.connected.wait(10)
    yield made
    made.close()


def _quiet(fanout: Dispatcher, game_id: str) -> tuple[Any, threading.Event]:
    feed, waiter = fanout.join(game_id)
    feed.must_read, feed.published = False, 0
    waiter.clear()
    return feed, waiter


def test_the_channel_and_message_of_a_commit() -> None:
    game_id = new_game_id()
    assert events_channel_of(game_id) == partition_channel(partition_of(game_id))
    assert len(set(partition_channels())) == 1024
    assert parse_event_message(event_message(game_id, 12).encode()) == (game_id, 12)
    assert parse_event_message(b"7") is None and parse_event_message(b"g1 x") is None


def test_commits_publish_on_the_partition_channel_and_wake_that_game_only(
    redis_client: redis.Redis, fanout: Dispatcher
) -> None:
    games = GameStore(redis_client, ttl_seconds=600, finished_ttl_seconds=600)
    moving, still = new_game_id(), new_game_id()
    for game_id in (moving, still):
        games.create(game_id, {"title": "t"}, {"n": 0}, "active")  # type: ignore[typeddict-item]
    feed, waiter = _quiet(fanout, moving)
    other, other_waiter = _quiet(fanout, still)
    listener = redis_client.pubsub()
    listener.subscribe(events_channel_of(moving))
    assert listener.get_message(timeout=5)["type"] == "subscribe"
    entry: Any = {"version": 1}
    games.commit(moving, 0, {"n": 1}, "active", entry)
    published = listener.get_message(timeout=5)
    assert published is not None and published["data"] == event_message(moving, 1).encode()
    assert waiter.wait(10) and feed.published == 1
    meta: Any = {"title": "t", "seats": []}
    SeatStore(redis_client).commit(moving, 1, meta, "active", {"version": 2}, ttl=60)  # type: ignore[typeddict-item]
    published = listener.get_message(timeout=5)
    assert published is not None and published["data"] == event_message(moving, 2).encode()
    assert _wait_published(feed, 2)
    assert not other_waiter.is_set() and other.published == 0, "another game's stream sleeps on"
    listener.close()
    fanout.leave(feed, waiter)
    fanout.leave(other, other_waiter)


def test_a_process_of_the_release_before_still_wakes_the_streams(
    redis_client: redis.Redis, fanout: Dispatcher
) -> None:
    feed, waiter = _quiet(fanout, "g-legacy")
    redis_client.publish(events_channel("g-legacy"), 4)  # its per-game channel, the version alone
    assert waiter.wait(10) and feed.published == 4
    fanout.leave(feed, waiter)


def _wait_published(feed: Any, version: int, seconds: float = 10.0) -> bool:
    done = threading.Event()
    for _ in range(int(seconds / 0.05)):
        if feed.published >= version:
            return True
        done.wait(0.05)
    return False
