"""Seats bound to a player, in-process: "me" at creation, invitations, joins with a key, the cap."""

from __future__ import annotations

from dataclasses import replace

from service.store.keys import game_key, player_games_key
from skyline.web import api_app
from tests.service.test_api import assert_problem

from .conftest import bearer


def invite(client, inviter_key, invited_id, title="property"):
    """A game of two seats: the inviter's (bound to it when it sends a key), and the invitation."""
    mine = {"kind": "human", "player": "me"} if inviter_key else {"kind": "human"}
    body = {"title": title, "seats": [mine, {"kind": "open", "player": invited_id}]}
    reply = client.post("/games", json=body, headers=bearer(inviter_key) if inviter_key else {})
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()


def test_the_binding_is_written_with_the_game_and_never_shown(client, new_player, redis_client):
    ada, bo = new_player(), new_player()
    created = invite(client, ada["key"], bo["id"])
    game_id = created["id"]
    assert created["status"] == "waiting"
    assert created["seats"][1] == {"seat": 1, "kind": "open"}
    assert "player" not in str(created["seats"]) and bo["id"] not in str(created)
    for player in (ada, bo):
        assert redis_client.zscore(player_games_key(player["id"]), game_id) is not None
    shown = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert bo["id"] not in shown and ada["id"] not in shown


def test_an_invitation_is_the_invited_players_alone(client, new_player, redis_client):
    ada, bo, cy = new_player(), new_player(), new_player()
    game_id = invite(client, ada["key"], bo["id"])["id"]
    before = redis_client.hgetall(game_key(game_id))
    assert_problem(client.post(f"/games/{game_id}/join", json={"seat": 1}), 403, "seat_invited")
    refused = client.post(f"/games/{game_id}/join", json={"seat": 1}, headers=bearer(cy["key"]))
    assert_problem(refused, 403, "seat_invited")
    # Without a seat named, no seat is open to others.
    assert_problem(client.post(f"/games/{game_id}/join", headers=bearer(cy["key"])), 409, "seat_taken")
    assert redis_client.hgetall(game_key(game_id)) == before
    joined = client.post(f"/games/{game_id}/join", headers=bearer(bo["key"]))
    assert joined.status_code == 201, joined.get_json()
    assert joined.get_json()["seat"] == 1 and joined.get_json()["status"] == "active"
    shown = client.get(f"/games/{game_id}", headers=bearer(bo["key"])).get_json()
    assert shown["you"] == 1
    # The seat's own token works too.
    token = joined.get_json()["token"]
    assert client.get(f"/games/{game_id}", headers=bearer(token)).get_json()["you"] == 1


def test_a_join_with_a_key_binds_an_unbound_open_seat(client, new_player, redis_client):
    bo = new_player()
    created = client.post(
        "/games", json={"title": "property", "seats": [{"kind": "human"}, {"kind": "open"}]}
    )
    game_id = created.get_json()["id"]
    joined = client.post(f"/games/{game_id}/join", headers=bearer(bo["key"]))
    assert joined.status_code == 201
    assert redis_client.zscore(player_games_key(bo["id"]), game_id) is not None
    assert client.get(f"/games/{game_id}", headers=bearer(bo["key"])).get_json()["you"] == 1


def test_a_client_without_players_sees_nothing_change(client, redis_client):
    created = client.post(
        "/games", json={"title": "property", "seats": [{"kind": "human"}, {"kind": "open"}]}
    )
    game_id = created.get_json()["id"]
    joined = client.post(f"/games/{game_id}/join", headers={"Authorization": "Bearer whatever"})
    assert joined.status_code == 201
    seats = client.get(f"/games/{game_id}").get_json()["seats"]
    assert seats == [{"seat": 0, "kind": "human"}, {"seat": 1, "kind": "human"}]


def test_the_cap_of_live_games_refuses_one_more_and_writes_nothing(settings, redis_client):
    app = api_app(replace(settings, live_games_per_player=2), redis_client=redis_client)
    client = app.test_client()
    ada = client.post("/players").get_json()
    body = {"title": "property", "seats": [{"kind": "human", "player": "me"}, {"kind": "open"}]}
    first = client.post("/games", json=body, headers=bearer(ada["key"])).get_json()["id"]
    client.post("/games", json=body, headers=bearer(ada["key"]))
    refused = client.post("/games", json=body, headers=bearer(ada["key"]))
    assert_problem(refused, 429, "too_many_live_games")
    assert redis_client.zcard(player_games_key(ada["id"])) == 2
    # Invitations do not fill a player's cap: Ada is invited three times...
    invited = [invite(client, None, ada["id"])["id"] for _ in range(3)][0]
    assert redis_client.zcard(player_games_key(ada["id"])) == 5
    # ...but taking one is a live game like any other.
    assert_problem(
        client.post(f"/games/{invited}/join", headers=bearer(ada["key"])), 429, "too_many_live_games"
    )
    assert client.get(f"/games/{invited}").get_json()["version"] == 0
    # A game that ends frees its place.
    assert client.post(f"/games/{first}/abort", headers=bearer(ada["key"])).status_code == 200
    assert client.post(f"/games/{invited}/join", headers=bearer(ada["key"])).status_code == 201


def test_a_game_is_created_with_no_authorization_or_a_player_key_only(client, new_player):
    """createGame declares the creator's player key: anything else in Authorization is refused
    (401), not ignored, and no game is made."""
    body = {"title": "property", "seats": [{"kind": "human"}, {"kind": "human"}]}
    for header in ("Bearer not-a-key", "Basic abc", "Bearer sk_player_unknown"):
        refused = client.post("/games", json=body, headers={"Authorization": header})
        assert refused.status_code == 401, (header, refused.get_json())
    assert client.post("/games", json=body).status_code == 201
    assert client.post("/games", json=body, headers=bearer(new_player()["key"])).status_code == 201
