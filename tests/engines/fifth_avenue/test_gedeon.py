"""Gédéon, the two-player game's neutral bidder (FA-GEDEON-*), played by the engine.

The rulebook's numbers: his bid is the sum of black cards drawn until a value shows twice,
from 8 (4 + 4) to 21 (4 + 5 + 6 + 6); he builds one skyscraper on each best free plot.
"""

from __future__ import annotations

import itertools

from engines.fifth_avenue import board
from engines.fifth_avenue import material as m

from .helpers import (
    TS,
    add,
    bid,
    empty_board,
    fill_with_shops,
    first,
    new_game,
    pass_,
    plot,
    put,
    ring,
    set_hand,
    start_auction,
    types,
)

ANNA, BERND = 0, 1


def duo(black=("black-4", "black-5", "black-4")):
    state = new_game(2)
    empty_board(state)
    for seat in (ANNA, BERND):
        set_hand(state, seat, [])
    state.black_pile = {"hidden": list(black), "known": []}
    return state


# ---- FA-GEDEON-BID --------------------------------------------------------------------------------
def test_FA_GEDEON_BID_every_draw_sums_to_8_to_21():
    totals = set()
    for draw in itertools.product((4, 5, 6), repeat=4):
        seen, cards = set(), []
        for value in draw:
            cards.append(value)
            if value in seen:
                break
            seen.add(value)
        state = duo(black=[f"black-{v}" for v in draw])
        start_auction(state, ANNA, [])
        pass_(state, ANNA)
        events = pass_(state, BERND)
        gedeon = first(events, "gedeon_bid")
        assert gedeon["cards"] == [f"black-{v}" for v in cards], "he stops at the first repeated value"
        totals.add(gedeon["total"])
    assert min(totals) == 8 and max(totals) == 21
    assert totals == {8, 10, 12, 13, 14, 16, 17, 19, 20, 21}


def test_FA_GEDEON_BID_the_cards_are_drawn_face_up_for_all_to_see():
    state = duo()
    set_hand(state, ANNA, ["grey-6", "black-6", "black-6"])
    start_auction(state, ANNA, [])
    bid(state, ANNA, "grey-6")
    pass_(state, BERND)
    view = state.view(None)["auction"]["gedeon"]
    assert view == {"cards": ["black-4", "black-5", "black-4"], "total": 13, "acted": True}


# ---- FA-GEDEON-ORDER, FA-GEDEON-LOW, FA-GEDEON-HIGH -------------------------------------------------
def test_FA_GEDEON_ORDER_always_third_after_both_players_once():
    state = duo()
    set_hand(state, BERND, ["grey-4"])
    start_auction(state, BERND, [])
    assert state.to_act() == [BERND]
    events = bid(state, BERND, "grey-4")
    assert "gedeon_bid" not in types(events) and state.to_act() == [ANNA]
    events = pass_(state, ANNA)
    assert "gedeon_bid" in types(events), "Gédéon bids right after the second player"


def test_FA_GEDEON_LOW_a_bid_not_above_the_best_leaves_the_auction():
    state = duo(black=("black-4", "black-5", "black-4"))  # 13
    set_hand(state, ANNA, ["grey-6", "black-6", "black-4", "black-4"])
    set_hand(state, BERND, ["brown-4", "black-6", "black-6"])
    start_auction(state, ANNA, [TS])
    bid(state, ANNA, "grey-6", "black-6")  # 12
    events = bid(state, BERND, "brown-4", "black-6", "black-6")  # 16
    assert first(events, "gedeon_bid") == {
        "type": "gedeon_bid",
        "cards": ["black-4", "black-5", "black-4"],
        "total": 13,
        "leads": False,
    }
    assert state.auction["high"] == BERND and state.to_act() == [ANNA], "the two players go on"
    bid(state, ANNA, "black-4", "black-4")  # 20
    pass_(state, BERND)
    assert state.auction["award"]["seat"] == ANNA


def test_FA_GEDEON_LOW_equal_to_the_best_bid_is_not_enough():
    state = duo(black=("black-4", "black-4"))  # 8
    set_hand(state, ANNA, ["grey-4", "black-4"])
    start_auction(state, ANNA, [TS])
    bid(state, ANNA, "grey-4", "black-4")  # 8
    events = pass_(state, BERND)
    assert first(events, "gedeon_bid")["leads"] is False
    assert state.phase == "build" and state.auction["award"]["seat"] == ANNA


def test_FA_GEDEON_HIGH_the_players_still_in_must_beat_him_or_pass():
    state = duo(black=("black-6", "black-5", "black-6"))  # 17
    set_hand(state, ANNA, ["grey-6", "black-6", "black-6"])
    set_hand(state, BERND, ["brown-4", "black-5", "black-5", "black-4"])
    start_auction(state, ANNA, [TS])
    bid(state, ANNA, "grey-6")
    bid(state, BERND, "brown-4", "black-5")  # 9; Gédéon 17 leads
    assert state.auction["high"] == "gedeon" and state.to_act() == [ANNA]
    assert state.auction["value"] == 17
    bid(state, ANNA, "black-6", "black-6")  # 18 beats him: he is out for good
    assert state.auction["high"] == ANNA and state.to_act() == [BERND]
    add(state, BERND, "black-5", "black-4")  # 9 + 9 = 18 does not beat 18
    assert {"type": "bid"} not in state.legal_moves(BERND)
    pass_(state, BERND)
    assert state.auction["award"]["seat"] == ANNA


def test_FA_GEDEON_HIGH_both_players_pass_gedeon_wins():
    state = duo(black=("black-5", "black-5"))  # 10
    set_hand(state, ANNA, ["grey-4"])
    start_auction(state, ANNA, [TS])
    bid(state, ANNA, "grey-4")
    pass_(state, BERND)
    assert state.auction["high"] == "gedeon" and state.to_act() == [ANNA]
    events = pass_(state, ANNA)
    won = first(events, "auction_won")
    assert won["winner"] == "gedeon" and won["total"] == 10


def test_FA_GEDEON_HIGH_no_player_bidding_still_leaves_gedeon_his_bid():
    state = duo(black=("black-6", "black-6"))
    start_auction(state, ANNA, [TS])
    pass_(state, ANNA)
    events = pass_(state, BERND)
    assert first(events, "auction_won")["winner"] == "gedeon"
    assert "auction_cancelled" not in types(events)


# ---- FA-GEDEON-CARDS -------------------------------------------------------------------------------
def test_FA_GEDEON_CARDS_go_face_down_under_the_black_pile_at_the_end():
    state = duo(black=("black-4", "black-5", "black-4", "black-6"))
    start_auction(state, ANNA, [])
    pass_(state, ANNA)
    pass_(state, BERND)
    assert state.black_pile == {
        "hidden": ["black-6"],
        "known": [["black-4", False], ["black-5", False], ["black-4", False]],
    }
    view = state.view(ANNA)["black_pile"]
    assert view["size"] == 4 and view["known_bottom"][0] == {"card": "black-4", "face_up": False}
    # Face down: drawing down to them does not reshuffle the pile, and the table knows them.
    for _ in range(2):
        state.current, state.phase = ANNA, "choose_action"
        state.turn = {"action": None, "step": 0, "taken": []}
        state.apply(ANNA, {"type": "choose_action", "action": "C"})
    assert state.black_pile == {"hidden": [], "known": [["black-5", False], ["black-4", False]]}
    assert state.players[ANNA]["shown"] == ["black-4"], "a card everyone saw stays known in the hand"
    assert "black-6" in state.players[ANNA]["hand"] and "black-6" not in state.players[ANNA]["shown"]


# ---- FA-GEDEON-BUILD ----------------------------------------------------------------------------------
def test_FA_GEDEON_BUILD_one_skyscraper_on_each_best_free_plot():
    state = duo(black=("black-6", "black-6"))
    put(state, TS, 0, shops=("fashion",))
    put(state, TS, 2, shops=("gallery",))
    put(state, TS, 3, owner=ANNA, count=2)
    # Plot 1 sees fashion and gallery (3 points); plot 4 sees fashion (2): plot 1 is the best.
    start_auction(state, ANNA, [TS])
    pass_(state, ANNA)
    events = pass_(state, BERND)
    assert first(events, "gedeon_builds")["plots"] == [ring(state, TS)[1]]
    assert plot(state, TS, 1) == {"shops": [], "owner": "gedeon", "count": 1}
    assert plot(state, TS, 4)["count"] == 0
    assert state.gedeon["supply"] == m.GEDEON_SKYSCRAPERS - 1


def test_FA_GEDEON_BUILD_on_every_tied_plot_even_beside_his_own():
    state = duo(black=("black-6", "black-6"))
    put(state, TS, 0, owner="gedeon", count=1)
    put(state, TS, 2, shops=("gallery",))
    # Free: 1 (beside the gallery: 2 points), 3 (beside it: 2 points), 4 (nothing: 1 point).
    start_auction(state, ANNA, [TS])
    pass_(state, ANNA)
    pass_(state, BERND)
    assert [plot(state, TS, i)["owner"] for i in range(5)] == ["gedeon", "gedeon", None, "gedeon", None]
    assert all(plot(state, TS, i)["count"] == 1 for i in (0, 1, 3)), "always one per plot"


def test_FA_GEDEON_BUILD_nothing_in_central_park():
    state = duo(black=("black-6", "black-6"))
    start_auction(state, ANNA, [])
    pass_(state, ANNA)
    events = pass_(state, BERND)
    assert first(events, "gedeon_builds") == {"type": "gedeon_builds", "venue": m.CENTRAL_PARK, "plots": []}
    assert state.gedeon["supply"] == m.GEDEON_SKYSCRAPERS


def test_FA_GEDEON_BUILD_no_free_plot_he_orders_the_stop_and_never_scores():
    state = duo(black=("black-6", "black-6"))
    put(state, TS, 0, owner=ANNA, count=2)
    put(state, TS, 1, shops=("fashion", "gallery"))
    put(state, TS, 2, owner=BERND, count=1)
    put(state, TS, 3, owner="gedeon", count=1)
    fill_with_shops(state, TS)
    # Anna: 2 x (plot 4's fashion + plot 1's two kinds = 2 kinds: 3) = 6 -> 3; Bernd: 1 x 3 -> 1.
    start_auction(state, ANNA, [TS])
    pass_(state, ANNA)
    events = pass_(state, BERND)
    stop = first(events, "building_stop")
    assert stop["orderer"] == "gedeon" and stop["points"] == [3, 1]
    assert stop["gedeon_skyscrapers_removed"] == 1 and state.gedeon["boxed"] == 1
    assert state.districts[m.DISTRICT_INDEX[TS]]["closed"]


def test_FA_GEDEON_CLOSURE_COUNT_a_players_stop_counts_gedeons_skyscrapers():
    state = duo()
    put(state, TS, 0, owner=ANNA, count=1)
    put(state, TS, 1, owner="gedeon", count=1)
    put(state, TS, 2, owner="gedeon", count=1)
    put(state, TS, 3, owner=BERND, count=2)
    put(state, TS, 4, shops=("fashion",))
    colour = ring(state, TS)[0]
    set_hand(state, ANNA, [f"{colour}-6", "black-6", "black-6"])
    start_auction(state, ANNA, [TS])
    bid(state, ANNA, f"{colour}-6", "black-6", "black-6")  # 18 beats any draw of 13
    pass_(state, BERND)
    assert state.legal_moves(ANNA)[-1] == {"type": "close_district"}
    events = state.apply(ANNA, {"type": "close_district"})
    # Bernd: 2 skyscrapers beside one kind of shop, 2 x 2 = 4, halved.
    assert first(events, "building_stop")["points"] == [5, 2], "5 skyscrapers, Gédéon's two included"


def test_FA_GEDEON_never_scores_in_a_district_scoring():
    state = duo()
    put(state, TS, 0, owner="gedeon", count=1)
    put(state, TS, 1, shops=("fashion", "gallery"))
    assert board.district_points(state.districts[m.DISTRICT_INDEX[TS]]["plots"], 2) == [0, 0]
