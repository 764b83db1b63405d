"""The Redis store: compare-and-set, the move log, expiry, idempotent replies, races."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis

from service.http.services import services
from service.play.errors import PlayError
from service.play.games import Games
from service.store.games import GameMissing, GameMovedOn, GameStore, new_game_id
from service.store.keys import ARCHIVE_DUE, IDLE, game_key, index_of, log_key


@pytest.fixture
def store(redis_server):
    return GameStore(redis.Redis.from_url(redis_server.url), ttl_seconds=100, finished_ttl_seconds=50)


def test_commit_is_compare_and_set_on_the_version(store):
    game_id = new_game_id()
    store.create(game_id, {"title": "t"}, {"n": 0}, "active")
    assert store.commit(game_id, 0, {"n": 1}, "active", {"version": 1}) == 1
    with pytest.raises(GameMovedOn) as stale:
        store.commit(game_id, 0, {"n": 99}, "active", {"version": 1})
    assert stale.value.current == 1
    loaded = store.load(game_id)
    assert loaded.version == 1 and loaded.state == {"n": 1}
    assert store.log(game_id) == [{"version": 1}]


def test_missing_games(store):
    with pytest.raises(GameMissing):
        store.load("nope")
    with pytest.raises(GameMissing):
        store.commit("nope", 0, {}, "active", {})


def test_a_live_game_is_due_to_expire_its_idle_time_after_each_commit_and_an_ended_one_waits_for_the_archive(
    store,
):
    """X-IDLE: a live game's keys never expire by themselves; sk:idle says when the sweeper ends it."""
    game_id = new_game_id()
    before = time.time()
    store.create(game_id, {}, {}, "active")
    assert store.redis.ttl(game_key(game_id)) == -1
    assert before + 100 <= store.redis.zscore(index_of(IDLE, game_id), game_id) <= time.time() + 100
    time.sleep(0.01)
    renewed = time.time()
    store.commit(game_id, 0, {}, "active", {"version": 1})
    assert store.redis.ttl(log_key(game_id)) == -1
    assert renewed + 100 <= store.redis.zscore(index_of(IDLE, game_id), game_id) <= time.time() + 100, (
        "renewed by the commit"
    )
    assert store.redis.zscore(index_of(ARCHIVE_DUE, game_id), game_id) is None
    before = time.time()
    store.commit(game_id, 1, {}, "finished", {"version": 2})
    # Marked due in the commit that ended it; its keys do not expire before the archive holds it.
    assert store.redis.ttl(game_key(game_id)) == -1
    assert store.redis.ttl(log_key(game_id)) == -1
    assert before <= store.redis.zscore(index_of(ARCHIVE_DUE, game_id), game_id) <= time.time()
    assert store.redis.zscore(index_of(IDLE, game_id), game_id) is None, "an ended game is no longer idle"


def test_state_is_stored_as_json_never_pickle(store):
    game_id = new_game_id()
    store.create(game_id, {"title": "t"}, {"cards": ["1H"]}, "active")
    raw = store.redis.hget(game_key(game_id), "state")
    assert raw == b'{"cards":["1H"]}'


def test_fifty_racing_commits_land_exactly_one_per_version(store):
    game_id = new_game_id()
    store.create(game_id, {}, {"writer": None}, "active")
    barrier = threading.Barrier(50)

    def race(writer: int) -> bool:
        barrier.wait()
        try:
            store.commit(game_id, 0, {"writer": writer}, "active", {"writer": writer})
            return True
        except GameMovedOn:
            return False

    with ThreadPoolExecutor(50) as pool:
        wins = list(pool.map(race, range(50)))
    assert wins.count(True) == 1
    winner = wins.index(True)
    assert store.load(game_id).state == {"writer": winner}
    assert store.log(game_id) == [{"writer": winner}]


def test_racing_clients_through_the_use_cases_lose_no_update(client, app):
    """50 clients submit the one legal move at the same version: one lands, 49 get 409."""
    created = client.post(
        "/games", json={"title": "property", "seed": 3, "seats": [{"kind": "human"}, {"kind": "human"}]}
    ).get_json()
    seat = created["to_act"][0]
    token = created["seats"][seat]["token"]
    games: Games = services(app).games
    move = games.moves(created["id"], token)["moves"][0]["move"]
    barrier = threading.Barrier(50)

    def race(_: int) -> str:
        barrier.wait()
        try:
            games.act(created["id"], token, move, 0)
            return "ok"
        except PlayError as refused:
            return refused.code

    with ThreadPoolExecutor(50) as pool:
        outcomes = list(pool.map(race, range(50)))
    assert outcomes.count("ok") == 1
    assert set(outcomes) - {"ok"} == {"stale_version"}
    assert games.store.load(created["id"]).version == 1
    assert len(games.store.log(created["id"])) == 1
