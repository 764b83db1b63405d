"""The archive written by the release before the compact form (migrations 0001-0002: a row per
version, the whole entry as JSON, a snapshot every 64 versions) moves to the compact form when the
schema is migrated (``service/archive/convert.py``), every game read back as it was written."""

from __future__ import annotations

import datetime
import shutil
from pathlib import Path

import psycopg
import pytest

from service.archive import convert
from service.archive.archive import Archive
from service.archive.records import ArchivedGame
from service.archive.schema import MIGRATIONS, migrate

from .conftest import new_database
from .games import a_game
from .played import played_game

OLD_TABLES = ("archived_games", "archived_log", "archived_snapshots", "archived_seats")


def old_migrations(folder: Path) -> Path:
    """The migrations of the release before the compact archive: 0001 and 0002."""
    folder.mkdir()
    for path in sorted(MIGRATIONS.glob("000[12]_*.sql")):
        shutil.copy(path, folder / path.name)
    return folder


def write_old_form(url: str, games: list[ArchivedGame]) -> None:
    """``games`` as the release before wrote them (its Archive._insert and _take_positions)."""
    with psycopg.connect(url) as connection:
        for game in games:
            connection.execute(
                "INSERT INTO archived_games (id, status, version, meta, result, created_at, started_at, "
                "ended_at, rematch) VALUES (%s, %s, %s, %s::json, %s::json, %s, %s, %s, %s)",
                (
                    game.id,
                    game.status,
                    game.version,
                    game.meta.decode(),
                    None if game.result is None else game.result.decode(),
                    game.created_at,
                    game.started_at,
                    game.ended_at,
                    game.rematch,
                ),
            )
            with connection.cursor() as cursor:
                with cursor.copy("COPY archived_log (game_id, version, entry, at) FROM STDIN") as copy:
                    for entry in game.log:
                        copy.write_row((game.id, entry.version, entry.entry.decode(), entry.at))
                with cursor.copy("COPY archived_snapshots (game_id, version, state) FROM STDIN") as copy:
                    for snapshot in game.all_snapshots():
                        copy.write_row((game.id, snapshot.version, snapshot.state.decode()))
                with cursor.copy(
                    "COPY archived_seats (game_id, seat, kind, player_id, rank, ended_at) FROM STDIN"
                ) as copy:
                    for seat in game.seats:
                        copy.write_row(
                            (game.id, seat.seat, seat.kind, seat.player_id, seat.rank, game.ended_at)
                        )
            connection.execute(
                "UPDATE archived_games SET position = nextval('archived_positions') WHERE id = %s", (game.id,)
            )
            connection.commit()


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

    assert migrate(url) == [3, 4]  # the compact tables (and the ratings'), then the data step
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
