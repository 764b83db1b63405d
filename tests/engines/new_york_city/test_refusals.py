"""Unlisted moves are refused with a stable code naming the rule, and change nothing."""

from __future__ import annotations

import pytest

from engines.core import GameOver, IllegalMove, InvalidMove, NotYourTurn
from engines.new_york_city import board as b

from .helpers import bid, clear_phase1, give_characters, new_game, play, set_cards, set_press, start_bidding


def refused(state, seat, move):
    before = state.to_dict()
    with pytest.raises(IllegalMove) as error:
        state.apply(seat, move)
    assert state.to_dict() == before
    assert error.value.message
    return error.value.code


def bidding(kind="press", hand=("press",), seats=2):
    state = new_game(seats, seed=11)
    clear_phase1(state)
    set_press(state, *[(p, 5 - p) for p in range(seats)], (b.BLACK, 0))
    set_cards(state, 0, hand=list(hand))
    start_bidding(state, kind, starter=0)
    return state


def test_refusals_in_phase_one():
    state = new_game(2, seed=5)
    seat = state.actor
    assert refused(state, seat, {"type": "bid"}) == "not_now"
    assert refused(state, seat, {"type": "take_pair", "pair": 99}) == "no_such_pair"
    assert refused(state, seat, {"type": "take_pair", "pair": "0"}) == "malformed_move"
    assert refused(state, seat, {"type": "take_pair"}) == "malformed_move"
    assert refused(state, seat, {"type": "done"}) == "must_take_pair"
    assert refused(state, seat, {"type": "use", "character": 99}) == "no_such_character"
    state.players[seat]["characters"], state.players[seat]["used"] = [], []
    assert refused(state, seat, {"type": "use", "character": 6}) == "character_not_owned"
    give_characters(state, seat, 4, 6)
    state.apply(seat, {"type": "take_pair", "pair": 0})
    assert refused(state, seat, {"type": "use", "character": 4}) == "character_condition"
    with pytest.raises(NotYourTurn):
        state.apply(1 - seat, {"type": "take_pair", "pair": 0})
    with pytest.raises(InvalidMove):
        state.apply(seat, {"type": "fly"})


def test_refusals_a_character_used_this_round():
    state = new_game(2, seed=5)
    seat = state.actor
    state.players[seat]["characters"], state.players[seat]["used"] = [], []
    give_characters(state, seat, 6, 10)
    state.apply(seat, {"type": "use", "character": 6})
    assert refused(state, seat, {"type": "use", "character": 6}) == "character_used"


def test_refusals_in_a_bid():
    state = bidding(hand=("press", "dollars", "joker"))
    assert refused(state, 0, {"type": "bid"}) == "empty_bid"
    assert refused(state, 0, play("skyscrapers")) == "card_not_in_hand"
    assert (
        refused(state, 0, {"type": "exchange", "give": "press", "take": "nothing"}) == "card_not_in_reserve"
    )
    assert refused(state, 0, {"type": "play_pair", "cards": ["press", "press"]}) == "card_not_in_hand"
    assert refused(state, 0, {"type": "play_pair", "cards": ["press", "joker"]}) == "pair_of_round_card"
    assert refused(state, 0, {"type": "play_pair", "cards": ["joker", "dollars"]}) == "pair_order"
    assert (
        refused(state, 0, {"type": "use", "character": 22, "cards": ["press"]}) == "wrong_phase_for_character"
    )
    state.apply(0, play("press"))
    assert refused(state, 0, {"type": "pass"}) == "bid_started"
    assert refused(state, 0, {"type": "take_character", "character": 3}) == "not_now"


def test_refusals_taking_a_character():
    state = bidding("characters", hand=("characters",))
    bid(state, 0, play("characters"))
    bid(state, 1)
    assert state.stage == "character"
    too_high = state.display[4][0]
    assert refused(state, 0, {"type": "take_character", "character": too_high}) == "character_too_valuable"
    absent = next(n for n in range(1, 43) if all(n not in row for row in state.display))
    assert refused(state, 0, {"type": "take_character", "character": absent}) == "character_not_available"


def test_refusals_of_a_prestige_bonus():
    state = bidding("prestige", hand=("prestige",))
    bid(state, 0, play("prestige"))
    bid(state, 1)
    move = next(m for m in state.legal_moves(0) if m["type"] == "prestige")
    tile = move["tile"]
    wrong = next(k for k in range(10) if b.CONNECTION_VEHICLE[k] != b.TILE_VEHICLE[tile])
    far = next(d for d in b.DISTRICTS if b.DISTRICT_INDEX[d] not in b.CONNECTION_ENDS[move["connection"]])
    assert refused(state, 0, {**move, "tile": 42}) == "no_such_tile"
    assert refused(state, 0, {**move, "connection": wrong}) in ("wrong_vehicle", "vehicle_gone")
    assert refused(state, 0, {**move, "district": far}) == "district_not_connected"
    assert refused(state, 0, {**move, "district": ["queens"]}) == "malformed_move"
    assert refused(state, 0, {**move, "from": "none"}) == "must_place_from_board"
    assert refused(state, 0, {**move, "extra": True}) == "character_21_unavailable"
    assert refused(state, 0, {**move, "extra": 1}) == "malformed_move"


def test_refusals_after_the_end():
    state = new_game(2, seed=1)
    state._finish([])
    with pytest.raises(GameOver):
        state.apply(0, {"type": "pass"})
    assert state.legal_moves(0) == [] and state.to_act() == []
