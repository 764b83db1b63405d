"""Rate limits per address and per token, in Redis: 429 problem+json with Retry-After."""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest
import redis
import requests
from redis.backoff import NoBackoff
from redis.retry import Retry

from service.config import parse_rate
from service.http.ratelimit import address_key
from service.store.games import GameStore
from service.store.keys import game_key, log_key
from service.store.ratelimit import Limit, RateLimiter
from skyline.web import api_app

from ..conftest import an_address

HUMANS = [{"kind": "human"}, {"kind": "human"}]


@pytest.fixture
def limited(settings, redis_client):
    app = api_app(
        replace(settings, rate_limit_per_address=(5, 60), rate_limit_per_token=(3, 60)),
        redis_client=redis_client,
    )
    return app.test_client()


def test_over_the_address_limit_is_a_429_problem_with_retry_after(limited):
    address = {"REMOTE_ADDR": an_address()}
    for _ in range(5):
        assert limited.get("/catalog", environ_base=address).status_code == 200
    refused = limited.get("/catalog", environ_base=address)
    assert refused.status_code == 429
    assert refused.mimetype == "application/problem+json"
    body = refused.get_json()
    assert body["code"] == "rate_limited" and body["status"] == 429 and "address" in body["detail"]
    # Up to two windows: a window filled at once still weighs on the next (test_the_window_slides).
    assert 1 <= int(refused.headers["Retry-After"]) <= 2 * 60
    assert limited.get("/catalog", environ_base={"REMOTE_ADDR": an_address()}).status_code == 200, (
        "others pass"
    )


def test_health_readiness_and_metrics_are_never_limited(limited):
    address = {"REMOTE_ADDR": an_address()}
    for _ in range(6):
        limited.get("/catalog", environ_base=address)
    assert limited.get("/catalog", environ_base=address).status_code == 429
    for path in ("/healthz", "/readyz", "/metrics"):
        for _ in range(10):
            assert limited.get(path, environ_base=address).status_code == 200, path


def test_a_token_is_limited_whatever_address_it_comes_from(limited):
    created = limited.post(
        "/games", json={"title": "property", "seats": HUMANS}, environ_base={"REMOTE_ADDR": an_address()}
    )
    game_id = created.get_json()["id"]
    token, other = (seat["token"] for seat in created.get_json()["seats"])
    for _ in range(3):
        reply = limited.get(
            f"/games/{game_id}",
            headers={"Authorization": f"Bearer {token}"},
            environ_base={"REMOTE_ADDR": an_address()},
        )
        assert reply.status_code == 200
    refused = limited.get(
        f"/games/{game_id}",
        headers={"Authorization": f"Bearer {token}"},
        environ_base={"REMOTE_ADDR": an_address()},
    )
    assert refused.status_code == 429 and "token" in refused.get_json()["detail"]
    assert "Retry-After" in refused.headers
    fine = limited.get(
        f"/games/{game_id}",
        headers={"Authorization": f"Bearer {other}"},
        environ_base={"REMOTE_ADDR": an_address()},
    )
    assert fine.status_code == 200


def test_a_refused_request_counts_under_no_limit(limited):
    """Address and token are checked together in one script: a request the token limit refuses
    does not use up the address's allowance either."""
    address = {"REMOTE_ADDR": an_address()}
    created = limited.post("/games", json={"title": "property", "seats": HUMANS}, environ_base=address)
    game_id, token = created.get_json()["id"], created.get_json()["seats"][0]["token"]
    bearer = {"Authorization": f"Bearer {token}"}
    for _ in range(2):  # address: 3 of 5 used; token: 2 of 3
        assert limited.get(f"/games/{game_id}", headers=bearer, environ_base=address).status_code == 200
    assert limited.get(f"/games/{game_id}", headers=bearer, environ_base=address).status_code == 200
    for _ in range(3):  # refused by the token: the address still has 1 left
        assert limited.get(f"/games/{game_id}", headers=bearer, environ_base=address).status_code == 429
    assert limited.get("/catalog", environ_base=address).status_code == 200
    refused = limited.get("/catalog", environ_base=address)
    assert refused.status_code == 429 and "address" in refused.get_json()["detail"]


def _a_game(client, address):
    created = client.post("/games", json={"title": "property", "seats": HUMANS}, environ_base=address)
    body = created.get_json()
    to_act = next(seat for seat in body["seats"] if seat["seat"] == body["to_act"][0])
    return body["id"], {"Authorization": f"Bearer {to_act['token']}"}


def _names(packed: bytes) -> bytes:
    """The names of the commands in one send, space-separated (a pipeline sends several)."""
    names, at = [], 0
    while at < len(packed):
        end = packed.index(b"\r\n", at)
        count, at = int(packed[at + 1 : end]), end + 2  # *<n>: the command's arguments
        for index in range(count):
            end = packed.index(b"\r\n", at)
            length, at = int(packed[at + 1 : end]), end + 2  # $<len>, then the argument
            if index == 0:
                names.append(packed[at : at + length].upper())
            at += length + 2
    return b" ".join(names)


def _round_trips(monkeypatch) -> list[bytes]:
    """What is sent to Redis, one entry a send (a round trip): its commands' names."""
    sent: list[bytes] = []
    original = redis.connection.AbstractConnection.send_packed_command

    def counting(self, command, check_health=True):
        packed = b"".join(command) if isinstance(command, list) else command
        sent.append(_names(packed))
        return original(self, command, check_health)

    monkeypatch.setattr(redis.connection.AbstractConnection, "send_packed_command", counting)
    return sent


def test_on_one_redis_both_limits_are_one_script_sent_with_the_games_read(limited, monkeypatch):
    address = {"REMOTE_ADDR": an_address()}
    game_id, bearer = _a_game(limited, address)
    # Once first: the script's first call on a fresh Redis loads it (EVALSHA, SCRIPT LOAD, EVALSHA).
    assert limited.get(f"/games/{game_id}", headers=bearer, environ_base=address).status_code == 200
    sent = _round_trips(monkeypatch)
    assert limited.get(f"/games/{game_id}/moves", headers=bearer, environ_base=address).status_code == 200
    assert sent == [b"EVALSHA HMGET"], "the address's and the token's check, and the game's read: one trip"
    sent.clear()
    assert limited.get("/catalog", environ_base=address).status_code == 200
    assert sent == [b"EVALSHA"]


def test_a_refused_listing_answers_nothing_of_the_read_that_rode_with_its_check(limited, monkeypatch):
    address = {"REMOTE_ADDR": an_address()}
    game_id, bearer = _a_game(limited, address)
    for _ in range(3):  # the token's 3
        assert limited.get(f"/games/{game_id}/moves", headers=bearer, environ_base=address).status_code == 200
    sent = _round_trips(monkeypatch)
    refused = limited.get(f"/games/{game_id}/moves", headers=bearer, environ_base=address)
    assert sent == [b"EVALSHA HMGET"], "the read was sent with the check"
    assert refused.status_code == 429 and refused.get_json()["code"] == "rate_limited"
    assert "ETag" not in refused.headers and game_id.encode() not in refused.data


def test_a_move_sends_the_games_read_with_its_check_unless_a_state_is_kept(limited, monkeypatch):
    """A move with no state kept at its version reads the game in its check's round trip; a move
    on a kept state reads nothing, and its check goes alone, before the commit."""
    address = {"REMOTE_ADDR": an_address()}
    created = limited.post("/games", json={"title": "property", "seats": HUMANS}, environ_base=address)
    body = created.get_json()
    game_id, tokens = body["id"], {seat["seat"]: seat["token"] for seat in body["seats"]}
    sent = _round_trips(monkeypatch)
    for _ in range(2):
        sent.clear()
        seat = limited.get(f"/games/{game_id}", environ_base={"REMOTE_ADDR": an_address()}).get_json()
        bearer = {"Authorization": f"Bearer {tokens[seat['to_act'][0]]}"}
        listed = limited.get(f"/games/{game_id}/moves", headers=bearer, environ_base=address).get_json()
        sent.clear()
        played = limited.post(
            f"/games/{game_id}/actions",
            json={"move": listed["moves"][0]["move"], "version": listed["version"]},
            headers=bearer,
            environ_base=address,
        )
        assert played.status_code == 200
        commands = [name for trip in sent for name in trip.split()]
        assert sent[0] == (b"EVALSHA HMGET" if listed["version"] == 0 else b"EVALSHA"), sent
        assert commands.count(b"HMGET") == (1 if listed["version"] == 0 else 0), sent


def test_a_refused_move_changes_nothing(limited, redis_client):
    address = {"REMOTE_ADDR": an_address()}
    game_id, bearer = _a_game(limited, address)
    moves = limited.get(f"/games/{game_id}/moves", headers=bearer, environ_base=address).get_json()
    stored = redis_client.hgetall(game_key(game_id))
    for _ in range(2):  # the token's 3: one listing above, two games shown
        assert limited.get(f"/games/{game_id}", headers=bearer, environ_base=address).status_code == 200
    refused = limited.post(
        f"/games/{game_id}/actions",
        json={"move": moves["moves"][0]["move"], "version": 0},
        headers=bearer,
        environ_base=address,
    )
    assert refused.status_code == 429 and refused.get_json()["code"] == "rate_limited"
    assert redis_client.hgetall(game_key(game_id)) == stored


def test_a_move_on_a_kept_state_refused_by_the_address_limit_changes_nothing(
    limited, redis_client, monkeypatch
):
    """A move on the state this process kept skips the read; its limits are checked at the
    request's edge all the same, before anything is read or written."""
    address = {"REMOTE_ADDR": an_address()}
    created = limited.post("/games", json={"title": "property", "seats": HUMANS}, environ_base=address)
    body = created.get_json()
    game_id, tokens = body["id"], {seat["seat"]: seat["token"] for seat in body["seats"]}

    def next_move():
        seat = limited.get(f"/games/{game_id}", environ_base={"REMOTE_ADDR": an_address()}).get_json()
        listed = limited.get(
            f"/games/{game_id}/moves",
            headers={"Authorization": f"Bearer {tokens[seat['to_act'][0]]}"},
            environ_base={"REMOTE_ADDR": an_address()},
        ).get_json()
        return tokens[seat["to_act"][0]], listed["moves"][0]["move"], listed["version"]

    token, move, version = next_move()
    played = limited.post(
        f"/games/{game_id}/actions",
        json={"move": move, "version": version},
        headers={"Authorization": f"Bearer {token}"},
        environ_base=address,
    )
    assert played.status_code == 200  # kept at its new version; the address has used 2 of 5
    token, move, version = next_move()
    for _ in range(3):
        assert limited.get("/catalog", environ_base=address).status_code == 200
    stored = redis_client.hgetall(game_key(game_id))
    reads = []
    load = GameStore.load
    monkeypatch.setattr(
        GameStore, "load", lambda store, game, **how: reads.append(game) or load(store, game, **how)
    )
    refused = limited.post(
        f"/games/{game_id}/actions",
        json={"move": move, "version": version},
        headers={"Authorization": f"Bearer {token}"},
        environ_base=address,
    )
    assert refused.status_code == 429 and "address" in refused.get_json()["detail"]
    assert reads == [], "refused before the game is read"
    assert redis_client.hgetall(game_key(game_id)) == stored
    assert redis_client.llen(log_key(game_id)) == 1


def test_requests_answered_before_the_game_is_read_are_counted_too(limited):
    """A body the schema refuses never reaches the game's read: it is counted all the same, and
    over the limit its answer is the 429."""
    address = {"REMOTE_ADDR": an_address()}
    game_id, bearer = _a_game(limited, address)
    answers = [
        limited.post(
            f"/games/{game_id}/actions", json={"nothing": 1}, headers=bearer, environ_base=address
        ).status_code
        for _ in range(4)
    ]
    assert answers == [422, 422, 422, 429]


def test_after_redis_forgets_the_script_the_check_still_counts(limited, redis_client):
    address = {"REMOTE_ADDR": an_address()}
    game_id, bearer = _a_game(limited, address)
    redis_client.script_flush()
    codes = [
        limited.get(f"/games/{game_id}/moves", headers=bearer, environ_base=address).status_code
        for _ in range(4)
    ]
    assert codes == [200, 200, 200, 429]


def test_the_window_slides(redis_client):
    limiter = RateLimiter(redis_client, prefix=f"test:rl:{random.random()}")
    limit = Limit("address", 10, 10)
    base = 1_000_000_000.0  # a window boundary (a multiple of 10 s)
    assert all(limiter.hit(limit, "a", now=base + 5).allowed for _ in range(10))
    refused = limiter.hit(limit, "a", now=base + 5)
    assert not refused.allowed and refused.retry_after_seconds == 6  # 5 s to the boundary, then 10 % of 10 s
    # (so Retry-After may exceed the window: a window filled at once still weighs on the next one)
    # Just after the boundary the previous window still weighs 95 %: refused, for a moment.
    early = limiter.hit(limit, "a", now=base + 10.5)
    assert not early.allowed and early.retry_after_seconds == 1
    # At 15 % into the next window, 8.5 requests' worth remain: one more passes.
    assert limiter.hit(limit, "a", now=base + 11.5).allowed
    assert limiter.hit(limit, "b", now=base + 5).allowed, "identities are counted apart"


def test_the_check_and_count_is_atomic_under_concurrency(redis_server):
    limit = Limit("token", 20, 60)
    prefix = f"test:rl:{random.random()}"
    barrier = threading.Barrier(50)

    def hit(_: int) -> bool:
        limiter = RateLimiter(redis.Redis.from_url(redis_server.url), prefix=prefix)
        barrier.wait()
        return limiter.hit(limit, "racer").allowed

    with ThreadPoolExecutor(50) as pool:
        allowed = list(pool.map(hit, range(50)))
    assert allowed.count(True) == 20


def test_ipv6_clients_are_counted_per_64():
    assert address_key("2001:db8::1") == address_key("2001:db8::ffff") == "2001:db8::/64"
    assert address_key("2001:db8:0:1::1") != address_key("2001:db8::1")
    assert address_key("::ffff:10.1.2.3") == "10.1.2.3"
    assert address_key("10.1.2.3") == "10.1.2.3"
    assert address_key(None) == "unknown"


def test_behind_a_proxy_the_forwarded_address_is_counted(settings, redis_client):
    app = api_app(
        replace(settings, rate_limit_per_address=(2, 60), trusted_proxy_hops=1), redis_client=redis_client
    )
    client = app.test_client()
    proxy = {"REMOTE_ADDR": an_address()}
    first, second = an_address(), an_address()
    for _ in range(2):
        assert (
            client.get("/catalog", headers={"X-Forwarded-For": first}, environ_base=proxy).status_code == 200
        )
    assert client.get("/catalog", headers={"X-Forwarded-For": first}, environ_base=proxy).status_code == 429
    assert client.get("/catalog", headers={"X-Forwarded-For": second}, environ_base=proxy).status_code == 200


def test_without_redis_the_limiter_lets_requests_through(settings):
    dead = redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2, retry=Retry(NoBackoff(), 0))
    app = api_app(replace(settings, rate_limit_per_address=(1, 60)), redis_client=dead)
    client = app.test_client()
    assert [client.get("/catalog").status_code for _ in range(3)] == [200, 200, 200]
    down = client.get("/games/whatever")
    assert down.status_code == 503 and down.get_json()["code"] == "redis_unavailable"


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ("600/60", (600, 60)),
        ("100/1m", (100, 60)),
        ("5/2h", (5, 7200)),
        ("off", None),
        ("0", None),
        ("", None),
    ],
)
def test_rates_are_read_from_the_environment(text, parsed):
    assert parse_rate(text) == parsed


@pytest.mark.parametrize("text", ["lots", "10/0", "0/10", "10 per minute", "-1/60"])
def test_a_bad_rate_is_refused_at_startup(text):
    with pytest.raises(ValueError, match="REQUESTS/SECONDS"):
        parse_rate(text)


# ---- body size limits, through gunicorn -------------------------------------------------------------------
def test_bodies_over_the_limit_are_413_through_gunicorn(live):
    huge = b'{"title": "property", "seats": [], "options": {"x": "' + b"a" * 70_000 + b'"}}'
    declared = requests.post(
        f"{live}/games", data=huge, headers={"Content-Type": "application/json"}, timeout=10
    )
    assert declared.status_code == 413 and declared.json()["code"] == "body_too_large"
    chunked = requests.post(
        f"{live}/games",
        data=(huge[i : i + 8192] for i in range(0, len(huge), 8192)),  # no Content-Length
        headers={"Content-Type": "application/json"},
        timeout=10,
    )
    assert chunked.status_code == 413 and chunked.json()["code"] == "body_too_large"
    small = b'{"title": "property", "seats": [{"kind": "human"}, {"kind": "human"}]}'
    fine = requests.post(
        f"{live}/games",
        data=(small[i : i + 10] for i in range(0, len(small), 10)),
        headers={"Content-Type": "application/json"},
        timeout=10,
    )
    assert fine.status_code == 201, "a chunked body under the limit is read whole"
