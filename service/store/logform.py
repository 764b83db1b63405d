"""A log entry as Redis keeps it: a move's in a compact form, a seat change's as JSON.

A move's entry keeps only what the rules cannot give again (issue 62): its seat, the move, its
time, the status and seats to act the webhooks' fan-out reads without the state, its deadlines
(games with a clock) and the service's own events that came before the rules' (a turn played
for a seat whose time ran out). It is a msgpack array::

    [seat, move, at, status, to_act, leading events or nil, deadlines or nil]

(trailing nils left out; ``status`` an index in ``STATUSES``). Its version is its place in the
list. The rules' events are not kept: they are the engine's, made again by replay of the game's
moves (``service.play.repository``), exactly as the move made them. They held every hidden card
and most of a game's bytes.

A seat change (a join, a resignation, an abort...) keeps its entry as JSON, as every entry was
written before: its events are the service's, not derivable. An entry written before the compact
form (JSON, whatever it records) is read as it is: a JSON entry starts with ``{``, a msgpack
array never does.

``decoded`` gives a move's compact entry as a ``LogEntry`` without ``events`` and with
``LEADING`` (the service's events to put before the rules'): a reader that needs the events has
the repository make them; one that reads ``events`` of an entry not made whole fails loudly
(KeyError), never reads wrong ones.
"""

from __future__ import annotations

from typing import Any, cast

import msgpack
import orjson

from .records import LogEntry

# The key of a decoded move entry whose events are still to be made by replay: the service's own
# events that come first (often none).
LEADING = "leading_events"
STATUSES = ("waiting", "active", "finished", "aborted", "expired")
_STATUS_INDEX = {status: index for index, status in enumerate(STATUSES)}


def is_whole(entry: LogEntry) -> bool:
    """Whether the entry has its events (a seat change, an entry written before, or made whole)."""
    return LEADING not in entry


def encoded(entry: LogEntry) -> bytes:
    """The bytes Redis keeps for ``entry``: the compact form for a move whose events are left to
    the replay (``LEADING``), else the entry's JSON as it is."""
    if LEADING not in entry or "move" not in entry:
        return orjson.dumps(entry)
    leading: list[Any] = cast(Any, entry)[LEADING]
    fields: list[Any] = [
        entry["seat"],
        entry["move"],
        entry["at"],
        _STATUS_INDEX[entry["status"]],
        entry["to_act"],
        leading or None,
        entry.get("deadlines"),
    ]
    while fields[-1] is None:
        fields.pop()
    return msgpack.packb(fields, use_bin_type=True)


def decoded(raw: bytes, version: int) -> LogEntry:
    """The entry Redis kept as ``raw`` at ``version`` (its place: entry i made version i + 1)."""
    if raw[:1] == b"{":
        return cast(LogEntry, orjson.loads(raw))
    fields = msgpack.unpackb(raw, raw=False, use_list=True, strict_map_key=False)
    seat, move, at, status, to_act = fields[:5]
    leading = fields[5] if len(fields) > 5 and fields[5] is not None else []
    entry: dict[str, Any] = {
        "version": version,
        "seat": seat,
        "move": move,
        "at": at,
        "to_act": to_act,
        "status": STATUSES[status],
    }
    if len(fields) > 6 and fields[6] is not None:
        entry["deadlines"] = fields[6]
    entry[LEADING] = leading
    return cast(LogEntry, entry)


def made_whole(entry: LogEntry, events: list[Any]) -> LogEntry:
    """A decoded move entry with its events (the leading ones, then the rules' ``events``), its
    keys in the order a whole entry was always written in (the log's JSON is read back as it
    is: ``/record``, the webhooks' notices)."""
    leading: list[Any] = cast(Any, entry)[LEADING]
    whole: dict[str, Any] = {
        "version": entry["version"],
        "seat": entry["seat"],
        "move": entry["move"],
        "events": [*leading, *events],
        "at": entry["at"],
        "to_act": entry["to_act"],
        "status": entry["status"],
    }
    if "deadlines" in entry:
        whole["deadlines"] = entry["deadlines"]
    return cast(LogEntry, whole)
