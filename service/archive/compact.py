"""How the compact archive packs a game's log and snapshots into one row (docs/archive.md).

The log is a msgpack array ``[entries, ats, times]`` (the archive before issue 62's second part
wrote ``[entries, times]``, still read):

- ``entries``: each entry's bytes as kept, but for a move's compact entry (``service.store.logform``,
  a msgpack array), kept with its time (field 2) nil; any other entry (a seat change's JSON, or a
  move that would not come back byte for byte) as it is. Bytes, not nested arrays: a read of a
  few versions unpacks only theirs.
- ``ats``: for an entry kept without its time, that time: the difference between the 64-bit
  pattern of its float (seconds since the epoch) and the previous such entry's (0 before the
  first); nil for an entry kept whole. Exact to the bit (a float's pattern is an integer, the
  difference gives it back), and small: moves a second apart differ by about 2**22.
- ``times``: each entry's time in microseconds since the epoch, or nil where the entry's own
  ``at`` (seconds, a float) gives that very time: a move's time is then kept once.

Snapshots are a msgpack array of ``[version, state JSON]``, the final state its JSON. Each value is
compressed with zstd at ``LEVEL`` with its title's dictionary (``dictionaries``): a game is written
once and read many times, so the slower, smaller levels pay. The frame names its dictionary; a
value is read with the one it names (none for a value written before them).
"""

from __future__ import annotations

import datetime
import struct
from typing import Any

import msgpack
import orjson
import zstandard

from . import dictionaries
from .records import LogEntry, Snapshot

LEVEL = 19
_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
_MICROSECOND = datetime.timedelta(microseconds=1)
_DOUBLE = struct.Struct("<d")
_INT64 = struct.Struct("<q")
_AT = 2  # a compact move entry's field that holds its time


def _micros(moment: datetime.datetime) -> int:
    return (moment - _EPOCH) // _MICROSECOND


def compressed(raw: bytes, title: str | None = None, kind: dictionaries.Kind = "states") -> bytes:
    """``raw`` compressed, with ``title``'s dictionary of ``kind`` when the code ships one."""
    dictionary = None if title is None else dictionaries.for_writing(title, kind)
    return zstandard.ZstdCompressor(level=LEVEL, dict_data=dictionary).compress(raw)


def decompressed(raw: bytes) -> bytes:
    """A value of ``compressed``, with the dictionary its frame names (if any)."""
    dict_id = zstandard.get_frame_parameters(raw).dict_id
    dictionary = dictionaries.by_id(dict_id) if dict_id else None
    return zstandard.ZstdDecompressor(dict_data=dictionary).decompress(raw)


def _own_time(raw: bytes) -> float | None:
    """The ``at`` an entry holds (seconds since the epoch), if it holds one."""
    try:
        if raw[:1] == b"{":
            found = orjson.loads(raw).get("at")
        else:
            found = msgpack.unpackb(raw, raw=False)[_AT]
    except Exception:  # msgpack's own errors (OutOfData...) share no typed base
        return None
    return found if isinstance(found, (int, float)) and not isinstance(found, bool) else None


def _as_datetime(at: float) -> datetime.datetime | None:
    try:
        return datetime.datetime.fromtimestamp(at, tz=datetime.UTC)
    except (OverflowError, OSError, ValueError):
        return None


def _bits(at: float) -> int:
    return int(_INT64.unpack(_DOUBLE.pack(at))[0])


def _float(bits: int) -> float:
    return float(_DOUBLE.unpack(_INT64.pack(bits))[0])


def _fields(raw: bytes) -> list[Any] | None:
    """A compact move entry's fields, when the entry is one whose time is a float."""
    if raw[:1] == b"{":
        return None
    try:
        fields = msgpack.unpackb(raw, raw=False, use_list=True, strict_map_key=False)
    except Exception:  # msgpack's own errors (OutOfData...) share no typed base
        return None
    if not isinstance(fields, list) or len(fields) <= _AT or type(fields[_AT]) is not float:
        return None
    return fields


def _entry_bytes(kept: bytes, bits: int) -> bytes:
    """A move entry kept without its time, given back as its bytes with that time."""
    fields = msgpack.unpackb(kept, raw=False, use_list=True, strict_map_key=False)
    fields[_AT] = _float(bits)
    return bytes(msgpack.packb(fields, use_bin_type=True))


def packed_log(entries: tuple[LogEntry, ...] | list[LogEntry], title: str | None = None) -> bytes:
    return compressed(log_payload(entries), title, "log")


def log_payload(entries: tuple[LogEntry, ...] | list[LogEntry]) -> bytes:
    """The log's msgpack before compression (what its dictionary is trained on)."""
    kept: list[bytes] = []
    ats: list[int | None] = []
    times: list[int | None] = []
    previous = 0
    for entry in entries:
        fields = _fields(entry.entry)
        bits = 0 if fields is None else _bits(fields[_AT])
        timeless = b""
        if fields is not None:
            fields[_AT] = None
            timeless = bytes(msgpack.packb(fields, use_bin_type=True))
        # Kept without its time only where the read gives back the very bytes.
        if (
            fields is not None
            and -(2**63) <= bits - previous < 2**63
            and _entry_bytes(timeless, bits) == entry.entry
        ):
            kept.append(timeless)
            ats.append(bits - previous)
            previous = bits
        else:
            kept.append(entry.entry)
            ats.append(None)
        own = _own_time(entry.entry)
        same = own is not None and _as_datetime(own) == entry.at
        times.append(None if same else _micros(entry.at))
    return bytes(msgpack.packb([kept, ats, times], use_bin_type=True))


def unpacked_log(raw: bytes, since: int = 1, until: int | None = None) -> list[LogEntry]:
    """The entries of versions ``since``..``until`` (both included; None: to the last)."""
    packed = msgpack.unpackb(decompressed(raw), raw=False, use_list=True)
    if len(packed) == 2:  # written before the times were kept apart: every entry as its bytes
        entries, times = packed
        ats: list[int | None] = [None] * len(entries)
    else:
        entries, ats, times = packed
    last = len(entries) if until is None else min(until, len(entries))
    found = []
    bits = 0
    for version in range(1, last + 1):
        at = ats[version - 1]
        if at is not None:
            bits += at
        if version < since:
            continue
        stored = bytes(entries[version - 1])
        kept = stored if at is None else _entry_bytes(stored, bits)
        micros = times[version - 1]
        if micros is None:
            own = _own_time(kept)
            assert own is not None, version  # written nil only when the entry gave the time
            moment = _as_datetime(own)
            assert moment is not None, version
        else:
            moment = _EPOCH + datetime.timedelta(microseconds=micros)
        found.append(LogEntry(version, kept, moment))
    return found


def packed_snapshots(
    snapshots: tuple[Snapshot, ...] | list[Snapshot], title: str | None = None
) -> bytes | None:
    if not snapshots:
        return None
    return compressed(snapshots_payload(snapshots), title)


def snapshots_payload(snapshots: tuple[Snapshot, ...] | list[Snapshot]) -> bytes:
    """The snapshots' msgpack before compression (what the states' dictionary is trained on)."""
    return bytes(msgpack.packb([[s.version, s.state] for s in snapshots], use_bin_type=True))


def unpacked_snapshots(raw: bytes | None) -> list[Snapshot]:
    if raw is None:
        return []
    return [
        Snapshot(version, bytes(state)) for version, state in msgpack.unpackb(decompressed(raw), raw=False)
    ]
