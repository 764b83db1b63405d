"""Every time the service writes in a reply or a notice is spelled one way: RFC 3339, UTC, to the
second, with ``Z`` (service/play/times.py), on the app against a real Redis."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from service.http.services import services
from service.play.times import rfc3339
from service.play.webhooks import notice
from skyline.web import api_app

from .test_api import bearer, first_move

SPELLING = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z")
LOOKS_LIKE_A_TIME = re.compile(r"^\d{4}-\d\d-\d\dT")


def times_in(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [t for v in value.values() for t in times_in(v)]
    if isinstance(value, list):
        return [t for v in value for t in times_in(v)]
    return [value] if isinstance(value, str) and LOOKS_LIKE_A_TIME.match(value) else []


def test_the_spelling_and_its_rounding():
    assert rfc3339(0) == "1970-01-01T00:00:00Z"
    assert rfc3339(1796221539.2) == "2026-12-02T14:25:39Z"
    assert rfc3339(1796221539.2, round_up=True) == "2026-12-02T14:25:40Z"
    assert rfc3339(1796221539, round_up=True) == "2026-12-02T14:25:39Z"
    assert datetime.fromisoformat(rfc3339(1796221539)) == datetime.fromtimestamp(1796221539, UTC)
    assert rfc3339(1796221539.25, microseconds=True) == "2026-12-02T14:25:39.250000Z"
    # A webhook's timestamp, to the microsecond: two notices of one second keep their order.
    assert re.fullmatch(r".*:\d\d\.\d{6}Z", notice("game.turn", {})["timestamp"])


def test_every_time_in_the_replies_is_spelled_with_z(settings, redis_client):
    client = api_app(
        replace(settings, webhook_allow_http=True, webhook_allow_private=True), redis_client=redis_client
    ).test_client()
    clock = {"turn_seconds": 60, "on_timeout": "stand_in"}
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "open"}]
    body = {"title": "property", "seats": seats, "clock": clock, "listed": True}
    body["webhooks"] = [{"url": "http://127.0.0.1:9/hook"}]
    created = client.post("/games", json=body).get_json()
    game_id = created["id"]
    joined = client.post(f"/games/{game_id}/join", json={}).get_json()
    tokens = {0: created["human_seats"][0]["token"], 1: joined["token"]}
    seat = client.get(f"/games/{game_id}").get_json()["to_act"][0]
    move, version = first_move(client, game_id, tokens[seat])
    client.post(
        f"/games/{game_id}/actions", json={"move": move, "version": version}, headers=bearer(tokens[seat])
    )
    services(client.application).webhooks.fan_out(game_id)
    secret = created["webhook_secret"]
    replies = [
        client.get(f"/games/{game_id}", headers=bearer(tokens[0])).get_json(),
        client.get(f"/games/{game_id}/moves", headers=bearer(tokens[0])).get_json(),
        client.get(f"/games/{game_id}/events").get_json(),
        client.get(f"/games/{game_id}/webhooks/deliveries", headers=bearer(secret)).get_json(),
    ]
    waiting = client.post("/games", json={**body, "webhooks": []}).get_json()
    replies.append(client.get("/lobby?title=property").get_json())
    found = times_in(replies)
    assert waiting["id"] in str(replies[-1]) and len(found) >= 4, found
    assert [t for t in found if not SPELLING.fullmatch(t)] == []
