"""Bad input on the webhook routes (issue 53) is refused with a stable code and a sentence, and
changes nothing; the secret the service issues is what the contract's Authorization accepts."""

from __future__ import annotations

import base64
import re
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from service.http.services import services
from service.play import webhooks as hooks
from skyline.web import api_app

from .test_api import assert_problem, bearer

ROOT = Path(__file__).resolve().parents[2]
HOOK = "http://127.0.0.1:9/hook"  # never called here: no webhook worker runs
LONG_LABEL = "a" * 64 + ".example.com"


@pytest.fixture(scope="module")
def app(module_settings, module_redis_client):
    """One app for the module (tests/conftest.py's module_app): its tests change none of it."""
    return api_app(
        replace(module_settings, webhook_allow_http=True, webhook_allow_private=True),
        redis_client=module_redis_client,
    )


@pytest.fixture
def game(client):
    created = client.post(
        "/games", json={"title": "property", "seats": [{"kind": "human"}, {"kind": "human"}]}
    ).get_json()
    return created["id"], created["human_seats"][0]["token"]


def _unchanged(client, app, game_id, token, before):
    """The game as it was, and no webhook for the seat."""
    assert client.get(f"/games/{game_id}").get_json() == before
    listed = client.get(f"/games/{game_id}/webhooks/deliveries", headers=bearer(token))
    assert_problem(listed, 404, "webhook_not_found")
    endpoints, notified, _ = services(app).webhooks.store.read(game_id)
    assert (endpoints, notified) == ({}, None)


def _put(client, game_id, token, body):
    return client.put(f"/games/{game_id}/webhook", json=body, headers=bearer(token))


@pytest.mark.parametrize(
    "events",
    [
        ["seat.joined"],
        ["game.turn", "seat.joined"],
        ["game.started"],
        ["seat.resigned", "game.finished"],
        ["no.such"],
    ],
)
def test_a_seat_webhook_asked_for_events_a_seat_never_hears_is_refused(app, client, game, events):
    game_id, token = game
    before = client.get(f"/games/{game_id}").get_json()
    reply = _put(client, game_id, token, {"url": HOOK, "events": events})
    body = assert_problem(reply, 422, "webhook_events_refused")
    assert "game.turn, game.finished, turn.timed_out, deadline.near" in body["detail"], body["detail"]
    assert all(e in body["detail"] for e in events if e not in hooks.SEAT_NOTICES)
    _unchanged(client, app, game_id, token, before)


@pytest.mark.parametrize("events", [[], ["game.turn", 3], "game.turn"])
def test_seat_webhook_events_that_are_no_list_of_names_are_refused_by_the_schema(app, client, game, events):
    game_id, token = game
    before = client.get(f"/games/{game_id}").get_json()
    assert_problem(_put(client, game_id, token, {"url": HOOK, "events": events}), 422, "invalid_request")
    _unchanged(client, app, game_id, token, before)


@pytest.mark.parametrize(
    ("events", "kept"),
    [
        (None, ["game.turn", "game.finished", "turn.timed_out", "deadline.near"]),
        (["deadline.near", "game.turn", "game.turn"], ["deadline.near", "game.turn"]),
    ],
)
def test_a_seat_webhook_hears_what_it_asked_for(app, client, game, events, kept):
    game_id, token = game
    body = {"url": HOOK, **({"events": events} if events is not None else {})}
    reply = _put(client, game_id, token, body)
    assert reply.status_code == 200, reply.get_json()
    assert reply.get_json()["events"] == kept
    endpoints, _, _ = services(app).webhooks.store.read(game_id)
    assert endpoints["s0"]["events"] == kept


@pytest.mark.parametrize("kind", hooks.NOTICE_TYPES)
def test_the_creation_s_webhooks_hear_exactly_the_events_asked(app, client, kind):
    """No widening there: every notice type reaches the creation's webhooks, so each is kept as asked."""
    reply = client.post(
        "/games",
        json={
            "title": "property",
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "webhooks": [{"url": HOOK, "events": [kind]}],
        },
    )
    assert reply.status_code == 201, reply.get_json()
    endpoints, _, _ = services(app).webhooks.store.read(reply.get_json()["id"])
    assert endpoints["g0"]["events"] == [kind]


def test_the_creation_refuses_an_event_that_is_no_notice_type(client):
    reply = client.post(
        "/games",
        json={
            "title": "property",
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "webhooks": [{"url": HOOK, "events": ["seat.sat"]}],
        },
    )
    assert_problem(reply, 422, "invalid_request")


def test_a_host_with_a_label_over_63_characters_is_refused_before_resolving(app, client, game, monkeypatch):
    """gunicorn's gevent resolver printed a traceback for the UnicodeError such a name raises inside
    getaddrinfo; the name is now refused before any lookup (tests/ops/test_webhooks_live.py reads
    the live server's log)."""
    looked_up = []
    monkeypatch.setattr(hooks.socket, "getaddrinfo", lambda *args, **kw: looked_up.append(args) or [])
    created = client.post(
        "/games",
        json={
            "title": "property",
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "webhooks": [{"url": f"https://{LONG_LABEL}/h"}],
        },
    )
    assert "not a DNS name" in assert_problem(created, 422, "webhook_url_refused")["detail"]
    game_id, token = game
    before = client.get(f"/games/{game_id}").get_json()
    put = _put(client, game_id, token, {"url": f"https://{LONG_LABEL}/"})
    assert "not a DNS name" in assert_problem(put, 422, "webhook_url_refused")["detail"]
    assert looked_up == []
    _unchanged(client, app, game_id, token, before)


# ---- the secret and the contract ---------------------------------------------------------------
def _deliveries_authorization_pattern() -> str:
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    operation = spec["paths"]["/games/{game_id}/webhooks/deliveries"]["get"]
    [header] = [p for p in operation["parameters"] if p["in"] == "header" and p["name"] == "Authorization"]
    return header["schema"]["pattern"]


def test_every_secret_the_service_issues_matches_the_contract_s_authorization():
    pattern = re.compile(_deliveries_authorization_pattern())
    secrets = [hooks.new_secret() for _ in range(3000)]
    assert any("+" in s for s in secrets) and any("/" in s for s in secrets)  # standard base64's own
    refused = [s for s in secrets if not pattern.fullmatch(f"Bearer {s}")]
    assert refused == [], refused[:3]
    for secret in secrets[:50]:  # standard base64, as Standard Webhooks' libraries decode it
        assert len(hooks.secret_key(secret)) == hooks.SECRET_BYTES
        assert base64.b64encode(hooks.secret_key(secret)).decode() == secret.removeprefix("whsec_")
    # Seat tokens still match; what is neither does not.
    assert pattern.fullmatch("Bearer abc_DEF-123")
    assert not pattern.fullmatch("Bearer whsec_+/") and not pattern.fullmatch("Bearer a b")


def test_a_secret_with_plus_and_slash_lists_its_deliveries(client, monkeypatch):
    monkeypatch.setattr(hooks.secrets, "token_bytes", lambda n: b"\xfb\xef\xff" * (n // 3))
    created = client.post(
        "/games",
        json={
            "title": "property",
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "webhooks": [{"url": HOOK}],
        },
    ).get_json()
    secret = created["webhook_secret"]
    assert (
        "+" in secret
        and "/" in secret
        and re.fullmatch(_deliveries_authorization_pattern(), f"Bearer {secret}")
    )
    reply = client.get(f"/games/{created['id']}/webhooks/deliveries", headers=bearer(secret))
    assert reply.status_code == 200, reply.get_json()
