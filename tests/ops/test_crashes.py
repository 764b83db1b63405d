"""Crashes: a worker killed mid-turn, a worker stopped mid-turn, Redis restarted. No game is lost
or stuck.

Bot turns are slowed down with ``SKYLINE_FAULT_BOT_DELAY_SECONDS`` (worker/faults.py) so that a
test can act while a worker is inside a turn; the job timeout, the abandon grace and RQ's
maintenance interval are shortened so that recovery takes seconds, not minutes.
"""

from __future__ import annotations

import random
import signal
import time

import redis
import requests
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer

from service.store.botqueue import job_id
from service.store.keys import game_key, log_key

from .conftest import FailoverClient, assert_record_replays, play_until, tokens_of

BOT = {"kind": "bot", "bot": "random"}
HUMAN = {"kind": "human"}
# Short deadlines, for the API (which sets each job's timeout) and the workers.
FAST_RECOVERY = {
    "SKYLINE_BOT_JOB_TIMEOUT": "4",
    "SKYLINE_BOT_STALL_SECONDS": "1",
    "SKYLINE_WORKER_ABANDON_GRACE_SECONDS": "1",
    "SKYLINE_WORKER_MAINTENANCE_SECONDS": "1",
    "SKYLINE_WORKER_TTL_SECONDS": "17",  # an idle worker wakes up (and may clean up) every 2 s
    "SKYLINE_SWEEP_SECONDS": "1",
}
# Job timeout + abandon grace: how long a game may wait on a bot before the sweeper acts.
STALL_SECONDS = 4 + 1


def stored_version(connection, game_id: str) -> int:
    """The game's version read from Redis itself: looking through the API could heal the game."""
    return int(connection.hget(game_key(game_id), "version"))


def stored_status(connection, game_id: str) -> str:
    return connection.hget(game_key(game_id), "status").decode()


def wait_for(condition, timeout: float, what: str, interval: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out waiting for {what}")


def fetch(connection, game_id: str, version: int) -> Job:
    return Job.fetch(job_id(game_id, version), connection=connection, serializer=JSONSerializer)


def test_a_worker_killed_in_the_middle_of_a_hard_bot_turn_is_recovered_without_any_request(stack_factory):
    """SIGKILL while a hard bot thinks about the first move, then a new worker, and no client
    request at all: RQ's StartedJobRegistry keeps the job; past its deadline the new worker's
    maintenance retries it (Retry(max=2)), the bot moves once, and the new worker lives on."""
    stack = stack_factory(**FAST_RECOVERY)
    api, _ = stack.api()
    connection = redis.Redis.from_url(stack.redis.url)
    doomed = stack.worker(SKYLINE_FAULT_BOT_DELAY_SECONDS="60")  # thinks "forever"
    client = FailoverClient([api])
    hard = {"kind": "bot", "level": "hard"}
    created = client.request(
        "POST", "/games", json={"title": "property", "seed": 4, "seats": [hard, HUMAN]}
    ).json()
    game_id = created["id"]
    assert created["to_act"] == [0]
    first = wait_for(
        lambda: (job := fetch(connection, game_id, 0)).get_status() == JobStatus.STARTED and job,
        20,
        "the doomed worker to start the first bot turn",
    )
    retries_before = first.retries_left
    time.sleep(0.5)  # well inside the turn
    stack.kill(doomed)
    assert stored_version(connection, game_id) == 0, "killed before it moved"

    killed = time.monotonic()
    # The sweeper off: RQ's own maintenance, which runs the worker's exception handler (the
    # log call that killed the worker), must find the abandoned job, not the sweeper first.
    survivor = stack.worker(SKYLINE_SWEEP_SECONDS="0")
    wait_for(
        lambda: stored_version(connection, game_id) > 0,
        STALL_SECONDS + 10,
        "the bot to move with no client request (job timeout 4 s + grace 1 s + 10 s)",
        interval=0.1,
    )
    recovered_in = time.monotonic() - killed
    time.sleep(1.0)  # a second, wrongly retried job would land its move now
    assert stored_version(connection, game_id) == 1, "the bot moved once; then the human is to act"
    assert connection.llen(log_key(game_id)) == 1
    retried = fetch(connection, game_id, 0)
    assert retried.get_status() == JobStatus.FINISHED
    assert retried.retries_left == retries_before - 1, "the abandoned job itself was retried"
    assert retried.return_value()["outcome"] == "played"
    assert survivor.poll() is None, "the worker that recovered the job is alive"
    time.sleep(2.5)  # its next maintenance rounds (every 1 s) run too
    assert survivor.poll() is None, "and stays alive"
    assert recovered_in < STALL_SECONDS + 10, f"recovered in {recovered_in:.1f} s"


def test_a_lost_bot_job_is_found_by_the_sweeper_without_any_request(stack_factory):
    """The job of a bot turn is gone (as a Redis crash can lose the last second of its AOF):
    the game is marked as waiting on a bot, and the workers' sweeper enqueues its turn."""
    stack = stack_factory(**FAST_RECOVERY)
    api, _ = stack.api()
    connection = redis.Redis.from_url(stack.redis.url)
    client = FailoverClient([api])
    created = client.request(
        "POST", "/games", json={"title": "property", "seed": 8, "seats": [BOT, HUMAN]}
    ).json()
    game_id = created["id"]
    assert created["to_act"] == [0]
    fetch(connection, game_id, 0).delete()  # no worker has run yet: the job is simply lost
    connection.delete("rq:queue:skyline-bots")
    lost = time.monotonic()
    worker = stack.worker()
    wait_for(lambda: stored_version(connection, game_id) > 0, STALL_SECONDS + 10, "the sweeper", 0.1)
    assert time.monotonic() - lost >= STALL_SECONDS - 1.5, "the sweeper waited the job's timeout first"
    assert stored_version(connection, game_id) == 1
    assert worker.poll() is None


def test_a_worker_killed_after_some_moves_of_a_multi_move_job_loses_no_game(stack_factory):
    """SIGKILL after a job has already landed some of its consecutive bot moves: the retried job
    is stale and does nothing, and the sweeper wakes the stalled game, with no client request."""
    stack = stack_factory(**FAST_RECOVERY)
    api, _ = stack.api()
    connection = redis.Redis.from_url(stack.redis.url)
    doomed = stack.worker(SKYLINE_FAULT_BOT_DELAY_SECONDS="0.3")
    client = FailoverClient([api])
    created = client.request(
        "POST", "/games", json={"title": "property", "seed": 6, "seats": [BOT, BOT]}
    ).json()
    game_id = created["id"]
    wait_for(
        lambda: stored_version(connection, game_id) >= 2,
        20,
        "two bot moves to land inside the first job",
        interval=0.02,
    )
    stack.kill(doomed)
    killed_at = stored_version(connection, game_id)
    stack.worker()
    wait_for(lambda: stored_status(connection, game_id) == "finished", 90, "the game to end", 0.2)
    assert stored_version(connection, game_id) > killed_at
    assert_record_replays(client, game_id)


def test_a_stopped_worker_finishes_its_current_bot_turn_first(stack_factory):
    """SIGTERM (what Kubernetes sends) is RQ's warm shutdown: the turn in progress completes."""
    stack = stack_factory(**FAST_RECOVERY)
    api, _ = stack.api()
    connection = redis.Redis.from_url(stack.redis.url)
    worker = stack.worker(SKYLINE_FAULT_BOT_DELAY_SECONDS="2.5")
    client = FailoverClient([api])
    created = client.request(
        "POST", "/games", json={"title": "property", "seed": 7, "seats": [BOT, BOT]}
    ).json()
    wait_for(
        lambda: fetch(connection, created["id"], 0).get_status() == JobStatus.STARTED,
        20,
        "the worker to start the first bot turn",
    )
    worker.send_signal(signal.SIGTERM)
    assert worker.wait(timeout=15) == 0, "the worker exits cleanly after its turn"
    job = fetch(connection, created["id"], 0)
    assert job.get_status() == JobStatus.FINISHED and job.return_value()["outcome"] == "played"
    game = client.request("GET", f"/games/{created['id']}").json()
    assert game["version"] == 1, "the turn in progress landed, and no further one was started"
    assert fetch(connection, created["id"], 1).get_status() == JobStatus.QUEUED, "the next turn waits"


def snapshot(api: str, games: dict[str, dict]) -> dict[str, tuple]:
    seen = {}
    for game_id, created in games.items():
        token = next(iter(tokens_of(created).values()), None)
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        game = requests.get(f"{api}/games/{game_id}", headers=headers, timeout=10).json()
        log = requests.get(f"{api}/games/{game_id}/events", headers=headers, timeout=10).json()
        seen[game_id] = (game["version"], game["status"], game["view"], len(log["events"]))
    return seen


def test_redis_restarted_with_aof_keeps_every_game_at_its_version(stack_factory):
    stack = stack_factory()
    api, _ = stack.api()
    stack.worker()
    client = FailoverClient([api])
    rng = random.Random(3)
    games = {}
    for seed, seats in enumerate(
        [[HUMAN, HUMAN], [HUMAN, BOT], [BOT, BOT], [HUMAN, BOT, BOT], [BOT, BOT, BOT]]
    ):
        created = client.request(
            "POST", "/games", json={"title": "property", "seed": 40 + seed, "seats": seats}
        ).json()
        games[created["id"]] = created
        tokens = tokens_of(created)
        if tokens:
            # Stop at a human's turn, so no bot move is pending when the snapshot is taken.
            play_until(
                client,
                created["id"],
                tokens,
                rng,
                stop=lambda game, humans=set(tokens): game["version"] >= 12 and set(game["to_act"]) <= humans,
            )
    for game_id, created in games.items():
        if all(seat["kind"] == "bot" for seat in created["seats"]):
            play_until(client, game_id, {}, rng)  # finished by the worker
    before = snapshot(api, games)
    assert {status for _, status, _, _ in before.values()} == {"active", "finished"}

    # A clean restart (SIGTERM: Redis writes out its AOF), then a crash (SIGKILL).
    for kill in (False, True):
        if kill:
            time.sleep(1.5)  # appendfsync everysec
        stack.redis.halt(kill=kill)
        down = requests.get(f"{api}/games/{next(iter(games))}", timeout=10)
        assert down.status_code == 503 and down.json()["code"] == "redis_unavailable"
        assert requests.get(f"{api}/readyz", timeout=10).status_code == 503
        stack.redis.start()
        wait_for(lambda: requests.get(f"{api}/readyz", timeout=10).status_code == 200, 20, "readiness")
        assert snapshot(api, games) == before, "every game is back, at the same version"

    # And play goes on: a human move lands at the next version, bot seats still get played.
    for game_id, created in games.items():
        tokens = tokens_of(created)
        if tokens and before[game_id][1] == "active":
            final = play_until(client, game_id, tokens, rng)
            assert final["status"] == "finished" and final["version"] > before[game_id][0]
            assert_record_replays(client, game_id)
