"""Seeks in-process, on the session's Redis: matching, windows, cancel, expiry, cap, refusals, leaks.

Each test seeks with a clock of its own (a turn length drawn for it): seeks of other tests, in the
same Redis, are of another kind and never meet its own.
"""

from __future__ import annotations

import secrets
import threading
import time
from typing import Any

import pytest

from service.http.services import services

from .conftest import bearer


def a_kind() -> dict[str, Any]:
    return {"title": "property", "seats": 3, "clock": {"turn_seconds": 1000 + secrets.randbelow(10**6)}}


def seek(client, player: dict, body: dict) -> Any:
    return client.post("/seeks", json=body, headers=bearer(player["key"]))


def test_three_seeks_make_one_game_with_every_seeker_seated(client) -> None:
    kind = a_kind()
    players = [client.post("/players").get_json() for _ in range(3)]
    first = seek(client, players[0], kind)
    assert (
        first.status_code == 201
        and first.get_json()["status"] == "waiting"
        and first.get_json()["game"] is None
    )
    assert seek(client, players[1], kind).get_json()["status"] == "waiting"
    third = seek(client, players[2], kind).get_json()
    assert third["status"] == "matched"
    game_id = third["game"]
    for player, reply in zip(players, (first.get_json(), None, third), strict=False):
        if reply is not None:
            again = client.get(f"/seeks/{reply['id']}", headers=bearer(player["key"])).get_json()
            assert again["status"] == "matched" and again["game"] == game_id
        mine = client.get("/players/me/games", headers=bearer(player["key"])).get_json()["games"]
        assert [g["id"] for g in mine] == [game_id] and len(mine[0]["my_seats"]) == 1
    game = client.get(f"/games/{game_id}").get_json()
    assert game["status"] == "active" and [s["kind"] for s in game["seats"]] == ["human"] * 3
    assert game["clock"]["turn_seconds"] == kind["clock"]["turn_seconds"]
    # Listed as its seeker's own, and nobody else's.
    listed = client.get("/seeks", headers=bearer(players[0]["key"])).get_json()["seeks"]
    assert [s["id"] for s in listed] == [first.get_json()["id"]]
    assert client.get(f"/seeks/{third['id']}", headers=bearer(players[0]["key"])).status_code == 404
    for text in (
        first.get_data(as_text=True),
        client.get("/seeks", headers=bearer(players[0]["key"])).get_data(as_text=True),
    ):
        assert "sk_player" not in text and "token" not in text


def test_incompatible_seeks_never_meet(client) -> None:
    kind = a_kind()
    players = [client.post("/players").get_json() for _ in range(6)]
    other_options = {**kind, "options": {"bankruptcies_to_end": 2}}
    other_seats = {**kind, "seats": 4}
    narrow = {**kind, "rating_window": [10, 20]}  # a newcomer's rating (0) is outside it
    unrated_vs_rated = {**kind, "rated": True}
    for player, body in zip(
        players, (kind, other_options, other_seats, narrow, unrated_vs_rated, kind), strict=True
    ):
        assert seek(client, player, body).get_json()["status"] == "waiting"


def test_a_cancelled_or_expired_seek_is_never_matched(client, app) -> None:
    kind = a_kind()
    players = [client.post("/players").get_json() for _ in range(6)]
    cancelled = seek(client, players[0], kind).get_json()
    assert client.delete(f"/seeks/{cancelled['id']}", headers=bearer(players[0]["key"])).status_code == 204
    assert client.delete(f"/seeks/{cancelled['id']}", headers=bearer(players[0]["key"])).status_code == 409
    assert (
        client.get(f"/seeks/{cancelled['id']}", headers=bearer(players[0]["key"])).get_json()["status"]
        == "cancelled"
    )
    seeks = services(app).seeks
    body = {
        **kind,
        "options": {},
        "clock": {
            "turn_seconds": kind["clock"]["turn_seconds"],
            "on_timeout": "stand_in",
            "timeouts_to_resign": 3,
        },
    }
    expired = seeks.seek(players[1]["id"], body, now=time.time() - 3600)
    assert seeks.read(players[1]["id"], expired["id"])["status"] == "expired"
    assert seek(client, players[2], kind).get_json()["status"] == "waiting"
    assert seek(client, players[3], kind).get_json()["status"] == "waiting"  # not with 0 nor 1
    matched = seek(client, players[4], kind).get_json()
    assert matched["status"] == "matched"
    seated = {s.get("player") for s in services(app).games.read(matched["game"]).meta["seats"]}
    assert seated == {players[2]["id"], players[3]["id"], players[4]["id"]}
    again = client.get(f"/seeks/{cancelled['id']}", headers=bearer(players[0]["key"])).get_json()
    assert again["status"] == "cancelled" and again["game"] is None
    assert client.delete(f"/seeks/{again['id']}", headers=bearer(players[5]["key"])).status_code == 404


def test_a_player_holds_three_waiting_seeks_per_title_and_never_meets_itself(client) -> None:
    kind = a_kind()
    ada = client.post("/players").get_json()
    for _ in range(3):
        assert seek(client, ada, kind).get_json()["status"] == "waiting"
    refused = seek(client, ada, kind)
    assert refused.status_code == 429 and refused.get_json()["code"] == "too_many_seeks"
    assert len(client.get("/seeks", headers=bearer(ada["key"])).get_json()["seeks"]) == 3


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"title": "chess", "seats": 3},
        {"title": "property"},
        {"title": "property", "seats": "3"},
        {"title": "property", "seats": 1},
        {"title": "property", "seats": 99},
        {"title": "property", "seats": 3, "rated": "yes"},
        {"title": "property", "seats": 3, "rating_window": [5, 1]},
        {"title": "property", "seats": 3, "rating_window": [1]},
        {"title": "property", "seats": 3, "rating_window": ["a", "b"]},
        {"title": "property", "seats": 3, "options": {"no_such_option": 1}},
        {"title": "property", "seats": 3, "clock": {"turn_seconds": 1}},
        {"title": "property", "seats": 3, "extra": 1},
        [1, 2],
        "text",
    ],
)
def test_hostile_bodies_are_refused_and_change_nothing(client, body) -> None:
    ada = client.post("/players").get_json()
    reply = client.post("/seeks", json=body, headers=bearer(ada["key"]))
    assert 400 <= reply.status_code < 500 and reply.mimetype == "application/problem+json", reply.get_data()
    assert client.get("/seeks", headers=bearer(ada["key"])).get_json() == {"seeks": []}


def test_seeks_take_a_player_key(client) -> None:
    assert client.post("/seeks", json=a_kind()).status_code == 401
    assert client.get("/seeks").status_code == 401
    assert client.get("/seeks/seek-property-00", headers=bearer("sk_player_nope")).status_code == 401
    ada = client.post("/players").get_json()
    for url in ("/seeks/nothing", "/seeks/seek-chess-00", "/seeks/seek-property-00"):
        assert client.get(url, headers=bearer(ada["key"])).status_code == 404
        assert client.delete(url, headers=bearer(ada["key"])).status_code == 404


def test_seeks_at_once_form_whole_games_with_no_player_twice(client, app) -> None:
    """60 seeks of 3-seat games at once, in threads, through the use case: 20 games."""
    kind = a_kind()
    body = {
        **kind,
        "options": {},
        "clock": {**kind["clock"], "on_timeout": "stand_in", "timeouts_to_resign": 3},
    }
    seeks = services(app).seeks
    players = [client.post("/players").get_json()["id"] for _ in range(61)]
    replies: list[dict] = []
    lock = threading.Lock()

    def one(player: str) -> None:
        reply = seeks.seek(player, body)
        with lock:
            replies.append(reply)

    threads = [threading.Thread(target=one, args=(player,)) for player in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    final = [(owner, seeks.read(owner, reply["id"])) for owner, reply in _owners(seeks, players, replies)]
    games: dict[str, list[str]] = {}
    for player, shown in final:
        if shown["status"] == "matched":
            games.setdefault(shown["game"], []).append(player)
    assert len(games) == 20 and sum(1 for _, shown in final if shown["status"] == "waiting") == 1
    for game_id, seated in games.items():
        assert len(seated) == 3 == len(set(seated))
        assert client.get(f"/games/{game_id}").get_json()["status"] == "active"


def _owners(seeks, players, replies):  # type: ignore[no-untyped-def]
    """Each reply's seeker: the one whose own seeks list it."""
    owned = {}
    for player in players:
        for shown in seeks.mine(player)["seeks"]:
            owned[shown["id"]] = player
    return [(owned[reply["id"]], reply) for reply in replies]
