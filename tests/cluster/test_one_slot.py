"""Every store script but the game's commit in one slot, on a real three-primary cluster (issue 56).

The store's cluster client (``store_client(..., cluster=True)``) runs each script under ``#!lua``,
so Redis refuses a key the script did not declare or one of another slot: each class below is used
through its public methods with keys that land on more than one primary, and each test asserts
what its one-Redis test asserts. The first test shows the check can fail.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import orjson
import pytest
import redis
from redis.cluster import key_slot

from harness.cluster import LocalCluster
from service.config import Settings
from service.http.ratelimit import RequestLimits
from service.store.archiving import ArchiveDue
from service.store.botgames import BotGameQuota
from service.store.connect import store_client
from service.store.games import new_game_id
from service.store.keys import (
    ARCHIVE_DUE,
    IDLE,
    game_key,
    index_of,
    log_key,
    player_by_key,
    player_key,
)
from service.store.lobby import LobbyIndex
from service.store.players import PlayerOverCap, PlayerStore
from service.store.ratelimit import Limit, RateLimiter
from service.store.seats import RematchStore
from service.store.streamcaps import StreamCaps, TooManyStreams
from service.store.webhooks import WebhookStore
from service.store.workers import WorkerPresence
from skyline.web import api_app
from worker.webhooks import _rate_admits

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture
def store(cluster: LocalCluster) -> Iterator[redis.Redis]:
    client = store_client(cluster.url, cluster=True)
    yield client
    client.close()


def primaries_of(cluster: LocalCluster, keys: list[str]) -> set[str]:
    return {cluster.primary_of_slot(key_slot(key.encode())).address for key in keys}


def new_ids(count: int) -> list[str]:
    return [new_game_id() for _ in range(count)]


def ids_on_every_primary(cluster: LocalCluster, count: int) -> list[str]:
    """``count`` new game ids (at least 3) whose keys lie on each of the three primaries."""
    while True:
        ids = new_ids(count)
        if len(primaries_of(cluster, [game_key(g) for g in ids])) == 3:
            return ids


def test_a_script_over_two_slots_is_refused(store: redis.Redis, cluster: LocalCluster) -> None:
    """The one-Redis rotation (the pointer written in the player's script) fails here: what the
    cluster's steps are for, and proof that these tests would catch a script crossing slots."""
    players = PlayerStore(store)
    players.create("p_one", "d1")
    players.stepwise = False
    with pytest.raises(redis.ResponseError):
        players.rotate("p_one", "d2", "d1")
    players.stepwise = True
    assert players.player_of("d1") == "p_one"


# ---- players ----------------------------------------------------------------------------------
def test_players_are_created_rotated_and_deleted_across_primaries(
    store: redis.Redis, cluster: LocalCluster
) -> None:
    players = PlayerStore(store)
    ids = [f"p_{secrets.token_hex(6)}" for _ in range(12)]
    keys = [player_key(p) for p in ids] + [player_by_key(f"old-{p}") for p in ids]
    assert len(primaries_of(cluster, keys)) == 3
    for player_id in ids:
        players.create(player_id, f"old-{player_id}")
        assert players.player_of(f"old-{player_id}") == player_id
    for player_id in ids[:6]:
        assert not players.rotate(player_id, f"new-{player_id}", "not-its-key")  # compare-and-set
        assert players.player_of(f"new-{player_id}") is None
        assert players.rotate(player_id, f"new-{player_id}", f"old-{player_id}")
        assert players.player_of(f"old-{player_id}") is None
        assert store.get(player_by_key(f"old-{player_id}")) is None  # the old pointer dropped
        assert players.player_of(f"new-{player_id}") == player_id
    for player_id in ids[6:]:
        assert players.delete(player_id)
        assert not players.exists(player_id)
        assert players.player_of(f"old-{player_id}") is None
        assert store.get(player_by_key(f"old-{player_id}")) is None
    assert (
        not players.rotate("p_nobody", "new-nobody", "old-nobody") and players.player_of("new-nobody") is None
    )
    assert store.get(player_by_key("new-nobody")) is None
    assert not players.delete("p_nobody")


def test_a_rotation_or_deletion_cut_short_leaves_no_key_that_works(store: redis.Redis) -> None:
    """Each step's crash leaves a pointer whose player does not hold its digest: refused."""
    players = PlayerStore(store)
    players.create("p_cut", "before")
    store.set(player_by_key("after"), "p_cut")  # the rotation's first step, then a crash
    assert players.player_of("after") is None and players.player_of("before") == "p_cut"
    store.hset(player_key("p_cut"), "key_hash", "after")  # its second step, then a crash
    assert players.player_of("before") is None and players.player_of("after") == "p_cut"
    store.delete(player_key("p_cut"))  # a deletion's first step, then a crash
    assert players.player_of("after") is None


def test_a_players_reservation_and_release_stay_in_its_slot(store: redis.Redis) -> None:
    players = PlayerStore(store)
    players.create("p_res", "d-res")
    games = new_ids(3)
    taken = [players.reserve("p_res", game_id, cap=2, capped=True) for game_id in games[:2]]
    bound = orjson.dumps({"seats": [{"kind": "human", "player": "p_res"}]})
    store.hset(game_key(games[0]), mapping={"status": "active", "meta": bound})
    store.hset(game_key(games[1]), mapping={"status": "finished", "meta": bound})
    # Full: the count reads the live games (on their primaries) and drops the ended one.
    third = players.reserve("p_res", games[2], cap=2, capped=True)
    store.hset(game_key(games[2]), mapping={"status": "active", "meta": bound})
    with pytest.raises(PlayerOverCap):
        players.reserve("p_res", new_game_id(), cap=2, capped=True)
    players.release(taken[0])
    players.release(third)
    assert [game_id for game_id, _ in players.game_ids("p_res")] == [games[1]]


# ---- rate limits ------------------------------------------------------------------------------
def test_each_limit_is_counted_in_its_own_slot_and_a_later_refusal_is_advisory(
    store: redis.Redis, cluster: LocalCluster
) -> None:
    limiter = RateLimiter(store, prefix=f"test:rl:{secrets.token_hex(4)}")
    address, token = Limit("address", 5, 60), Limit("token", 3, 60)
    checks = [(address, "10.0.0.1"), (token, "tok")]
    now = 1_000_000_005.0
    keys, _ = limiter.arguments(checks, now)
    assert len({key_slot(key.encode()) for key in keys}) == 2
    for left in (2, 1, 0):
        decision = limiter.check(checks, now)
        assert decision.allowed and decision.remaining == left and decision.limit == address
    refused = limiter.check(checks, now)
    assert not refused.allowed and refused.limit == token and refused.retry_after_seconds > 0
    # Advisory on a cluster: the token's refusal left the address counted (4 of 5, not 3).
    assert limiter.hit(address, "10.0.0.1", now).allowed
    assert not limiter.hit(address, "10.0.0.1", now).allowed


def test_the_window_slides_on_a_cluster(store: redis.Redis) -> None:
    """tests/service/test_ratelimit.py's sliding window, on the cluster."""
    limiter = RateLimiter(store, prefix=f"test:rl:{secrets.token_hex(4)}")
    limit = Limit("address", 10, 10)
    base = 1_000_000_000.0
    assert all(limiter.hit(limit, "a", now=base + 5).allowed for _ in range(10))
    refused = limiter.hit(limit, "a", now=base + 5)
    assert not refused.allowed and refused.retry_after_seconds == 6
    early = limiter.hit(limit, "a", now=base + 10.5)
    assert not early.allowed and early.retry_after_seconds == 1
    assert limiter.hit(limit, "a", now=base + 11.5).allowed
    assert limiter.hit(limit, "b", now=base + 5).allowed


def test_on_a_cluster_the_limits_are_checked_at_the_edge(store: redis.Redis) -> None:
    limits = RequestLimits(RateLimiter(store), Limit("address", 1, 60), Limit("token", 5, 60))
    game_id, address = new_game_id(), f"10.1.{secrets.randbelow(250)}.{secrets.randbelow(250)}"
    bearer = f"Bearer tok-{secrets.token_hex(4)}"
    assert limits.check(f"/games/{game_id}/moves", address, bearer) is None
    refused = limits.check(f"/games/{game_id}/moves", address, bearer)
    assert refused is not None and refused.status_code == 429


# ---- what else runs scripts or transactions ----------------------------------------------------
def test_stream_caps_per_address_and_token(store: redis.Redis) -> None:
    caps = StreamCaps(store, per_address=2, per_token=1, lifetime=60)
    first = caps.admit("10.2.0.1", "tok-a")
    with pytest.raises(TooManyStreams) as refused:
        caps.admit("10.2.0.1", "tok-a")
    assert refused.value.scope == "token" and refused.value.retry_after >= 1
    second = caps.admit("10.2.0.1", "tok-b")
    with pytest.raises(TooManyStreams, match="address"):
        caps.admit("10.2.0.1", "tok-c")
    first.release()
    second.release()
    caps.admit("10.2.0.1", "tok-a").release()


def test_the_quota_of_bot_games_reads_games_on_every_primary(
    store: redis.Redis, cluster: LocalCluster
) -> None:
    quota = BotGameQuota(store, per_address=3, ttl_seconds=60)
    games = ids_on_every_primary(cluster, 9)
    for game_id in games[:3]:
        assert quota.admit("10.3.0.1")
        quota.record("10.3.0.1", game_id)
        store.hset(game_key(game_id), "status", "active")
    assert not quota.admit("10.3.0.1")
    store.hset(game_key(games[1]), "status", "finished")
    assert quota.admit("10.3.0.1")


def test_worker_presence(store: redis.Redis) -> None:
    presence = WorkerPresence(store, key=f"test:workers:{secrets.token_hex(4)}")
    presence.beat("host:1")
    assert presence.alive() == 1 and presence.is_alive("host:1") and not presence.is_alive("host:2")
    presence.leave("host:1")
    assert presence.alive() == 0


def test_the_webhook_outbox_of_games_on_every_primary(store: redis.Redis, cluster: LocalCluster) -> None:
    webhooks = WebhookStore(store, ttl_seconds=600)
    games = ids_on_every_primary(cluster, 6)
    now = time.time()
    for game_id in games:
        store.hset(game_key(game_id), "version", 1)
        webhooks.register(game_id, [{"id": "e1", "url": "http://x"}], {"title": "property"})
        webhooks.register_once(game_id, [{"id": "e1", "url": "http://y"}], {})
        webhooks.put_endpoint(game_id, {"id": "e2", "url": "http://z"}, 0)
        webhooks.attach(game_id, {"id": "e3", "url": "http://w"}, 0)
        assert webhooks.read(game_id)[0]["e1"]["url"] == "http://x"
        record: dict[str, Any] = {"id": "d1", "endpoint": "e1", "version": 0}
        later: dict[str, Any] = {"id": "d2", "endpoint": "e2", "version": 1, "not_before": now + 60}
        assert webhooks.fan_out(game_id, -1, 1, [("d1", record), ("d2", later)])
        assert not webhooks.fan_out(game_id, -1, 1, [("d1", record)])  # fanned out already
        webhooks.extend_lease(game_id, "e1", now + 30)
        assert webhooks.next_due(game_id, "e1", now) == ("d1", record)
        webhooks.settle(game_id, "e1", {**record, "state": "delivered"}, retry_at=None)
        assert webhooks.next_due(game_id, "e1", now) is None
        assert webhooks.release(game_id, "e1", now) is None
        assert webhooks.release(game_id, "e2", now) == pytest.approx(now + 60)
        assert webhooks.drop_pending(game_id, "e2") == ["d2"]
        assert webhooks.record(game_id, "d1")["state"] == "delivered"
        webhooks.forget_due(game_id)


def test_the_webhook_workers_rate_per_url(store: redis.Redis) -> None:
    context = SimpleNamespace(redis=store, rate_per_second=2)
    url = f"http://receiver/{secrets.token_hex(4)}"
    while True:  # three tries within one second (the counter is per second)
        second = int(time.time())
        admitted = [_rate_admits(context, url) for _ in range(3)]  # type: ignore[arg-type]
        if int(time.time()) == second:
            break
        url += "/again"
    assert admitted == [True, True, False]


def test_an_ended_game_is_read_and_released_for_the_archive(
    store: redis.Redis, cluster: LocalCluster
) -> None:
    due = ArchiveDue(store)
    games = ids_on_every_primary(cluster, 6)
    for game_id in games:
        store.hset(
            game_key(game_id), mapping={"version": 1, "status": "finished", "meta": "{}", "state": "{}"}
        )
        store.rpush(log_key(game_id), b"{}")
        store.zadd(index_of(ARCHIVE_DUE, game_id), {game_id: time.time()})  # as the game's end does
        ended = due.read(game_id)
        assert ended is not None and ended.version == 1 and ended.log == [b"{}"] and not ended.archived
        assert due.release(game_id, time.time(), 60) == (True, None)
        assert due.release(game_id, time.time(), 60) == (False, None)
        assert store.zscore(index_of(ARCHIVE_DUE, game_id), game_id) is None
        assert 0 < store.ttl(log_key(game_id)) <= 60


def test_a_rematch_is_made_once_in_its_games_slot(store: redis.Redis) -> None:
    rematches = RematchStore(store)
    meta: Any = {"title": "property", "seats": []}
    for game_id in new_ids(4):
        store.hset(game_key(game_id), mapping={"version": 3, "status": "finished"})
        first, second = new_game_id(beside=game_id), new_game_id(beside=game_id)
        assert rematches.create_once(game_id, first, meta, {}, "waiting", 60) == (first, False)
        assert rematches.create_once(game_id, second, meta, {}, "waiting", 60) == (first, False)
        assert store.zscore(index_of(IDLE, first), first) is not None
        alone = new_game_id()
        rematches.create_alone(alone, meta, {}, "waiting", 60)
        assert orjson.loads(store.hget(game_key(alone), "meta")) == meta
        rematches.discard(alone)
        assert not store.exists(game_key(alone)) and store.zscore(index_of(IDLE, alone), alone) is None
    gone = new_game_id()
    assert rematches.create_once(gone, new_game_id(beside=gone), meta, {}, "waiting", 60) is None


def test_the_lobby_reads_games_on_every_primary(store: redis.Redis, cluster: LocalCluster) -> None:
    lobby = LobbyIndex(store, ttl_seconds=600)
    games = ids_on_every_primary(cluster, 6)
    for game_id in games:
        lobby.add(game_id, time.time())
        store.hset(game_key(game_id), mapping={"status": "waiting", "meta": orjson.dumps({"title": "t"})})
    found = lobby.games([*games, new_game_id()])
    assert [entry and entry[0] for entry in found] == ["waiting"] * 6 + [None]
    for game_id in games:
        lobby.forget(game_id)


# ---- through the API on the cluster (in-process, as tests/players and tests/service do) --------
def cluster_app(cluster: LocalCluster, store: redis.Redis, **limits: Any) -> Any:
    base = dict(rate_limit_per_address=None, rate_limit_per_token=None)
    settings = replace(Settings.from_env(), redis_url=cluster.url, redis_cluster=True, **{**base, **limits})
    return api_app(settings, redis_client=store)


def test_the_api_checks_each_limit_before_the_games_read(store: redis.Redis, cluster: LocalCluster) -> None:
    """tests/service/test_ratelimit.py's refusal by the token, on a cluster: the address is then
    counted (advisory)."""
    app = cluster_app(cluster, store, rate_limit_per_address=(6, 60), rate_limit_per_token=(3, 60))
    client = app.test_client()
    address = {"REMOTE_ADDR": f"10.4.{secrets.randbelow(250)}.{secrets.randbelow(250)}"}
    created = client.post("/games", json={"title": "property", "seats": HUMANS}, environ_base=address)
    assert created.status_code == 201, created.get_json()
    game_id, token = created.get_json()["id"], created.get_json()["seats"][0]["token"]
    headers = {"Authorization": f"Bearer {token}"}
    for _ in range(3):  # address: 4 of 6; token: 3 of 3
        assert client.get(f"/games/{game_id}", headers=headers, environ_base=address).status_code == 200
    refused = client.get(f"/games/{game_id}", headers=headers, environ_base=address)
    assert refused.status_code == 429 and "token" in refused.get_json()["detail"]
    assert client.get("/catalog", environ_base=address).status_code == 200  # the 6th: 5 + this one
    assert client.get("/catalog", environ_base=address).status_code == 429


def test_a_player_key_rotated_and_deleted_through_the_api(store: redis.Redis, cluster: LocalCluster) -> None:
    """tests/players/test_keys.py's rotation and deletion, on a cluster."""
    client = cluster_app(cluster, store).test_client()
    player = client.post("/players").get_json()
    seats = [{"kind": "human", "player": "me"}, {"kind": "bot"}]
    created = client.post(
        "/games", json={"title": "property", "seed": 1, "seats": seats}, headers=bearer(player["key"])
    )
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    rotated = client.post("/players/me/keys", headers=bearer(player["key"]))
    assert rotated.status_code == 201
    new_key = rotated.get_json()["key"]
    assert client.get(f"/games/{game_id}", headers=bearer(player["key"])).status_code == 401
    assert client.get(f"/games/{game_id}", headers=bearer(new_key)).get_json()["you"] == 0
    assert client.delete("/players/me", headers=bearer(new_key)).status_code == 204
    gone = client.get(f"/games/{game_id}", headers=bearer(new_key))
    assert gone.status_code == 401 and gone.get_json()["code"] == "invalid_player_key"


def test_a_move_under_the_limits_commits_on_a_cluster(store: redis.Redis, cluster: LocalCluster) -> None:
    """Riding, the address's counters would enter the game's commit script: another slot."""
    app = cluster_app(cluster, store, rate_limit_per_address=(100, 60), rate_limit_per_token=(100, 60))
    client = app.test_client()
    for _ in range(3):  # games of several partitions
        game = client.post("/games", json={"title": "property", "seats": HUMANS}).get_json()
        seat = game["to_act"][0]
        headers = bearer(next(s["token"] for s in game["seats"] if s["seat"] == seat))
        listing = client.get(f"/games/{game['id']}/moves", headers=headers).get_json()
        move = {"move": listing["moves"][0]["move"], "version": listing["version"]}
        played = client.post(f"/games/{game['id']}/actions", json=move, headers=headers)
        assert played.status_code == 200, played.get_json()
        assert played.get_json()["version"] == 1
