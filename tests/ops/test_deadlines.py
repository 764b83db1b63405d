"""Turn deadlines on real processes: an API, two RQ workers (each with its sweeper) and a Redis
with AOF. With no client request after creation, the stand-in plays once per deadline, the
timeouts in a row resign the seat, and a deadline outlives a kill -9 of the workers and of
Redis. Everything is observed in Redis directly (a GET could heal a game)."""

from __future__ import annotations

import time

import orjson
import redis
import requests

from service.store.keys import DEADLINES, game_key, index_of, log_key
from service.store.logform import decoded

TURN = 10
FAST = {"SKYLINE_SWEEP_SECONDS": "1"}


def entries(connection, game_id):
    # As Redis keeps them (service.store.logform): the service's own events of a move (a
    # timeout's) are its leading ones; the rules' are made by replay, not read here.
    kept = [decoded(raw, n) for n, raw in enumerate(connection.lrange(log_key(game_id), 0, -1), start=1)]
    return [{**entry, "events": entry.get("events", entry.get("leading_events"))} for entry in kept]


def wait_for(condition, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"{what} did not happen within {timeout} s")


def create(api, clock):
    response = requests.post(
        f"{api}/games",
        json={"title": "property", "seats": [{"kind": "human"}, {"kind": "human"}], "clock": clock},
        timeout=10,
    )
    assert response.status_code == 201
    return response.json()


def test_the_stand_in_moves_once_per_deadline_then_the_seat_resigns(stack_factory):
    stack = stack_factory(**FAST)
    api, _ = stack.api()
    stack.worker()
    stack.worker()
    connection = redis.Redis.from_url(stack.redis.url)
    created = create(api, {"turn_seconds": TURN, "on_timeout": "stand_in", "timeouts_to_resign": 2})
    game_id = created["id"]
    first = created["to_act"][0]
    started = time.time()
    due = orjson.loads(connection.hget(game_key(game_id), "deadlines"))
    assert list(due) == [str(first)]
    # The first deadline: one stand-in move, after the deadline and not long after it.
    wait_for(lambda: len(entries(connection, game_id)) >= 1, TURN + 8, "the first timeout")
    assert time.time() >= due[str(first)]
    log = entries(connection, game_id)
    assert len(log) == 1 and log[0]["seat"] == first and "move" in log[0]
    assert log[0]["events"][0]["type"] == "turn_timed_out"
    # The other seat's deadline, then the first seat's second timeout in a row: it resigns.
    wait_for(
        lambda: connection.hget(game_key(game_id), "status") == b"finished", 3 * TURN + 15, "the resignation"
    )
    log = entries(connection, game_id)
    assert time.time() - started >= 3 * TURN - 1
    timed_out = [e for e in log if e["events"] and e["events"][0]["type"] == "turn_timed_out"]
    assert len(timed_out) == len(log) == 3, log  # exactly one action per deadline, two workers
    assert [e["seat"] for e in log] == [first, 1 - first, first]
    assert [e["type"] for e in log[-1]["events"]] == ["turn_timed_out", "seat_resigned"]
    assert connection.zscore(index_of(DEADLINES, game_id), game_id) is None
    result = requests.get(f"{api}/games/{game_id}", timeout=10).json()["result"]
    assert result["winners"] == [1 - first] and result["reason"] == "resignation"


def test_a_move_at_the_deadline_wins_or_loses_cleanly(stack_factory):
    stack = stack_factory(**FAST)
    api, _ = stack.api()
    stack.worker()
    stack.worker()
    connection = redis.Redis.from_url(stack.redis.url)
    created = create(api, {"turn_seconds": TURN, "on_timeout": "resign"})
    game_id = created["id"]
    seat = created["to_act"][0]
    token = created["human_seats"][seat]["token"]
    listing = requests.get(
        f"{api}/games/{game_id}/moves", headers={"Authorization": f"Bearer {token}"}, timeout=10
    )
    move = listing.json()["moves"][0]["move"]
    due = orjson.loads(connection.hget(game_key(game_id), "deadlines"))[str(seat)]
    time.sleep(max(0.0, due - time.time()))  # the move is sent as the deadline passes
    reply = requests.post(
        f"{api}/games/{game_id}/actions",
        json={"move": move, "version": 0},
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    time.sleep(3)  # the sweepers have looked
    log = entries(connection, game_id)
    if reply.status_code == 200:  # the move won: the sweeper found the game moved on
        # the player's own move: no service event before the rules' (a timeout's)
        assert "move" in log[0] and all(e["type"] != "turn_timed_out" for e in log[0]["events"])
        assert all(e["seat"] != seat or "move" in e for e in log)
    else:  # the resignation won: the move was refused as stale (or the game over), never both
        assert reply.status_code == 409, reply.text
        assert [e["type"] for e in log[0]["events"]] == ["turn_timed_out", "seat_resigned"]
        assert len(log) == 1
    assert connection.hget(game_key(game_id), "version") == str(len(log)).encode()


def test_a_deadline_outlives_a_kill_9_of_the_workers_and_of_redis(stack_factory):
    stack = stack_factory(**FAST)
    api, _ = stack.api()
    workers = [stack.worker(), stack.worker()]
    connection = redis.Redis.from_url(stack.redis.url)
    created = create(api, {"turn_seconds": TURN, "on_timeout": "stand_in"})
    game_id = created["id"]
    time.sleep(1.5)  # appendfsync everysec
    for worker in workers:
        stack.kill(worker)
    stack.redis.halt(kill=True)
    stack.redis.start()
    connection = redis.Redis.from_url(stack.redis.url)
    assert connection.hget(game_key(game_id), "deadlines") is not None
    assert connection.zscore(index_of(DEADLINES, game_id), game_id) is not None
    assert entries(connection, game_id) == []
    stack.worker()
    wait_for(lambda: len(entries(connection, game_id)) >= 1, TURN + 15, "the timeout after the restarts")
    log = entries(connection, game_id)
    assert len(log) == 1 and log[0]["events"][0]["type"] == "turn_timed_out"


def test_under_skyline_serve_a_10_s_deadline_is_acted_on_with_no_request(serves):
    """`make run` as is (its sweeper's default period): a seat that never moves gets the
    stand-in's move once its 10 s run out; seen in Redis, no request after the creation."""
    serve = serves().start()
    created = create(serve.url, {"turn_seconds": TURN})
    game_id = created["id"]
    connection = redis.Redis.from_url(serve.redis_url())
    started = time.monotonic()
    wait_for(lambda: entries(connection, game_id), TURN + 15, "the stand-in's move")
    (entry,) = entries(connection, game_id)
    assert entry["events"][0]["type"] == "turn_timed_out" and "move" in entry
    assert time.monotonic() - started >= TURN - 1
    assert serve.process.poll() is None
