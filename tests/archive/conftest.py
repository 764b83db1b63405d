"""A real PostgreSQL for the archive's tests: the embedded server, started once per session under a
temporary folder; each test that needs a clean slate gets a database of its own on it.

The servers' folders are not pytest's: as root the server runs as another user, who must reach its
folder, and every pytest session (of anyone on the machine, as root) takes the search bit off
/tmp/pytest-of-root again. They live in folders of their own under the temp dir, removed after.
"""

from __future__ import annotations

import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest

from service.archive.archive import Archive
from service.archive.records import ArchivedGame
from service.archive.schema import migrate
from service.run.embedded import EmbeddedRedis
from service.run.postgres import EmbeddedPostgres
from service.store.archiving import ArchiveDue
from service.store.keys import ARCHIVE_DUE, index_keys
from worker.archiver import Archiver

ROOT = Path(__file__).resolve().parents[2]


def server_folder() -> Path:
    return Path(tempfile.mkdtemp(prefix="skyline-archive-test-"))


@pytest.fixture(scope="session")
def postgres() -> Iterator[EmbeddedPostgres]:
    folder = server_folder()
    # Without fsync: what the tests do to this server is kill processes, never the machine
    # (the crash tests start servers of their own, as `skyline serve` does).
    server = EmbeddedPostgres(folder, settings={"fsync": "off"}).start()
    yield server
    server.stop()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def data_folder() -> Iterator[Path]:
    """A data folder for a server of the test's own (the test starts and stops it)."""
    folder = server_folder()
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def new_database(server: EmbeddedPostgres) -> str:
    """A new empty database on ``server``; its URL."""
    name = f"test_{secrets.token_hex(6)}"
    with psycopg.connect(server.url, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"'.encode())
    return server.url_of(name)


@pytest.fixture
def database(postgres: EmbeddedPostgres) -> str:
    """The URL of an empty database of the test's own."""
    return new_database(postgres)


@pytest.fixture
def database_url(postgres: EmbeddedPostgres) -> str:
    """A migrated database of the test's own."""
    url = new_database(postgres)
    migrate(url)
    return url


GRACE = 30  # how long an archived game stays in Redis, in the archiver's tests


@pytest.fixture
def archiver(redis_client, database_url: str) -> Iterator[Archiver]:
    """A worker's archiver on the session's Redis (its due set emptied: only this test's games)."""
    redis_client.delete(*index_keys(ARCHIVE_DUE))
    made = Archiver(
        ArchiveDue(redis_client), database_url, interval_seconds=0, lease_seconds=30, grace_seconds=GRACE
    )
    yield made
    made.stop()


@pytest.fixture(scope="session")
def shared_database(postgres: EmbeddedPostgres) -> str:
    """A migrated database that the tests share, each with game ids of its own."""
    url = new_database(postgres)
    migrate(url)
    return url


@pytest.fixture(scope="session")
def archive(shared_database: str) -> Iterator[Archive]:
    with Archive(shared_database, max_size=4) as opened:
        yield opened


def count(url: str, table: str, game_id: str) -> int:
    column = "id" if table == "ended_games" else "game_id"
    with psycopg.connect(url) as connection:
        row = connection.execute(
            f"SELECT count(*) FROM {table} WHERE {column} = %s".encode(), (game_id,)
        ).fetchone()
    assert row is not None
    return int(row[0])


TABLES = ("ended_games", "ended_seats")


def rows_of(url: str, game_id: str) -> dict[str, int]:
    return {table: count(url, table, game_id) for table in TABLES}


def whole(game: ArchivedGame) -> dict[str, int]:
    return {
        "ended_games": 1,
        "ended_seats": len(game.seats),
    }


def wait_for(
    condition: Callable[[], bool],
    timeout: float = 30.0,
    what: str = "the condition",
    process: subprocess.Popen[str] | None = None,
) -> None:
    """Wait until ``condition()``; fail at once, with its output, if ``process`` exits meanwhile."""
    deadline = time.monotonic() + timeout
    while not condition():
        if process is not None and process.poll() is not None:
            output = "".join(part or "" for part in process.communicate())
            raise AssertionError(f"the process exited ({process.returncode}) before {what}:\n{output}")
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def backend_state(url: str, application: str) -> tuple[str, str, str] | None:
    """(state, wait_event_type, query) of the session named ``application``, or None when gone;
    its busiest, when it has several (a process's pool may have opened an idle second one)."""
    with psycopg.connect(url) as connection:
        row = connection.execute(
            "SELECT state, coalesce(wait_event_type, ''), query FROM pg_stat_activity "
            "WHERE application_name = %s ORDER BY state = 'idle', backend_xid IS NULL LIMIT 1",
            (application,),
        ).fetchone()
    return None if row is None else (row[0], row[1], row[2])


def start_writer(url: str, game_id: str, moves: int, application: str) -> subprocess.Popen[str]:
    """A real process archiving game ``game_id`` (tests/archive/writer.py)."""
    return subprocess.Popen(
        [sys.executable, "-m", "tests.archive.writer", url, game_id, str(moves), application],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedRedis]:
    """A Redis of the module's own: an archiver archives every game due in its Redis, and the
    session's is shared with other modules' servers, whose bots may end games meanwhile."""
    server = EmbeddedRedis(tmp_path_factory.mktemp("redis"), appendonly=False).start()
    yield server
    server.stop()
