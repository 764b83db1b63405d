"""Logs: one JSON object per line for collectors, readable lines for a person, and a request id
that follows a request around.

``SKYLINE_LOG_FORMAT`` (service.config) chooses: ``json``, ``text``, or ``auto`` (the default):
text when the stream the logs go to (stdout) is a terminal — `make run` in a shell — and JSON
otherwise (a container, a file, a pipe). The stream is what is asked, not stderr: logs are
written to stdout, and ``skyline serve > file`` in a terminal still wants lines a machine reads.
A text line reads ``12:00:00.123 INFO skyline.access [request id] message key=value ...``.

Every request gets an id: the client's ``X-Request-ID`` when it is sane (1–128 characters of
``[A-Za-z0-9._:@/+=-]``), otherwise a fresh one; it is echoed in the response, written in the
request's log line, and carried into the bot job the request enqueues (job meta), so the
worker's log line for that job names the request that caused it.

One line per request (logger ``skyline.access``): method, route template, path, status,
duration, request id, game id when the route has one, client address. Flask's requests are
reported by ``service.http.hooks``, the fast lane's by the fast lane.
"""

from __future__ import annotations

import contextvars
import datetime as _dt
import functools
import logging
import os
import re
import sys
import traceback
from typing import Any, TextIO

import orjson

REQUEST_ID_HEADER = "X-Request-ID"
_VALID_ID = re.compile(r"^[A-Za-z0-9._:@/+=-]{1,128}$")
_request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("skyline_request_id", default=None)

access_log = logging.getLogger("skyline.access")

# LogRecord attributes that are not "extra" fields.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "taskName"}


def current_request_id() -> str | None:
    """The id of the request (or bot job) being handled in this context, if any."""
    return _request_id.get()


def bind_request_id(value: str | None) -> contextvars.Token[str | None]:
    return _request_id.set(value)


def reset_request_id(token: contextvars.Token[str | None]) -> None:
    _request_id.reset(token)


def accept_request_id(header: str | None) -> str:
    """The client's id when it is sane, else a new one."""
    if header is not None and _VALID_ID.match(header):
        return header
    return os.urandom(16).hex()  # as random as uuid4().hex, without building a UUID


class JsonFormatter(logging.Formatter):
    """A log record as one JSON line: time, level, logger, message, then every extra field."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": _dt.datetime.fromtimestamp(record.created, _dt.UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = current_request_id()
        if request_id is not None:
            entry["request_id"] = request_id
        entry.update(_fields(record))
        if record.exc_info:
            entry["exception"] = "".join(traceback.format_exception(*record.exc_info)).rstrip()
        return orjson.dumps(entry, default=str, option=orjson.OPT_NON_STR_KEYS).decode()


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    """The record's extra fields (``extra=`` of the logging call)."""
    return {k: v for k, v in record.__dict__.items() if k not in _STANDARD and not k.startswith("_")}


class TextFormatter(logging.Formatter):
    """A log record as a line for a person: time, level, logger, ``[request id]``, message, then
    the extra fields as ``key=value``; an exception follows on its own lines."""

    def format(self, record: logging.LogRecord) -> str:
        fields = _fields(record)
        request_id = fields.pop("request_id", None) or current_request_id()
        when = _dt.datetime.fromtimestamp(record.created).strftime("%H:%M:%S.%f")[:-3]
        parts = [when, f"{record.levelname:<7}", record.name]
        if request_id is not None:
            parts.append(f"[{request_id}]")
        parts.append(record.getMessage())
        parts += [f"{key}={value}" for key, value in fields.items()]
        line = " ".join(parts)
        if record.exc_info:
            line += "\n" + "".join(traceback.format_exception(*record.exc_info)).rstrip()
        return line


FORMATTERS = {"json": JsonFormatter, "text": TextFormatter}


def chosen_format(log_format: str, stream: TextIO | None = None) -> str:
    """``json`` or ``text``: ``auto`` is text when ``stream`` (stdout) is a terminal."""
    if log_format != "auto":
        return log_format
    stream = sys.stdout if stream is None else stream
    try:
        return "text" if stream.isatty() else "json"
    except (AttributeError, ValueError):  # no stream, or a closed one
        return "json"


def logging_config(level: str = "INFO", log_format: str = "auto") -> dict[str, Any]:
    """A ``logging.config.dictConfig`` putting every logger (gunicorn's too) on stdout, as JSON lines
    or text lines (``chosen_format``)."""
    formatter = FORMATTERS[chosen_format(log_format)]
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"lines": {"()": f"{formatter.__module__}.{formatter.__qualname__}"}},
        "handlers": {
            "stdout": {"class": "logging.StreamHandler", "formatter": "lines", "stream": "ext://sys.stdout"}
        },
        "root": {"level": level, "handlers": ["stdout"]},
        "loggers": {
            "gunicorn.error": {"level": level, "handlers": ["stdout"], "propagate": False},
            "gunicorn.access": {"level": "WARNING", "handlers": ["stdout"], "propagate": False},
            "rq": {"level": level, "handlers": ["stdout"], "propagate": False},
        },
    }


def configure(level: str = "INFO", log_format: str = "auto") -> None:
    """Send every log record to stdout (the worker; gunicorn does it via its config)."""
    import logging.config

    logging.config.dictConfig(logging_config(level, log_format))
    lighten_log_records()


@functools.lru_cache(maxsize=256)  # the app's rules are few and fixed
def route_template(rule: str | None) -> str:
    """``/games/<game_id>`` → ``/games/{game_id}``; unmatched addresses share one label."""
    if rule is None:
        return "<unmatched>"
    return re.sub(r"<(?:[a-z]+:)?([A-Za-z_]\w*)>", r"{\1}", rule)


def lighten_log_records() -> None:
    """Skip what no Skyline log line shows: the caller's file and line, thread and process names.

    The logging HOWTO's own advice for speed ("Optimization"); finding the caller walks the
    stack on every record, and each request writes one.
    """
    logging._srcfile = None
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False


def access_line(
    method: str,
    route: str,
    path: str,
    status: int,
    seconds: float,
    client: str | None,
    request_id: str | None,
    game_id: str | None,
) -> None:
    """Write a request's access line (when the access log is on)."""
    if not access_log.isEnabledFor(logging.INFO):
        return
    fields: dict[str, Any] = {
        "method": method,
        "route": route,
        "path": path,
        "status": status,
        "duration_ms": round(seconds * 1000, 2),
        "client": client,
        "request_id": request_id,
    }
    if game_id is not None:
        fields["game_id"] = game_id
    access_log.info("request", extra=fields)


def end_request_id(token: contextvars.Token[str | None]) -> None:
    try:
        reset_request_id(token)
    except ValueError:  # pragma: no cover - a context switch between threads
        _request_id.set(None)
