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
from datetime import UTC, datetime
from typing import Any, cast

from rq import get_current_job
from rq.job import Job

from engines import registry
from engines.bots import choose, level_for
from engines.core import RulesError
from service.play.errors import PlayError, StaleVersion
from service.play.games import Games, bot_seats_to_act, has_humans
from service.play.replies import AppliedMove
from service.play.services import Services
from service.store.games import GameMissing

from . import faults
from .services import services as process_services

log = logging.getLogger(__name__)


# Fair scheduling (docs/deploy.md, "Fair bot scheduling"): with SKYLINE_BOT_PRESSURE_JOBS bot
# turns queued, bots think this share of their level's time, so the queue drains instead of growing.
PRESSURE_SHARE = 0.25
# A game of bots only gives its worker back this often to a game with a human waiting.
ALL_BOT_SLICE_SECONDS = 0.05
# A turn that waited in the queue thinks for what is left of its level's time, so the
# answer keeps to the level's budget end to end, but never for less than this share of it.
LATE_MIN_SHARE = 0.25


def waited_in_queue(job: Job | None) -> float:
    """Seconds ``job`` waited in its queue before a worker took it (0 when unknown)."""
    if job is None or job.enqueued_at is None:
        return 0.0
    return max(0.0, (datetime.now(UTC) - job.enqueued_at.replace(tzinfo=UTC)).total_seconds())


class Turns:
    """What a job needs around the rules, from the process's ``Services``: its games, the queues to
    look at, and the settings that shape a turn."""

    def __init__(self, services: Services) -> None:
        self.games = services.games
        self.queue = services.bot_queue
        self.pressure_jobs = services.settings.bot_pressure_jobs
        self.fault_delay = services.settings.fault_bot_delay_seconds

    def human_waiting(self) -> Callable[[], bool]:
        """A check, asked at most every ALL_BOT_SLICE_SECONDS, that a human's game waits for a bot."""
        last = [0.0, False]

        def check() -> bool:
            now = time.monotonic()
            if now - last[0] >= ALL_BOT_SLICE_SECONDS:
                last[0], last[1] = now, self.queue.humans_waiting() > 0
            return bool(last[1])

        return check


def play_bot_turn(
    game_id: str,
    version: int,
    *,
    services: Services | None = None,
    max_turns: int = 64,
    max_seconds: float = 2.0,
    waited: float | None = None,
) -> dict[str, Any]:
    """Play the bot seats' moves from ``version`` on; return what happened.

    When a bot's move leaves another bot to act, the same job goes on (up to ``max_turns``
    moves or ``max_seconds``), so a table of bots does not pay a queue round trip per move;
    past the budget it enqueues the next turn, so other games get their share of workers.
    The first move thinks less by the time the job ``waited`` in its queue (read from the
    running RQ job when not given), down to ``LATE_MIN_SHARE`` of its level's time.
    ``services``: the process's (``worker.services``) unless given.
    """
    if waited is None:
        waited = waited_in_queue(get_current_job())
    turns = Turns(process_services() if services is None else services)
    games = turns.games
    started = time.perf_counter()
    played: list[dict[str, Any]] = []
    outcome = "played"
    budget = PRESSURE_SHARE if turns.queue.depth() >= turns.pressure_jobs else 1.0
    yield_to_humans: Callable[[], bool] | None = None
    while True:
        step = _play_one(
            games,
            game_id,
            version,
            budget=budget,
            spent=0.0 if played else waited,
            interrupt=yield_to_humans,
            fault_delay=turns.fault_delay,
        )
        if step["outcome"] != "played":
            outcome = step["outcome"] if not played else "played"
            if not played:
                return step
            break
        played.append(step)
        version = step["version"]
        if not step["humans"] and yield_to_humans is None:
            yield_to_humans = turns.human_waiting()
        if not step["bot_to_act"]:
            break
        out_of_budget = len(played) >= max_turns or time.perf_counter() - started > max_seconds
        if out_of_budget or (yield_to_humans is not None and yield_to_humans()):
            # Back in the queue: a game with a human waiting (or any other game) goes first.
            turns.queue.enqueue_turn(game_id, version, humans=step["humans"])
            break
    return {
        "outcome": outcome,
        "moves": len(played),
        "version": version,
        "fallbacks": sum(1 for p in played if p["fallback"]),
        "seconds": round(time.perf_counter() - started, 4),
        "last": played[-1],
    }


def _either(first: Callable[[], bool] | None, second: Callable[[], bool]) -> Callable[[], bool]:
    return second if first is None else (lambda: first() or second())


def _timer(seconds: float | None) -> Callable[[], bool] | None:
    """A budget check for a bot's thinking (engines keep no clock; the worker does)."""
    if seconds is None:
        return None
    deadline = time.monotonic() + seconds
    return lambda: time.monotonic() >= deadline


def think_seconds(allowed: float, spent: float) -> float:
    """What is left of ``allowed`` after ``spent``, but at least ``LATE_MIN_SHARE`` of it."""
    return max(allowed - spent, allowed * LATE_MIN_SHARE)


def _play_one(
    games: Games,
    game_id: str,
    version: int,
    *,
    budget: float = 1.0,
    spent: float = 0.0,
    interrupt: Callable[[], bool] | None = None,
    fault_delay: float = 0.0,
) -> dict[str, Any]:
    """Play the move of the first bot seat to act at ``version``.

    ``budget`` scales the level's thinking time (under queue pressure), less ``spent`` seconds
    already gone since the turn was asked for (down to ``LATE_MIN_SHARE``); ``interrupt``, when it
    turns true, ends the thinking early (a game of bots only, while a human's game waits);
    ``fault_delay``: SKYLINE_FAULT_BOT_DELAY_SECONDS, for the crash tests (worker.faults).
    """
    try:
        stored = games.store.load(game_id)
    except GameMissing:
        return {"outcome": "missing"}
    if stored.version != version:
        return {"outcome": "stale", "current": stored.version}
    if stored.status != "active":  # waiting for players, or aborted: no seat is to act
        return {"outcome": "nothing_to_do"}
    game = registry.get(stored.meta["title"], stored.meta["rules_version"])
    state = game.restore(stored.state)
    seats = bot_seats_to_act(stored.meta, state)
    if not seats:
        return {"outcome": "nothing_to_do"}
    seat = seats[0]
    seat_meta = stored.meta["seats"][seat]
    bot, level = seat_meta.get("bot"), seat_meta.get("level")
    if stored.meta.get("played_out"):  # every human resigned: the bots play it out at their fastest
        level = "random"
    rng = random.Random(f"{game_id}:{version}:{seat}")
    fallback = False
    faults.before_bot_move(fault_delay)  # a no-op unless a crash test asks for a slow bot
    try:
        seconds = level_for(bot, level).seconds
        out_of_time = _timer(None if seconds is None else think_seconds(seconds * budget, spent))
        if interrupt is not None:
            out_of_time = _either(out_of_time, interrupt)
        move = choose(state, seat, bot, rng, level=level, out_of_time=out_of_time)
    except Exception:  # a bot must never stall a game: play any legal move instead
        log.exception("bot %s failed in game %s at version %s; playing a random move", bot, game_id, version)
        move = rng.choice(state.legal_moves(seat))
        fallback = True
    try:
        reply = games.act(game_id, None, move, version, bot_seat=seat, wake_bots=False)
    except StaleVersion as stale:
        # Another seat moved while the bot thought. In sequential play the bot is then no
        # longer to act; with simultaneous sealed choices (a blind bid) it still is, and
        # what changed is hidden from it, so its choice stands if the rules still allow it.
        try:
            reply = games.act(game_id, None, move, None, bot_seat=seat, wake_bots=False)
        except (PlayError, RulesError):
            return {"outcome": "stale", "current": stale.current_version}
    kinds = {entry["seat"]: entry["kind"] for entry in stored.meta["seats"]}
    return {
        "outcome": "played",
        "seat": seat,
        "bot": bot,
        "level": level,
        "move": move,
        "fallback": fallback,
        "version": reply["version"],
        "bot_to_act": any(kinds.get(s) == "bot" for s in cast(AppliedMove, reply)["to_act"]),  # no dry run
        "humans": has_humans(stored.meta),
    }
