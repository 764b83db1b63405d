"""The random bot: a legal move chosen uniformly, through a determinization.

Where a game names the moves a sensible random player keeps to (``Game.playout_moves``: New
York's random players would otherwise lose their own buildings so often that a game never
ends), the bot chooses among those, and among every legal move only when that list is empty.
"""

from __future__ import annotations

import random

from ..core import Move, State


def random_move(state: State, seat: int, rng: random.Random) -> Move:
    sample = state.determinize(seat, rng)
    moves = sample.legal_moves(seat)
    preferred = state.game.playout_moves
    if preferred is not None:
        moves = preferred(sample, seat, moves) or moves
    return rng.choice(moves)
