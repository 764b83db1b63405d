"""The building stop (FA-CLOSURE-WHEN, FA-CLOSURE-SCORE, FA-CLOSURE-REMOVE, FA-END-CLOSURE).

The rulebook's example: Red wins and orders the stop (it could have built instead): Red 4
points, Yellow 5 : 2 = 2, Blue 6 : 2 = 3. Its picture is lost; the board here is the only
kind that gives those numbers (research §1.4): Red 1 skyscraper, Yellow 1 scoring 5, Blue 2
scoring 3 each, the two other plots holding shops.
"""

from __future__ import annotations

import pytest

from engines.core import IllegalMove
from engines.fifth_avenue import board
from engines.fifth_avenue import material as m

from .helpers import (
    TS,
    bid,
    empty_board,
    fill_with_shops,
    first,
    index,
    new_game,
    pass_,
    plot,
    put,
    ring,
    set_hand,
    start_auction,
    types,
)

RED, YELLOW, BLUE = 0, 1, 2


def example_district(state):
    empty_board(state)
    put(state, TS, 0, shops=("fashion",))
    put(state, TS, 1, owner=YELLOW, count=1)
    put(state, TS, 2, shops=("jewellery", "gallery"))
    put(state, TS, 3, owner=BLUE, count=2)
    put(state, TS, 4, owner=RED, count=1)


def red_wins_the_example(state):
    example_district(state)
    for seat in range(3):
        set_hand(state, seat, [])
    red_colour = ring(state, TS)[4]
    set_hand(state, RED, [f"{red_colour}-5"])
    start_auction(state, RED, [TS])
    bid(state, RED, f"{red_colour}-5")
    pass_(state, YELLOW)
    pass_(state, BLUE)


# ---- FA-CLOSURE-WHEN ---------------------------------------------------------------------------
def test_FA_CLOSURE_WHEN_a_winner_holding_a_plot_of_a_full_district_may_build_or_close():
    state = new_game(3)
    red_wins_the_example(state)
    assert state.legal_moves(RED) == [
        {"type": "build", "count": 0},
        {"type": "build", "count": 1},
        {"type": "build", "count": 2},
        {"type": "close_district"},
    ]
    state.apply(RED, {"type": "build", "count": 2})
    assert plot(state, TS, 4)["count"] == 3 and not state.districts[index(TS)]["closed"]


def test_FA_CLOSURE_WHEN_a_winner_with_no_skyscraper_there_must_close():
    state = new_game(4)  # Red, Yellow and Blue hold plots; the fourth seat holds none
    example_district(state)
    for seat in range(4):
        set_hand(state, seat, [])
    shops_colour = ring(state, TS)[2]
    set_hand(state, 3, [f"{shops_colour}-4"])
    start_auction(state, 3, [TS])
    assert state.auction["allowed"][3] == sorted((ring(state, TS)[0], shops_colour), key=m.COLOURS.index)
    bid(state, 3, f"{shops_colour}-4")
    for seat in (0, 1, 2):
        pass_(state, seat)
    assert state.legal_moves(3) == [{"type": "close_district"}]
    with pytest.raises(IllegalMove) as refused:
        state.apply(3, {"type": "build", "count": 1})
    assert refused.value.code == "must_close_district"


def test_FA_CLOSURE_WHEN_never_in_a_district_with_a_free_plot():
    state = new_game(3)
    empty_board(state)
    put(state, TS, 0, owner=RED, count=1)
    for seat in range(3):
        set_hand(state, seat, [])
    set_hand(state, RED, [f"{ring(state, TS)[0]}-4"])
    start_auction(state, RED, [TS])
    bid(state, RED, f"{ring(state, TS)[0]}-4")
    pass_(state, 1)
    pass_(state, 2)
    assert {"type": "close_district"} not in state.legal_moves(RED)
    with pytest.raises(IllegalMove) as refused:
        state.apply(RED, {"type": "close_district"})
    assert refused.value.code == "district_not_full"


# ---- FA-CLOSURE-SCORE, FA-CLOSURE-REMOVE ----------------------------------------------------------
def test_FA_CLOSURE_SCORE_the_rulebook_example_red_4_yellow_2_blue_3():
    state = new_game(3)
    red_wins_the_example(state)
    assert board.district_points(state.districts[index(TS)]["plots"], 3) == [2, 5, 6]
    events = state.apply(RED, {"type": "close_district"})
    stop = first(events, "building_stop")
    assert stop["points"] == [4, 2, 3], "all 4 skyscrapers to Red, never half of its own 2"
    assert [p["points"]["closures"] for p in state.players] == [4, 2, 3]


def test_FA_CLOSURE_REMOVE_everything_goes_and_the_district_no_longer_exists():
    state = new_game(3)
    state.expertise["beige"] = [TS]
    state.pawns["beige"] = TS
    red_wins_the_example(state)
    state.players[BLUE]["park"] = 2
    events = state.apply(RED, {"type": "close_district"})
    stop = first(events, "building_stop")
    assert stop["skyscrapers_removed"] == [1, 1, 2] and stop["tokens_returned"] == ["white", "beige"]
    assert all(p == board.new_plot() for p in state.districts[index(TS)]["plots"])
    assert sorted(state.boxed_tiles) == ["fashion", "gallery", "jewellery"]
    assert [p["boxed"] for p in state.players] == [1, 1, 2]
    assert state.players[BLUE]["park"] == 2, "Central Park skyscrapers are never destroyed"
    assert state.closed_order == [TS] and state.view(None)["building_stop_signs_left"] == 1
    assert state.expertise == {"white": [], "beige": []}
    assert state.phase == "bid" and state.auction["venues"] == [m.CENTRAL_PARK]
    # The beige pawn stood there: leaving, it leaves no token; nothing more happens there.
    for _ in range(3):
        pass_(state, state.to_act()[0])
    state.current, state.phase = 1, "move_commission"
    state.turn = {"action": "A", "step": 3, "taken": []}
    assert {"type": "move_commission", "pawn": "beige", "to": "52nd-street-west"} in state.legal_moves(1)
    state.apply(1, {"type": "move_commission", "pawn": "beige", "to": "52nd-street-west"})
    assert state.expertise["beige"] == []
    state.apply(2, {"type": "choose_action", "action": "B"})
    assert all(mv["district"] != TS for mv in state.legal_moves(2))
    with pytest.raises(IllegalMove) as refused:
        state.apply(
            2,
            {
                "type": "place_shop",
                "shop": state.legal_moves(2)[0]["shop"],
                "district": TS,
                "plot": ring(state, TS)[0],
            },
        )
    assert refused.value.code == "district_closed"


def test_FA_CLOSURE_REMOVE_a_closed_district_is_never_scored():
    state = new_game(3)
    state.districts[index(TS)]["closed"] = True
    state.closed_order = [TS]
    state.pawns = {"white": TS, "beige": "start"}
    assert {"type": "choose_action", "action": "D"} not in state.legal_moves(0)
    state.pawns = {"white": TS, "beige": "34th-street-west"}
    state.apply(0, {"type": "choose_action", "action": "D"})
    assert state.legal_moves(0) == [{"type": "score_district", "district": "34th-street-west"}]
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, {"type": "score_district", "district": TS})
    assert refused.value.code == "district_closed"


# ---- FA-END-CLOSURE ----------------------------------------------------------------------------------
def test_FA_END_CLOSURE_the_second_stop_ends_the_game_and_cancels_the_remaining_auctions():
    state = new_game(3)
    red_wins_the_example(state)
    state.closed_order = ["52nd-street-east"]
    state.districts[index("52nd-street-east")]["closed"] = True
    state.turn = {"action": "C", "step": 1, "taken": []}  # interrupted in phase 1 of action C
    state.under_park = ["gallery", "fashion", "jewellery"]
    events = state.apply(RED, {"type": "close_district"})
    assert state.is_over() and state.result().reason == "second_building_stop"
    assert "central_park_scored" in types(events) and "auction_opened" not in types(events)
    assert state.auction is None, "the Central Park auction is cancelled"
    assert state.players[RED]["points"]["closures"] == 4
    assert types(events)[-1] == "game_over"
    with pytest.raises(IllegalMove):
        state.apply(RED, {"type": "take_card", "colour": "grey"})


def test_FA_END_CLOSURE_a_gedeon_stop_can_end_the_game_too():
    state = new_game(2)
    empty_board(state)
    state.closed_order = ["52nd-street-east"]
    state.districts[index("52nd-street-east")]["closed"] = True
    fill_with_shops(state, TS)
    for seat in range(2):
        set_hand(state, seat, [])
    state.black_pile = {"hidden": ["black-4", "black-4"], "known": []}
    start_auction(state, 0, [TS])
    pass_(state, 0)
    events = pass_(state, 1)
    assert first(events, "building_stop")["orderer"] == "gedeon"
    assert state.is_over()
