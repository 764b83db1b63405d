"""Every error leaves as application/problem+json (RFC 9457) with a stable ``code``."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import redis
from flask import Flask, Response
from werkzeug.exceptions import HTTPException

from engines.core import Message, RulesError, say

from ..play.errors import PlayError
from . import language
from .problems import Problem, from_play_error, from_rules_error, problem_body

log = logging.getLogger(__name__)

# Codes for errors raised by Flask, werkzeug and webargs rather than by our code; the sentence of
# each is the message service.refusal.<code>.
_HTTP_CODES = {
    400: "malformed_request",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "body_too_large",
    414: "request_line_too_long",
    415: "unsupported_media_type",
    422: "invalid_request",
    431: "headers_too_large",
}


def problem_response(status: int, code: str, detail: str | Message, **extra: Any) -> Response:
    """The problem in the request's language, which it says (its Content-Language, and Vary: the
    same address refuses in another language for another reader): its title is a message, and its
    detail too but for a schema's field errors (a string, English)."""
    spoken = language.current()
    payload = problem_body(status, code, detail, spoken, **extra)
    response = Response(payload, status=status, mimetype="application/problem+json")
    response.headers.update(language.headers(spoken))
    response.vary.add(language.BY_LANGUAGE[0])
    return response


def _from_problem(problem: Problem) -> Response:
    return problem_response(problem.status, problem.code, problem.message, **problem.extra)


def _from_rules(error: RulesError) -> Response:
    return _from_problem(from_rules_error(error))


def _from_play(error: PlayError) -> Response:
    response = _from_problem(from_play_error(error))
    if error.retry_after is not None:
        response.headers["Retry-After"] = str(error.retry_after)
    return response


def _from_http(error: HTTPException) -> Response:
    status = error.code or 500
    code = _HTTP_CODES.get(status, "http_error")
    detail: str | Message = say(f"service.refusal.{code}")
    errors = None
    data = getattr(error, "data", None)
    if isinstance(data, dict) and "messages" in data:
        errors = data["messages"]
        # webargs reports unreadable JSON as a 400 with a message under "json".
        if status == 400:
            code, detail = "malformed_json", say("service.refusal.malformed_json")
    if status == 422 and errors:
        detail = say("service.refusal.invalid_fields")
    response = problem_response(status, code, detail, errors=errors)
    valid_methods = getattr(error, "valid_methods", None)
    if status == 405 and valid_methods:
        response.headers["Allow"] = ", ".join(valid_methods)
    return response


# Redis down, restarting (loading its AOF), failing over (a read-only replica), or full
# (maxmemory with noeviction): nothing was written, and the client may retry.
_REDIS_UNAVAILABLE = (
    redis.ConnectionError,
    redis.TimeoutError,
    redis.exceptions.ReadOnlyError,
    redis.exceptions.OutOfMemoryError,
)


def _from_redis(error: redis.RedisError) -> Response:
    if not isinstance(error, _REDIS_UNAVAILABLE):
        return _from_anything(error)
    log.warning("redis unavailable: %s", error)
    response = problem_response(503, "redis_unavailable", say("service.refusal.redis_unavailable"))
    response.headers["Retry-After"] = "1"
    return response


def _from_anything(error: Exception) -> Response:
    log.exception("unhandled error", exc_info=error)
    return problem_response(500, "internal_error", say("service.refusal.internal_error"))


_HANDLERS = "skyline.error_handlers"


def add_handler(app: Flask, kind: type[Exception], handler: Callable[[Any], Response]) -> None:
    """Answer errors of ``kind`` with ``handler``, in Flask and in the fast lane alike."""
    app.register_error_handler(kind, handler)
    app.extensions.setdefault(_HANDLERS, {})[kind] = handler


def response_for(app: Flask, error: BaseException) -> Response:
    """The app's answer to ``error``: the handler of its nearest class, as Flask would choose."""
    handlers: dict[type[BaseException], Callable[[Any], Response]] = app.extensions[_HANDLERS]
    for kind in type(error).__mro__:
        handler = handlers.get(kind)
        if handler is not None:
            return handler(error)
    raise error


def register(app: Flask) -> None:
    add_handler(app, Problem, _from_problem)
    add_handler(app, RulesError, _from_rules)
    add_handler(app, PlayError, _from_play)
    add_handler(app, HTTPException, _from_http)
    add_handler(app, redis.RedisError, _from_redis)
    add_handler(app, Exception, _from_anything)
