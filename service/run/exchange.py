"""`skyline export` and `skyline import`: archived games to and from NDJSON (service/archive/exchange.py).

Both find the archive as `skyline serve` does: ``DATABASE_URL``, else the embedded PostgreSQL
under ``--data-dir``. If a server runs on that folder (a `skyline serve`'s), the command connects
to its socket, named in ``postmaster.pid``; if none does, the command takes the data folder's lock
(service/run/supervisor.py's ``DataDirLock``, so that no `skyline serve` starts a second server on
the same data meanwhile) and runs the embedded server for its own duration.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import urllib.parse
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, cast

from ..archive.archive import Archive
from ..archive.exchange import BadLine, game_line, parse_time, read_line
from ..archive.records import ExportedGame, InvalidArchive, check
from ..archive.schema import migrate
from ..play.replays import ReplayMismatch, record_of, replayed
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
        for item in archive.stream_games(since=since, until=until, title=title, after_position=after):
            out.write(game_line(item, record_of(item.game)))
            out.flush()  # a killed export leaves whole lines (and at most one partial one) behind
            games, last = games + 1, item.position
    return games, last


@dataclass
class Tally:
    written: int = 0  # games this import wrote
    present: int = 0  # games the archive held already (a rerun, --merge)


def import_games(url: str, lines: IO[bytes], *, merge: bool, tally: Tally) -> None:
    """Write the games of ``lines`` into the archive, counting them in ``tally``. BadLine stops
    at the first line that is not a game that replays to its result (the games before it stay)."""
    migrate(url)
    with Archive(url, max_size=1, name="skyline-import") as archive:
        if not merge:
            games = cast(Generator[ExportedGame, None, None], archive.stream_games(batch=1))
            first = next(games, None)
            games.close()  # its transaction ends now, not when collected
            if first is not None:
                raise SystemExit(
                    "skyline import: the archive is not empty. To finish an interrupted import of "
                    "this file, or to add its games to this archive, run again with --merge "
                    "(games already there are left as they are)."
                )
        for number, raw in enumerate(lines, start=1):
            if not raw.strip():
                continue
            imported = read_line(raw, number)
            try:
                check(imported.game)  # its shape first: the replay reads the meta and the log
                game = replayed(imported.game)
                if record_of(game) != imported.record:
                    raise ReplayMismatch("The record part differs from the game the archive part holds.")
                if archive.write_game(game):
                    tally.written += 1
                else:
                    tally.present += 1
            except (ReplayMismatch, InvalidArchive) as error:
                raise BadLine(number, str(error)) from None


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


def run_import(args: argparse.Namespace, database_url: str | None) -> int:
    """`skyline import`'s body (the arguments of skyline/cli.py)."""
    path: str = args.file
    with archive_url(database_url, args.data_dir, "import") as url:
        lines = sys.stdin.buffer if path == "-" else open(path, "rb")
        tally = Tally()
        try:
            import_games(url, lines, merge=args.merge, tally=tally)
        except BadLine as error:
            print(f"skyline import: {error}", file=sys.stderr)
            print(
                f"skyline import: stopped there; {tally.written} games of the lines before it written",
                file=sys.stderr,
            )
            return 1
        finally:
            if lines is not sys.stdin.buffer:
                lines.close()
    print(f"skyline import: {tally.written} games written, {tally.present} already archived", file=sys.stderr)
    return 0
