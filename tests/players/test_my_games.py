"""My games, in-process: the order, the counts, the filters, the pages, the round trips, the leaks."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

import pytest
import redis

from tests.service.test_api import assert_problem

from .conftest import bearer

CLOCK_60 = {"turn_seconds": 60}
PUBLIC_SEAT_KEYS = {"seat", "kind", "name", "bot", "level", "resigned"}


def create(client, key, title, seed=None, clock=None, seats=None):
    body = {"title": title, "seats": seats or [{"kind": "human", "player": "me"}, {"kind": "human"}]}
    if seed is not None:
        body["seed"] = seed
    if clock is not None:
        body["clock"] = clock
    reply = client.post("/games", json=body, headers=bearer(key) if key else {})
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()


@pytest.fixture
def a_players_games(client, new_player):
    """Ada's games: two of her turns with deadlines (60 s, 600 s), one of her turn without, one of
    the other seat's turn, one waiting for a player, one invitation; of three titles."""
    ada = new_player()
    key = ada["key"]
    games = {
        "turn_60s": create(client, key, "property", seed=1, clock=CLOCK_60),
        "turn_600s": create(client, key, "fresh-fish", seed=2, clock={"turn_seconds": 600}),
        "turn": create(client, key, "new-york", seed=0),
        "theirs": create(client, key, "property", seed=0),
    }
    time.sleep(0.01)
    games["waiting"] = create(
        client, key, "property", seats=[{"kind": "human", "player": "me"}, {"kind": "open"}]
    )
    games["invitation"] = create(
        client, None, "fresh-fish", seats=[{"kind": "human"}, {"kind": "open", "player": ada["id"]}]
    )
    return ada, games


def test_the_most_urgent_first_and_the_counts(client, a_players_games):
    ada, games = a_players_games
    reply = client.get("/players/me/games", headers=bearer(ada["key"]))
    assert reply.status_code == 200, reply.get_json()
    body = reply.get_json()
    order = ["turn_60s", "turn_600s", "turn", "waiting", "theirs", "invitation"]
    assert [g["id"] for g in body["games"]] == [games[name]["id"] for name in order]
    assert body["counts"] == {"my_turn": 3, "active": 4, "invitations": 1}
    assert body["next"] is None
    shown = {g["id"]: g for g in body["games"]}
    first = shown[games["turn_60s"]["id"]]
    assert first["my_turn"] is True and first["my_seats"] == [0] and first["status"] == "active"
    assert first["title"] == "property" and first["version"] == 0 and first["my_deadline"].endswith("Z")
    assert shown[games["turn"]["id"]]["my_deadline"] is None
    theirs = shown[games["theirs"]["id"]]
    assert theirs["my_turn"] is False and theirs["to_act"] == [1]
    invitation = shown[games["invitation"]["id"]]
    assert (
        invitation["invitation"] is True
        and invitation["my_seats"] == []
        and invitation["invited_seats"] == [1]
    )
    assert shown[games["waiting"]["id"]]["status"] == "waiting"


def test_filters_by_status_and_title(client, a_players_games):
    ada, games = a_players_games
    headers = bearer(ada["key"])
    waiting = client.get("/players/me/games?status=waiting", headers=headers).get_json()
    assert {g["id"] for g in waiting["games"]} == {games["waiting"]["id"], games["invitation"]["id"]}
    fish = client.get("/players/me/games?title=fresh-fish", headers=headers).get_json()
    assert [g["id"] for g in fish["games"]] == [games["turn_600s"]["id"], games["invitation"]["id"]]
    assert fish["counts"] == {"my_turn": 3, "active": 4, "invitations": 1}  # over all my live games
    assert_problem(client.get("/players/me/games?status=lost", headers=headers), 422, "invalid_request")


def test_pages_follow_each_other_without_repeats(client, a_players_games):
    ada, _ = a_players_games
    headers = bearer(ada["key"])
    whole = [g["id"] for g in client.get("/players/me/games", headers=headers).get_json()["games"]]
    seen: list[str] = []
    cursor = None
    while True:
        url = "/players/me/games?limit=4" + (f"&cursor={cursor}" if cursor else "")
        page = client.get(url, headers=headers).get_json()
        seen += [g["id"] for g in page["games"]]
        cursor = page["next"]
        if cursor is None:
            break
    assert seen == whole
    assert_problem(
        client.get("/players/me/games?cursor=bm90LWEtY3Vyc29y", headers=headers), 422, "bad_cursor"
    )


def test_my_games_shows_no_hidden_fact_no_token_and_no_player_id(client, new_player, a_players_games):
    ada, games = a_players_games
    text = client.get("/players/me/games", headers=bearer(ada["key"])).get_data(as_text=True)
    for created in games.values():
        for seat in created["human_seats"]:
            assert seat["token"] not in text
    assert "token" not in text and "hash" not in text and ada["id"] not in text and "view" not in text
    for game in client.get("/players/me/games", headers=bearer(ada["key"])).get_json()["games"]:
        assert all(set(seat) <= PUBLIC_SEAT_KEYS for seat in game["seats"])
        # What a spectator's read of the game shows of its seats, and nothing more.
        assert game["seats"] == client.get(f"/games/{game['id']}").get_json()["seats"]
    # Another player sees none of Ada's games.
    other = client.get("/players/me/games", headers=bearer(new_player()["key"])).get_json()
    assert other == {"games": [], "counts": {"my_turn": 0, "active": 0, "invitations": 0}, "next": None}


def test_a_move_changes_whose_turn_it_is(client, a_players_games):
    ada, games = a_players_games
    game_id = games["turn"]["id"]
    listing = client.get(f"/games/{game_id}/moves", headers=bearer(ada["key"])).get_json()
    played = client.post(
        f"/games/{game_id}/actions",
        json={"move": listing["moves"][0]["move"], "version": 0},
        headers=bearer(ada["key"]),
    )
    assert played.status_code == 200
    body = client.get("/players/me/games", headers=bearer(ada["key"])).get_json()
    shown = {g["id"]: g for g in body["games"]}[game_id]
    assert shown["my_turn"] == (0 in played.get_json()["to_act"]) and shown["last_move_at"].endswith("Z")
    assert shown["version"] == 1


@contextlib.contextmanager
def round_trips() -> Iterator[list[int]]:
    """Count what redis-py sends: one packed send per command, or per pipeline."""
    sent = [0]
    original = redis.connection.AbstractConnection.send_packed_command

    def counting(self, command, check_health=True):
        sent[0] += 1
        return original(self, command, check_health)

    redis.connection.AbstractConnection.send_packed_command = counting
    try:
        yield sent
    finally:
        redis.connection.AbstractConnection.send_packed_command = original


def round_trips_of_a_read(client, new_player, counts: tuple[int, ...] = (3, 40)) -> dict[int, int]:
    """The round trips of one "my games" read, for a player of each count of games."""
    counted = {}
    for count in counts:
        player = new_player()
        for index in range(count):
            create(client, player["key"], ("property", "fresh-fish", "new-york")[index % 3])
        client.get("/players/me/games", headers=bearer(player["key"]))  # scripts loaded, pools warm
        with round_trips() as sent:
            reply = client.get("/players/me/games", headers=bearer(player["key"]))
        assert reply.status_code == 200 and len(reply.get_json()["games"]) == count
        counted[count] = sent[0]
    return counted


def test_a_read_costs_the_same_round_trips_for_3_games_and_for_40(client, new_player):
    counted = round_trips_of_a_read(client, new_player)
    assert counted[3] == counted[40] <= 4, counted
