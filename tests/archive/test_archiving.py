"""Issue 54, point 2: every game that ends is archived once, and only then leaves Redis.

Games are played to their end (and aborted) through the app on a real Redis; the worker's
archiver (worker/archiver.py) writes them to a real PostgreSQL. Checked in both: the rows (once),
the game's keys in Redis (marked ``archived``, expiring after the grace), the due set.
"""

from __future__ import annotations

import time
from pathlib import Path

import orjson
import psycopg

from service.archive.archive import Archive
from service.http.services import services
from service.play.archiving import archived_game, replayed_snapshots, with_whole_log
from service.run.postgres import EmbeddedPostgres
from service.store.archiving import ArchiveDue
from service.store.keys import ARCHIVE_DUE, game_key, index_keys, index_of, log_key
from service.store.logform import decoded
from service.store.partitioned import PartitionedIndex
from worker.archiver import MAX_RETRY_SECONDS, Archiver

from ..service.test_api import _play_to_the_end, bearer, create, tokens
from .conftest import GRACE


def rows(url: str, game_id: str) -> dict[str, int]:
    with psycopg.connect(url) as connection:
        return {
            table: connection.execute(
                f"SELECT count(*) FROM {table} WHERE {column} = %s", (game_id,)
            ).fetchone()[0]  # type: ignore[index]
            for table, column in (("ended_games", "id"), ("ended_seats", "game_id"))
        }


def finished_game(client) -> str:
    created = create(client, seed=11)
    _play_to_the_end(client, created["id"], tokens(created))
    return created["id"]


def test_a_finished_and_an_aborted_game_are_archived_once_then_expire_after_the_grace(
    client, redis_client, archiver: Archiver, database_url: str
) -> None:
    finished = finished_game(client)
    waiting = create(client, seats=[{"kind": "human"}, {"kind": "open"}])
    assert client.post(f"/games/{waiting['id']}/abort", headers=bearer(tokens(waiting)[0])).status_code == 200
    aborted = waiting["id"]
    assert PartitionedIndex(redis_client, ARCHIVE_DUE).size() == 2
    before = redis_client.hgetall(game_key(finished))
    # The log as every reader reads it (each entry whole), which the archive keeps as it is.
    games = services(client.application).games
    log = [orjson.dumps(entry) for entry in games.log(games.read(finished))]

    assert archiver.archive_once() == {"written": 2, "already": 0, "retried": 0, "gone": 0}
    assert PartitionedIndex(redis_client, ARCHIVE_DUE).size() == 0
    for game_id in (finished, aborted):
        assert redis_client.hget(game_key(game_id), "archived") is not None
        assert 0 < redis_client.ttl(game_key(game_id)) <= GRACE
        assert 0 < redis_client.ttl(log_key(game_id)) <= GRACE
    version = int(before[b"version"])
    counted = rows(database_url, finished)
    assert counted == {"ended_games": 1, "ended_seats": 2}
    assert rows(database_url, aborted)["ended_games"] == 1

    with Archive(database_url) as archive:
        record = archive.read_game(finished)
        assert record is not None and record.status == "finished" and record.version == version
        assert record.meta == before[b"meta"], "the meta byte for byte"
        kept = archive.read_log(finished)
        # A move's entry kept compact (its events left to the replay), as Redis kept it...
        assert [entry.entry for entry in kept] == redis_client.lrange(log_key(finished), 0, -1)
        # ...made whole again byte for byte.
        game = archive.stream_games(after_position=0)
        found = next(item.game for item in game if item.game.id == finished)
        assert [entry.entry for entry in with_whole_log(found).log] == log, "the log byte for byte"
        last = archive.snapshot_at_or_before(finished, version)
        assert last is not None and last.state == before[b"state"]
        assert orjson.loads(record.result or b"null")["winners"]
        assert [seat.rank for seat in record.seats] == orjson.loads(record.result or b"")["ranks"]
        aborted_record = archive.read_game(aborted)
        assert aborted_record is not None and aborted_record.status == "aborted"
        assert aborted_record.result is None and aborted_record.started_at is None

    # Redis restored from before the release (an AOF a second old): due again, and a no-op.
    redis_client.zadd(index_of(ARCHIVE_DUE, finished), {finished: time.time()})
    redis_client.hdel(game_key(finished), "archived")
    assert archiver.archive_once()["already"] == 1
    assert rows(database_url, finished) == counted, "nothing written twice"


def test_the_snapshots_are_the_replayed_states_and_end_on_the_stored_one(client, redis_client) -> None:
    finished = finished_game(client)
    ended = ArchiveDue(redis_client).read(finished)
    assert ended is not None
    game = archived_game(ended)
    meta = orjson.loads(ended.meta)
    snapshots, final = replayed_snapshots(meta, [decoded(raw, n) for n, raw in enumerate(ended.log, start=1)])
    assert final == orjson.loads(ended.state)
    assert (
        [s.version for s in game.snapshots]
        == [s.version for s in snapshots]
        == list(range(64, ended.version, 64))  # not the setup's: the engine makes it again
    )
    assert game.all_snapshots()[-1].state == ended.state


def test_a_log_that_does_not_replay_is_archived_with_its_stored_final_state_only(
    client, redis_client, caplog
) -> None:
    finished = finished_game(client)
    ended = ArchiveDue(redis_client).read(finished)
    assert ended is not None
    state = orjson.loads(ended.state)
    state["tampered"] = True  # what a rule changed under a live game would look like
    from dataclasses import replace

    game = archived_game(replace(ended, state=orjson.dumps(state)))
    assert game.snapshots == () and game.final_state == orjson.dumps(state)
    assert "does not replay to its stored state" in caplog.text


def test_postgres_down_keeps_the_game_due_with_a_backoff_then_archives_it_once(
    client, redis_client, data_folder: Path
) -> None:
    redis_client.delete(*index_keys(ARCHIVE_DUE))
    server = EmbeddedPostgres(data_folder, settings={"fsync": "off"}).start()
    from service.archive.schema import migrate

    migrate(server.url)
    server.halt()  # stopped while games end
    finished = finished_game(client)
    archiver = Archiver(
        ArchiveDue(redis_client), server.url, interval_seconds=0, lease_seconds=30, grace_seconds=GRACE
    )
    try:
        started = time.time()
        assert archiver.archive_once()["retried"] == 1
        first_retry = redis_client.zscore(index_of(ARCHIVE_DUE, finished), finished)
        assert first_retry is not None and first_retry >= started + 1
        assert redis_client.ttl(game_key(finished)) == -1, "still in Redis, not expiring"
        before_second = time.time()
        assert archiver.archive_once(now=first_retry + 0.01)["retried"] == 1
        second_retry = redis_client.zscore(index_of(ARCHIVE_DUE, finished), finished)
        assert second_retry >= before_second + 2, "the backoff doubles"
        server.start()
        # The pool reconnects in the background: the game is written at the first pass after that.
        deadline, counts = time.monotonic() + 60, {"written": 0}
        while time.monotonic() < deadline and counts["written"] == 0:
            counts = archiver.archive_once(now=time.time() + MAX_RETRY_SECONDS + 1)
            assert counts["written"] + counts["retried"] == 1, counts
            if counts["written"] == 0:
                time.sleep(0.2)
        assert counts["written"] == 1
        assert rows(server.url, finished)["ended_games"] == 1
        assert redis_client.zscore(index_of(ARCHIVE_DUE, finished), finished) is None
    finally:
        archiver.stop()
        server.stop()


def test_a_claimed_game_is_not_taken_by_a_second_worker_until_its_lease_is_out(redis_client) -> None:
    redis_client.delete(*index_keys(ARCHIVE_DUE))
    due = ArchiveDue(redis_client)
    redis_client.zadd(index_of(ARCHIVE_DUE, "g1"), {"g1": 100.0})
    assert due.claim(now=200.0, lease_seconds=60) == ["g1"]
    assert due.claim(now=201.0, lease_seconds=60) == [], "held by the first worker"
    assert due.claim(now=261.0, lease_seconds=60) == ["g1"], "its worker died: taken again"
    redis_client.delete(*index_keys(ARCHIVE_DUE))
