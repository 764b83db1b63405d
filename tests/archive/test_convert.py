"""The archive written by the release before the compact form (migrations 0001-0002: a row per
version, the whole entry as JSON, a snapshot every 64 versions) moves to the compact form when the
schema is migrated (``service/archive/convert.py``), every game read back as it was written."""

from __future__ import annotations

import datetime
from dataclasses import replace
from pathlib import Path

import msgpack
import orjson
import psycopg
import pytest
import zstandard

from harness.old_archive import OLD_TABLES, old_migrations, write_first_compact_form, write_old_form
from service.archive import compact, convert, dictionaries
from service.archive.archive import Archive
from service.archive.records import ArchivedGame, LogEntry
from service.archive.schema import migrate
from service.store import logform

from .conftest import new_database
from .games import a_game
from .played import played_game


def old_rows(url: str) -> dict[str, int]:
    with psycopg.connect(url) as connection:
        return {
            table: connection.execute(f"SELECT count(*) FROM {table}".encode()).fetchone()[0]  # type: ignore[index]
            for table in OLD_TABLES
        }


def assert_reads_as_written(archive: Archive, game: ArchivedGame, position: int) -> None:
    record = archive.read_game(game.id)
    assert record is not None, game.id
    assert record.position == position
    assert (record.meta, record.result, record.status, record.version, record.seats, record.rematch) == (
        game.meta,
        game.result,
        game.status,
        game.version,
        game.seats,
        game.rematch,
    )
    assert (record.created_at, record.started_at, record.ended_at) == (
        game.created_at,
        game.started_at,
        game.ended_at,
    )
    assert archive.read_log(game.id) == list(game.log), "every entry, its bytes and its time"
    assert archive.snapshot_at_or_before(game.id, game.version) == game.all_snapshots()[-1]
    for snapshot in game.snapshots:
        if snapshot.version % 64 == 0 and snapshot.version > 0:  # the sparse ones are kept
            assert archive.snapshot_at_or_before(game.id, snapshot.version) == snapshot


def test_the_old_form_is_converted_when_migrated_and_every_game_reads_the_same(
    postgres, tmp_path: Path
) -> None:
    url = new_database(postgres)
    assert migrate(url, old_migrations(tmp_path / "old")) == [1, 2]
    games = [
        a_game("made-0", moves=150),
        a_game(
            "made-1", moves=3, status="aborted", ended_at=datetime.datetime(2025, 3, 1, tzinfo=datetime.UTC)
        ),
        a_game("made-2", moves=0, status="expired"),
        played_game("wettstreit", seed=3),
        played_game("fresh-fish", seed=4, status="aborted", moves=20),
    ]
    write_old_form(url, games[:3])
    assert old_rows(url)["archived_games"] == 3

    assert migrate(url) == [3, 4, 5]  # the compact tables (and the next ones), then the data step
    assert old_rows(url) == dict.fromkeys(OLD_TABLES, 0), "each game moved, none left behind"
    # A process of the old release still running wrote two more: the next start moves them too.
    write_old_form(url, games[3:])
    assert migrate(url) == []
    assert old_rows(url) == dict.fromkeys(OLD_TABLES, 0)
    assert migrate(url) == []  # nothing left: a no-op

    with Archive(url) as archive:
        for position, game in enumerate(games, start=1):
            assert_reads_as_written(archive, game, position)
        exported = [(item.position, item.game.id) for item in archive.stream_games()]
        assert exported == [(n, game.id) for n, game in enumerate(games, start=1)]
        mine = archive.player_games("player-1", None, 10)
        assert [game.game_id for game in mine] == ["made-0"]  # the finished ones only


def test_a_step_stopped_midway_resumes_with_the_games_left(postgres, tmp_path: Path, monkeypatch) -> None:
    """Each game moves in a transaction of its own: a step that stopped at its third game (killed,
    PostgreSQL gone) left two converted and the others whole in the old form; the next run moves
    those, each once."""
    url = new_database(postgres)
    migrate(url, old_migrations(tmp_path / "old"))
    games = [a_game(f"g{n}", moves=n * 10) for n in range(4)]
    write_old_form(url, games)
    moved: list[str] = []
    convert_one = convert._convert

    def stopping(connection, row):
        if len(moved) == 2:
            convert_one(connection, row)  # written, then the step dies before its commit
            raise RuntimeError("the step was stopped")
        convert_one(connection, row)
        moved.append(row[0])

    monkeypatch.setattr(convert, "_convert", stopping)
    with pytest.raises(RuntimeError, match="stopped"):
        migrate(url)
    assert old_rows(url)["archived_games"] == 2 and moved == ["g0", "g1"]
    monkeypatch.undo()
    assert migrate(url) == []
    assert old_rows(url) == dict.fromkeys(OLD_TABLES, 0)
    with Archive(url) as archive:
        for position, game in enumerate(games, start=1):
            assert_reads_as_written(archive, game, position)


def compacted(entry: LogEntry) -> LogEntry:
    """A move's entry as Redis keeps it now (service.store.logform), its time a float."""
    whole = orjson.loads(entry.entry)
    if "move" not in whole:
        return entry
    kept = {key: whole[key] for key in ("seat", "move", "at", "status", "to_act")}
    return replace(entry, entry=logform.encoded({**kept, logform.LEADING: []}))


def test_a_game_in_the_first_compact_form_reads_as_one_written_now(postgres) -> None:
    """0003's first rows (the log ``[entries, times]``, every value zstd without a dictionary) are
    read as they are, no conversion: the same entries, times and states as the game written now
    (its times kept apart, its title's dictionaries)."""
    url = new_database(postgres)
    migrate(url)
    first = played_game("property", seed=5)
    assert first.log and all(b'"move"' in entry.entry for entry in first.log[:-1])
    now = replace(first, id="written-now", log=tuple(compacted(entry) for entry in first.log))
    write_first_compact_form(url, [first])
    with Archive(url) as archive:
        assert archive.write_game(now)
        for game in (first, now):
            assert archive.read_log(game.id) == list(game.log)
            assert archive.read_log(game.id, 5, 9) == list(game.log[4:9])
            for version in (0, 63, 64, 65, game.version):
                found = archive.snapshot_at_or_before(game.id, version)
                kept = [s for s in game.all_snapshots() if s.version <= version]
                assert found == (kept[-1] if kept else None), (game.id, version)
    with psycopg.connect(url) as connection:
        (log,) = connection.execute("SELECT log FROM ended_games WHERE id = 'written-now'").fetchone()
    shipped = dictionaries.for_writing("property", "log")
    assert shipped is not None and zstandard.get_frame_parameters(log).dict_id == shipped.dict_id()
    _, ats, times = msgpack.unpackb(compact.decompressed(log), strict_map_key=False)
    moves = [at for at, entry in zip(ats, now.log, strict=True) if entry.entry[:1] != b"{"]
    assert moves and all(isinstance(at, int) for at in moves), "every move's time kept apart"
    assert times == [None] * len(now.log)
