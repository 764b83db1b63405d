"""One body policy for every route, walked over the contract (openapi.yaml), so that a route added
later is held to it too: every operation with a ``requestBody`` refuses a body not declared JSON
(text, a form, no Content-Type) with the same 415 and changes nothing, though the very same bytes
declared JSON do what they ask; every operation without one ignores a body.

On the app as served (the fast lane in front of Flask) against a real Redis.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from dataclasses import replace as replaced
from pathlib import Path
from typing import Any

import pytest

from skyline.web import api_app
from tests.conftest import read_yaml
from tests.service.test_api import assert_problem, bearer

CONTRACT = Path(__file__).resolve().parents[2] / "openapi.yaml"
SPEC = read_yaml(CONTRACT)
METHODS = ("post", "put", "patch", "delete")
OPERATIONS = [
    (path, method, operation)
    for path, operations in SPEC["paths"].items()
    for method, operation in operations.items()
    if method in METHODS
]
READ_A_BODY = [op for op in OPERATIONS if "requestBody" in op[2]]
READ_NONE = [op for op in OPERATIONS if "requestBody" not in op[2]]
NOT_JSON = {
    "text/plain": {"Content-Type": "text/plain"},
    "a form": {"Content-Type": "application/x-www-form-urlencoded"},
    "no Content-Type": {},
}
HUMAN, OPEN = {"kind": "human", "name": "Ada"}, {"kind": "open"}
HOOK = "http://127.0.0.1:9/hook"  # never called: the worker is not running here


@pytest.fixture
def client(settings, redis_client):
    # Webhooks to a local address over http are allowed, so that a seat's webhook can be put.
    hooks = replaced(settings, webhook_allow_http=True, webhook_allow_private=True)
    return api_app(hooks, redis_client=redis_client).test_client()


@dataclass
class Scene:
    """A request whose body is valid, sent to a game made for it, and what it would change."""

    path: str
    body: Any
    state: Callable[[], Any]  # what the request, obeyed, changes
    headers: dict[str, str] = field(default_factory=dict)


def _game(client, seats) -> dict:
    body: dict[str, Any] = {"title": "property", "seats": seats}
    if all(seat["kind"] != "open" for seat in seats):
        body["seed"] = 3  # a game with open seats takes no seed from its creator
    created = client.post("/games", json=body)
    assert created.status_code == 201, created.get_json()
    return created.get_json()


def _shown(client, game_id):
    def state():
        shown = client.get(f"/games/{game_id}").get_json()
        return shown["version"], shown["seats"], shown["status"]

    return state


def create_game(client) -> Scene:
    body = {"title": "property", "seats": [HUMAN, OPEN], "listed": True}

    def lobby():
        return [game["id"] for game in client.get("/lobby?title=property&limit=100").get_json()["games"]]

    return Scene("/games", body, lobby)


def post_action(client) -> Scene:
    game = _game(client, [HUMAN, HUMAN])
    token = next(s["token"] for s in game["human_seats"] if s["seat"] == game["to_act"][0])
    listing = client.get(f"/games/{game['id']}/moves", headers=bearer(token)).get_json()
    body = {"move": listing["moves"][0]["move"], "version": listing["version"]}
    return Scene(f"/games/{game['id']}/actions", body, _shown(client, game["id"]), bearer(token))


def join_game(client) -> Scene:
    # Seat 2, not the first open seat (1): a body read as {} would take seat 1.
    game = _game(client, [HUMAN, OPEN, OPEN])
    return Scene(f"/games/{game['id']}/join", {"seat": 2, "name": "Cy"}, _shown(client, game["id"]))


def put_seat_webhook(client) -> Scene:
    game = _game(client, [HUMAN, HUMAN])
    token = game["human_seats"][0]["token"]
    shown = _shown(client, game["id"])

    def state():
        deliveries = client.get(f"/games/{game['id']}/webhooks/deliveries", headers=bearer(token))
        return shown(), deliveries.status_code  # 404 while the seat has no webhook

    return Scene(f"/games/{game['id']}/webhook", {"url": HOOK}, state, bearer(token))


def put_player_webhook(client) -> Scene:
    player = client.post("/players").get_json()

    def state():
        return client.get("/players/me/webhook", headers=bearer(player["key"])).status_code  # 404: none

    return Scene("/players/me/webhook", {"url": HOOK}, state, bearer(player["key"]))


# One scene per operation that reads a body; the walk fails on an operation without one.
def create_seek(client) -> Scene:
    player = client.post("/players").get_json()
    headers = bearer(player["key"])

    def seeks():
        return client.get("/seeks", headers=headers).get_json()["seeks"]

    return Scene("/seeks", {"title": "property", "seats": 3}, seeks, headers)


def put_me(client) -> Scene:
    player = client.post("/players").get_json()

    def language():
        return client.get("/players/me", headers=bearer(player["key"])).get_json()["language"]

    return Scene("/players/me", {"language": "fr"}, language, bearer(player["key"]))


SCENES = {
    "createGame": create_game,
    "postAction": post_action,
    "joinGame": join_game,
    "putSeatWebhook": put_seat_webhook,
    "putPlayerWebhook": put_player_webhook,
    "createSeek": create_seek,
    "putMe": put_me,
}


def _send(client, method: str, scene: Scene, headers: dict[str, str], data: bytes):
    return client.open(scene.path, method=method.upper(), headers={**scene.headers, **headers}, data=data)


def _ids(operations):
    return [op["operationId"] for _, _, op in operations]


def test_the_walk_knows_each_operation_that_reads_a_body():
    assert READ_A_BODY, "openapi.yaml lists operations with a requestBody"
    for _, _, operation in READ_A_BODY:
        assert operation["operationId"] in SCENES, (
            f"{operation['operationId']} reads a body: give it a scene in {__file__}"
        )
        assert "415" in operation["responses"], f"{operation['operationId']} documents its 415"
        assert list(operation["requestBody"]["content"]) == ["application/json"]


@pytest.mark.parametrize("kind", list(NOT_JSON))
@pytest.mark.parametrize(("path", "method", "operation"), READ_A_BODY, ids=_ids(READ_A_BODY))
def test_a_body_not_declared_json_is_refused_alike_and_changes_nothing(
    client, caplog, path, method, operation, kind
):
    scene = SCENES[operation["operationId"]](client)
    data = json.dumps(scene.body).encode()
    before = scene.state()
    with caplog.at_level(logging.WARNING):
        refused = _send(client, method, scene, NOT_JSON[kind], data)
    assert_problem(refused, 415, "unsupported_media_type")
    assert scene.state() == before, "a refused request changes nothing"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "no traceback for bad input"
    # The very same bytes declared JSON (charset and all) are obeyed: the state seen above can change.
    obeyed = _send(client, method, scene, {"Content-Type": "application/json; charset=utf-8"}, data)
    assert 200 <= obeyed.status_code < 300, obeyed.get_json()
    assert scene.state() != before


@pytest.mark.parametrize(("path", "method", "operation"), READ_A_BODY, ids=_ids(READ_A_BODY))
def test_an_empty_body_is_no_body(client, path, method, operation):
    """Allowed where the body is optional (a join then takes the first open seat), else the same 415."""
    scene = SCENES[operation["operationId"]](client)
    before = scene.state()
    for headers in ({}, {"Content-Type": "text/plain"}):
        answer = _send(client, method, scene, headers, b"")
        if operation["requestBody"].get("required"):
            assert_problem(answer, 415, "unsupported_media_type")
            assert scene.state() == before
        else:
            assert answer.status_code == 201, answer.get_json()
            assert answer.get_json()["seat"] == 1, "no body: the first open seat"
            break


@pytest.mark.parametrize(("path", "method", "operation"), READ_NONE, ids=_ids(READ_NONE))
def test_an_operation_that_reads_no_body_ignores_one(client, caplog, path, method, operation):
    """Two games alike, the same request to each, one with a body of text: the same answer."""
    answers = []
    for data in (b"", b"seat=2&anything"):
        game = _game(client, [HUMAN, HUMAN])
        # Seat 1 resigned: every seat operation then has a game it can act on (a rematch, too).
        if operation["operationId"] == "rematchGame":
            client.post(f"/games/{game['id']}/resign", headers=bearer(game["human_seats"][1]["token"]))
        scene = Scene(path.replace("{game_id}", game["id"]), None, lambda: None)
        with caplog.at_level(logging.WARNING):
            form = {"Content-Type": "application/x-www-form-urlencoded"} if data else {}
            answer = _send(client, method, scene, {**bearer(game["human_seats"][0]["token"]), **form}, data)
        answers.append((answer.status_code, sorted((answer.get_json() or {}).keys())))
        if data:
            assert answer.status_code < 500
    assert answers[0] == answers[1], answers
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
