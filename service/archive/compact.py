"""How the compact archive packs a game's log and snapshots into one row (docs/archive.md).

The log is a msgpack array ``[entries, times]``: ``entries`` each entry's bytes as kept (a
move's compact msgpack array, ``service.store.logform``, or a whole entry's JSON text), ``times``
each entry's time in microseconds since the epoch, or nil where the entry's own ``at`` (seconds,
a float) gives that very time: a move's time is then kept once, in its entry. Snapshots are a
msgpack array of ``[version, state JSON]``. Each is compressed with zstd at ``LEVEL``: a game is
written once and read many times, so the slower, smaller levels pay.
"""

from __future__ import annotations

import datetime

import msgpack
import orjson
import zstandard

from .records import LogEntry, Snapshot

LEVEL = 19
_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
_MICROSECOND = datetime.timedelta(microseconds=1)


def _micros(moment: datetime.datetime) -> int:
    return (moment - _EPOCH) // _MICROSECOND


def compressed(raw: bytes) -> bytes:
    return zstandard.ZstdCompressor(level=LEVEL).compress(raw)


def decompressed(raw: bytes) -> bytes:
    return zstandard.ZstdDecompressor().decompress(raw)


def _own_time(raw: bytes) -> float | None:
    """The ``at`` an entry holds (seconds since the epoch), if it holds one."""
    try:
        if raw[:1] == b"{":
            found = orjson.loads(raw).get("at")
        else:
            found = msgpack.unpackb(raw, raw=False)[2]
    except Exception:  # msgpack's own errors (OutOfData...) share no typed base
        return None
    return found if isinstance(found, (int, float)) and not isinstance(found, bool) else None


def _as_datetime(at: float) -> datetime.datetime | None:
    try:
        return datetime.datetime.fromtimestamp(at, tz=datetime.UTC)
    except (OverflowError, OSError, ValueError):
        return None


def packed_log(entries: tuple[LogEntry, ...] | list[LogEntry]) -> bytes:
    times: list[int | None] = []
    for entry in entries:
        own = _own_time(entry.entry)
        same = own is not None and _as_datetime(own) == entry.at
        times.append(None if same else _micros(entry.at))
    return compressed(msgpack.packb([[entry.entry for entry in entries], times], use_bin_type=True))


def unpacked_log(raw: bytes, since: int = 1, until: int | None = None) -> list[LogEntry]:
    """The entries of versions ``since``..``until`` (both included; None: to the last)."""
    entries, times = msgpack.unpackb(decompressed(raw), raw=False, use_list=True)
    last = len(entries) if until is None else min(until, len(entries))
    found = []
    for version in range(max(since, 1), last + 1):
        kept, micros = bytes(entries[version - 1]), times[version - 1]
        if micros is None:
            own = _own_time(kept)
            assert own is not None, version  # written nil only when the entry gave the time
            moment = _as_datetime(own)
            assert moment is not None, version
        else:
            moment = _EPOCH + datetime.timedelta(microseconds=micros)
        found.append(LogEntry(version, kept, moment))
    return found


def packed_snapshots(snapshots: tuple[Snapshot, ...] | list[Snapshot]) -> bytes | None:
    if not snapshots:
        return None
    return compressed(msgpack.packb([[s.version, s.state] for s in snapshots], use_bin_type=True))


def unpacked_snapshots(raw: bytes | None) -> list[Snapshot]:
    if raw is None:
        return []
    return [
        Snapshot(version, bytes(state)) for version, state in msgpack.unpackb(decompressed(raw), raw=False)
    ]
