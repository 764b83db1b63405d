"""Train the archive's zstd dictionaries (service/archive/dictionaries.py) and append them.

For each title, plays ``--games`` random games with the engines alone (no service: the moves,
their seats and times, the states), packs each as the archive packs it (``compact.log_payload``,
``compact.snapshots_payload`` and the final state's JSON) and trains one dictionary on the logs
and one on the states, with zstd's own trainer. The seeds are not the benchmark's (which plays
through the service), so ``bench/archive_costs.py`` measures them on games they never saw.

A dictionary already shipped is never changed (the games written with it name it by its id):
this appends a new one to the title's file, which the writers take from then on; ``--check``
only prints what a new one would save against the title's latest, on fresh games.

Usage:
    python tools/train_archive_dictionaries.py [--games 80] [--titles property,...] [--check]
"""

from __future__ import annotations

import argparse
import base64
import datetime
import random
import sys
import zlib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import orjson  # noqa: E402
import zstandard  # noqa: E402

from engines import registry  # noqa: E402
from service.archive import compact, dictionaries  # noqa: E402
from service.archive.records import LogEntry, Snapshot, snapshot_versions  # noqa: E402
from service.store import logform  # noqa: E402

LOG_BYTES = 16384
STATES_BYTES = 16384
MAX_MOVES = 1500
START = datetime.datetime(2026, 1, 5, 8, 0, tzinfo=datetime.UTC).timestamp()


def played(title: str, seed: int) -> tuple[bytes, list[bytes]]:
    """A random game's log payload, and its states' values (the final state, the snapshots)."""
    engine = registry.get(title)
    rng = random.Random(f"dictionary/{title}/{seed}")
    count = rng.randint(engine.min_seats, min(engine.max_seats, 4))
    options = engine.normalize_options(count, {})
    state = engine.setup(count, options, rng.getrandbits(63))
    states = {0: orjson.dumps(state.to_dict())}
    log: list[LogEntry] = []
    at = START + rng.uniform(0, 3e7)
    while state.to_act() and len(log) < MAX_MOVES:
        seat = rng.choice(state.to_act())
        move = rng.choice(state.legal_moves(seat))
        state.apply_listed(seat, move)
        at += rng.choice((rng.uniform(0.5, 30), rng.uniform(30, 3600)))
        entry: dict[str, Any] = {
            "seat": seat,
            "move": move,
            "at": at,
            "status": "finished" if state.is_over() else "active",
            "to_act": state.to_act(),
            logform.LEADING: [],
        }
        raw = logform.encoded(entry)  # type: ignore[arg-type]
        log.append(LogEntry(len(log) + 1, raw, datetime.datetime.fromtimestamp(at, tz=datetime.UTC)))
        states[len(log)] = orjson.dumps(state.to_dict())
    last = len(log)
    sparse = [Snapshot(v, states[v]) for v in snapshot_versions(last) if 0 < v < last]
    values = [states[last]] + ([compact.snapshots_payload(sparse)] if sparse else [])
    return compact.log_payload(log), values


def trained(samples: list[bytes], size: int, dict_id: int) -> zstandard.ZstdCompressionDict:
    # k and d given: zstd's search of them takes minutes a dictionary for about the same result.
    return zstandard.train_dictionary(size, samples, dict_id=dict_id, k=1024, d=8)


def new_id(title: str, kind: str, ordinal: int) -> int:
    # Ids below 32768 are zstd's reserved range; the title and kind make them unique.
    return 32768 + zlib.crc32(f"{title}/{kind}/{ordinal}".encode()) % (2**31 - 32768)


def saving(samples: list[bytes], old: zstandard.ZstdCompressionDict | None, new: Any) -> str:
    def size(dictionary: Any) -> float:
        made = zstandard.ZstdCompressor(level=compact.LEVEL, dict_data=dictionary)
        return sum(len(made.compress(sample)) for sample in samples) / len(samples)

    return f"none {size(None):.0f}, latest {size(old):.0f}, new {size(new):.0f}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=80)
    parser.add_argument("--titles", default=",".join(sorted(registry.GAMES)))
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    dictionaries.FOLDER.mkdir(exist_ok=True)
    for title in args.titles.split(","):
        games = [played(title, seed) for seed in range(args.games)]
        fresh = [played(title, 10_000 + seed) for seed in range(max(10, args.games // 4))]
        path = dictionaries.FOLDER / f"{title}.json"
        shipped = orjson.loads(path.read_bytes()) if path.exists() else {"title": title, "dictionaries": []}
        for kind, size, samples, tried in (
            ("log", LOG_BYTES, [log for log, _ in games], [log for log, _ in fresh]),
            ("states", STATES_BYTES, [v for _, vs in games for v in vs], [v for _, vs in fresh for v in vs]),
        ):
            ordinal = 1 + sum(entry["kind"] == kind for entry in shipped["dictionaries"])
            made = trained(samples, size, new_id(title, kind, ordinal))
            latest = dictionaries.for_writing(title, kind)  # type: ignore[arg-type]
            print(f"{title} {kind}: bytes a value on fresh games: {saving(tried, latest, made)}", flush=True)
            if not args.check:
                shipped["dictionaries"].append(
                    {
                        "kind": kind,
                        "id": made.dict_id(),
                        "trained": f"{args.games} random games, {datetime.date.today().isoformat()}",
                        "data": base64.b64encode(made.as_bytes()).decode(),
                    }
                )
        if not args.check:
            path.write_bytes(orjson.dumps(shipped, option=orjson.OPT_INDENT_2) + b"\n")


if __name__ == "__main__":
    main()
