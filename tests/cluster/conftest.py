"""A real Redis Cluster for the tests (harness/cluster.py): three primaries, three replicas.

Under `make test` (SKYLINE_REQUIRE_TOOLS=1) redis-server 7 is installed by
tools/system-packages.sh, so a cluster that cannot be had fails the test; elsewhere a machine
without redis-server 7 skips, saying so. A cluster found but failing to start always fails.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import psutil
import pytest
import redis
import requests
from redis.cluster import RedisCluster

from harness.cluster import LocalCluster, find_cluster_binaries
from harness.live import Processes, free_port
from service.config import Settings
from service.run.embedded import EmbeddedRedis
from service.run.postgres import EmbeddedPostgres
from service.store.connect import store_client
from tests.archive.conftest import new_database, postgres  # noqa: F401  (the session's server)
from tests.conftest import LIVE_ENV


@contextmanager
def three_primaries(directory: Path) -> Iterator[LocalCluster]:
    """A started LocalCluster, stopped (every node killed) on the way out, failure or not."""
    if find_cluster_binaries() is None:
        reason = "a Redis Cluster needs redis-server 7+ and redis-cli on PATH: apt-get install redis-server"
        if os.environ.get("SKYLINE_REQUIRE_TOOLS") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    cluster = LocalCluster(directory).start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="module")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    """One cluster for a module's tests (starting one costs ~2-3 s): see ``cluster``."""
    with three_primaries(tmp_path_factory.mktemp("cluster")) as cluster:
        yield cluster


@pytest.fixture
def cluster(redis_cluster: LocalCluster) -> LocalCluster:
    """The module's cluster, whole again before each test: a node an earlier test killed (and
    did not bring back, failing) is restarted, and every node agrees before the test begins."""
    for node in redis_cluster.nodes:
        if not node.alive:
            redis_cluster.restart(node)
    redis_cluster.wait_settled()
    return redis_cluster


@pytest.fixture
def cluster_client(cluster: LocalCluster) -> Iterator[RedisCluster]:
    """redis-py's cluster client on the cluster: it follows MOVED and ASK, and finds the new
    primary after a failover by reloading the slots."""
    client = RedisCluster.from_url(cluster.url)
    yield client
    client.close()


# ---- the service's own tests, on a cluster -------------------------------------------------------
# A module here that imports tests of tests/service/ (or tests/ops/, tests/contract/) runs them on a
# cluster: the fixtures below stand in for tests/conftest.py's one Redis. One cluster per test
# process, started on first use.


@pytest.fixture(scope="session")
def session_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    with three_primaries(tmp_path_factory.mktemp("session-cluster")) as cluster:
        yield cluster


@pytest.fixture
def redis_client(session_cluster: LocalCluster) -> Iterator[redis.Redis]:
    """The store's client on the cluster (a ShebangCluster: every script under ``#!lua``)."""
    client = store_client(session_cluster.url, cluster=True)
    yield client
    client.close()


def cluster_settings(cluster: LocalCluster, queue: EmbeddedRedis) -> Settings:
    return replace(
        Settings.from_env(),
        redis_url=cluster.url,
        redis_cluster=True,
        rq_redis_url=queue.url,
        max_body_bytes=16 * 1024,
        rate_limit_per_address=None,
        rate_limit_per_token=None,
        bot_games_per_address=0,
        players_per_address=None,
    )


@pytest.fixture
def settings(session_cluster: LocalCluster, queue_server: EmbeddedRedis) -> Settings:
    return cluster_settings(session_cluster, queue_server)


# The module-wide app of tests/conftest.py (``module_app``), on the cluster.
@pytest.fixture(scope="module")
def module_settings(session_cluster: LocalCluster, queue_server: EmbeddedRedis) -> Settings:
    return cluster_settings(session_cluster, queue_server)


@pytest.fixture(scope="module")
def module_redis_client(session_cluster: LocalCluster) -> Iterator[redis.Redis]:
    client = store_client(session_cluster.url, cluster=True)
    yield client
    client.close()


@pytest.fixture(scope="session")
def queue_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedRedis]:
    """RQ's standalone Redis beside the cluster (RQ cannot use a cluster)."""
    server = EmbeddedRedis(tmp_path_factory.mktemp("queue-redis"), appendonly=False).start()
    yield server
    server.stop()


def serve_command(port: int, data_dir: Path) -> list[str]:
    """`skyline serve` as the README runs it: its API (gunicorn, two processes), two bot workers
    (each with its sweeper: two sweepers over every partition) and a webhook worker."""
    return [
        sys.executable,
        "-m",
        "skyline.cli",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        "2",
        "--bot-workers",
        "2",
        "--data-dir",
        str(data_dir),
    ]


def _running(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


class ClusterLive:
    """The service on a cluster as an operator starts it: `skyline serve` (``serve_command``) with
    ``SKYLINE_REDIS_CLUSTER=1``, ``REDIS_URL`` one node of the cluster, RQ on a standalone Redis
    of its own (``RQ_REDIS_URL``) and the archive on ``DATABASE_URL``. ``api``, ``workers`` and
    ``webhook_worker`` are serve's children as it started them; ``processes`` holds serve and
    whatever a test starts beside it."""

    def __init__(
        self, cluster: LocalCluster, queue: EmbeddedRedis, database_url: str, data_dir: Path, **env: str
    ) -> None:
        self.cluster = cluster
        self.database_url = database_url
        self.env = {
            **os.environ,
            **LIVE_ENV,
            "REDIS_URL": cluster.url,
            "SKYLINE_REDIS_CLUSTER": "1",
            "RQ_REDIS_URL": queue.url,
            "DATABASE_URL": database_url,
            "SKYLINE_SSE_MAX_SECONDS": "5",
            "SKYLINE_SSE_HEARTBEAT_SECONDS": "1",
            "SKYLINE_SWEEP_SECONDS": "1",
            "SKYLINE_WEBHOOK_ALLOW_HTTP": "1",
            "SKYLINE_WEBHOOK_ALLOW_PRIVATE": "1",
            "SKYLINE_WEBHOOK_RETRY_SCHEDULE": "0.3,0.3,0.3,0.3,0.3",
            "SKYLINE_WEBHOOK_LEASE_SECONDS": "3",
            **env,
        }
        self.processes = Processes(self.env)
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        self.serve = self.processes.start(serve_command(port, data_dir))
        self.store = store_client(cluster.url, cluster=True)
        self._wait_ready(timeout=90)
        children = psutil.Process(self.serve.pid).children()
        self.descendants = psutil.Process(self.serve.pid).children(recursive=True)
        lines = {child: " ".join(child.cmdline()) for child in children}
        (self.api,) = [child for child, line in lines.items() if "gunicorn" in line]
        self.workers = [c for c, line in lines.items() if "cli worker" in line and "--webhooks" not in line]
        (self.webhook_worker,) = [child for child, line in lines.items() if "--webhooks" in line]
        assert len(self.workers) == 2, lines

    def _wait_ready(self, timeout: float) -> None:
        """Until /readyz answers 200; a serve that exits (a configuration it refuses) fails at once."""
        deadline = time.monotonic() + timeout
        while self.serve.poll() is None and time.monotonic() < deadline:
            try:
                if requests.get(self.url + "/readyz", timeout=1).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"skyline serve did not come up on the cluster:\n{self.log()[-4000:]}")

    def log(self) -> str:
        """What serve and its children wrote."""
        return Path(self.processes.logs[0].name).read_text(errors="replace")

    def running(self, *processes: psutil.Process) -> bool:
        """Whether serve and each of ``processes`` (its children as it started them) still run."""
        return self.serve.poll() is None and all(_running(process) for process in processes)

    def interrupt(self, timeout: float = 60.0) -> int:
        """Ctrl-C: SIGINT to serve alone (its children run in sessions of their own, as they do
        under a terminal); serve's exit status."""
        self.serve.send_signal(signal.SIGINT)
        return self.serve.wait(timeout=timeout)

    def stop(self) -> None:
        if self.serve.poll() is None:
            try:
                self.interrupt()
            except subprocess.TimeoutExpired:
                pass
        self.processes.stop()
        for process in getattr(self, "descendants", []):
            if _running(process):
                process.kill()
        self.store.close()


@contextmanager
def live_on(cluster: LocalCluster, folder: Path, archive: EmbeddedPostgres) -> Iterator[ClusterLive]:
    """ClusterLive on ``cluster``, with a queue Redis and a data folder of its own in ``folder`` and
    a new database on ``archive``; serve and the queue stopped after."""
    queue = EmbeddedRedis(folder / "queue", appendonly=False).start()
    try:
        service = ClusterLive(cluster, queue, new_database(archive), folder / "serve")
        try:
            yield service
        finally:
            service.stop()
    finally:
        queue.stop()


@pytest.fixture(scope="module")
def clustered(
    redis_cluster: LocalCluster,
    tmp_path_factory: pytest.TempPathFactory,
    postgres: EmbeddedPostgres,  # noqa: F811
) -> Iterator[ClusterLive]:
    """The live service on a cluster and a queue of the module's own: its webhook and bot workers
    must not act on the games of the in-process tests (session_cluster's), nor take their jobs."""
    with live_on(redis_cluster, tmp_path_factory.mktemp("live"), postgres) as service:
        yield service


@pytest.fixture
def live(clustered: ClusterLive) -> str:
    """The live API's URL, on the cluster (for the live tests a module here imports)."""
    return clustered.url


@pytest.fixture
def hooked(clustered: ClusterLive) -> tuple[str, Processes, psutil.Process]:
    """tests/ops/test_webhooks_live.py's live stack with a webhook worker, on the cluster: serve's
    own webhook worker (a test that kills it sees serve start another beside its replacement)."""
    return clustered.url, clustered.processes, clustered.webhook_worker


# redis-py's cluster client sometimes leaves a socket to the garbage collector after a failover or
# a kill of a node (seen once in six runs of tests/cluster/test_fanout.py; which of its objects
# drops it is not pinned down). The warning surfaces in whichever test the collection runs in, so
# it is ignored for every test of this folder, and only there.
_REDIS_PY_SOCKET = "ignore:Exception ignored in. <socket.socket:pytest.PytestUnraisableExceptionWarning"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.filterwarnings(_REDIS_PY_SOCKET))
