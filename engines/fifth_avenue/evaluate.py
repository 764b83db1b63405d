"""How good a Fifth Avenue position looks for one seat (used by the greedy bot)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import board
from . import material as m

if TYPE_CHECKING:
    from .rules import FifthAvenueState


def promise(state: FifthAvenueState, seat: int) -> float:
    """Points now, plus what the seat's skyscrapers, reserve and cards promise."""
    player = state.players[seat]
    value = float(player["score"])
    if state.phase == "over":
        return value
    for district in state.districts:
        if district["closed"]:
            continue
        plots = district["plots"]
        for index, plot in enumerate(plots):
            if plot["count"] and plot["owner"] == seat:
                # Scored at least once more at the end, often once before by action D.
                value += 1.5 * plot["count"] * board.plot_points(plots, index)
    value += 3.0 * player["park"]  # 2 to 5 points each at the end
    value += 0.8 * player["reserve"]  # skyscrapers ready to build after an auction
    # Cards buy skyscrapers; colour cards name plots, black ones only add value.
    for card in player["hand"]:
        value += 0.12 * m.CARD_VALUE[card] if m.CARD_KIND[card] != m.BLACK else 0.08 * m.CARD_VALUE[card]
    return value


def evaluate(state: FifthAvenueState, seat: int) -> float:
    """The seat's promise against the best opponent's: higher is better for ``seat``."""
    mine = promise(state, seat)
    others = [promise(state, s) for s in range(state.seats) if s != seat]
    return mine - max(others)
