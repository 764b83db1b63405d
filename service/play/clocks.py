"""Turn deadlines: a game's clock, the deadline of each human seat to act, and what happens when
one passes.

A game created with ``"clock": {"turn_seconds": N, "on_timeout": "stand_in" | "resign",
"timeouts_to_resign": K}`` gives every human seat to act a deadline, N seconds after it became
due to act (a seat that stays to act while another seat moves, as in a sealed bid, keeps its
own). The deadlines are written by the commit of the move that sets them, in the same script,
and indexed by the earliest (``sk:deadlines``). The workers' sweeper calls ``Clocks.expire``
on each game due, with no client request: with ``stand_in`` the game's stand-in bot plays that
one turn for the seat (``turn_timed_out``, then the move's own events; the seat stays human),
and the K-th timeout in a row resigns it; with ``resign`` the seat resigns at once. Either is a
compare-and-set on the version the deadline was set at: a player's own move landing first
wins, and of several workers exactly one acts.
"""

from __future__ import annotations

import random
import time
from typing import Any

from engines.bots import choose

from ..store.games import GameMissing, GameMovedOn, StoredGame
from ..store.records import LogEntry
from .errors import PlayError
from .games import Games, stand_in_of
from .times import rfc3339


def timeouts_in_a_row(log: list[LogEntry], seat: int) -> int:
    """How many of the seat's last moves were played for it when its time ran out."""
    count = 0
    for entry in reversed(log):
        if entry["seat"] != seat or "move" not in entry:
            continue
        # The service's own events come first; Redis keeps a move's apart (store.logform).
        events = entry["events"] if "events" in entry else entry.get("leading_events", [])
        if events and events[0].get("type") == "turn_timed_out":
            count += 1
        else:
            break
    return count


class Clocks:
    """What the workers' sweeper does when a deadline passes."""

    def __init__(self, games: Games, seats: Any) -> None:
        self.games = games
        self.seats = seats  # service.play.seats.Seats (its resignation)

    def due(self, now: float | None = None, limit: int = 100) -> list[tuple[str, bytes]]:
        return self.games.store.deadlines_due(time.time() if now is None else now, limit)

    def expire(self, game_id: str, score: bytes, now: float | None = None) -> str:
        """Act on the game's passed deadline, once; return what was done."""
        now = time.time() if now is None else now
        store = self.games.store
        try:
            stored = store.load(game_id)
        except GameMissing:
            store.forget_deadline(game_id, score)
            return "missing"
        if stored.status != "active" or not stored.deadlines:
            store.forget_deadline(game_id, score)
            return "no_deadline"
        seat_key, at = min(stored.deadlines.items(), key=lambda kv: kv[1])
        if at > now:
            return "not_due"
        seat = int(seat_key)
        clock = stored.meta["clock"]
        timed_out = {"type": "turn_timed_out", "seat": seat, "deadline": rfc3339(at, round_up=True)}
        streak = 1 + timeouts_in_a_row(store.log(game_id), seat)
        try:
            if clock["on_timeout"] == "resign" or streak >= clock["timeouts_to_resign"]:
                self.seats.resign_seat(stored, seat, [timed_out])
                return "resigned"
            self._stand_in(stored, seat, timed_out)
            return "stood_in"
        except (PlayError, GameMovedOn):
            # The player's own move (StaleVersion) or another worker landed first, or the game
            # ended or changed hands meanwhile.
            return "moved_on"

    def _stand_in(self, stored: StoredGame, seat: int, timed_out: dict[str, Any]) -> None:
        state = self.games._restore(stored, stored.state)
        stand_in = stand_in_of(stored.meta)
        rng = random.Random(f"{stored.id}:{stored.version}:{seat}:timeout")
        move = choose(state, seat, stand_in["bot"], rng, level=stand_in["level"])
        self.games.act(stored.id, None, move, stored.version, bot_seat=seat, leading_events=[timed_out])
