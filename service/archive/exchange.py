"""The export's line format: one archived game a line of NDJSON (docs/archive.md, "Export and import").

A line is a JSON object::

    {"format": 1, "position": 17, "archived_at": "…Z", "status": "finished",
     "record": {... GET /games/{id}/record's shape; "result" null unless finished ...},
     "archive": {"version": 42, "created_at": "…Z", "started_at": "…Z" | null, "ended_at": "…Z",
                 "meta": "<JSON text>", "result": "<JSON text>" | null,
                 "seats": [{"seat": 0, "kind": "human", "player_id": null, "rank": 1}, ...],
                 "log": [{"version": 1, "at": "…Z", "entry": "<JSON text>"}, ...]}}

``record`` is for readers (any tool that knows the record route); ``archive`` is what the archive
needs to serve the game as before. Its JSON documents travel as strings holding their exact text,
so an import writes back the bytes that were exported (a re-encoded object could respell a number
or reorder keys). Snapshots are not in the file: an import recomputes them by replaying the log,
which also proves that each line reaches its result. Times are RFC 3339, UTC, to the microsecond.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

import orjson

from .records import END_STATUSES, ArchivedGame, ArchivedSeat, EndStatus, ExportedGame, LogEntry

FORMAT = 1


class BadLine(ValueError):
    """A line that cannot be imported; ``str()`` says which line and why."""

    def __init__(self, number: int, reason: str) -> None:
        super().__init__(f"line {number}: {reason}")
        self.number = number
        self.reason = reason


@dataclass(frozen=True)
class ImportedLine:
    """A line read back: the game without its snapshots (the import replays them), and its record."""

    position: int
    game: ArchivedGame
    record: dict[str, Any]


def rfc3339(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def parse_time(text: str) -> datetime.datetime:
    """An RFC 3339 time with its offset (``Z`` or ``±hh:mm``); ValueError for anything else."""
    if not isinstance(text, str):
        raise ValueError(f"a time is an RFC 3339 string, not {text!r}")
    moment = datetime.datetime.fromisoformat(text)
    if moment.utcoffset() is None:
        raise ValueError(f"{text!r} has no time zone (end it with Z or an offset)")
    return moment


def _text(raw: bytes | None) -> str | None:
    return None if raw is None else raw.decode("utf-8")


def game_line(item: ExportedGame, record: Mapping[str, Any]) -> bytes:
    """The line of ``item`` (with its newline); ``record`` is its GET /games/{id}/record shape."""
    game = item.game
    line = {
        "format": FORMAT,
        "position": item.position,
        "archived_at": rfc3339(item.archived_at),
        "status": game.status,
        "record": record,
        "archive": {
            "version": game.version,
            "created_at": rfc3339(game.created_at),
            "started_at": None if game.started_at is None else rfc3339(game.started_at),
            "ended_at": rfc3339(game.ended_at),
            "meta": _text(game.meta),
            "result": _text(game.result),
            "seats": [
                {"seat": s.seat, "kind": s.kind, "player_id": s.player_id, "rank": s.rank} for s in game.seats
            ],
            "log": [{"version": e.version, "at": rfc3339(e.at), "entry": _text(e.entry)} for e in game.log],
            **({"rematch": game.rematch} if game.rematch is not None else {}),
        },
    }
    return orjson.dumps(line) + b"\n"


def _field(where: dict[str, Any], name: str, kind: type | tuple[type, ...], what: str) -> Any:
    value = where.get(name)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise ValueError(f"{what}{name} is missing or not of its type")
    return value


def _json_text(value: Any, what: str) -> bytes:
    if not isinstance(value, str):
        raise ValueError(f"{what} is JSON text in a string")
    raw = value.encode("utf-8")
    try:
        orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        raise ValueError(f"{what} is not JSON: {error}") from None
    return raw


def _time(value: Any, what: str) -> datetime.datetime:
    try:
        return parse_time(value)
    except ValueError as error:
        raise ValueError(f"{what}: {error}") from None


def read_line(raw: bytes, number: int) -> ImportedLine:
    """The game of line ``number``; BadLine, with the reason, for a line that is not one."""
    try:
        return _read(raw)
    except (ValueError, TypeError, UnicodeDecodeError) as error:
        raise BadLine(number, str(error)) from None


def _read(raw: bytes) -> ImportedLine:
    try:
        line = orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        raise ValueError(f"not JSON: {error}") from None
    if not isinstance(line, dict):
        raise ValueError("a line is a JSON object")
    if line.get("format") != FORMAT:
        raise ValueError(f"format {line.get('format')!r} is not one this version reads ({FORMAT})")
    position = _field(line, "position", int, "")
    status = _field(line, "status", str, "")
    if status not in END_STATUSES:
        raise ValueError(f"status {status!r} is not one of {', '.join(sorted(END_STATUSES))}")
    record = _field(line, "record", dict, "")
    stored = _field(line, "archive", dict, "")
    meta = _json_text(stored.get("meta"), "archive.meta")
    result = None if stored.get("result") is None else _json_text(stored["result"], "archive.result")
    seats = []
    for seat in _field(stored, "seats", list, "archive."):
        if not isinstance(seat, dict):
            raise ValueError("archive.seats holds objects")
        player, rank = seat.get("player_id"), seat.get("rank")
        if not (player is None or isinstance(player, str)) or not (rank is None or type(rank) is int):
            raise ValueError("a seat's player_id is a string or null, its rank a whole number or null")
        seats.append(
            ArchivedSeat(
                _field(seat, "seat", int, "a seat's "), _field(seat, "kind", str, "a seat's "), player, rank
            )
        )
    log = []
    for entry in _field(stored, "log", list, "archive."):
        if not isinstance(entry, dict):
            raise ValueError("archive.log holds objects")
        version = _field(entry, "version", int, "a log entry's ")
        log.append(
            LogEntry(
                version,
                _json_text(entry.get("entry"), f"log entry {version}"),
                _time(entry.get("at"), f"log entry {version}'s time"),
            )
        )
    started = stored.get("started_at")
    rematch = stored.get("rematch")  # a later field of format 1: absent in older files
    if not (rematch is None or isinstance(rematch, str)):
        raise ValueError("archive.rematch is a game id or absent")
    game = ArchivedGame(
        id=_field(record, "id", str, "record."),
        status=cast(EndStatus, status),
        meta=meta,
        version=_field(stored, "version", int, "archive."),
        final_state=b"null",  # the import replays the log for it (and the snapshots)
        created_at=_time(stored.get("created_at"), "archive.created_at"),
        ended_at=_time(stored.get("ended_at"), "archive.ended_at"),
        log=tuple(log),
        seats=tuple(seats),
        result=result,
        started_at=None if started is None else _time(started, "archive.started_at"),
        rematch=rematch,
    )
    return ImportedLine(position, game, record)
