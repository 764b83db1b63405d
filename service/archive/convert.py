"""The data step of migration 0003: the games archived in the form of 0001-0002 (a row per version,
the whole entry as JSON, a snapshot every 64 versions) moved to the compact form (one row of
``ended_games``, ``compact.py``), a game at a time, each in its own transaction.

SQL cannot zstd-compress, so this runs in Python, after the migrations and under their lock
(``schema.migrate`` calls it: every process that starts, ``skyline serve``'s supervisor first,
and ``python -m service.archive.schema`` for a deployment that migrates ahead). It is idempotent
and resumable: a game's new row and the removal of its old rows commit together, so a step killed
midway leaves each game in one form, whole, and the next run goes on with those left. The old
entries are kept as they were written (whole JSON: their bytes are what a read answers); only the
games written from now on keep a move's entry compact. A game is read from the new form only:
the step ends before a process of this release serves a read.
"""

from __future__ import annotations

from typing import Any

import orjson
import psycopg

from .compact import compressed, packed_log, packed_snapshots
from .records import SNAPSHOT_EVERY, LogEntry, Snapshot

_COLUMNS = (
    "id, position, status, version, meta::text, result::text, "
    "created_at, started_at, ended_at, archived_at, rematch"
)


def _utf8(text: str | None) -> bytes | None:
    return None if text is None else text.encode("utf-8")


def convert_old_games(connection: psycopg.Connection[Any]) -> int:
    """Move every game of the old tables to the new ones; how many this call moved."""
    found = connection.execute(
        "SELECT to_regclass('archived_games') IS NOT NULL AND to_regclass('ended_games') IS NOT NULL"
    ).fetchone()
    if found is None or not found[0]:
        return 0  # not migrated to 0003 yet, or the old tables dropped by a later migration
    moved = 0
    while True:
        with connection.transaction():
            row = connection.execute(
                f"SELECT {_COLUMNS} FROM archived_games ORDER BY position NULLS LAST, id LIMIT 1 FOR UPDATE"
            ).fetchone()
            if row is None:
                return moved
            _convert(connection, row)
            moved += 1


def _convert(connection: psycopg.Connection[Any], row: tuple[Any, ...]) -> None:
    game_id, position, status, version, meta, result, created, started, ended, archived, rematch = row
    entries = connection.execute(
        "SELECT version, entry::text, at FROM archived_log WHERE game_id = %s ORDER BY version", (game_id,)
    ).fetchall()
    log = [LogEntry(v, entry.encode("utf-8"), at) for v, entry, at in entries]
    title = orjson.loads(meta)["title"]
    states = connection.execute(
        "SELECT version, state::text FROM archived_snapshots WHERE game_id = %s ORDER BY version", (game_id,)
    ).fetchall()
    snapshots = {v: state.encode("utf-8") for v, state in states}
    sparse = [
        Snapshot(v, state) for v, state in snapshots.items() if 0 < v < version and v % SNAPSHOT_EVERY == 0
    ]
    connection.execute(
        "INSERT INTO ended_games (id, position, status, version, meta, result, created_at, started_at, "
        "ended_at, archived_at, rematch, log, final_state, snapshots) "
        "VALUES (%s, %s, %s, %s, %s::json, %s::json, %s, %s, %s, %s, %s, %s, %s, %s)",
        (
            game_id,
            position,
            status,
            version,
            meta,
            result,
            created,
            started,
            ended,
            archived,
            rematch,
            packed_log(log, title),
            compressed(snapshots[version], title),
            packed_snapshots(sparse, title),
        ),
    )
    connection.execute(
        "INSERT INTO ended_seats (game_id, seat, kind, player_id, rank, ended_at) "
        "SELECT game_id, seat, kind, player_id, rank, ended_at FROM archived_seats WHERE game_id = %s",
        (game_id,),
    )
    # The log, snapshots and seats go with it (ON DELETE CASCADE).
    connection.execute("DELETE FROM archived_games WHERE id = %s", (game_id,))
