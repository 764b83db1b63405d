"""Unlisted moves are refused with the code of the rule that forbids them, changing nothing."""

from __future__ import annotations

import pytest

from engines.core import IllegalMove, InvalidMove, NotYourTurn

from .position import bid, play, position

UP = {"type": "auction", "pile": "face_up"}


def code_of(state, seat, move):
    before = state.to_dict()
    with pytest.raises((IllegalMove, InvalidMove)) as refused:
        state.apply(seat, move)
    assert state.to_dict() == before, "a refusal changes nothing"
    assert refused.value.message
    return refused.value.code


def test_refusals_name_the_step_the_game_is_at():
    state = position(3, phase="choose_pile")
    assert code_of(state, 0, bid(3)) == "choose_pile_first"
    assert code_of(state, 0, {"type": "end_turn"}) == "choose_pile_first"
    assert code_of(state, 0, {"type": "auction", "pile": "middle"}) == "no_such_pile"
    assert code_of(state, 0, {"type": "auction"}) == "malformed_move"
    assert code_of(state, 0, {"type": "auction", "pile": "face_up", "x": 1}) == "malformed_move"
    assert code_of(state, 0, {"type": "shout"}) == "unknown_move_type"
    with pytest.raises(NotYourTurn):
        state.apply(1, UP)
    play(state, UP)
    assert code_of(state, 0, {"type": "build", "card": "gate-2a", "end": "left"}) == "auction_in_progress"
    assert code_of(state, 0, bid(2.0)) == "malformed_move"
    assert code_of(state, 0, bid(True)) == "malformed_move"
    assert code_of(state, 0, {"type": "bid", "amount": "5"}) == "malformed_move"


def test_refusals_of_building_and_sabotage_moves():
    state = position(
        3,
        hands={0: ["gate-2a", "cathedral-4a", "gate-3a"]},
        cities={1: ["cathedral-5a", "tower-1a", "gate-4a"]},
    )
    assert code_of(state, 0, {"type": "build", "card": "gate-9z", "end": "left"}) == "no_such_card"
    assert code_of(state, 0, {"type": "build", "card": ["gate-2a"], "end": "left"}) == "malformed_move"
    assert code_of(state, 0, {"type": "build", "card": "town-hall-5a", "end": "left"}) == "card_not_in_hand"
    assert code_of(state, 0, {"type": "build", "card": "gate-2a", "end": "middle"}) == "no_such_end"
    assert code_of(state, 0, {"type": "sabotage_city", "target": 1, "slot": 0}) == "no_saboteur"
    assert code_of(state, 0, {"type": "pay_ransom"}) == "build_or_sabotage_now"
    assert code_of(state, 0, {"type": "take_saboteur", "from": 1}) == "build_or_sabotage_now"
    play(state, {"type": "build", "card": "gate-2a", "end": "right"})
    assert code_of(state, 0, {"type": "build", "card": "gate-2a", "end": "left"}) == "card_already_set_out"
    state = position(3, cities={1: ["cathedral-5a", "tower-1a", "gate-4a"]}, saboteurs={0: 1})
    assert code_of(state, 0, {"type": "sabotage_city", "target": 7, "slot": 0}) == "no_such_seat"
    assert code_of(state, 0, {"type": "sabotage_city", "target": 1, "slot": 3}) == "no_building_there"
    assert code_of(state, 0, {"type": "sabotage_hand", "target": "1"}) == "malformed_move"


def test_refusals_in_the_final_round_and_after_the_end():
    state = position(3, phase="final_build", saboteurs={0: 1}, cities={1: ["gate-2a"]})
    state.final_queue = [0, 1, 2]
    assert code_of(state, 0, {"type": "sabotage_city", "target": 1, "slot": 0}) == "final_round_build_only"
    assert code_of(state, 0, UP) == "final_round_build_only"
