"""Why a move is refused: a stable code naming the rule, and an English sentence."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import IllegalMove, InvalidMove
from . import auction, board
from . import material as m

if TYPE_CHECKING:
    from .rules import FifthAvenueState

# The phase each move type belongs to, and its fields.
PHASE_OF = {
    "place_initial_shop": "initial_shop",
    "place_initial_skyscraper": "initial_skyscraper",
    "choose_action": "choose_action",
    "place_shop": "place_shop",
    "score_district": "score_district",
    "move_commission": "move_commission",
    "take_card": "take_cards",
    "add_card": "bid",
    "bid": "bid",
    "pass": "bid",
    "build": "build",
    "close_district": "build",
}
FIELDS = {
    "place_initial_shop": {"district", "plot"},
    "place_initial_skyscraper": {"district", "plot"},
    "choose_action": {"action"},
    "place_shop": {"shop", "district", "plot"},
    "score_district": {"district"},
    "move_commission": {"pawn", "to"},
    "take_card": {"colour"},
    "add_card": {"card"},
    "bid": set(),
    "pass": set(),
    "build": {"count"},
    "close_district": set(),
}
WAITING_FOR = {
    "initial_shop": "an initial shop to be placed",
    "initial_skyscraper": "an initial skyscraper to be placed",
    "choose_action": "the choice of an action, A to D",
    "place_shop": "the shop of action B to be placed",
    "score_district": "the district of action D to be chosen",
    "move_commission": "a commission pawn to be moved",
    "take_cards": "colour cards to be taken",
    "bid": "a bid or a pass in the auction",
    "build": "the auction's winner to build or order a building stop",
    "over": "nothing: the game is over",
}


def explain(state: FifthAvenueState, seat: int, move: dict[str, Any]) -> IllegalMove:
    kind = move["type"]
    if state.phase != PHASE_OF[kind]:
        return IllegalMove(
            "not_now", f"A {kind} move is not possible now; the game waits for {WAITING_FOR[state.phase]}."
        )
    fields = FIELDS[kind]
    if set(move) != fields | {"type"}:
        named = ", ".join(sorted(fields)) or "no other field"
        return InvalidMove("malformed_move", f"A {kind} move has exactly these fields: {named}.")
    for key in fields:
        want = int if key == "count" else str
        value = move[key]
        if not isinstance(value, want) or isinstance(value, bool):
            return InvalidMove(
                "malformed_move", f"The field {key!r} of a {kind} move must be a {want.__name__}."
            )
    handler = _HANDLERS.get(kind)
    found = handler(state, seat, move) if handler else None
    return found or IllegalMove("illegal_move", f"That {kind} move is not legal now.")


def _where(state: FifthAvenueState, move: dict[str, Any]) -> tuple[int, int] | IllegalMove:
    district = move["district"]
    if district not in m.DISTRICT_INDEX:
        return IllegalMove(
            "no_such_district", f"There is no district {district!r}; see the view's districts."
        )
    d = m.DISTRICT_INDEX[district]
    if move["plot"] not in state.rings[d]:
        return IllegalMove("no_such_plot", f"{m.DISTRICT_NAMES[district]} has no {move['plot']!r} plot.")
    return d, state.rings[d].index(move["plot"])


def _initial_shop(state: FifthAvenueState, seat: int, move: dict[str, Any]) -> IllegalMove | None:
    where = _where(state, move)
    if isinstance(where, IllegalMove):
        return where
    d, _ = where
    if any(p["shops"] for p in state.districts[d]["plots"]):
        return IllegalMove("one_shop_per_district", "Each district receives exactly one initial shop.")
    if state.options["six_plot_board"]:
        return IllegalMove("sixth_plot_only", "On the six-plot side the initial shop goes on the sixth plot.")
    if move["plot"] == m.SIXTH:
        return IllegalMove("no_such_plot", "The five-plot side has no sixth plot.")
    if state.initial_shop_colours()[move["plot"]] >= m.INITIAL_SHOPS_PER_COLOUR_MAX:
        return IllegalMove(
            "two_shops_per_colour", "At most two initial shops may stand on plots of one colour."
        )
    return IllegalMove(
        "every_colour_needed", "The initial shops must cover every plot colour; this would leave one out."
    )


def _initial_skyscraper(state: FifthAvenueState, seat: int, move: dict[str, Any]) -> IllegalMove | None:
    where = _where(state, move)
    if isinstance(where, IllegalMove):
        return where
    d, i = where
    plots = state.districts[d]["plots"]
    if not board.is_free(plots[i]):
        return IllegalMove(
            "plot_not_free", "An initial skyscraper goes on a free plot (no shop, no skyscraper)."
        )
    return IllegalMove("one_plot_per_district", "A player builds on a single plot in each district.")


def _choose_action(state: FifthAvenueState, seat: int, move: dict[str, Any]) -> IllegalMove | None:
    action = move["action"]
    if action not in ("A", "B", "C", "D"):
        return IllegalMove("no_such_action", "The actions are A, B, C and D.")
    if action == "B":
        return IllegalMove("no_shop_placement", "Action B needs a shop tile and a plot that can take it.")
    return IllegalMove(
        "no_commission_in_district", "Action D scores a district holding a commission pawn; none is in one."
    )


def _place_shop(state: FifthAvenueState, seat: int, move: dict[str, Any]) -> IllegalMove | None:
    if move["shop"] not in m.SHOPS:
        return IllegalMove("no_such_shop", f"The shops are {', '.join(m.SHOPS)}.")
    if move["shop"] not in (state.active_block() or []):
        return IllegalMove(
            "shop_not_in_active_block", "Take a shop of the active block (the leftmost non-empty)."
        )
    where = _where(state, move)
    if isinstance(where, IllegalMove):
        return where
    d, i = where
    plot = state.districts[d]["plots"][i]
    if state.districts[d]["closed"]:
        return IllegalMove("district_closed", "A district under building stop takes nothing any more.")
    if plot["count"]:
        return IllegalMove("skyscrapers_on_plot", "Shops and skyscrapers never share a plot.")
    return IllegalMove("plot_full_of_shops", "A plot holds at most two shops.")


def _score_district(state: FifthAvenueState, seat: int, move: dict[str, Any]) -> IllegalMove | None:
    district = move["district"]
    if district not in m.DISTRICT_INDEX:
        return IllegalMove("no_such_district", f"There is no district {district!r}.")
    if district in state.closed_order:
        return IllegalMove("district_closed", "A district under building stop is never scored again.")
    return IllegalMove(
        "no_commission_in_district", "Only a district holding a commission pawn may be scored."
    )


def _move_commission(state: FifthAvenueState, seat: int, move: dict[str, Any]) -> IllegalMove | None:
    if move["pawn"] not in m.PAWNS:
        return IllegalMove("no_such_pawn", "The commission pawns are white and beige.")
    to = move["to"]
    if to not in m.PATHS:
        return IllegalMove("no_such_place", f"{to!r} is not Start, a district or Central Park.")
    if to in state.closed_order:
        return IllegalMove("district_closed", "A pawn skips a district under building stop.")
    return IllegalMove(
        "not_on_commission_path",
        "A pawn moves to the next district on its way (left to right), to Central Park from the last "
        "district, or from Central Park back to Start.",
    )


def _take_card(state: FifthAvenueState, seat: int, move: dict[str, Any]) -> IllegalMove | None:
    colour = move["colour"]
    if colour == m.BLACK:
        return IllegalMove(
            "colour_cards_only", "Phase 2 of actions A to C takes colour cards, not black ones."
        )
    if colour not in m.COLOURS:
        return IllegalMove("no_such_colour", f"The colours are {', '.join(m.COLOURS)}.")
    if colour in state.turn["taken"]:
        return IllegalMove("different_colours", "The two colour cards must be of different colours.")
    return IllegalMove("colour_pile_empty", f"The {colour} pile is empty.")


def _add_card(state: FifthAvenueState, seat: int, move: dict[str, Any]) -> IllegalMove | None:
    card = move["card"]
    if card not in m.CARD_KIND:
        return IllegalMove("no_such_card", f"{card!r} is not a construction card (e.g. 'grey-4', 'black-6').")
    available = list(state.players[seat]["hand"])
    for drafted in state.running_auction()["draft"][seat]:
        available.remove(drafted)
    if card not in available:
        return IllegalMove("card_not_in_hand", f"You hold no {card} you have not already added.")
    colour = auction.bid_colour(state, seat)
    kind = m.CARD_KIND[card]
    if colour is None and kind == m.BLACK:
        return IllegalMove(
            "first_card_coloured", "The first card of a bid is a colour card; black cards follow."
        )
    if colour is None:
        allowed = auction.first_card_colours(state, seat)
        if state.running_auction()["venues"][0] == m.CENTRAL_PARK:
            return IllegalMove(
                "park_colour_fixed",
                f"In Central Park everyone bids the colour of the first card: {allowed[0]}.",
            )
        if not allowed:
            return IllegalMove(
                "no_plot_to_bid_for",
                "No plot here is open to you: you hold none, none is free, none has shops.",
            )
        return IllegalMove(
            "colour_not_allowed",
            f"Here you may only bid {', '.join(allowed)}: your own plot, else a free plot, "
            "else a plot of shops.",
        )
    return IllegalMove("must_follow_colour", f"Add only {colour} or black cards to a {colour} bid.")


def _bid(state: FifthAvenueState, seat: int, move: dict[str, Any]) -> IllegalMove | None:
    a = state.running_auction()
    if not a["draft"][seat]:
        return IllegalMove("nothing_added", "Add cards (add_card) before bidding; a raise only adds cards.")
    return IllegalMove(
        "bid_too_low", f"A bid must total more than the best bid so far ({a['value']}); add more cards."
    )


def _build(state: FifthAvenueState, seat: int, move: dict[str, Any]) -> IllegalMove | None:
    award = auction.won_award(state)
    count = move["count"]
    if award["close"] == "must":
        return IllegalMove(
            "must_close_district",
            "With no skyscraper in this full district, the winner must order a building stop.",
        )
    if count < 0:
        return IllegalMove("negative_count", "The number of skyscrapers to build is 0 or more.")
    if count > award["limit"]:
        return IllegalMove(
            "card_limit",
            f"Your highest card allows {award['limit']} skyscraper(s) (a 6: 1, a 5: 2, only 4s: 3).",
        )
    return IllegalMove("not_enough_skyscrapers", "You build only from your personal reserve.")


def _close_district(state: FifthAvenueState, seat: int, move: dict[str, Any]) -> IllegalMove | None:
    if state.running_auction()["venues"][0] == m.CENTRAL_PARK:
        return IllegalMove("park_never_closed", "Central Park is never closed to building.")
    return IllegalMove(
        "district_not_full",
        "A building stop can be ordered only where every plot holds skyscrapers or shops.",
    )


_HANDLERS = {
    "place_initial_shop": _initial_shop,
    "place_initial_skyscraper": _initial_skyscraper,
    "choose_action": _choose_action,
    "place_shop": _place_shop,
    "score_district": _score_district,
    "move_commission": _move_commission,
    "take_card": _take_card,
    "add_card": _add_card,
    "bid": _bid,
    "build": _build,
    "close_district": _close_district,
}
