"""Prometheus metrics of bot jobs, kept by the worker process.

- ``skyline_bot_jobs_total{outcome}`` and ``skyline_bot_job_duration_seconds{outcome}``:
  outcome is what the job reported (``played``, ``stale``, ``missing``, ``nothing_to_do``), or
  ``error`` / ``timeout`` when it raised, or ``abandoned`` when a worker died during it and RQ's
  maintenance (run by a live worker) found it past its deadline;
- ``skyline_webhook_deliveries_total{outcome}``: webhook attempts (``worker.webhooks``);
- ``skyline_moves_applied_total{title,by="bot"}`` is counted where moves are applied
  (``service.play.games``), so it is here too.

In ``skyline serve`` the worker shares the API's ``PROMETHEUS_MULTIPROC_DIR``, so the API's
``/metrics`` shows these. Deployed on its own (a worker pod), the worker serves them itself
on ``SKYLINE_WORKER_PORT`` (``/metrics``, with ``/healthz`` beside it).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from socketserver import ThreadingMixIn
from types import SimpleNamespace
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from service.watch.metrics import built_once, exposition

JOB_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)


def _bot_metrics() -> SimpleNamespace:
    from prometheus_client import Counter, Histogram

    return SimpleNamespace(
        jobs=Counter("skyline_bot_jobs_total", "Bot jobs run, by outcome.", ["outcome"]),
        duration=Histogram(
            "skyline_bot_job_duration_seconds",
            "Time a bot job took (several consecutive bot moves may share one job).",
            ["outcome"],
            buckets=JOB_BUCKETS,
        ),
        waited=Histogram(
            "skyline_bot_queue_wait_seconds",
            "Time a bot turn waited in its queue before a worker took it, by queue.",
            ["queue"],
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0),
        ),
        swept=Counter(
            "skyline_bot_turns_swept_total",
            "Bot turns enqueued by the sweeper because their game waited too long on a bot.",
        ),
    )


bot_metrics = built_once(_bot_metrics)


def _webhook_metrics() -> SimpleNamespace:
    from prometheus_client import Counter

    return SimpleNamespace(
        deliveries=Counter(
            "skyline_webhook_deliveries_total",
            "Webhook delivery attempts, by outcome (delivered, retry, disabled, failed: out of "
            "attempts; cancelled: its endpoint was removed).",
            ["outcome"],
        ),
    )


webhook_metrics = built_once(_webhook_metrics)


def webhook_delivered(outcome: str) -> None:
    webhook_metrics().deliveries.labels(outcome=outcome).inc()


def job_done(outcome: str, seconds: float | None) -> None:
    metrics = bot_metrics()
    metrics.jobs.labels(outcome=outcome).inc()
    if seconds is not None:
        metrics.duration.labels(outcome=outcome).observe(seconds)


def queue_waited(queue: str, seconds: float) -> None:
    bot_metrics().waited.labels(queue=queue).observe(seconds)


def turn_swept() -> None:
    bot_metrics().swept.inc()


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the stdlib's name
        pass


class _ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


def serve_http(
    port: int,
    host: str = "0.0.0.0",
    alive: Callable[[], bool] = lambda: True,
    *,
    multiprocess: bool = False,
) -> WSGIServer:
    """Serve ``/metrics`` and ``/healthz`` of this worker from a daemon thread; return the server.
    ``multiprocess``: PROMETHEUS_MULTIPROC_DIR is set (the exposition sums every process's files)."""

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        if path == "/healthz":
            ok = alive()
            start_response(
                "200 OK" if ok else "503 Service Unavailable", [("Content-Type", "application/json")]
            )
            return [b'{"status": "ok"}' if ok else b'{"status": "stopped"}']
        if path == "/metrics":
            body, content_type = exposition(None, multiprocess=multiprocess)  # the API's, without the queue
            start_response("200 OK", [("Content-Type", content_type)])
            return [body]
        start_response("404 Not Found", [("Content-Type", "text/plain")])
        return [b"not found\n"]

    server = make_server(host, port, app, server_class=_ThreadingServer, handler_class=_QuietHandler)
    threading.Thread(target=server.serve_forever, name="worker-http", daemon=True).start()
    return server
