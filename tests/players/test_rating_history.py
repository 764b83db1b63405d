"""GET /players/{id}/ratings/{title}/history in-process, on a real PostgreSQL: which rated game moved
a rating and by how much, the latest first, by pages; public, nothing of a key or a token; bad
input a clear 4xx that changes nothing."""

# ruff: noqa: F811  (the fixtures imported from test_rated are arguments of the tests)
from __future__ import annotations

from dataclasses import replace

import orjson
import psycopg
import pytest

from harness.rated_games import bot, human, rated_game
from service.archive.archive import Archive
from service.archive.ratings import all_ratings
from service.play.cursors import write_cursor

from .test_rated import database_url, postgres, rated_client, redis_server  # noqa: F401

GAMES = 5


def write_games(url: str) -> None:
    """Ada, Bea and a hard bot: five games of Property, then one of Fresh Fish."""
    with Archive(url) as archive:
        for n in range(GAMES):
            seats = [human(0, "p_ada"), human(1, "p_bea"), bot(2, "hard")]
            assert archive.write_game(rated_game(f"g{n}", seats, [1 + n % 3, 1 + (n + 1) % 3, 3], minutes=n))
        fish = rated_game("fish", [human(0, "p_ada"), human(1, "p_bea")], [2, 1], minutes=GAMES)
        meta = {**orjson.loads(fish.meta), "title": "fresh-fish"}
        assert archive.write_game(replace(fish, meta=orjson.dumps(meta)))


def history(client, who: str, title: str, query: str = "") -> dict:
    reply = client.get(f"/players/{who}/ratings/{title}/history{query}")
    assert reply.status_code == 200, reply.get_json()
    return reply.get_json()


def test_the_history_says_which_game_moved_a_rating_and_by_how_much(rated_client, database_url) -> None:
    write_games(database_url)
    client = rated_client
    whole = history(client, "p_ada", "property")
    assert set(whole) == {"id", "title", "entries", "next"} and whole["next"] is None
    assert (whole["id"], whole["title"]) == ("p_ada", "property")
    entries = whole["entries"]
    assert [e["game"] for e in entries] == [f"g{n}" for n in reversed(range(GAMES))]
    assert {e["seat"] for e in entries} == {0}
    assert entries[0]["ended"] == "2026-12-01T10:04:00Z"
    # Each game starts where the one before left the rating; the latest ends where the rating is.
    for later, earlier in zip(entries, entries[1:], strict=False):
        assert later["before"] == earlier["after"]
    assert entries[-1]["before"]["mu"] == 25.0
    for entry in entries:
        for point in (entry["before"], entry["after"]):
            assert point["rating"] == pytest.approx(point["mu"] - 3 * point["sigma"], abs=1e-12)
        assert entry["change"] == pytest.approx(
            entry["after"]["rating"] - entry["before"]["rating"], abs=1e-12
        )
    now = client.get("/players/p_ada").get_json()["ratings"]["property"]
    assert (entries[0]["after"]["mu"], entries[0]["after"]["sigma"]) == (now["mu"], now["sigma"])
    # By pages of two: the same entries, in the same order.
    paged, query = [], "?limit=2"
    while True:
        page = history(client, "p_ada", "property", query)
        assert len(page["entries"]) <= 2
        paged += page["entries"]
        if page["next"] is None:
            break
        query = f"?limit=2&cursor={page['next']}"
    assert paged == entries
    # Another title is another history; a bot level has one too; a player with no game an empty one.
    assert [e["game"] for e in history(client, "p_bea", "fresh-fish")["entries"]] == ["fish"]
    assert len(history(client, "bot:hard", "property")["entries"]) == GAMES
    assert history(client, "bot:easy", "property")["entries"] == []
    newcomer = client.post("/players").get_json()
    assert history(client, newcomer["id"], "property") == {
        "id": newcomer["id"],
        "title": "property",
        "entries": [],
        "next": None,
    }
    # Public: nothing of a key, a token or a seat's secret.
    text = client.get("/players/p_ada/ratings/property/history").get_data(as_text=True)
    for secret in ("sk_", "token", "key", newcomer["key"]):
        assert secret not in text


BAD_READS = [
    ("/players/p_nobody/ratings/property/history", 404, "player_not_found"),
    ("/players/bot:nolevel/ratings/property/history", 404, None),  # not a rated id: no route
    ("/players/me/ratings/property/history", 404, None),
    (f"/players/p_{'a' * 65}/ratings/property/history", 404, None),
    ("/players/p_ada%00/ratings/property/history", 404, None),
    ("/players/p_ada/ratings/chess/history", 404, "title_not_found"),
    ("/players/p_ada/ratings/property%00/history", 404, "title_not_found"),
    ("/players/p_ada/ratings/property/history?limit=0", 422, None),
    ("/players/p_ada/ratings/property/history?limit=201", 422, None),
    ("/players/p_ada/ratings/property/history?limit=ten", 422, None),
    ("/players/p_ada/ratings/property/history?cursor=", 422, None),
    ("/players/p_ada/ratings/property/history?cursor=made-up", 422, "bad_cursor"),
    (f"/players/p_ada/ratings/property/history?cursor={write_cursor(1.5, 'g1')}", 422, "bad_cursor"),
    (f"/players/p_ada/ratings/property/history?cursor={write_cursor(-3, 'g1')}", 422, "bad_cursor"),
    (f"/players/p_ada/ratings/property/history?cursor={write_cursor(2.0**70, 'g1')}", 422, "bad_cursor"),
    (f"/players/p_ada/ratings/property/history?cursor={'A' * 201}", 422, None),
]


def test_bad_history_reads_are_clear_refusals_that_change_nothing(rated_client, database_url) -> None:
    write_games(database_url)
    with psycopg.connect(database_url) as connection:
        before = all_ratings(connection)
    for path, status, code in BAD_READS:
        reply = rated_client.get(path)
        assert reply.status_code == status, (path, reply.get_data())
        assert reply.mimetype == "application/problem+json" and reply.get_json()["detail"], path
        if code is not None:
            assert reply.get_json()["code"] == code, path
    assert rated_client.post("/players/p_ada/ratings/property/history").status_code == 405
    with psycopg.connect(database_url) as connection:
        assert all_ratings(connection) == before
