"""The archive in PostgreSQL: ended games written once, read back as they were written.

``write_game`` is idempotent and whole: one transaction takes a lock on the game's id (a second
writer of the same game waits for the first's commit, then finds it and writes nothing), settles
its ratings, inserts its seats and last its row (the log, final state and snapshots compressed in
it). A writer killed mid-transaction, or a PostgreSQL killed under it, commits nothing; writing
again writes the whole game, once.

Each game gets its ``position`` (the export's order) under a transaction lock taken just before
its row is inserted and released at the commit: positions become visible in order, so an export
that resumes after position p can never miss one committed after it began. ``write_game`` inserts
the row with its position (a row updated afterwards would leave a dead copy of itself, about a
KB a game until a vacuum); an import sets its games' positions in its last statements.

A PostgreSQL that cannot be reached is ``ArchiveUnavailable`` (nothing was written; try again
later); a game that cannot be archived as given is ``InvalidArchive``. Callers never see psycopg's
own errors.

An archive opened with ``fail_fast`` (the API's reads) does not wait for PostgreSQL: a circuit
opens on the first failure to reach it, and every read then fails at once until the circuit's
``retry_after`` has passed, when one read probes it again (the others still fail at once). A
failure is told from a busy pool by connecting outside it: a read that gets no pooled connection
within ``FIRST_WAIT`` connects directly (one such read at a time); if PostgreSQL refuses that, it
is down, else the read goes on with that connection. Without it, a read of an archive that went
away waited for the pool's whole timeout (10 s), holding a gthread worker's thread all along.
"""

from __future__ import annotations

import datetime
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Any, cast

import orjson
import psycopg
from psycopg.adapt import Buffer, Loader
from psycopg_pool import ConnectionPool, PoolTimeout

from . import ratings
from .compact import (
    compressed,
    decompressed,
    packed_log,
    packed_snapshots,
    unpacked_log,
    unpacked_snapshots,
)
from .records import (
    ArchivedGame,
    ArchivedSeat,
    EndStatus,
    ExportedGame,
    GameRecord,
    InvalidArchive,
    LogEntry,
    PlayerGame,
    Snapshot,
    check,
)
from .schema import lock_key, notice_dead_clients

# pg_advisory_xact_lock's key for handing out positions in commit order (see the docstring).
POSITION_LOCK = lock_key("positions")
# The space (pg_advisory_xact_lock's first key) of the locks that keep each game written once.
GAME_LOCK_SPACE = lock_key("games") >> 32

_INSERT_GAME = """
INSERT INTO ended_games (position, id, status, version, meta, result, created_at, started_at, ended_at,
                         rematch, log, final_state, snapshots)
VALUES (CASE WHEN %s THEN nextval('archived_positions') END,
        %s, %s, %s, %s::json, %s::json, %s, %s, %s, %s, %s, %s, %s)
"""
_RECORD_COLUMNS = """
id, position, title, rules_version, status, version, meta, result,
created_at, started_at, ended_at, archived_at, rematch
"""


# A fail-fast read waits this long for a pooled connection before it tells a busy pool from a
# PostgreSQL that is away by connecting outside the pool.
FIRST_WAIT = 0.05
# How long the circuit stays open before a read probes PostgreSQL again: the Retry-After the API
# answers with (service.play.errors.ArchiveUnreachable).
CIRCUIT_OPEN_SECONDS = 5.0
# How long a direct connection may take: a PostgreSQL that is up answers a local connection in
# milliseconds; one that hangs must not hold a request longer than this.
CONNECT_TIMEOUT_SECONDS = 2
# How long the pool keeps trying to replace a lost connection before it gives up (and a later
# request tries afresh at once): psycopg_pool's delay between tries doubles, so with its default
# (300 s) a PostgreSQL back after a two-minute outage was next tried a minute or more later.
RECONNECT_TIMEOUT_SECONDS = 5.0


class ArchiveUnavailable(Exception):
    """PostgreSQL cannot be reached (down, restarting, the pool exhausted); nothing was written."""


class Circuit:
    """Whether PostgreSQL answered lately: open (failing fast) from a failure until a probe
    succeeds, one probe at most every ``open_seconds``."""

    def __init__(self, open_seconds: float = CIRCUIT_OPEN_SECONDS) -> None:
        self.open_seconds = open_seconds
        self._lock = threading.Lock()
        self._open_until: float | None = None  # None: closed
        self._probing = False

    @property
    def is_open(self) -> bool:
        return self._open_until is not None

    def admit(self) -> bool:
        """Whether a read may try PostgreSQL now: the circuit is closed, or this read is the probe."""
        with self._lock:
            if self._open_until is None:
                return True
            if self._probing or time.monotonic() < self._open_until:
                return False
            self._probing = True
            return True

    def failed(self) -> None:
        with self._lock:
            self._open_until = time.monotonic() + self.open_seconds
            self._probing = False

    def succeeded(self) -> None:
        with self._lock:
            self._open_until = None
            self._probing = False

    def let_go(self) -> None:
        """A read that learnt nothing of PostgreSQL: if it was the probe, the next read probes."""
        with self._lock:
            self._probing = False


class _RawJson(Loader):
    """json columns as the bytes stored, unparsed: a read gives back what was written."""

    def load(self, data: Buffer) -> bytes:
        return bytes(data)


def _configure(connection: psycopg.Connection[Any]) -> None:
    connection.adapters.register_loader("json", _RawJson)
    notice_dead_clients(connection)
    connection.commit()  # the pool takes the connection back idle


def _text(raw: bytes | None) -> str | None:
    return None if raw is None else raw.decode("utf-8")


class Archive:
    """Ended games in PostgreSQL, through a pool of connections (thread-safe)."""

    def __init__(
        self,
        conninfo: str,
        *,
        min_size: int = 1,
        max_size: int = 4,
        timeout: float = 10.0,
        reconnect_timeout: float = RECONNECT_TIMEOUT_SECONDS,
        name: str = "skyline-archive",
        fail_fast: bool = False,
    ) -> None:
        # UTC on every session: times read back do not depend on the server's setting.
        self._kwargs: dict[str, Any] = {
            "client_encoding": "utf8",
            "application_name": name,
            "options": "-c TimeZone=UTC",
            "connect_timeout": CONNECT_TIMEOUT_SECONDS,
        }
        self.conninfo = conninfo
        self.timeout = timeout
        self.circuit = Circuit() if fail_fast else None
        self._direct = threading.Lock()  # one read at a time connects outside the pool
        self.pool: ConnectionPool[psycopg.Connection[Any]] = ConnectionPool(
            conninfo,
            min_size=min_size,
            max_size=max_size,
            timeout=timeout,
            reconnect_timeout=reconnect_timeout,
            kwargs=self._kwargs,
            configure=_configure,
            # A connection broken by a restart of PostgreSQL is replaced before it is handed out.
            check=ConnectionPool.check_connection,
            name=name,
            open=True,
        )

    def close(self) -> None:
        self.pool.close()

    def __enter__(self) -> Archive:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        if self.circuit is not None:
            with self._failing_fast(self.circuit) as connection:
                yield connection
            return
        try:
            with self.pool.connection() as connection:
                yield connection
        except (PoolTimeout, psycopg.OperationalError, psycopg.InterfaceError) as error:
            raise ArchiveUnavailable(f"the archive's PostgreSQL cannot be reached: {error}") from error

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection of the archive's, for the reads of its companion modules (ratings)."""
        with self._connection() as connection:
            yield connection

    @contextmanager
    def _failing_fast(self, circuit: Circuit) -> Iterator[psycopg.Connection[Any]]:
        """A connection, or ArchiveUnavailable at once while the circuit is open (see the module's
        docstring)."""
        if not circuit.admit():
            raise ArchiveUnavailable("the archive's PostgreSQL did not answer lately; the circuit is open")
        try:
            with self._fail_fast_connection(circuit) as connection:
                yield connection
        except ArchiveUnavailable:
            circuit.let_go()  # another read found PostgreSQL away: the circuit is its to open
            raise
        except (PoolTimeout, psycopg.OperationalError, psycopg.InterfaceError) as error:
            circuit.failed()
            raise ArchiveUnavailable(f"the archive's PostgreSQL cannot be reached: {error}") from error
        except BaseException:
            circuit.succeeded()  # PostgreSQL answered: the error is the caller's
            raise
        circuit.succeeded()

    @contextmanager
    def _fail_fast_connection(self, circuit: Circuit) -> Iterator[psycopg.Connection[Any]]:
        deadline = time.monotonic() + self.timeout
        try:
            with self.pool.connection(timeout=FIRST_WAIT) as connection:
                yield connection
                return
        except PoolTimeout:
            pass
        if self._direct.acquire(blocking=False):
            try:
                # Refused at once by a PostgreSQL that is away (OperationalError: the circuit opens).
                connection = psycopg.connect(self.conninfo, **self._kwargs)
            finally:
                self._direct.release()
            with connection:
                _configure(connection)
                yield connection
            return
        # Another read is connecting directly: wait for the pool in short steps, failing as soon
        # as that read finds PostgreSQL away.
        while True:
            if circuit.is_open:
                raise ArchiveUnavailable("the archive's PostgreSQL did not answer; the circuit is open")
            left = deadline - time.monotonic()
            if left <= 0:
                raise PoolTimeout("no connection of the archive's pool came free in time")
            try:
                with self.pool.connection(timeout=min(left, FIRST_WAIT)) as connection:
                    yield connection
                    return
            except PoolTimeout:
                continue

    # ---- writing --------------------------------------------------------------------------------
    def write_game(self, game: ArchivedGame) -> bool:
        """Archive ``game`` whole; True if this call wrote it, False if it was archived already."""
        check(game)
        try:
            with self._connection() as connection, connection.transaction():
                return self._insert(connection, game, positioned=True)
        except (psycopg.DataError, psycopg.IntegrityError) as error:
            raise InvalidArchive(f"PostgreSQL refused game {game.id}: {error}") from error

    @contextmanager
    def importing(self) -> Iterator[ImportSession]:
        """One transaction for a whole import (``skyline import``): what it reads and writes
        through the session commits together when the block ends, or not at all if it raises."""
        try:
            with self._connection() as connection, connection.transaction():
                session = ImportSession(connection)
                yield session
                # Positions last, in the file's order: the lock that orders them is held only
                # from here to the commit, not while the whole file is checked and written.
                _take_positions(connection, session.written)
        except (psycopg.DataError, psycopg.IntegrityError) as error:
            raise InvalidArchive(f"PostgreSQL refused a game: {error}") from error

    @staticmethod
    def _insert(connection: psycopg.Connection[Any], game: ArchivedGame, *, positioned: bool = False) -> bool:
        """The game's rows; False (nothing written) if its id is there. ``positioned``: with its
        position, taken here, under the lock that orders positions (held to the commit), so the
        game's row is written once, never updated (an update would leave a dead copy of the row);
        else without, for ``_take_positions`` to set.

        The id alone cannot be a key of a table partitioned by the end (migration 0003): a lock on
        the id, held to the commit, makes a second writer wait for the first and then find it."""
        connection.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (GAME_LOCK_SPACE, game.id))
        if connection.execute("SELECT 1 FROM ended_games WHERE id = %s", (game.id,)).fetchone():
            return False
        # A rated game's ratings move in the transaction that writes it: once (service.archive.ratings).
        # Before the position's lock: a settlement may wait on another's rating rows.
        ratings.settle(
            connection, game.id, game.meta, game.status, {s.seat: s.rank for s in game.seats}, game.ended_at
        )
        # The seats before their game (the foreign key is checked at the commit, migration 0005).
        with connection.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO ended_seats (game_id, seat, kind, player_id, rank, ended_at) "
                "VALUES (%s, %s, %s, %s, %s, %s)",
                [(game.id, s.seat, s.kind, s.player_id, s.rank, game.ended_at) for s in game.seats],
            )
        title = orjson.loads(game.meta)["title"]
        values = (
            packed_log(game.log, title),
            compressed(game.final_state, title),
            packed_snapshots([s for s in game.all_snapshots() if s.version != game.version], title),
        )
        if positioned:  # from here to the commit: the game's row alone
            connection.execute("SELECT pg_advisory_xact_lock(%s)", (POSITION_LOCK,))
        connection.execute(
            _INSERT_GAME,
            (
                positioned,
                game.id,
                game.status,
                game.version,
                _text(game.meta),
                _text(game.result),
                game.created_at,
                game.started_at,
                game.ended_at,
                game.rematch,
                *values,
            ),
        )
        return True

    def holds(self, game: ArchivedGame) -> bool:
        """Whether the archive's game under ``game.id`` is ``game``: its meta and log, byte for byte."""
        with self._connection() as connection:
            row = connection.execute("SELECT meta FROM ended_games WHERE id = %s", (game.id,)).fetchone()
            if row is None or row[0] != game.meta:
                return False
            return [entry.entry for entry in _log(connection, game.id, 1, None)] == [
                e.entry for e in game.log
            ]

    def claim_rematch(self, game_id: str, rematch_id: str) -> str | None:
        """Set the archived game's rematch to ``rematch_id`` unless it has one: the rematch's id
        either way (the first to ask wins), None if the game is not archived."""
        with self._connection() as connection:
            row = connection.execute(
                "UPDATE ended_games SET rematch = COALESCE(rematch, %s) WHERE id = %s RETURNING rematch",
                (rematch_id, game_id),
            ).fetchone()
        return None if row is None else str(row[0])

    # ---- reading --------------------------------------------------------------------------------
    def has_game(self, game_id: str) -> bool:
        with self._connection() as connection:
            found = connection.execute("SELECT 1 FROM ended_games WHERE id = %s", (game_id,)).fetchone()
        return found is not None

    def read_game(self, game_id: str) -> GameRecord | None:
        """The game's record and seats (without its log and snapshots), or None if not archived."""
        with self._connection() as connection:
            row = connection.execute(
                f"SELECT {_RECORD_COLUMNS} FROM ended_games WHERE id = %s", (game_id,)
            ).fetchone()
            if row is None:
                return None
            return _record(row, _seats(connection, game_id))

    def ids_after(self, position: int, limit: int) -> list[tuple[str, int]]:
        """The ids of the games archived after ``position`` and their positions, in order."""
        with self._connection() as connection:
            rows = connection.execute(
                "SELECT id, position FROM ended_games WHERE position > %s ORDER BY position LIMIT %s",
                (position, limit),
            ).fetchall()
        return [(game_id, at) for game_id, at in rows]

    def read_log(self, game_id: str, since: int = 1, until: int | None = None) -> list[LogEntry]:
        """The log entries of versions ``since``..``until`` (both included; None: to the last)."""
        with self._connection() as connection:
            return _log(connection, game_id, since, until)

    def snapshot_at_or_before(self, game_id: str, version: int) -> Snapshot | None:
        """The latest snapshot at or before ``version`` (replay the log from there to reach it): the
        final state from the last version on, else a sparse one; None before the first (replay
        from the setup)."""
        with self._connection() as connection:
            return _snapshot_at_or_before(connection, game_id, version)

    # ---- a player's games ----------------------------------------------------------------------
    def player_games(
        self, player_id: str, after: tuple[datetime.datetime, str] | None, limit: int
    ) -> list[PlayerGame]:
        """The games a player held a seat of, the latest ended first (ties by id), after ``after``
        (an (ended_at, game id) already listed): one range of ``ended_seats_player``."""
        after_clause = (
            "" if after is None else "AND (s.ended_at < %s OR (s.ended_at = %s AND s.game_id > %s))"
        )
        params: list[object] = [player_id]
        if after is not None:
            params += [after[0], after[0], after[1]]
        query = f"""
            SELECT s.game_id, g.version, g.meta, g.result, s.ended_at,
                   array_agg(s.seat ORDER BY s.seat), array_agg(s.rank ORDER BY s.seat)
            FROM ended_seats s JOIN ended_games g ON g.id = s.game_id AND g.ended_at = s.ended_at
            WHERE s.player_id = %s AND g.status = 'finished' {after_clause}
            GROUP BY g.id, g.ended_at, s.game_id, s.ended_at
            ORDER BY s.ended_at DESC, s.game_id
            LIMIT %s
        """
        with self._connection() as connection:
            rows = connection.execute(query.encode(), [*params, limit]).fetchall()
        return [
            PlayerGame(game, version, meta, result, ended, seats, ranks)
            for game, version, meta, result, ended, seats, ranks in rows
        ]

    def forget_player(self, player_id: str) -> int:
        """Drop a deleted player's id from the seats it held: the games stay. How many seats."""
        with self._connection() as connection:
            done = connection.execute(
                "UPDATE ended_seats SET player_id = NULL WHERE player_id = %s", (player_id,)
            )
            return done.rowcount

    def stream_games(
        self,
        *,
        since: datetime.datetime | None = None,
        until: datetime.datetime | None = None,
        title: str | None = None,
        after_position: int = 0,
        batch: int = 50,
    ) -> Iterator[ExportedGame]:
        """Whole games in the order they were archived, after ``after_position``, that ended in
        [since, until) and are of ``title`` (None: any); a server-side cursor fetches ``batch`` rows
        at a time, so memory stays that of one game whatever the archive's size.

        The iterator holds a connection and a transaction until it is exhausted or closed."""
        filters: list[str] = ["position > %s"]
        params: list[object] = [after_position]
        for clause, value in (("ended_at >= %s", since), ("ended_at < %s", until), ("title = %s", title)):
            if value is not None:
                filters.append(clause)
                params.append(value)
        where = " AND ".join(filters)
        query = f"SELECT {_RECORD_COLUMNS} FROM ended_games WHERE {where} ORDER BY position"
        with self._connection() as connection, connection.transaction():
            with connection.cursor(name="skyline-export") as games:
                games.itersize = batch
                games.execute(query.encode(), params)
                for row in games:
                    record = _record(row, _seats(connection, row[0]))
                    yield ExportedGame(record.position, record.archived_at, _whole(connection, record))


class ImportSession:
    """An import's reads and writes, in its one transaction (``Archive.importing``)."""

    def __init__(self, connection: psycopg.Connection[Any]) -> None:
        self.connection = connection
        self.written: list[str] = []

    def is_empty(self) -> bool:
        return self.connection.execute("SELECT 1 FROM ended_games LIMIT 1").fetchone() is None

    def game(self, game_id: str) -> ArchivedGame | None:
        """The archived game under ``game_id``, whole, or None."""
        row = self.connection.execute(
            f"SELECT {_RECORD_COLUMNS} FROM ended_games WHERE id = %s", (game_id,)
        ).fetchone()
        if row is None:
            return None
        return _whole(self.connection, _record(row, _seats(self.connection, game_id)))

    def write(self, game: ArchivedGame) -> None:
        """Write ``game`` (its position at the commit); InvalidArchive if its id is taken (by a
        writer that committed after the import looked)."""
        check(game)
        if not Archive._insert(self.connection, game):
            raise InvalidArchive(f"Game {game.id} was archived meanwhile, by another writer.")
        self.written.append(game.id)


def _take_positions(connection: psycopg.Connection[Any], game_ids: list[str]) -> None:
    """Give the games their positions, in this order, as the transaction's last statements."""
    if not game_ids:
        return
    connection.execute("SELECT pg_advisory_xact_lock(%s)", (POSITION_LOCK,))
    with connection.cursor() as cursor:
        cursor.executemany(
            "UPDATE ended_games SET position = nextval('archived_positions') WHERE id = %s",
            [(game_id,) for game_id in game_ids],
        )


def _record(row: tuple[Any, ...], seats: tuple[ArchivedSeat, ...]) -> GameRecord:
    """A row of _RECORD_COLUMNS, in their order."""
    game_id, position, title, rules_version, status, version, meta, result, *times, rematch = row
    created, started, ended, archived = times
    return GameRecord(
        id=game_id,
        position=position,
        title=title,
        rules_version=rules_version,
        status=cast(EndStatus, status),  # the table's CHECK holds it to the three
        version=version,
        meta=meta,
        result=result,
        created_at=created,
        started_at=started,
        ended_at=ended,
        archived_at=archived,
        seats=seats,
        rematch=rematch,
    )


def _seats(connection: psycopg.Connection[Any], game_id: str) -> tuple[ArchivedSeat, ...]:
    rows = connection.execute(
        "SELECT seat, kind, player_id, rank FROM ended_seats WHERE game_id = %s ORDER BY seat", (game_id,)
    ).fetchall()
    return tuple(ArchivedSeat(seat, kind, player_id, rank) for seat, kind, player_id, rank in rows)


def _log(connection: psycopg.Connection[Any], game_id: str, since: int, until: int | None) -> list[LogEntry]:
    row = connection.execute("SELECT log FROM ended_games WHERE id = %s", (game_id,)).fetchone()
    return [] if row is None else unpacked_log(row[0], since, until)


def _snapshot_at_or_before(
    connection: psycopg.Connection[Any], game_id: str, version: int
) -> Snapshot | None:
    row = connection.execute(
        "SELECT version, CASE WHEN version <= %s THEN final_state END, "
        "CASE WHEN version > %s THEN snapshots END FROM ended_games WHERE id = %s",
        (version, version, game_id),
    ).fetchone()
    if row is None:
        return None
    last, final_state, snapshots = row
    if final_state is not None:
        return Snapshot(last, decompressed(final_state))
    before = [snapshot for snapshot in unpacked_snapshots(snapshots) if snapshot.version <= version]
    return before[-1] if before else None


def _whole(connection: psycopg.Connection[Any], record: GameRecord) -> ArchivedGame:
    """The game as it is kept (a move's entry compact), from its record, log and snapshots."""
    row = connection.execute(
        "SELECT log, final_state, snapshots FROM ended_games WHERE id = %s", (record.id,)
    ).fetchone()
    assert row is not None, record.id  # read in the same transaction as the record
    log, final_state, snapshots = row
    return ArchivedGame(
        id=record.id,
        status=record.status,
        meta=record.meta,
        version=record.version,
        final_state=decompressed(final_state),
        created_at=record.created_at,
        ended_at=record.ended_at,
        log=tuple(unpacked_log(log)),
        seats=record.seats,
        snapshots=tuple(unpacked_snapshots(snapshots)),
        result=record.result,
        started_at=record.started_at,
        rematch=record.rematch,
    )
