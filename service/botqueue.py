"""Enqueue bot turns on RQ, as JSON jobs named after the game and version they answer."""

from __future__ import annotations

import logging

import redis
from rq import Queue, Retry
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job, JobStatus
from rq.registry import StartedJobRegistry
from rq.serializers import JSONSerializer

from .logs import current_request_id

QUEUE_NAME = "skyline-bots"
JOB_FUNCTION = "worker.jobs.play_bot_turn"
_DONE = {JobStatus.FINISHED, JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED}

log = logging.getLogger(__name__)


def job_id(game_id: str, version: int) -> str:
    return f"bot-{game_id}-{version}"


class BotQueue:
    """One job per (game, version): enqueueing the same turn twice is harmless."""

    def __init__(
        self, connection: redis.Redis, *, job_timeout: int = 30, retries: int = 2, name: str = QUEUE_NAME
    ) -> None:
        # RQ stores compressed bytes: its connection must not decode responses.
        self.queue = Queue(name, connection=connection, serializer=JSONSerializer)
        self.job_timeout = job_timeout
        self.retries = retries

    def enqueue_turn(self, game_id: str, version: int) -> bool:
        """Enqueue the bot turn at ``version``; False when its job is already queued or running."""
        jid = job_id(game_id, version)
        try:
            self._enqueue(game_id, version, jid)
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
            StartedJobRegistry(queue=self.queue).cleanup()
        if job is not None and job.get_status(refresh=True) not in _DONE:
            return False
        if job is not None:
            job.delete()
        try:
            self._enqueue(game_id, version, jid)
        except DuplicateJobError:
            return False
        return True

    def _enqueue(self, game_id: str, version: int, jid: str) -> None:
        self.queue.enqueue_call(
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
