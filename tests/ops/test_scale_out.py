"""Scale-out: two APIs and two workers on one Redis. A client alternating between the APIs plays
complete games; one API is killed mid-game (SIGKILL, master and workers) and the game goes on
through the other. Nothing of a game lives in an API process."""

from __future__ import annotations

import random

import redis
from rq import Worker

from .conftest import FailoverClient, assert_record_replays, play_until, tokens_of

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "bot": "random"}


def test_two_apis_two_workers_one_redis_and_an_api_killed_mid_game(stack_factory):
    stack = stack_factory()
    api_a, process_a = stack.api()
    api_b, _ = stack.api()
    stack.worker()
    stack.worker()
    client = FailoverClient([api_a, api_b])
    rng = random.Random(9)

    # A complete game, each request to the other API than the last.
    created = client.request(
        "POST", "/games", json={"title": "property", "seed": 1, "seats": [HUMAN, BOT, BOT]}
    )
    assert created.status_code == 201
    first = created.json()
    final = play_until(client, first["id"], tokens_of(first), rng)
    assert final["status"] == "finished"
    record = assert_record_replays(client, first["id"])
    assert {entry["seat"] for entry in record["moves"]} == {0, 1, 2}, "the workers played the bot seats"
    assert client.served_by[api_a] > 50 and client.served_by[api_b] > 50

    # A second game: kill API A in the middle of it; the client carries on through B.
    second = client.request(
        "POST", "/games", json={"title": "property", "seed": 2, "seats": [HUMAN, BOT]}
    ).json()
    midway = play_until(client, second["id"], tokens_of(second), rng, stop=lambda game: game["version"] >= 30)
    assert midway["status"] == "active"
    stack.kill(process_a)
    final = play_until(client, second["id"], tokens_of(second), rng)
    assert final["status"] == "finished" and final["version"] > midway["version"]
    assert client.failovers == 1 and client.bases == [api_b]
    assert_record_replays(client, second["id"])

    # Both workers took bot jobs from the one queue.
    workers = Worker.all(connection=redis.Redis.from_url(stack.redis.url))
    assert len(workers) == 2
    assert all(worker.successful_job_count > 0 for worker in workers), [
        (worker.name, worker.successful_job_count) for worker in workers
    ]
