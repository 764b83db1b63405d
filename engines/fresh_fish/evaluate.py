"""How good a Fresh Fish position looks for one seat (used by the greedy bot).

The final score is the sum of four capped route lengths minus money, lowest wins. During
play the routes are estimated through streets *and* undeveloped plots (the network), which
is what they may still become. A type not yet owned is estimated from the seat's nearest
reserved plot, halfway to the cap for the uncertainty of winning the retailer there; with no
reserved plot, near the cap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import material as m
from .expropriation import in_network
from .routes import capped, distances_from, length_to

if TYPE_CHECKING:
    from .rules import FreshFishState

UNPLANNED_SHARE = 0.85  # of the cap, for a type with no owned retailer and no reserved plot


def estimated_totals(state: FreshFishState) -> list[float]:
    """Per seat: estimated final total (route lengths minus money), lower is better."""
    if state.phase == "over":
        return [float(score) for score in state.final_result().scores]
    size, cap = state.size, state.cap
    network = in_network(state.board)
    reserved = [state.reserved_plots(seat) for seat in range(state.seats)]
    totals = [-float(player["money"]) for player in state.players]
    for goods in m.GOODS:
        source = state.distributors.get(goods)
        dist = distances_from(size, network, source) if source is not None else None
        for seat, player in enumerate(state.players):
            where = player["retailers"].get(goods)
            if where is not None:
                totals[seat] += capped(
                    length_to(size, dist, where) if dist is not None and where != "front" else None, cap
                )
            elif dist is not None and reserved[seat]:
                best = min(capped(length_to(size, dist, plot), cap) for plot in reserved[seat])
                totals[seat] += (best + cap) / 2
            else:
                totals[seat] += UNPLANNED_SHARE * cap
    return totals


def evaluate(state: FreshFishState, seat: int) -> float:
    """Higher is better for ``seat``: the others' mean estimated total minus its own."""
    return evaluate_seats(state)[seat]


def evaluate_seats(state: FreshFishState) -> list[float]:
    """``evaluate`` of every seat, the totals estimated once."""
    totals = estimated_totals(state)
    out = []
    for seat, own in enumerate(totals):
        others = [t for s, t in enumerate(totals) if s != seat]
        out.append(sum(others) / len(others) - own)
    return out
