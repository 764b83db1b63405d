"""Rated games as the archive takes them, made by hand: the seats, ranks and end a test or a benchmark
chooses (tests/archive, bench/ratings_reads.py)."""

from __future__ import annotations

import datetime
from typing import Any

import orjson

from service.archive.records import ArchivedGame, ArchivedSeat

UTC = datetime.UTC
START = datetime.datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def rated_game(
    game_id: str,
    seats: list[dict[str, Any]],
    ranks: list[int],
    *,
    minutes: int = 0,
    rated: bool = True,
    status: str = "finished",
) -> ArchivedGame:
    meta: dict[str, Any] = {"title": "property", "rules_version": 1, "seats": seats, "options": {}, "seed": 1}
    if rated:
        meta["rated"] = True
    return ArchivedGame(
        id=game_id,
        status=status,  # type: ignore[arg-type]
        meta=orjson.dumps(meta),
        version=0,
        final_state=b"{}",
        created_at=START,
        ended_at=START + datetime.timedelta(minutes=minutes),
        log=(),
        seats=tuple(
            ArchivedSeat(
                s["seat"], s["kind"], s.get("player"), ranks[s["seat"]] if status == "finished" else None
            )
            for s in seats
        ),
        result=orjson.dumps({"ranks": ranks}) if status == "finished" else None,
    )


def human(seat: int, player: str) -> dict[str, Any]:
    return {"seat": seat, "kind": "human", "player": player, "token_hash": "x"}


def bot(seat: int, level: str) -> dict[str, Any]:
    return {"seat": seat, "kind": "bot", "bot": "greedy", "level": level}
