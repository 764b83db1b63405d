"""The blind auction of a retailer (rules FF-AUCTION, FF-AUCTION-TIE).

Every bidder seals an amount (0 allowed, at most what they hold); all are revealed at once
and the highest wins. On a tie the bidder nearest clockwise from the drawer wins: the
drawer's left neighbour first, the drawer last. The revised rule says the drawer no longer
wins ties automatically, so the drawer is read as the farthest, not the nearest, seat.
Clockwise is ascending seat numbers, wrapping.
"""

from __future__ import annotations


def tie_order(drawer: int, seats: int) -> list[int]:
    """Seats from the drawer's left neighbour clockwise, the drawer last."""
    return [(drawer + step) % seats for step in range(1, seats + 1)]


def winner(bids: list[int | None], drawer: int) -> int:
    """The winning seat among those with a bid (``None``: not bidding)."""
    best = max(bid for bid in bids if bid is not None)
    for seat in tie_order(drawer, len(bids)):
        if bids[seat] == best:
            return seat
    raise ValueError("an auction needs at least one bid")
