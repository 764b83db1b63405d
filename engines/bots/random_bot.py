"""The random bot: a legal move chosen uniformly, through a determinization."""

from __future__ import annotations

import random

from ..core import Move, State


def random_move(state: State, seat: int, rng: random.Random) -> Move:
    sample = state.determinize(seat, rng)
    return rng.choice(sample.legal_moves(seat))
