"""A seat bound to a player is reserved in the player's slot before the game's script writes it
(store.players.PlayerStore.reserve): no script touches both, as a Redis Cluster needs. The cap
still holds under a race, and a reservation whose binding never came (a crash between the two)
neither shows in "my games" nor holds a place for good."""

from __future__ import annotations

import threading
from dataclasses import replace

import orjson
import pytest

from service.http.services import services
from service.store.games import GameMovedOn
from service.store.keys import game_key, player_games_key, player_live_games_key
from service.store.players import PlayerOverCap, PlayerStore
from service.store.seats import SeatStore
from skyline.web import api_app

from .conftest import bearer

WAITING = {"title": "property", "seats": [{"kind": "human", "player": "me"}, {"kind": "open"}]}


def race(store: PlayerStore, player: str, games: list[str], cap: int) -> tuple[list[str], list[str]]:
    """Reserve each game for the player at once, from a thread each: (passed, refused)."""
    passed: list[str] = []
    refused: list[str] = []
    start = threading.Barrier(len(games))

    def bind(game_id: str) -> None:
        start.wait()
        try:
            store.reserve(player, game_id, cap=cap, capped=True)
            passed.append(game_id)
        except PlayerOverCap:
            refused.append(game_id)

    threads = [threading.Thread(target=bind, args=(game_id,)) for game_id in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return passed, refused


def test_two_bindings_racing_for_the_last_place_cannot_both_pass(redis_client):
    store = PlayerStore(redis_client)
    for round_ in range(20):
        player = f"racer-{round_}"
        games = [f"g{round_}-{n}" for n in range(4)]
        for game_id in games:  # each a live game of the player's once bound
            meta = {"seats": [{"seat": 0, "kind": "human", "player": player}]}
            redis_client.hset(game_key(game_id), mapping={"status": "active", "meta": orjson.dumps(meta)})
        passed, refused = race(store, player, games, cap=2)
        assert len(passed) == 2 and len(refused) == 2, "a cap of two admits two, whatever the order"
        assert {m.decode() for m in redis_client.zrange(player_live_games_key(player), 0, -1)} == set(passed)


def test_a_reservation_left_by_a_crash_shows_nowhere_and_frees_its_place(settings, redis_client):
    app = api_app(replace(settings, live_games_per_player=1), redis_client=redis_client)
    client = app.test_client()
    ada = client.post("/players").get_json()
    # Another player's game: Ada's reservation of it never became a binding (a crash after the
    # reservation, before the game's script).
    other = client.post("/games", json={"title": "property", "seats": [{"kind": "human"}, {"kind": "open"}]})
    orphan = other.get_json()["id"]
    PlayerStore(redis_client).reserve(ada["id"], orphan, cap=1, capped=True)
    assert redis_client.zscore(player_live_games_key(ada["id"]), orphan) is not None
    mine = client.get("/players/me/games", headers=bearer(ada["key"])).get_json()
    assert mine["games"] == [] and mine["counts"]["active"] == 0, "not Ada's game: not shown"
    # Ada's cap of one is not taken by it: the count finds it full, reads the game, drops it.
    created = client.post("/games", json=WAITING, headers=bearer(ada["key"]))
    assert created.status_code == 201, created.get_json()
    assert redis_client.zscore(player_live_games_key(ada["id"]), orphan) is None
    assert [
        g["id"] for g in client.get("/players/me/games", headers=bearer(ada["key"])).get_json()["games"]
    ] == [created.get_json()["id"]]


def test_a_seat_change_that_loses_its_race_takes_its_reservation_back(client, redis_client):
    bo = client.post("/players").get_json()
    game = client.post("/games", json={"title": "property", "seats": [{"kind": "human"}, {"kind": "open"}]})
    game_id = game.get_json()["id"]
    stored = services(client.application).games.store.load(game_id)
    seats = SeatStore(redis_client)
    entry = {"version": stored.version + 1, "seat": 1, "events": [], "at": 0.0}
    with pytest.raises(GameMovedOn):  # a rival committed first: the version moved on
        seats.commit(
            game_id,
            stored.version + 7,
            stored.meta,
            "active",
            entry,
            ttl=60,
            player=bo["id"],
            live_games_cap=5,
        )
    assert redis_client.zscore(player_games_key(bo["id"]), game_id) is None
    assert redis_client.zscore(player_live_games_key(bo["id"]), game_id) is None
