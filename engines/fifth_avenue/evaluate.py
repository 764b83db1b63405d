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
    # Cards buy skyscrapers; colour cards name plots, black ones only add value. Cards in a
    # running auction (drafted or bid) are still the seat's unless it wins, and leading an
    # auction promises the skyscrapers it would build: without that, a one-ply search sees
    # only the cost of bidding and never bids.
    held = list(player["hand"])
    auction = state.auction
    if auction is not None and "bids" in auction:
        held += auction["draft"][seat] + auction["bids"][seat]
        if auction["high"] == seat:
            value += 2.0
    for card in held:
        value += 0.12 * m.CARD_VALUE[card] if m.CARD_KIND[card] != m.BLACK else 0.08 * m.CARD_VALUE[card]
    return value


def evaluate(state: FifthAvenueState, seat: int) -> float:
    """The seat's promise against the best opponent's: higher is better for ``seat``."""
    mine = promise(state, seat)
    others = [promise(state, s) for s in range(state.seats) if s != seat]
    return mine - max(others)
