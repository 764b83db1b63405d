"""What gunicorn refuses before the app answers as problem+json, like the app's own errors.

gunicorn reads the request line and headers itself and refuses some requests before the app
sees them: a request line longer than ``limit_request_line`` (414), more headers than
``limit_request_fields`` or one longer than ``limit_request_field_size`` (431), a request it
cannot parse (400), a transfer coding it does not support (501). Every worker class (sync,
gthread, gevent, eventlet) answers those through ``Worker.handle_error``, which writes an
HTML page with ``gunicorn.util.write_error``. :func:`install` replaces that one function, so
the answer is problem+json whatever the worker class; gunicorn's own choice of status, its
logging and its closing of the connection are kept.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from gunicorn import util

from engines.core import say

from ..http.problems import problem_body

# status -> code; the detail of each is the message service.refusal.<code>, in English (gunicorn
# refuses before any request is read: no language to answer in). gunicorn's own message is not
# repeated: it echoes client bytes.
REFUSALS = {
    400: "malformed_http_request",
    403: "forbidden",
    414: "request_line_too_long",
    417: "expectation_failed",
    431: "headers_too_large",
    500: "internal_error",
    501: "unsupported_transfer_coding",
}


def response_bytes(status: int, reason: str | None = None) -> bytes:
    """The whole HTTP/1.1 response (head and body) for a refusal with that status."""
    code = REFUSALS.get(status, "http_error")
    body = problem_body(status, code, say(f"service.refusal.{code}"))
    if not reason:
        try:
            reason = HTTPStatus(status).phrase
        except ValueError:
            reason = "Error"
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "Connection: close\r\n"
        "Content-Type: application/problem+json\r\n"
        f"Content-Length: {len(body)}\r\n"
        "\r\n"
    )
    return head.encode("latin-1") + body


def write_problem(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    """Drop-in for ``gunicorn.util.write_error`` (same arguments; ``mesg`` is not sent)."""
    util.write_nonblock(sock, response_bytes(int(status_int), reason))


def install() -> None:
    """Answer gunicorn's refusals as problem+json in this process and the workers it forks."""
    util.write_error = write_problem
