"""The process's event subscription (service/store/fanout.py) on real Redis servers: one per Redis
client, back after Redis is killed, and an outage that logs its cause once, not every poll."""

from __future__ import annotations

import logging
import time

import pytest
import redis

from service.run.embedded import EmbeddedRedis
from service.store.fanout import dispatcher
from service.store.keys import event_message, events_channel, events_channel_of
from service.store.players import PlayerStore


def _wait(condition, seconds: float = 15.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def servers(tmp_path):
    started = [EmbeddedRedis(tmp_path / name, appendonly=False).start() for name in ("a", "b")]
    yield started
    for server in started:
        server.stop()


def test_each_redis_client_has_its_own_subscription(servers):
    first, second = (redis.Redis.from_url(server.url) for server in servers)
    on_first, on_second = dispatcher(first), dispatcher(second)
    try:
        assert on_first is not on_second and dispatcher(first) is on_first
        assert on_first.connected.wait(10) and on_second.connected.wait(10)
        feed, waiter = on_second.join("g1")
        feed.must_read, feed.published = False, 0
        waiter.clear()
        second.publish(events_channel("g1"), 7)
        assert waiter.wait(10), "a move published on the second Redis wakes its streams"
        assert feed.published == 7
        on_second.leave(feed, waiter)
    finally:
        on_first.close()
        on_second.close()
    assert not on_first._thread.is_alive() and not on_second._thread.is_alive()


def test_an_outage_logs_its_cause_once_and_the_subscription_comes_back(servers, caplog):
    server = servers[0]
    client = redis.Redis.from_url(server.url, socket_connect_timeout=0.5)
    fanout = dispatcher(client)
    caplog.set_level(logging.WARNING, logger="service.store.fanout")
    try:
        assert fanout.connected.wait(10)
        feed, waiter = fanout.join("g2")
        server.halt(kill=True)  # kill -9: the subscription drops mid-read
        assert _wait(lambda: len(caplog.records) >= 4), "it keeps trying while Redis is down"
        assert not fanout.connected.is_set()
        server.start()
        assert _wait(fanout.connected.is_set), "subscribed again once Redis is back"
        feed.must_read, feed.published = False, 0
        waiter.clear()
        client.publish(events_channel("g2"), 3)
        assert waiter.wait(10) and feed.published == 3, "moves after the outage reach the streams"
        fanout.leave(feed, waiter)
    finally:
        fanout.close()
    failures = [record for record in caplog.records if "back after" not in record.getMessage()]
    assert len(failures) >= 4
    assert [bool(record.exc_info) for record in failures] == [True] + [False] * (len(failures) - 1)
    assert any("back after" in record.getMessage() for record in caplog.records)
    assert fanout._thread.is_alive() is False


def test_a_players_rotation_wakes_the_streams_of_that_player_alone_and_a_resync_all(servers):
    """What ``store.players`` publishes on a rotation or a deletion reaches the watches of that
    player only (its streams check the key again); moves of a game on the same channel do not
    mark a watch, and a subscription made again marks them all (a rotation may have been missed)."""
    client = redis.Redis.from_url(servers[0].url)
    fanout = dispatcher(client)
    try:
        assert fanout.connected.wait(10)
        players = PlayerStore(client)
        players.create("p_ada", "d-ada")
        players.create("p_bo", "d-bo")
        _, ada_waiter = fanout.join("g3")
        _, bo_waiter = fanout.join("g4")
        ada, bo = fanout.watch("p_ada", ada_waiter), fanout.watch("p_bo", bo_waiter)
        ada.stale = bo.stale = False
        ada_waiter.clear()
        bo_waiter.clear()
        client.publish(events_channel_of("g3"), event_message("g3", 1))
        assert ada_waiter.wait(10) and not ada.stale, "a move wakes the stream, and says nothing of its key"
        ada_waiter.clear()
        assert players.rotate("p_ada", "d-ada-2", "d-ada")
        assert ada_waiter.wait(10) and ada.stale
        assert not bo.stale and not bo_waiter.is_set()
        ada.stale = False
        ada_waiter.clear()
        assert not players.rotate("p_ada", "d-ada-3", "d-ada"), "the key rotated is no longer the current one"
        assert players.delete("p_bo")
        assert bo_waiter.wait(10) and bo.stale and not ada.stale
        bo.stale = False
        fanout._resync()
        assert ada.stale and bo.stale
        fanout.unwatch(ada)
        fanout.unwatch(bo)
        assert fanout.watches == {}
    finally:
        fanout.close()
