"""Crashes on real processes: a writer killed mid-transaction, PostgreSQL killed under a write,
PostgreSQL down a while. Each time the game ends up archived whole, once.

A writer is held mid-transaction without touching its code: the test locks ``ended_seats``,
which the write reaches last, after it has inserted the game's row, its log and its snapshots.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from service.archive.archive import Archive, ArchiveUnavailable
from service.archive.schema import migrate
from service.run.postgres import EmbeddedPostgres

from .conftest import TABLES, backend_state, count, new_database, rows_of, start_writer, wait_for, whole
from .games import a_game


def held_on_the_seats(url: str, application: str) -> bool:
    """The writer waits on the test's lock, with everything before the seats written (uncommitted)."""
    state = backend_state(url, application)
    return state is not None and state[1] == "Lock" and state[2].startswith("INSERT INTO ended_seats")


def lock_the_seats(url: str) -> psycopg.Connection[tuple[object, ...]]:
    holder = psycopg.connect(url)
    holder.execute("LOCK TABLE ended_seats IN SHARE MODE")  # held until rollback
    return holder


@pytest.fixture
def durable(data_folder: Path) -> Iterator[EmbeddedPostgres]:
    """A server of the test's own, as `skyline serve` runs it (fsync on), to be killed."""
    server = EmbeddedPostgres(data_folder).start()
    yield server
    server.stop()


def test_a_writer_killed_mid_transaction_leaves_nothing_and_a_rerun_writes_it_once(
    postgres: EmbeddedPostgres,
) -> None:
    url = new_database(postgres)
    migrate(url)
    game = a_game("killed-writer", moves=500)
    holder = lock_the_seats(url)
    writer = start_writer(url, game.id, 500, "writer-killed")
    try:
        wait_for(lambda: held_on_the_seats(url, "writer-killed"), what="the seats", process=writer)
        assert rows_of(url, game.id) == dict.fromkeys(TABLES, 0)  # written, not committed: unseen
        writer.send_signal(signal.SIGKILL)
        writer.communicate()
    finally:
        holder.rollback()
        holder.close()
        if writer.poll() is None:
            writer.kill()
            writer.communicate()
    wait_for(lambda: backend_state(url, "writer-killed") is None, what="the killed writer's session to end")
    assert rows_of(url, game.id) == dict.fromkeys(TABLES, 0)
    rerun = start_writer(url, game.id, 500, "writer-rerun")
    assert rerun.communicate(timeout=120)[0].strip() == "wrote"
    assert rows_of(url, game.id) == whole(game)
    again = start_writer(url, game.id, 500, "writer-again")
    assert again.communicate(timeout=120)[0].strip() == "already"
    with Archive(url) as archive:
        assert archive.read_log(game.id) == list(game.log)


def test_postgresql_killed_under_a_write_keeps_what_was_committed_and_a_rerun_writes_it_once(
    durable: EmbeddedPostgres,
) -> None:
    url = durable.url
    migrate(url)
    before = a_game("archived-before", moves=40)
    with Archive(url) as archive:
        assert archive.write_game(before)
    game = a_game("under-the-crash", moves=300)
    holder = lock_the_seats(url)
    writer = start_writer(url, game.id, 300, "writer-crash")
    try:
        wait_for(lambda: held_on_the_seats(url, "writer-crash"), what="the seats", process=writer)
        durable.halt(kill=True)  # kill -9 of the postmaster; its backends go with it
        out, _ = writer.communicate(timeout=60)
    finally:
        holder.close()
        if writer.poll() is None:
            writer.kill()
            writer.communicate()
    assert writer.returncode == 3 and any(line.startswith("unavailable: ") for line in out.splitlines()), out
    durable.start()  # the supervisor's restart: the WAL is replayed, the same URL
    assert "not properly shut down" in durable.log_path.read_text()
    with Archive(url) as archive:
        assert list(archive.read_log(before.id)) == list(before.log)
        assert rows_of(url, before.id) == whole(before)
        assert not archive.has_game(game.id)
        rerun = start_writer(url, game.id, 300, "writer-after-crash")
        assert rerun.communicate(timeout=120)[0].strip() == "wrote"
        assert rows_of(url, game.id) == whole(game)
        assert archive.write_game(game) is False


def test_postgresql_down_a_while_then_back(durable: EmbeddedPostgres) -> None:
    """While it is down every call is ArchiveUnavailable and nothing is half done; once it is back
    the same Archive (its pool) serves again, even after its reconnection attempts gave up."""
    url = durable.url
    migrate(url)
    game = a_game("waited", moves=20)
    with Archive(url, timeout=1.0, reconnect_timeout=1.0) as archive:
        assert archive.has_game("nothing") is False
        durable.halt()
        for call in (lambda: archive.write_game(game), lambda: archive.has_game(game.id)):
            with pytest.raises(ArchiveUnavailable):
                call()
        time.sleep(2.5)  # past the pool's reconnect_timeout: it has given up on its attempts
        durable.start()
        deadline = time.monotonic() + 30
        while True:  # what the archiving worker will do: try again later
            try:
                assert archive.write_game(game) is True
                break
            except ArchiveUnavailable:
                assert time.monotonic() < deadline, "the pool never came back"
                time.sleep(0.2)
        assert archive.write_game(game) is False
    assert rows_of(url, game.id) == whole(game)
    assert count(url, "ended_games", game.id) == 1
