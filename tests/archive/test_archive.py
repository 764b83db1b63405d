"""The archive against a real PostgreSQL: what is written is read back byte for byte, once."""

from __future__ import annotations

import dataclasses
import datetime
import subprocess
import sys
import threading

import orjson
import psycopg
import pytest

from service.archive.archive import Archive
from service.archive.records import (
    ArchivedSeat,
    InvalidArchive,
    LogEntry,
    Snapshot,
    snapshot_versions,
)
from service.archive.schema import migrate
from service.run.postgres import EmbeddedPostgres

from .conftest import ROOT, TABLES, backend_state, new_database, rows_of, start_writer, wait_for, whole
from .games import EPOCH, HAND_WRITTEN, a_game


def test_a_game_reads_back_byte_for_byte(archive: Archive, shared_database: str) -> None:
    game = a_game("round-trip", moves=9)
    assert archive.write_game(game) is True
    record = archive.read_game(game.id)
    assert record is not None
    assert (record.meta, record.result) == (game.meta, game.result)
    assert (record.title, record.rules_version, record.status, record.version) == (
        "property",
        "2",
        "finished",
        9,
    )
    assert (record.created_at, record.started_at, record.ended_at) == (
        game.created_at,
        game.started_at,
        EPOCH,
    )
    assert record.seats == game.seats and record.position >= 1
    log = archive.read_log(game.id)
    assert log == list(game.log)
    assert log[0].entry == HAND_WRITTEN  # spacing, key order, 1.0e0, \/ and \u0000 as they were
    assert b"\\u00e9" not in log[1].entry and "été".encode() in log[1].entry
    exported = [item for item in archive.stream_games() if item.game.id == game.id]
    assert [item.game for item in exported] == [game]
    assert exported[0].position == record.position


def test_writing_again_writes_nothing(archive: Archive, shared_database: str) -> None:
    game = a_game("twice", moves=5)
    assert archive.write_game(game) is True
    assert archive.write_game(game) is False
    assert archive.write_game(dataclasses.replace(game, status="aborted", result=None)) is False
    assert rows_of(shared_database, game.id) == whole(game)
    record = archive.read_game(game.id)
    assert record is not None and record.status == "finished"


def test_twenty_threads_writing_one_game_write_it_once(shared_database: str) -> None:
    game = a_game("crowd", moves=300)
    start = threading.Barrier(20)
    outcomes: list[bool] = []
    errors: list[BaseException] = []

    def write() -> None:
        start.wait()
        try:
            outcomes.append(archive.write_game(game))
        except BaseException as error:  # reported below, not lost in the thread
            errors.append(error)

    with Archive(shared_database, min_size=20, max_size=20) as archive:
        archive.pool.wait(timeout=30)  # every thread has a connection of its own at once
        threads = [threading.Thread(target=write) for _ in range(20)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert not errors
        assert sorted(outcomes) == [False] * 19 + [True]
        assert rows_of(shared_database, game.id) == whole(game)
        assert archive.read_log(game.id) == list(game.log)


def test_log_ranges_and_snapshots(archive: Archive) -> None:
    states = {v: orjson.dumps({"at": v}) for v in range(151)}
    game = dataclasses.replace(
        a_game("long", moves=150),
        snapshots=tuple(Snapshot(v, states[v]) for v in snapshot_versions(150)[:-1]),
        final_state=states[150],
    )
    assert snapshot_versions(150) == [0, 64, 128, 150]
    assert snapshot_versions(0) == [0] and snapshot_versions(128) == [0, 64, 128]
    archive.write_game(game)
    assert [e.version for e in archive.read_log(game.id, 65, 70)] == [65, 66, 67, 68, 69, 70]
    assert archive.read_log(game.id, 150) == [game.log[-1]]
    assert archive.read_log(game.id, 151) == [] and archive.read_log("nobody") == []
    assert archive.read_log(game.id, 3, 3) == [game.log[2]]
    for version, expected in ((0, 0), (63, 0), (64, 64), (100, 64), (149, 128), (150, 150), (9999, 150)):
        snapshot = archive.snapshot_at_or_before(game.id, version)
        assert snapshot == Snapshot(expected, states[expected]), version
    assert archive.snapshot_at_or_before(game.id, -1) is None
    assert archive.snapshot_at_or_before("nobody", 5) is None
    assert archive.read_game("nobody") is None and not archive.has_game("nobody")


def test_games_that_never_finished(archive: Archive) -> None:
    aborted = a_game("aborted", moves=2, status="aborted")
    expired = a_game("expired", moves=0, status="expired")
    assert aborted.result is None and aborted.started_at is None
    assert archive.write_game(aborted) and archive.write_game(expired)
    assert archive.read_log(expired.id) == []
    snapshot = archive.snapshot_at_or_before(expired.id, 0)
    assert snapshot is not None and snapshot.state == expired.final_state
    record = archive.read_game(aborted.id)
    assert record is not None and (record.status, record.result, record.started_at) == ("aborted", None, None)
    assert [seat.rank for seat in record.seats] == [None, None, None]


NAIVE = datetime.datetime(2026, 1, 1)
GOOD = a_game("invalid", moves=3)


def _with_seat_token() -> bytes:
    meta = orjson.loads(GOOD.meta)
    meta["seats"][0]["token"] = "secret"
    return orjson.dumps(meta)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"status": "active"}, "has ended"),
        ({"meta": _with_seat_token()}, "holds a token"),
        ({"meta": b"{not json"}, "not JSON"),
        ({"meta": orjson.dumps({**orjson.loads(GOOD.meta), "title": None})}, "title"),
        ({"log": GOOD.log[:1] + GOOD.log[2:]}, "none missing"),
        ({"log": GOOD.log + (LogEntry(4, b"{}", EPOCH),)}, "none missing"),
        ({"log": (LogEntry(1, b"[", EPOCH), *GOOD.log[1:])}, "Log entry 1 is not JSON"),
        ({"log": (LogEntry(1, b"{}", NAIVE), *GOOD.log[1:])}, "time zone"),
        ({"result": None}, "finished game has a result"),
        ({"ended_at": NAIVE}, "time zone"),
        ({"seats": GOOD.seats[:2]}, "numbered 0..2"),
        ({"seats": (*GOOD.seats[:2], ArchivedSeat(2, "bot", rank=0))}, "rank"),
        ({"snapshots": (Snapshot(3, b'{"other": 1}'),)}, "differs from the final state"),
        ({"snapshots": (Snapshot(7, b"{}"),)}, "versions 0..3"),
        ({"final_state": "{}"}, "as bytes"),
    ],
)
def test_a_game_that_cannot_be_archived_is_refused_with_a_reason(
    archive: Archive, shared_database: str, change: dict[str, object], reason: str
) -> None:
    with pytest.raises(InvalidArchive, match=reason):
        archive.write_game(dataclasses.replace(GOOD, **change))  # type: ignore[arg-type]
    assert rows_of(shared_database, GOOD.id) == dict.fromkeys(TABLES, 0)


def test_postgresql_checks_stand_behind_the_archives(archive: Archive, shared_database: str) -> None:
    """A row the schema refuses is InvalidArchive too, and the transaction leaves nothing."""
    with pytest.raises(InvalidArchive, match="refused"):
        archive.write_game(
            dataclasses.replace(GOOD, seats=(*GOOD.seats[:2], ArchivedSeat(2, "bot", rank=99999)))
        )
    assert rows_of(shared_database, GOOD.id) == dict.fromkeys(TABLES, 0)


def test_an_export_streams_in_order_with_its_filters(postgres: EmbeddedPostgres) -> None:
    url = new_database(postgres)
    migrate(url)
    hour = datetime.timedelta(hours=1)
    games = [
        a_game(f"g{n}", moves=n % 4, title=("property", "new-york")[n % 2], ended_at=EPOCH + n * hour)
        for n in range(12)
    ]
    with Archive(url) as archive:
        for game in games:
            archive.write_game(game)
        exported = list(archive.stream_games(batch=5))
        assert [item.game.id for item in exported] == [game.id for game in games]
        assert [item.game for item in exported] == games
        positions = [item.position for item in exported]
        assert positions == sorted(positions) and len(set(positions)) == 12
        resumed = list(archive.stream_games(after_position=positions[6]))
        assert [item.game.id for item in resumed] == [f"g{n}" for n in range(7, 12)]
        window = archive.stream_games(since=EPOCH + 3 * hour, until=EPOCH + 8 * hour, title="new-york")
        assert [item.game.id for item in window] == ["g3", "g5", "g7"]
        assert list(archive.stream_games(title="fresh-fish")) == []


def test_an_export_holds_one_game_at_a_time_in_memory(postgres: EmbeddedPostgres) -> None:
    """100 games of 400 kB (40 MB: 20 MB in the rows the cursor fetches, 20 MB of logs) stream
    through a process whose memory rises by less than 12 MB: a server-side cursor fetching a
    batch of rows at a time, and one game's log at a time."""
    url = new_database(postgres)
    migrate(url)
    with Archive(url) as archive:
        for n in range(100):
            archive.write_game(a_game(f"big{n}", moves=40, entry_bytes=5000, meta_bytes=200_000))
    done = subprocess.run(
        [sys.executable, "-m", "tests.archive.exporter", url, "10"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    games, entries, risen_kb = map(int, done.stdout.split())
    assert (games, entries) == (100, 4000)
    assert risen_kb < 12_000, f"the export's memory rose by {risen_kb / 1000:.1f} MB"


def test_positions_follow_the_commits_so_a_resumed_export_misses_nothing(postgres: EmbeddedPostgres) -> None:
    """A long write that began first but commits last gets the later position: an export that had
    seen the short game and resumes after its position still finds the long one."""
    url = new_database(postgres)
    migrate(url)
    # The slow writer is held on its seats (the default partition, locked here), written before its
    # game's row; the quick game ended in a month of its own partition, which is not locked.
    holder = psycopg.connect(url)
    holder.execute(
        "CREATE TABLE ended_seats_2020_01 PARTITION OF ended_seats "
        "FOR VALUES FROM ('2020-01-01') TO ('2020-02-01')"
    )
    holder.commit()
    holder.execute("LOCK TABLE ended_seats_default IN SHARE MODE")
    slow = start_writer(url, "slow", 200, "writer-slow")
    try:
        wait_for(
            lambda: (backend_state(url, "writer-slow") or ("", "", ""))[2].startswith(
                "INSERT INTO ended_seats"
            ),
            what="the slow writer's seats",
            process=slow,
        )
        with Archive(url) as archive:
            quick_end = datetime.datetime(2020, 1, 15, tzinfo=datetime.UTC)
            assert archive.write_game(a_game("quick", moves=3, ended_at=quick_end))
            assert not archive.has_game("slow"), "the slow write ended too soon to prove anything"
            first = [item.position for item in archive.stream_games()]
            holder.rollback()  # the lock let go: the slow writer goes on and commits
            assert slow.wait(timeout=120) == 0
            assert slow.stdout is not None and slow.stdout.read().strip() == "wrote"
            later = [item.game.id for item in archive.stream_games(after_position=first[-1])]
            assert later == ["slow"]
    finally:
        holder.close()
        if slow.poll() is None:
            slow.kill()
        slow.communicate()


def test_times_come_back_in_utc_whatever_the_server_says(database: str) -> None:
    migrate(database)
    with psycopg.connect(database, autocommit=True) as connection:
        name = connection.info.dbname
        connection.execute(f"ALTER DATABASE \"{name}\" SET TimeZone = 'Pacific/Auckland'".encode())
    with Archive(database) as archive:
        game = a_game("zones", moves=1)
        archive.write_game(game)
        record = archive.read_game(game.id)
    assert record is not None and record.ended_at == game.ended_at
    assert record.ended_at.utcoffset() == datetime.timedelta(0)
