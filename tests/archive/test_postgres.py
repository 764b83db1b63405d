"""The embedded PostgreSQL (service/run/postgres.py) as `skyline serve` will supervise it: a real
server per test, started, crashed, restarted and stopped."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from service.run.postgres import SYSTEM_USER, EmbeddedPostgres, PostgresDataInUse

from .conftest import ROOT, wait_for


def query(url: str, sql: str) -> list[tuple[object, ...]]:
    with psycopg.connect(url, autocommit=True) as connection:
        cursor = connection.execute(sql.encode())
        return cursor.fetchall() if cursor.description else []


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (ProcessLookupError, FileNotFoundError):
        return True
    return state == "Z"  # exited, not yet reaped by whoever adopted it


def group_gone(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


# Without fsync where nothing crashes (initdb's sync is most of a start on a busy machine);
# the crash tests run the server as `skyline serve` does.
QUICK = {"fsync": "off"}


@pytest.fixture
def server(data_folder: Path) -> Iterator[EmbeddedPostgres]:
    started = EmbeddedPostgres(data_folder, settings=QUICK).start()
    yield started
    started.stop()


@pytest.fixture
def durable_server(data_folder: Path) -> Iterator[EmbeddedPostgres]:
    started = EmbeddedPostgres(data_folder).start()
    yield started
    started.stop()


def test_it_serves_on_a_private_socket_only(server: EmbeddedPostgres, data_folder: Path) -> None:
    assert query(server.url, "SHOW listen_addresses") == [("",)]
    assert server.url.startswith("postgresql://postgres@/postgres?host=/")
    assert len(server.socket + ".lock") <= 107 and Path(server.socket).is_socket()
    assert oct(Path(server.socket_dir).stat().st_mode & 0o777) == "0o700"
    assert (data_folder / "postgres" / "data" / "PG_VERSION").read_text().strip() == "18"
    assert server.process is not None
    owner = os.stat(f"/proc/{server.process.pid}").st_uid
    if os.geteuid() == 0:  # PostgreSQL refuses root: the server runs as a user of its own
        import pwd

        assert owner == pwd.getpwnam(SYSTEM_USER).pw_uid
    else:
        assert owner == os.geteuid()
    assert query(server.url, "SHOW server_encoding") == [("UTF8",)]


def test_a_data_folder_too_deep_for_a_socket_path(data_folder: Path) -> None:
    deep = data_folder / ("d" * 60) / ("e" * 60)
    server = EmbeddedPostgres(deep, settings=QUICK).start()
    try:
        assert len(str(deep)) > 107
        assert query(server.url, "SELECT 1") == [(1,)]
    finally:
        server.stop()


def test_a_second_start_on_the_same_data_folder_is_refused(
    server: EmbeddedPostgres, data_folder: Path
) -> None:
    query(server.url, "CREATE TABLE kept (x integer); INSERT INTO kept VALUES (1)")
    second = EmbeddedPostgres(data_folder, settings=QUICK)
    assert server.process is not None
    with pytest.raises(PostgresDataInUse, match=f"in use by a server \\(pid {server.process.pid}\\)"):
        second.start()
    second.stop()
    assert second.process is None
    assert query(server.url, "SELECT x FROM kept") == [(1,)]  # the first serves on, untouched


def test_a_crash_keeps_what_was_committed_and_restarts_on_the_same_url(
    durable_server: EmbeddedPostgres,
) -> None:
    server = durable_server
    query(server.url, "CREATE TABLE kept (x integer); INSERT INTO kept VALUES (1)")
    url = server.url
    open_transaction = psycopg.connect(url)  # a backend of its own, with work in flight
    open_transaction.execute("INSERT INTO kept VALUES (2)")
    assert server.process is not None
    postmaster = server.process.pid
    os.kill(postmaster, signal.SIGKILL)  # an OOM kill, say: the supervisor sees the child die
    server.process.wait()
    server.start()  # what the supervisor's restart does
    assert group_gone(postmaster), "the crashed server's backends were killed before the restart"
    assert server.url == url
    assert query(url, "SELECT x FROM kept") == [(1,)]
    assert "not properly shut down" in server.log_path.read_text()
    open_transaction.close()


def test_a_kill_through_halt_then_a_start(durable_server: EmbeddedPostgres) -> None:
    server = durable_server
    query(server.url, "CREATE TABLE kept (x integer); INSERT INTO kept VALUES (1)")
    server.halt(kill=True)
    assert server.process is not None and server.process.returncode == -signal.SIGKILL
    server.start()
    assert query(server.url, "SELECT x FROM kept") == [(1,)]


def test_a_clean_stop_then_a_start_keeps_the_data(server: EmbeddedPostgres, data_folder: Path) -> None:
    query(server.url, "CREATE TABLE kept (x integer); INSERT INTO kept VALUES (1)")
    server.halt()
    assert server.process is not None and server.process.returncode == 0
    assert not (data_folder / "postgres" / "data" / "postmaster.pid").exists()
    server.start()
    assert query(server.url, "SELECT x FROM kept") == [(1,)]
    server.stop()
    assert not Path(server.socket_dir).exists()
    again = EmbeddedPostgres(data_folder, settings=QUICK).start()  # a new run: a new socket, the same data
    try:
        assert query(again.url, "SELECT x FROM kept") == [(1,)]
    finally:
        again.stop()


SUPERVISOR = """
import signal, sys, time
from service.run.parentdeath import die_with_parent
from service.run.postgres import EmbeddedPostgres, STOP_SIGNAL
server = EmbeddedPostgres(sys.argv[1], popen_options={"preexec_fn": lambda: die_with_parent(STOP_SIGNAL)})
server.start()
print(server.process.pid, server.url, flush=True)
time.sleep(600)
"""


def test_it_stops_cleanly_when_its_supervisor_is_killed(data_folder: Path) -> None:
    """Started the way the supervisor starts it (a parent-death signal), it shuts down by itself —
    a fast shutdown, no recovery needed — when the supervisor dies of a kill -9."""
    supervisor = subprocess.Popen(
        [sys.executable, "-c", SUPERVISOR, str(data_folder)], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert supervisor.stdout is not None
        pid_text, url = supervisor.stdout.readline().split()
        query(url, "CREATE TABLE kept (x integer); INSERT INTO kept VALUES (1)")
        supervisor.send_signal(signal.SIGKILL)
        supervisor.wait()
        wait_for(lambda: gone(int(pid_text)), what="the server's exit")
    finally:
        if supervisor.poll() is None:
            supervisor.kill()
        supervisor.communicate()
    shutil.rmtree(url.rpartition("host=")[2], ignore_errors=True)  # the killed supervisor's socket folder
    log = (data_folder / "postgres" / "postgres.log").read_text()
    assert "received fast shutdown request" in log and "database system is shut down" in log
    assert not (data_folder / "postgres" / "data" / "postmaster.pid").exists()
    again = EmbeddedPostgres(data_folder).start()
    try:
        assert query(again.url, "SELECT x FROM kept") == [(1,)]
    finally:
        again.stop()


def test_an_initdb_cut_short_is_started_over(data_folder: Path) -> None:
    staging = data_folder / "postgres" / "data.initdb"
    staging.mkdir(parents=True)
    (staging / "PG_VERSION").write_text("18\n")  # what a killed initdb may leave
    server = EmbeddedPostgres(data_folder, settings=QUICK).start()
    try:
        assert query(server.url, "SELECT 1") == [(1,)]
        assert not staging.exists()
    finally:
        server.stop()
