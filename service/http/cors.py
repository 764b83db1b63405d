"""CORS on every answer: a WSGI layer outside all the others, so the fast lane, Flask's views,
the event stream and the body limit's 413 carry the same headers.

Which headers a request gets is flask-cors's decision (``flask_cors.core.get_cors_headers``,
the code behind ``flask_cors.CORS``); this layer only applies it to the whole WSGI stack
rather than to Flask's responses, which the fast lane never builds.

- ``SKYLINE_CORS_ORIGINS``: ``*`` (the default) answers ``Access-Control-Allow-Origin: *``.
  Seat tokens travel in the ``Authorization`` header, never in cookies, and credentials are
  never allowed, so ``*`` lets a page read only what it could already read with its own
  token. A comma-separated list of origins echoes the caller's origin when it is listed (with
  ``Vary: Origin``, on every answer, so caches keep the answers apart); an origin not listed
  gets no ``Access-Control-*`` header, and the browser refuses the answer. ``off``: no CORS.
- A preflight (``OPTIONS`` with ``Origin`` and ``Access-Control-Request-Method``) is answered
  here, ``204``, without reaching the app (no rate limit, no access line).
- A request without ``Origin`` (curl, a server, a same-origin GET) passes untouched.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from flask_cors.core import DEFAULT_OPTIONS, get_cors_headers, serialize_options
from werkzeug.datastructures import Headers

METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE"]
ALLOW_HEADERS = ["Authorization", "Content-Type", "Idempotency-Key", "Last-Event-ID", "X-Request-ID"]
# What a client reads beyond the CORS-safelisted headers (Content-Type, Content-Length, ...).
EXPOSE_HEADERS = ["Retry-After", "Location", "ETag", "X-Request-ID"]
MAX_AGE = 7200  # seconds; Chromium caps a preflight's cache at two hours

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class Cors:
    """WSGI middleware: preflights answered, every other answer given its CORS headers."""

    def __init__(self, app: WsgiApp, origins: tuple[str, ...]) -> None:
        self.app = app
        self.wildcard = origins == ("*",)
        self.options = serialize_options(
            {
                **DEFAULT_OPTIONS,
                "origins": "*" if self.wildcard else list(origins),
                "methods": METHODS,
                "allow_headers": ALLOW_HEADERS,
                "expose_headers": EXPOSE_HEADERS,
                "max_age": str(MAX_AGE),
                "send_wildcard": self.wildcard,
                "supports_credentials": False,
                "vary_header": True,
            }
        )
        self._simple = functools.lru_cache(maxsize=256)(self._simple_headers)

    def _headers(self, origin: str, method: str, environ: dict[str, Any]) -> list[tuple[str, str]]:
        request_headers = Headers({"Origin": origin})
        if method == "OPTIONS":
            for name in ("Access-Control-Request-Method", "Access-Control-Request-Headers"):
                value = environ.get("HTTP_" + name.upper().replace("-", "_"))
                if value is not None:
                    request_headers[name] = value
        found = [
            (name, str(value))
            for name, value in get_cors_headers(self.options, request_headers, method).items()
        ]
        if not self.wildcard and not any(name == "Vary" for name, _ in found):
            found.append(("Vary", "Origin"))  # the answer depends on Origin, listed or not
        return found

    def _simple_headers(self, origin: str) -> list[tuple[str, str]]:
        return self._headers(origin, "GET", {})

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        origin = environ.get("HTTP_ORIGIN")
        if origin is None:
            return self.app(environ, start_response)
        if environ["REQUEST_METHOD"] == "OPTIONS" and "HTTP_ACCESS_CONTROL_REQUEST_METHOD" in environ:
            headers = self._headers(origin, "OPTIONS", environ)
            start_response("204 No Content", [*headers, ("Content-Length", "0")])
            return [b""]
        extra = self._simple(origin[:256])

        def start_with_cors(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            return start_response(status, [*headers, *extra], exc_info)

        return self.app(environ, start_with_cors)


def install(app: Flask, origins: tuple[str, ...] | None) -> None:
    """Wrap the app's whole WSGI stack (call last, after every other layer)."""
    if origins is None:
        return
    app.wsgi_app = Cors(app.wsgi_app, origins)  # type: ignore[method-assign]
