"""`skyline export` and `skyline import`: archived games to and from NDJSON (service/archive/exchange.py).

Both find the archive as `skyline serve` does: ``DATABASE_URL``, else the embedded PostgreSQL
under ``--data-dir``. If a server runs on that folder (a `skyline serve`'s), the command connects
to its socket, named in ``postmaster.pid``; if none does, the command takes the data folder's lock
(service/run/supervisor.py's ``DataDirLock``, so that no `skyline serve` starts a second server on
the same data meanwhile) and runs the embedded server for its own duration.

An import never overwrites a game and never writes one the service could not serve. Its games'
ids are looked up in the archive and in Redis (``REDIS_URL``, else the embedded Redis of the
`skyline serve` on the folder, named in its lock file, else the folder's own Redis data, started
for the import's duration): a game under an id taken by another game is refused, the same game
again is a no-op. Every line is checked as the API would have made its game
(``play.replays.check_as_made``, then the replay, entry by entry) and written in one transaction:
an import that stops at a line writes nothing.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import os
import sys
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

import orjson
from redis.exceptions import RedisError

from ..archive.archive import Archive, ArchiveUnavailable, ImportSession
from ..archive.exchange import BadLine, ImportedLine, game_line, parse_time, read_line
from ..archive.records import InvalidArchive, check
from ..archive.schema import migrate
from ..config import Settings
from ..play.archiving import with_whole_log
from ..play.games import game_record
from ..play.replays import ReplayMismatch, check_as_made, record_of, replayed
from ..play.replies import GameRecord
from ..store.archiving import ArchivedIds
from ..store.connect import StoreRedis, settings_client, store_client
from ..store.games import read_live
from .embedded import EmbeddedRedis
from .postgres import DATABASE, ROLE, EmbeddedPostgres, _running_postmaster
from .supervisor import DataDirInUse, DataDirLock

# A resumed export reads its file's end backwards by this much at a time.
_TAIL_CHUNK = 1 << 16


def _running_server_url(data: Path) -> str | None:
    """The URL of the PostgreSQL serving ``data`` now, from its postmaster.pid (line 5: its socket folder)."""
    if _running_postmaster(data) is None:
        return None
    try:
        socket_dir = (data / "postmaster.pid").read_text().split("\n")[4].strip()
    except (OSError, IndexError):
        return None
    if not socket_dir:
        return None
    return f"postgresql://{ROLE}@/{DATABASE}?host={urllib.parse.quote(socket_dir, safe='/')}"


@contextmanager
def archive_url(database_url: str | None, data_dir: str, command: str) -> Iterator[str]:
    """The archive's URL for the duration of ``command`` (see the module's docstring)."""
    if database_url:
        yield database_url
        return
    folder = Path(data_dir).resolve()
    running = _running_server_url(folder / "postgres" / "data")
    if running is not None:
        yield running
        return
    lock = DataDirLock(folder)
    try:
        lock.acquire({"pid": os.getpid(), "command": f"skyline {command}"}, wait_for_dead_owner=0)
    except DataDirInUse as error:
        raise SystemExit(
            f"{error}\nIts PostgreSQL is not running (yet): wait for it, or stop it and run "
            f"`skyline {command}` alone on the folder."
        ) from None
    try:
        server = EmbeddedPostgres(folder).start()
        try:
            yield server.url
        finally:
            server.stop()
    finally:
        lock.release()


def resume_point(path: Path) -> int:
    """The position of the last whole line of ``path`` (0: none); a partial line after it (the
    export was killed while writing it) is cut off, so that the export can append after it."""
    if not path.exists():
        return 0
    with open(path, "r+b") as file:
        end = file.seek(0, os.SEEK_END)
        tail = b""
        start = end
        # Back to the last newline (the end of the last whole line), then to the one before it.
        while start > 0 and tail.count(b"\n") < 2:
            start = max(0, start - _TAIL_CHUNK)
            file.seek(start)
            tail = file.read(end - start)
        last_newline = tail.rfind(b"\n")
        if last_newline < 0:
            file.truncate(0)
            return 0
        file.truncate(start + last_newline + 1)
        line_start = tail.rfind(b"\n", 0, last_newline) + 1
        number = tail.count(b"\n")  # not the true line number: only for a message
        return read_line(tail[line_start:last_newline], number).position


def export_games(
    url: str,
    out: IO[bytes],
    *,
    since: datetime.datetime | None,
    until: datetime.datetime | None,
    title: str | None,
    after: int,
) -> tuple[int, int]:
    """Write each matching game after position ``after`` as a line; (games written, last position)."""
    migrate(url)
    games, last = 0, after
    with Archive(url, max_size=1, name="skyline-export") as archive:
        for kept in archive.stream_games(since=since, until=until, title=title, after_position=after):
            item = replace(kept, game=with_whole_log(kept.game))  # the line's entries whole, as ever
            out.write(game_line(item, record_of(item.game)))
            out.flush()  # a killed export leaves whole lines (and at most one partial one) behind
            games, last = games + 1, item.position
    return games, last


@dataclass
class Tally:
    written: int = 0  # games this import wrote (committed only if the import ends well)
    present: int = 0  # games held already, as they are in the file (a rerun, --merge)
    ids: list[str] = field(default_factory=list)  # the games written


# The setup and moves of a game Redis holds (its record without the result), or None.
LiveGames = Callable[[str], dict[str, Any] | None]


def _setup_and_moves(record: GameRecord) -> dict[str, Any]:
    """What makes two games one: the result follows from them."""
    return {key: value for key, value in record.items() if key != "result"}


def _digest(record: GameRecord) -> bytes:
    return hashlib.sha256(orjson.dumps(_setup_and_moves(record), option=orjson.OPT_SORT_KEYS)).digest()


def live_games_of(client: StoreRedis) -> LiveGames:
    def live(game_id: str) -> dict[str, Any] | None:
        found = read_live(client, game_id)
        if found is None:
            return None
        meta, entries = found
        return _setup_and_moves(game_record(game_id, meta, entries, None))

    return live


def import_games(
    url: str, lines: IO[bytes], *, merge: bool, tally: Tally, live: LiveGames | None = None
) -> None:
    """Write the games of ``lines`` into the archive, counting them in ``tally``, in one
    transaction. BadLine at the first line that is not a game the API could have made and that
    replays to its result, or whose id another game holds (live in Redis, archived, or an earlier
    line): nothing of the file is then written."""
    migrate(url)
    with Archive(url, max_size=1, name="skyline-import") as archive, archive.importing() as session:
        if not merge and not session.is_empty():
            raise SystemExit(
                "skyline import: the archive is not empty. To add this file's games to this "
                "archive, run again with --merge (games already there are left as they are)."
            )
        seen: dict[str, tuple[int, bytes]] = {}  # id -> the line that had it first, its game's digest
        for number, raw in enumerate(lines, start=1):
            if not raw.strip():
                continue
            try:
                _import_line(session, read_line(raw, number), number, seen, tally, live)
            except BadLine:
                raise
            except (ReplayMismatch, InvalidArchive) as error:
                raise BadLine(number, str(error)) from None
            except (ArchiveUnavailable, RedisError):
                raise
            except Exception as error:  # a line no check foresaw: still its number, no traceback
                raise BadLine(number, f"cannot be imported ({type(error).__name__}: {error})") from None


def _import_line(
    session: ImportSession,
    imported: ImportedLine,
    number: int,
    seen: dict[str, tuple[int, bytes]],
    tally: Tally,
    live: LiveGames | None,
) -> None:
    check(imported.game)  # its shape first: the checks and the replay read the meta and the log
    check_as_made(imported.game)
    game = replayed(imported.game)
    record = record_of(game)
    if record != imported.record:
        raise ReplayMismatch("The record part differs from the game the archive part holds.")
    digest = _digest(record)
    first = seen.get(game.id)
    if first is not None:
        if first[1] != digest:
            raise BadLine(
                number, f"game {game.id} is also line {first[0]}'s, another game: two games under one id"
            )
        tally.present += 1  # the same game twice: once
        return
    seen[game.id] = (number, digest)
    held = session.game(game.id)
    if held is not None:
        held = with_whole_log(held)
        if _digest(record_of(held)) != digest:
            raise BadLine(number, f"game {game.id} is archived already, and it is another game")
        tally.present += 1
        return
    in_redis = None if live is None else live(game.id)
    if in_redis is not None:
        if in_redis != _setup_and_moves(record):
            raise BadLine(number, f"game {game.id} is live (in Redis), and it is another game")
        tally.present += 1  # the archiver archives it, as it was played
        return
    session.write(game)
    tally.written += 1
    tally.ids.append(game.id)


def parse_moment(text: str) -> datetime.datetime:
    """An option's RFC 3339 time (argparse's type)."""
    try:
        return parse_time(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def run_export(args: argparse.Namespace, database_url: str | None) -> int:
    """`skyline export`'s body (the arguments of skyline/cli.py)."""
    since, until, title = args.since, args.until, args.title
    output: str | None = args.output
    after: int = args.after
    if args.resume:
        if output is None:
            raise SystemExit("skyline export: --resume continues the file named by --output")
        try:
            after = resume_point(Path(output))
        except BadLine as error:
            raise SystemExit(
                f"skyline export: {output} does not end with a line of an export ({error.reason}); "
                "give --after POSITION instead"
            ) from None
    with archive_url(database_url, args.data_dir, "export") as url:
        if output is None:
            try:
                games, last = export_games(
                    url, sys.stdout.buffer, since=since, until=until, title=title, after=after
                )
            except BrokenPipeError:  # the reader stopped reading (`| head`): no traceback for that
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                return 1
        else:
            with open(output, "ab") as out:
                games, last = export_games(url, out, since=since, until=until, title=title, after=after)
    print(f"skyline export: {games} games after position {after}, the last at {last}", file=sys.stderr)
    return 0


@contextmanager
def live_redis(settings: Settings, data_dir: str, *, folder_held: bool) -> Iterator[StoreRedis | None]:
    """The Redis of the live games (see the module's docstring); ``folder_held``: this process
    holds the data folder's lock already (it runs the embedded PostgreSQL)."""
    if settings.redis_url:
        with closing(settings_client(settings)) as client:
            yield client
        return
    folder = Path(data_dir).resolve()
    lock = DataDirLock(folder)
    served = None if folder_held else (lock.holder() or {}).get("redis")
    if served:
        with closing(store_client(served, cluster=False)) as client:
            yield client
        return
    if not (folder / "redis").is_dir():
        print(
            "skyline import: no Redis to look live games up in (REDIS_URL is not set and the data "
            "folder has none): ids are checked against the archive and the file only",
            file=sys.stderr,
        )
        yield None
        return
    if not folder_held:
        try:
            lock.acquire({"pid": os.getpid(), "command": "skyline import"}, wait_for_dead_owner=0)
        except DataDirInUse as error:
            raise SystemExit(f"{error}\nIts Redis is not running (yet): wait for it.") from None
    try:
        redis_server = EmbeddedRedis(folder).start()
        try:
            with closing(store_client(redis_server.url, cluster=False)) as client:
                yield client
        finally:
            redis_server.stop()
    finally:
        if not folder_held:
            lock.release()


def run_import(args: argparse.Namespace, settings: Settings) -> int:
    """`skyline import`'s body (the arguments of skyline/cli.py)."""
    path: str = args.file
    database_url = settings.database_url
    folder = Path(args.data_dir).resolve()
    # archive_url takes the folder's lock when it runs the embedded PostgreSQL itself.
    folder_held = not database_url and _running_server_url(folder / "postgres" / "data") is None
    with (
        archive_url(database_url, args.data_dir, "import") as url,
        live_redis(settings, args.data_dir, folder_held=folder_held) as redis_client,
    ):
        lines = sys.stdin.buffer if path == "-" else open(path, "rb")
        tally = Tally()
        live = None if redis_client is None else live_games_of(redis_client)
        try:
            import_games(url, lines, merge=args.merge, tally=tally, live=live)
            if redis_client is not None:
                # So that Redis knows them while PostgreSQL is away (the archiver would, later).
                ArchivedIds(redis_client).add(tally.ids)
        except BadLine as error:
            print(f"skyline import: {error}", file=sys.stderr)
            print("skyline import: stopped there; nothing of the file was written", file=sys.stderr)
            return 1
        except ArchiveUnavailable as error:
            print(f"skyline import: {error}; nothing of the file was written", file=sys.stderr)
            return 1
        except RedisError as error:
            print(
                f"skyline import: the Redis of the live games cannot be reached ({error}); "
                "nothing of the file was written",
                file=sys.stderr,
            )
            return 1
        finally:
            if lines is not sys.stdin.buffer:
                lines.close()
    print(f"skyline import: {tally.written} games written, {tally.present} already archived", file=sys.stderr)
    return 0
