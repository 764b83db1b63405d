"""Issue 54, point 3: reads do not change once Redis has let a game go.

Games of every title are played to their end (and one aborted) through the app on a real Redis,
with the archive on a real PostgreSQL; every read is recorded per seat and for the spectator; the
worker's archiver writes them; their keys are then gone from Redis (as after the grace); every read
answers the same bytes from the archive.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from engines import registry
from service.archive.schema import migrate
from service.http.app import create_app
from service.run.postgres import EmbeddedPostgres
from service.store.keys import ARCHIVE_DUE, game_key, log_key
from worker.archiver import Archiver

from ..service.test_api import _play_to_the_end, bearer, create, tokens
from .conftest import new_database

READS = ("", "/events", "/record", "/board.svg", "/board.txt", "/moves")


@pytest.fixture
def database_url(postgres: EmbeddedPostgres) -> str:
    url = new_database(postgres)
    migrate(url)
    return url


@pytest.fixture
def archived_clients(settings, redis_client, database_url: str) -> Iterator:
    """Two apps on the same Redis and archive: the second, started afresh, has nothing kept."""
    apps = [create_app(replace(settings, database_url=database_url), redis_client=redis_client) for _ in "ab"]
    yield [app.test_client() for app in apps]
    for app in apps:
        app.extensions["skyline.games"].archived.close()


def every_read(client, game_id: str, seat_tokens: dict[int, str]) -> dict[tuple[str, int | None], tuple]:
    """Each read of the game as each seat and the spectator get it: status, type and bytes."""
    readers: dict[int | None, dict[str, str]] = {None: {}}
    readers.update({seat: bearer(token) for seat, token in seat_tokens.items()})
    found = {}
    for seat, headers in readers.items():
        for path in READS:
            reply = client.get(f"/games/{game_id}{path}", headers=headers)
            found[(path, seat)] = (reply.status_code, reply.content_type, reply.get_data())
    return found


def test_every_read_of_an_archived_game_answers_the_same_bytes_as_before_it_left_redis(
    archived_clients, redis_client, database_url: str
) -> None:
    client, fresh = archived_clients
    redis_client.delete(ARCHIVE_DUE)
    games: dict[str, dict[int, str]] = {}
    for title in sorted(registry.GAMES):
        seats = [{"kind": "human"}] * registry.get(title).min_seats
        created = create(client, title=title, seats=seats, seed=5)
        _play_to_the_end(client, created["id"], tokens(created))
        games[created["id"]] = tokens(created)
    waiting = create(client, seats=[{"kind": "human"}, {"kind": "open"}])
    assert client.post(f"/games/{waiting['id']}/abort", headers=bearer(tokens(waiting)[0])).status_code == 200
    games[waiting["id"]] = tokens(waiting)
    before = {game_id: every_read(client, game_id, seat_tokens) for game_id, seat_tokens in games.items()}

    archiver = Archiver(redis_client, database_url, interval_seconds=0, lease_seconds=30, grace_seconds=1)
    try:
        assert archiver.archive_once()["written"] == len(games)
    finally:
        archiver.stop()
    for game_id in games:  # the grace is over
        redis_client.delete(game_key(game_id), log_key(game_id))
        assert not redis_client.exists(game_key(game_id), log_key(game_id))

    for game_id, seat_tokens in games.items():
        for reader in (client, fresh):  # the process that served the game, and one that never saw it
            after = every_read(reader, game_id, seat_tokens)
            for read, answer in before[game_id].items():
                assert after[read] == answer, (game_id, read)
    assert fresh.get("/games/never-was").status_code == 404
