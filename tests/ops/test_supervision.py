"""Issue 45: `skyline serve` tells a failed start from a crash.

A child that dies after it came up — however soon, whatever the signal — is restarted with a
growing backoff and nothing else stops; a child that cannot come up at all stops everything at
once, with its cause. Every test runs the real supervisor with its real children, and looks
at games through Redis itself, never through a request that could heal them.
"""

from __future__ import annotations

import json
import re
import signal
import threading
import time

import pytest
import redis
import requests
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer

from service.store.botqueue import job_id

from ..conftest import free_port
from .conftest import alive
from .test_crashes import FAST_RECOVERY, STALL_SECONDS, stored_version, wait_for

pytestmark = pytest.mark.xdist_group("supervisor")

BOT_WORKER = "skyline.cli worker"
WEBHOOKS = "--webhooks"  # the webhook worker's command line is the bot worker's and this
HARD_BOT_FIRST = {  # seed 4: the cut makes seat 0 open
    "title": "property",
    "seed": 4,
    "seats": [{"kind": "bot", "level": "hard"}, {"kind": "human"}],
}


class Prober:
    """Asks /healthz every 0.1 s from a thread; counts what did not answer 200."""

    def __init__(self, url: str) -> None:
        self.url, self.answers, self.failures = url, 0, []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        session = requests.Session()
        while not self._stop.is_set():
            try:
                status = session.get(self.url + "/healthz", timeout=2).status_code
            except requests.RequestException as error:
                status = repr(error)
            if status == 200:
                self.answers += 1
            else:
                self.failures.append(status)
            self._stop.wait(0.1)

    def __enter__(self) -> Prober:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


def readiness(url: str) -> dict:
    reply = requests.get(url + "/readyz", timeout=5)
    assert reply.status_code == 200, reply.text
    return reply.json()


def unexpected_lines(log: str) -> list[str]:
    """Lines of a log that are neither the supervisor's own nor JSON records at info or debug:
    Python's warnings (MonkeyPatchWarning...), tracebacks, and records of warnings or errors."""
    unexpected = []
    for line in log.splitlines():
        if line.startswith("skyline: "):
            continue
        try:
            record = json.loads(line)
        except ValueError:
            unexpected.append(line)
            continue
        if record.get("level") not in ("debug", "info"):
            unexpected.append(line)
    return unexpected


def test_a_worker_killed_in_a_bot_turn_a_second_after_the_start_is_restarted_and_the_bot_moves(serves):
    serve = serves(**FAST_RECOVERY).start()
    healthy = time.monotonic()
    connection = redis.Redis.from_url(serve.redis_url())
    created = requests.post(serve.url + "/games", json=HARD_BOT_FIRST, timeout=10).json()
    game_id = created["id"]
    wait_for(
        lambda: (
            Job.fetch(job_id(game_id, 0), connection=connection, serializer=JSONSerializer).get_status()
            == JobStatus.STARTED
        ),
        10,
        "the worker to start the hard bot's first turn",
    )
    time.sleep(max(0.0, 0.5 - (time.monotonic() - healthy)))
    (doomed,) = serve.named(BOT_WORKER, without=WEBHOOKS)
    others = [p for p in serve.family() if p.pid != doomed.pid]
    assert stored_version(connection, game_id) == 0, "the bot is still thinking"
    doomed.kill()
    killed_after = time.monotonic() - healthy
    # The first supervisor took any death within 5 s of a child's first start for a failed start.
    assert 0.5 <= killed_after < 3.0, f"killed {killed_after:.1f} s after the service was healthy"

    with Prober(serve.url) as prober:
        wait_for(
            lambda: stored_version(connection, game_id) >= 1,
            STALL_SECONDS + 15,
            "the bot to move, with no client request",
            interval=0.1,
        )
    assert prober.answers > 10 and not prober.failures, f"the API kept answering: {prober.failures[:3]}"
    assert serve.process.poll() is None, "skyline serve is still running"
    assert not [p for p in others if p not in alive(others)], "the API, Redis and the rest survived"
    (survivor,) = serve.named(BOT_WORKER, without=WEBHOOKS)
    assert survivor.pid != doomed.pid
    log = serve.log()
    assert f"the bot worker 1 (pid {doomed.pid}) was killed by SIGKILL" in log
    assert "restarting it in 0.5 s (crash 1 in a row)" in log
    assert "failed to start" not in log and "could not start" not in log
    wait_for(lambda: readiness(serve.url)["status"] == "ready", 10, "the new worker to count as alive")


def test_five_crashes_in_a_row_back_off_and_the_service_keeps_serving(serves):
    serve = serves().start()
    wait_for(lambda: readiness(serve.url)["status"] == "ready", 15, "the bot worker to be up")
    killed: list[int] = []
    with Prober(serve.url) as prober:
        started = time.monotonic()
        for _ in range(5):
            (worker,) = wait_for(
                lambda: [p for p in serve.named(BOT_WORKER, without=WEBHOOKS) if p.pid not in killed],
                20,
                "a new bot worker",
            )
            killed.append(worker.pid)
            worker.send_signal(signal.SIGKILL)
        crashes_took = time.monotonic() - started
        # The supervisor forgets a dead worker at once: readiness says so, and still answers 200.
        assert wait_for(
            lambda: readiness(serve.url) == {"status": "degraded", "bot_workers": 0}, 3, "degraded"
        )
        wait_for(lambda: readiness(serve.url)["status"] == "ready", 20, "a worker back after 8 s")
    assert crashes_took < 10.0, f"five crashes took {crashes_took:.1f} s"
    assert prober.answers > 50 and not prober.failures, f"the API kept answering: {prober.failures[:3]}"
    log = serve.log()
    delays = [float(d) for d in re.findall(r"restarting it in ([\d.]+) s \(crash \d+ in a row\)", log)]
    assert delays == [0.5, 1.0, 2.0, 4.0, 8.0], log[-3000:]
    assert serve.process.poll() is None


def test_a_child_that_cannot_start_stops_everything_at_once_with_its_cause(serves):
    # gunicorn reads GUNICORN_CMD_ARGS itself: an option it does not know stops it at start.
    serve = serves(GUNICORN_CMD_ARGS="--no-such-option").start(wait=False)
    assert serve.process.wait(timeout=30) != 0
    log = serve.log()
    assert "the API could not start (exited with status" in log, log[-3000:]
    assert "--no-such-option" in log
    assert "restarting" not in log


def test_a_bad_setting_stops_serve_before_anything_starts_naming_it(serves):
    serve = serves(SKYLINE_RATE_LIMIT_PER_ADDRESS="lots").start(wait=False)
    assert serve.process.wait(timeout=30) == 2
    log = serve.log()
    assert log.startswith("skyline: SKYLINE_RATE_LIMIT_PER_ADDRESS='lots': expected REQUESTS/SECONDS"), log[
        -2000:
    ]
    assert "embedded Redis" not in log and "Starting gunicorn" not in log


def test_a_redis_url_that_refuses_stops_serve_before_anything_starts(serves):
    serve = serves(REDIS_URL=f"redis://127.0.0.1:{free_port()}/0").start(wait=False)
    assert serve.process.wait(timeout=30) != 0
    log = serve.log()
    assert "the Redis at REDIS_URL cannot be used" in log, log[-2000:]
    assert "Starting gunicorn" not in log


def test_an_rq_redis_url_that_refuses_stops_serve_before_anything_starts(serves):
    serve = serves(RQ_REDIS_URL=f"redis://127.0.0.1:{free_port()}/0").start(wait=False)
    assert serve.process.wait(timeout=30) != 0
    log = serve.log()
    assert "the Redis at RQ_REDIS_URL cannot be used" in log, log[-2000:]
    assert "embedded Redis" not in log and "Starting gunicorn" not in log


def test_a_start_and_a_stop_log_no_warning(serves):
    """No MonkeyPatchWarning (gevent patched too late), nor any other warning or error."""
    serve = serves().start()
    game = requests.post(
        serve.url + "/games",
        json={**HARD_BOT_FIRST, "seats": [{"kind": "bot"}, {"kind": "human"}]},
        timeout=10,
    ).json()
    wait_for(
        lambda: requests.get(f"{serve.url}/games/{game['id']}", timeout=5).json()["version"] > 0,
        10,
        "a bot move",
    )
    serve.process.send_signal(signal.SIGINT)
    assert serve.process.wait(timeout=15) == 0
    unexpected = unexpected_lines(serve.log())
    assert not unexpected, "\n".join(unexpected[:10])
