"""Archived games made by playing the real engines with random legal moves, as the service would
have kept them: the meta and log entries shaped as service/play/games.py writes them, the states
serialized as the store does, recorded while playing (not by the import's replay)."""

from __future__ import annotations

import datetime
import random
import secrets
from typing import Any

import orjson

from engines import registry
from service.archive.records import (
    ArchivedGame,
    ArchivedSeat,
    EndStatus,
    LogEntry,
    Snapshot,
    snapshot_versions,
)
from service.play import auth
from service.play.results import game_result

UTC = datetime.UTC
START = datetime.datetime(2026, 11, 1, 9, 30, 0, 250000, tzinfo=UTC)


def played_game(
    title: str,
    *,
    seed: int,
    status: EndStatus = "finished",
    moves: int | None = None,
    ended_at: datetime.datetime | None = None,
) -> ArchivedGame:
    """A game of ``title`` with a human at seat 0 and bots after it, played to its end (finished)
    or stopped after ``moves`` moves (aborted, expired: a last entry with no move, as an abort's)."""
    engine = registry.get(title)
    rng = random.Random(f"{title}/{seed}")
    count = engine.min_seats
    options = engine.normalize_options(count, {})
    seats: list[dict[str, Any]] = [
        {"seat": 0, "kind": "human", "name": "Zoë ✓", "token_hash": auth.token_hash(auth.new_token())},
        *({"seat": n, "kind": "bot", "bot": "random", "level": "easy"} for n in range(1, count)),
    ]
    meta = {
        "title": engine.id,
        "rules_version": engine.rules_version,
        "seats": seats,
        "options": options,
        "seed": seed,
        "created": START.timestamp(),
        "stand_in": {"bot": "random", "level": "easy"},
    }
    state = engine.setup(count, options, seed)
    kept: dict[int, bytes] = {0: orjson.dumps(state.to_dict())}
    log: list[LogEntry] = []
    at = START + datetime.timedelta(seconds=5)
    while state.to_act() and (moves is None or len(log) < moves):
        seat = rng.choice(state.to_act())
        move = rng.choice(state.legal_moves(seat))
        events = state.apply_listed(seat, move)
        at += datetime.timedelta(seconds=1, microseconds=rng.randrange(1_000_000))
        entry = {
            "version": len(log) + 1,
            "seat": seat,
            "move": move,
            "events": events,
            "at": at.timestamp(),
            "to_act": state.to_act(),
            "status": "finished" if state.is_over() else "active",
        }
        log.append(LogEntry(len(log) + 1, orjson.dumps(entry), at))
        kept[len(log)] = orjson.dumps(state.to_dict())
    if status != "finished":
        at += datetime.timedelta(seconds=30)
        entry = {"version": len(log) + 1, "seat": 0, "events": [{"type": status}], "at": at.timestamp()}
        log.append(LogEntry(len(log) + 1, orjson.dumps(entry), at))
        kept[len(log)] = kept[len(log) - 1]
    version = len(log)
    result = game_result(meta, state) if status == "finished" else None
    ranks = result["ranks"] if result is not None else [None] * count
    return ArchivedGame(
        id=f"g{secrets.token_hex(6)}",
        status=status,
        meta=orjson.dumps(meta),
        version=version,
        final_state=kept[version],
        created_at=START,
        started_at=START,
        ended_at=ended_at or at,
        log=tuple(log),
        seats=tuple(ArchivedSeat(n, seats[n]["kind"], None, ranks[n]) for n in range(count)),
        snapshots=tuple(Snapshot(v, kept[v]) for v in snapshot_versions(version)[:-1]),
        result=None if result is None else orjson.dumps(result),
    )
