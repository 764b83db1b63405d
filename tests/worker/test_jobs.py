"""Bot turns: the job function on a real Redis, and real RQ worker processes playing games."""

from __future__ import annotations

import os
import time
import zlib
from dataclasses import replace

import pytest
import redis
from rq import Queue
from rq.serializers import JSONSerializer

from service.config import Settings
from service.http.services import services
from service.run.embedded import EmbeddedRedis
from service.store.botqueue import ALL_BOT_QUEUE_NAME, QUEUE_NAME, BotQueue, job_id
from skyline.web import api_app
from worker import jobs
from worker.jobs import play_bot_turn

from ..conftest import Processes, burst_worker, worker_command

BOT = {"kind": "bot", "bot": "random"}
SMART = {"kind": "bot", "level": "easy"}
HUMAN = {"kind": "human", "name": "Ada"}


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory):
    """This module's own Redis: the session one may also serve the live API's RQ worker
    (tests/contract), which would play the bot turns these tests play by hand."""
    server = EmbeddedRedis(tmp_path_factory.mktemp("worker-redis"), appendonly=False).start()
    yield server
    server.stop()


def create(client, seats, seed=1):
    response = client.post("/games", json={"title": "property", "seats": seats, "seed": seed})
    assert response.status_code == 201
    return response.get_json()


def test_the_job_plays_the_bot_seat_and_stale_jobs_do_nothing(client, redis_client, worker_services):
    created = create(client, [BOT, BOT], seed=4)
    game_id = created["id"]
    outcome = play_bot_turn(game_id, 0, services=worker_services, max_turns=1)
    assert outcome["outcome"] == "played" and outcome["version"] == 1 and outcome["fallbacks"] == 0
    assert play_bot_turn(game_id, 0, services=worker_services) == {"outcome": "stale", "current": 1}
    assert play_bot_turn("nosuchgame", 0, services=worker_services) == {"outcome": "missing"}


def test_one_job_plays_consecutive_bot_turns_then_hands_over(
    client, redis_client, monkeypatch, worker_services
):
    monkeypatch.setattr(jobs.Turns, "human_waiting", lambda self: lambda: False)
    created = create(client, [BOT, BOT], seed=4)
    outcome = play_bot_turn(created["id"], 0, services=worker_services, max_turns=5)
    assert outcome["moves"] == 5 and outcome["version"] == 5
    queue = Queue(ALL_BOT_QUEUE_NAME, connection=redis_client, serializer=JSONSerializer)
    assert queue.fetch_job(job_id(created["id"], 5)) is not None, (
        "past its budget the job enqueues the next turn"
    )


def test_the_job_does_nothing_when_a_human_is_to_act(client, redis_client, worker_services):
    created = create(client, [HUMAN, HUMAN], seed=4)
    assert play_bot_turn(created["id"], 0, services=worker_services) == {"outcome": "nothing_to_do"}


def test_a_failing_strategy_falls_back_to_a_legal_move(client, redis_client, monkeypatch, worker_services):
    def broken(*args, **kwargs):
        raise RuntimeError("the bot crashed")

    monkeypatch.setattr(jobs, "choose", broken)
    created = create(client, [BOT, BOT], seed=4)
    outcome = play_bot_turn(created["id"], 0, services=worker_services, max_turns=3)
    assert outcome["outcome"] == "played" and outcome["fallbacks"] == outcome["moves"] == 3


def test_a_game_with_a_human_queues_its_bot_turns_first_and_a_game_of_bots_second(client, redis_client):
    """Fair scheduling: the worker takes skyline-bots (someone waits) before skyline-bots-all-bot."""
    with_human = create(client, [BOT, HUMAN], seed=1)
    bots_only = create(client, [BOT, BOT], seed=1)
    first = Queue(QUEUE_NAME, connection=redis_client, serializer=JSONSerializer)
    second = Queue(ALL_BOT_QUEUE_NAME, connection=redis_client, serializer=JSONSerializer)
    assert with_human["to_act"] == [0] and bots_only["to_act"] == [0]
    assert first.fetch_job(job_id(with_human["id"], 0)) is not None
    assert second.fetch_job(job_id(bots_only["id"], 0)) is not None
    assert first.fetch_job(job_id(bots_only["id"], 0)) is None


def test_creating_a_game_enqueues_a_json_job_for_the_bot_turn(client, redis_client, worker_services):
    created = create(client, [BOT, BOT], seed=8)
    queue = Queue(ALL_BOT_QUEUE_NAME, connection=redis_client, serializer=JSONSerializer)
    job = queue.fetch_job(job_id(created["id"], 0))
    assert job is not None and list(job.args) == [created["id"], 0]
    assert job.func_name == "worker.jobs.play_bot_turn"
    # RQ compresses the payload; inside it is JSON, never pickle.
    payload = JSONSerializer.loads(zlib.decompress(redis_client.hget(job.key, "data")))
    assert payload[0] == "worker.jobs.play_bot_turn" and payload[2] == [created["id"], 0]


@pytest.fixture
def private_redis(tmp_path):
    """A Redis of this test's own: the session one also serves the live server, whose queue
    fills with the bot turns of games that schemathesis creates."""
    server = EmbeddedRedis(tmp_path / "redis", appendonly=False).start()
    yield server
    server.stop()


@pytest.fixture
def private_client(settings, private_redis):
    app = api_app(
        replace(settings, redis_url=private_redis.url), redis_client=redis.Redis.from_url(private_redis.url)
    )
    return app.test_client()


@pytest.fixture
def workers(private_redis):
    processes = Processes({**os.environ, "REDIS_URL": private_redis.url})
    for _ in range(2):
        processes.start(worker_command())
    yield processes
    processes.stop()


def wait_finished(client, game_id, timeout=120):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        game = client.get(f"/games/{game_id}").get_json()
        if game["status"] == "finished":
            return game
        time.sleep(0.1)
    raise AssertionError(f"game {game_id} did not finish: {game}")


def test_real_workers_play_bot_only_games_to_the_end_in_parallel(private_client, workers):
    client = private_client
    games = [create(client, [BOT] * seats, seed=seats)["id"] for seats in (2, 3, 4, 2)]
    for game_id in games:
        final = wait_finished(client, game_id)
        assert final["result"]["winners"]
        assert client.get(f"/games/{game_id}/record").status_code == 200


def test_a_human_against_bots_through_the_worker(private_client, workers):
    client = private_client
    created = create(client, [HUMAN, BOT, BOT], seed=21)
    game_id, token = created["id"], created["seats"][0]["token"]
    headers = {"Authorization": f"Bearer {token}"}
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        game = client.get(f"/games/{game_id}", headers=headers).get_json()
        if game["status"] == "finished":
            break
        if 0 in game["to_act"]:
            listing = client.get(f"/games/{game_id}/moves", headers=headers).get_json()
            body = {"move": listing["moves"][-1]["move"], "version": listing["version"]}
            response = client.post(f"/games/{game_id}/actions", json=body, headers=headers)
            assert response.status_code in (200, 409), response.get_json()
        else:
            time.sleep(0.02)
    assert game["status"] == "finished"
    log = client.get(f"/games/{game_id}/events", headers=headers).get_json()["events"]
    assert {entry["seat"] for entry in log} == {0, 1, 2}


def test_a_game_of_bots_hands_its_worker_over_when_a_human_waits(
    client, redis_client, monkeypatch, worker_services
):
    created = create(client, [BOT, BOT], seed=4)
    monkeypatch.setattr(jobs.Turns, "human_waiting", lambda self: lambda: True)
    outcome = play_bot_turn(created["id"], 0, services=worker_services, max_turns=5)
    assert outcome["moves"] == 1, "one move, then back in the queue"
    queue = Queue(ALL_BOT_QUEUE_NAME, connection=redis_client, serializer=JSONSerializer)
    assert queue.fetch_job(job_id(created["id"], 1)) is not None


def test_bots_think_a_quarter_of_their_time_under_queue_pressure(
    client, redis_client, monkeypatch, worker_services
):
    created = create(client, [{"kind": "bot", "level": "hard"}, HUMAN], seed=4)
    assert created["to_act"] == [0]
    monkeypatch.setattr(BotQueue, "depth", lambda self: Settings().bot_pressure_jobs)
    started = time.perf_counter()
    outcome = play_bot_turn(created["id"], 0, services=worker_services)
    seconds = time.perf_counter() - started
    hard = jobs.level_for(None, "hard").seconds
    assert outcome["moves"] == 1 and seconds < hard * jobs.PRESSURE_SHARE + 0.5, seconds


def test_bot_levels_are_stored_and_played(client, redis_client, monkeypatch, worker_services):
    # Alone on the worker: no human's game waits (the session's queue is shared with other tests).
    monkeypatch.setattr(jobs.Turns, "human_waiting", lambda self: lambda: False)
    created = create(client, [SMART, {"kind": "bot", "bot": "ismcts"}], seed=6)
    assert created["seats"][0]["bot"] == "greedy" and created["seats"][0]["level"] == "easy"
    assert created["seats"][1]["level"] == "medium"
    outcome = play_bot_turn(created["id"], 0, services=worker_services, max_turns=2)
    assert outcome["moves"] == 2 and outcome["fallbacks"] == 0


def test_a_level_must_match_its_bot(client):
    response = client.post(
        "/games",
        json={
            "title": "property",
            "seats": [{"kind": "bot", "bot": "random", "level": "hard"}, {"kind": "human"}],
        },
    )
    assert response.status_code == 422 and response.get_json()["code"] == "level_not_for_bot"


def test_a_sealed_choice_stands_when_another_seat_chose_meanwhile(
    client, redis_client, monkeypatch, worker_services
):
    """Fresh Fish's blind auction: the bot's bid, chosen at version v, still lands after the
    human's bid made version v + 1 (the human's bid is hidden from the bot anyway)."""
    from engines.registry import GAMES

    game = GAMES["fresh-fish"]
    created = client.post(
        "/games",
        json={
            "title": "fresh-fish",
            "seed": 5,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
        },
    ).get_json()
    game_id, token = created["id"], created["seats"][0]["token"]
    headers = {"Authorization": f"Bearer {token}"}
    store = services(client.application).games.store
    for _ in range(400):  # play on until both seats must bid at once
        stored = store.load(game_id)
        state = game.restore(stored.state)
        if sorted(state.to_act()) == [0, 1]:
            break
        if 0 in state.to_act():
            move = client.get(f"/games/{game_id}/moves", headers=headers).get_json()["moves"][0]["move"]
            client.post(f"/games/{game_id}/actions", json={"move": move}, headers=headers)
        else:
            play_bot_turn(game_id, stored.version, services=worker_services, max_turns=1)
    else:
        pytest.skip("no simultaneous auction reached with this seed")
    real_choose = jobs.choose

    def slow_choose(state, seat, *args, **kwargs):
        move = real_choose(state, seat, *args, **kwargs)
        # The human bids while the bot thinks.
        human_move = client.get(f"/games/{game_id}/moves", headers=headers).get_json()["moves"][0]["move"]
        assert (
            client.post(f"/games/{game_id}/actions", json={"move": human_move}, headers=headers).status_code
            == 200
        )
        return move

    monkeypatch.setattr(jobs, "choose", slow_choose)
    outcome = play_bot_turn(game_id, stored.version, services=worker_services, max_turns=1)
    assert outcome["outcome"] == "played" and outcome["version"] == stored.version + 2


def test_a_turn_that_waited_in_the_queue_thinks_what_is_left_of_its_time(
    client, redis_client, worker_services
):
    created = create(client, [{"kind": "bot", "level": "hard"}, HUMAN], seed=4)
    assert created["to_act"] == [0]
    hard = jobs.level_for(None, "hard").seconds
    started = time.perf_counter()
    outcome = play_bot_turn(created["id"], 0, services=worker_services, waited=hard)
    seconds = time.perf_counter() - started
    assert outcome["moves"] == 1 and outcome["fallbacks"] == 0
    assert seconds < hard * jobs.LATE_MIN_SHARE + 0.5, seconds
    assert jobs.think_seconds(hard, 0.2) == pytest.approx(hard - 0.2)
    assert jobs.think_seconds(hard, 10.0) == pytest.approx(hard * jobs.LATE_MIN_SHARE)


def test_a_real_worker_shortens_a_late_turn_by_its_wait(settings, tmp_path):
    """A hard bot's turn left 1.5 s in the queue (no worker yet): the worker that takes it
    thinks only the floor of its time, so the answer comes close to the level's budget end to end."""
    import json

    server = EmbeddedRedis(tmp_path / "redis", appendonly=False).start()
    try:
        app = api_app(replace(settings, redis_url=server.url), redis_client=redis.Redis.from_url(server.url))
        created = app.test_client().post(
            "/games",
            json={"title": "property", "seed": 4, "seats": [{"kind": "bot", "level": "hard"}, HUMAN]},
        )
        assert created.status_code == 201 and created.get_json()["to_act"] == [0]
        time.sleep(1.5)
        done = burst_worker(server.url)
    finally:
        server.stop()
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    played = [line for line in lines if line.get("event") == "bot_job" and line.get("outcome") == "played"]
    assert len(played) == 1, done.stdout[-2000:]
    job = played[0]
    hard = jobs.level_for(None, "hard").seconds
    assert job["queue_wait_ms"] >= 1500
    # Ignoring its wait, the job would think the whole 1.2 s of the hard level.
    assert job["duration_ms"] < 1000 * hard * 0.8, job
