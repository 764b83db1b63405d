"""Ended games to archive, made the same way by the tests and by their writer processes.

The JSON is what byte-for-byte fidelity is tested on: orjson's own output (as Redis holds it)
with non-ASCII text, escapes and floats, and hand-written text whose spacing, key order and
number spelling any re-encoding would change.
"""

from __future__ import annotations

import datetime
import random

import orjson

from service.archive.records import (
    ArchivedGame,
    ArchivedSeat,
    EndStatus,
    LogEntry,
    Snapshot,
    snapshot_versions,
)

UTC = datetime.UTC
EPOCH = datetime.datetime(2026, 11, 30, 12, 0, 0, 123456, tzinfo=UTC)

# Text no JSON encoder would write: spaces, unsorted keys, 1.0e0 and 10E-1, an escaped slash.
HAND_WRITTEN = b'{ "z" : 1.0e0,"a":[10E-1, -0.0 ,1E+2 ],\n "path":"a\\/b", "nul": "\\u0000" }'


def a_game(
    game_id: str,
    *,
    moves: int = 10,
    status: EndStatus = "finished",
    title: str = "property",
    seats: int = 3,
    ended_at: datetime.datetime = EPOCH,
    entry_bytes: int = 0,
    meta_bytes: int = 0,
) -> ArchivedGame:
    """A deterministic game (seeded by its id) of ``moves`` versions; ``entry_bytes`` pads each log
    entry and ``meta_bytes`` the meta (the row an export's cursor fetches)."""
    rng = random.Random(game_id)
    started = ended_at - datetime.timedelta(seconds=moves + 60)
    meta = {
        "title": title,
        "rules_version": "2",
        "seats": [
            {"seat": 0, "kind": "human", "name": "Zoë ✓", "token_hash": rng.randbytes(32).hex()},
            *({"seat": n, "kind": "bot", "bot": "greedy", "level": "easy"} for n in range(1, seats)),
        ],
        "options": {"variant": "classic", "tie": 0.1},
        "seed": rng.getrandbits(63),
        "created": started.timestamp() - 30,
        "stand_in": {"bot": "random", "level": "easy"},
        "pad": "m" * meta_bytes,
    }
    log = []
    for version in range(1, moves + 1):
        entry = {
            "version": version,
            "seat": version % seats,
            "move": {"type": "bid", "amount": rng.randrange(100), "note": 'l\'été "chaud"\n\t😀'},
            "events": [{"type": "bid", "value": rng.random()}],
            "at": (started + datetime.timedelta(seconds=version)).timestamp(),
            "pad": "x" * entry_bytes,
        }
        raw = HAND_WRITTEN if version == 1 else orjson.dumps(entry)
        log.append(
            LogEntry(version, raw, started + datetime.timedelta(seconds=version, microseconds=version))
        )
    states = {
        v: orjson.dumps({"version": v, "board": [rng.randrange(9) for _ in range(20)]})
        for v in range(moves + 1)
    }
    ranking = list(range(1, seats + 1))
    rng.shuffle(ranking)
    finished = status == "finished"
    return ArchivedGame(
        id=game_id,
        status=status,
        meta=orjson.dumps(meta),
        version=moves,
        final_state=states[moves],
        created_at=started - datetime.timedelta(seconds=30),
        started_at=started if status != "aborted" else None,
        ended_at=ended_at,
        log=tuple(log),
        seats=tuple(
            ArchivedSeat(
                seat,
                "human" if seat == 0 else "bot",
                "player-1" if seat == 0 else None,
                ranking[seat] if finished else None,
            )
            for seat in range(seats)
        ),
        snapshots=tuple(Snapshot(v, states[v]) for v in snapshot_versions(moves, every=4)[:-1]),
        result=orjson.dumps({"ranking": ranking, "scores": {"0": 12.5}}) if finished else None,
    )
