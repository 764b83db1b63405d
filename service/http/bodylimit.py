"""One body limit (``SKYLINE_MAX_BODY_BYTES``) for every route, however the body is sent.

Flask's ``MAX_CONTENT_LENGTH`` refuses a declared Content-Length over the limit only when a view
reads the body: a route that reads none (``POST /players``, ``POST /games/{id}/abort``) answered
201 to 5 MB. A chunked body (no Content-Length) is only cut at the limit by werkzeug, which then
fails as malformed JSON (400) — the wrong answer. So this middleware decides for every request,
before any route: a declared length over the limit is refused unread, a chunked body is read up
to the limit and refused beyond it; either way with 413 problem+json (through the normal error
path, so it is logged and counted, and the fast lane hands such a request to Flask). Under the
limit, a chunked body is handed on with its length, like any other.

A 413 also closes the connection and says so (``Connection: close``): the rest of the body is
still on the wire, unread, and the server would otherwise read it as the next request — or,
as gunicorn does, answer ``keep-alive`` and then drop the connection, failing the pooled
client's next request. gunicorn ignores a ``Connection`` header from the app (it is
hop-by-hop), so the close is asked of its response object, whose method ``start_response``
is; other servers get the header. This middleware is installed last, the outermost, so the
``start_response`` it gets is the server's own.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask, request
from werkzeug.exceptions import RequestEntityTooLarge

TOO_LARGE = "skyline.body_too_large"


class BoundedChunkedBody:
    def __init__(self, app: Callable[..., Iterable[bytes]], max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        # werkzeug ignores any Content-Length of a chunked request, and so does this.
        if chunked and environ.get("wsgi.input_terminated"):
            data = environ["wsgi.input"].read(self.max_bytes + 1)
            if len(data) > self.max_bytes:
                environ[TOO_LARGE] = True
                data = b""
            environ["wsgi.input"] = io.BytesIO(data)
            environ["CONTENT_LENGTH"] = str(len(data))
            environ["HTTP_TRANSFER_ENCODING"] = ""  # now an ordinary body of known length
        elif _declared(environ) > self.max_bytes:
            # Left unread: the 413 closes the connection, so its rest is never taken for a request.
            environ[TOO_LARGE] = True
            environ["wsgi.input"] = io.BytesIO(b"")
            environ["CONTENT_LENGTH"] = "0"
        return self.app(environ, _closing_on_413(start_response))


def _declared(environ: dict[str, Any]) -> int:
    length = environ.get("CONTENT_LENGTH", "")
    return int(length) if length.isdigit() else 0  # anything else is the server's to refuse


def _closing_on_413(start_response: Callable[..., Any]) -> Callable[..., Any]:
    def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        if status.startswith("413"):
            headers = [(k, v) for k, v in headers if k.lower() != "connection"]
            headers.append(("Connection", "close"))
            force_close = getattr(getattr(start_response, "__self__", None), "force_close", None)
            if callable(force_close):  # gunicorn's Response
                force_close()
        return start_response(status, headers, exc_info)

    return start


def install(app: Flask, max_bytes: int) -> None:
    app.wsgi_app = BoundedChunkedBody(app.wsgi_app, max_bytes)  # type: ignore[method-assign]

    @app.before_request
    def _refuse_oversized() -> None:
        if request.environ.get(TOO_LARGE):
            raise RequestEntityTooLarge()
