"""Issue 56, "moving an existing deployment": a Redis written in the first key layout, with games
in progress, moves to the partitioned layout with `skyline migrate-keys`, and every game reads
and plays on as before. Until it has moved, a process refuses to start on it."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace

import pytest
import redis

from service.store.keys import (
    ARCHIVE_DUE,
    DEADLINES,
    IDLE,
    LOBBY,
    WEBHOOKS_SENDING,
    deliveries_key,
    game_key,
    idempotency_key,
    index_keys,
    index_of,
    later_key,
    log_key,
    player_live_games_key,
    queue_key,
    webhooks_key,
)
from service.store.migrate import OLD_INDEXES, FirstLayout, migrate_layout
from skyline.web import api_app

from .test_api import bearer, create, first_move, tokens

MIGRATE_DB = 11  # a database of the test's own: it renames every game key it finds
CLOCK = {"turn_seconds": 600, "on_timeout": "stand_in", "timeouts_to_resign": 2}


@pytest.fixture
def redis_client(redis_server):
    client = redis.Redis(unix_socket_path=redis_server.socket, db=MIGRATE_DB)
    client.flushdb()
    yield client
    client.flushdb()
    client.close()


@pytest.fixture
def settings(settings, redis_server):
    return replace(settings, redis_url=f"unix://{redis_server.socket}?db={MIGRATE_DB}")


def first_layout_names(game_id: str) -> dict[str, str]:
    """The first layout's name of each key of a game (docs/cluster.md, "Was"), by today's name."""
    old = "sk:{" + game_id + "}"
    return {
        game_key(game_id): f"{old}:game",
        log_key(game_id): f"{old}:log",
        webhooks_key(game_id): f"{old}:webhooks",
        deliveries_key(game_id): f"{old}:wh:deliveries",
        queue_key(game_id, "e1"): f"{old}:wh:queue:e1",
        later_key(game_id, "e1"): f"{old}:wh:later:e1",
    }


def to_first_layout(client: redis.Redis, game_ids: list[str], idempotency: dict[str, str]) -> None:
    """Rewrite what today's code wrote as the first layout had it: each game under its own id's
    tag, each index in one key."""
    for game_id in game_ids:
        for new, old in first_layout_names(game_id).items():
            if client.exists(new):
                client.rename(new, old)
    for game_id, digest in idempotency.items():
        client.rename(idempotency_key(game_id, digest), "sk:{" + game_id + "}:idem:" + digest)
    for index, old in OLD_INDEXES.items():
        for key in index_keys(index):
            for member, score in client.zrange(key, 0, -1, withscores=True):
                client.zadd(old, {member: score})
            client.delete(key)
    client.delete("sk:layout")


def reads(client, game_ids, seat_tokens):
    """Every read a player makes of these games, and the lobby."""
    seen = {}
    for game_id in game_ids:
        seen[game_id] = client.get(f"/games/{game_id}").get_json()
        for token in seat_tokens.get(game_id, []):
            seen[(game_id, token)] = client.get(f"/games/{game_id}/moves", headers=bearer(token)).get_json()
        seen[(game_id, "log")] = client.get(f"/games/{game_id}/log").get_data()
    seen["lobby"] = client.get("/lobby").get_json()
    return seen


def test_a_redis_of_the_first_layout_moves_with_skyline_migrate_keys_and_its_games_play_on(
    app, client, redis_client, settings
):
    active = create(client, seed=3)
    token = tokens(active)[active["to_act"][0]]
    move, _ = first_move(client, active["id"], token)
    reply = client.post(
        f"/games/{active['id']}/actions",
        json={"move": move, "version": 0},
        headers={**bearer(token), "Idempotency-Key": "first-move"},
    )
    assert reply.status_code == 200
    clocked = create(client, clock=CLOCK)
    waiting = create(client, seats=[{"kind": "human"}, {"kind": "open"}], listed=True)
    finished = create(client)
    assert (
        client.post(f"/games/{finished['id']}/abort", headers=bearer(tokens(finished)[0])).status_code == 200
    )
    ada = client.post("/players").get_json()
    mine = client.post(
        "/games",
        json={"title": "property", "seats": [{"kind": "human", "player": "me"}, {"kind": "open"}]},
        headers=bearer(ada["key"]),
    ).get_json()
    ids = [active["id"], clocked["id"], waiting["id"], finished["id"], mine["id"]]
    # A game's webhook keys as the webhook worker leaves them mid-delivery.
    redis_client.hset(webhooks_key(active["id"]), "notified", 1)
    redis_client.hset(deliveries_key(active["id"]), "d1", b'{"id":"d1"}')
    redis_client.rpush(queue_key(active["id"], "e1"), "d1")
    redis_client.zadd(later_key(active["id"], "e1"), {"d0": 123.0})
    redis_client.zadd(index_of(WEBHOOKS_SENDING, active["id"]), {f"{active['id']} e1": 50.0})
    digests = [
        k.decode().rsplit(":", 1)[1]
        for k in redis_client.scan_iter(match=log_key(active["id"])[:-4] + ":idem:*")
    ]
    assert len(digests) == 1
    seat_tokens = {game["id"]: list(tokens(game).values()) for game in (active, clocked, waiting)}
    before = reads(client, ids, seat_tokens)
    indexed = {
        index: {
            m: s for key in index_keys(index) for m, s in redis_client.zrange(key, 0, -1, withscores=True)
        }
        for index in OLD_INDEXES
    }
    assert indexed[DEADLINES] and indexed[LOBBY] and indexed[IDLE] and indexed[ARCHIVE_DUE]

    live_games = redis_client.zrange(player_live_games_key(ada["id"]), 0, -1, withscores=True)
    assert [game_id.decode() for game_id, _ in live_games] == [mine["id"]]
    to_first_layout(redis_client, ids, {active["id"]: digests[0]})
    redis_client.delete(player_live_games_key(ada["id"]))  # the first layout had no such set
    assert not any(redis_client.exists(game_key(game_id)) for game_id in ids)
    with pytest.raises(FirstLayout, match="skyline migrate-keys"):
        api_app(settings)  # an API started on it refuses, naming the command

    env = {**os.environ, "REDIS_URL": settings.redis_url}
    done = subprocess.run(
        [sys.executable, "-m", "skyline.cli", "migrate-keys"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "moved 5 games" in done.stdout

    assert reads(client, ids, seat_tokens) == before, "every read is as it was"
    after = {
        index: {
            m: s for key in index_keys(index) for m, s in redis_client.zrange(key, 0, -1, withscores=True)
        }
        for index in OLD_INDEXES
    }
    assert after == indexed, "each index entry is back in its game's partition, with its score"
    assert not redis_client.exists(*OLD_INDEXES.values())
    assert redis_client.zrange(player_live_games_key(ada["id"]), 0, -1, withscores=True) == live_games
    assert redis_client.lrange(queue_key(active["id"], "e1"), 0, -1) == [b"d1"]
    assert redis_client.zscore(later_key(active["id"], "e1"), "d0") == 123.0
    # The retry of the first move still finds its first reply; the game plays on.
    retry = client.post(
        f"/games/{active['id']}/actions",
        json={"move": move, "version": 0},
        headers={**bearer(token), "Idempotency-Key": "first-move"},
    )
    assert retry.status_code == 200 and retry.get_json() == {**reply.get_json(), "replayed": True}
    listing = client.get(
        f"/games/{active['id']}/moves", headers=bearer(tokens(active)[before[active["id"]]["to_act"][0]])
    ).get_json()
    played = client.post(
        f"/games/{active['id']}/actions",
        json={"move": listing["moves"][0]["move"], "version": listing["version"]},
        headers=bearer(tokens(active)[before[active["id"]]["to_act"][0]]),
    )
    assert played.status_code == 200, played.get_json()
    joined = client.post(f"/games/{waiting['id']}/join", json={"seat": 1})
    assert joined.status_code == 201 and joined.get_json()["status"] == "active"
    api_app(settings)  # and a process starts on it again

    again = migrate_layout(redis_client)
    assert (again.games, again.keys, again.index_entries) == (0, 0, 0), "a second run moves nothing"
