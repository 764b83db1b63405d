"""How good a position is for every seat, on one scale, from the game's own evaluate."""

from __future__ import annotations

from ..core import State


def final_values(state: State) -> list[float]:
    """1 for a winner, 0 for the last, evenly between (automata such as Tom count as rivals)."""
    result = state.final_result()
    field = len(result.ranks) + len(result.automata())
    if field <= 1:
        return [1.0 for _ in result.ranks]
    return [1.0 - (rank - 1) / (field - 1) for rank in result.ranks]


def margins(state: State, sharp: bool = False) -> list[float]:
    """Each seat's evaluate minus its best opponent's (its own evaluate when playing alone).

    ``sharp``: the game's sharper evaluation (Game.evaluate_seats_sharp) where it has one."""
    game = state.game
    if game.evaluate is None:
        return [0.0] * state.seats
    if sharp and game.evaluate_seats_sharp is not None:
        raw = [float(value) for value in game.evaluate_seats_sharp(state)]
    elif game.evaluate_seats is not None:
        raw = [float(value) for value in game.evaluate_seats(state)]
    else:
        raw = [float(game.evaluate(state, seat)) for seat in range(state.seats)]
    if len(raw) == 1:
        return raw
    out = []
    for seat, value in enumerate(raw):
        best_other = max(v for s, v in enumerate(raw) if s != seat)
        out.append(value - best_other)
    return out
