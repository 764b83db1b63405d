"""The moves Wettstreit's tree search considers below its root (``Game.search_moves``).

A bid may exceed what the bidder holds (money is behind the screen), but a bid that wins
above one's money forfeits all of it (WB-AUCTION-DEFAULT), and raises far above the last
bid pay more than needed. Uniform choice among the 40-odd amounts up to the table's
ceiling made the search's imagined rivals (and its own later bids) jump at random: its
rollouts sold cards at prices no one pays, and the more it searched the further it drifted
from the greedy bot's ranking, which plays better (bench/RESULTS.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .rules import WettstreitState

RAISE_WINDOW = 1  # raise by one écu or drop out, as in an open auction


def search_moves(state: WettstreitState, seat: int, moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if state.auction is None or state.to_act() != [seat]:
        return moves
    high = state.high_bid()
    money = state.players[seat]["money"]
    kept = []
    for move in moves:
        if move["type"] != "bid":
            kept.append(move)
        elif move["amount"] <= min(money, high + RAISE_WINDOW):
            kept.append(move)
    if not any(move["type"] == "bid" for move in kept) and not state.auction["bids"]:
        kept.append(moves[0])  # the auctioneer must open, even with nothing to pay
    return kept
