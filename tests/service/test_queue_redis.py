"""RQ_REDIS_URL (issue 56): RQ's queues on a Redis of their own, the games on REDIS_URL's.

In process, on two real redis-servers: the API enqueues a bot turn on the queues' Redis and
nowhere else, /metrics reads the queues there, and ``queue_redis`` (the one place RQ's client
is made) shares the store's client when the two URLs are one, never decodes responses.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
import redis

from service.config import SettingError
from service.run.embedded import EmbeddedRedis
from service.store.botqueue import ALL_BOT_QUEUE_NAME, QUEUE_NAME, job_id, queue_redis
from service.store.keys import BOTS_DUE, index_keys, index_of
from skyline.compose import BOT_WORKER, build_services
from skyline.web import api_app

from .test_metrics import sample


@pytest.fixture
def two_redis(tmp_path):
    """A store Redis and a queue Redis, both empty: their clients."""
    store = EmbeddedRedis(tmp_path / "store", appendonly=False).start()
    queue = EmbeddedRedis(tmp_path / "queue", appendonly=False).start()
    yield store, queue
    store.stop()
    queue.stop()


def test_without_a_url_of_its_own_the_queue_shares_the_stores_client(settings, redis_client):
    assert settings.rq_redis_url is None
    assert queue_redis(settings, store=redis_client) is redis_client
    same = replace(settings, rq_redis_url=settings.redis_url)
    assert queue_redis(same, store=redis_client) is redis_client
    alone = queue_redis(settings)  # a process of its own (a worker): a client of REDIS_URL's
    assert alone is not redis_client and alone.ping()
    assert not alone.get_connection_kwargs().get("decode_responses")


def test_a_url_of_its_own_gets_a_bounded_client_of_its_own(settings, redis_client, two_redis):
    _, queue = two_redis
    own = replace(settings, rq_redis_url=queue.url)
    client = queue_redis(own, store=redis_client, max_connections=3)
    assert client is not redis_client
    assert client.get_connection_kwargs()["path"] == queue.socket
    assert client.connection_pool.max_connections == 3
    assert client.ping()


@pytest.mark.parametrize("variable", ["REDIS_URL", "RQ_REDIS_URL"])
def test_a_url_asking_to_decode_responses_is_refused_naming_its_variable(settings, two_redis, variable):
    _, queue = two_redis
    decoding = f"{queue.url}&decode_responses=True"
    if variable == "REDIS_URL":
        wrong = replace(settings, redis_url=decoding, rq_redis_url=None)
    else:
        wrong = replace(settings, rq_redis_url=decoding)
    with pytest.raises(SettingError, match=f"^{variable}: RQ cannot use decode_responses"):
        queue_redis(wrong)


def test_the_api_enqueues_bot_turns_on_the_queues_redis_and_metrics_read_them_there(settings, two_redis):
    store, queue = two_redis
    app = api_app(
        replace(settings, redis_url=store.url, rq_redis_url=queue.url),
        redis_client=redis.Redis.from_url(store.url),
    )
    client = app.test_client()
    bots = {"title": "property", "seed": 1, "seats": [{"kind": "bot"}, {"kind": "bot"}]}
    with_human = {"title": "property", "seed": 8, "seats": [{"kind": "bot"}, {"kind": "human"}]}
    all_bot_game = client.post("/games", json=bots).get_json()["id"]
    created = client.post("/games", json=with_human).get_json()
    human_game = created["id"]
    assert created["to_act"] == [0], "the bot is to act first"

    on_store = redis.Redis.from_url(store.url)
    on_queue = redis.Redis.from_url(queue.url)
    assert on_queue.lrange(f"rq:queue:{ALL_BOT_QUEUE_NAME}", 0, -1) == [job_id(all_bot_game, 0).encode()]
    assert on_queue.lrange(f"rq:queue:{QUEUE_NAME}", 0, -1) == [job_id(human_game, 0).encode()]
    assert not list(on_store.scan_iter("rq:*")), "no RQ key in the store"
    assert not list(on_queue.scan_iter("sk:*")), "no game key in the queue's Redis"
    # The store still marks both games as waiting on a bot: the truth a lost queue is rebuilt from.
    assert {member.decode() for key in index_keys(BOTS_DUE) for member in on_store.zrange(key, 0, -1)} == {
        all_bot_game,
        human_game,
    }

    text = client.get("/metrics").get_data(as_text=True)
    assert sample(text, "skyline_bot_queue_jobs", queue=ALL_BOT_QUEUE_NAME, state="queued") == 1
    assert sample(text, "skyline_bot_queue_jobs", queue=QUEUE_NAME, state="queued") == 1
    queue.halt()  # the queues' Redis away: /metrics says so; the store's is still up
    down = client.get("/metrics").get_data(as_text=True)
    assert sample(down, "skyline_redis_up") == 0
    assert on_store.ping()


def test_with_the_queues_redis_down_a_game_is_still_created_and_the_sweeper_enqueues_it_later(
    settings, two_redis
):
    """The commit marks the game due in the store before the enqueue: an enqueue that fails is left
    to the sweeper (a 201, not a 503 for a game that exists), which enqueues the turn once the
    queues' Redis is back."""
    from worker.sweeper import Sweeper

    store, queue = two_redis
    app = api_app(
        replace(settings, redis_url=store.url, rq_redis_url=queue.url),
        redis_client=redis.Redis.from_url(store.url),
    )
    queue.halt()
    with_bot = {"title": "property", "seed": 8, "seats": [{"kind": "bot"}, {"kind": "human"}]}
    reply = app.test_client().post("/games", json=with_bot)
    assert reply.status_code == 201, reply.get_data(as_text=True)
    game_id = reply.get_json()["id"]
    on_store = redis.Redis.from_url(store.url)
    assert on_store.zscore(index_of(BOTS_DUE, game_id), game_id) is not None, "marked due in the store"

    queue.start()  # back, empty (no persistence)
    on_queue = redis.Redis.from_url(queue.url)
    assert on_queue.llen(f"rq:queue:{QUEUE_NAME}") == 0
    worker = build_services(
        replace(settings, redis_url=store.url, rq_redis_url=queue.url), BOT_WORKER, redis_client=on_store
    )
    sweeper = Sweeper(worker, stall_seconds=0, interval_seconds=1)
    assert sweeper.sweep_once()["enqueued"] == 1
    assert on_queue.lrange(f"rq:queue:{QUEUE_NAME}", 0, -1) == [job_id(game_id, 0).encode()]
    assert not list(on_store.scan_iter("rq:*"))
