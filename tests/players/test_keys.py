"""Player keys, in-process: created, used where a seat token works, rotated, deleted, refused."""

from __future__ import annotations

from dataclasses import replace

import pytest

from service.store.keys import player_by_key, player_key
from skyline.web import api_app
from tests.service.test_api import assert_problem

from .conftest import bearer, first_move


@pytest.fixture(scope="module")
def app(module_app):
    """One app for the module (tests/conftest.py's module_app): its tests change none of it."""
    return module_app


def create_game(client, key, seats=None, title="property", seed=1):
    """A game whose seat 0 acts first (Property's seed 1), bound to the key's player by default."""
    body = {
        "title": title,
        "seed": seed,
        "seats": seats or [{"kind": "human", "player": "me"}, {"kind": "bot"}],
    }
    reply = client.post("/games", json=body, headers=bearer(key) if key else {})
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()


def test_a_player_is_an_id_and_a_key_shown_once_stored_as_a_digest(client, new_player, redis_client):
    player = new_player()
    assert player["id"].startswith("p_") and player["key"].startswith("sk_player_")
    stored = redis_client.hgetall(player_key(player["id"]))
    assert player["key"].encode() not in b"".join([*stored.keys(), *stored.values()])
    digest = stored[b"key_hash"].decode()
    assert redis_client.get(player_by_key(digest)) == player["id"].encode()
    assert new_player()["key"] != player["key"]


def test_a_player_key_plays_the_seat_bound_to_it_as_its_seat_token_does(client, new_player):
    player = new_player()
    created = create_game(client, player["key"])
    game_id, token = created["id"], created["human_seats"][0]["token"]
    as_player = client.get(f"/games/{game_id}", headers=bearer(player["key"])).get_json()
    as_seat = client.get(f"/games/{game_id}", headers=bearer(token)).get_json()
    assert as_player["you"] == 0 and as_player["view"] == as_seat["view"]
    played = client.post(
        f"/games/{game_id}/actions",
        json=first_move(client, game_id, bearer(player["key"])),
        headers=bearer(player["key"]),
    )
    assert played.status_code == 200, played.get_json()
    assert played.get_json()["seat"] == 0
    events = client.get(f"/games/{game_id}/events", headers=bearer(player["key"])).get_json()
    assert events["events"][0]["seat"] == 0 and "move" in events["events"][0]


def test_another_players_key_is_refused_on_every_route_of_the_game(client, new_player):
    owner, other = new_player(), new_player()
    game_id = create_game(client, owner["key"])["id"]
    move = first_move(client, game_id, bearer(owner["key"]))
    headers = bearer(other["key"])
    assert_problem(client.get(f"/games/{game_id}", headers=headers), 403, "player_not_seated")
    assert_problem(client.get(f"/games/{game_id}/moves", headers=headers), 403, "player_not_seated")
    assert_problem(client.get(f"/games/{game_id}/events", headers=headers), 403, "player_not_seated")
    assert_problem(
        client.post(f"/games/{game_id}/actions", json=move, headers=headers), 403, "player_not_seated"
    )
    for route in ("resign", "abort", "leave", "rematch"):
        assert_problem(client.post(f"/games/{game_id}/{route}", headers=headers), 403, "player_not_seated")
    assert_problem(
        client.put(f"/games/{game_id}/webhook", json={"url": "https://example.com/h"}, headers=headers),
        403,
        "player_not_seated",
    )
    # A key no player has: 401 on the game's routes and the player's alike.
    unknown = bearer("sk_player_" + "x" * 43)
    assert_problem(client.get(f"/games/{game_id}", headers=unknown), 401, "invalid_player_key")
    assert_problem(client.get("/players/me/games", headers=unknown), 401, "invalid_player_key")
    # Nothing moved.
    assert client.get(f"/games/{game_id}").get_json()["version"] == 0


def test_two_seats_of_one_player_are_named_with_seat_else_409(client, new_player):
    player = new_player()
    created = create_game(client, player["key"], seats=[{"kind": "human", "player": "me"}] * 2)
    game_id, headers = created["id"], bearer(player["key"])
    assert_problem(client.get(f"/games/{game_id}", headers=headers), 409, "seat_ambiguous")
    assert client.get(f"/games/{game_id}?seat=1", headers=headers).get_json()["you"] == 1
    to_act = client.get(f"/games/{game_id}?seat=0", headers=headers).get_json()["to_act"][0]
    listing = client.get(f"/games/{game_id}/moves?seat={to_act}", headers=headers).get_json()
    played = client.post(
        f"/games/{game_id}/actions?seat={to_act}",
        json={"move": listing["moves"][0]["move"], "version": 0},
        headers=headers,
    )
    assert played.status_code == 200 and played.get_json()["seat"] == to_act
    assert_problem(client.get(f"/games/{game_id}?seat=5", headers=headers), 403, "seat_not_yours")
    assert_problem(client.get(f"/games/{game_id}?seat=x", headers=headers), 422, "invalid_seat")


def test_a_key_in_a_url_is_refused_before_anything_is_read(client, new_player):
    player = new_player()
    game_id = create_game(client, player["key"])["id"]
    for url in (
        f"/games/{game_id}?key={player['key']}",
        f"/players/me/games?token={player['key']}",
        f"/games/{game_id}/moves?x=%73k_player_abc",
    ):
        assert_problem(client.get(url), 400, "key_in_url")


def test_rotation_refuses_the_old_key_at_once_and_the_new_one_works(client, new_player):
    player = new_player()
    game_id = create_game(client, player["key"])["id"]
    rotated = client.post("/players/me/keys", headers=bearer(player["key"]))
    assert rotated.status_code == 201
    new_key = rotated.get_json()["key"]
    assert rotated.get_json()["id"] == player["id"] and new_key != player["key"]
    assert_problem(client.get(f"/games/{game_id}", headers=bearer(player["key"])), 401, "invalid_player_key")
    assert_problem(client.post("/players/me/keys", headers=bearer(player["key"])), 401, "invalid_player_key")
    assert client.get(f"/games/{game_id}", headers=bearer(new_key)).get_json()["you"] == 0
    assert client.get("/players/me/games", headers=bearer(new_key)).status_code == 200


def test_a_deleted_players_seats_play_on_with_their_tokens(client, new_player):
    player = new_player()
    created = create_game(client, player["key"])
    game_id, token = created["id"], created["human_seats"][0]["token"]
    assert client.delete("/players/me", headers=bearer(player["key"])).status_code == 204
    assert_problem(client.get(f"/games/{game_id}", headers=bearer(player["key"])), 401, "invalid_player_key")
    assert_problem(client.delete("/players/me", headers=bearer(player["key"])), 401, "invalid_player_key")
    played = client.post(
        f"/games/{game_id}/actions", json=first_move(client, game_id, bearer(token)), headers=bearer(token)
    )
    assert played.status_code == 200


def test_the_players_routes_want_a_player_key(client):
    created = create_game(client, None, seats=[{"kind": "human"}, {"kind": "bot"}])
    token = bearer(created["human_seats"][0]["token"])
    for method, url in (
        ("get", "/players/me/games"),
        ("post", "/players/me/keys"),
        ("delete", "/players/me"),
    ):
        assert_problem(getattr(client, method)(url), 401, "player_key_required")
        assert_problem(getattr(client, method)(url, headers=token), 401, "player_key_required")


def test_creating_players_is_limited_per_address(settings, redis_client):
    app = api_app(replace(settings, players_per_address=(2, 3600)), redis_client=redis_client)
    client = app.test_client()
    address = {"REMOTE_ADDR": "10.55.{}.{}".format(*__import__("os").urandom(2))}
    assert [client.post("/players", environ_base=address).status_code for _ in range(2)] == [201, 201]
    refused = client.post("/players", environ_base=address)
    assert_problem(refused, 429, "rate_limited")
    assert int(refused.headers["Retry-After"]) > 0


@pytest.mark.parametrize(
    ("seat", "code", "status"),
    [
        ({"kind": "human", "player": "p_somebody"}, "bad_player_binding", 422),
        ({"kind": "bot", "player": "me"}, "bad_player_binding", 422),
        ({"kind": "open", "player": "me"}, "bad_player_binding", 422),
        ({"kind": "open", "player": "p_nobody_at_all"}, "bad_player_binding", 422),
        ({"kind": "human", "player": "someone"}, "invalid_request", 422),
    ],
)
def test_a_seat_bound_the_way_none_can_be_is_refused(client, new_player, seat, code, status):
    player = new_player()
    body = {"title": "property", "seats": [seat, {"kind": "bot"}]}
    reply = client.post("/games", json=body, headers=bearer(player["key"]))
    assert reply.status_code == status, reply.get_json()
    assert reply.get_json()["code"] == code


def test_me_without_a_player_key_is_refused(client):
    body = {"title": "property", "seats": [{"kind": "human", "player": "me"}, {"kind": "bot"}]}
    assert_problem(client.post("/games", json=body), 401, "player_key_required")


def test_no_read_of_a_game_shows_a_player_id(client, new_player):
    ada, bo = new_player(), new_player()
    body = {
        "title": "property",
        "seed": 1,
        "seats": [{"kind": "human", "player": "me"}, {"kind": "human"}],
    }
    created = client.post("/games", json=body, headers=bearer(ada["key"])).get_json()
    game_id = created["id"]
    move = first_move(client, game_id, bearer(ada["key"]))
    assert client.post(f"/games/{game_id}/actions", json=move, headers=bearer(ada["key"])).status_code == 200
    invitation = client.post(
        "/games",
        json={"title": "property", "seats": [{"kind": "human"}, {"kind": "open", "player": bo["id"]}]},
    ).get_json()
    client.post(f"/games/{invitation['id']}/join", headers=bearer(bo["key"]))
    for game, player in ((game_id, ada), (invitation["id"], bo)):
        versions = ["/versions/0", "/versions/1", "/versions/1/board.txt", "/versions/1/board.svg"]
        for path in ("", "/moves", "/events", "/board.txt", "/board.svg", *versions):
            for headers in ({}, bearer(player["key"])):
                shown = client.get(f"/games/{game}{path}", headers=headers)
                assert shown.status_code == 200, (path, shown.get_data(as_text=True))
                assert player["id"] not in shown.get_data(as_text=True), (game, path)
    assert ada["id"] not in client.get("/lobby").get_data(as_text=True)


def test_a_player_key_is_rate_limited_as_one_token_across_its_games(settings, redis_client):
    app = api_app(replace(settings, rate_limit_per_token=(4, 60)), redis_client=redis_client)
    client = app.test_client()
    player = client.post("/players").get_json()
    headers = bearer(player["key"])
    mine = [create_game(client, player["key"])["id"] for _ in range(2)]  # counted: 2 requests
    assert [client.get(f"/games/{g}", headers=headers).status_code for g in mine] == [200, 200]
    refused = client.get(f"/games/{mine[0]}/moves", headers=headers)
    assert_problem(refused, 429, "rate_limited")
    assert int(refused.headers["Retry-After"]) > 0
    # Another key counts on its own (and holds no seat of this game).
    assert (
        client.get(f"/games/{mine[0]}", headers=bearer(client.post("/players").get_json()["key"])).status_code
        == 403
    )


def test_versions_seat_with_a_player_key_is_the_documented_seat_view(client, new_player):
    """``versions/{n}?seat=k``: once the game is finished, seat k's public view whatever the
    credential (a player key's too, not a 403); while it runs, a player key names one of its own
    seats there as everywhere (that seat's private view), and any other seat is refused as a
    ``?seat=`` of a running game is: no seat's hidden view reaches another."""
    ada, bo = new_player(), new_player()
    seats = [{"kind": "human", "player": "me"}, {"kind": "human"}]
    running = create_game(client, ada["key"], seats=seats)
    game_id, token = running["id"], running["human_seats"][0]["token"]
    own = client.get(f"/games/{game_id}/versions/0?seat=0", headers=bearer(ada["key"]))
    by_token = client.get(f"/games/{game_id}/versions/0", headers=bearer(token))
    assert own.status_code == 200 and own.data == by_token.data and own.get_json()["you"] == 0
    assert own.headers["Cache-Control"].startswith("private")
    other = client.get(f"/games/{game_id}/versions/0?seat=1", headers=bearer(ada["key"]))
    assert_problem(other, 409, "seat_view_while_running")
    assert_problem(
        client.get(f"/games/{game_id}/versions/0?seat=0", headers=bearer(bo["key"])),
        409,
        "seat_view_while_running",
    )

    finished = create_game(client, ada["key"], seats=seats)
    other_seat = bearer(finished["human_seats"][1]["token"])
    assert (
        client.post(f"/games/{finished['id']}/resign", headers=other_seat).get_json()["status"] == "finished"
    )
    for seat in (0, 1):
        path = f"/games/{finished['id']}/versions/1?seat={seat}"
        public = client.get(path)
        assert public.status_code == 200 and public.get_json()["you"] == seat
        for key in (ada["key"], bo["key"]):  # bound to the game or not: the key is ignored
            shown = client.get(path, headers=bearer(key))
            assert shown.status_code == 200, shown.get_json()
            assert shown.data == public.data and shown.headers["ETag"] == public.headers["ETag"]
            assert shown.headers["Cache-Control"].startswith("public")
