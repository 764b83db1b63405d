"""Gédéon, the imaginary third bidder of the two-player game, played by the engine.

He takes part only in auctions (rule FA-GEDEON-ORDER): always third, after both players'
first turn, he bids once with black cards drawn face up until a value comes up twice
(FA-GEDEON-BID). He builds one skyscraper on each most profitable free plot, nothing in
Central Park, orders a building stop when no plot is free (FA-GEDEON-BUILD), and never
scores.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import Event, event
from . import board, building_stop, piles
from . import material as m

if TYPE_CHECKING:
    from .rules import FifthAvenueState

Events = list[Event]


def bid(state: FifthAvenueState) -> Events:
    """Draw black cards until one value repeats; their sum (8 to 21) is his one and only bid."""
    a = state.running_auction()
    g = a["gedeon"]
    assert g is not None  # he bids in the two-player game
    events: Events = []
    seen: set[int] = set()
    while True:
        drawn = piles.draw_black(state.black_pile)
        events += state.settle_black()
        if drawn is None:  # every black card is in a hand: he bids what he drew
            break
        card = drawn[0]
        g["cards"].append(card)
        value = m.CARD_VALUE[card]
        if value in seen:
            break
        seen.add(value)
    g["value"] = sum(m.CARD_VALUE[c] for c in g["cards"])
    g["acted"] = True
    # Rule FA-GEDEON-LOW / FA-GEDEON-HIGH: not above the best bid, he leaves the auction.
    leads = g["value"] > a["value"]
    if leads:
        a["high"], a["value"] = board.GEDEON, g["value"]
    return events + [event("gedeon_bid", cards=list(g["cards"]), total=g["value"], leads=leads)]


def return_cards(state: FifthAvenueState) -> Events:
    """Rule FA-GEDEON-CARDS: at the end of the auction his cards go face down under the black pile."""
    g = state.running_auction()["gedeon"]
    assert g is not None  # he bids in the two-player game
    if not g["cards"]:
        return []
    for card in g["cards"]:
        state.black_pile["known"].append([card, False])
    count = len(g["cards"])
    g["cards"] = []
    return [event("gedeon_cards_returned", count=count)] + state.settle_black()


def best_free_plots(plots: list[board.Plot]) -> list[int]:
    """The free plots a skyscraper would score most on in a normal scoring (all of them if tied)."""
    free = [i for i, plot in enumerate(plots) if board.is_free(plot)]
    if not free:
        return []
    best = max(board.plot_points(plots, i) for i in free)
    return [i for i in free if board.plot_points(plots, i) == best]


def build(state: FifthAvenueState, venue: str) -> Events:
    """Rule FA-GEDEON-BUILD: what Gédéon does with an auction he won."""
    if venue == m.CENTRAL_PARK:
        return [event("gedeon_builds", venue=venue, plots=[])]
    index = m.DISTRICT_INDEX[venue]
    plots = state.districts[index]["plots"]
    chosen = best_free_plots(plots)
    if not chosen:
        return building_stop.order(state, board.GEDEON)
    built = []
    for i in chosen:
        if state.gedeon_skyscrapers()["supply"] <= 0:
            break
        state.gedeon_skyscrapers()["supply"] -= 1
        plots[i]["owner"], plots[i]["count"] = board.GEDEON, 1
        built.append(state.rings[index][i])
    return [event("gedeon_builds", venue=venue, plots=built)]
