"""Strategies that play any game through the engine protocol, and the levels clients pick.

A strategy sees only what its seat may see: it works on ``state.determinize(seat, rng)``,
never on the true state, so a bot cannot cheat even by accident (tests check that a bot's
choice is the same on any state that differs only in what its seat cannot see).

- ``random``: a legal move uniformly at random.
- ``greedy``: one ply — every legal move on a sample of the hidden facts, scored by the
  game's ``evaluate`` (the seat's value minus its best opponent's).
- ``ismcts``: information-set Monte Carlo tree search (single-observer ISMCTS, Cowling,
  Powley & Whitehouse 2012) over determinizations, with an iteration and a time budget; it
  returns the best move found so far when the time is up.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..core import Move, State
from .greedy import greedy_move
from .ismcts import ismcts_move
from .levels import DEFAULT_LEVEL, LEVELS, Level
from .random_bot import random_move

STRATEGIES = ("greedy", "ismcts", "random")


def level_for(bot: str | None, level: str | None) -> Level:
    """The level a bot seat plays at: a named level, or a strategy at its own default level."""
    if level is not None:
        return LEVELS[level]
    if bot is None:
        return LEVELS[DEFAULT_LEVEL]
    return next(lvl for lvl in LEVELS.values() if lvl.bot == bot and lvl.default_for_bot)


def choose(
    state: State,
    seat: int,
    bot: str | None,
    rng: random.Random,
    *,
    level: str | None = None,
    out_of_time: Callable[[], bool] | None = None,
) -> Move:
    """Return the move a bot seat plays.

    Engines keep no clock: the caller, who owns one, passes ``out_of_time`` (true once the
    level's ``seconds`` or its own deadline have passed) and the search stops there.
    """
    return play(level_for(bot, level).for_game(state.game), state, seat, rng, out_of_time=out_of_time)


def play(
    plan: Level,
    state: State,
    seat: int,
    rng: random.Random,
    *,
    out_of_time: Callable[[], bool] | None = None,
    stats: dict[str, int] | None = None,
) -> Move:
    """The move ``plan``'s strategy plays with its budget (``choose`` resolves the plan).

    ``stats``: ISMCTS's counts (iterations done), for benchmarks."""
    if plan.bot == "random":
        return random_move(state, seat, rng)
    if plan.bot == "greedy":
        return greedy_move(
            state, seat, rng, samples=plan.samples, epsilon=plan.epsilon, out_of_time=out_of_time
        )
    return ismcts_move(
        state,
        seat,
        rng,
        iterations=plan.iterations,
        out_of_time=out_of_time,
        rollout_depth=plan.rollout_depth,
        exploration=plan.exploration,
        prior_visits=plan.prior_visits,
        centred=plan.centred_margins,
        searches=plan.searches,
        greedy_rollouts=plan.greedy_rollouts,
        sharp=plan.sharp_evaluation,
        stats=stats,
    )


__all__ = [
    "LEVELS",
    "STRATEGIES",
    "choose",
    "greedy_move",
    "ismcts_move",
    "level_for",
    "play",
    "random_move",
]
