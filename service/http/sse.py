"""Live updates as text/event-stream: a snapshot, then one event per version, heartbeats.

The stream is resumable: a client that reconnects with ``Last-Event-ID: <version>``
receives every entry after that version and no snapshot. Streams close after a bounded
time (the client reconnects). A game is read the same wherever it lives: once Redis has let an
ended game go, the entries still to send come from the archive (service/play/repository.py), and
the stream ends with the game's status (``finished``, ``aborted``, ``expired``) as on Redis;
``gone`` only when no store holds it.

A stream is cheap: under gunicorn's gevent worker it is a greenlet, not a thread, and it holds
no Redis connection — it sleeps on its game's feed (service/store/fanout.py), woken only when its
game moves, and reads the new entries through the feed, once per process and move.
Open streams are capped per address and per seat token (service/store/streamcaps.py).

The token is read again after every seat change the stream sends: once it no longer holds
its seat (the seat was left, or a rematch's seat was given a new token), the stream sends the
entries as a spectator sees them, then ``revoked``, and ends; reconnecting with that token is
refused (401). So a reader who left never receives the redaction of the seat's next holder.

A stream opened with a player key is also checked against its key for as long as it is open: a
rotation (``POST /players/me/keys``) or a deletion (``DELETE /players/me``) ends it with
``revoked`` at once, with no entry after it, as the key's next request would be refused. It does
not poll: the rotation is published on the same subscription as the moves
(service/store/fanout.py ``watch``), which wakes only the streams of that player, and each then
reads its key's pointer once. A stream costs nothing more while its key stays current; the
check is also made once when the stream starts (a rotation between the first read and the watch)
and after the subscription was lost (a rotation published meanwhile was not heard).

When the process begins to stop (SIGTERM, service/http/draining.py), every stream ends at once
with a ``retry:`` hint: the client reconnects (to another instance, behind a load balancer)
with ``Last-Event-ID`` and misses nothing. The hint is spread over two seconds so that the
streams of a stopped instance do not all come back in the same instant.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import orjson
from flask import Response, request

from engines.core import say

from ..play.auth import PlayerCredential
from ..play.errors import ArchiveUnreachable, GameNotFound
from ..play.games import Games
from ..store.fanout import dispatcher, wake_every_stream
from ..store.streamcaps import TooManyStreams
from ..watch import metrics
from . import draining
from .errors import problem_response
from .ratelimit import address_key
from .services import services

# The log and its stream share an address: what is sent depends on Accept, and on whose token.
VARY = ("Accept", "Authorization")


def _message(kind: str, data: Any, event_id: int | None = None) -> bytes:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {kind}\ndata: ".encode() + orjson.dumps(data) + b"\n\n"


draining.on_drain(wake_every_stream)


def _closing() -> bytes:
    """The last message of a stream cut short by a stop: when to come back, and how."""
    retry_ms = random.randint(500, 2500)
    return f": the server is stopping; reconnect with Last-Event-ID\nretry: {retry_ms}\n\n".encode()


def _last_event_id(header: str | None) -> int | None:
    if header is None:
        return None
    header = header.strip()
    # isascii: str.isdigit() also says yes to "²", which int() refuses.
    return int(header) if header.isascii() and header.isdigit() and len(header) < 12 else None


def stream(games: Games, game_id: str, token: str | None, last_event_id: str | None) -> Response:
    shown = games.show(game_id, token)  # raises 404 / 401 before the stream starts
    seat = shown["you"]
    since = _last_event_id(last_event_id)
    found = services()
    settings = found.settings
    try:
        ticket = found.stream_caps.admit(address_key(request.remote_addr), token)
    except TooManyStreams as refused:
        response = problem_response(
            429,
            "too_many_streams",
            say(
                "service.refusal.too_many_streams.most_event_streams_may",
                cap=str(refused.cap),
                scope=say(f"service.stream_scope.{refused.scope}"),
            ),
        )
        response.headers["Retry-After"] = str(refused.retry_after)
        return response
    client = games.store.redis
    fanout = dispatcher(client, metrics.open_streams)
    feed, waiter = fanout.join(game_id)
    credential = token if isinstance(token, PlayerCredential) else None
    watch = None if credential is None else fanout.watch(credential.player_id, waiter)

    def generate() -> Iterator[bytes]:
        if draining.active():
            yield _closing()
            return
        sent = since
        if sent is None:
            sent = shown["version"]
            yield _message("snapshot", shown, sent)
        deadline = time.monotonic() + settings.sse_max_seconds
        first = True
        while True:
            waiter.clear()
            if draining.active():  # after clear(): a wake from begin() is never lost
                yield _closing()
                return
            if credential is not None and watch is not None and (first or watch.stale):
                watch.stale = False  # before the read: a rotation told meanwhile wakes us again
                try:
                    current = found.players.still_current(credential)
                except Exception:  # Redis cannot say: a key not checked is not trusted
                    yield _closing()
                    return
                if not current:
                    yield _message("revoked", {"version": sent})
                    return
            if first or feed.moved_past(sent):
                first = False
                try:
                    entries, status, gone = feed.read(
                        client, sent, lambda after, kept: games.repository.whole(game_id, after, kept)
                    )
                except GameNotFound:  # Redis let the game go while its moves were replayed
                    entries, status, gone = [], feed.status, True
                if gone:
                    # Redis let the game go once the archive held it: the rest of its log is the
                    # archive's, and the stream ends as it would have on Redis. ``gone`` only
                    # when neither store has it (no archive, the game expired).
                    try:
                        stored = games.read(game_id, parse_state=False)
                        entries, status = games.log(stored, sent), stored.status
                    except GameNotFound:
                        yield _message("gone", {"id": game_id})
                        return
                    except ArchiveUnreachable:  # the client comes back with Last-Event-ID
                        yield _closing()
                        return
                # A seat change may have taken the seat from this stream's token (it left, or
                # a rematch's seat was issued a new token): the seat's next holder's redaction
                # is not this reader's. Such a stream ends, as the token's next request would.
                revoked = (
                    seat is not None
                    and token is not None
                    and any("move" not in entry for entry in entries)
                    and games.seat_of_token(game_id, token) != seat
                )
                for entry in entries:
                    shown_to = None if revoked else seat
                    yield _message("move", games.redact_entry(entry, shown_to, status), entry["version"])
                    sent = entry["version"]
                if revoked:
                    yield _message("revoked", {"version": sent})
                    return
                if status in ("finished", "aborted", "expired"):  # nothing more will come
                    yield _message(status, {"version": sent})
                    return
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            if not waiter.wait(min(settings.sse_heartbeat_seconds, remaining)):
                yield b": heartbeat\n\n"

    def close() -> None:
        if watch is not None:
            fanout.unwatch(watch)
        fanout.leave(feed, waiter)
        ticket.release()

    response = Response(
        generate(),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "Vary": ", ".join(VARY), "X-Accel-Buffering": "no"},
    )
    response.call_on_close(close)
    return response
