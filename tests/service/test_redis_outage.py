"""When Redis cannot take a request — down, or full under `maxmemory-policy noeviction` — the
client gets 503 redis_unavailable with Retry-After, never a 500, and nothing is half-written."""

from __future__ import annotations

from dataclasses import replace

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from service.run.embedded import EmbeddedRedis
from skyline.web import api_app

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def test_a_full_redis_refuses_writes_with_503_and_keeps_serving_reads(settings, tmp_path):
    server = EmbeddedRedis(tmp_path / "redis", appendonly=False).start()
    try:
        connection = redis.Redis.from_url(server.url)
        client = api_app(replace(settings, redis_url=server.url), redis_client=connection).test_client()
        game_id = client.post("/games", json={"title": "property", "seats": HUMANS}).get_json()["id"]
        connection.config_set("maxmemory-policy", "noeviction")
        connection.config_set("maxmemory", "1")
        refused = client.post("/games", json={"title": "property", "seats": HUMANS})
        assert refused.status_code == 503 and refused.mimetype == "application/problem+json"
        assert refused.get_json()["code"] == "redis_unavailable" and refused.headers["Retry-After"] == "1"
        assert client.get(f"/games/{game_id}").status_code == 200, "reads still work"
        connection.config_set("maxmemory", "0")
        assert client.post("/games", json={"title": "property", "seats": HUMANS}).status_code == 201
    finally:
        server.stop()


def test_an_unreachable_redis_is_503_not_500(settings):
    dead = redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2, retry=Retry(NoBackoff(), 0))
    client = api_app(replace(settings, redis_url="redis://127.0.0.1:1/0"), redis_client=dead).test_client()
    for response in (
        client.get("/games/some-game"),
        client.post("/games", json={"title": "property", "seats": HUMANS}),
    ):
        assert response.status_code == 503 and response.get_json()["code"] == "redis_unavailable"
    assert client.get("/readyz").get_json()["code"] == "redis_unreachable"
