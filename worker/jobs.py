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
from typing import Any

from rq import get_current_job

from engines import registry
from engines.bots import choose
from service.botqueue import BotQueue
from service.config import Settings
from service.games import Games, bot_seats_to_act
from service.problems import Problem
from service.store import GameMissing, GameStore

log = logging.getLogger(__name__)


def _games(connection: Any) -> Games:
    settings = Settings.from_env()
    store = GameStore(
        connection,
        ttl_seconds=settings.game_ttl_seconds,
        finished_ttl_seconds=settings.finished_game_ttl_seconds,
    )
    queue = BotQueue(connection, job_timeout=settings.bot_job_timeout)
    return Games(store, queue.enqueue_turn)


def play_bot_turn(game_id: str, version: int, connection: Any = None) -> dict[str, Any]:
    """Play the move of the first bot seat to act at ``version``; return what happened."""
    if connection is None:
        connection = get_current_job().connection
    games = _games(connection)
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
    bot = stored.meta["seats"][seat].get("bot", "random")
    rng = random.Random(f"{game_id}:{version}:{seat}")
    started = time.perf_counter()
    fallback = False
    try:
        move = choose(state, seat, bot, rng)
    except Exception:  # a bot must never stall a game: play any legal move instead
        log.exception("bot %s failed in game %s at version %s; playing a random move", bot, game_id, version)
        move = rng.choice(state.legal_moves(seat))
        fallback = True
    try:
        reply = games.act(game_id, None, move, version, bot_seat=seat)
    except Problem as problem:
        if problem.code == "stale_version":
            return {"outcome": "stale", "current": problem.extra.get("current_version")}
        raise
    return {
        "outcome": "played",
        "seat": seat,
        "bot": bot,
        "move": move,
        "fallback": fallback,
        "version": reply["version"],
        "seconds": round(time.perf_counter() - started, 4),
    }
