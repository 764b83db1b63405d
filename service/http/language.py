"""The reader's language: which one a request asks for, and the headers saying which was used.

A request names its language by ``?lang=`` (where no header can be sent: an EventSource, an
``<img>`` of a picture, a link) or by ``Accept-Language``; the shipped languages are the engines'
catalogues (``engines/locales/<language>.po``). Each range of the header is matched by its primary
subtag in the order of its q-values (``fr-CA;q=0.9, en;q=0.8`` → French: a Canadian reader reads
French rather than English), ``*`` or nothing known → English. Werkzeug's ``best_match`` is not
used for the choice because it prefers an exact lower-q match to a higher-q regional one.

The fast lane answers without a request context: it binds the language of its request to a
context variable (``bind``), which ``current`` reads when Flask's request is not there.
"""

from __future__ import annotations

import contextvars
import functools

from flask import has_request_context, request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from engines.core.messages import ENGLISH, languages

SUPPORTED = languages()
# Where a reply's text depends on the language, a cache keeps one copy per Accept-Language.
BY_LANGUAGE = ("Accept-Language",)

_bound: contextvars.ContextVar[str | None] = contextvars.ContextVar("skyline_language", default=None)


# A client sends the same header on every request: parsed once (bench/route_cpu.py: parsing it
# each time made a French /moves 1.11x an English one, kept once 1.0x).
@functools.lru_cache(maxsize=512)
def negotiate(accept_language: str | None, asked: str | None = None) -> str:
    """The shipped language for a ``?lang=`` value and an Accept-Language header."""
    if asked:
        primary = asked.split("-")[0].strip().lower()
        if primary in SUPPORTED:
            return primary
    if not accept_language:
        return ENGLISH
    for tag, quality in parse_accept_header(accept_language, LanguageAccept):
        if quality <= 0:
            continue
        primary = tag.split("-")[0].split("_")[0].lower()
        if primary == "*":
            return ENGLISH
        if primary in SUPPORTED:
            return primary
    return ENGLISH


def of_environ(environ: dict[str, object]) -> str:
    """The language of a WSGI request (the fast lane's)."""
    query = str(environ.get("QUERY_STRING") or "")
    asked = None
    for pair in query.split("&"):
        name, _, value = pair.partition("=")
        if name == "lang":
            asked = value
    header = environ.get("HTTP_ACCEPT_LANGUAGE")
    return negotiate(header if isinstance(header, str) else None, asked)


def current() -> str:
    """The language of the request being answered (English outside any request)."""
    if has_request_context():
        return negotiate(request.headers.get("Accept-Language"), request.args.get("lang"))
    return _bound.get() or ENGLISH


def bind(language: str) -> contextvars.Token[str | None]:
    return _bound.set(language)


def unbind(token: contextvars.Token[str | None]) -> None:
    _bound.reset(token)


def headers(language: str) -> dict[str, str]:
    """The header a reply in ``language`` carries (its Vary is the caller's to add)."""
    return {"Content-Language": language}
