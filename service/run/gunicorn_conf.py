"""gunicorn settings for the API: ``gunicorn --config python:service.run.gunicorn_conf skyline.wsgi:app``.

The image's default command, ``skyline serve`` and the tests all use it. Its settings come from
``service.config`` (``HOST``, ``PORT``, ``WEB_CONCURRENCY``, ``SKYLINE_WORKER_CLASS``,
``SKYLINE_WORKER_CONNECTIONS``, ``SKYLINE_THREADS``, ``SKYLINE_GRACEFUL_TIMEOUT``, ``SKYLINE_LOG_LEVEL``,
``SKYLINE_LOG_FORMAT``: docs/deploy.md lists them); a bad value stops gunicorn with one line naming it.

Prometheus multiprocess mode: every process writes its samples under
``PROMETHEUS_MULTIPROC_DIR`` and ``/metrics`` sums them. When the variable is not set, a fresh
private directory is made here (and removed at exit). The variable has to be set before any
process imports ``prometheus_client``, which is why this happens at the top of the config,
in the master, before the workers are forked (``service`` never imports it at import time).
When a worker exits, ``child_exit`` marks it dead so its live gauges stop counting.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from typing import TYPE_CHECKING, Any

from gunicorn.glogging import Logger

from service.config import SettingError, Settings, export
from service.run import gunicorn_refusals
from service.run.gunicorn_workers import WORKER_CLASSES
from service.watch.logs import logging_config

if TYPE_CHECKING:
    from gunicorn.arbiter import Arbiter
    from gunicorn.workers.base import Worker


class AppWritesAccessLines(Logger):
    """gunicorn's logger without its access line: the app writes its own (service.watch.logs).

    With ``logconfig_dict`` set, gunicorn builds every request's access line even when
    ``accesslog`` is off, only for its logger to drop it — a few per cent of a request's time.
    """

    def access(self, resp: Any, req: Any, environ: Any, request_time: Any) -> None:
        return None


def _raise_open_files_limit() -> None:
    """Every open stream is a socket: allow as many as the hard limit lets the processes have."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = hard if hard != resource.RLIM_INFINITY else 65536
        if soft < wanted:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ImportError, ValueError, OSError):
        pass


_raise_open_files_limit()

try:
    _settings = Settings.from_env()
except SettingError as error:
    # gunicorn would print a traceback of its config loader around it: the line is enough.
    print(f"skyline: {error}", file=sys.stderr)
    raise SystemExit(2) from None

_created_metrics_dir = None
if not _settings.prometheus_multiproc_dir:
    _created_metrics_dir = tempfile.mkdtemp(prefix="skyline-metrics-")
    export("PROMETHEUS_MULTIPROC_DIR", _created_metrics_dir)
else:
    os.makedirs(_settings.prometheus_multiproc_dir, exist_ok=True)

bind = f"{_settings.host}:{_settings.port}"
workers = _settings.web_concurrency
# gevent: each connection is a greenlet, so thousands of live event streams (which mostly
# sleep) share a process with ordinary requests and never take their place. The rules are
# pure Python and short; Redis, RQ's enqueue and the metrics files all work under gevent.
# SKYLINE_WORKER_CLASS=gthread is the fallback (then streams hold a thread each). Both are
# gunicorn's own, stopping as they should with open streams (service/run/gunicorn_workers.py).
worker_class = WORKER_CLASSES[_settings.worker_class]
worker_connections = _settings.worker_connections
threads = _settings.threads
# gunicorn 27's control socket defaults to $HOME/.gunicorn/gunicorn.ctl, which two instances
# under one user clobber and a read-only home cannot hold: the API needs none.
control_socket_disable = True
graceful_timeout = _settings.graceful_timeout
timeout = 60
keepalive = 5
# The app writes one JSON line per request (service.watch.logs); gunicorn's own access log is off.
accesslog = None
logger_class = AppWritesAccessLines
logconfig_dict = logging_config(_settings.log_level, _settings.log_format)
# Header limits stay at gunicorn's defaults; bodies are limited by SKYLINE_MAX_BODY_BYTES (413).
limit_request_line = 4094
limit_request_fields = 100
# What gunicorn refuses itself (414, 431, 400) answers as problem+json, not HTML, in every
# worker class: set here, in the master, before the workers are forked.
gunicorn_refusals.install()
# The API is served at the root: no proxy sets SCRIPT_NAME or PATH_INFO for it. gunicorn's
# default trusts both from 127.0.0.1, and answers 500 to a SCRIPT_NAME the path does not
# start with; with none trusted, such a header is dropped like any other with "_".
forwarder_headers = ""


def post_fork(server: Arbiter, worker: Worker) -> None:
    """A worker dies with its master: a master killed with SIGKILL leaves no worker serving."""
    from service.run.parentdeath import die_with_parent

    die_with_parent()


def child_exit(server: Arbiter, worker: Worker) -> None:
    """A worker process ended (any cause): drop its live gauges from the metrics."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)  # type: ignore[no-untyped-call]  # unannotated


def on_exit(server: Arbiter) -> None:
    if _created_metrics_dir is not None:
        shutil.rmtree(_created_metrics_dir, ignore_errors=True)
