"""Step 2, the auction: rules WB-AUCTION-* of docs/rules/wettstreit.md."""

from __future__ import annotations

import pytest

from engines.core import IllegalMove
from engines.core.events import redact
from engines.wettstreit import material as m

from .position import PASS, bid, play, position

UP = {"type": "auction", "pile": "face_up"}
DOWN = {"type": "auction", "pile": "face_down"}


def auction_position(seats=4, **kwargs):
    kwargs.setdefault("face_up", ["tower-1a", "gate-3a"])
    kwargs.setdefault("face_down", ["cathedral-4a", "town-hall-7a"])
    return position(seats, phase="choose_pile", **kwargs)


# ---- WB-AUCTION-PILE, WB-AUCTION-OPEN ------------------------------------------------------
def test_WB_AUCTION_PILE_the_top_card_of_either_pile():
    state = auction_position()
    assert state.legal_moves(0) == [UP, DOWN]
    events = play(state, UP)
    assert state.auction["card"] == "gate-3a" and state.face_up == ["tower-1a"]
    assert events[0] == {"type": "auction_opened", "seat": 0, "pile": "face_up", "card": "gate-3a"}
    assert {"type": "face_up_revealed", "card": "tower-1a"} in events
    assert state.view(2)["face_up"]["top"] == "tower-1a"


def test_WB_AUCTION_OPEN_the_auctioneer_names_the_opening_bid_and_may_not_pass():
    state = auction_position()
    play(state, UP)
    assert state.to_act() == [0]
    moves = state.legal_moves(0)
    assert PASS not in moves
    assert moves[0] == bid(m.MINIMUM_OPENING_BID)
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, PASS)
    assert refused.value.code == "auctioneer_opens"
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, bid(0))
    assert refused.value.code == "bid_too_low"


# ---- WB-AUCTION-ORDER, WB-AUCTION-RAISE --------------------------------------------------------
def test_WB_AUCTION_ORDER_clockwise_passing_is_final_the_last_bidder_wins():
    state = auction_position(current=2)
    play(state, UP, bid(2))
    assert state.to_act() == [3]
    play(state, bid(3))
    assert state.to_act() == [0]
    play(state, PASS)
    assert state.to_act() == [1]
    play(state, bid(5))
    assert state.to_act() == [2], "the auctioneer bids again when the turn comes round"
    play(state, PASS)
    assert state.to_act() == [3], "seat 0 passed for good and is skipped"
    events = play(state, PASS)
    won = next(e for e in events if e["type"] == "auction_won")
    assert won["seat"] == 1 and won["price"] == 5
    assert "gate-3a" in state.players[1]["hand"]
    assert state.phase == "build_or_sabotage" and state.to_act() == [2]


def test_WB_AUCTION_RAISE_each_bid_higher_up_to_what_all_players_hold():
    state = auction_position(3, money={0: 10, 1: 4, 2: 6})
    play(state, UP, bid(3))
    moves = state.legal_moves(1)
    assert moves[0] == PASS
    assert [mv["amount"] for mv in moves[1:]] == list(range(4, 21))
    assert state.view(1)["bid_ceiling"] == 20
    with pytest.raises(IllegalMove) as refused:
        state.apply(1, bid(3))
    assert refused.value.code == "bid_too_low"
    with pytest.raises(IllegalMove) as refused:
        state.apply(1, bid(21))
    assert refused.value.code == "bid_above_all_money"
    play(state, bid(9))  # more than seat 1 holds: allowed, money is behind the screen
    assert state.auction["bids"][-1] == [1, 9]


# ---- WB-AUCTION-PAY -----------------------------------------------------------------------------
def test_WB_AUCTION_PAY_half_rounded_down_to_the_auctioneer_the_rest_to_the_bank():
    state = auction_position(3, money={0: 10, 1: 10, 2: 10})
    bank = state.bank
    events = play(state, UP, bid(2), bid(7), PASS, PASS)
    assert [p["money"] for p in state.players] == [13, 3, 10]
    assert state.bank == bank + 4
    won = next(e for e in events if e["type"] == "auction_won")
    assert won == {
        "type": "auction_won",
        "card": "gate-3a",
        "seat": 1,
        "price": 7,
        "pile": "face_up",
        "to_auctioneer": 3,
    }


def test_WB_AUCTION_PAY_the_auctioneer_who_wins_pays_it_all_to_the_bank():
    state = auction_position(3)
    bank = state.bank
    play(state, UP, bid(4), PASS, PASS)
    assert state.players[0]["money"] == 6 and state.bank == bank + 4
    assert state.players[0]["hand"] == ["gate-3a"]


# ---- WB-AUCTION-DEFAULT -------------------------------------------------------------------------
def test_WB_AUCTION_DEFAULT_who_cannot_pay_loses_all_and_the_previous_bid_wins():
    state = auction_position(3, money={0: 10, 1: 6, 2: 10})
    bank = state.bank
    events = play(state, UP, bid(3), bid(5), bid(8), PASS, bid(12), PASS)
    # Seat 1 bid 12 holding 6: it forfeits its 6; seat 2's 8 is the bid before, and it pays.
    assert state.players[1]["money"] == 0
    assert state.players[2]["money"] == 2 and state.players[0]["money"] == 14
    assert state.players[2]["hand"] == ["gate-3a"]
    assert state.bank == bank + 6 + 4
    failed = next(e for e in events if e["type"] == "payment_failed")
    assert failed["seat"] == 1 and failed["bid"] == 12
    assert failed["forfeited"] == 6 and "secret" not in failed


def test_WB_HIDDEN_MONEY_the_forfeited_amount_is_public_as_the_bank_total_shows_it():
    state = auction_position(3, money={0: 10, 1: 6, 2: 10})
    bank = state.bank
    events = play(state, UP, bid(3), bid(5), bid(8), PASS, bid(12), PASS)
    failed = next(e for e in events if e["type"] == "payment_failed")
    for viewer in (None, 0, 2):
        assert redact(failed, viewer)["forfeited"] == 6
    assert state.view(None)["bank"] - bank == 6 + 4, "the public bank total already told"


def test_WB_AUCTION_DEFAULT_the_chain_goes_back_to_the_opening_bid():
    state = auction_position(3, money={0: 4, 1: 2, 2: 3})
    play(state, UP, bid(4), bid(5), bid(6), PASS, PASS)
    # 6 (seat 2, holds 3) and 5 (seat 1, holds 2) fail; the auctioneer's 4 wins, all to the bank.
    assert [p["money"] for p in state.players] == [0, 0, 0]
    assert state.players[0]["hand"] == ["gate-3a"]


def test_WB_AUCTION_DEFAULT_no_bid_paid_the_card_goes_back_on_its_pile():
    state = auction_position(3, money={0: 1, 1: 0, 2: 2})
    events = play(state, UP, bid(3), PASS, PASS)
    assert state.players[0]["money"] == 0
    assert state.face_up == ["tower-1a", "gate-3a"]
    assert {"type": "no_sale", "pile": "face_up"} in events
    assert not state.end_triggered and state.phase == "build_or_sabotage"


# ---- WB-AUCTION-FACE-DOWN, WB-AUCTION-KIND ------------------------------------------------------
def test_WB_AUCTION_FACE_DOWN_only_the_auctioneer_sees_the_card():
    state = auction_position(3)
    events = play(state, DOWN)
    opened = events[0]
    assert opened["secret"] == {"to": [0], "fields": {"card": "town-hall-7a"}}
    assert "card" not in {k for k in opened if k != "secret"}
    assert state.view(0)["auction"]["card"] == "town-hall-7a"
    for viewer in (1, 2, None):
        assert state.view(viewer)["auction"]["card"] is None
        assert state.view(viewer)["auction"]["kind"] is None


def test_WB_AUCTION_KIND_named_when_the_bidding_comes_round_again_never_the_value():
    state = auction_position(3)
    play(state, DOWN, bid(2), bid(3))
    assert state.view(1)["auction"]["kind"] is None
    events = play(state, PASS)
    assert events[-1] == {"type": "kind_announced", "seat": 0, "building": "town-hall"}
    for viewer in (1, 2, None):
        shown = state.view(viewer)["auction"]
        assert shown["kind"] == "town-hall" and shown["card"] is None
    events = play(state, PASS)
    won = next(e for e in events if e["type"] == "auction_won")
    assert won["seat"] == 1 and "card" not in {k for k in won if k != "secret"}
    assert won["secret"] == {"to": [0, 1], "fields": {"card": "town-hall-7a"}}
    assert state.view(2)["players"][1]["known_kinds"] == ["town-hall"]
    assert state.view(2)["players"][1]["known_cards"] == []
    assert state.view(0)["players"][1]["known_cards"] == ["town-hall-7a"], "the auctioneer saw it"


def test_WB_AUCTION_KIND_without_a_second_round_the_kind_stays_secret():
    state = auction_position(3)
    events = play(state, DOWN, bid(2), PASS, PASS)
    assert not any(e["type"] == "kind_announced" for e in events)
    assert state.players[0]["hand"] == ["town-hall-7a"]
    assert state.view(1)["players"][0]["known_kinds"] == []


def test_WB_AUCTION_KIND_named_even_if_the_auctioneer_then_passes():
    state = auction_position(4, current=1)
    events = play(state, DOWN, bid(1), PASS, bid(2), PASS)
    assert events[-1]["type"] == "kind_announced" and state.to_act() == [1]
    play(state, PASS)
    assert state.players[3]["hand"] == ["town-hall-7a"]
