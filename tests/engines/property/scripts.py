"""A Property game that makes the rule of rules version 2 matter (P-MORTGAGED-RENT): shared by
the engine's tests and the service's (tests/service/test_rules_versions.py)."""

from __future__ import annotations

import random
from typing import Any

from engines.core import Game, Move, State


def hits_a_mortgage(state: Any, seat: int, move: Move) -> bool:
    """The move designates another seat's mortgaged square."""
    if move["type"] != "play":
        return False
    square = state.grid[move["row"] - 1][move["column"] - 1]
    return square is not None and square["owner"] != seat and square["mortgaged"]


def _preference(state: Any, seat: int, move: Move) -> int:
    """Lower first: land on a mortgage, mortgage one's own square, any play, anything else."""
    if hits_a_mortgage(state, seat, move):
        return 0
    square = state.grid[move["row"] - 1][move["column"] - 1] if move["type"] == "play" else None
    if square is not None and square["owner"] == seat and not square["mortgaged"]:
        return 1
    return 2 if move["type"] == "play" else 3


def scripted_game(game: Game[State], seed: int, *, to_the_end: bool) -> tuple[list[tuple[int, Move]], int]:
    """Two seats' moves that mortgage squares until one lands on the other's mortgaged square
    (its index is returned with the moves), then, ``to_the_end``, random moves until the end."""
    state: Any = game.setup(2, {}, seed)
    rng = random.Random(seed)
    moves: list[tuple[int, Move]] = []
    hit = None
    while not state.is_over() and (to_the_end or hit is None):
        seat = state.to_act()[0]
        listed = state.legal_moves(seat)
        if hit is None:
            move = min(listed, key=lambda listed_move: _preference(state, seat, listed_move))
            if hits_a_mortgage(state, seat, move):
                hit = len(moves)
        else:
            move = rng.choice(listed)
        state.apply(seat, move)
        moves.append((seat, move))
        assert len(moves) < game.max_moves
    assert hit is not None, "the script lands on a mortgaged square of the other seat"
    return moves, hit
