"""The greedy bot: one ply ahead, scored by the game's evaluate, over samples of the hidden facts."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from ..core import Move, State
from .values import final_values, margins


def _value(state: State, seat: int) -> float:
    if state.is_over():
        # A finished game outranks any evaluation: winning is worth more than any margin.
        return 1e9 * (final_values(state)[seat] - 0.5)
    return margins(state)[seat]


def best_reply(state: State, seat: int, moves: list[Move], rng: random.Random) -> Move:
    """The move with the best value one ply ahead on this very state (ties at random).

    The rival model of ISMCTS's greedy rollouts: the state is already one guess of the
    hidden facts, so no sampling.
    """
    best, chosen = -math.inf, []
    for move in moves:
        after = state.clone()
        after.apply_listed(seat, move)
        value = _value(after, seat)
        if value > best + 1e-9:
            best, chosen = value, [move]
        elif value >= best - 1e-9:
            chosen.append(move)
    return chosen[rng.randrange(len(chosen))] if len(chosen) > 1 else chosen[0]


def greedy_move(
    state: State,
    seat: int,
    rng: random.Random,
    *,
    samples: int = 1,
    epsilon: float = 0.0,
    out_of_time: Callable[[], bool] | None = None,
) -> Move:
    """The move with the best average value one ply ahead; a random one with chance ``epsilon``."""
    first = state.determinize(seat, rng)
    moves = first.legal_moves(seat)
    if len(moves) == 1 or (epsilon and rng.random() < epsilon):
        return rng.choice(moves)
    totals = [0.0] * len(moves)
    for sample_index in range(samples):
        sample = first if sample_index == 0 else state.determinize(seat, rng)
        for index, move in enumerate(moves):
            after = sample.clone()
            after.apply_listed(seat, move)
            totals[index] += _value(after, seat)
        if out_of_time is not None and out_of_time():
            break
    best = max(totals)
    return rng.choice([move for move, total in zip(moves, totals, strict=True) if total >= best - 1e-9])
