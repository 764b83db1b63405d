"""Strategies that play any game through the engine protocol.

A strategy sees only what its seat may see: it works on ``state.determinize(seat, rng)``,
never on the true state, so a bot cannot cheat even by accident.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..core import Move, State

Strategy = Callable[[State, int, random.Random], Move]


def random_move(state: State, seat: int, rng: random.Random) -> Move:
    """A legal move chosen uniformly at random."""
    sample = state.determinize(seat, rng)
    return rng.choice(sample.legal_moves(seat))


STRATEGIES: dict[str, Strategy] = {"random": random_move}


def choose(state: State, seat: int, bot: str, rng: random.Random) -> Move:
    """Return the move strategy ``bot`` picks for ``seat``."""
    return STRATEGIES[bot](state, seat, rng)
