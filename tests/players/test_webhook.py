"""The player's webhook, in-process: one endpoint per game bound to the player, fanned out by the
game webhooks' own fan-out (no worker here: the deliveries are read as the fan-out wrote them)."""

from __future__ import annotations

from dataclasses import replace

import orjson
import pytest

from service.http.services import services
from skyline.web import api_app
from tests.service.test_api import assert_problem

from .conftest import bearer

URL = "http://127.0.0.1:9/player-hook"


@pytest.fixture
def app(settings, redis_client):
    # Nothing is delivered here (no webhook worker): a loopback http URL only has to be accepted.
    return api_app(
        replace(settings, webhook_allow_http=True, webhook_allow_private=True), redis_client=redis_client
    )


def fan_out(app, *game_ids: str) -> None:
    for game_id in game_ids:
        services(app).webhooks.fan_out(game_id)


def notices(client, key: str) -> list[tuple[str, str, int]]:
    shown = client.get("/players/me/webhook", headers=bearer(key)).get_json()
    return sorted((d["game_id"], d["type"], d["version"]) for d in shown["deliveries"])


def test_one_notice_per_event_across_games_and_none_of_other_players(app, client, new_player, redis_client):
    ada, bo, cy = new_player(), new_player(), new_player()
    put = client.put("/players/me/webhook", json={"url": URL}, headers=bearer(ada["key"]))
    assert put.status_code == 200, put.get_json()
    assert put.get_json()["webhook_secret"].startswith("whsec_")
    client.put("/players/me/webhook", json={"url": URL}, headers=bearer(cy["key"]))
    # A game of Ada's already running (her turn), then an invitation, then Cy's game without her.
    body = {"title": "property", "seed": 1, "seats": [{"kind": "human", "player": "me"}, {"kind": "human"}]}
    before = client.post("/games", json=body, headers=bearer(ada["key"])).get_json()
    invited_to = client.post(
        "/games",
        json={
            "title": "fresh-fish",
            "seats": [{"kind": "human", "player": "me"}, {"kind": "open", "player": ada["id"]}],
        },
        headers=bearer(bo["key"]),
    ).get_json()
    cys = client.post(
        "/games",
        json={**body, "seats": [{"kind": "human", "player": "me"}, {"kind": "human"}]},
        headers=bearer(cy["key"]),
    ).get_json()
    fan_out(app, before["id"], invited_to["id"], cys["id"])
    assert notices(client, ada["key"]) == sorted(
        [
            (before["id"], "game.started", 0),
            (before["id"], "game.turn", 0),
            (invited_to["id"], "game.invited", 0),
        ]
    )
    # Ada takes the invitation: the join, the start and (if hers) her turn, once each.
    joined = client.post(f"/games/{invited_to['id']}/join", headers=bearer(ada["key"])).get_json()
    fan_out(app, invited_to["id"])
    fan_out(app, invited_to["id"])  # a second fan-out adds nothing
    mine = [n for n in notices(client, ada["key"]) if n[0] == invited_to["id"] and n[2] == joined["version"]]
    types = sorted(t for _, t, _ in mine)
    to_act = client.get(f"/games/{invited_to['id']}").get_json()["to_act"]
    assert types == sorted(["seat.joined", "game.started", *(["game.turn"] if 1 in to_act else [])])
    # Bo's turn in a game of Ada's is not hers to hear of; the end is.
    other = before["human_seats"][1]["token"]
    assert client.post(f"/games/{before['id']}/resign", headers=bearer(other)).status_code == 200
    fan_out(app, before["id"])
    ends = [n for n in notices(client, ada["key"]) if n[0] == before["id"] and n[1] == "game.finished"]
    assert len(ends) == 1
    # Nothing of Cy's game reached Ada, nothing of Ada's reached Cy.
    assert all(game_id != cys["id"] for game_id, _, _ in notices(client, ada["key"]))
    assert {game_id for game_id, _, _ in notices(client, cy["key"])} == {cys["id"]}


def test_the_notices_are_signed_with_the_players_secret_by_the_game_webhooks_own_machinery(
    app, client, new_player, redis_client
):
    ada = new_player()
    secret = client.put("/players/me/webhook", json={"url": URL}, headers=bearer(ada["key"])).get_json()[
        "webhook_secret"
    ]
    body = {"title": "property", "seed": 1, "seats": [{"kind": "human", "player": "me"}, {"kind": "human"}]}
    game = client.post("/games", json=body, headers=bearer(ada["key"])).get_json()
    fan_out(app, game["id"])
    endpoints, _, _ = services(app).webhooks.store.read(game["id"])
    endpoint = endpoints["P" + ada["id"]]
    assert endpoint["secret"] == secret and endpoint["url"] == URL and endpoint["seats"] == [0]
    record = services(app).webhooks.store.deliveries(game["id"])[0]
    payload = orjson.loads(record["body"])
    assert payload["data"]["game_id"] == game["id"] and "token" not in record["body"]


def test_a_webhook_removed_or_a_player_deleted_leaves_its_games(app, client, new_player):
    ada = new_player()
    client.put("/players/me/webhook", json={"url": URL}, headers=bearer(ada["key"]))
    body = {"title": "property", "seats": [{"kind": "human", "player": "me"}, {"kind": "human"}]}
    game = client.post("/games", json=body, headers=bearer(ada["key"])).get_json()
    store = services(app).webhooks.store
    assert "P" + ada["id"] in store.read(game["id"])[0]
    assert client.delete("/players/me/webhook", headers=bearer(ada["key"])).status_code == 204
    assert "P" + ada["id"] not in store.read(game["id"])[0]
    assert_problem(client.get("/players/me/webhook", headers=bearer(ada["key"])), 404, "webhook_not_found")
    assert_problem(client.delete("/players/me/webhook", headers=bearer(ada["key"])), 404, "webhook_not_found")
    client.put("/players/me/webhook", json={"url": URL}, headers=bearer(ada["key"]))
    assert "P" + ada["id"] in store.read(game["id"])[0]
    assert client.delete("/players/me", headers=bearer(ada["key"])).status_code == 204
    assert "P" + ada["id"] not in store.read(game["id"])[0]


def test_a_player_webhook_is_refused_as_a_seat_webhook_would_be(client, new_player):
    ada = new_player()
    refused = client.put(
        "/players/me/webhook", json={"url": "http://example.com/h"}, headers=bearer(ada["key"])
    )
    assert_problem(refused, 422, "webhook_url_refused")
    assert_problem(client.put("/players/me/webhook", json={"url": URL}), 401, "player_key_required")
