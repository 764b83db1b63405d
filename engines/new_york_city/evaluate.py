"""How good a New York City position looks for one seat (used by the greedy bot)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .scoring import final_scores

if TYPE_CHECKING:
    from .rules import NewYorkCityState


def evaluate(state: NewYorkCityState, seat: int) -> float:
    """The seat's final score if the game ended now, minus the best other (Tom included),
    plus a little for what is still to be spent: cards in hand and on the board."""
    scores = state.final["totals"] if state.final else final_scores(state)["totals"]
    others = [score for p, score in enumerate(scores) if p != seat]
    player = state.players[seat]
    promise = 0.0 if state.final else 0.3 * len(player["hand"]) + 0.5 * player["board"]
    return scores[seat] - (max(others) if others else 0) + promise
