"""`skyline worker`: the RQ worker that plays bot turns, ready for production.

- Jobs run in the worker process (``SimpleWorker``: a bot turn is shorter than a fork), with
  RQ's timeout (SIGALRM) still enforced.
- SIGTERM is RQ's warm shutdown: the current job finishes, then the worker exits. Give the
  worker's pod a ``terminationGracePeriodSeconds`` above ``SKYLINE_BOT_JOB_TIMEOUT``.
- A worker killed mid-job (SIGKILL, lost node) leaves its job in RQ's StartedJobRegistry. The
  job's deadline there is its timeout plus ``SKYLINE_WORKER_ABANDON_GRACE_SECONDS`` (RQ's
  SimpleWorker would add a fixed 60 s); past it, the maintenance of any live worker (every
  ``SKYLINE_WORKER_MAINTENANCE_SECONDS``) retries the job (``Retry(max=2)``). A retried
  turn that already landed does nothing: every move is a compare-and-set on the version.
- Whatever happened to a job (abandoned, out of retries, lost with a Redis restart), the
  sweeper (``worker.sweeper``, a thread of every worker) enqueues the turn of any game whose bot
  seat has waited longer than the job timeout plus the grace: no client request is needed.
- One JSON log line per job (game, version, outcome, moves, duration, the request that caused
  it); metrics in ``worker.metrics``.
- Once RQ has registered it, the worker beats in ``service.store.workers`` from a thread of
  its own, and leaves on a warm shutdown: ``/readyz`` says ``degraded`` while no worker beats,
  and `skyline serve` counts a worker child as started once it does.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from redis import Redis
from rq.defaults import DEFAULT_WORKER_TTL
from rq.exceptions import AbandonedJobError
from rq.job import Job
from rq.queue import Queue
from rq.serializers import JSONSerializer
from rq.timeouts import JobTimeoutException
from rq.worker import SimpleWorker

from service.config import SettingError, Settings
from service.play.services import Services
from service.store.botqueue import QUEUE_NAMES
from service.store.connect import is_cluster
from service.store.workers import WorkerPresence, member
from service.watch import logs

from . import metrics
from .archiver import Archiver
from .jobs import waited_in_queue
from .services import install
from .sweeper import Sweeper

log = logging.getLogger("skyline.worker")


class PresenceBeat:
    """This worker's beat in the presence set, from a daemon thread, every quarter window."""

    def __init__(self, presence: WorkerPresence) -> None:
        self.presence = presence
        self.name = member()
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self.presence.beat(self.name)  # at once: the supervisor waits for it
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="presence", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while not self._stopped.wait(self.presence.window / 4):
            try:
                self.presence.beat(self.name)
            except Exception as error:  # Redis away: the next beat tries again
                log.warning("presence heartbeat failed: %s", error)

    def stop(self) -> None:
        self._stopped.set()
        try:
            self.presence.leave(self.name)
        except Exception:
            pass


class SkylineWorker(SimpleWorker):
    """SimpleWorker with a short abandon deadline, metrics, a JSON line per job and a heartbeat."""

    def __init__(
        self, *args: Any, abandon_grace_seconds: int = 15, presence: PresenceBeat | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.abandon_grace_seconds = abandon_grace_seconds
        self.presence = presence
        self._failures: dict[str, type[BaseException] | None] = {}
        self.push_exc_handler(self._on_exception)  # type: ignore[no-untyped-call]  # rq's, unannotated

    def register_birth(self) -> None:
        super().register_birth()  # type: ignore[no-untyped-call]  # rq's, unannotated
        if self.presence is not None:
            self.presence.start()

    def get_heartbeat_ttl(self, job: Job, working_time: float = 0.0) -> int:
        """How long the job's StartedJobRegistry entry (and this worker's key) may go unrenewed.

        A SimpleWorker sends no heartbeat while its job runs, so this must cover the whole
        job: its timeout (enforced by SIGALRM) plus a grace for the bookkeeping after it.
        """
        if job.timeout == -1:
            return DEFAULT_WORKER_TTL
        return int(job.timeout or DEFAULT_WORKER_TTL) + self.abandon_grace_seconds

    def _on_exception(self, job: Job, exc_type: Any, exc_value: Any, traceback: Any) -> None:
        # RQ calls this inside its registry cleaning too: nothing here may raise, or the
        # worker dies with RQ's cleaning lock held and the abandoned job is never retried.
        try:
            if exc_type is AbandonedJobError or isinstance(exc_value, AbandonedJobError):
                # Found by maintenance: a job whose worker died. RQ retries it (or fails it) next.
                metrics.job_done("abandoned", None)
                log.warning(
                    "bot job abandoned by a dead worker",
                    extra={
                        "event": "bot_job",
                        "job_id": job.id,
                        "outcome": "abandoned",
                        "retries_left": job.retries_left,
                        # Not "args": a LogRecord attribute, which logging refuses to overwrite.
                        "job_args": list(job.args or ()),
                    },
                )
                return None
            self._failures[job.id] = exc_type
        except Exception:
            log.exception("could not record a bot job's failure")
        return None

    def perform_job(self, job: Job, queue: Queue, execution: Any) -> bool:
        meta = job.meta or {}
        token = logs.bind_request_id(meta.get("request_id") or f"job:{job.id}")
        started = time.perf_counter()
        waited = None
        if job.enqueued_at is not None:
            waited = waited_in_queue(job)
            try:
                metrics.queue_waited(queue.name, waited)
            except Exception:
                log.exception("could not record a queue wait")
        try:
            ok = super().perform_job(job, queue, execution)
        except BaseException:
            logs.reset_request_id(token)
            raise
        seconds = time.perf_counter() - started
        fields: dict[str, Any] = {"event": "bot_job", "job_id": job.id, "worker": self.name}
        args = list(job.args or ())
        if len(args) >= 2:
            fields["game_id"], fields["version"] = args[0], args[1]
        failure = self._failures.pop(job.id, None)
        if ok:
            result = job.return_value()
            outcome = result.get("outcome", "done") if isinstance(result, dict) else "done"
            if isinstance(result, dict):
                fields["moves"] = result.get("moves", 1 if outcome == "played" else 0)
                if "version" in result:
                    fields["reached_version"] = result["version"]
        else:
            outcome = (
                "timeout" if failure is not None and issubclass(failure, JobTimeoutException) else "error"
            )
            fields["exception"] = getattr(failure, "__name__", None)
            fields["retries_left"] = job.retries_left
        fields["outcome"] = outcome
        fields["queue"] = queue.name
        if waited is not None:
            fields["queue_wait_ms"] = round(waited * 1000, 1)
        fields["duration_ms"] = round(seconds * 1000, 2)
        try:
            metrics.job_done(outcome, seconds)
            (log.info if ok else log.warning)("bot job", extra=fields)
        except Exception:  # a metric or a log line never takes the worker down
            log.exception("could not log a bot job")
        logs.reset_request_id(token)
        return ok


def _work(
    worker: SimpleWorker,
    helpers: list[Any],
    *,
    also_stop: tuple[Any, ...] = (),
    burst: bool,
    http_port: int | None,
    settings: Settings,
) -> int:
    """Run ``worker`` with its helper threads (started here; stopped after, with ``also_stop``,
    those started elsewhere) and, on ``http_port``, its /metrics and /healthz, until SIGTERM
    (warm shutdown) or, with burst, an empty queue."""
    for helper in helpers:
        helper.start()
    server = None
    if http_port:
        server = metrics.serve_http(
            http_port,
            alive=threading.main_thread().is_alive,
            multiprocess=settings.prometheus_multiproc_dir is not None,
        )
        log.info("worker metrics and health on port %s", server.server_port)
    try:
        worker.work(burst=burst, logging_level=settings.log_level)
    finally:
        for helper in (*helpers, *also_stop):
            helper.stop()
        if server is not None:
            server.shutdown()
    return 0


def _queues(services: Services) -> Redis:
    """RQ's connection: the queues' Redis, which cannot be a cluster's (Settings.from_env refuses
    SKYLINE_REDIS_CLUSTER without RQ_REDIS_URL; settings made by hand are refused here)."""
    if is_cluster(services.queue_redis):
        raise SettingError(
            "RQ cannot use a Redis Cluster: its queues need a Redis of their own (RQ_REDIS_URL)"
        )
    return services.queue_redis


def run_webhooks(services: Services, *, burst: bool = False, http_port: int | None = None) -> int:
    """Run one webhook worker (``worker.webhooks``) over ``services``: the ``skyline-webhooks``
    queue's jobs, and the dispatcher thread that fans out committed versions and enqueues the due
    endpoints."""
    from . import webhooks

    install(services)
    settings = services.settings
    worker = SimpleWorker(
        [webhooks.QUEUE_NAME],
        connection=_queues(services),
        serializer=JSONSerializer,
        maintenance_interval=settings.worker_maintenance_seconds,
        worker_ttl=settings.worker_ttl_seconds,
    )
    beat = PresenceBeat(services.webhook_workers)
    helpers = [webhooks.Dispatcher(webhooks.context()), beat]
    return _work(worker, helpers, burst=burst, http_port=http_port, settings=settings)


def run(services: Services, *, burst: bool = False, http_port: int | None = None) -> int:
    """Run one worker on the bot queue over ``services`` until SIGTERM (warm shutdown) or, with
    burst, an empty queue; its sweeper and archiver (with DATABASE_URL) as threads beside it."""
    install(services)
    settings = services.settings
    beat = PresenceBeat(services.bot_workers)
    worker = SkylineWorker(
        list(QUEUE_NAMES),  # in order: a game with a human first
        connection=_queues(services),
        serializer=JSONSerializer,
        abandon_grace_seconds=settings.worker_abandon_grace_seconds,
        maintenance_interval=settings.worker_maintenance_seconds,
        # The worker's key lives this long between heartbeats; an idle worker wakes up every
        # (ttl - 15) s, which is also when it may run maintenance.
        worker_ttl=settings.worker_ttl_seconds,
        presence=beat,  # started by the worker once RQ has registered it
    )
    sweeper = Sweeper.from_services(services)
    archiver = Archiver.from_services(services)
    helpers = [sweeper] if archiver is None else [sweeper, archiver]
    return _work(worker, helpers, also_stop=(beat,), burst=burst, http_port=http_port, settings=settings)
