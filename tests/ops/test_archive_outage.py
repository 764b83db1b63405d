"""Issue 65: the edges of the API on real processes (gunicorn, an RQ worker with its archiver, a
PostgreSQL the test stops and starts), under both worker classes; and an import beside a running
`skyline serve`, which finds its live games.

- An id the service could never have made is a 404 on every route that names a game.
- PostgreSQL stopped: an archived game's read is a 503 ``archive_unavailable`` at once (a circuit
  opened at the first failure), an unknown id a 404 from Redis alone, and live games are created
  and played as before, even with forty archived reads at once (no thread waits for PostgreSQL).
- PostgreSQL back: a game that ended meanwhile is archived within seconds, and the archived reads
  answer again once the circuit's Retry-After has passed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import pytest
import redis
import requests

from service.archive.schema import migrate
from service.run.postgres import EmbeddedPostgres
from service.store.keys import ARCHIVED_IDS_THROUGH, game_key

from .conftest import create_game, end_by_resigning, play_first_moves

ARCHIVED_READS = ("", "/events", "/record", "/board.svg", "/board.txt", "/moves", "/versions/1")
# Every way of naming a game the service never could: a NUL, a slash, 65 characters, others.
IMPOSSIBLE = ("%00", "a%00b", "a%2Fb", "a" * 65, "g%C3%A9", "a.b", "%20")
EVERY_GAME_ROUTE = (
    ("GET", ""),
    ("GET", "/moves"),
    ("POST", "/actions"),
    ("GET", "/events"),
    ("GET", "/record"),
    ("GET", "/board.svg"),
    ("GET", "/board.txt"),
    ("GET", "/versions/0"),
    ("GET", "/versions/0/board.svg"),
    ("GET", "/versions/0/board.txt"),
    ("POST", "/join"),
    ("POST", "/leave"),
    ("POST", "/resign"),
    ("POST", "/rematch"),
    ("POST", "/abort"),
    ("GET", "/webhook"),
    ("PUT", "/webhook"),
    ("GET", "/webhooks/deliveries"),
)


@pytest.fixture
def outside_postgres() -> Iterator[EmbeddedPostgres]:
    """A PostgreSQL the test stops and starts itself (DATABASE_URL), migrated."""
    folder = Path(tempfile.mkdtemp(prefix="skyline-outage-db-"))
    server = EmbeddedPostgres(folder, settings={"fsync": "off"}).start()
    migrate(server.url)
    yield server
    server.stop()
    shutil.rmtree(folder, ignore_errors=True)


def archived_ids(url: str) -> set[str]:
    with psycopg.connect(url, connect_timeout=3) as connection:
        return {row[0] for row in connection.execute("SELECT id FROM ended_games").fetchall()}


def wait_for(condition, timeout: float, what: str, interval: float = 0.05) -> float:
    """Seconds until ``condition()`` held; fails after ``timeout``."""
    began = time.monotonic()
    while not condition():
        assert time.monotonic() - began < timeout, f"timed out waiting for {what}"
        time.sleep(interval)
    return time.monotonic() - began


def timed(method: str, url: str, **kwargs) -> tuple[requests.Response, float]:
    began = time.monotonic()
    reply = requests.request(method, url, timeout=30, **kwargs)
    return reply, time.monotonic() - began


@pytest.mark.parametrize("worker_class", ["gevent", "gthread"])
def test_without_postgres_reads_fail_fast_live_games_play_on_and_archiving_resumes(
    stack_factory, outside_postgres: EmbeddedPostgres, worker_class: str
) -> None:
    if worker_class == "gevent":
        pytest.importorskip("gevent")
    stack = stack_factory(
        DATABASE_URL=outside_postgres.url,
        SKYLINE_WORKER_CLASS=worker_class,
        SKYLINE_THREADS="4",  # gthread: forty slow reads would hold every thread ten times over
        SKYLINE_FINISHED_GAME_TTL_SECONDS="1",
        SKYLINE_ARCHIVE_SECONDS="0.2",
    )
    api, _ = stack.api()
    stack.worker()
    store = redis.Redis.from_url(stack.redis.url)

    # An archived game, gone from Redis, and the archive's ids copied to Redis.
    archived = create_game(api, seed=3)
    end_by_resigning(api, archived)
    wait_for(lambda: not store.exists(game_key(archived["id"])), 60, "the game archived and let go")
    wait_for(lambda: store.get(ARCHIVED_IDS_THROUGH) is not None, 30, "the archive's ids in Redis")
    before = {
        path: requests.get(f"{api}/games/{archived['id']}{path}", timeout=10) for path in ARCHIVED_READS
    }
    assert {path: reply.status_code for path, reply in before.items()} == dict.fromkeys(ARCHIVED_READS, 200)

    for game_id in IMPOSSIBLE:  # the edge: never a store asked, never a 500
        for method, tail in EVERY_GAME_ROUTE:
            reply = requests.request(method, f"{api}/games/{game_id}{tail}", json={}, timeout=10)
            assert reply.status_code == 404, (method, game_id, tail, reply.status_code, reply.text[:200])
            assert reply.headers["Content-Type"] == "application/problem+json"

    running = create_game(api)  # a live game, to be played while PostgreSQL is away
    outside_postgres.halt()

    for path in ARCHIVED_READS:
        reply, seconds = timed("GET", f"{api}/games/{archived['id']}{path}")
        assert reply.status_code == 503, (path, reply.status_code, reply.text[:200])
        assert reply.json()["code"] == "archive_unavailable" and reply.headers["Retry-After"] == "5"
        assert seconds < 0.5, (path, seconds)
    for n in range(10):
        reply, seconds = timed("GET", f"{api}/games/never-made-{n}")
        assert reply.status_code == 404 and reply.json()["code"] == "game_not_found", reply.text
        assert seconds < 0.1, seconds

    # Forty archived reads at once, and live games created and played meanwhile.
    with ThreadPoolExecutor(max_workers=40) as pool:
        reads = [pool.submit(timed, "GET", f"{api}/games/{archived['id']}/record") for _ in range(40)]
        created, create_seconds = timed(
            "POST",
            f"{api}/games",
            json={"title": "property", "seats": [{"kind": "human"}, {"kind": "human"}]},
        )
        moved = play_first_moves(api, running, count=3)
        answers = [read.result() for read in reads]
    assert created.status_code == 201 and create_seconds < 1.0, create_seconds
    assert len(moved) == 3
    assert {reply.status_code for reply, _ in answers} == {503}
    assert max(seconds for _, seconds in answers) < 2.0, "no read waited for PostgreSQL"

    end_by_resigning(api, running, moves=0)  # it ends while the archive is away: it stays due, in Redis
    assert requests.get(f"{api}/games/{running['id']}", timeout=10).json()["status"] == "finished"
    assert store.exists(game_key(running["id"]))

    outside_postgres.start()
    caught_up = wait_for(lambda: running["id"] in archived_ids(outside_postgres.url), 10, "archiving", 0.1)
    assert caught_up < 10
    # The circuit probes again after its Retry-After: then every read answers as before.
    wait_for(
        lambda: requests.get(f"{api}/games/{archived['id']}", timeout=10).status_code == 200,
        10,
        "reads again",
    )
    for path in ARCHIVED_READS:
        again = requests.get(f"{api}/games/{archived['id']}{path}", timeout=10)
        assert (again.status_code, again.content) == (200, before[path].content), path


def test_an_import_beside_skyline_serve_finds_its_live_games_in_the_embedded_redis(serves) -> None:
    """No REDIS_URL, no DATABASE_URL: `skyline import --data-dir` finds the archive and the live
    games of the `skyline serve` running on the folder (its lock file names its Redis)."""
    serve = serves(SKYLINE_FINISHED_GAME_TTL_SECONDS="1", SKYLINE_ARCHIVE_SECONDS="0.2").start()
    ended = create_game(serve.url, seed=4)
    end_by_resigning(serve.url, ended)
    wait_for(lambda: ended["id"] in archived_ids(serve.database_url()), 30, "the game archived")
    live = create_game(serve.url)
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}

    def skyline(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
        command = [sys.executable, "-m", "skyline.cli", *args, "--data-dir", str(serve.data_dir)]
        return subprocess.run(command, env=env, input=stdin, capture_output=True, timeout=120)

    exported = skyline("export")
    assert exported.returncode == 0, exported.stderr
    (line,) = [json.loads(raw) for raw in exported.stdout.splitlines() if ended["id"].encode() in raw]
    intruder = {**line, "record": {**line["record"], "id": live["id"]}}
    done = skyline("import", "--merge", "-", stdin=json.dumps(intruder).encode() + b"\n")
    assert done.returncode == 1, done.stderr
    assert f"line 1: game {live['id']} is live (in Redis), and it is another game".encode() in done.stderr
    assert live["id"] not in archived_ids(serve.database_url())
    again = skyline("import", "--merge", "-", stdin=json.dumps(line).encode() + b"\n")
    assert again.returncode == 0 and b"0 games written, 1 already archived" in again.stderr, again.stderr
