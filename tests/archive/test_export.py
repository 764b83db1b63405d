"""`skyline export` and `skyline import` on a real PostgreSQL: as real processes where the process
is the point (the round trip, the kills, the memory, the data folder's own server), run by the
command's ``main`` in the test's process elsewhere (``skyline_here``: the same exit code and output).

The games are played by the real engines (tests/archive/played.py) wherever an import replays
them; the export-only tests (resuming, memory, filters) use tests/archive/games.py's, whose states
are not an engine's.
"""

from __future__ import annotations

import dataclasses
import datetime
import io
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

import orjson
import psycopg
import pytest

from engines import registry
from service.archive.archive import Archive
from service.archive.records import ArchivedGame, snapshot_versions
from service.archive.schema import migrate
from service.run.postgres import EmbeddedPostgres
from service.run.supervisor import DataDirLock

from .conftest import ROOT, new_database, rows_of, wait_for, whole
from .games import EPOCH, a_game
from .played import played_game


def skyline(
    *args: str, url: str | None = None, stdin: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    """`skyline <args>` in a process of its own, on the archive at ``url`` (DATABASE_URL)."""
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    if url is not None:
        env["DATABASE_URL"] = url
    return subprocess.run(
        [sys.executable, "-m", "skyline.cli", *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        timeout=300,
    )


def skyline_here(
    *args: str, url: str | None = None, stdin: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    """`skyline <args>` run by the command's own ``main`` in this process, answered as ``skyline``
    answers (exit code, standard output and error): each process's start (0.6 CPU-s, its imports)
    is paid only where the process is the point (a kill, its memory, the data folder's server).
    An exception escapes, failing the test, where the process would have printed a traceback."""
    from skyline.cli import main

    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    if url is not None:
        env["DATABASE_URL"] = url
    out, err = io.BytesIO(), io.BytesIO()
    streams = (
        io.TextIOWrapper(io.BytesIO(stdin or b""), encoding="utf-8"),
        io.TextIOWrapper(out, encoding="utf-8", write_through=True),
        io.TextIOWrapper(err, encoding="utf-8", write_through=True),
    )
    with (
        mock.patch.dict(os.environ, env, clear=True),
        mock.patch.multiple(sys, stdin=streams[0], stdout=streams[1], stderr=streams[2]),
    ):
        try:
            code: object = main(list(args))
        except SystemExit as stop:  # as the interpreter ends on it: a message is printed, exit 1
            code = stop.code
            if isinstance(code, str):
                print(code, file=sys.stderr)
                code = 1
        streams[1].flush()
        streams[2].flush()
    return subprocess.CompletedProcess(
        ["skyline", *args], 0 if code is None else int(code), out.getvalue(), err.getvalue()
    )


def start_skyline(*args: str, url: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "skyline.cli", *args],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": url},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def kill_once(process: subprocess.Popen[str], condition: Callable[[], bool], what: str) -> None:
    """kill -9 ``process`` once ``condition()`` holds; fail if it had ended by itself before."""
    try:
        wait_for(condition, what=what, process=process)
        process.send_signal(signal.SIGKILL)
        assert process.wait(timeout=30) == -signal.SIGKILL, f"it ended before it was killed, after {what}"
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate()


def archived(url: str, games: list[ArchivedGame]) -> str:
    migrate(url)
    with Archive(url) as archive:
        for game in games:
            assert archive.write_game(game)
    return url


def lines_of(path: Path) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def served_as_written(url: str, game: ArchivedGame) -> None:
    """The archive at ``url`` gives back ``game`` byte for byte: its record (but for where and when
    this archive took it: position, archived_at), its log, and the state at every kept version."""
    with Archive(url) as archive:
        record = archive.read_game(game.id)
        assert record is not None, game.id
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
        assert archive.read_log(game.id) == list(game.log)
        for snapshot in game.all_snapshots():
            assert archive.snapshot_at_or_before(game.id, snapshot.version) == snapshot


@pytest.fixture(scope="module")
def played() -> list[ArchivedGame]:
    """A finished game of every title but New York (random moves take it past 20,000 of them),
    and an aborted New York and an expired Property, stopped part of the way."""
    games = [played_game(title, seed=11) for title in sorted(registry.GAMES) if title != "new-york"]
    games.append(played_game("new-york", seed=5, status="aborted", moves=300))
    games.append(played_game("property", seed=6, status="expired", moves=9))
    return games


def test_an_export_imported_into_an_empty_archive_serves_every_game_as_before(
    postgres: EmbeddedPostgres, played: list[ArchivedGame], tmp_path: Path
) -> None:
    played = [dataclasses.replace(played[0], rematch="its-rematch"), *played[1:]]  # a rematch kept too
    source = archived(new_database(postgres), played)
    export = tmp_path / "games.ndjson"
    done = skyline("export", "--output", str(export), url=source)
    assert done.returncode == 0, done.stderr
    lines = lines_of(export)
    assert [line["record"]["id"] for line in lines] == [game.id for game in played]
    for line, game in zip(lines, played, strict=True):
        assert line["format"] == 1 and line["status"] == game.status
        record = line["record"]
        assert isinstance(record, dict)
        assert (record["result"] is None) == (game.status != "finished")
        assert len(record["moves"]) == sum(1 for entry in game.log if b'"move"' in entry.entry)
    # Seat token digests, never a token.
    assert b"token_hash" in export.read_bytes() and b'"token"' not in export.read_bytes()

    target = new_database(postgres)  # not even migrated: the import does it
    done = skyline("import", str(export), url=target)
    assert done.returncode == 0, done.stderr
    assert f"{len(played)} games written".encode() in done.stderr
    for game in played:
        served_as_written(target, game)
    with Archive(target) as archive:
        assert [item.game.id for item in archive.stream_games()] == [game.id for game in played]

    # Exported again, the games are the same lines but for where and when this archive took them.
    again = tmp_path / "again.ndjson"
    assert skyline("export", "-o", str(again), url=target).returncode == 0
    for first, second in zip(lines_of(export), lines_of(again), strict=True):
        assert {**first, "position": 0, "archived_at": ""} == {**second, "position": 0, "archived_at": ""}


def test_an_archive_with_games_is_refused_unless_merging_and_a_rerun_writes_nothing_twice(
    postgres: EmbeddedPostgres, played: list[ArchivedGame], tmp_path: Path
) -> None:
    export = tmp_path / "games.ndjson"
    assert (
        skyline_here("export", "-o", str(export), url=archived(new_database(postgres), played[:3])).returncode
        == 0
    )
    target = archived(new_database(postgres), played[:1])  # as if an import stopped after one game

    refused = skyline_here("import", str(export), url=target)
    assert refused.returncode != 0 and b"not empty" in refused.stderr and b"--merge" in refused.stderr
    assert rows_of(target, played[1].id)["ended_games"] == 0

    merged = skyline_here("import", "--merge", str(export), url=target)
    assert merged.returncode == 0, merged.stderr
    assert b"2 games written, 1 already archived" in merged.stderr
    assert skyline_here("import", "--merge", str(export), url=target).stderr.endswith(
        b"0 games written, 3 already archived\n"
    )
    for game in played[:3]:
        served_as_written(target, game)


def tampered(line: bytes, change: str) -> bytes:
    parsed = orjson.loads(line)
    if change == "result":  # both parts agree, on a result the moves do not reach
        result = orjson.loads(parsed["archive"]["result"])
        result["ranks"] = list(reversed(result["ranks"]))
        result["winners"] = [seat for seat, rank in enumerate(result["ranks"]) if rank == 1]
        parsed["archive"]["result"] = orjson.dumps(result).decode()
        parsed["record"]["result"] = result
    elif change == "record":  # the readers' part says another thing than the archive's
        parsed["record"]["seed"] += 1
    elif change == "move":  # a move the rules refuse
        entry = orjson.loads(parsed["archive"]["log"][0]["entry"])
        entry["move"] = {"not": "a move"}
        parsed["archive"]["log"][0]["entry"] = orjson.dumps(entry).decode()
    elif change == "token":
        meta = orjson.loads(parsed["archive"]["meta"])
        meta["seats"][0]["token"] = "a-token"
        parsed["archive"]["meta"] = orjson.dumps(meta).decode()
    return orjson.dumps(parsed)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ("result", b"replays to the result"),
        ("record", b"record part differs"),
        ("move", b"not a legal move"),
        ("token", b"holds a token"),
        ("json", b"not JSON"),
    ],
)
def test_a_bad_line_stops_the_import_at_its_number_with_nothing_of_the_file_written(
    postgres: EmbeddedPostgres, played: list[ArchivedGame], tmp_path: Path, change: str, reason: bytes
) -> None:
    finished = [game for game in played if game.status == "finished"][:3]
    export = tmp_path / "games.ndjson"
    assert (
        skyline_here("export", "-o", str(export), url=archived(new_database(postgres), finished)).returncode
        == 0
    )
    lines = export.read_bytes().splitlines()
    lines[1] = lines[1][:-7] if change == "json" else tampered(lines[1], change)
    export.write_bytes(b"\n".join(lines) + b"\n")

    target = new_database(postgres)
    done = skyline_here("import", str(export), url=target)
    assert done.returncode == 1
    assert b"\nskyline import: line 2: " in done.stderr, done.stderr
    assert reason in done.stderr and b"Traceback" not in done.stderr
    assert b"nothing of the file was written" in done.stderr
    # One transaction: the good line before the bad one is not written either.
    for game in finished:
        assert set(rows_of(target, game.id).values()) == {0}


def test_a_killed_export_resumed_from_its_file_writes_every_game_once(
    postgres: EmbeddedPostgres, tmp_path: Path
) -> None:
    games = [a_game(f"resume{n}", moves=12, entry_bytes=3000) for n in range(400)]
    url = archived(new_database(postgres), games)
    export = tmp_path / "games.ndjson"
    kill_once(
        start_skyline("export", "-o", str(export), url=url),
        lambda: export.exists() and export.read_bytes().count(b"\n") >= 5,
        "the export's first lines",
    )
    written = export.read_bytes()
    assert written.count(b"\n") < len(games), "the export was done before the kill: nothing to resume"
    with open(export, "ab") as file:  # and a line cut short, whatever the kill cut
        file.write(b'{"format":1,"position":')

    done = skyline_here("export", "--output", str(export), "--resume", url=url)
    assert done.returncode == 0, done.stderr
    ids = [line["record"]["id"] for line in lines_of(export)]
    assert ids == [game.id for game in games]
    positions = [line["position"] for line in lines_of(export)]
    assert positions == sorted(positions) and len(set(positions)) == len(games)

    # A position given by hand: the games after it.
    after = skyline_here("export", "--after", str(positions[-3]), url=url)
    assert [orjson.loads(line)["record"]["id"] for line in after.stdout.splitlines()] == ids[-2:]


def resident_kb(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
    except (OSError, IndexError):
        return None


def test_a_large_export_streams_in_constant_memory(postgres: EmbeddedPostgres, tmp_path: Path) -> None:
    """100 games of 400 kB (40 MB of lines) go through `skyline export`, whose resident memory,
    read from outside while it writes, rises by less than 12 MB after its first game."""
    url = new_database(postgres)
    migrate(url)
    with Archive(url) as archive:
        for n in range(100):
            archive.write_game(a_game(f"big{n}", moves=40, entry_bytes=5000, meta_bytes=200_000))
    export = tmp_path / "big.ndjson"
    exporting = start_skyline("export", "-o", str(export), url=url)
    first: int | None = None
    highest = 0
    try:
        while exporting.poll() is None:
            rss = resident_kb(exporting.pid)
            if rss is not None and export.exists() and export.stat().st_size > 0:
                first = rss if first is None else first
                highest = max(highest, rss)
            time.sleep(0.01)
    finally:
        _, stderr = exporting.communicate()
    assert exporting.returncode == 0, stderr
    assert export.stat().st_size > 40_000_000 and export.read_bytes().count(b"\n") == 100
    assert first is not None, "the export was never seen writing"
    assert highest - first < 12_000, f"the export's memory rose by {(highest - first) / 1000:.1f} MB"


def test_since_until_and_title_choose_the_games(postgres: EmbeddedPostgres) -> None:
    hour = datetime.timedelta(hours=1)
    games = [
        a_game(f"w{n}", moves=2, title=("property", "new-york")[n % 2], ended_at=EPOCH + n * hour)
        for n in range(8)
    ]
    url = archived(new_database(postgres), games)

    def exported(*options: str) -> list[str]:
        done = skyline_here("export", *options, url=url)
        assert done.returncode == 0, done.stderr
        return [orjson.loads(line)["record"]["id"] for line in done.stdout.splitlines()]

    since, until = "2026-11-30T14:00:00Z", "2026-11-30T18:00:00.123456+00:00"  # EPOCH is 12:00:00.123456
    assert exported("--since", since) == ["w2", "w3", "w4", "w5", "w6", "w7"]
    assert exported("--until", until) == ["w0", "w1", "w2", "w3", "w4", "w5"]
    assert exported("--since", since, "--until", until, "--title", "new-york") == ["w3", "w5"]
    assert exported("--since", "2026-11-30T16:00:00+02:00", "--title", "property") == ["w2", "w4", "w6"]
    assert exported("--title", "fresh-fish") == []
    refused = skyline_here("export", "--since", "2026-11-30T14:00:00", url=url)
    assert refused.returncode == 2 and b"no time zone" in refused.stderr


def test_without_database_url_the_commands_use_the_data_folders_postgresql(
    postgres: EmbeddedPostgres, played: list[ArchivedGame], data_folder: Path, tmp_path: Path
) -> None:
    """No server on the folder: the command runs the embedded one for its own duration (and holds
    the folder's lock meanwhile). A server on it (a `skyline serve`'s): the command uses its socket."""
    export = tmp_path / "games.ndjson"
    source = archived(new_database(postgres), played[:2])
    assert skyline_here("export", "-o", str(export), url=source).returncode == 0

    done = skyline("import", "--data-dir", str(data_folder), str(export))
    assert done.returncode == 0, done.stderr
    assert not (data_folder / "postgres" / "data" / "postmaster.pid").exists(), "its server was left running"

    lock = DataDirLock(data_folder)  # a `skyline serve` whose PostgreSQL is not up
    lock.acquire({"pid": os.getpid(), "host": "127.0.0.1", "port": 8000})
    try:
        refused = skyline("export", "--data-dir", str(data_folder))
    finally:
        lock.release()
    assert refused.returncode != 0 and b"in use by another" in refused.stderr
    assert b"PostgreSQL is not running" in refused.stderr

    server = EmbeddedPostgres(data_folder).start()  # as `skyline serve` runs it
    try:
        for game in played[:2]:
            served_as_written(server.url, game)
        again = skyline("export", "--data-dir", str(data_folder))
        assert again.returncode == 0, again.stderr
        assert [orjson.loads(line)["record"]["id"] for line in again.stdout.splitlines()] == [
            game.id for game in played[:2]
        ]
    finally:
        server.stop()


def test_snapshot_versions_of_the_played_games_are_the_archives(played: list[ArchivedGame]) -> None:
    """What the import recomputes is what was kept while playing (the fixture's own states)."""
    from service.play.replays import replayed

    for game in played:
        again = replayed(game)
        assert again.final_state == game.final_state
        assert again.all_snapshots() == game.all_snapshots()
        assert [s.version for s in again.all_snapshots()] == snapshot_versions(game.version)


def archived_count(url: str) -> int:
    with psycopg.connect(url) as connection:
        row = connection.execute("SELECT count(*) FROM ended_games").fetchone()
    assert row is not None
    return int(row[0])


def importing_has_written(url: str) -> bool:
    """Whether the import's session is in a transaction that has written (it has a transaction id)."""
    with psycopg.connect(url) as connection:
        row = connection.execute(
            "SELECT 1 FROM pg_stat_activity "
            "WHERE application_name = 'skyline-import' AND backend_xid IS NOT NULL"
        ).fetchone()
    return row is not None


def test_an_import_killed_midway_writes_nothing_and_a_rerun_writes_every_game_once(
    postgres: EmbeddedPostgres, played: list[ArchivedGame], tmp_path: Path
) -> None:
    finished = [game for game in played if game.status == "finished"]
    export = tmp_path / "games.ndjson"
    assert (
        skyline_here("export", "-o", str(export), url=archived(new_database(postgres), finished)).returncode
        == 0
    )
    # Copies of each game under ids of their own: enough lines for the kill to land mid-way (the
    # kill follows the first write; each line after it is a replay and a write to go).
    lines, games = [], []
    for copy in range(10):
        for line, game in zip(export.read_bytes().splitlines(), finished, strict=True):
            parsed = orjson.loads(line)
            parsed["record"]["id"] = f"{game.id}-{copy}"
            lines.append(orjson.dumps(parsed))
            games.append(dataclasses.replace(game, id=f"{game.id}-{copy}"))
    export.write_bytes(b"\n".join(lines) + b"\n")
    target = new_database(postgres)
    migrate(target)

    kill_once(
        start_skyline("import", str(export), url=target),
        lambda: importing_has_written(target),
        "the import's first writes",
    )
    assert archived_count(target) == 0  # its one transaction died with it

    done = skyline_here("import", str(export), url=target)  # not even --merge: the archive is empty
    assert done.returncode == 0, done.stderr
    assert f"{len(games)} games written, 0 already archived".encode() in done.stderr
    assert archived_count(target) == len(games)
    for game in games[:2] + games[-2:]:
        assert rows_of(target, game.id) == whole(game)
        served_as_written(target, game)
    with Archive(target) as archive:  # positions in the file's order
        assert [item.game.id for item in archive.stream_games()] == [game.id for game in games]


def test_a_line_of_the_wrong_shape_and_a_file_that_cannot_resume_are_refused(
    postgres: EmbeddedPostgres, played: list[ArchivedGame], tmp_path: Path
) -> None:
    export = tmp_path / "games.ndjson"
    url = archived(new_database(postgres), played[:1])
    assert skyline_here("export", "-o", str(export), url=url).returncode == 0
    parsed = orjson.loads(export.read_bytes())
    for change, reason in (
        ({"meta": "[1, 2]"}, b"line 1: The meta is an object"),
        ({"seats": [{"seat": 0, "kind": "human", "rank": "first"}]}, b"line 1: a seat's player_id"),
        (
            {"ended_at": "2026-11-30T12:00:00"},
            b"line 1: archive.ended_at: '2026-11-30T12:00:00' has no time zone",
        ),
    ):
        bad = {**parsed, "archive": {**parsed["archive"], **change}}
        done = skyline_here("import", "-", url=new_database(postgres), stdin=orjson.dumps(bad) + b"\n")
        assert done.returncode == 1 and reason in done.stderr, done.stderr
    future = {**parsed, "format": 2}
    done = skyline_here("import", "-", url=new_database(postgres), stdin=orjson.dumps(future))
    assert done.returncode == 1 and b"line 1: format 2 is not one this version reads (1)" in done.stderr

    cut = tmp_path / "cut.ndjson"
    cut.write_bytes(b"not a line\n")
    refused = skyline_here("export", "-o", str(cut), "--resume", url=url)
    assert refused.returncode != 0 and b"does not end with a line of an export" in refused.stderr
    assert cut.read_bytes() == b"not a line\n"
