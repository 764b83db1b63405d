"""A player's finished games from the archive (a real PostgreSQL), and its id dropped when deleted."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace

import psycopg
import pytest

from harness.live import free_port
from service.archive.schema import migrate
from service.http.services import services
from service.run.postgres import EmbeddedPostgres
from service.store.archiving import ArchiveDue
from service.store.keys import ARCHIVE_DUE, game_key, index_keys, log_key
from service.store.players import PlayerStore
from skyline.web import api_app
from tests.archive.conftest import new_database, postgres, redis_server  # noqa: F401  (fixtures: the session's PostgreSQL, a Redis of the module's own)
from tests.conftest import burst_worker
from worker.archiver import Archiver

from .conftest import bearer


@pytest.fixture
def database_url(postgres: EmbeddedPostgres) -> str:  # noqa: F811
    url = new_database(postgres)
    migrate(url)
    return url


@pytest.fixture
def archived_client(settings, redis_client, database_url: str) -> Iterator:
    app = api_app(replace(settings, database_url=database_url), redis_client=redis_client)
    yield app.test_client()
    services(app).games.repository.close()


def finished_by_resignation(client, key: str) -> dict:
    """A game of Ada's (seat 0) that the other seat resigned: finished, Ada first."""
    body = {"title": "property", "seed": 1, "seats": [{"kind": "human", "player": "me"}, {"kind": "human"}]}
    created = client.post("/games", json=body, headers=bearer(key)).get_json()
    other = bearer(created["human_seats"][1]["token"])
    assert client.post(f"/games/{created['id']}/resign", headers=other).get_json()["status"] == "finished"
    return created


def player_ids(url: str, game_id: str) -> list[str | None]:
    with psycopg.connect(url) as connection:
        rows = connection.execute(
            "SELECT player_id FROM ended_seats WHERE game_id = %s ORDER BY seat", (game_id,)
        ).fetchall()
    return [row[0] for row in rows]


def test_finished_games_come_from_the_archive_once_redis_let_them_go(
    archived_client, redis_client, database_url: str
) -> None:
    client = archived_client
    redis_client.delete(*index_keys(ARCHIVE_DUE))
    ada = client.post("/players").get_json()
    games = [finished_by_resignation(client, ada["key"]) for _ in range(3)]
    in_redis = client.get("/players/me/games?status=finished", headers=bearer(ada["key"])).get_json()
    archiver = Archiver(
        ArchiveDue(redis_client), database_url, interval_seconds=0, lease_seconds=30, grace_seconds=1
    )
    try:
        assert archiver.archive_once()["written"] == 3
    finally:
        archiver.stop()
    for game in games:
        assert player_ids(database_url, game["id"]) == [ada["id"], None]
    for game in games[:2]:  # the grace is over for two of them
        redis_client.delete(game_key(game["id"]), log_key(game["id"]))
    found = client.get("/players/me/games?status=finished", headers=bearer(ada["key"])).get_json()
    assert [g["id"] for g in found["games"]] == [g["id"] for g in in_redis["games"]]
    for game in found["games"]:
        assert game["my_rank"] == 1 and game["result"]["winners"] == [0] and game["my_seats"] == [0]
    assert found["games"] == in_redis["games"]
    # Pages of one, across Redis and the archive.
    seen, cursor = [], None
    while True:
        url = "/players/me/games?status=finished&limit=1" + (f"&cursor={cursor}" if cursor else "")
        page = client.get(url, headers=bearer(ada["key"])).get_json()
        seen += [g["id"] for g in page["games"]]
        cursor = page["next"]
        if cursor is None:
            break
    assert seen == [g["id"] for g in in_redis["games"]]
    # Deleted, the player's id leaves the archive's seats; the games stay.
    assert client.delete("/players/me", headers=bearer(ada["key"])).status_code == 204
    for game in games:
        assert player_ids(database_url, game["id"]) == [None, None]


def test_a_deletion_while_postgresql_is_away_completes_and_the_archive_forgets_the_id_later(
    archived_client, settings, redis_client, database_url: str
) -> None:
    """DELETE /players/me with the archive unreachable: 204 (not a 500 after the pool's wait),
    the player gone from Redis and entered among those to forget in the same step; the next pass
    of a worker's archiver, PostgreSQL there, drops its id from the archive's seats."""
    client = archived_client
    redis_client.delete(*index_keys(ARCHIVE_DUE))
    ada = client.post("/players").get_json()
    game = finished_by_resignation(client, ada["key"])
    players = PlayerStore(redis_client)
    archiver = Archiver(
        ArchiveDue(redis_client),
        database_url,
        interval_seconds=0,
        lease_seconds=30,
        grace_seconds=1,
        players=players,
    )
    try:
        assert archiver.archive_once()["written"] == 1
        assert player_ids(database_url, game["id"]) == [ada["id"], None]
        away = f"postgresql://skyline@127.0.0.1:{free_port()}/skyline?connect_timeout=1"
        offline = api_app(
            replace(settings, database_url=away, archive_timeout_seconds=0.5), redis_client=redis_client
        )
        try:
            started = time.monotonic()
            deleted = offline.test_client().delete("/players/me", headers=bearer(ada["key"]))
            assert deleted.status_code == 204, deleted.get_json()
            assert time.monotonic() - started < 5
        finally:
            services(offline).games.repository.close()
        assert not players.exists(ada["id"])
        assert client.get("/players/me/games", headers=bearer(ada["key"])).status_code == 401
        assert ada["id"] in players.to_forget()
        assert player_ids(database_url, game["id"]) == [ada["id"], None]  # not yet
        assert archiver.forget_players() >= 1
        assert player_ids(database_url, game["id"]) == [None, None]
        assert ada["id"] not in players.to_forget()
    finally:
        archiver.stop()


def test_a_resigned_seat_keeps_its_player_in_the_archive_and_in_finished_games(
    archived_client,
    redis_client,
    redis_server,  # noqa: F811
    database_url: str,
) -> None:
    """Three seats: the player resigns (a stand-in bot plays on), the others too; once the bots
    played it out and the archive took it, the game is still the player's, with its rank."""
    client = archived_client
    redis_client.delete(*index_keys(ARCHIVE_DUE))
    ada = client.post("/players").get_json()
    body = {
        "title": "property",
        "seed": 1,
        "seats": [{"kind": "human", "player": "me"}, *[{"kind": "human"}] * 2],
    }
    created = client.post("/games", json=body, headers=bearer(ada["key"])).get_json()
    game_id = created["id"]
    assert client.post(f"/games/{game_id}/resign", headers=bearer(ada["key"])).status_code == 200
    for seat in created["human_seats"][1:]:
        assert client.post(f"/games/{game_id}/resign", headers=bearer(seat["token"])).status_code == 200
    assert burst_worker(redis_server.url).returncode == 0
    assert client.get(f"/games/{game_id}").get_json()["status"] == "finished"
    archiver = Archiver(
        ArchiveDue(redis_client), database_url, interval_seconds=0, lease_seconds=30, grace_seconds=1
    )
    try:
        assert archiver.archive_once()["written"] == 1
    finally:
        archiver.stop()
    assert player_ids(database_url, game_id) == [ada["id"], None, None]
    redis_client.delete(game_key(game_id), log_key(game_id))  # Redis let it go: the archive's alone
    found = client.get("/players/me/games?status=finished", headers=bearer(ada["key"])).get_json()
    game = next(game for game in found["games"] if game["id"] == game_id)
    assert game["my_seats"] == [0] and game["my_rank"] == 3
    shown = client.get(f"/games/{game_id}", headers=bearer(ada["key"]))
    assert shown.status_code == 200 and shown.get_json()["you"] == 0
