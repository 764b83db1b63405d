"""What the archive takes and gives back: an ended game, its log, its snapshots, its seats.

JSON documents travel as ``bytes``, exactly as Redis held them (orjson's output): the archive
stores the text as it is and gives back the same bytes, so nothing in between can reorder, round
or re-escape anything. Times are timezone-aware datetimes.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any, Literal, get_args

import msgpack
import orjson

EndStatus = Literal["finished", "aborted", "expired"]
END_STATUSES: frozenset[str] = frozenset(get_args(EndStatus))

# A version read starts from the snapshot at or before it (else the setup, which the engine makes
# again and the archive does not keep) and replays at most this many - 1 moves; a 3,000-move game
# keeps 46 snapshots, compressed together in one column (bench/RESULTS.md: what they cost).
SNAPSHOT_EVERY = 64


class InvalidArchive(ValueError):
    """A game that cannot be archived as given (the sentence says why); nothing was written."""


@dataclass(frozen=True)
class LogEntry:
    version: int  # the version this entry made (1 for the first move)
    # As kept: a move's entry compact (service.store.logform: a msgpack array without the rules'
    # events, made again by replay), any other JSON, whole and unredacted.
    entry: bytes
    at: datetime.datetime


@dataclass(frozen=True)
class Snapshot:
    version: int
    state: bytes  # JSON: the engine's state at that version


@dataclass(frozen=True)
class ArchivedSeat:
    seat: int
    kind: str  # human, bot or open (a seat nobody took)
    player_id: str | None = None  # once players have ids
    rank: int | None = None  # 1 = first; None without a result


@dataclass(frozen=True)
class ArchivedGame:
    """Everything kept of an ended game: what ``Archive.write_game`` takes and an export yields."""

    id: str
    status: EndStatus
    # JSON: title, rules_version, seats with their token digests (never a token), options, seed...
    meta: bytes
    version: int  # the last version; ``log`` holds versions 1..version
    final_state: bytes  # JSON: the state at ``version`` (kept as the last snapshot)
    created_at: datetime.datetime
    ended_at: datetime.datetime
    log: tuple[LogEntry, ...]
    seats: tuple[ArchivedSeat, ...]
    snapshots: tuple[Snapshot, ...] = ()  # before the last version, every SNAPSHOT_EVERY (snapshot_versions)
    result: bytes | None = None  # JSON; a finished game has one
    started_at: datetime.datetime | None = None  # None: it never started
    rematch: str | None = None  # the id of the finished game's rematch, if one was made

    def all_snapshots(self) -> tuple[Snapshot, ...]:
        """The snapshots with the final state's at the last version, in order of version."""
        kept = {snapshot.version: snapshot for snapshot in self.snapshots}
        kept[self.version] = Snapshot(self.version, self.final_state)
        return tuple(kept[version] for version in sorted(kept))


@dataclass(frozen=True)
class GameRecord:
    """An archived game without its log and snapshots: what ``Archive.read_game`` gives."""

    id: str
    position: int  # the order of archiving; an export resumes after one
    title: str
    rules_version: str
    status: EndStatus
    version: int
    meta: bytes
    result: bytes | None
    created_at: datetime.datetime
    started_at: datetime.datetime | None
    ended_at: datetime.datetime
    archived_at: datetime.datetime
    seats: tuple[ArchivedSeat, ...]
    rematch: str | None = None


@dataclass(frozen=True)
class ExportedGame:
    """One game of ``Archive.stream_games``: the whole game, and where an export would resume."""

    position: int
    archived_at: datetime.datetime
    game: ArchivedGame


def snapshot_versions(last_version: int, every: int = SNAPSHOT_EVERY) -> list[int]:
    """The versions whose state an archived game keeps: 0, every, 2 * every, ..., and the last."""
    return sorted({*range(0, last_version + 1, every), last_version})


def _json(what: str, raw: bytes) -> Any:
    if not isinstance(raw, bytes):
        raise InvalidArchive(f"{what} must be JSON as bytes, not {type(raw).__name__}.")
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        raise InvalidArchive(f"{what} is not JSON (UTF-8): {error}.") from None


def _entry(what: str, raw: bytes) -> None:
    """A log entry as kept: JSON, or a move's compact msgpack array (never starts with ``{``)."""
    if isinstance(raw, bytes) and raw[:1] != b"{" and raw[:1]:
        try:
            fields = msgpack.unpackb(raw, raw=False)
        except Exception:  # msgpack's own errors (OutOfData...) share no typed base
            fields = None
        if isinstance(fields, list) and len(fields) >= 5:
            return
    _json(what, raw)


def _aware(what: str, moment: datetime.datetime | None) -> None:
    if moment is not None and (not isinstance(moment, datetime.datetime) or moment.utcoffset() is None):
        raise InvalidArchive(f"{what} must be a datetime with a time zone, not {moment!r}.")


def check(game: ArchivedGame) -> None:
    """Raise InvalidArchive, with the reason, unless ``game`` can be archived as it is."""
    if not isinstance(game.id, str) or not game.id:
        raise InvalidArchive("A game's id is a non-empty string.")
    if game.status not in END_STATUSES:
        ends = ", ".join(sorted(END_STATUSES))
        raise InvalidArchive(f"An archived game has ended: its status is one of {ends}, not {game.status!r}.")
    meta = _json("The meta", game.meta)
    # The engines' rules_version is a number (Game.rules_version); the column keeps it as text.
    named = isinstance(meta, dict) and isinstance(meta.get("title"), str)
    version = meta.get("rules_version") if named else None
    if not isinstance(version, (str, int)) or isinstance(version, bool):
        raise InvalidArchive("The meta is an object with the game's title (a string) and rules_version.")
    seats = meta.get("seats")
    if not isinstance(seats, list) or not all(isinstance(seat, dict) for seat in seats):
        raise InvalidArchive("The meta's seats are a list of objects.")
    if any("token" in seat for seat in seats):
        raise InvalidArchive("A seat in the meta holds a token: only its digest (token_hash) is archived.")
    if sorted(seat.seat for seat in game.seats) != list(range(len(seats))):
        raise InvalidArchive(f"The seats are numbered 0..{len(seats) - 1}, as in the meta, each once.")
    if any(seat.rank is not None and seat.rank < 1 for seat in game.seats):
        raise InvalidArchive("A seat's rank is 1 (first) or more, or None.")
    if not isinstance(game.version, int) or game.version < 0:
        raise InvalidArchive("The version is a whole number, 0 or more.")
    if [entry.version for entry in game.log] != list(range(1, game.version + 1)):
        raise InvalidArchive(f"The log holds versions 1..{game.version}, in order, none missing.")
    for entry in game.log:
        _entry(f"Log entry {entry.version}", entry.entry)
        _aware(f"Log entry {entry.version}'s time", entry.at)
    _json("The final state", game.final_state)
    versions = [snapshot.version for snapshot in game.snapshots]
    if len(set(versions)) != len(versions) or any(not 0 <= v <= game.version for v in versions):
        raise InvalidArchive(f"Snapshots are of versions 0..{game.version}, each once.")
    for snapshot in game.snapshots:
        _json(f"The snapshot of version {snapshot.version}", snapshot.state)
        if snapshot.version == game.version and snapshot.state != game.final_state:
            raise InvalidArchive("The snapshot of the last version differs from the final state.")
    if game.result is not None:
        _json("The result", game.result)
    elif game.status == "finished":
        raise InvalidArchive("A finished game has a result.")
    for what, moment in (("created_at", game.created_at), ("ended_at", game.ended_at)):
        if moment is None:
            raise InvalidArchive(f"{what} is required.")
        _aware(what, moment)
    _aware("started_at", game.started_at)


@dataclass(frozen=True)
class PlayerGame:
    """A finished game as a player's history lists it (``Archive.player_games``)."""

    game_id: str
    version: int
    meta: bytes
    result: bytes | None
    ended_at: datetime.datetime
    seats: list[int]  # the player's seats
    ranks: list[int | None]  # each of those seats' rank
