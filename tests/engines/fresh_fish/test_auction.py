"""The blind auction of a retailer (rule ids FF-AUCTION-*, FF-ONE-PER-TYPE, FF-LAST-RETAILER,
FF-CUBES-RETAILER)."""

from __future__ import annotations

import random

import pytest

from engines.core import IllegalMove, NotYourTurn
from engines.core.events import redact
from engines.fresh_fish import auction

from .helpers import at, cells_of, events_of, plot_move, position

# 4 players on 9x9; seat 0 holds two plots, seats 1 and 2 one each, seat 3 none.
NINE = """
P . . . . . . . N
. 0 . . . . . 1 .
. . . . . . . . .
. . . . 0 . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. 2 . . . . . . .
R . . . . . . . G
"""


def draw_retailer(state, seat, tile, rest=("park",)):
    state.pile = [*rest, tile]
    state.current = seat
    return state.apply(seat, {"type": "draw"})


def bid_all(state, bids):
    events = []
    for seat, amount in bids.items():
        events += state.apply(seat, {"type": "bid", "amount": amount})
    return events


# ---- FF-AUCTION-BIDDERS, FF-ONE-PER-TYPE ---------------------------------------------------------
def test_FF_AUCTION_BIDDERS_every_player_lacking_the_type_the_drawer_included():
    state = position(NINE)
    events = draw_retailer(state, 0, "fishmonger")
    assert events_of(events, "auction_opened")[0]["bidders"] == [0, 1, 2, 3]
    assert state.phase == "auction" and state.to_act() == [0, 1, 2, 3]
    assert state.legal_moves(0) == [{"type": "bid", "amount": a} for a in range(16)]


def test_FF_ONE_PER_TYPE_an_owner_of_the_type_does_not_bid_on_board_or_in_front():
    rows = NINE.replace(". . . . . . . . .\n. . . . 0", ". . f1 . . . . . .\n. . . . 0", 1)
    state = position(rows, in_front={2: ["fishmonger"]})
    draw_retailer(state, 0, "fishmonger")
    assert state.bidders == [0, 3] and state.to_act() == [0, 3]
    with pytest.raises(NotYourTurn):
        state.apply(1, {"type": "bid", "amount": 0})


# ---- FF-AUCTION-SEALED ---------------------------------------------------------------------------
def test_FF_AUCTION_SEALED_bids_stay_hidden_until_all_are_in():
    state = position(NINE)
    draw_retailer(state, 0, "fishmonger")
    events = state.apply(2, {"type": "bid", "amount": 7})
    sealed = events_of(events, "bid_sealed")[0]
    assert redact(sealed, 2)["amount"] == 7
    assert "amount" not in redact(sealed, 0) and "amount" not in redact(sealed, None)
    assert state.to_act() == [0, 1, 3]
    assert state.view(2)["auction"]["your_bid"] == 7
    for viewer in (None, 0, 1, 3):
        shown = state.view(viewer)["auction"]
        assert shown["has_bid"] == [2] and "your_bid" not in shown
        assert "7" not in str(shown)
    # determinize: another seat's bid is re-dealt, the seat's own never is.
    seen = {state.determinize(0, random.Random(seed)).bids[2] for seed in range(40)}
    assert len(seen) > 3 and all(0 <= b <= 15 for b in seen)
    assert {state.determinize(2, random.Random(seed)).bids[2] for seed in range(10)} == {7}


def test_FF_AUCTION_SEALED_the_highest_bid_wins_and_is_paid_to_the_bank():
    state = position(NINE)
    draw_retailer(state, 0, "fishmonger")
    events = bid_all(state, {0: 3, 1: 5, 2: 4, 3: 0})
    won = events_of(events, "auction_won")[0]
    assert won["seat"] == 1 and won["price"] == 5 and won["bids"] == [3, 5, 4, 0]
    assert [p["money"] for p in state.players] == [15, 10, 15, 15]
    assert state.view(3)["last_auction"] == {
        "retailer": "fishmonger",
        "drawer": 0,
        "bids": [3, 5, 4, 0],
        "winner": 1,
        "price": 5,
        "free": False,
    }
    assert state.board[at(state, 2, 8)] == "fishmonger", "seat 1's only plot"


def test_FF_AUCTION_SEALED_bids_from_nothing_up_to_the_money_held():
    state = position(NINE, money={1: 2})
    draw_retailer(state, 0, "fishmonger")
    assert [mv["amount"] for mv in state.legal_moves(1)] == [0, 1, 2]
    for bad, code in [
        ({"type": "bid", "amount": 3}, "bid_above_money"),
        ({"type": "bid", "amount": -1}, "negative_bid"),
        # A wrong kind of value or a missing field: malformed_move, as in every game.
        ({"type": "bid", "amount": 1.0}, "malformed_move"),
        ({"type": "bid", "amount": "1"}, "malformed_move"),
        ({"type": "bid", "amount": True}, "malformed_move"),
        ({"type": "bid"}, "malformed_move"),
        ({"type": "draw"}, "auction_in_progress"),
    ]:
        with pytest.raises(IllegalMove) as refused:
            state.apply(1, bad)
        assert refused.value.code == code, bad


# ---- FF-AUCTION-TIE ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("drawer", "bids", "winner"),
    [
        (2, [4, 1, 1, 4], 3),  # nearest clockwise from seat 2 is seat 3
        (2, [4, 4, 1, 1], 0),  # then seat 0
        (2, [1, 4, 4, 1], 1),  # the drawer comes last: seat 1 beats the drawer
        (2, [0, 0, 0, 0], 3),
        (0, [6, 2, 2, 6], 3),  # drawer 0 ties with seat 3: seat 3, the drawer last
        (1, [5, 5, 5, 1], 2),
    ],
)
def test_FF_AUCTION_TIE_nearest_clockwise_from_the_drawer_wins_the_drawer_last(drawer, bids, winner):
    assert auction.winner(bids, drawer) == winner
    state = position(NINE)
    draw_retailer(state, drawer, "petrol_station")
    events = bid_all(state, dict(enumerate(bids)))
    assert events_of(events, "auction_won")[0]["seat"] == winner


def test_FF_AUCTION_TIE_order_is_left_neighbour_first_drawer_last():
    assert auction.tie_order(2, 4) == [3, 0, 1, 2]
    assert auction.tie_order(0, 5) == [1, 2, 3, 4, 0]
    assert auction.winner([None, 2, None, 2], 1) == 3


# ---- FF-AUCTION-PLACE, FF-AUCTION-FRONT ----------------------------------------------------------
def test_FF_AUCTION_PLACE_the_winner_builds_at_once_choosing_among_their_plots():
    state = position(NINE)
    draw_retailer(state, 1, "game_shop")
    bid_all(state, {0: 2, 1: 1, 2: 0, 3: 0})
    assert state.phase == "place" and state.to_act() == [0]
    assert cells_of(state.legal_moves(0), "place") == {(2, 2), (4, 5)}
    assert state.view(3)["placer"] == 0 and state.view(3)["drawn_tile"] == "game_shop"
    events = state.apply(0, plot_move("place", 4, 5))
    assert events_of(events, "retailer_built")[0] == {
        "type": "retailer_built",
        "seat": 0,
        "tile": "game_shop",
        "row": 4,
        "column": 5,
    }
    assert state.players[0]["retailers"] == {"games": at(state, 4, 5)}
    assert state.view(2)["grid"][3][4] == {"tile": "game_shop", "owner": 0}
    assert events_of(events, "acts_again") and state.to_act() == [1], "the drawer lost: acts again"


def test_FF_AUCTION_FRONT_a_winner_without_a_reserved_plot_keeps_it_in_front_at_the_cap():
    state = position(NINE)
    draw_retailer(state, 0, "waste_dump")
    events = bid_all(state, {0: 0, 1: 0, 2: 0, 3: 1})
    assert events_of(events, "retailer_kept_in_front")[0]["seat"] == 3
    assert state.players[3]["retailers"] == {"nuclear": "front"}
    assert state.view(0)["players"][3]["retailers"]["nuclear"] == "in_front"
    assert state.players[3]["set_aside"] == 2, "no cube marks a retailer off the board"
    assert "waste_dump" not in state.board


# ---- FF-AUCTION-AFTER ----------------------------------------------------------------------------
def test_FF_AUCTION_AFTER_the_drawer_who_wins_ends_the_turn():
    state = position(NINE)
    draw_retailer(state, 2, "fishmonger")
    bid_all(state, {0: 1, 1: 1, 2: 3, 3: 0})
    assert state.board[at(state, 8, 2)] == "fishmonger"
    assert state.phase == "turn" and state.current == 3


def test_FF_AUCTION_AFTER_a_drawer_who_loses_reserves_draws_again_or_neither():
    state = position(NINE)
    events = draw_retailer(state, 2, "fishmonger", rest=("office", "park"))
    events = bid_all(state, {0: 1, 1: 4, 2: 3, 3: 0})
    assert events_of(events, "acts_again") == [{"type": "acts_again", "seat": 2}]
    assert state.phase == "turn" and state.current == 2 and state.to_act() == [2]
    kinds = {mv["type"] for mv in state.legal_moves(2)}
    assert kinds == {"reserve", "draw", "pass"}
    state.apply(2, {"type": "draw"})
    assert state.board[at(state, 8, 2)] == "park" and state.current == 3


def test_FF_AUCTION_AFTER_the_drawer_who_lost_may_do_neither():
    """« le joueur qui a pioché le détaillant peut alors ou piocher une nouvelle tuile ou
    réserver une parcelle »: « peut », may, so passing ends the turn."""
    state = position(NINE)
    draw_retailer(state, 2, "fishmonger", rest=("office", "park"))
    bid_all(state, {0: 1, 1: 4, 2: 3, 3: 0})
    cubes = state.players[2]["cubes"]
    events = state.apply(2, {"type": "pass"})
    assert events_of(events, "turn_passed") == [{"type": "turn_passed", "seat": 2}]
    assert state.current == 3 and state.players[2]["cubes"] == cubes and len(state.pile) == 2
    assert {"type": "pass"} not in state.legal_moves(3), "an ordinary turn cannot be passed"
    before = state.to_dict()
    with pytest.raises(IllegalMove) as refused:
        state.apply(3, {"type": "pass"})
    assert refused.value.code == "pass_only_after_a_lost_auction" and state.to_dict() == before


def test_FF_AUCTION_AFTER_a_drawer_whose_plot_the_winner_expropriated_may_still_reserve():
    state = position(
        """
        P 1 . . . . N
        0 . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        R . . . . . G
        """,
        pile=["park", "fishmonger"],
    )
    state.apply(0, {"type": "draw"})
    state.apply(0, {"type": "bid", "amount": 0})
    events = state.apply(1, {"type": "bid", "amount": 1})
    # seat 1's fishmonger beside the port leaves seat 0's plot as the port's last access
    assert events_of(events, "expropriated")[0]["plots"] == [{"row": 2, "column": 1, "owner": 0}]
    assert state.current == 0 and state.phase == "turn"
    assert {mv["type"] for mv in state.legal_moves(0)} == {"reserve", "pass"}, "no plot left to build on"


# ---- FF-LAST-RETAILER ----------------------------------------------------------------------------
def test_FF_LAST_RETAILER_goes_free_to_the_only_player_lacking_it():
    rows = NINE.replace(". . . . . . . . .\n. . . . 0", ". . f1 . f2 . . . .\n. . . . 0", 1)
    rows = rows.replace("R . . . . . . . G", "R . . . . f3 . . G")
    state = position(rows)
    events = draw_retailer(state, 0, "fishmonger")
    given = events_of(events, "retailer_given")[0]
    assert given["seat"] == 0 and state.view(1)["last_auction"]["free"] is True
    assert state.players[0]["money"] == 15, "without paying"
    assert state.phase == "place" and state.to_act() == [0], "seat 0 has two plots to choose from"
    state.apply(0, plot_move("place", 2, 2))
    assert state.current == 1, "the drawer got it: the turn is over"


def test_FF_LAST_RETAILER_given_to_another_player_lets_the_drawer_act_again():
    rows = NINE.replace(". . . . . . . . .\n. . . . 0", ". . f0 . f1 . . . .\n. . . . 0", 1)
    rows = rows.replace("R . . . . . . . G", "R . . . . f3 . . G")
    state = position(rows, pile=["park", "fishmonger"])
    events = state.apply(0, {"type": "draw"})
    assert events_of(events, "retailer_given")[0]["seat"] == 2
    assert state.board[at(state, 8, 2)] == "fishmonger"
    assert events_of(events, "acts_again") and state.current == 0 and state.phase == "turn"


# ---- FF-CUBES-RETAILER ---------------------------------------------------------------------------
def test_FF_CUBES_RETAILER_the_first_two_retailers_use_the_set_aside_cubes():
    rows = """
    P . . . . . N
    . 0 . . 0 . .
    . . . . . . .
    . . . 0 . . .
    . . . . . . .
    . . . . . . .
    R . . . . . G
    """
    state = position(rows)
    assert state.players[0]["cubes"] == 3 and state.players[0]["set_aside"] == 2
    for goods_tile, plot in (("fishmonger", (2, 2)), ("waste_dump", (2, 5)), ("game_shop", (4, 4))):
        state.pile = [goods_tile]
        state.current = 0
        state.apply(0, {"type": "draw"})
        bid_all(state, {0: 1, 1: 0})
        if state.phase == "place":
            state.apply(0, plot_move("place", *plot))
    player = state.players[0]
    # two retailers marked with the set-aside cubes (reservation cubes back to hand), the
    # third keeps its reservation cube
    assert player["set_aside"] == 0 and player["cubes"] == 5
    view = state.view(None)["players"][0]
    assert view["cubes_on_retailers"] == 3 and view["cubes_in_hand"] == 5
    assert (
        view["cubes_in_hand"] + view["cubes_set_aside"] + view["cubes_on_retailers"] + len(view["reserved"])
        == 8
    )
