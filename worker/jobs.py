"""Bot turns, run by RQ workers.

``play_bot_turn(game_id, version)`` loads the game, does nothing if it moved on (a stale
or duplicate job), asks the seat's strategy for a move through ``determinize`` only, and
applies it with the same compare-and-set as a client's move. If the strategy fails or
takes too long, a random legal move is played instead, so a game never stalls.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import Any

from rq import get_current_job

from engines import registry
from engines.bots import choose, level_for
from service.botqueue import BotQueue
from service.config import Settings
from service.games import Games, bot_seats_to_act
from service.problems import Problem
from service.store import GameMissing, GameStore

from . import faults

log = logging.getLogger(__name__)


def _games(connection: Any) -> Games:
    settings = Settings.from_env()
    store = GameStore(
        connection,
        ttl_seconds=settings.game_ttl_seconds,
        finished_ttl_seconds=settings.finished_game_ttl_seconds,
    )
    queue = BotQueue(connection, job_timeout=settings.bot_job_timeout)
    # A job reads the game itself, and its Games lives for one job: nothing to keep.
    return Games(store, queue.enqueue_turn, recent_games=0)


def play_bot_turn(
    game_id: str, version: int, connection: Any = None, *, max_turns: int = 64, max_seconds: float = 2.0
) -> dict[str, Any]:
    """Play the bot seats' moves from ``version`` on; return what happened.

    When a bot's move leaves another bot to act, the same job goes on (up to ``max_turns``
    moves or ``max_seconds``), so a table of bots does not pay a queue round trip per move;
    past the budget it enqueues the next turn, so other games get their share of workers.
    """
    if connection is None:
        connection = get_current_job().connection
    games = _games(connection)
    started = time.perf_counter()
    played: list[dict[str, Any]] = []
    outcome = "played"
    while True:
        step = _play_one(games, game_id, version)
        if step["outcome"] != "played":
            outcome = step["outcome"] if not played else "played"
            if not played:
                return step
            break
        played.append(step)
        version = step["version"]
        if not step["bot_to_act"]:
            break
        if len(played) >= max_turns or time.perf_counter() - started > max_seconds:
            if games.enqueue_bot_turn is not None:
                games.enqueue_bot_turn(game_id, version)
            break
    return {
        "outcome": outcome,
        "moves": len(played),
        "version": version,
        "fallbacks": sum(1 for p in played if p["fallback"]),
        "seconds": round(time.perf_counter() - started, 4),
        "last": played[-1],
    }


def _timer(seconds: float | None) -> Callable[[], bool] | None:
    """A budget check for a bot's thinking (engines keep no clock; the worker does)."""
    if seconds is None:
        return None
    deadline = time.monotonic() + seconds
    return lambda: time.monotonic() >= deadline


def _play_one(games: Games, game_id: str, version: int) -> dict[str, Any]:
    """Play the move of the first bot seat to act at ``version``."""
    try:
        stored = games.store.load(game_id)
    except GameMissing:
        return {"outcome": "missing"}
    if stored.version != version:
        return {"outcome": "stale", "current": stored.version}
    game = registry.get(stored.meta["title"])
    state = game.restore(stored.state)
    seats = bot_seats_to_act(stored.meta, state)
    if not seats:
        return {"outcome": "nothing_to_do"}
    seat = seats[0]
    seat_meta = stored.meta["seats"][seat]
    bot, level = seat_meta.get("bot"), seat_meta.get("level")
    rng = random.Random(f"{game_id}:{version}:{seat}")
    fallback = False
    faults.before_bot_move()  # a no-op unless a crash test asks for a slow bot
    try:
        move = choose(state, seat, bot, rng, level=level, out_of_time=_timer(level_for(bot, level).seconds))
    except Exception:  # a bot must never stall a game: play any legal move instead
        log.exception("bot %s failed in game %s at version %s; playing a random move", bot, game_id, version)
        move = rng.choice(state.legal_moves(seat))
        fallback = True
    try:
        reply = games.act(game_id, None, move, version, bot_seat=seat, wake_bots=False)
    except Problem as problem:
        if problem.code != "stale_version":
            raise
        # Another seat moved while the bot thought. In sequential play the bot is then no
        # longer to act; with simultaneous sealed choices (a blind bid) it still is, and
        # what changed is hidden from it, so its choice stands if the rules still allow it.
        try:
            reply = games.act(game_id, None, move, None, bot_seat=seat, wake_bots=False)
        except Problem:
            return {"outcome": "stale", "current": problem.extra.get("current_version")}
    kinds = {entry["seat"]: entry["kind"] for entry in stored.meta["seats"]}
    return {
        "outcome": "played",
        "seat": seat,
        "bot": bot,
        "level": level,
        "move": move,
        "fallback": fallback,
        "version": reply["version"],
        "bot_to_act": any(kinds.get(s) == "bot" for s in reply["to_act"]),
    }
