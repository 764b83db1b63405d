"""The building stop ("Fermeture des chantiers"): a full district is scored, emptied and closed.

The winner of an auction in a full district may order it (and must, holding no skyscraper
there); Gédéon orders it when he wins with no free plot. Afterwards the district no longer
exists: pawns skip it, no shop, skyscraper or auction goes there, and its expertise tokens
go back to Start. The second building stop ends the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import Event, event
from . import board, scoring
from . import material as m

if TYPE_CHECKING:
    from .rules import FifthAvenueState

Events = list[Event]


def order(state: FifthAvenueState, orderer: board.Owner) -> Events:
    """Rules FA-CLOSURE-SCORE, FA-CLOSURE-REMOVE, FA-END-CLOSURE: close the district auctioned."""
    venue = state.running_auction()["venues"][0]
    index = m.DISTRICT_INDEX[venue]
    district = state.districts[index]
    points = scoring.closure_points(state, index, orderer)
    for seat, earned in enumerate(points):
        if earned:
            scoring.gain(state, seat, earned, "closures")
    removed = [0] * state.seats
    removed_gedeon = 0
    for plot in district["plots"]:
        owner = plot["owner"]
        if plot["count"] and owner == board.GEDEON:
            state.gedeon_skyscrapers()["boxed"] += plot["count"]
            removed_gedeon += plot["count"]
        elif plot["count"]:
            assert isinstance(owner, int)  # skyscrapers have an owner, here a seat
            state.players[owner]["boxed"] += plot["count"]
            removed[owner] += plot["count"]
        state.boxed_tiles.extend(plot["shops"])
        plot.update(board.new_plot())
    district["closed"] = True
    state.closed_order.append(venue)
    returned = [pawn for pawn in m.PAWNS if venue in state.expertise[pawn]]
    for pawn in returned:
        state.expertise[pawn].remove(venue)
    events = [
        event(
            "building_stop",
            venue=venue,
            orderer=orderer,
            points=points,
            skyscrapers_removed=removed,
            gedeon_skyscrapers_removed=removed_gedeon,
            tokens_returned=returned,
            signs_left=m.CLOSURE_SIGNS - len(state.closed_order),
        )
    ]
    if len(state.closed_order) >= m.CLOSURE_SIGNS:
        events += state.end_game("second_building_stop")
    return events
