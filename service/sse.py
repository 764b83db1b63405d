"""Live updates as text/event-stream: a snapshot, then one event per version, heartbeats.

The stream is resumable: a client that reconnects with ``Last-Event-ID: <version>``
receives every entry after that version and no snapshot. Streams close after a bounded
time (the client reconnects), so a worker thread is never held forever.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import orjson
from flask import Response, current_app, stream_with_context

from .games import Games
from .store import GameMissing, channel


def _message(kind: str, data: Any, event_id: int | None = None) -> bytes:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {kind}\ndata: ".encode() + orjson.dumps(data) + b"\n\n"


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
    settings = current_app.extensions["skyline.settings"]
    store = games.store

    def generate() -> Iterator[bytes]:
        pubsub = store.redis.pubsub(ignore_subscribe_messages=True)
        pubsub.subscribe(channel(game_id))
        try:
            sent = since
            if sent is None:
                sent = shown["version"]
                yield _message("snapshot", shown, sent)
            deadline = time.monotonic() + settings.sse_max_seconds
            while time.monotonic() < deadline:
                try:
                    stored = store.load(game_id)
                except GameMissing:
                    yield _message("gone", {"id": game_id})
                    return
                if stored.version > sent:
                    for entry in store.log(game_id, sent, stored.version - 1):
                        shown_entry = games.redact_entry(entry, seat, stored.status)
                        yield _message("move", shown_entry, entry["version"])
                    sent = stored.version
                if stored.status == "finished":
                    yield _message("finished", {"version": sent})
                    return
                if pubsub.get_message(timeout=settings.sse_heartbeat_seconds) is None:
                    yield b": heartbeat\n\n"
        finally:
            pubsub.close()

    return Response(
        stream_with_context(generate()),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
