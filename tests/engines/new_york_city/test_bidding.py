"""Phase II: the bidding rules (NYC-BID-*, NYC-RESERVE-EXCHANGE, NYC-BONUS)."""

from __future__ import annotations

import pytest

from engines.core import IllegalMove
from engines.new_york_city import board as b

from .helpers import bid, clear_phase1, new_game, play, set_cards, set_press, start_bidding

RED, YELLOW, BLUE = 0, 1, 2


def three_players(**hands):
    """Red leads the press track, then yellow, then blue (the black pawn on 7)."""
    state = new_game(3, seed=0)
    clear_phase1(state)
    set_press(state, (b.BLACK, 7), (RED, 3), (YELLOW, 2), (BLUE, 1))
    for name, hand in hands.items():
        set_cards(state, {"red": RED, "yellow": YELLOW, "blue": BLUE}[name], hand=hand)
    return state


def test_NYC_BID_ORDER_the_press_leader_starts_the_first_bidding_round():
    state = three_players()
    set_press(state, (YELLOW, 4), (b.BLACK, 3), (RED, 2), (BLUE, 1))
    start_bidding(state, "press")
    assert state.bidding["order"] == [YELLOW, BLUE, RED], "clockwise from yellow, wrapping"
    assert state.to_act() == [YELLOW]


def test_NYC_BID_ORDER_one_chance_each_then_the_winner_starts_the_next_round():
    state = three_players(red=["press"], yellow=["press", "press", "dollars"], blue=["press"])
    start_bidding(state, "press")
    bid(state, RED, play("press"))
    assert state.to_act() == [YELLOW]
    bid(state, YELLOW, play("press"), play("press"))
    bid(state, BLUE)
    # Press resolved; the Dollars round starts with the winner, yellow.
    assert state.bidding["round"] == 1 and state.bidding["order"] == [YELLOW, BLUE, RED]
    assert state.to_act() == [YELLOW]


def test_NYC_BID_ORDER_nobody_bids_and_the_starting_player_stays():
    state = three_players()
    start_bidding(state, "dollars", starter=BLUE)
    for seat in (BLUE, RED, YELLOW):
        bid(state, seat)
    assert state.bidding["round"] == 2 and state.bidding["order"][0] == BLUE


def test_NYC_BID_CARDS_only_cards_of_the_round_are_played_alone():
    state = three_players(red=["press", "dollars", "press"])
    start_bidding(state, "press")
    plays = [m for m in state.legal_moves(RED) if m["type"] == "play"]
    assert plays == [play("press")]
    with pytest.raises(IllegalMove) as refused:
        state.apply(RED, play("dollars"))
    assert refused.value.code == "wrong_card_type"
    bid(state, RED, play("press"), play("press"))
    assert state.bidding["bids"][RED]["value"] == 2


def test_NYC_BID_JOKER_one_skyscraper_and_one_joker_are_two_skyscrapers():
    state = three_players(red=["skyscrapers", "joker"])
    start_bidding(state, "skyscrapers", starter=RED)
    assert play("joker") not in state.legal_moves(RED), "jokers are never played alone"
    with pytest.raises(IllegalMove) as refused:
        state.apply(RED, play("joker"))
    assert refused.value.code == "jokers_need_a_card"
    bid(state, RED, play("skyscrapers"), play("joker"))
    assert state.bidding["bids"][RED]["value"] == 2


def test_NYC_BID_JOKER_jokers_alone_cannot_bid():
    state = three_players(red=["joker", "joker", "dollars"])
    start_bidding(state, "press")
    kinds = {m["type"] for m in state.legal_moves(RED)}
    assert "play" not in kinds and {"type": "pass"} in state.legal_moves(RED)
    with pytest.raises(IllegalMove) as refused:
        state.apply(RED, {"type": "play_pair", "cards": ["joker", "joker"]})
    assert refused.value.code == "jokers_need_a_card"


def test_NYC_BID_PAIR_a_joker_and_a_press_card_are_one_characters_card_plus_a_joker_two():
    state = three_players(red=["press", "joker", "joker"])
    start_bidding(state, "characters", starter=RED)
    state.apply(RED, {"type": "play_pair", "cards": ["press", "joker"]})
    assert state.pending["value"] == 1
    bid(state, RED, play("joker"))
    assert state.bidding["bids"][RED]["value"] == 2


def test_NYC_BID_PAIR_two_identical_cards_of_another_type_count_one():
    state = three_players(red=["prestige", "prestige", "press", "dollars"])
    start_bidding(state, "dollars", starter=RED)
    pairs = [m for m in state.legal_moves(RED) if m["type"] == "play_pair"]
    assert pairs == [{"type": "play_pair", "cards": ["prestige", "prestige"]}]
    with pytest.raises(IllegalMove) as refused:
        state.apply(RED, {"type": "play_pair", "cards": ["press", "prestige"]})
    assert refused.value.code == "pair_not_identical"
    bid(state, RED, pairs[0], play("dollars"))
    assert state.bidding["bids"][RED]["value"] == 2
    assert state.bidding["bids"][RED]["cards"] == ["dollars", "prestige", "prestige"]


def test_NYC_BID_VALUE_cards_played_plus_character_bonuses():
    state = three_players(red=["dollars", "dollars", "joker"])
    state.players[RED]["characters"] += [16]
    state.players[RED]["used"] += [False]
    start_bidding(state, "dollars", starter=RED)
    bid(state, RED, play("dollars"), play("dollars"), play("joker"), {"type": "use", "character": 16})
    assert state.bidding["bids"][RED]["value"] == 4


def test_NYC_BID_PRIVATE_a_bid_being_built_is_seen_only_by_its_author():
    state = three_players(red=["press", "press", "dollars"])
    start_bidding(state, "press")
    state.apply(RED, play("press"))
    mine, theirs = state.view(RED), state.view(YELLOW)
    assert mine["pending_bid"]["value"] == 1
    assert theirs["pending_bid"] is None and state.view(None)["pending_bid"] is None
    assert theirs["players"][RED]["hand_size"] == 3, "the table still sees three cards"
    assert theirs["bidding"]["bids"][RED] is None
    assert {"type": "pass"} not in state.legal_moves(RED), "a step cannot be taken back"
    state.apply(RED, {"type": "bid"})
    assert state.view(YELLOW)["bidding"]["bids"][RED]["cards"] == ["press"]
    assert state.view(YELLOW)["players"][RED]["hand_size"] == 2


def test_NYC_RESERVE_EXCHANGE_hand_for_reserve_in_phase_two_only():
    state = new_game(2, seed=3)
    assert not any(m["type"] == "exchange" for m in state.legal_moves(state.actor))
    clear_phase1(state)
    set_cards(state, 0, hand=["dollars", "press"], reserve=["skyscrapers", "prestige"])
    set_press(state, (0, 2), (1, 1), (b.BLACK, 0))
    start_bidding(state, "press")
    moves = [m for m in state.legal_moves(0) if m["type"] == "exchange"]
    assert {"type": "exchange", "give": "dollars", "take": "skyscrapers"} in moves and len(moves) == 4
    state.apply(0, {"type": "exchange", "give": "dollars", "take": "skyscrapers"})
    player = state.players[0]
    assert sorted(player["hand"]) == ["press", "skyscrapers"]
    assert sorted(player["reserve"]) == ["dollars", "prestige"]
    assert state.view(1)["players"][0]["exchanged"] is True
    # Each card moves once per turn: neither the Skyscrapers nor the Dollars card goes back.
    moves = [m for m in state.legal_moves(0) if m["type"] == "exchange"]
    assert moves == [{"type": "exchange", "give": "press", "take": "prestige"}]
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, {"type": "exchange", "give": "skyscrapers", "take": "dollars"})
    assert refused.value.code == "card_already_exchanged"


def test_NYC_RESERVE_EXCHANGE_only_hand_cards_are_played():
    state = new_game(2, seed=3)
    clear_phase1(state)
    set_cards(state, 0, hand=["dollars"], reserve=["press", "press"])
    set_press(state, (0, 2), (1, 1), (b.BLACK, 0))
    start_bidding(state, "press")
    assert play("press") not in state.legal_moves(0)
    state.apply(0, {"type": "exchange", "give": "dollars", "take": "press"})
    bid(state, 0, play("press"))
    assert state.bidding["bids"][0]["value"] == 1 and len(state.players[0]["reserve"]) == 2


def test_NYC_BONUS_ties_go_to_the_press_leader_the_black_pawn_ignored():
    state = three_players(red=["dollars"], yellow=["dollars", "dollars"], blue=["dollars", "dollars"])
    set_press(state, (b.BLACK, 9), (BLUE, 3), (YELLOW, 3), (RED, 1))
    start_bidding(state, "dollars", starter=RED)
    before = [p["dollars"] for p in state.players]
    bid(state, RED, play("dollars"))
    bid(state, YELLOW, play("dollars"), play("dollars"))
    bid(state, BLUE, play("dollars"), play("dollars"))
    gained = [p["dollars"] - before[i] for i, p in enumerate(state.players)]
    assert gained == [1, 2, 3], "blue, on top of yellow on space 3, wins the tie"
    assert state.bidding["order"][0] == BLUE


def test_NYC_BONUS_a_pass_never_wins():
    state = three_players()
    start_bidding(state, "plans", starter=RED)
    for seat in (RED, YELLOW, BLUE):
        bid(state, seat)
    assert [p["board"] for p in state.players] == [4, 4, 4]
