"""RQ_REDIS_URL on real processes (issue 56): the RQ queues on a standalone Redis of their own, the
games on REDIS_URL's, and a queue lost whole loses no turn.

Two embedded redis-servers: the store (the Stack's, AOF on) and the queues' (no persistence, so a
restart after kill -9 brings it back empty). gunicorn, a bot worker and a webhook worker are given
both URLs, as the Helm chart gives them.
"""

from __future__ import annotations

import random
import time

import pytest
import redis
from rq.job import JobStatus

from service.run.embedded import EmbeddedRedis
from service.store.botqueue import QUEUE_NAMES, job_id
from service.store.keys import game_key, log_key
from worker.webhooks import QUEUE_NAME as WEBHOOK_QUEUE_NAME

from ..worker.test_webhooks import Receiver
from .conftest import FailoverClient, assert_record_replays, play_until, tokens_of
from .test_crashes import FAST_RECOVERY, STALL_SECONDS, fetch, stored_status, stored_version, wait_for

BOT = {"kind": "bot", "bot": "random"}
HUMAN = {"kind": "human"}
WEBHOOKS_ON_LOOPBACK = {"SKYLINE_WEBHOOK_ALLOW_HTTP": "1", "SKYLINE_WEBHOOK_ALLOW_PRIVATE": "1"}


@pytest.fixture
def queue_server(tmp_path):
    """The queues' own Redis; asked for before ``stack_factory``, so it outlives the processes."""
    server = EmbeddedRedis(tmp_path / "queue-redis", appendonly=False).start()
    yield server
    server.stop()


def keys(connection: redis.Redis, pattern: str) -> set[str]:
    return {key.decode() for key in connection.scan_iter(pattern, count=1000)}


def test_games_with_bots_play_to_the_end_with_every_rq_key_in_the_queues_redis(queue_server, stack_factory):
    stack = stack_factory(RQ_REDIS_URL=queue_server.url, **WEBHOOKS_ON_LOOPBACK)
    api, _ = stack.api()
    stack.worker()
    stack.webhook_worker()
    store = redis.Redis.from_url(stack.redis.url)
    queues = redis.Redis.from_url(queue_server.url)
    client = FailoverClient([api])
    receiver = Receiver()
    try:
        hooked = client.request(
            "POST",
            "/games",
            json={"title": "property", "seed": 8, "seats": [BOT, HUMAN], "webhooks": [{"url": receiver.url}]},
        ).json()
        bots_only = [
            client.request("POST", "/games", json={"title": "property", "seed": seed, "seats": seats}).json()
            for seed, seats in ((1, [BOT, BOT]), (2, [BOT, BOT, BOT]))
        ]
        for game_id in [created["id"] for created in bots_only]:  # the worker's alone: no request
            wait_for(lambda g=game_id: stored_status(store, g) == "finished", 120, "a game of bots", 0.2)
        final = play_until(client, hooked["id"], tokens_of(hooked), random.Random(5))
        assert final["status"] == "finished"
        for created in (hooked, *bots_only):
            assert_record_replays(client, created["id"])
        # The webhook worker's jobs ran through the queues' Redis too: the end was delivered.
        ended = lambda: any(b'"game.finished"' in body for _, body in receiver.received)  # noqa: E731
        wait_for(ended, 30, "game.finished")
    finally:
        receiver.close()

    in_queues, in_store = keys(queues, "*"), keys(store, "*")
    assert not {key for key in in_store if key.startswith("rq:")}, "no RQ key in the store"
    assert not {key for key in in_queues if key.startswith("sk:")}, "no game key in the queues' Redis"
    assert in_queues and all(key.startswith("rq:") for key in in_queues), sorted(in_queues)[:10]
    # The bot turns and both workers are RQ's, there: jobs kept for their result_ttl, registrations.
    assert f"rq:job:{job_id(hooked['id'], 0)}" in in_queues
    registered = {queue for key in keys(queues, "rq:worker:*") for queue in [queues.hget(key, "queues")]}
    assert {b",".join(name.encode() for name in QUEUE_NAMES), WEBHOOK_QUEUE_NAME.encode()} <= registered
    assert any(key.startswith(game_key(hooked["id"])) for key in in_store)


@pytest.mark.parametrize("wipe", ["flushall", "kill -9"])
def test_a_queue_lost_whole_loses_no_turn_the_sweeper_enqueues_them_again(queue_server, stack_factory, wipe):
    """Four games wait on their bot's first move while the one worker thinks a second per move:
    the queues' Redis is wiped (FLUSHALL, or killed -9 and started empty) under it, taking the
    turns queued with it. With no client request at all (the store's hashes are read directly),
    the sweeper finds the games marked in ``bots-due`` once they have waited the job timeout
    plus the grace, enqueues them on the new queue, and every game is played on."""
    stack = stack_factory(RQ_REDIS_URL=queue_server.url, **FAST_RECOVERY)
    api, _ = stack.api()
    worker = stack.worker(SKYLINE_FAULT_BOT_DELAY_SECONDS="1")
    store = redis.Redis.from_url(stack.redis.url)
    queues = redis.Redis.from_url(queue_server.url)
    client = FailoverClient([api])
    games = []
    for _ in range(4):
        created = client.request(
            "POST", "/games", json={"title": "property", "seed": 8, "seats": [BOT, HUMAN]}
        ).json()
        assert created["to_act"] == [0], "the bot moves first"
        games.append(created)
    wait_for(
        lambda: any(fetch(queues, game["id"], 0).get_status() == JobStatus.STARTED for game in games),
        20,
        "the worker to start a first bot turn",
    )
    queued = sum(queues.llen(f"rq:queue:{name}") for name in QUEUE_NAMES)
    assert queued >= 2, "turns wait in the queue, to be lost"

    if wipe == "flushall":
        queues.flushall()
    else:
        queue_server.halt(kill=True)
        queue_server.start()  # no persistence: back empty, at the same URL
    wiped = time.monotonic()
    assert not keys(queues, "rq:*"), "the queue is gone whole"
    behind = [game["id"] for game in games if stored_version(store, game["id"]) == 0]
    assert len(behind) >= 2, "games still wait on their bot"

    # The sweeper's bound (stall + one sweep: 6 s here) plus a second's thought per game, with room
    # for a machine shared with other test runs.
    wait_for(
        lambda: all(stored_version(store, game_id) >= 1 for game_id in behind),
        STALL_SECONDS + 1 + len(behind) + 45,
        "every waiting game's bot to move again, with no request",
        interval=0.1,
    )
    recovered_in = time.monotonic() - wiped
    assert worker.poll() is None, "the worker lived through its queue's loss"
    assert all(stored_version(store, game_id) == 1 for game_id in behind), "each bot moved once"
    assert all(store.llen(log_key(game_id)) == 1 for game_id in behind)
    print(f"{wipe}: {len(behind)} games waiting on a bot played again {recovered_in:.1f} s after the wipe")

    # Play goes on through the API too: its pool reconnects to the new queue, the bot answers.
    first = games[0]
    reached = play_until(
        client, first["id"], tokens_of(first), random.Random(1), stop=lambda game: game["version"] >= 6
    )
    assert reached["version"] >= 6
    events = client.request("GET", f"/games/{first['id']}/events").json()["events"]
    assert sum(1 for entry in events if entry["seat"] == 0) >= 2, "the bot moved after the wipe too"


def test_a_webhook_job_lost_with_its_queue_is_delivered_once_its_lease_runs_out(queue_server, stack_factory):
    """Two endpoints, each a receiver that takes 4 s to answer: while the webhook worker waits on
    one, the other's job waits in the queue, and the queues' Redis is wiped. The endpoint's claim
    (``sk:webhooks-sending``, in the games' Redis) runs out after its lease, the dispatcher claims
    it again, and its notice arrives: no request, no lost notice."""
    lease = 3.0
    stack = stack_factory(
        RQ_REDIS_URL=queue_server.url, SKYLINE_WEBHOOK_LEASE_SECONDS=str(lease), **WEBHOOKS_ON_LOOPBACK
    )
    api, _ = stack.api()
    stack.webhook_worker()
    queues = redis.Redis.from_url(queue_server.url)
    receivers = [Receiver(hang=4.0), Receiver(hang=4.0)]
    try:
        created = FailoverClient([api]).request(
            "POST",
            "/games",
            json={
                "title": "property",
                "seed": 3,
                "seats": [HUMAN, HUMAN],
                "webhooks": [{"url": receiver.url} for receiver in receivers],
            },
        )
        assert created.status_code == 201, created.text
        wait_for(
            lambda: any(r.received for r in receivers) and queues.llen(f"rq:queue:{WEBHOOK_QUEUE_NAME}") >= 1,
            30,
            "one delivery under way and the other endpoint's job queued",
        )
        waiting = next(r for r in receivers if not r.received)
        queues.flushall()
        assert not keys(queues, "rq:*"), "its job is gone with the queue"
        wait_for(lambda: waiting.received, lease + 4.0 + 30, "the lost job's notice", interval=0.1)
    finally:
        for receiver in receivers:
            receiver.close()
