"""A game's clock and its deadlines, computed (no Redis, no other module of play/): the commit of
every move of a game with a clock writes them (``service.play.games``, ``service.play.seats``);
``service.play.clocks`` acts when one passes."""

from __future__ import annotations

from typing import Any

from ..store.records import Clock, GameMeta
from .times import rfc3339

MIN_TURN_SECONDS = 10
MAX_TURN_SECONDS = 14 * 24 * 3600
DEFAULT_TIMEOUTS_TO_RESIGN = 3


def clock_of(request: dict[str, Any] | None) -> Clock | None:
    """The clock as kept with the game (defaults filled in), from the one asked at creation."""
    if not request:
        return None
    return {
        "turn_seconds": int(request["turn_seconds"]),
        "on_timeout": request.get("on_timeout") or "stand_in",
        "timeouts_to_resign": int(request.get("timeouts_to_resign") or DEFAULT_TIMEOUTS_TO_RESIGN),
    }


def next_deadlines(
    meta: GameMeta,
    status: str,
    to_act: list[int],
    previous: dict[str, float] | None,
    mover: int | None,
    now: float,
) -> dict[str, float] | None:
    """The deadlines after a commit: None for a game without a clock (nothing is written)."""
    clock = meta.get("clock")
    if clock is None:
        return None
    if status != "active":
        return {}
    out: dict[str, float] = {}
    seats = meta["seats"]
    for seat in to_act:
        if seats[seat]["kind"] != "human":
            continue
        key = str(seat)
        kept = None if previous is None or seat == mover else previous.get(key)
        out[key] = kept if kept is not None else now + clock["turn_seconds"]
    return out


def shown(deadlines: dict[str, float]) -> dict[str, str]:
    """Deadlines as the API shows them: seat number -> RFC 3339 time, UTC."""
    return {
        seat: rfc3339(at, round_up=True) for seat, at in sorted(deadlines.items(), key=lambda kv: int(kv[0]))
    }
