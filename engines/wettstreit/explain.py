"""Which rule refuses a move that is not listed: a stable code and an English sentence."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import IllegalMove, InvalidMove, Move
from . import city as c
from . import material as m
from . import rules as r

if TYPE_CHECKING:
    from .rules import WettstreitState

FIELDS = {
    "take_saboteur": ("from",),
    "auction": ("pile",),
    "bid": ("amount",),
    "pass": (),
    "build": ("card", "end"),
    "end_turn": (),
    "sabotage_city": ("target", "slot"),
    "sabotage_hand": ("target",),
    "pay_ransom": (),
    "refuse_ransom": (),
}

# The steps of the game in which each move type is played.
STEPS = {
    "take_saboteur": (r.TAKE_SABOTEUR,),
    "auction": (r.CHOOSE_PILE,),
    "bid": (r.BIDDING,),
    "pass": (r.BIDDING,),
    "build": (r.BUILD_OR_SABOTAGE, r.FINAL_BUILD),
    "end_turn": (r.BUILD_OR_SABOTAGE, r.FINAL_BUILD),
    "sabotage_city": (r.BUILD_OR_SABOTAGE,),
    "sabotage_hand": (r.BUILD_OR_SABOTAGE,),
    "pay_ransom": (r.RANSOM,),
    "refuse_ransom": (r.RANSOM,),
}

WAITING_FOR = {
    r.TAKE_SABOTEUR: (
        "choose_saboteur_first",
        "No saboteur is left in the centre: first choose whom to take one from.",
    ),
    r.CHOOSE_PILE: (
        "choose_pile_first",
        "First put a card up for auction, from the face-up or the face-down pile.",
    ),
    r.BIDDING: ("auction_in_progress", "An auction is running: bid higher or pass."),
    r.BUILD_OR_SABOTAGE: ("build_or_sabotage_now", "The auction is over: build, sabotage or end the turn."),
    r.RANSOM: (
        "ransom_decision_pending",
        "The saboteur was discovered: pay the building's value or let it go.",
    ),
    r.FINAL_BUILD: ("final_round_build_only", "In the final round a player may only add up to three cards."),
}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def explain(state: WettstreitState, seat: int, move: Move) -> IllegalMove:
    kind = move["type"]
    expected = FIELDS[kind]
    if set(move) != {"type", *expected}:
        fields = ", ".join(expected) or "no other field"
        return InvalidMove("malformed_move", f"A {kind} move has exactly the fields type and {fields}.")
    if state.phase not in STEPS[kind]:
        code, sentence = WAITING_FOR[state.phase]
        return IllegalMove(code, sentence)
    handler = globals()[f"_{kind}"]
    return handler(state, seat, move)


def _take_saboteur(state: WettstreitState, seat: int, move: Move) -> IllegalMove:
    giver = move["from"]
    if not _is_int(giver) or not 0 <= giver < state.seats:
        return IllegalMove("no_such_seat", f"There is no seat {giver!r}.")
    if giver == seat:
        return IllegalMove("not_from_yourself", "Take the saboteur from another player.")
    return IllegalMove("holds_no_saboteur", f"Seat {giver} holds no saboteur.")


def _auction(state: WettstreitState, seat: int, move: Move) -> IllegalMove:
    if move["pile"] not in m.PILES:
        return IllegalMove("no_such_pile", 'The pile is "face_up" or "face_down".')
    return IllegalMove("pile_empty", "That pile has no card left.")


def _bid(state: WettstreitState, seat: int, move: Move) -> IllegalMove:
    amount = move["amount"]
    if not _is_int(amount):
        return IllegalMove("bid_not_whole_ecus", "A bid is a whole number of écus.")
    if amount <= state.high_bid():
        if not state.running_auction()["bids"]:
            return IllegalMove("bid_too_low", f"The auctioneer opens at {m.MINIMUM_OPENING_BID} écu or more.")
        return IllegalMove("bid_too_low", f"A bid must be higher than {state.high_bid()} écus.")
    return IllegalMove(
        "bid_above_all_money",
        f"No bid may exceed the {state.bid_ceiling()} écus all the players hold together: "
        "no one could pay it.",
    )


def _pass(state: WettstreitState, seat: int, move: Move) -> IllegalMove:
    return IllegalMove("auctioneer_opens", "The auctioneer must open the auction with a bid.")


def _build(state: WettstreitState, seat: int, move: Move) -> IllegalMove:
    card, end = move["card"], move["end"]
    player = state.players[seat]
    if not isinstance(card, str) or card not in m.KIND:
        return IllegalMove("no_such_card", f"{card!r} is not a building card of this game.")
    if card not in player["hand"]:
        return IllegalMove("card_not_in_hand", f"The {m.card_text(card)} is not in your hand.")
    if any(placed["card"] == card for placed in state.pending):
        return IllegalMove("card_already_set_out", f"The {m.card_text(card)} is already set out.")
    if end not in m.ENDS:
        return IllegalMove("no_such_end", 'A card is built at the "left" or the "right" end of the city.')
    if len(state.pending) >= m.MAX_CARDS_PER_BUILD:
        return IllegalMove("three_cards_per_build", "At most three cards are built in one turn.")
    final = state.phase == r.FINAL_BUILD
    error = c.placement_error(state._pending_ends(seat), m.KIND[card], end, final)
    if error is not None:
        return IllegalMove(error, _PLACEMENT_SENTENCES[error])
    return IllegalMove(
        "first_build_needs_three_cards",
        "A first build is exactly three cards side by side, and your hand cannot complete it this way.",
    )


_PLACEMENT_SENTENCES = {
    "end_closed_by_corner_tower": "A corner tower is the edge of the city: nothing is built beyond it.",
    "corner_tower_wrong_end": "A left corner tower goes at the left end, a right one at the right end.",
    "same_type_side_by_side": "Two buildings of the same type may not stand side by side "
    "(towers and corner towers are one type).",
    "one_town_hall_per_city": "A city has only one town hall.",
    "second_corner_tower_final_round_only": "The second corner tower completes a city: "
    "it may be built only in the final round.",
}


def _end_turn(state: WettstreitState, seat: int, move: Move) -> IllegalMove:
    return IllegalMove(
        "first_build_needs_three_cards", "A first build is exactly three cards: set out the third one."
    )


def _target(state: WettstreitState, seat: int, move: Move) -> IllegalMove | None:
    if state.pending:
        return IllegalMove("already_building", "You have begun to build: build or sabotage, not both.")
    if not state.players[seat]["saboteurs"]:
        return IllegalMove("no_saboteur", "You hold no saboteur.")
    target = move["target"]
    if not _is_int(target) or not 0 <= target < state.seats:
        return IllegalMove("no_such_seat", f"There is no seat {target!r}.")
    if target == seat:
        return IllegalMove("not_against_yourself", "A player may not send a saboteur against himself.")
    return None


def _sabotage_city(state: WettstreitState, seat: int, move: Move) -> IllegalMove:
    refusal = _target(state, seat, move)
    if refusal is not None:
        return refusal
    target, slot = move["target"], move["slot"]
    city = state.players[target]["city"]
    if not city:
        return IllegalMove("no_city_to_sabotage", f"Seat {target} has built nothing.")
    if target not in state.weakest_cities(seat):
        return IllegalMove(
            "city_not_the_weakest",
            "Only the city with the fewest shields may be sabotaged (ties: your choice).",
        )
    return IllegalMove("no_building_there", f"Seat {target}'s city has no building at slot {slot!r}.")


def _sabotage_hand(state: WettstreitState, seat: int, move: Move) -> IllegalMove:
    refusal = _target(state, seat, move)
    if refusal is not None:
        return refusal
    return IllegalMove(
        "hand_too_small", f"Only a hand of {m.HAND_SABOTAGE_MINIMUM} cards or more may be sabotaged."
    )


def _pay_ransom(state: WettstreitState, seat: int, move: Move) -> IllegalMove:
    return IllegalMove("not_enough_money", "You do not have enough écus to pay the building's value.")


def _refuse_ransom(state: WettstreitState, seat: int, move: Move) -> IllegalMove:
    return IllegalMove("illegal_move", "That move is not legal now.")
