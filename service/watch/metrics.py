"""Prometheus metrics of the API, served at ``/metrics`` (by ``service.http.hooks``).

- ``skyline_http_requests_total{method,route,status}`` and
  ``skyline_http_request_duration_seconds{method,route,status}`` (route is the template,
  ``/games/{game_id}``, so a game id never becomes a label), ``skyline_http_requests_in_flight``;
- ``skyline_moves_applied_total{title,by}`` (by = human or bot; the worker counts bot moves),
  ``skyline_games_created_total{title}``, ``skyline_rate_limited_total{scope}``,
  ``skyline_event_streams_open`` (live event streams, summed over live processes);
- read from Redis at scrape time: ``skyline_bot_queue_jobs{queue,state}`` (queued, started,
  scheduled, failed), ``skyline_bot_workers`` and ``skyline_redis_up``.

Under gunicorn each worker process writes its samples to files in ``PROMETHEUS_MULTIPROC_DIR``
(prometheus-client's multiprocess mode) and a scrape, answered by any process, sums them;
``service.run.gunicorn_conf`` sets that directory up and marks dead workers. The variable must be
set before ``prometheus_client`` is imported, so this module imports it only when a metric is
first used — never at import, which gunicorn's master does (of its config) before forking.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any, TypeVar

import redis

HTTP_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

T = TypeVar("T")


def built_once(build: Callable[[], T]) -> Callable[[], T]:
    """A getter that calls ``build`` on first use only, once across threads.

    Metrics are made lazily (after gunicorn has forked, see above) and exactly once:
    registering the same name twice is an error in prometheus_client.
    """
    lock = threading.Lock()
    built: list[T] = []

    def get() -> T:
        if not built:
            with lock:
                if not built:
                    built.append(build())
        return built[0]

    return get


def _api_metrics() -> SimpleNamespace:
    from prometheus_client import Counter, Gauge, Histogram

    return SimpleNamespace(
        requests=Counter(
            "skyline_http_requests_total",
            "HTTP requests answered, by method, route template and status.",
            ["method", "route", "status"],
        ),
        latency=Histogram(
            "skyline_http_request_duration_seconds",
            "Time to answer an HTTP request (to the first byte of a stream).",
            ["method", "route", "status"],
            buckets=HTTP_BUCKETS,
        ),
        in_flight=Gauge(
            "skyline_http_requests_in_flight",
            "HTTP requests being answered now.",
            multiprocess_mode="livesum",
        ),
        moves=Counter(
            "skyline_moves_applied_total",
            "Moves applied to games, by game title and by whom (human or bot).",
            ["title", "by"],
        ),
        games=Counter("skyline_games_created_total", "Games created, by title.", ["title"]),
        streams=Gauge(
            "skyline_event_streams_open",
            "Live event streams (text/event-stream) open now.",
            multiprocess_mode="livesum",
        ),
        limited=Counter(
            "skyline_rate_limited_total",
            "Requests refused with 429, by the limit they hit (address or token).",
            ["scope"],
        ),
    )


api_metrics = built_once(_api_metrics)  # The API's metric objects.

# Labelled children, by metric and label values. prometheus_client's ``labels()`` validates
# and looks the values up behind a lock on every call; the set of label values here is small
# and fixed (methods × route templates × statuses, titles), so each child is looked up once.
_children: dict[tuple[str, tuple[str, ...]], Any] = {}


def child(name: str, *values: str) -> Any:
    key = (name, values)
    found = _children.get(key)
    if found is None:
        found = _children.setdefault(key, getattr(api_metrics(), name).labels(*values))
    return found


def move_applied(title: str, by: str) -> None:
    child("moves", title, by).inc()


def open_streams(count: int) -> None:
    api_metrics().streams.set(count)


def rate_limited(scope: str) -> None:
    api_metrics().limited.labels(scope=scope).inc()


# ---- scrape-time metrics read from Redis --------------------------------------------------------
class QueueCollector:
    """Bot queue depth, workers and Redis reachability, read from the queues' Redis at each scrape."""

    def __init__(self, connection: redis.Redis, queue_names: tuple[str, ...]) -> None:
        self.connection = connection
        self.queue_names = queue_names

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import GaugeMetricFamily
        from rq import Queue, Worker
        from rq.registry import FailedJobRegistry, ScheduledJobRegistry, StartedJobRegistry
        from rq.serializers import JSONSerializer

        jobs = GaugeMetricFamily(
            "skyline_bot_queue_jobs",
            "Bot jobs by queue (skyline-bots: games with a human; skyline-bots-all-bot) and state "
            "(queued, started, scheduled, failed), read from Redis at scrape time.",
            labels=["queue", "state"],
        )
        workers = GaugeMetricFamily("skyline_bot_workers", "RQ workers registered on the bot queues.")
        up = GaugeMetricFamily(
            "skyline_redis_up", "1 when the queues' Redis (RQ_REDIS_URL, else REDIS_URL) answered the scrape."
        )
        try:
            counts = {}
            for name in self.queue_names:
                queue = Queue(name, connection=self.connection, serializer=JSONSerializer)
                counts[name] = {
                    "queued": queue.count,
                    # cleanup=False: a scrape must not requeue anything, only look.
                    "started": StartedJobRegistry(queue=queue).get_job_count(cleanup=False),
                    # rq leaves this class's constructor unannotated.
                    "scheduled": ScheduledJobRegistry(queue=queue).get_job_count(  # type: ignore[no-untyped-call]
                        cleanup=False
                    ),
                    "failed": FailedJobRegistry(queue=queue).get_job_count(cleanup=False),
                }
            worker_count = Worker.count(queue=Queue(self.queue_names[0], connection=self.connection))
        except (redis.RedisError, OSError):
            up.add_metric([], 0)
            yield up
            return
        for name, by_state in counts.items():
            for state, count in by_state.items():
                jobs.add_metric([name, state], count)
        workers.add_metric([], worker_count)
        up.add_metric([], 1)
        yield jobs
        yield workers
        yield up


class _Forward:
    """A collector that yields another registry's metrics (single-process mode)."""

    def __init__(self, registry: Any) -> None:
        self.registry = registry

    def collect(self) -> Iterator[Any]:
        yield from self.registry.collect()


def exposition(
    connection: redis.Redis | None, queue_names: tuple[str, ...] = (), *, multiprocess: bool = False
) -> tuple[bytes, str]:
    """The text exposition of every metric: this process's, or all processes' in ``multiprocess``
    mode (PROMETHEUS_MULTIPROC_DIR set); with a ``connection``, the bot queues ``queue_names`` (the
    first one's workers) read from it."""
    from prometheus_client import REGISTRY, CollectorRegistry, generate_latest
    from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4

    registry = CollectorRegistry()
    if multiprocess:
        from prometheus_client import multiprocess as processes

        processes.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]  # unannotated
    else:
        registry.register(_Forward(REGISTRY))
    if connection is not None:
        registry.register(QueueCollector(connection, queue_names))
    return generate_latest(registry), CONTENT_TYPE_PLAIN_0_0_4


# ---- what every request reports (from Flask's hooks, or the fast lane's calls) -------------------
def request_began() -> None:
    api_metrics().in_flight.inc()


def request_answered(method: str, route: str, status: int, seconds: float) -> None:
    labels = (method, route, str(status))
    child("requests", *labels).inc()
    child("latency", *labels).observe(seconds)


def request_ended() -> None:
    api_metrics().in_flight.dec()
