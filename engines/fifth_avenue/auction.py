"""Auctions: when a commission pawn goes from Central Park back to Start.

Every district holding an expertise token of that pawn's colour is auctioned, nearest Start
first, then Central Park (rule FA-AUCTION-VENUES). Bidding goes round the table from the
player who moved the pawn, one seat at a time. A seat's turn is a few short steps: add a
card (kept private, the *draft*), add another, then ``bid`` to lay them all face up, or
``pass`` (rules FA-AUCTION-RAISE, FA-AUCTION-PASS). The winner then builds or orders a
building stop (``build`` / ``close_district``).

``state.auction`` (plain JSON, ``Auction``) holds the auctions of one pawn's return, and
the one going on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from ..core import Event, Move, event
from . import board, building_stop, gedeon, piles
from . import material as m

if TYPE_CHECKING:
    from .rules import FifthAvenueState

Events = list[Event]
PARK = m.CENTRAL_PARK


class GedeonBid(TypedDict):
    cards: list[str]
    value: int
    acted: bool


class Award(TypedDict):
    """What the winner may do (rules FA-AUCTION-BUILD, FA-CLOSURE-WHEN, FA-PARK-BUILD)."""

    seat: int
    colour: str
    limit: int  # skyscrapers at most
    plot: int | None  # its index in the district; None in Central Park
    close: str  # a building stop: "no", "may" or "must"


class Auction(TypedDict):
    pawn: str
    starter: int
    venues: list[str]  # still to come, the current one first
    # Set when each venue's auction opens (_open):
    allowed: NotRequired[list[list[str]]]  # per seat, the colours its first card may have
    turn: NotRequired[int]
    bids: NotRequired[list[list[str]]]  # cards per seat, face up
    draft: NotRequired[list[list[str]]]  # cards per seat, chosen but not yet bid (private)
    colours: NotRequired[list[str | None]]  # the colour each seat bids
    passed: NotRequired[list[bool]]
    acted: NotRequired[list[bool]]
    high: NotRequired[board.Owner | None]
    value: NotRequired[int]
    park_colour: NotRequired[str | None]
    gedeon: NotRequired[GedeonBid | None]  # two players: his cards and bid
    award: NotRequired[Award | None]  # the winner's decision


def start(state: FifthAvenueState, pawn: str, starter: int) -> Events:
    """The pawn is back at Start: the turn stops and the auctions begin."""
    venues = board.auction_order(state.expertise[pawn]) + [PARK]
    state.auction = {"pawn": pawn, "starter": starter, "venues": venues}
    state.phase = "bid"
    return [event("auctions_started", pawn=pawn, starter=starter, venues=list(venues))] + _open(state)


def _open(state: FifthAvenueState) -> Events:
    a = state.running_auction()
    n = state.seats
    venue = a["venues"][0]
    a.update(
        {
            "allowed": [allowed_colours(state, venue, seat) for seat in range(n)],
            "turn": a["starter"],
            "bids": [[] for _ in range(n)],
            "draft": [[] for _ in range(n)],
            "colours": [None] * n,
            "passed": [False] * n,
            "acted": [False] * n,
            "high": None,
            "value": 0,
            "park_colour": None,
            "gedeon": {"cards": [], "value": 0, "acted": False} if state.gedeon is not None else None,
            "award": None,
        }
    )
    state.phase = "bid"
    return [event("auction_opened", venue=venue, allowed=[list(c) for c in a["allowed"]])]


def allowed_colours(state: FifthAvenueState, venue: str, seat: int) -> list[str]:
    """Rule FA-AUCTION-COLOUR: the colours a seat's first card may have in this auction.

    (1) A seat with skyscrapers in the district bids for its own plot only; (2) otherwise any
    free plot; (3) with no free plot left, a plot holding shops, to order a building stop —
    never a plot with another player's skyscrapers. In Central Park any colour, until the
    first card bid fixes it for everyone (rule FA-PARK-AUCTION).
    """
    if venue == PARK:
        return list(m.COLOURS)
    index = m.DISTRICT_INDEX[venue]
    plots = state.districts[index]["plots"]
    ring = state.rings[index]
    own = board.plot_of(plots, seat)
    if own is not None:
        return [ring[own]]
    free = [ring[i] for i, plot in enumerate(plots) if board.is_free(plot)]
    if free:
        return _in_colour_order(free)
    return _in_colour_order(ring[i] for i, plot in enumerate(plots) if plot["shops"] and ring[i] != m.SIXTH)


def _in_colour_order(colours: Any) -> list[str]:
    chosen = set(colours)
    return [c for c in m.COLOURS if c in chosen]


def bid_colour(state: FifthAvenueState, seat: int) -> str | None:
    """The colour this seat's bid follows (its first card), or None before its first card."""
    a = state.running_auction()
    if a["colours"][seat]:
        return a["colours"][seat]
    draft = a["draft"][seat]
    return m.CARD_KIND[draft[0]] if draft else None


def first_card_colours(state: FifthAvenueState, seat: int) -> list[str]:
    a = state.running_auction()
    if a["venues"][0] == PARK and a["park_colour"]:
        return [a["park_colour"]]
    return a["allowed"][seat]


def total(cards: list[str]) -> int:
    return sum(m.CARD_VALUE[c] for c in cards)


def moves(state: FifthAvenueState, seat: int) -> list[Move]:
    a = state.running_auction()
    if a["award"] is not None:
        return award_moves(state)
    draft = a["draft"][seat]
    available = list(state.players[seat]["hand"])
    for card in draft:
        available.remove(card)
    colour = bid_colour(state, seat)
    kinds = first_card_colours(state, seat) if colour is None else [colour, m.BLACK]
    out: list[Move] = [
        {"type": "add_card", "card": card}
        for card in sorted(set(available), key=_card_order)
        if m.CARD_KIND[card] in kinds
    ]
    if draft and total(a["bids"][seat]) + total(draft) > a["value"]:
        out.append({"type": "bid"})
    out.append({"type": "pass"})
    return out


def _card_order(card: str) -> tuple[int, int]:
    return (m.KINDS.index(m.CARD_KIND[card]), m.CARD_VALUE[card])


def add_card(state: FifthAvenueState, seat: int, card: str) -> Events:
    """Put one more card in the draft; only the seat sees it until the bid."""
    state.running_auction()["draft"][seat].append(card)
    return []


def bid(state: FifthAvenueState, seat: int) -> Events:
    """Lay the draft face up beside the cards already bid (rule FA-AUCTION-RAISE)."""
    a = state.running_auction()
    player = state.players[seat]
    cards = a["draft"][seat]
    a["draft"][seat] = []
    for card in cards:
        piles.remove(player, card)
    a["bids"][seat].extend(cards)
    if a["colours"][seat] is None:
        a["colours"][seat] = m.CARD_KIND[cards[0]]
        if a["venues"][0] == PARK and a["park_colour"] is None:
            a["park_colour"] = a["colours"][seat]
    a["high"], a["value"] = seat, total(a["bids"][seat])
    a["acted"][seat] = True
    events = [
        event("bid", seat=seat, cards=list(cards), colour=a["colours"][seat], total=a["value"]),
    ]
    return events + _next(state, seat)


def pass_turn(state: FifthAvenueState, seat: int) -> Events:
    """Rule FA-AUCTION-PASS: out of this auction, taking back every card bid."""
    a = state.running_auction()
    player = state.players[seat]
    returned = a["bids"][seat]
    for card in returned:
        piles.give(player, card, seen=True)
    a["bids"][seat], a["draft"][seat] = [], []
    a["passed"][seat] = a["acted"][seat] = True
    return [event("passed", seat=seat, cards_taken_back=list(returned))] + _next(state, seat)


def _next(state: FifthAvenueState, last: int) -> Events:
    """After a bid or a pass: Gédéon's turn, the end of the auction, or the next seat."""
    a = state.running_auction()
    events: Events = []
    g = a["gedeon"]
    if g is not None and not g["acted"] and all(a["acted"]):
        events += gedeon.bid(state)
    if g is not None and not g["acted"]:
        waiting = True  # Gédéon always bids third, so nothing ends before him
    else:
        waiting = any(not a["passed"][s] and s != a["high"] for s in range(state.seats))
    if waiting:
        a["turn"] = _next_bidder(state, last)
        return events
    return events + _close_bidding(state)


def _next_bidder(state: FifthAvenueState, last: int) -> int:
    a = state.running_auction()
    for offset in range(1, state.seats + 1):
        seat = (last + offset) % state.seats
        if not a["passed"][seat] and seat != a["high"]:
            return seat
    raise AssertionError("no one left to bid")  # _next only asks when someone is waiting


def _close_bidding(state: FifthAvenueState) -> Events:
    """Rules FA-AUCTION-END, FA-AUCTION-DISCARD: the winner pays, or the auction is cancelled."""
    a = state.running_auction()
    venue = a["venues"][0]
    events: Events = []
    if a["gedeon"] is not None:
        events += gedeon.return_cards(state)
    winner = a["high"]
    if winner is None:
        events.append(event("auction_cancelled", venue=venue))
        return events + finish_venue(state)
    if winner == board.GEDEON:
        events.append(event("auction_won", venue=venue, winner=board.GEDEON, total=a["value"]))
        events += gedeon.build(state, venue)
        if state.phase == "over":
            return events
        return events + finish_venue(state)
    cards = a["bids"][winner]
    a["bids"][winner] = []
    colour = a["colours"][winner]
    assert colour is not None  # the winner bid, in a colour
    limit = min(m.SKYSCRAPERS_ON_CARD[m.CARD_VALUE[c]] for c in cards)
    for card in cards:
        kind = m.CARD_KIND[card]
        if kind == m.BLACK:
            state.black_pile["known"].append([card, True])
        else:
            state.colour_piles[kind]["known"].append(card)
    events.append(
        event("auction_won", venue=venue, winner=winner, total=a["value"], cards=list(cards), colour=colour)
    )
    events += state.settle_black()
    a["award"] = _award(state, venue, winner, colour, limit)
    a["turn"] = winner
    state.phase = "build"
    return events


def _award(state: FifthAvenueState, venue: str, seat: int, colour: str, limit: int) -> Award:
    """What the winner may do (rules FA-AUCTION-BUILD, FA-CLOSURE-WHEN, FA-PARK-BUILD)."""
    if venue == PARK:
        return {"seat": seat, "colour": colour, "limit": limit, "plot": None, "close": "no"}
    index = m.DISTRICT_INDEX[venue]
    plots = state.districts[index]["plots"]
    plot = state.rings[index].index(colour)
    if plots[plot]["count"]:  # its own plot (situation 1)
        close = "may" if board.is_full(plots) else "no"
    elif board.is_free(plots[plot]):  # situation 2
        close = "no"
    else:  # a plot of shops (situation 3): the building stop is compulsory
        close = "must"
    return {"seat": seat, "colour": colour, "limit": limit, "plot": plot, "close": close}


def won_award(state: FifthAvenueState) -> Award:
    """What the winner of the auction going on may do (phase build)."""
    award = state.running_auction()["award"]
    assert award is not None, "the auction is not won yet"
    return award


def award_moves(state: FifthAvenueState) -> list[Move]:
    award = won_award(state)
    out: list[Move] = []
    if award["close"] != "must":
        most = min(award["limit"], state.players[award["seat"]]["reserve"])
        out = [{"type": "build", "count": k} for k in range(most + 1)]
    if award["close"] != "no":
        out.append({"type": "close_district"})
    return out


def build(state: FifthAvenueState, seat: int, count: int) -> Events:
    a = state.running_auction()
    award = won_award(state)
    venue = a["venues"][0]
    player = state.players[seat]
    player["reserve"] -= count
    if venue == PARK:
        player["park"] += count
    elif count:
        assert award["plot"] is not None  # a district's award names its plot
        plot = state.districts[m.DISTRICT_INDEX[venue]]["plots"][award["plot"]]
        plot["owner"] = seat
        plot["count"] += count
    plot_id = None if award["plot"] is None else state.rings[m.DISTRICT_INDEX[venue]][award["plot"]]
    events = [event("skyscrapers_built", seat=seat, venue=venue, plot=plot_id, count=count)]
    return events + finish_venue(state)


def order_closure(state: FifthAvenueState, seat: int) -> Events:
    """The winner orders the building stop, then the auctions go on (unless the game ended)."""
    events = building_stop.order(state, seat)
    if state.phase == "over":
        return events
    return events + finish_venue(state)


def finish_venue(state: FifthAvenueState) -> Events:
    """Rule FA-AUCTION-TOKEN: the token goes back to Start; on to the next venue or back to play."""
    a = state.running_auction()
    venue = a["venues"].pop(0)
    pawn = a["pawn"]
    events: Events = []
    if venue in state.expertise[pawn]:
        state.expertise[pawn].remove(venue)
        events.append(event("expertise_returned", pawn=pawn, district=venue))
    if a["venues"]:
        return events + _open(state)
    state.auction = None
    events.append(event("auctions_ended", pawn=pawn))
    return events + state.resume_turn()
