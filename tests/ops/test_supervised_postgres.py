"""Issue 54: `skyline serve` runs the archive's PostgreSQL as it runs Redis — embedded unless
DATABASE_URL is set, migrated at start, its URL printed, restarted when it crashes with nothing
committed lost, stopped last. Every test runs the real supervisor with its real children."""

from __future__ import annotations

import shutil
import signal
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import psycopg
import pytest
import requests

from service.archive.schema import load_migrations
from service.run.postgres import EmbeddedPostgres

from .conftest import Serve, alive, wait_gone

pytestmark = pytest.mark.xdist_group("supervisor")


def query(url: str, sql: str) -> list[tuple[object, ...]]:
    with psycopg.connect(url, connect_timeout=3, autocommit=True) as connection:
        cursor = connection.execute(sql.encode())
        return cursor.fetchall() if cursor.description is not None else []


def wait_for_query(url: str, sql: str, timeout: float) -> list[tuple[object, ...]]:
    deadline = time.monotonic() + timeout
    while True:
        try:
            return query(url, sql)
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def postmaster(serve: Serve) -> psutil.Process:
    """The supervisor's PostgreSQL child (the postmaster, not its backends)."""
    assert serve.process is not None
    children = alive(psutil.Process(serve.process.pid).children())
    (found,) = [child for child in children if child.name() == "postgres"]
    return found


@pytest.fixture
def outside_postgres() -> Iterator[EmbeddedPostgres]:
    """A PostgreSQL the test starts itself: what DATABASE_URL would name."""
    folder = Path(tempfile.mkdtemp(prefix="skyline-serve-db-"))
    server = EmbeddedPostgres(folder, settings={"fsync": "off"}).start()
    yield server
    server.stop()
    shutil.rmtree(folder, ignore_errors=True)


def test_serve_starts_a_migrated_embedded_postgres_prints_its_url_and_stops_it_last(serves):
    serve = serves().start()
    url = serve.database_url()
    assert url.startswith("postgresql://postgres@/postgres?host=")
    applied = [version for (version,) in query(url, "SELECT version FROM archive_migrations ORDER BY 1")]
    assert applied == [migration.version for migration in load_migrations()], "migrated at start"
    assert query(url, "SELECT count(*) FROM archived_games") == [(0,)]
    server = postmaster(serve)
    assert str(serve.data_dir / "postgres" / "data") in " ".join(server.cmdline())
    redis_server = serve.named("redis-server")[0]
    serve.process.send_signal(signal.SIGINT)
    assert serve.process.wait(timeout=60) == 0
    assert not wait_gone([server, redis_server], 5.0)
    log = (serve.data_dir / "postgres" / "postgres.log").read_text()
    assert "received fast shutdown request" in log and "database system is shut down" in log


def test_postgres_killed_is_restarted_on_the_same_url_and_keeps_what_was_committed(serves):
    serve = serves().start()
    url = serve.database_url()
    query(url, "CREATE TABLE kept (n int)")
    query(url, "INSERT INTO kept VALUES (54)")
    first = postmaster(serve)
    others = [p for p in serve.descendants() if p.pid != first.pid and p.ppid() != first.pid]
    first.kill()
    assert wait_for_query(url, "SELECT n FROM kept", timeout=20) == [(54,)]
    second = postmaster(serve)
    assert second.pid != first.pid
    assert "the PostgreSQL (pid" in serve.log() and "restarting the PostgreSQL" in serve.log()
    assert all(p.is_running() for p in others), "nothing else was restarted"
    assert requests.get(serve.url + "/readyz", timeout=5).status_code == 200
    # A second kill: the backoff doubles, it comes back again.
    second.kill()
    assert wait_for_query(url, "SELECT n FROM kept", timeout=20) == [(54,)]


def test_serve_stopped_and_started_again_keeps_the_archive(serves):
    serve = serves().start()
    query(serve.database_url(), "CREATE TABLE kept (n int)")
    query(serve.database_url(), "INSERT INTO kept VALUES (7)")
    serve.process.send_signal(signal.SIGINT)
    assert serve.process.wait(timeout=60) == 0
    serve.start()
    urls = [line.split()[4] for line in serve.log().splitlines() if "embedded PostgreSQL on" in line]
    assert len(urls) == 2
    assert query(urls[-1], "SELECT n FROM kept") == [(7,)]


def test_a_database_url_is_used_and_migrated_and_no_postgres_is_started(serves, outside_postgres):
    serve = serves(DATABASE_URL=outside_postgres.url).start()
    assert "embedded PostgreSQL" not in serve.log()
    assert not [p for p in serve.descendants() if p.name() == "postgres"]
    assert query(outside_postgres.url, "SELECT count(*) FROM archive_migrations")[0][0] >= 1


def test_a_database_url_that_refuses_stops_serve_before_the_api_starts(serves, tmp_path):
    nowhere = f"postgresql://postgres@/postgres?host={tmp_path}&connect_timeout=2"
    serve = serves(DATABASE_URL=nowhere).start(wait=False)
    assert serve.process.wait(timeout=30) != 0
    log = serve.log()
    assert "the archive's PostgreSQL cannot be migrated" in log and "DATABASE_URL" in log
    assert "serving on" not in log
