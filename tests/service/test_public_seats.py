"""One projection of a seat for every reader: a game, its record and the lobby show the same seat
(service.play.games.public_seat), its secrets dropped and a resignation said as `true`."""

from __future__ import annotations

import orjson

from service.play.games import public_seat
from service.store.records import SeatRecord

from .test_api import bearer
from .test_seats import create_open, join


def test_a_seat_shows_no_secret_and_says_only_that_it_resigned():
    stand_in: SeatRecord = {
        "seat": 2,
        "kind": "bot",
        "name": "Cy",
        "bot": "greedy",
        "level": "greedy",
        "resigned": 2,
        "token_hash": "ab" * 32,
    }
    # The bytes as the replies always sent them: the stored order, the secrets left out.
    assert orjson.dumps(public_seat(stand_in)) == (
        b'{"seat":2,"kind":"bot","name":"Cy","bot":"greedy","level":"greedy","resigned":true}'
    )
    joined: SeatRecord = {
        "seat": 1,
        "kind": "human",
        "name": "Bo",
        "invited": "Bob",
        "reserved_for": "cd" * 32,
        "token_hash": "ef" * 32,
    }
    assert orjson.dumps(public_seat(joined)) == b'{"seat":1,"kind":"human","name":"Bo"}'
    two_seat_resignation: SeatRecord = {"seat": 0, "kind": "human", "token_hash": "12" * 32, "resigned": 1}
    assert public_seat(two_seat_resignation) == {"seat": 0, "kind": "human", "resigned": True}
    assert public_seat({"seat": 3, "kind": "open"}) == {"seat": 3, "kind": "open"}


def test_the_game_its_record_and_the_lobby_show_the_same_seats(client):
    listed = create_open(
        client,
        seats=[{"kind": "human", "name": "Ada"}, {"kind": "open", "name": "Bo"}, {"kind": "bot"}],
        listed=True,
    )
    lobby = client.get("/lobby").get_json()["games"]
    (entry,) = [game for game in lobby if game["id"] == listed["id"]]
    shown = client.get(f"/games/{listed['id']}").get_json()
    assert (
        entry["seats"]
        == shown["seats"]
        == [
            {"seat": 0, "kind": "human", "name": "Ada"},
            {"seat": 1, "kind": "open", "name": "Bo"},
            {"seat": 2, "kind": "bot", "bot": shown["seats"][2]["bot"], "level": shown["seats"][2]["level"]},
        ]
    )
    # Two seats, one resigns: the game is over at once and its record shows what the game shows.
    game = create_open(client, seats=[{"kind": "human", "name": "Ada"}, {"kind": "open"}])
    taken = join(client, game["id"], name="Bo").get_json()
    assert client.post(f"/games/{game['id']}/resign", headers=bearer(taken["token"])).status_code == 200
    shown = client.get(f"/games/{game['id']}").get_json()
    record = client.get(f"/games/{game['id']}/record").get_json()
    assert shown["status"] == "finished"
    assert (
        record["seats"]
        == shown["seats"]
        == [
            {"seat": 0, "kind": "human", "name": "Ada"},
            {"seat": 1, "kind": "human", "name": "Bo", "resigned": True},
        ]
    )
