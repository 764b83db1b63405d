"""`skyline serve`, the README's main command, on a Redis Cluster of three primaries (issue 61):
``SKYLINE_REDIS_CLUSTER=1`` with ``REDIS_URL`` one node, RQ on a standalone Redis
(``RQ_REDIS_URL``) and the archive on ``DATABASE_URL``. Games of every title, their ids over all
three primaries, are played to the end by the bot workers serve started, their event streams
receive every move, the ended games reach the archive, and Ctrl-C stops every process serve
started. (tests/cluster/test_live_cluster.py and test_failover_live.py run on serve too, through
the same ``live_on``; tests/service/test_serve.py starts serve with nothing set, its Redis and
PostgreSQL embedded.) And on a cluster holding games of the first key layout, `skyline serve` and
`skyline migrate-keys` refuse, saying how to move them."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from itertools import cycle

import psutil
import psycopg
import pytest
import requests
from redis.cluster import RedisCluster

from engines import registry
from harness.cluster import LocalCluster
from harness.live import free_port
from service.run.embedded import EmbeddedRedis
from service.run.postgres import EmbeddedPostgres
from service.store.keys import LAYOUT, game_key
from service.store.migrate import CURRENT_LAYOUT
from service.store.partitions import partition_of, tag_slot
from tests.ops.conftest import wait_gone

from .conftest import live_on
from .test_live_cluster import _follow

# One cluster for the module's tests: one test process runs them both.
pytestmark = pytest.mark.xdist_group("cluster-serve")

BOT = {"kind": "bot", "bot": "random"}


def _archived(url: str, game_ids: list[str]) -> set[str]:
    with psycopg.connect(url, autocommit=True) as connection:
        rows = connection.execute("SELECT id FROM ended_games WHERE id = ANY(%s)", (game_ids,))
        return {game_id for (game_id,) in rows.fetchall()}


def test_skyline_serve_on_a_cluster_plays_every_title_with_bots_streams_archives_and_stops_on_ctrl_c(
    cluster: LocalCluster, tmp_path, postgres: EmbeddedPostgres
) -> None:
    with live_on(cluster, tmp_path, postgres) as served:
        log = served.log()
        assert "embedded Redis" not in log and "embedded PostgreSQL" not in log, "the URLs given are used"
        started = [" ".join(process.cmdline()) for process in served.descendants]
        assert not [line for line in started if "redis-server" in line or "postgres" in line.split()[0]]

        # Games of every title, drawn until their ids lie on all three primaries.
        games: dict[str, str] = {}
        primaries: set[int] = set()
        titles = sorted(registry.GAMES)
        for title in cycle(titles):
            if len(primaries) == 3 and set(games.values()) == set(titles):
                break
            seats = [BOT] * max(2, registry.GAMES[title].min_seats)
            created = requests.post(f"{served.url}/games", json={"title": title, "seats": seats}, timeout=10)
            assert created.status_code == 201, created.text
            games[created.json()["id"]] = title
            primaries.add(cluster.primary_of_slot(tag_slot(partition_of(created.json()["id"]))).port)

        until = time.monotonic() + 240
        with ThreadPoolExecutor(len(games)) as pool:
            seen = dict(zip(games, pool.map(lambda g: _follow(served.url, g, until), games), strict=True))
        for game_id, versions in seen.items():
            assert served.store.hget(game_key(game_id), "status") == b"finished", games[game_id]
            stored = int(served.store.hget(game_key(game_id), "version"))
            snapshot, *moves = versions
            assert moves == list(range(snapshot + 1, stored + 1)), (games[game_id], snapshot, stored)
            assert stored > 0, "the bot workers serve started played"

        deadline = time.monotonic() + 30
        while _archived(served.database_url, list(games)) != set(games) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _archived(served.database_url, list(games)) == set(games), "every ended game archived"

        family = [psutil.Process(served.serve.pid), *served.descendants]
        assert served.running(*served.descendants), "nothing died or was restarted on the way"
        assert "restarting" not in served.log()
        assert served.interrupt() == 0, served.log()[-3000:]
        assert not wait_gone(family, 10.0), "a process serve started outlived it"
        assert served.log().rstrip().endswith("skyline: stopped")


def test_a_cluster_holding_the_first_layout_is_refused_by_migrate_keys_and_serve_naming_the_way(
    cluster: LocalCluster, tmp_path, cluster_client: RedisCluster, queue_server: EmbeddedRedis
) -> None:
    """The first layout never ran on a cluster; one imported into it cannot be moved there (a
    rename across slots is refused): both commands say how instead of a CROSSSLOT traceback."""
    env = {
        **os.environ,
        "REDIS_URL": cluster.url,
        "SKYLINE_REDIS_CLUSTER": "1",
        "RQ_REDIS_URL": queue_server.url,
    }
    old_game = "sk:{" + "Ab3dEf6hIj9k" + "}:game"
    cluster_client.delete(LAYOUT)
    cluster_client.hset(old_game, "status", "active")
    cluster_client.zadd("sk:idle", {"Ab3dEf6hIj9k": 1.0})
    try:
        refused = _skyline(env, "migrate-keys")
        assert refused.returncode == 1 and "Traceback" not in refused.stderr, refused.stderr
        assert "on the Redis they came from, then import it into the cluster" in refused.stderr
        assert cluster_client.exists(old_game, "sk:idle") == 2, "nothing was changed"
        serve = _skyline(env, "serve", "--port", str(free_port()), "--data-dir", str(tmp_path / "var"))
        assert serve.returncode == 1 and "Traceback" not in serve.stderr, serve.stderr
        assert "then import it into the cluster" in serve.stderr
    finally:
        cluster_client.delete(old_game, "sk:idle")
    moved = _skyline(env, "migrate-keys")
    assert moved.returncode == 0 and "moved 0 games" in moved.stdout, moved.stderr
    assert cluster_client.get(LAYOUT) == CURRENT_LAYOUT.encode(), "an empty cluster is marked"


def _skyline(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "skyline.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
