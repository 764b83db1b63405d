"""Issue 62: a deployment of the release before the compact forms — live games in Redis whose
log entries are whole JSON, ended games in the archive's tables of 0001-0002 (a row per version) —
is migrated by starting `skyline serve` on its data folder, with no game lost and no reply changed.

The games are played in this process, on the Redis and the PostgreSQL of the data folder that
`skyline serve` then takes over; every reply is recorded then (the live games' and the ended
games', while Redis still held them), the games are rewritten in the previous release's forms (the
live logs' entries whole, with their events; the ended games moved to the old tables, as that
release's archiver wrote them, and let go by Redis), and the servers stopped. The real supervisor
then starts on that folder: it migrates the archive (0003 onwards and the data step) before any
child starts, and every reply read over HTTP is the bytes recorded."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import orjson
import psycopg
import pytest
import redis
import requests

from engines import registry
from harness.old_archive import OLD_TABLES, old_migrations, write_old_form
from service.archive.schema import migrate
from service.config import Settings
from service.http.services import services
from service.play.archiving import archived_game, with_whole_log
from service.play.games import Games
from service.run.embedded import EmbeddedRedis
from service.run.postgres import EmbeddedPostgres
from service.store.archiving import ArchiveDue
from service.store.keys import ARCHIVE_DUE, game_key, index_of, log_key
from skyline.web import api_app

pytestmark = pytest.mark.xdist_group("supervisor")

LIVE_MOVES = 12
# An ended game of two seats is resigned after this many moves (random New York games can go on
# for thousands); one of more seats is played to its end.
RESIGNED_AFTER = 120
MAX_MOVES = 3000


def played(http, games: Games, title: str, rng: random.Random, live: bool) -> tuple[str, dict[int, str]]:
    """A game of ``title``, every seat a human's: ``LIVE_MOVES`` random moves in, or ended (played
    to its end; of two seats, resigned by seat 0 after ``RESIGNED_AFTER`` moves if still on)."""
    engine = registry.get(title)
    created = games.create({"title": title, "seats": [{"kind": "human"}] * engine.min_seats})
    game_id = created["id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["human_seats"]}
    resigns = not live and len(tokens) == 2
    for _ in range(LIVE_MOVES if live else RESIGNED_AFTER if resigns else MAX_MOVES):
        stored, state = games._load(game_id)
        if stored.status != "active":
            break
        seat = state.to_act()[0]
        games.act(game_id, tokens[seat], rng.choice(state.legal_moves(seat)), stored.version, wake_bots=False)
    if resigns and games.read(game_id).status == "active":
        resigned = http.post(f"/games/{game_id}/resign", headers={"Authorization": f"Bearer {tokens[0]}"})
        assert resigned.status_code == 200, resigned.get_data()
    return game_id, tokens


def reads(
    game_id: str, tokens: dict[int, str], version: int, ended: bool
) -> list[tuple[str, dict[str, str]]]:
    """The reads compared, by a spectator and a seat: the game, its events, some versions, the
    moves; for an ended game, its event stream (a live game's stays open) and its record."""
    seat = {"Authorization": f"Bearer {tokens[0]}"}
    found: list[tuple[str, dict[str, str]]] = [(f"/games/{game_id}/moves", seat)]
    for headers in ({}, seat):
        found += [(f"/games/{game_id}", headers), (f"/games/{game_id}/events", headers)]
        found += [(f"/games/{game_id}/versions/{n}", headers) for n in sorted({0, 1, version // 2, version})]
        if ended:
            stream = {**headers, "Accept": "text/event-stream", "Last-Event-ID": "2"}
            found.append((f"/games/{game_id}/events", stream))
    return [*found, (f"/games/{game_id}/record", {})] if ended else found


def test_a_previous_release_deployment_is_migrated_by_serve_with_no_game_lost_nor_reply_changed(
    serves, tmp_path: Path
) -> None:
    serve = serves()
    data_dir = serve.data_dir
    redis_server = EmbeddedRedis(data_dir).start()
    postgres = EmbeddedPostgres(data_dir, settings={"fsync": "off"}).start()
    expected: dict[tuple[str, str], bytes] = {}
    live: list[str] = []
    ended: list[str] = []
    try:
        assert migrate(postgres.url, old_migrations(tmp_path / "old")) == [1, 2]
        client = redis.Redis.from_url(redis_server.url)
        settings = replace(Settings.from_env(), redis_url=redis_server.url, database_url=None)
        app = api_app(settings, redis_client=client, enqueue_bots=False)
        games = services(app).games
        http = app.test_client()
        rng = random.Random(62)
        for title in sorted(registry.GAMES):
            for is_live, kept in ((True, live), (False, ended)):
                game_id, tokens = played(http, games, title, rng, is_live)
                kept.append(game_id)
                for path, headers in reads(game_id, tokens, games.read(game_id).version, not is_live):
                    reply = http.get(path, headers=headers)
                    assert reply.status_code == 200, (path, reply.get_data()[:200])
                    expected[(path, orjson.dumps(headers).decode())] = reply.get_data()
        assert all(games.read(game_id).status == "finished" for game_id in ended)
        assert all(games.read(game_id).status == "active" for game_id in live)

        # The previous release's forms. Live: every entry whole, as JSON.
        for game_id in live:
            whole = [orjson.dumps(entry) for entry in games.log(games.read(game_id))]
            assert whole and all(entry.startswith(b"{") for entry in whole)
            pipe = client.pipeline(transaction=True)
            pipe.delete(log_key(game_id))
            pipe.rpush(log_key(game_id), *whole)
            pipe.execute()
        # Ended: in the old tables, as its archiver wrote them, and gone from Redis.
        due = ArchiveDue(client)
        old_form = []
        for game_id in ended:
            found = due.read(game_id)
            assert found is not None
            old_form.append(with_whole_log(archived_game(found)))
            client.delete(game_key(game_id), log_key(game_id))
            client.zrem(index_of(ARCHIVE_DUE, game_id), game_id)
        write_old_form(postgres.url, old_form)
        services(app).games.repository.close()
        client.close()
    finally:
        redis_server.stop()
        postgres.stop()

    serve.start()
    url = serve.database_url()
    with psycopg.connect(url) as connection:
        for table in OLD_TABLES:
            assert connection.execute(f"SELECT count(*) FROM {table}".encode()).fetchone() == (0,), table
        archived = {row[0] for row in connection.execute("SELECT id FROM ended_games").fetchall()}
    assert archived == set(ended), "every ended game moved to the compact form, none lost"
    changed = []
    for (path, headers), body in expected.items():
        reply = requests.get(serve.url + path, headers=orjson.loads(headers), timeout=10)
        assert reply.status_code == 200, (path, reply.text[:200])
        if reply.content != body:
            changed.append(path)
    assert not changed, changed
