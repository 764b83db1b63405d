"""Enqueue bot turns on RQ, as JSON jobs named after the game and version they answer.

Two queues, and workers take from the first before the second: a bot turn in a game with a
human seat (someone is waiting for it) goes to ``skyline-bots``; a turn in a game of bots only
goes to ``skyline-bots-all-bot``, and is played only when no human's game waits. One job per
game and version, so a game never has more than one turn queued.

RQ's queues (these and the webhooks') live in the Redis of ``RQ_REDIS_URL`` (``queue_redis``, the
one place their client is made), which may be another than the store's: RQ cannot use a Redis
Cluster. The games' own marks (``bots-due``, by partition) stay in the store, so a queue lost whole loses no
turn: the sweeper (worker/sweeper.py) enqueues each one again.
"""

from __future__ import annotations

import logging
from typing import cast

import redis
from rq import Queue, Retry
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job, JobStatus
from rq.registry import StartedJobRegistry
from rq.serializers import JSONSerializer

from ..config import SettingError, Settings
from ..watch.logs import current_request_id
from .connect import StoreRedis

QUEUE_NAME = "skyline-bots"  # games with a human seat: played first
ALL_BOT_QUEUE_NAME = "skyline-bots-all-bot"  # games of bots only: when no human waits
QUEUE_NAMES = (QUEUE_NAME, ALL_BOT_QUEUE_NAME)
JOB_FUNCTION = "worker.jobs.play_bot_turn"
_DONE = {JobStatus.FINISHED, JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED}

log = logging.getLogger(__name__)


def queue_redis(
    settings: Settings, *, store: StoreRedis | None = None, max_connections: int | None = None
) -> redis.Redis:
    """The client of RQ's Redis (``Settings.queue_redis_url``), never decoding responses: RQ stores
    compressed bytes, which a decoding client cannot read (its jobs would stay queued).

    ``store``, the store's client, is returned as it is when the queue has no Redis of its own (one
    pool, not two, to one server); ``max_connections`` bounds a new client's pool (the API's, where
    every waiting greenlet would otherwise open a connection of its own).
    """
    url = settings.queue_redis_url
    if store is not None and settings.rq_redis_url in (None, settings.redis_url):
        # RQ speaks to a plain Redis; a cluster's client handed here (no RQ_REDIS_URL) is refused
        # by the first job that meets it (worker.jobs), as RQ itself would fail on it.
        client = cast(redis.Redis, store)
    elif not url:
        raise RuntimeError("REDIS_URL is not set; `skyline serve` starts an embedded Redis for you.")
    elif max_connections is None:
        client = redis.Redis.from_url(url)
    else:
        pool = redis.BlockingConnectionPool.from_url(url, max_connections=max_connections, timeout=10)
        client = redis.Redis(connection_pool=pool)
    if client.get_connection_kwargs().get("decode_responses"):  # the URL's query wins over arguments
        variable = "RQ_REDIS_URL" if settings.rq_redis_url else "REDIS_URL"
        raise SettingError(f"{variable}: RQ cannot use decode_responses=True; drop it from the URL")
    return client


def job_id(game_id: str, version: int) -> str:
    return f"bot-{game_id}-{version}"


class BotQueue:
    """One job per (game, version): enqueueing the same turn twice is harmless."""

    def __init__(
        self, connection: redis.Redis, *, job_timeout: int = 30, retries: int = 2, name: str = QUEUE_NAME
    ) -> None:
        # RQ stores compressed bytes: its connection must not decode responses.
        self.queue = Queue(name, connection=connection, serializer=JSONSerializer)
        self.all_bot_queue = Queue(ALL_BOT_QUEUE_NAME, connection=connection, serializer=JSONSerializer)
        self.job_timeout = job_timeout
        self.retries = retries

    def queue_for(self, humans: bool) -> Queue:
        return self.queue if humans else self.all_bot_queue

    def humans_waiting(self) -> int:
        """Bot turns queued in games with a human seat."""
        return self.queue.count

    def depth(self) -> int:
        """Bot turns queued, in both queues."""
        pipe = self.queue.connection.pipeline(transaction=False)
        pipe.llen(self.queue.key)
        pipe.llen(self.all_bot_queue.key)
        return sum(pipe.execute())

    def enqueue_turn(self, game_id: str, version: int, *, humans: bool = True) -> bool:
        """Enqueue the bot turn at ``version``; False when its job is already queued or running.

        ``humans``: whether a human seat plays in the game (its turn then goes first).
        """
        jid = job_id(game_id, version)
        queue = self.queue_for(humans)
        try:
            self._enqueue(queue, game_id, version, jid)
            return True
        except DuplicateJobError:
            pass
        # A job for this turn exists. If it already ended while the game still waits
        # at this version (it failed for good, or was lost), start it afresh.
        try:
            job = Job.fetch(jid, connection=self.queue.connection, serializer=JSONSerializer)
        except NoSuchJobError:
            job = None
        if job is not None and job.get_status() == JobStatus.STARTED:
            # Started by a worker that may have died (SIGKILL, lost node): a job past its
            # deadline is retried now, or failed when out of retries, as RQ's own
            # maintenance would do a little later.
            StartedJobRegistry(queue=self.queue_for(job.origin != ALL_BOT_QUEUE_NAME)).cleanup()
        if job is not None and job.get_status(refresh=True) not in _DONE:
            return False
        if job is not None:
            job.delete()
        try:
            self._enqueue(queue, game_id, version, jid)
        except DuplicateJobError:
            return False
        return True

    def offer_turn(self, game_id: str, version: int, *, humans: bool = True) -> bool:
        """``enqueue_turn`` for the API, after a commit: a queues' Redis that does not answer is
        logged and the turn left to the sweeper (the commit marked the game in ``bots-due``), so
        an acknowledged move never answers 503 for a queue that may live elsewhere."""
        try:
            return self.enqueue_turn(game_id, version, humans=humans)
        except (redis.RedisError, OSError) as error:
            log.warning(
                "bot turn not enqueued (the queues' Redis did not answer); the sweeper will",
                extra={
                    "event": "bot_enqueue_failed",
                    "game_id": game_id,
                    "version": version,
                    "error": str(error),
                },
            )
            return False

    def _enqueue(self, queue: Queue, game_id: str, version: int, jid: str) -> None:
        queue.enqueue_call(
            JOB_FUNCTION,
            args=(game_id, version),
            job_id=jid,
            unique=True,
            timeout=self.job_timeout,
            result_ttl=600,
            failure_ttl=24 * 3600,
            retry=Retry(max=self.retries) if self.retries else None,
            # The request (or job) that caused this turn, for the worker's log line.
            meta={"request_id": current_request_id()},
        )
