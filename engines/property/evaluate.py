"""How good a Property position looks for one seat (used by the greedy bot)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import material as m

if TYPE_CHECKING:
    from .rules import PropertyState


def evaluate(state: PropertyState, seat: int) -> float:
    """Money share now, plus what owned squares and groups promise in future rent."""
    player = state.players[seat]
    if player["bankrupt"]:
        return -1.0
    total_money = sum(p["money"] for p in state.players) or 1
    squares = state.property_counts()
    value = player["money"] / total_money
    # Every square is a chance of rent; larger groups earn more per hit.
    value += 0.01 * squares[seat] + 0.002 * m.unit_total(player["units"])
    if state.options["property_value"]:
        value += m.PROPERTY_END_VALUE * squares[seat] / total_money
    return value
