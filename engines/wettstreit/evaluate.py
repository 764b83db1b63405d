"""How good a Wettstreit position looks for one seat (used by the greedy bot)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import city as c
from . import material as m

if TYPE_CHECKING:
    from .rules import WettstreitState

# Rough worth, in points, of what is not yet in a city: a card in hand is usually built
# later (until the end, when it costs its value); money buys cards at about two écus a
# point; a saboteur can take a building or a card from a rival.
HAND_SHARE = 0.5
POINTS_PER_ECU = 0.4
SABOTEUR_POINTS = 1.5
CORNER_TOWER_PROMISE = 2.0
TOWN_HALL_PROMISE = 3.0


def promise(state: WettstreitState, seat: int) -> float:
    """The seat's score now, plus what its hand, money, saboteurs and city layout promise."""
    player = state.players[seat]
    city = player["city"]
    if state.phase == "over" or state.end_triggered:
        scored = c.score(city, player["hand"])
        value = float(scored["total"])
        if state.phase != "over":
            # The final round still lets up to three cards out of the hand.
            best = sorted((m.VALUE[card] for card in player["hand"]), reverse=True)[: m.FINAL_ROUND_CARDS]
            value += 0.5 * sum(best)
        return value
    scored = c.score(city, [])
    value = float(scored["total"])
    value += HAND_SHARE * sum(m.VALUE[card] for card in player["hand"])
    value += POINTS_PER_ECU * player["money"] + SABOTEUR_POINTS * player["saboteurs"]
    if seat == state.current and state.pending:
        # Cards set out are as good as built (the build cannot be taken back).
        value += (1 - HAND_SHARE) * sum(m.VALUE[placed["card"]] for placed in state.pending)
    value += _auction_promise(state, seat)
    if not scored["complete"]:
        kinds = [m.KIND[card] for card in city if card is not None]
        value += CORNER_TOWER_PROMISE * sum(1 for kind in kinds if kind in m.CORNER_TOWERS)
        value += TOWN_HALL_PROMISE * (m.TOWN_HALL in kinds)
    return value


def _auction_promise(state: WettstreitState, seat: int) -> float:
    """What the running auction brings the seat if it closed now (defaults included)."""
    auction = state.auction
    if auction is None or not auction["bids"]:
        return 0.0
    defaulted: set[int] = set()
    outcome = 0.0
    for bidder, price in reversed(auction["bids"]):
        if bidder in defaulted:
            continue
        money = state.players[bidder]["money"]
        if money >= price:
            if bidder == seat:
                outcome += HAND_SHARE * m.VALUE[auction["card"]] - POINTS_PER_ECU * price
            elif seat == auction["auctioneer"]:
                outcome += POINTS_PER_ECU * (price // 2)
            break
        defaulted.add(bidder)
        if bidder == seat:
            outcome -= POINTS_PER_ECU * money  # who cannot pay loses all his money
    return outcome


def evaluate(state: WettstreitState, seat: int) -> float:
    """The seat's promise against the best rival's: higher is better for ``seat``."""
    return evaluate_seats(state)[seat]


def evaluate_seats(state: WettstreitState) -> list[float]:
    """``evaluate`` of every seat, each seat's promise worked out once."""
    promises = [promise(state, s) for s in range(state.seats)]
    return [
        own - max(p for s, p in enumerate(promises) if s != seat) if state.seats > 1 else own
        for seat, own in enumerate(promises)
    ]
