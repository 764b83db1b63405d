"""Why a move is refused: a stable code naming the rule, and a message (engines/core/messages.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import IllegalMove, InvalidMove, say
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


def explain(state: FifthAvenueState, seat: int, move: dict[str, Any]) -> IllegalMove:
    kind = move["type"]
    if state.phase != PHASE_OF[kind]:
        # What the phase waits for is the message fifth_avenue.waiting.<phase>.
        return IllegalMove(
            "not_now",
            say(
                "fifth_avenue.refusal.not_now", type=kind, waiting=say(f"fifth_avenue.waiting.{state.phase}")
            ),
        )
    fields = FIELDS[kind]
    if set(move) != fields | {"type"}:
        if not fields:
            return InvalidMove("malformed_move", say("fifth_avenue.refusal.no_other_field", type=kind))
        named = ", ".join(repr(name) for name in sorted(fields))  # codes, quoted as in every language
        return InvalidMove("malformed_move", say("fifth_avenue.refusal.fields", type=kind, fields=named))
    for key in fields:
        want = int if key == "count" else str
        value = move[key]
        if not isinstance(value, want) or isinstance(value, bool):
            return InvalidMove(
                "malformed_move",
                say(f"fifth_avenue.refusal.field_kind.{want.__name__}", field=repr(key), type=kind),
            )
    handler = _HANDLERS.get(kind)
    found = handler(state, seat, move) if handler else None
    return found or IllegalMove("illegal_move", say("fifth_avenue.refusal.illegal_move", type=kind))


def _where(state: FifthAvenueState, move: dict[str, Any]) -> tuple[int, int] | IllegalMove:
    district = move["district"]
    if district not in m.DISTRICT_INDEX:
        return IllegalMove(
            "no_such_district", say("fifth_avenue.refusal.no_such_district_see_view", district=repr(district))
        )
    d = m.DISTRICT_INDEX[district]
    if move["plot"] not in state.rings[d]:
        return IllegalMove(
            "no_such_plot",
            say(
                "fifth_avenue.refusal.no_such_plot",
                district=m.DISTRICT_NAMES[district],
                plot=repr(move["plot"]),
            ),
        )
    return d, state.rings[d].index(move["plot"])


def _initial_shop(state: FifthAvenueState, seat: int, move: dict[str, Any]) -> IllegalMove | None:
    where = _where(state, move)
    if isinstance(where, IllegalMove):
        return where
    d, _ = where
    if any(p["shops"] for p in state.districts[d]["plots"]):
        return IllegalMove("one_shop_per_district", say("fifth_avenue.refusal.one_shop_per_district"))
    if state.options["six_plot_board"]:
        return IllegalMove("sixth_plot_only", say("fifth_avenue.refusal.sixth_plot_only"))
    if move["plot"] == m.SIXTH:
        return IllegalMove("no_such_plot", say("fifth_avenue.refusal.no_sixth_plot"))
    if state.initial_shop_colours()[move["plot"]] >= m.INITIAL_SHOPS_PER_COLOUR_MAX:
        return IllegalMove("two_shops_per_colour", say("fifth_avenue.refusal.two_shops_per_colour"))
    return IllegalMove("every_colour_needed", say("fifth_avenue.refusal.every_colour_needed"))


def _initial_skyscraper(state: FifthAvenueState, seat: int, move: dict[str, Any]) -> IllegalMove | None:
    where = _where(state, move)
    if isinstance(where, IllegalMove):
        return where
    d, i = where
    plots = state.districts[d]["plots"]
    if not board.is_free(plots[i]):
        return IllegalMove("plot_not_free", say("fifth_avenue.refusal.plot_not_free"))
    return IllegalMove("one_plot_per_district", say("fifth_avenue.refusal.one_plot_per_district"))


def _choose_action(state: FifthAvenueState, seat: int, move: dict[str, Any]) -> IllegalMove | None:
    action = move["action"]
    if action not in ("A", "B", "C", "D"):
        return IllegalMove("no_such_action", say("fifth_avenue.refusal.no_such_action"))
    if action == "B":
        return IllegalMove("no_shop_placement", say("fifth_avenue.refusal.no_shop_placement"))
    return IllegalMove("no_commission_in_district", say("fifth_avenue.refusal.no_pawn_in_a_district"))


def _place_shop(state: FifthAvenueState, seat: int, move: dict[str, Any]) -> IllegalMove | None:
    if move["shop"] not in m.SHOPS:
        return IllegalMove("no_such_shop", say("fifth_avenue.refusal.no_such_shop", shops=", ".join(m.SHOPS)))
    if move["shop"] not in (state.active_block() or []):
        return IllegalMove("shop_not_in_active_block", say("fifth_avenue.refusal.shop_not_in_active_block"))
    where = _where(state, move)
    if isinstance(where, IllegalMove):
        return where
    d, i = where
    plot = state.districts[d]["plots"][i]
    if state.districts[d]["closed"]:
        return IllegalMove("district_closed", say("fifth_avenue.refusal.closed_takes_nothing"))
    if plot["count"]:
        return IllegalMove("skyscrapers_on_plot", say("fifth_avenue.refusal.skyscrapers_on_plot"))
    return IllegalMove("plot_full_of_shops", say("fifth_avenue.refusal.plot_full_of_shops"))


def _score_district(state: FifthAvenueState, seat: int, move: dict[str, Any]) -> IllegalMove | None:
    district = move["district"]
    if district not in m.DISTRICT_INDEX:
        return IllegalMove(
            "no_such_district", say("fifth_avenue.refusal.no_such_district", district=repr(district))
        )
    if district in state.closed_order:
        return IllegalMove("district_closed", say("fifth_avenue.refusal.closed_never_scored"))
    return IllegalMove("no_commission_in_district", say("fifth_avenue.refusal.no_commission_in_district"))


def _move_commission(state: FifthAvenueState, seat: int, move: dict[str, Any]) -> IllegalMove | None:
    if move["pawn"] not in m.PAWNS:
        return IllegalMove("no_such_pawn", say("fifth_avenue.refusal.no_such_pawn"))
    to = move["to"]
    if to not in m.PATHS:
        return IllegalMove("no_such_place", say("fifth_avenue.refusal.no_such_place", place=repr(to)))
    if to in state.closed_order:
        return IllegalMove("district_closed", say("fifth_avenue.refusal.pawn_skips_closed"))
    return IllegalMove("not_on_commission_path", say("fifth_avenue.refusal.not_on_commission_path"))


def _take_card(state: FifthAvenueState, seat: int, move: dict[str, Any]) -> IllegalMove | None:
    colour = move["colour"]
    if colour == m.BLACK:
        return IllegalMove("colour_cards_only", say("fifth_avenue.refusal.colour_cards_only"))
    if colour not in m.COLOURS:
        return IllegalMove(
            "no_such_colour", say("fifth_avenue.refusal.no_such_colour", colours=", ".join(m.COLOURS))
        )
    if colour in state.turn["taken"]:
        return IllegalMove("different_colours", say("fifth_avenue.refusal.different_colours"))
    return IllegalMove("colour_pile_empty", say(f"fifth_avenue.refusal.pile_empty.{colour}"))


def _add_card(state: FifthAvenueState, seat: int, move: dict[str, Any]) -> IllegalMove | None:
    card = move["card"]
    if card not in m.CARD_KIND:
        return IllegalMove("no_such_card", say("fifth_avenue.refusal.no_such_card", card=repr(card)))
    available = list(state.players[seat]["hand"])
    for drafted in state.running_auction()["draft"][seat]:
        available.remove(drafted)
    if card not in available:
        return IllegalMove(
            "card_not_in_hand", say("fifth_avenue.refusal.card_not_in_hand", card=m.card_text(card))
        )
    colour = auction.bid_colour(state, seat)
    kind = m.CARD_KIND[card]
    if colour is None and kind == m.BLACK:
        return IllegalMove("first_card_coloured", say("fifth_avenue.refusal.first_card_coloured"))
    if colour is None:
        allowed = auction.first_card_colours(state, seat)
        if state.running_auction()["venues"][0] == m.CENTRAL_PARK:
            return IllegalMove(
                "park_colour_fixed",
                say("fifth_avenue.refusal.park_colour_fixed", colour=m.colour_name(allowed[0])),
            )
        if not allowed:
            return IllegalMove("no_plot_to_bid_for", say("fifth_avenue.refusal.no_plot_to_bid_for"))
        return IllegalMove(
            "colour_not_allowed",
            say(
                "fifth_avenue.refusal.colour_not_allowed",
                colours=m.listed([m.colour_name(c) for c in allowed]),
            ),
        )
    return IllegalMove(
        "must_follow_colour", say("fifth_avenue.refusal.must_follow_colour", colour=m.colour_name(colour))
    )


def _bid(state: FifthAvenueState, seat: int, move: dict[str, Any]) -> IllegalMove | None:
    a = state.running_auction()
    if not a["draft"][seat]:
        return IllegalMove("nothing_added", say("fifth_avenue.refusal.nothing_added"))
    return IllegalMove("bid_too_low", say("fifth_avenue.refusal.bid_too_low", value=a["value"]))


def _build(state: FifthAvenueState, seat: int, move: dict[str, Any]) -> IllegalMove | None:
    award = auction.won_award(state)
    count = move["count"]
    if award["close"] == "must":
        return IllegalMove("must_close_district", say("fifth_avenue.refusal.must_close_district"))
    if count < 0:
        return IllegalMove("negative_count", say("fifth_avenue.refusal.negative_count"))
    if count > award["limit"]:
        return IllegalMove("card_limit", say("fifth_avenue.refusal.card_limit", count=award["limit"]))
    return IllegalMove("not_enough_skyscrapers", say("fifth_avenue.refusal.not_enough_skyscrapers"))


def _close_district(state: FifthAvenueState, seat: int, move: dict[str, Any]) -> IllegalMove | None:
    if state.running_auction()["venues"][0] == m.CENTRAL_PARK:
        return IllegalMove("park_never_closed", say("fifth_avenue.refusal.park_never_closed"))
    return IllegalMove("district_not_full", say("fifth_avenue.refusal.district_not_full"))


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
