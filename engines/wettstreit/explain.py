"""Which rule refuses a move that is not listed: a stable code and a message (engines/core/messages.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import IllegalMove, InvalidMove, Move, say
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

# What each step waits for: the code of a move made out of its step (its sentence is the
# message wettstreit.refusal.<code>).
WAITING_FOR = {
    r.TAKE_SABOTEUR: "choose_saboteur_first",
    r.CHOOSE_PILE: "choose_pile_first",
    r.BIDDING: "auction_in_progress",
    r.BUILD_OR_SABOTAGE: "build_or_sabotage_now",
    r.RANSOM: "ransom_decision_pending",
    r.FINAL_BUILD: "final_round_build_only",
}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def explain(state: WettstreitState, seat: int, move: Move) -> IllegalMove:
    kind = move["type"]
    expected = FIELDS[kind]
    if set(move) != {"type", *expected}:
        fields = ", ".join(repr(f) for f in expected)
        if not fields:
            return InvalidMove("malformed_move", say("wettstreit.refusal.only_type", type=repr(kind)))
        return InvalidMove("malformed_move", say("wettstreit.refusal.fields", type=repr(kind), fields=fields))
    if state.phase not in STEPS[kind]:
        code = WAITING_FOR[state.phase]
        return IllegalMove(code, say(f"wettstreit.refusal.{code}"))
    handler = globals()[f"_{kind}"]
    return handler(state, seat, move)


def _take_saboteur(state: WettstreitState, seat: int, move: Move) -> IllegalMove:
    giver = move["from"]
    if not _is_int(giver) or not 0 <= giver < state.seats:
        return IllegalMove("no_such_seat", say("wettstreit.refusal.no_such_seat", seat=repr(giver)))
    if giver == seat:
        return IllegalMove("not_from_yourself", say("wettstreit.refusal.not_from_yourself"))
    return IllegalMove("holds_no_saboteur", say("wettstreit.refusal.holds_no_saboteur", seat=giver))


def _auction(state: WettstreitState, seat: int, move: Move) -> IllegalMove:
    if move["pile"] not in m.PILES:
        return IllegalMove("no_such_pile", say("wettstreit.refusal.no_such_pile"))
    return IllegalMove("pile_empty", say("wettstreit.refusal.pile_empty"))


def _bid(state: WettstreitState, seat: int, move: Move) -> IllegalMove:
    amount = move["amount"]
    if not _is_int(amount):
        return IllegalMove("bid_not_whole_ecus", say("wettstreit.refusal.bid_not_whole_ecus"))
    if amount <= state.high_bid():
        if not state.running_auction()["bids"]:
            return IllegalMove(
                "bid_too_low", say("wettstreit.refusal.opening_too_low", count=m.MINIMUM_OPENING_BID)
            )
        return IllegalMove("bid_too_low", say("wettstreit.refusal.bid_too_low", count=state.high_bid()))
    return IllegalMove(
        "bid_above_all_money", say("wettstreit.refusal.bid_above_all_money", count=state.bid_ceiling())
    )


def _pass(state: WettstreitState, seat: int, move: Move) -> IllegalMove:
    return IllegalMove("auctioneer_opens", say("wettstreit.refusal.auctioneer_opens"))


def _build(state: WettstreitState, seat: int, move: Move) -> IllegalMove:
    card, end = move["card"], move["end"]
    player = state.players[seat]
    if not isinstance(card, str) or card not in m.KIND:
        return IllegalMove("no_such_card", say("wettstreit.refusal.no_such_card", card=repr(card)))
    if card not in player["hand"]:
        return IllegalMove(
            "card_not_in_hand", say("wettstreit.refusal.card_not_in_hand", card=m.the_card(card))
        )
    if any(placed["card"] == card for placed in state.pending):
        return IllegalMove(
            "card_already_set_out", say("wettstreit.refusal.card_already_set_out", card=m.the_card(card))
        )
    if end not in m.ENDS:
        return IllegalMove("no_such_end", say("wettstreit.refusal.no_such_end"))
    if len(state.pending) >= m.MAX_CARDS_PER_BUILD:
        return IllegalMove("three_cards_per_build", say("wettstreit.refusal.three_cards_per_build"))
    final = state.phase == r.FINAL_BUILD
    error = c.placement_error(state._pending_ends(seat), m.KIND[card], end, final)
    if error is not None:
        return IllegalMove(error, say(f"wettstreit.refusal.{error}"))
    return IllegalMove("first_build_needs_three_cards", say("wettstreit.refusal.first_build_cannot_complete"))


def _end_turn(state: WettstreitState, seat: int, move: Move) -> IllegalMove:
    return IllegalMove(
        "first_build_needs_three_cards", say("wettstreit.refusal.first_build_needs_three_cards")
    )


def _target(state: WettstreitState, seat: int, move: Move) -> IllegalMove | None:
    if state.pending:
        return IllegalMove("already_building", say("wettstreit.refusal.already_building"))
    if not state.players[seat]["saboteurs"]:
        return IllegalMove("no_saboteur", say("wettstreit.refusal.no_saboteur"))
    target = move["target"]
    if not _is_int(target) or not 0 <= target < state.seats:
        return IllegalMove("no_such_seat", say("wettstreit.refusal.no_such_seat", seat=repr(target)))
    if target == seat:
        return IllegalMove("not_against_yourself", say("wettstreit.refusal.not_against_yourself"))
    return None


def _sabotage_city(state: WettstreitState, seat: int, move: Move) -> IllegalMove:
    refusal = _target(state, seat, move)
    if refusal is not None:
        return refusal
    target, slot = move["target"], move["slot"]
    city = state.players[target]["city"]
    if not city:
        return IllegalMove("no_city_to_sabotage", say("wettstreit.refusal.no_city_to_sabotage", seat=target))
    if target not in state.weakest_cities(seat):
        return IllegalMove("city_not_the_weakest", say("wettstreit.refusal.city_not_the_weakest"))
    return IllegalMove(
        "no_building_there", say("wettstreit.refusal.no_building_there", seat=target, slot=repr(slot))
    )


def _sabotage_hand(state: WettstreitState, seat: int, move: Move) -> IllegalMove:
    refusal = _target(state, seat, move)
    if refusal is not None:
        return refusal
    return IllegalMove(
        "hand_too_small", say("wettstreit.refusal.hand_too_small", count=m.HAND_SABOTAGE_MINIMUM)
    )


def _pay_ransom(state: WettstreitState, seat: int, move: Move) -> IllegalMove:
    return IllegalMove("not_enough_money", say("wettstreit.refusal.not_enough_money"))


def _refuse_ransom(state: WettstreitState, seat: int, move: Move) -> IllegalMove:
    return IllegalMove("illegal_move", say("wettstreit.refusal.illegal_move"))
