"""CORS on every answer: preflights, the fast lane, Flask's views, errors, the body limit, streams."""

from __future__ import annotations

from dataclasses import replace

import pytest

from service.config import parse_origins
from skyline.web import api_app

ORIGIN = "https://app.example"
PREFLIGHT = {
    "Origin": ORIGIN,
    "Access-Control-Request-Method": "POST",
    "Access-Control-Request-Headers": "authorization,content-type",
}
BODY = {"title": "property", "seed": 3, "seats": [{"kind": "human"}, {"kind": "human"}]}


@pytest.fixture(scope="module")
def app(module_app):
    """One app for the module (tests/conftest.py's module_app): its tests change none of it."""
    return module_app


def _app(settings, redis_client, origins):
    return api_app(replace(settings, cors_origins=origins), redis_client=redis_client)


@pytest.fixture
def listed(settings, redis_client):
    return _app(settings, redis_client, ("https://app.example", "https://other.example")).test_client()


def _game(client):
    created = client.post("/games", json=BODY, headers={"Origin": ORIGIN})
    assert created.status_code == 201
    body = created.get_json()
    return created, body["id"], body["human_seats"][0]["token"]


def test_settings_parse_origins():
    assert parse_origins(None) == ("*",)
    assert parse_origins(" ") == ("*",)
    assert parse_origins("off") is None
    assert parse_origins("https://a.example/, https://b.example") == (
        "https://a.example",
        "https://b.example",
    )
    assert parse_origins("https://a.example,*") == ("*",)


@pytest.mark.parametrize("path", ["/games", "/games/abc/actions", "/games/abc/moves", "/catalog", "/nowhere"])
def test_preflight_answers_204_with_methods_headers_and_max_age(client, path):
    answer = client.options(path, headers=PREFLIGHT)
    assert answer.status_code == 204
    assert answer.get_data() == b""
    assert answer.headers["Access-Control-Allow-Origin"] == "*"
    assert "POST" in answer.headers["Access-Control-Allow-Methods"]
    assert "PUT" in answer.headers["Access-Control-Allow-Methods"]
    allowed = answer.headers["Access-Control-Allow-Headers"].lower()
    assert "authorization" in allowed and "content-type" in allowed
    assert int(answer.headers["Access-Control-Max-Age"]) >= 600
    assert "Access-Control-Allow-Credentials" not in answer.headers


def test_preflight_allows_every_header_a_client_sends(client):
    headers = {
        **PREFLIGHT,
        "Access-Control-Request-Headers": "Authorization, Content-Type, Idempotency-Key, Last-Event-ID",
    }
    allowed = (
        client.options("/games/x/actions", headers=headers).headers["Access-Control-Allow-Headers"].lower()
    )
    for name in ("authorization", "content-type", "idempotency-key", "last-event-id"):
        assert name in allowed


def test_every_answer_carries_the_origin_and_exposes_headers(client):
    created, game_id, token = _game(client)
    assert created.headers["Access-Control-Allow-Origin"] == "*"
    exposed = created.headers["Access-Control-Expose-Headers"]
    for name in ("Retry-After", "Location", "ETag", "X-Request-ID"):
        assert name in exposed
    auth = {"Origin": ORIGIN, "Authorization": f"Bearer {token}"}
    answers = [
        client.get(f"/games/{game_id}/moves", headers=auth),  # fast lane
        client.get(f"/games/{game_id}", headers=auth),  # Flask
        client.post(
            f"/games/{game_id}/actions", json={"move": {"type": "nope"}}, headers=auth
        ),  # 422, fast lane
        client.post(f"/games/{game_id}/actions?dry_run=true", json={"move": {}}, headers=auth),  # Flask
        client.get("/games/missing/moves", headers=auth),  # 404 from the fast lane
        client.get("/games/missing", headers=auth),  # 404 from Flask
        client.get("/catalog", headers={"Origin": ORIGIN}),
        client.get("/healthz", headers={"Origin": ORIGIN}),
        client.post("/games", data=b"x" * 20000, content_type="application/json", headers={"Origin": ORIGIN}),
    ]
    assert [a.status_code for a in answers][:2] == [200, 200]
    assert answers[-1].status_code == 413
    for answer in answers:
        assert answer.headers.get("Access-Control-Allow-Origin") == "*", answer.status_code
        assert "Retry-After" in answer.headers["Access-Control-Expose-Headers"]


def test_no_origin_no_cors_headers(client):
    answer = client.get("/catalog")
    assert not [name for name in answer.headers.keys() if name.startswith("Access-Control")]


def test_a_listed_origin_is_echoed_with_vary(listed):
    created, game_id, token = _game(listed)
    assert created.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert "Origin" in created.headers.get_all("Vary")
    moves = listed.get(
        f"/games/{game_id}/moves", headers={"Origin": ORIGIN, "Authorization": f"Bearer {token}"}
    )
    assert moves.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert "Origin" in moves.headers.get_all("Vary")
    preflight = listed.options("/games", headers=PREFLIGHT)
    assert preflight.status_code == 204
    assert preflight.headers["Access-Control-Allow-Origin"] == ORIGIN


def test_an_unlisted_origin_gets_no_allow_origin(listed):
    stranger = {"Origin": "https://evil.example"}
    for answer in (
        listed.get("/catalog", headers=stranger),
        listed.options("/games", headers={**PREFLIGHT, **stranger}),
        listed.get("/games/missing/moves", headers=stranger),
    ):
        assert "Access-Control-Allow-Origin" not in answer.headers
        assert "Origin" in answer.headers.get_all("Vary")


def test_cors_off(settings, redis_client):
    client = _app(settings, redis_client, None).test_client()
    answer = client.get("/catalog", headers={"Origin": ORIGIN})
    assert "Access-Control-Allow-Origin" not in answer.headers
