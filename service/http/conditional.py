"""Conditional GETs (RFC 9110 §13): a strong ETag of the reply's own bytes, If-None-Match → 304.

The tag is a hash of the bytes sent, not a version: a reply that changes without a new version
(a finished game's ``rematch``), or with the caller (a seat's view, a spectator's), gets a new tag,
so a revalidating client never keeps a copy that is not what it would be sent now. ``Vary``
names the request headers a reply depends on (``Authorization``: whose view; ``Accept``: the log
or its stream), so that a cache keeps one copy per caller; a reply to a seat token is
``private`` (no shared cache stores it), and every reply is ``no-cache`` (revalidated on every
use: a game can change at any moment). If-None-Match is read by werkzeug's parser: lists, ``*``
and weak tags, compared weakly as §13.1.2 says.

The Flask views answer through :func:`reply`, the fast lane through :func:`answer` (no request
context), so both send the same status, headers and bytes.
"""

from __future__ import annotations

import hashlib

from flask import Response, request
from werkzeug.http import parse_etags, unquote_etag

PRIVATE = "private, no-cache"
SHARED = "no-cache"
BY_CALLER = ("Authorization",)
# A reply that never changes (a past version of a game): kept a year, never revalidated.
IMMUTABLE_PUBLIC = "public, max-age=31536000, immutable"
IMMUTABLE_PRIVATE = "private, max-age=31536000, immutable"


def entity_tag(body: bytes) -> str:
    """A strong ETag of ``body``: equal tags, equal bytes."""
    return f'"{hashlib.blake2b(body, digest_size=16).hexdigest()}"'


def current(if_none_match: str | None, etag: str) -> bool:
    """Whether the client's copy, named by its If-None-Match, is the one tagged ``etag``."""
    if not if_none_match:
        return False
    return parse_etags(if_none_match).contains_weak(unquote_etag(etag)[0])


def answer(
    if_none_match: str | None,
    body: bytes,
    content_type: str,
    *,
    vary: tuple[str, ...] = (),
    private: bool = False,
    headers: dict[str, str] | None = None,
    etag: str | None = None,
    cache_control: str | None = None,
) -> Response:
    """The reply of a GET: 200 with ``body``, or 304 with the same validators when the client's
    copy is current (a 304 carries the ETag, Cache-Control and Vary a 200 would, §15.4.5).
    ``cache_control`` replaces the revalidating default (a reply that never changes says so)."""
    etag = etag or entity_tag(body)
    sent = {
        **(headers or {}),
        "ETag": etag,
        "Cache-Control": cache_control or (PRIVATE if private else SHARED),
        **({"Vary": ", ".join(vary)} if vary else {}),
    }
    if current(if_none_match, etag):
        return Response(status=304, headers=sent)
    return Response(body, status=200, content_type=content_type, headers=sent)


def reply(
    body: bytes,
    content_type: str = "application/json",
    *,
    vary: tuple[str, ...] = (),
    headers: dict[str, str] | None = None,
    etag: str | None = None,
    cache_control: str | None = None,
) -> Response:
    """:func:`answer` to the current Flask request; private when it carries a token and the
    reply depends on it."""
    private = "Authorization" in vary and "Authorization" in request.headers
    return answer(
        request.headers.get("If-None-Match"),
        body,
        content_type,
        vary=vary,
        private=private,
        headers=headers,
        etag=etag,
        cache_control=cache_control,
    )
