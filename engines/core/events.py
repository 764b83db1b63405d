"""Events: what a move made happen, redacted per viewer like the state.

An event is a JSON object with a ``type`` and public fields. Facts only some seats may
see (the card a player drew) go under ``secret``: ``{"to": [seats], "fields": {...}}``.
The full event is stored; :func:`redact` builds what one viewer receives.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

Event = dict[str, Any]


def event(kind: str, **fields: Any) -> Event:
    """Return a public event."""
    return {"type": kind, **fields}


def secret_event(kind: str, to: Iterable[int], secret: dict[str, Any], **public: Any) -> Event:
    """Return an event whose ``secret`` fields only the seats in ``to`` may see."""
    return {"type": kind, **public, "secret": {"to": sorted(set(to)), "fields": secret}}


def redact(e: Event, viewer: int | None, reveal_all: bool = False) -> Event:
    """Return the event as ``viewer`` (a seat, or None for a spectator) may see it."""
    hidden = e.get("secret")
    if hidden is None:
        return e
    public = {k: v for k, v in e.items() if k != "secret"}
    if reveal_all or (viewer is not None and viewer in hidden["to"]):
        public.update(hidden["fields"])
    return public


def redact_all(events: Iterable[Event], viewer: int | None, reveal_all: bool = False) -> list[Event]:
    return [redact(e, viewer, reveal_all) for e in events]
