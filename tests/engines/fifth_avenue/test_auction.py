"""Auctions (FA-AUCTION-*, FA-BLACK-RESHUFFLE, FA-ONE-PLOT, FA-COMMISSION-RETURN, FA-PARK-*).

The rulebook's examples are here: the colours each of Red, Yellow, Blue and Green may bid in
its two pictures (with the English correction: Yellow bids green), Green's violet-or-grey,
the bid of 19 that the next player must raise to 20 at least, Blue's two grey 4s and two black
4s (3 skyscrapers), Yellow's two violet 4s, a black 5 and two black 6s (1 skyscraper).
"""

from __future__ import annotations

import pytest

from engines.core import IllegalMove
from engines.fifth_avenue import auction
from engines.fifth_avenue import material as m

from .helpers import (
    TS,
    add,
    bid,
    empty_board,
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

W34, E34, W42, W52, E52 = (
    "34th-street-west",
    "34th-street-east",
    "42nd-street-west",
    "52nd-street-west",
    "52nd-street-east",
)


def at(state, district, colour):
    return ring(state, district).index(colour)


def put_colour(state, district, colour, **kw):
    put(state, district, at(state, district, colour), **kw)


def table(seats=3, **kw):
    """A game with an empty board, every hand empty, pawns at Start, seat 0 to play."""
    state = new_game(seats, **kw)
    empty_board(state)
    for seat in range(seats):
        set_hand(state, seat, [])
    return state


# ---- FA-AUCTION-VENUES, FA-AUCTION-TOKEN, FA-COMMISSION-RETURN ------------------------------
def test_FA_AUCTION_VENUES_expertised_districts_nearest_start_first_then_central_park():
    state = table()
    events = start_auction(state, 1, [W52, TS, W34])
    assert first(events, "auctions_started")["venues"] == [W34, TS, W52, m.CENTRAL_PARK]
    assert state.auction["venues"][0] == W34 and state.to_act() == [1]
    seen = []
    while state.auction is not None:
        seen.append(state.auction["venues"][0])
        for _ in range(3):
            pass_(state, state.to_act()[0])
    assert seen == [W34, TS, W52, m.CENTRAL_PARK]


def test_FA_AUCTION_VENUES_only_the_returned_pawns_colour():
    state = table()
    state.expertise["beige"] = [E34]
    start_auction(state, 0, [TS], pawn="white")
    assert state.auction["venues"] == [TS, m.CENTRAL_PARK]
    assert state.expertise["beige"] == [E34]


def test_FA_AUCTION_TOKEN_each_token_goes_back_to_start_after_its_auction():
    state = table()
    start_auction(state, 0, [W34, TS])
    for _ in range(3):
        pass_(state, state.to_act()[0])
    assert state.expertise["white"] == [TS]
    for _ in range(3):
        pass_(state, state.to_act()[0])
    assert state.expertise["white"] == [] and state.pawns["white"] == m.START


def test_FA_COMMISSION_RETURN_the_turn_stops_for_the_auctions_and_resumes_after():
    state = table()
    state.pawns["white"] = m.CENTRAL_PARK
    state.expertise["white"] = [TS]
    state.apply(0, {"type": "choose_action", "action": "C"})
    events = state.apply(0, {"type": "move_commission", "pawn": "white", "to": m.START})
    assert "auctions_started" in types(events) and state.phase == "bid"
    for _ in range(6):
        pass_(state, state.to_act()[0])
    assert state.auction is None
    assert state.phase == "take_cards" and state.to_act() == [0], "C's phases 2 and 3 follow the auctions"
    state.apply(0, {"type": "take_card", "colour": "grey"})
    state.apply(0, {"type": "take_card", "colour": "green"})
    assert state.phase == "move_commission" and state.turn["step"] == 3
    state.pawns["beige"] = m.CENTRAL_PARK
    state.apply(0, {"type": "move_commission", "pawn": "beige", "to": m.START})
    assert state.phase == "bid", "the other pawn back at Start stops the game again"
    for _ in range(3):
        pass_(state, state.to_act()[0])
    assert state.phase == "choose_action" and state.to_act() == [1]


# ---- FA-AUCTION-ORDER, FA-AUCTION-END, FA-AUCTION-PASS --------------------------------------
def test_FA_AUCTION_ORDER_from_the_mover_clockwise_round_after_round():
    state = table(4)
    for seat in range(4):
        set_hand(state, seat, ["grey-4", "grey-5", "grey-6", "black-6", "black-5"])
    start_auction(state, 2, [TS])
    bid(state, 2, "grey-4")
    order = [2]
    for seat, cards in ((3, ("grey-4", "black-5")), (0, ()), (1, ("grey-6", "black-6"))):
        assert state.to_act() == [seat]
        order.append(seat)
        if cards:
            bid(state, seat, *cards)
        else:
            pass_(state, seat)
    assert order == [2, 3, 0, 1]
    assert state.to_act() == [2], "a second round: seat 0 passed and is out"
    bid(state, 2, "black-6", "black-5", "grey-5")  # 4 + 16 = 20 > 12
    assert state.to_act() == [3]
    pass_(state, 3)
    assert state.to_act() == [1]
    pass_(state, 1)
    assert state.phase == "build" and state.auction["award"]["seat"] == 2


def test_FA_AUCTION_END_no_bid_at_all_cancels_the_auction():
    state = table()
    start_auction(state, 0, [TS])
    for _ in range(3):
        events = pass_(state, state.to_act()[0])
    assert "auction_cancelled" in types(events)
    assert state.auction["venues"] == [m.CENTRAL_PARK] and state.to_act() == [0]


def test_FA_AUCTION_END_the_last_seat_in_may_still_bid_and_wins_at_once():
    state = table()
    set_hand(state, 2, ["orange-4"])
    start_auction(state, 0, [TS])
    pass_(state, 0)
    pass_(state, 1)
    assert state.to_act() == [2]
    events = bid(state, 2, "orange-4")
    assert first(events, "auction_won")["winner"] == 2 and state.phase == "build"


def test_FA_AUCTION_PASS_out_for_good_taking_back_the_cards_bid():
    state = table()
    set_hand(state, 0, ["grey-4", "black-4"])
    set_hand(state, 1, ["brown-6", "black-6"])
    start_auction(state, 0, [TS])
    bid(state, 0, "grey-4")
    bid(state, 1, "brown-6")
    pass_(state, 2)
    add(state, 0, "black-4")
    events = pass_(state, 0)
    assert first(events, "passed")["cards_taken_back"] == ["grey-4"], "the draft was never shown"
    assert sorted(state.players[0]["hand"]) == ["black-4", "grey-4"]
    assert state.players[0]["shown"] == ["grey-4"], "the table saw the grey 4"
    assert state.phase == "build" and state.auction["award"]["seat"] == 1


# ---- FA-AUCTION-COLOUR, FA-ONE-PLOT, FA-AUCTION-FIRST-CARD ---------------------------------
def test_FA_AUCTION_COLOUR_the_rulebook_first_picture():
    red, yellow, blue, green = 0, 1, 2, 3
    state = table(4)
    put_colour(state, TS, "orange", owner=red, count=2)
    put_colour(state, TS, "green", owner=yellow, count=1)
    put_colour(state, TS, "violet", shops=("fashion",))
    allowed = [auction.allowed_colours(state, TS, seat) for seat in range(4)]
    assert allowed[red] == ["orange"] and allowed[yellow] == ["green"]
    assert allowed[blue] == allowed[green] == ["brown", "grey"]
    assert all("violet" not in a for a in allowed), "nobody may bid violet"


def test_FA_AUCTION_COLOUR_the_rulebook_second_picture():
    red, yellow, blue, green = 0, 1, 2, 3
    state = table(4)
    put_colour(state, TS, "orange", owner=red, count=1)
    put_colour(state, TS, "green", owner=yellow, count=1)
    put_colour(state, TS, "brown", owner=blue, count=3)
    allowed = [auction.allowed_colours(state, TS, seat) for seat in range(4)]
    assert (allowed[red], allowed[yellow], allowed[blue]) == (["orange"], ["green"], ["brown"])
    assert allowed[green] == ["grey", "violet"]


def test_FA_AUCTION_COLOUR_no_free_plot_left_bid_for_a_plot_of_shops_never_another_players():
    red, yellow, blue, green = 0, 1, 2, 3
    state = table(4)
    put_colour(state, TS, "orange", owner=red, count=1)
    put_colour(state, TS, "green", owner=yellow, count=1)
    put_colour(state, TS, "brown", owner=blue, count=1)
    put_colour(state, TS, "violet", shops=("gallery",))
    put_colour(state, TS, "grey", shops=("fashion", "perfumery"))
    assert auction.allowed_colours(state, TS, green) == ["grey", "violet"], "Green: violet or grey"
    assert auction.allowed_colours(state, TS, red) == ["orange"], "a seat with a plot keeps to it"


def test_FA_ONE_PLOT_a_seat_with_skyscrapers_bids_only_its_own_plot_even_with_free_ones():
    state = table()
    put(state, TS, 2, owner=0, count=1)
    set_hand(state, 0, ["orange-4", "brown-4", "grey-4", "violet-4", "green-4", "black-5"])
    start_auction(state, 0, [TS])
    own = ring(state, TS)[2]
    assert [mv["card"] for mv in state.legal_moves(0) if mv["type"] == "add_card"] == [f"{own}-4"]
    other = next(c for c in m.COLOURS if c != own)
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, {"type": "add_card", "card": f"{other}-4"})
    assert refused.value.code == "colour_not_allowed"
    bid(state, 0, f"{own}-4", "black-5")
    pass_(state, 1)
    pass_(state, 2)
    state.apply(0, {"type": "build", "count": 2})
    assert plot(state, TS, 2) == {"shops": [], "owner": 0, "count": 3}, "more skyscrapers on the same plot"


def test_FA_AUCTION_FIRST_CARD_a_colour_card_first_then_that_colour_or_black():
    state = table()
    set_hand(state, 0, ["black-6", "grey-4", "grey-5", "green-4", "black-4"])
    start_auction(state, 0, [TS])
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, {"type": "add_card", "card": "black-6"})
    assert refused.value.code == "first_card_coloured"
    add(state, 0, "grey-4")
    listed = [mv["card"] for mv in state.legal_moves(0) if mv["type"] == "add_card"]
    assert listed == ["grey-5", "black-4", "black-6"]
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, {"type": "add_card", "card": "green-4"})
    assert refused.value.code == "must_follow_colour"
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, {"type": "add_card", "card": "grey-6"})
    assert refused.value.code == "card_not_in_hand"
    add(state, 0, "black-6", "black-4")
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, {"type": "add_card", "card": "black-4"})
    assert refused.value.code == "card_not_in_hand", "a card is added once"
    events = state.apply(0, {"type": "bid"})
    assert first(events, "bid") == {
        "type": "bid",
        "seat": 0,
        "cards": ["grey-4", "black-6", "black-4"],
        "colour": "grey",
        "total": 14,
    }


# ---- FA-AUCTION-RAISE -------------------------------------------------------------------------
def test_FA_AUCTION_RAISE_after_a_bid_of_19_the_next_must_reach_20():
    state = table()
    set_hand(state, 0, ["brown-4", "brown-5", "black-4", "black-6"])
    set_hand(state, 1, ["grey-4", "grey-5", "black-4", "black-6", "black-5"])
    start_auction(state, 0, [TS])
    bid(state, 0, "brown-4", "brown-5", "black-4", "black-6")
    assert state.auction["value"] == 19
    add(state, 1, "grey-4", "grey-5", "black-4")
    assert {"type": "bid"} not in state.legal_moves(1), "13 does not beat 19"
    add(state, 1, "black-6")
    assert {"type": "bid"} not in state.legal_moves(1), "19 does not beat 19"
    with pytest.raises(IllegalMove) as refused:
        state.apply(1, {"type": "bid"})
    assert refused.value.code == "bid_too_low"
    add(state, 1, "black-5")
    assert {"type": "bid"} in state.legal_moves(1)
    state.apply(1, {"type": "bid"})
    assert state.auction["value"] == 24 and state.auction["high"] == 1


def test_FA_AUCTION_RAISE_only_by_adding_cards_to_those_bid():
    state = table()
    set_hand(state, 0, ["brown-4", "brown-6", "black-4"])
    set_hand(state, 1, ["grey-6", "black-5"])
    start_auction(state, 0, [TS])
    bid(state, 0, "brown-4")
    bid(state, 1, "grey-6")
    pass_(state, 2)
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, {"type": "bid"})
    assert refused.value.code == "nothing_added"
    bid(state, 0, "black-4")  # 4 + 4 = 8 > 6
    assert state.auction["bids"][0] == ["brown-4", "black-4"] and state.auction["value"] == 8
    assert state.players[0]["hand"] == ["brown-6"]


def test_FA_AUCTION_RAISE_the_cards_added_stay_private_until_the_bid():
    state = table()
    set_hand(state, 0, ["brown-4", "black-6"])
    start_auction(state, 0, [TS])
    add(state, 0, "brown-4")
    assert state.view(0)["auction"]["my_draft"] == ["brown-4"]
    for viewer in (None, 1, 2):
        view = state.view(viewer)
        assert "brown-4" not in str(view["auction"]) and view["players"][0]["hand_size"] == 2


# ---- FA-AUCTION-DISCARD, FA-AUCTION-BUILD -------------------------------------------------------
def test_FA_AUCTION_DISCARD_the_winners_cards_go_face_up_under_their_piles():
    state = table()
    set_hand(state, 1, ["grey-4", "grey-5", "black-4"])
    start_auction(state, 1, [TS])
    hidden_grey = list(state.colour_piles["grey"]["hidden"])
    bid(state, 1, "grey-4", "grey-5", "black-4")
    pass_(state, 2)
    pass_(state, 0)
    assert state.colour_piles["grey"] == {"hidden": hidden_grey, "known": ["grey-4", "grey-5"]}
    assert state.black_pile["known"][-1] == ["black-4", True]
    assert state.players[1]["hand"] == []


@pytest.mark.parametrize(
    ("cards", "limit"),
    [
        (["grey-4", "grey-4", "black-4", "black-4"], 3),  # Blue's example
        (["grey-4", "grey-4", "black-5", "black-6", "black-6"], 1),  # Yellow's example (violet there)
        (["grey-5", "black-4"], 2),
        (["grey-4", "black-5"], 2),
        (["grey-6"], 1),
    ],
)
def test_FA_AUCTION_BUILD_the_highest_card_limits_the_skyscrapers(cards, limit):
    state = table()
    state.players[0]["reserve"] = 9
    set_hand(state, 0, cards)
    start_auction(state, 0, [TS])
    bid(state, 0, *cards)
    pass_(state, 1)
    pass_(state, 2)
    assert state.legal_moves(0) == [{"type": "build", "count": k} for k in range(limit + 1)]
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, {"type": "build", "count": limit + 1})
    assert refused.value.code == "card_limit"


def test_FA_AUCTION_BUILD_fewer_or_none_and_only_from_the_reserve():
    state = table()
    state.players[0]["reserve"] = 1
    set_hand(state, 0, ["grey-4"])
    start_auction(state, 0, [TS])
    bid(state, 0, "grey-4")
    pass_(state, 1)
    pass_(state, 2)
    assert state.legal_moves(0) == [{"type": "build", "count": 0}, {"type": "build", "count": 1}]
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, {"type": "build", "count": 2})
    assert refused.value.code == "not_enough_skyscrapers"
    state.apply(0, {"type": "build", "count": 0})
    grey = plot(state, TS, at(state, TS, "grey"))
    assert grey == {"shops": [], "owner": None, "count": 0}, "building nothing leaves the plot free"


def test_FA_AUCTION_BUILD_a_seat_with_an_empty_reserve_may_still_bid():
    state = table()
    state.players[0]["reserve"] = 0
    set_hand(state, 0, ["grey-4"])
    start_auction(state, 0, [TS])
    bid(state, 0, "grey-4")
    pass_(state, 1)
    pass_(state, 2)
    assert state.legal_moves(0) == [{"type": "build", "count": 0}]


def test_FA_AUCTION_BUILD_on_the_free_plot_of_the_colour_bid():
    state = table()
    set_hand(state, 2, ["violet-4", "black-4"])
    start_auction(state, 2, [TS])
    bid(state, 2, "violet-4", "black-4")
    pass_(state, 0)
    pass_(state, 1)
    events = state.apply(2, {"type": "build", "count": 3})
    assert plot(state, TS, at(state, TS, "violet")) == {"shops": [], "owner": 2, "count": 3}
    assert state.players[2]["reserve"] == 0
    assert first(events, "skyscrapers_built") == {
        "type": "skyscrapers_built",
        "seat": 2,
        "venue": TS,
        "plot": "violet",
        "count": 3,
    }


# ---- FA-BLACK-RESHUFFLE -----------------------------------------------------------------------
def test_FA_BLACK_RESHUFFLE_when_a_face_up_black_card_comes_to_the_top():
    state = table()
    state.black_pile = {"hidden": ["black-4"], "known": [["black-6", True], ["black-5", True]]}
    state.apply(0, {"type": "choose_action", "action": "C"})
    assert sorted(state.black_pile["hidden"]) == ["black-5", "black-6"] and state.black_pile["known"] == []
    state.black_pile = {"hidden": [], "known": []}
    set_hand(state, 1, ["grey-4", "black-5"])
    start_auction(state, 1, [TS])
    bid(state, 1, "grey-4", "black-5")
    pass_(state, 2)
    events = pass_(state, 0)
    assert "black_pile_reshuffled" in types(events), "a face-up card on an empty pile is at once on top"
    assert state.black_pile == {"hidden": ["black-5"], "known": []}


# ---- FA-PARK-AUCTION, FA-PARK-BUILD -------------------------------------------------------------
def test_FA_PARK_AUCTION_the_first_card_chooses_the_colour_for_everyone():
    state = table()
    set_hand(state, 0, ["violet-4", "grey-5"])
    set_hand(state, 1, ["grey-6", "violet-5", "black-4"])
    start_auction(state, 0, [])
    assert state.auction["venues"] == [m.CENTRAL_PARK]
    assert {mv["card"] for mv in state.legal_moves(0) if mv["type"] == "add_card"} == {"violet-4", "grey-5"}
    bid(state, 0, "violet-4")
    assert state.auction["park_colour"] == "violet"
    assert [mv["card"] for mv in state.legal_moves(1) if mv["type"] == "add_card"] == ["violet-5"]
    with pytest.raises(IllegalMove) as refused:
        state.apply(1, {"type": "add_card", "card": "grey-6"})
    assert refused.value.code == "park_colour_fixed"
    bid(state, 1, "violet-5", "black-4")
    pass_(state, 2)
    pass_(state, 0)
    assert state.auction["award"]["limit"] == 2
    state.apply(1, {"type": "build", "count": 2})
    assert state.players[1]["park"] == 2 and state.players[1]["reserve"] == 1


def test_FA_PARK_AUCTION_if_the_starter_plays_no_card_the_next_one_chooses():
    state = table()
    set_hand(state, 1, ["green-4"])
    set_hand(state, 2, ["grey-4", "green-5"])
    start_auction(state, 0, [])
    pass_(state, 0)
    bid(state, 1, "green-4")
    assert [mv["card"] for mv in state.legal_moves(2) if mv["type"] == "add_card"] == ["green-5"]


def test_FA_PARK_BUILD_park_skyscrapers_never_score_during_the_game():
    state = table()
    state.players[0]["park"] = 3
    state.pawns["white"] = TS
    state.apply(0, {"type": "choose_action", "action": "D"})
    events = state.apply(0, {"type": "score_district", "district": TS})
    assert first(events, "district_scored")["points"] == [0, 0, 0]
    assert state.players[0]["score"] == 0


def test_FA_PARK_BUILD_central_park_is_never_closed():
    state = table()
    set_hand(state, 0, ["grey-4"])
    start_auction(state, 0, [])
    bid(state, 0, "grey-4")
    pass_(state, 1)
    pass_(state, 2)
    assert {"type": "close_district"} not in state.legal_moves(0)
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, {"type": "close_district"})
    assert refused.value.code == "park_never_closed"


# ---- explanations -----------------------------------------------------------------------------
def test_FA_AUCTION_refusals_leave_the_state_unchanged():
    state = table()
    set_hand(state, 0, ["grey-4"])
    start_auction(state, 0, [TS])
    before = state.to_dict()
    for bad, code in [
        ({"type": "add_card", "card": "gold-4"}, "no_such_card"),
        ({"type": "add_card"}, "malformed_move"),
        ({"type": "build", "count": 1}, "not_now"),
        ({"type": "choose_action", "action": "A"}, "not_now"),
    ]:
        with pytest.raises(IllegalMove) as refused:
            state.apply(0, bad)
        assert refused.value.code == code
        assert state.to_dict() == before
