"""How good a Fifth Avenue position looks for one seat (the greedy bot and ISMCTS's judge).

Points now, plus what the rulebook will still pay for what the seat holds:

- a skyscraper on a plot scores its plot's points (FA-DISTRICT-SCORE) at the end and often
  once before by action D; one beside Central Park 2–5 points (FA-PARK-SCORE);
- the special scorings still to come (FA-SHOP-SPECIAL: 4, 6, 8 points for skyscrapers in
  3, 4, 5 districts) are counted in full where the seat already qualifies and in part where
  it lacks districts, so spreading out is worth something before the shop that triggers them;
- in a running auction, the seat that leads has as good as paid its cards and will build
  what they allow on its plot (FA-AUCTION-BUILD: as many skyscrapers as its card with the
  fewest shows, from its reserve); a seat that does not lead still holds its cards. The old
  evaluate priced leading at a flat +2 and bid cards as still in hand, so its greedy bot
  raised with any cards at any price and was even with random (55 %).

The worths are in points; their sizes are rough measures (bench/RESULTS.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import board
from . import material as m
from .auction import total
from .scoring import districts_with_skyscrapers

if TYPE_CHECKING:
    from .rules import FifthAvenueState

FUTURE_SCORINGS = 1.5  # the final scoring, and often an action D before it
PARK_SKYSCRAPER = 3.0  # 2, 3 or 5 points at the end
RESERVE_SKYSCRAPER = 0.8  # ready to build after an auction
COLOUR_CARD_PER_POINT = 0.12  # cards buy skyscrapers; colour cards name plots
BLACK_CARD_PER_POINT = 0.08  # black cards only add value
LEAD_HOLDS = 0.8  # a lead with rivals still to answer is usually, not always, kept
SPECIAL_SHORTFALL = 0.4  # share of a special scoring kept per district still missing
SCORER_BLACK_CARDS = 2 * BLACK_CARD_PER_POINT * 5  # two black cards of about 5


def card_worth(card: str) -> float:
    per_point = BLACK_CARD_PER_POINT if m.CARD_KIND[card] == m.BLACK else COLOUR_CARD_PER_POINT
    return per_point * m.CARD_VALUE[card]


def promise(state: FifthAvenueState, seat: int) -> float:
    """Points now, plus what the seat's skyscrapers, reserve, cards and auction promise."""
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
                value += FUTURE_SCORINGS * plot["count"] * board.plot_points(plots, index)
    value += PARK_SKYSCRAPER * player["park"]
    value += RESERVE_SKYSCRAPER * player["reserve"]
    value += _special_scorings_to_come(state, seat)
    value += sum(card_worth(card) for card in player["hand"])
    value += _auction_worth(state, seat)
    return value


def _special_scorings_to_come(state: FifthAvenueState, seat: int, more: int = 0) -> float:
    present = districts_with_skyscrapers(state, seat) + more
    worth = 0.0
    for shops, (needed, reward) in m.SPECIAL_SCORINGS.items():
        if state.shops_placed < shops:
            worth += reward * SPECIAL_SHORTFALL ** max(needed - present, 0)
    return worth


def _auction_worth(state: FifthAvenueState, seat: int) -> float:
    """Cards in a running auction. A seat whose cards (bid, and drafted to bid) top the best
    bid is as good as spending them on what it will build; the others' cards are still its
    own (a pass takes them back, a draft never bid stays in hand). Judging the draft as the
    bid it would make lets one ply see which card to add: a 6 allows one skyscraper, 4s three."""
    auction = state.auction
    if auction is None or "bids" not in auction or auction["award"] is not None:
        return 0.0
    cards = auction["bids"][seat] + auction["draft"][seat]
    in_hand = sum(card_worth(card) for card in cards)
    leads = auction["high"] == seat or (auction["draft"][seat] and total(cards) > auction["value"])
    if not leads:
        return in_hand
    colour = auction["colours"][seat] or m.CARD_KIND[cards[0]]
    limit = min(m.SKYSCRAPERS_ON_CARD[m.CARD_VALUE[card]] for card in cards)
    building = _build_worth(state, seat, colour, limit)
    return LEAD_HOLDS * building + (1 - LEAD_HOLDS) * in_hand


def _build_worth(state: FifthAvenueState, seat: int, colour: str, limit: int) -> float:
    """What winning the current venue with this colour and card limit adds (FA-AUCTION-BUILD)."""
    count = min(limit, state.players[seat]["reserve"])
    venue = state.running_auction()["venues"][0]
    if venue == m.CENTRAL_PARK:
        return count * (PARK_SKYSCRAPER - RESERVE_SKYSCRAPER)
    index = m.DISTRICT_INDEX[venue]
    plots = state.districts[index]["plots"]
    plot = state.rings[index].index(colour)
    if not plots[plot]["count"] and not board.is_free(plots[plot]):
        return 0.0  # a plot of shops: a building stop (scored when ordered), nothing built
    per_skyscraper = FUTURE_SCORINGS * board.plot_points(plots, plot) - RESERVE_SKYSCRAPER
    worth = count * max(per_skyscraper, 0.0)
    if count and not plots[plot]["count"]:  # a new district for the special scorings
        worth += _special_scorings_to_come(state, seat, 1) - _special_scorings_to_come(state, seat)
    return worth


def evaluate(state: FifthAvenueState, seat: int) -> float:
    """The seat's promise against the best opponent's: higher is better for ``seat``.

    An action chosen but not yet played (B's shop, D's district) counts as its best choice
    for the player who chose it; else one ply sees only A's skyscrapers and C's card and
    never places a shop or scores a district.
    """
    return evaluate_seats(state)[seat]


def evaluate_seats(state: FifthAvenueState) -> list[float]:
    """``evaluate`` of every seat: the promises and the chosen action are the same for all."""
    promises = [promise(state, s) for s in range(state.seats)]
    options = _chosen_action_options(state)
    if options:
        actor = state.current
        after = [[p + d for p, d in zip(promises, deltas, strict=True)] for deltas in options]
        promises = max(after, key=lambda values: _margin(values, actor))
    return [_margin(promises, seat) for seat in range(state.seats)]


def _margin(promises: list[float], seat: int) -> float:
    return promises[seat] - max(p for s, p in enumerate(promises) if s != seat)


def _chosen_action_options(state: FifthAvenueState) -> list[list[float]]:
    """Per option of the chosen action, what it adds to each seat's promise."""
    if state.phase == "score_district":
        return [_scoring_deltas(state, district) for district in state.scorable_districts()]
    if state.phase == "place_shop":
        block = state.active_block() or []
        return [
            _shop_deltas(state, d, i, shop) for shop in sorted(set(block)) for d, i in state._shop_plots()
        ]
    return []


def _scoring_deltas(state: FifthAvenueState, district: str) -> list[float]:
    """Action D: the district's points now, and the scorer's two black cards (FA-PHASE2-BLACK)."""
    points = board.district_points(state.districts[m.DISTRICT_INDEX[district]]["plots"], state.seats)
    deltas = [float(p) for p in points]
    deltas[state.current] += SCORER_BLACK_CARDS
    return deltas


def _shop_deltas(state: FifthAvenueState, d: int, index: int, shop: str) -> list[float]:
    """Action B: the skyscrapers beside the plot earn more in every scoring to come."""
    plots = state.districts[d]["plots"]
    deltas = [0.0] * state.seats
    for neighbour in set(board.neighbours(len(plots), index)):
        plot = plots[neighbour]
        owner = plot["owner"]
        if not plot["count"] or owner is None or owner == board.GEDEON:
            continue
        before = board.plot_points(plots, neighbour)
        plots[index]["shops"].append(shop)
        after = board.plot_points(plots, neighbour)
        plots[index]["shops"].pop()
        deltas[owner] += FUTURE_SCORINGS * plot["count"] * (after - before)
    return deltas
