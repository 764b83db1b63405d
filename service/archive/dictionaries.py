"""The zstd dictionaries the archive compresses with, one pair per title, shipped with the code.

An ended game is a few small values (its log, its final state, its snapshots): zstd alone spends
most of their bytes teaching itself the title's words (the state's keys, a move's fields). A
dictionary trained on that title's games (``tools/train_archive_dictionaries.py``, random games of
the engines) holds them once for every game, and a value only names what differs.

Each title has a ``log`` dictionary (the packed log) and a ``states`` one (final state and
snapshots), kept in ``zstd_dictionaries/<title>.json`` (base64: the package ships JSON files).
Every zstd frame names the dictionary it was made with (its id; 0: none), and a reader takes the
dictionary by that id: a value written without one (the archive before them) or with an older
dictionary is read as it was written. So a shipped dictionary is never changed nor removed: a
better one is appended to its title's list, under a new id, and the writers take the last one.
"""

from __future__ import annotations

import base64
import functools
from pathlib import Path
from typing import Literal

import orjson
import zstandard

Kind = Literal["log", "states"]
FOLDER = Path(__file__).with_name("zstd_dictionaries")


@functools.cache
def _shipped() -> tuple[dict[int, zstandard.ZstdCompressionDict], dict[tuple[str, Kind], int]]:
    """Every shipped dictionary by its id, and the id each title's writers take for each kind."""
    by_id: dict[int, zstandard.ZstdCompressionDict] = {}
    latest: dict[tuple[str, Kind], int] = {}
    for path in sorted(FOLDER.glob("*.json")):
        shipped = orjson.loads(path.read_bytes())
        for entry in shipped["dictionaries"]:
            found = zstandard.ZstdCompressionDict(base64.b64decode(entry["data"]))
            if found.dict_id() != entry["id"] or entry["id"] in by_id:
                raise RuntimeError(f"{path.name}: dictionary {entry['id']} is not one of its own id")
            by_id[entry["id"]] = found
            latest[(shipped["title"], entry["kind"])] = entry["id"]
    return by_id, latest


def for_writing(title: str, kind: Kind) -> zstandard.ZstdCompressionDict | None:
    """The dictionary a value of ``kind`` of a ``title`` game is written with; None: without."""
    by_id, latest = _shipped()
    found = latest.get((title, kind))
    return None if found is None else by_id[found]


def by_id(dict_id: int) -> zstandard.ZstdCompressionDict:
    """The dictionary a frame names; KeyError for one this code does not ship."""
    return _shipped()[0][dict_id]
