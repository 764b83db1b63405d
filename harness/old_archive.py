"""The archive as the releases before wrote it, for the tests and benchmarks that migrate it.

- The form of 0001-0002 (before the compact archive): a row per version in ``archived_log``, the
  whole entry as JSON, the snapshots in ``archived_snapshots``, the seats in ``archived_seats``;
  ``write_old_form`` writes games as that release's ``Archive._insert`` and ``_take_positions``
  did, in a database migrated by ``old_migrations`` (0001 and 0002 only).
- The first compact form (0003 as first released): the log ``[entries, times]``, every entry as
  its bytes, zstd without a dictionary (``packed_log_0003``).
"""

from __future__ import annotations

import datetime
import shutil
from pathlib import Path

import msgpack
import orjson
import psycopg
import zstandard

from service.archive.records import ArchivedGame, LogEntry
from service.archive.schema import MIGRATIONS

EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)

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


def packed_log_0003(entries: tuple[LogEntry, ...] | list[LogEntry]) -> bytes:
    """The log as the first compact archive packed it: ``[entries, times]``, each time nil where
    the entry's own ``at`` gives it, zstd 19 without a dictionary."""
    times: list[int | None] = []
    for entry in entries:
        whole = entry.entry[:1] == b"{"
        own = orjson.loads(entry.entry).get("at") if whole else msgpack.unpackb(entry.entry)[2]
        same = isinstance(own, float) and datetime.datetime.fromtimestamp(own, tz=datetime.UTC) == entry.at
        times.append(None if same else (entry.at - EPOCH) // datetime.timedelta(microseconds=1))
    raw = msgpack.packb([[entry.entry for entry in entries], times], use_bin_type=True)
    return zstandard.ZstdCompressor(level=19).compress(raw)


def write_first_compact_form(url: str, games: list[ArchivedGame]) -> None:
    """``games`` as the first compact archive wrote them (0003 as first released, its
    ``Archive._insert`` and ``_take_positions``): the row first without its position, every value
    zstd 19 without a dictionary, the seats, then the position set by an update, a game per
    transaction. In a database migrated to the head (0005 changes no value's form)."""
    plain = zstandard.ZstdCompressor(level=19)
    with psycopg.connect(url) as connection:
        for game in games:
            sparse = [[s.version, s.state] for s in game.all_snapshots() if s.version != game.version]
            connection.execute(
                "INSERT INTO ended_games (id, status, version, meta, result, created_at, started_at, "
                "ended_at, rematch, log, final_state, snapshots) "
                "VALUES (%s, %s, %s, %s::json, %s::json, %s, %s, %s, %s, %s, %s, %s)",
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
                    packed_log_0003(game.log),
                    plain.compress(game.final_state),
                    plain.compress(msgpack.packb(sparse, use_bin_type=True)) if sparse else None,
                ),
            )
            with connection.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO ended_seats (game_id, seat, kind, player_id, rank, ended_at) "
                    "VALUES (%s, %s, %s, %s, %s, %s)",
                    [(game.id, s.seat, s.kind, s.player_id, s.rank, game.ended_at) for s in game.seats],
                )
            connection.execute(
                "UPDATE ended_games SET position = nextval('archived_positions') WHERE id = %s", (game.id,)
            )
            connection.commit()
