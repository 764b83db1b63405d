"""Events: what a move made happen, redacted per viewer like the state.

An event is a JSON object with a ``type`` and public fields. Facts only some seats may
see (the card a player drew) go under ``secret``: ``{"to": [seats], "fields": {...}}``.
The full event is stored; :func:`redact` builds what one viewer receives.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypedDict, cast

from .values import JSONObject, JSONValue

# An event: a JSON object with a string ``type`` and, when some of it is hidden, a ``Secret``
# under ``secret``. Open, because each game has its own fields (its events.schema.json).
Event = JSONObject


class Secret(TypedDict):
    """The hidden part of an event: the seats that may see it, and its fields."""

    to: list[int]
    fields: Mapping[str, JSONValue]


def event(kind: str, **fields: JSONValue) -> Event:
    """Return a public event."""
    return {"type": kind, **fields}


def secret_event(kind: str, to: Iterable[int], secret: Mapping[str, JSONValue], **public: JSONValue) -> Event:
    """Return an event whose ``secret`` fields only the seats in ``to`` may see."""
    hidden: Secret = {"to": sorted(set(to)), "fields": secret}
    return {"type": kind, **public, "secret": hidden}


def redact(e: Event, viewer: int | None, reveal_all: bool = False) -> Event:
    """Return the event as ``viewer`` (a seat, or None for a spectator) may see it."""
    # Only secret_event writes ``secret``, always a Secret.
    hidden = cast(Secret | None, e.get("secret"))
    if hidden is None:
        return e
    public = {k: v for k, v in e.items() if k != "secret"}
    if reveal_all or (viewer is not None and viewer in hidden["to"]):
        public.update(hidden["fields"])
    return public


def redact_all(events: Iterable[Event], viewer: int | None, reveal_all: bool = False) -> list[Event]:
    return [redact(e, viewer, reveal_all) for e in events]
