"""A seat's moves listed once per version (service.play.games.Listings) answer as a fresh listing would.

The listing kept for a game, seat and version is only served while Redis says the game is at
that version, so a move made by another process (another pod, a bot's worker) is seen at once.
"""

from __future__ import annotations

import random

import orjson

from engines import registry
from service.play.games import Games, Listings
from service.store.games import GameStore

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def games_on(redis_client, recent_games=256):
    store = GameStore(redis_client, ttl_seconds=600, finished_ttl_seconds=600)
    return Games(store, recent_games=recent_games)


def count_state_reads(games):
    """How often a listing had to parse the game's state (a listing made, not kept)."""
    made = []
    original = games._restore

    def restore(stored, state):
        made.append(stored.version)
        return original(stored, state)

    games._restore = restore
    return made


def test_a_listing_is_made_once_per_version_and_seat(redis_client):
    games = games_on(redis_client)
    created = games.create({"title": "property", "seats": HUMANS, "seed": 3})
    tokens = {s["seat"]: s["token"] for s in created["human_seats"]}
    made = count_state_reads(games)
    first = games.moves_json(created["id"], tokens[0])
    assert games.moves_json(created["id"], tokens[0]) == first
    assert made == [0], "the second request was answered from the listing kept"
    other = games.moves_json(created["id"], tokens[1])
    spectator = games.moves_json(created["id"], None)
    assert made == [0, 0, 0], "each seat, and a spectator, has its own listing"
    assert orjson.loads(other)["seat"] == 1 and orjson.loads(spectator)["moves"] == []


def test_a_move_made_by_another_process_is_listed_at_once(redis_client):
    """Two API processes on one Redis: what one lists never hides what the other committed."""
    here, there = games_on(redis_client), games_on(redis_client)
    created = here.create({"title": "property", "seats": HUMANS, "seed": 5})
    game_id = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["human_seats"]}
    before = orjson.loads(here.moves_json(game_id, tokens[created["to_act"][0]]))
    seat = created["to_act"][0]
    there.act(game_id, tokens[seat], before["moves"][0]["move"], before["version"])
    after = orjson.loads(here.moves_json(game_id, tokens[seat]))
    assert after["version"] == before["version"] + 1
    assert after == orjson.loads(games_on(redis_client, recent_games=0).moves_json(game_id, tokens[seat]))


def test_listings_kept_or_not_answer_the_same_bytes_through_whole_games(redis_client):
    """Every title played to its end: kept listings against listings made each time, byte for byte."""
    kept, fresh = games_on(redis_client), games_on(redis_client, recent_games=0)
    assert fresh.listings.capacity == 0
    for title in sorted(registry.GAMES):
        game = registry.get(title)
        seats = [{"kind": "human"}] * max(2, game.min_seats)
        created = kept.create({"title": title, "seats": seats, "seed": 11})
        game_id = created["id"]
        tokens = {s["seat"]: s["token"] for s in created["human_seats"]}
        rng = random.Random(title)
        for _ in range(400):
            listings = {}
            for seat, token in [*tokens.items(), (None, None)]:
                listings[seat] = kept.moves_json(game_id, token)
                assert kept.moves_json(game_id, token) == listings[seat] == fresh.moves_json(game_id, token)
            listed = orjson.loads(listings[None])
            if not listed["to_act"]:
                break
            seat = rng.choice(listed["to_act"])
            move = rng.choice(orjson.loads(listings[seat])["moves"])["move"]
            kept.act(game_id, tokens[seat], move, listed["version"])


def test_listings_keep_the_last_ones_up_to_their_capacity():
    listings = Listings(capacity=2)
    listings.put("a", 0, 1, b"a0")
    listings.put("a", 1, 1, b"a1")
    listings.put("b", 0, 4, b"b0")
    assert listings.get("a", 0, 1) is None, "the least recently listed was dropped"
    assert listings.get("a", 1, 1) == b"a1" and listings.get("b", 0, 4) == b"b0"
    assert listings.get("b", 0, 5) is None, "another version is listed anew"
    listings.put("b", 0, 5, b"b0 later")
    assert listings.get("b", 0, 4) is None and listings.get("b", 0, 5) == b"b0 later"
    Listings(capacity=0).put("c", 0, 1, b"c0")
