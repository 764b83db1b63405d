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

from .conftest import Serve, alive, create_game, end_by_resigning, wait_gone

pytestmark = pytest.mark.xdist_group("supervisor")

# Ended games archived within a fraction of a second and let go of a second later.
ARCHIVING = {"SKYLINE_FINISHED_GAME_TTL_SECONDS": "1", "SKYLINE_ARCHIVE_SECONDS": "0.2"}


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
    assert query(url, "SELECT count(*) FROM ended_games") == [(0,)]
    server = postmaster(serve)
    assert str(serve.data_dir / "postgres" / "data") in " ".join(server.cmdline())
    redis_server = serve.named("redis-server")[0]
    serve.process.send_signal(signal.SIGINT)
    assert serve.process.wait(timeout=60) == 0
    assert not wait_gone([server, redis_server], 5.0)
    log = (serve.data_dir / "postgres" / "postgres.log").read_text()
    assert "received fast shutdown request" in log and "database system is shut down" in log


def test_postgres_killed_is_restarted_on_the_same_url_and_keeps_what_was_committed(serves):
    """And, killed again under the archivers while games end, it loses none and writes none twice
    (this test holds test_postgres_killed_while_games_end_loses_none_and_writes_none_twice, which
    started a serve of its own for it)."""
    serve = serves(**ARCHIVING).start()
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
    # A second kill, under the archivers (their pools' connections break) while games are played
    # and end: the backoff doubles, it comes back again; a PostgreSQL held down for long is
    # tests/archive/test_archiving.py's.
    games = [create_game(serve.url) for _ in range(3)]
    second.kill()
    for game in games:
        end_by_resigning(serve.url, game)
    assert wait_for_query(url, "SELECT n FROM kept", timeout=20) == [(54,)]
    ids = [game["id"] for game in games]
    assert wait_archived_and_gone(serve, ids, timeout=60) == dict.fromkeys(ids, 1)


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


# ---- the archive in the game flow (issue 54, point 2) --------------------------------------------


def archived_rows(url: str, game_ids: list[str]) -> dict[str, int]:
    found = dict.fromkeys(game_ids, 0)
    for game_id, count in wait_for_query(url, "SELECT id, count(*) FROM ended_games GROUP BY id", timeout=20):
        if game_id in found:
            found[str(game_id)] = int(str(count))
    return found


def wait_archived_and_gone(serve: Serve, game_ids: list[str], timeout: float = 30.0) -> dict[str, int]:
    """Wait until every game has its row in the archive and its keys are gone from Redis."""
    import redis

    from service.store.keys import game_key, log_key

    client = redis.Redis.from_url(serve.redis_url())
    deadline = time.monotonic() + timeout
    while True:
        rows = archived_rows(serve.database_url(), game_ids)
        try:
            left = client.exists(*[key for g in game_ids for key in (game_key(g), log_key(g))])
        except redis.ConnectionError:  # Redis restarting (killed by the test)
            left = -1
        if all(rows.values()) and not left:
            return rows
        assert time.monotonic() < deadline, f"not archived and gone: {rows}, {left} keys left"
        time.sleep(0.2)


def test_ended_games_are_archived_once_by_the_workers_then_leave_redis(serves):
    """Finished, aborted, and left idle (a waiting game past the lobby's lifetime, an active one
    past the game TTL): the workers' sweeper ends the idle ones as expired, with no request."""
    idle = {"SKYLINE_LOBBY_TTL_SECONDS": "4", "SKYLINE_GAME_TTL_SECONDS": "8", "SKYLINE_SWEEP_SECONDS": "0.5"}
    serve = serves(**ARCHIVING, **idle).start()
    finished = create_game(serve.url)
    idle_active = create_game(serve.url)
    idle_waiting = create_game(serve.url, [{"kind": "human"}, {"kind": "open"}])
    last = end_by_resigning(serve.url, finished)
    waiting = create_game(serve.url, [{"kind": "human"}, {"kind": "open"}])
    token = waiting["human_seats"][0]["token"]
    aborted = requests.post(
        f"{serve.url}/games/{waiting['id']}/abort", headers={"Authorization": f"Bearer {token}"}, timeout=10
    )
    assert aborted.status_code == 200
    ids = [finished["id"], waiting["id"], idle_active["id"], idle_waiting["id"]]
    rows = wait_archived_and_gone(serve, ids, timeout=60)
    assert rows == dict.fromkeys(ids, 1), "each archived once"
    statuses = query(serve.database_url(), "SELECT id, status FROM ended_games")
    assert {game_id: status for game_id, status in statuses if game_id in ids} == {
        finished["id"]: "finished",
        waiting["id"]: "aborted",
        idle_active["id"]: "expired",
        idle_waiting["id"]: "expired",
    }
    for game in (idle_active, idle_waiting):  # served from the archive now
        shown = requests.get(f"{serve.url}/games/{game['id']}", timeout=10).json()
        assert shown["status"] == "expired" and shown["to_act"] == []
    logged = query(serve.database_url(), f"SELECT version FROM ended_games WHERE id = '{finished['id']}'")
    assert logged == [(last,)]


def test_the_archiving_worker_killed_mid_write_leaves_nothing_half_done_and_the_game_is_archived_once(serves):
    serve = serves(**ARCHIVING, SKYLINE_ARCHIVE_LEASE_SECONDS="2").start()
    url = serve.database_url()
    game = create_game(serve.url)
    with psycopg.connect(url) as holder:
        # The worker's transaction begins and waits on its INSERT: it is killed in the middle.
        holder.execute("LOCK TABLE ended_games IN EXCLUSIVE MODE")
        end_by_resigning(serve.url, game)
        deadline = time.monotonic() + 20
        waiting = []
        while not waiting and time.monotonic() < deadline:
            waiting = query(url, "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
            time.sleep(0.1)
        assert waiting, "the archiver is held in its write"
        (worker,) = serve.named("skyline.cli worker", without="--webhooks")
        worker.kill()
        holder.rollback()
    assert wait_archived_and_gone(serve, [game["id"]], timeout=60) == {game["id"]: 1}
    assert "restarting the bot worker 1" in serve.log()


def redis_child(serve: Serve) -> psutil.Process:
    """The supervisor's embedded Redis."""
    assert serve.process is not None
    children = alive(psutil.Process(serve.process.pid).children())
    (found,) = [child for child in children if "redis" in child.name()]
    return found


def test_an_archived_game_outlives_a_kill_9_of_redis_and_a_restart_of_serve(serves):
    """Redis killed -9 just after a game was archived (its AOF may have lost the release): the game
    is served, archived once and let go; then skyline serve stopped and started on the same data
    folder serves it from the archive, with no Redis key of it left: the archive kept across a stop
    and a start (this test holds what test_serve_stopped_and_started_again_keeps_the_archive proved
    on a serve of its own, with a table made by hand)."""
    serve = serves(**ARCHIVING).start()
    game = create_game(serve.url)
    last = end_by_resigning(serve.url, game)
    deadline = time.monotonic() + 30
    while archived_rows(serve.database_url(), [game["id"]]) != {game["id"]: 1}:
        assert time.monotonic() < deadline, "not archived"
        time.sleep(0.05)
    shown_before = requests.get(f"{serve.url}/games/{game['id']}", timeout=10).content
    redis_child(serve).kill()
    assert wait_archived_and_gone(serve, [game["id"]], timeout=60) == {game["id"]: 1}, "once, not twice"
    assert requests.get(f"{serve.url}/games/{game['id']}", timeout=10).content == shown_before
    serve.process.send_signal(signal.SIGINT)
    assert serve.process.wait(timeout=60) == 0
    serve.start()
    urls = [line.split()[4] for line in serve.log().splitlines() if "embedded PostgreSQL on" in line]
    assert len(urls) == 2, "each start prints its PostgreSQL's URL"
    shown = requests.get(f"{serve.url}/games/{game['id']}", timeout=10)
    assert shown.status_code == 200 and shown.content == shown_before
    assert shown.json()["status"] == "finished" and shown.json()["version"] == last
    assert archived_rows(serve.database_url(), [game["id"]]) == {game["id"]: 1}
