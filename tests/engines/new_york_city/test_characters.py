"""The 42 characters (NYC-CHAR-USE, NYC-CHAR-1 … NYC-CHAR-40-42)."""

from __future__ import annotations

import pytest

from engines.core import IllegalMove
from engines.new_york_city import board as b
from engines.new_york_city import cards as c
from engines.new_york_city import characters as ch
from engines.new_york_city import press
from engines.new_york_city.scoring import best_sets, end_condition, final_scores

from .helpers import (
    DISTRICT,
    bid,
    clear_phase1,
    give_characters,
    new_game,
    play,
    set_cards,
    set_press,
    start_bidding,
    use,
)


def phase_one(*numbers, seed=5, dollars=3):
    """Two seats in Phase I; the seat to act owns only ``numbers`` and has ``dollars``."""
    state = new_game(2, seed=seed)
    seat = state.actor
    for player in state.players:
        player["characters"], player["used"] = [], []
    give_characters(state, seat, *numbers)
    state.players[seat]["dollars"] = dollars
    return state, seat


def bidding(kind, hand, *numbers, reserve=None, dollars=3, seats=2):
    """Seat 0 (press leader) to bid in ``kind`` with ``hand`` and characters ``numbers``."""
    state = new_game(seats, seed=11)
    clear_phase1(state)
    set_press(state, *[(p, 5 - p) for p in range(seats)], (b.BLACK, 0))
    set_cards(state, 0, hand=hand, reserve=reserve)
    give_characters(state, 0, *numbers)
    state.players[0]["dollars"] = dollars
    start_bidding(state, kind, starter=0)
    return state


# ---- NYC-CHAR-USE --------------------------------------------------------------------------------
def test_NYC_CHAR_USE_once_per_round_for_a_dollar_placed_on_it():
    state, seat = phase_one(6, dollars=1)
    state.apply(seat, use(6))
    player = state.players[seat]
    assert player["dollars"] == 2 and player["on_characters"] == 1 and player["used"] == [True]
    assert use(6) not in state.legal_moves(state.actor) or state.actor != seat


def test_NYC_CHAR_USE_no_dollar_no_use():
    state, seat = phase_one(6, dollars=0)
    assert use(6) not in state.legal_moves(seat)
    with pytest.raises(IllegalMove) as refused:
        state.apply(seat, use(6))
    assert refused.value.code == "no_dollar"


def test_NYC_CHAR_USE_only_in_its_phase_and_on_its_owners_turn():
    state, seat = phase_one(23, 13)
    for n in (23, 13):
        with pytest.raises(IllegalMove) as refused:
            state.apply(seat, use(n, **({"card": "press"} if n == 13 else {})))
        assert refused.value.code == "wrong_phase_for_character"
    with pytest.raises(IllegalMove) as refused:
        state.apply(seat, use(30))
    assert refused.value.code == "end_game_character"


def test_NYC_CHAR_USE_two_copies_are_used_separately():
    state, seat = phase_one(6, 6)
    state.apply(seat, use(6))
    assert state.players[seat]["used"] == [True, False] and use(6) in state.legal_moves(seat)
    state.apply(seat, use(6))
    assert state.players[seat]["dollars"] == 3 - 2 + 4


# ---- Phase I ------------------------------------------------------------------------
def test_NYC_CHAR_1_one_point_discard_and_draw_as_many():
    state, seat = phase_one(1)
    set_cards(state, seat, hand=["press", "press", "joker"])
    state.apply(seat, use(1))
    assert state.legal_moves(seat) == [
        {"type": "select", "card": "press"},
        {"type": "select", "card": "joker"},
        {"type": "confirm"},
    ]
    state.apply(seat, {"type": "select", "card": "press"})
    other = 1 - seat
    assert "selected" in state.view(seat)["turn"] and "selected" not in state.view(other)["turn"]
    state.apply(seat, {"type": "select", "card": "joker"})
    discard = len(state.discard)
    state.apply(seat, {"type": "confirm"})
    player = state.players[seat]
    assert player["score"] == 1 and len(player["hand"]) == 3 and player["on_characters"] == 1
    assert state.discard[discard:] == ["press", "joker"]


def test_NYC_CHAR_2_one_card_from_each_of_two_pairs_the_rest_form_a_pair():
    state, seat = phase_one(2)
    state.pairs = [["press", "dollars"], ["joker", "prestige"], ["plans", "plans"]]
    move = use(2, pairs=[0, 1], cards=["press", "prestige"])
    assert move in state.legal_moves(seat)
    state.apply(seat, move)
    assert state.pairs == [["plans", "plans"], ["dollars", "joker"]]
    assert state.players[seat]["hand"][-2:] == ["press", "prestige"]
    assert state.players[seat]["pairs_taken"] == 1


def test_NYC_CHAR_3_a_face_up_card_and_one_more_reserve_card():
    state, seat = phase_one(3)
    state.apply(seat, use(3))
    player = state.players[seat]
    assert player["score"] == 1 and player["reserve_size"] == 3 and len(player["shown"]) == 1
    assert state.view(1 - seat)["players"][seat]["shown"] == player["shown"]
    assert state.view(1 - seat)["players"][seat]["reserve_count"] == 3


def test_NYC_CHAR_4_both_pairs_at_once():
    state, seat = phase_one(4)
    state.apply(seat, use(4))
    state.apply(seat, {"type": "take_pair", "pair": 0})
    assert state.actor == seat
    state.apply(seat, {"type": "take_pair", "pair": 0})
    assert state.players[seat]["pairs_taken"] == 2 and len(state.players[seat]["hand"]) == 7
    while state.stage == "pick":
        assert state.actor != seat, "the second turn is skipped"
        state.apply(state.actor, {"type": "take_pair", "pair": 0})


def test_NYC_CHAR_4_only_before_the_first_pair():
    state, seat = phase_one(4, 6)
    state.apply(seat, {"type": "take_pair", "pair": 0})
    assert use(4) not in state.legal_moves(seat)


def test_NYC_CHAR_5_draw_three_discard_two():
    state, seat = phase_one(5)
    state.apply(seat, use(5))
    assert len(state.players[seat]["hand"]) == 6
    moves = state.legal_moves(seat)
    assert moves and all(m["type"] == "discard" and len(m["cards"]) == 2 for m in moves)
    state.apply(seat, moves[0])
    assert len(state.players[seat]["hand"]) == 4


def test_NYC_CHAR_6_take_two_dollars():
    state, seat = phase_one(6, dollars=1)
    state.apply(seat, use(6))
    assert state.players[seat]["dollars"] == 2


def test_NYC_CHAR_7_discard_a_two_take_a_three_discard_a_five_take_a_five():
    state, seat = phase_one(7, 13, 21)
    takes = {m["take"] for m in state.legal_moves(seat) if m.get("character") == 7 and m["discard"] == 13}
    assert max(ch.VALUE[n] for n in takes) == 3 and min(ch.VALUE[n] for n in takes) == 1
    takes = {m["take"] for m in state.legal_moves(seat) if m.get("character") == 7 and m["discard"] == 21}
    assert {ch.VALUE[n] for n in takes} == {1, 2, 3, 4, 5}
    three = next(iter(n for n in takes if ch.VALUE[n] == 3))
    state.apply(seat, use(7, discard=13, take=three))
    assert sorted(state.players[seat]["characters"]) == sorted([7, 21, three])
    assert state.removed == [13]
    assert not any(m.get("discard") == 7 for m in state.legal_moves(seat) if m.get("character") == 7)


def test_NYC_CHAR_8_identical_reserve_cards_join_the_pair_just_taken():
    """Rulebook: a white and a yellow card taken; a white and a yellow reserve card join them."""
    state, seat = phase_one(8)
    set_cards(state, seat, reserve=["press", "dollars"])
    state.pairs[0] = ["dollars", "press"]
    assert not any(m.get("character") == 8 for m in state.legal_moves(seat)), "only after a pair"
    state.apply(seat, {"type": "take_pair", "pair": 0})
    assert use(8, cards=["press", "dollars"]) in state.legal_moves(seat)
    state.apply(seat, use(8, cards=["press", "dollars"]))
    player = state.players[seat]
    assert sorted(player["hand"][-2:]) == ["dollars", "press"] and len(player["hand"]) == 7
    assert len(player["reserve"]) == 2, "the reserve is refilled from the deck"
    known = state.view(1 - seat)["players"][seat]["known_cards"]
    assert c.counts(known)["press"] == 2 and c.counts(known)["dollars"] == 2


def test_NYC_CHAR_9_draw_one_and_take_a_dollar():
    state, seat = phase_one(9, dollars=1)
    state.apply(seat, use(9))
    assert state.players[seat]["dollars"] == 1 and len(state.players[seat]["hand"]) == 4


def test_NYC_CHAR_10_draw_two():
    state, seat = phase_one(10)
    state.apply(seat, use(10))
    assert len(state.players[seat]["hand"]) == 5


def test_NYC_CHAR_11_a_black_skyscraper_replaced_by_one_from_the_board():
    state, seat = phase_one(11)
    state.apply(seat, use(11, district="queens"))
    q = DISTRICT["queens"]
    assert state.black[q] == 1 and state.black_removed == 1
    assert state.towers[q][seat] == 1 + (state.letters[q] == "X") and state.players[seat]["board"] == 3


# ---- Phase II ------------------------------------------------------------------------
def test_NYC_CHAR_12_one_point_reserve_discarded_and_refilled():
    state = bidding("press", ["press"], 12, reserve=["joker", "plans"])
    state.apply(0, use(12))
    assert state.legal_moves(0) == [
        {"type": "select", "card": "plans"},
        {"type": "select", "card": "joker"},
        {"type": "confirm"},
    ]
    state.apply(0, {"type": "select", "card": "plans"})
    assert state.view(0)["pending_bid"]["selected"] == ["plans"]
    assert state.view(1)["pending_bid"] is None
    state.apply(0, {"type": "confirm"})
    player = state.players[0]
    assert player["score"] == 1 and len(player["reserve"]) == 2 and "joker" in player["reserve"]
    assert state.discard[-1] == "plans" and player["on_characters"] == 1


def test_NYC_CHAR_13_another_card_counts_as_a_press_card():
    state = bidding("press", ["dollars", "joker"], 13)
    state.apply(0, use(13, card="dollars"))
    bid(state, 0, play("joker"))
    assert state.bidding["bids"][0]["value"] == 2 and state.players[0]["on_characters"] == 1


def test_NYC_CHAR_14_three_characters_cards_and_two_spaces_back_make_five():
    state = bidding("characters", ["characters"] * 3, 14)
    assert not any(m.get("character") == 14 for m in state.legal_moves(0)), "jokers need a card"
    for _ in range(3):
        state.apply(0, play("characters"))
    state.apply(0, use(14, steps=2))
    assert press.space_of(state.press, 0) == 5, "the pawn moves when the bid is laid down"
    state.apply(0, {"type": "bid"})
    assert state.bidding["bids"][0]["value"] == 5
    assert press.space_of(state.press, 0) == 3


def test_NYC_CHAR_15_a_reserve_card_with_the_same_symbol_then_refill():
    state = bidding("dollars", ["dollars"], 15, 15, reserve=["dollars", "dollars"])
    state.apply(0, play("dollars"))
    state.apply(0, use(15, card="dollars"))
    assert len(state.players[0]["reserve"]) == 2
    state.apply(0, use(15, card="dollars"))
    state.apply(0, {"type": "bid"})
    assert state.bidding["bids"][0]["value"] == 3, "two 15s on the same card: 1 + 2 reserve cards"


def test_NYC_CHAR_15_another_type_with_a_reserve_card_makes_a_pair():
    state = bidding("dollars", ["press"], 15, reserve=["press", "joker"])
    assert use(15, card="press") in state.legal_moves(0)
    state.apply(0, use(15, card="press"))
    state.apply(0, {"type": "bid"})
    assert state.bidding["bids"][0]["value"] == 1 and state.bidding["bids"][0]["cards"] == ["press", "press"]


def test_NYC_CHAR_15_not_with_a_card_counted_by_13_or_20():
    state = bidding("dollars", ["press"], 13, 15, reserve=["press", "press"])
    state.apply(0, use(13, card="press"))
    assert not any(m.get("character") == 15 for m in state.legal_moves(0))


def test_NYC_CHAR_16_one_more_joker():
    state = bidding("press", ["press"], 16)
    assert use(16) not in state.legal_moves(0)
    bid(state, 0, play("press"), use(16))
    assert state.bidding["bids"][0]["value"] == 2


def test_NYC_CHAR_17_one_more_prestige_card_in_the_prestige_round_only():
    state = bidding("dollars", ["dollars"], 17)
    assert use(17) not in state.legal_moves(0)
    state = bidding("prestige", [], 17)
    bid(state, 0, use(17))
    bid(state, 1)
    assert state.players[0]["score"] == 1


def test_NYC_CHAR_18_a_dollar_and_bid_last():
    state = bidding("dollars", ["dollars"], 18, seats=3)
    state.players[1]["characters"] += [18]
    state.players[1]["used"] += [False]
    state.apply(0, use(18))
    assert state.bidding["order"] == [1, 2, 0] and state.to_act() == [1]
    assert state.players[0]["dollars"] == 3
    assert use(18) not in state.legal_moves(1), "no one else may use 18 this bidding round"
    bid(state, 1)
    bid(state, 2)
    assert state.to_act() == [0]
    assert use(18) not in state.legal_moves(0)
    bid(state, 0, play("dollars"))


def test_NYC_CHAR_19_double_prestige_points_even_with_17():
    state = bidding("prestige", ["prestige"], 17, 19)
    bid(state, 0, play("prestige"), use(17), use(19))
    bid(state, 1)
    assert state.players[0]["score"] == 4


def test_NYC_CHAR_20_a_press_card_counts_as_two_skyscrapers():
    state = bidding("skyscrapers", ["press"], 20)
    state.apply(0, use(20, card="press"))
    state.apply(0, {"type": "bid"})
    assert state.bidding["bids"][0]["value"] == 2


def test_NYC_CHAR_21_one_more_skyscraper_from_the_supply():
    state = bidding("skyscrapers", ["skyscrapers"], 21)
    mayor = state.mayor
    bid(state, 0, play("skyscrapers"))
    bid(state, 1)
    assert state.legal_moves(0) == [
        {"type": "build", "from": "board", "extra": False},
        {"type": "build", "from": "board", "extra": True},
    ]
    before = state.towers[mayor][0]
    state.apply(0, {"type": "build", "from": "board", "extra": True})
    assert state.towers[mayor][0] == before + 3, "2 with the bonus, 1 more from the supply"
    assert state.players[0]["supply"] == 14 and state.players[0]["board"] == 2


def test_NYC_CHAR_21_with_the_prestige_bonus():
    state = bidding("prestige", ["prestige"], 21)
    bid(state, 0, play("prestige"))
    bid(state, 1)
    move = next(m for m in state.legal_moves(0) if m["type"] == "prestige" and m["extra"])
    d = DISTRICT[move["district"]]
    before = state.towers[d][0]
    state.apply(0, move)
    assert state.towers[d][0] == before + 2


def test_NYC_CHAR_22_after_a_bidding_round_replace_up_to_two_hand_cards():
    state = bidding("press", ["press", "joker", "plans"], 22)
    bid(state, 0, play("press"))
    bid(state, 1)
    assert state.stage == "replace" and state.to_act() == [0]
    moves = state.legal_moves(0)
    assert {"type": "done"} in moves and all(1 <= len(m["cards"]) <= 2 for m in moves if m["type"] == "use")
    state.apply(0, use(22, cards=["plans", "joker"]))
    assert len(state.players[0]["hand"]) == 2 and state.stage == "bid"
    assert state.discard[-2:] == ["plans", "joker"]


# ---- Phase III ------------------------------------------------------------------------
def phase_three(seats, numbers, press_track=None):
    state = new_game(seats, seed=13)
    clear_phase1(state)
    if press_track:
        set_press(state, *press_track)
    give_characters(state, 0, *numbers)
    state.players[0]["dollars"] = 5
    start_bidding(state, "skyscrapers", starter=0)
    while state.stage == "bid":
        bid(state, state.actor)
    assert state.stage == "phase3" and state.to_act() == [0]
    return state


def test_NYC_CHAR_23_two_points():
    state = phase_three(2, [23])
    state.apply(0, use(23))
    assert state.players[0]["score"] == 2


def test_NYC_CHAR_24_one_point_and_a_skyscraper_to_the_board():
    state = phase_three(2, [24])
    state.apply(0, use(24))
    assert state.players[0]["score"] == 1 and state.players[0]["board"] == 5


def test_NYC_CHAR_25_three_points():
    state = phase_three(2, [25])
    state.apply(0, use(25))
    assert state.players[0]["score"] == 3


def test_NYC_CHAR_26_a_skyscraper_and_one_press_space():
    state = phase_three(2, [26], [(1, 4), (0, 2), (b.BLACK, 8)])
    state.apply(0, use(26))
    assert state.players[0]["board"] == 5 and press.space_of(state.press, 0) == 3


def test_NYC_CHAR_27_last_of_four_moves_four():
    state = phase_three(4, [27], [(b.BLACK, 6), (1, 5), (2, 4), (3, 3), (0, 1)])
    state.apply(0, use(27))
    assert press.space_of(state.press, 0) == 5


def test_NYC_CHAR_27_third_moves_three_the_black_pawn_not_counted():
    state = phase_three(3, [27], [(b.BLACK, 7), (1, 5), (2, 4), (0, 1)])
    state.apply(0, use(27))
    assert press.space_of(state.press, 0) == 4


def test_NYC_CHAR_27_reading_second_of_two_moves_two():
    """Reading: the supplement's "second of two moves 3" would count the black pawn."""
    state = phase_three(2, [27], [(b.BLACK, 8), (1, 5), (0, 1)])
    state.apply(0, use(27))
    assert press.space_of(state.press, 0) == 3


# ---- end-game characters (28–42) -----------------------------------------------------------------
def scored(seats=2, seed=17):
    state = new_game(seats, seed=seed)
    clear_phase1(state)
    for player in state.players:
        player["dollars"], player["board"] = 0, 0
    return state


def test_NYC_CHAR_28_32_the_rulebook_example_twenty_points():
    """Blue's seven characters 4+1+1+1+2+5+1 = 15, and 5 for five skyscrapers in the
    brown-lantern district (character 30): 20. The district of the brown lantern is a
    reconstruction (Brooklyn)."""
    state = scored()
    give_characters(state, 0, 11, 1, 5, 12, 30, 21, 18)
    assert sum(ch.VALUE[n] for n in state.players[0]["characters"]) == 15
    state.towers[DISTRICT["brooklyn"]][0] = 5
    assert end_condition(state, 0, 30) == 5
    parts = final_scores(state)["breakdown"][0]
    assert parts["characters"] + parts["end_characters"] == 20


def test_NYC_CHAR_33_one_point_per_two_press_spaces_rounded_up():
    state = scored()
    set_press(state, (0, 7), (1, 2), (b.BLACK, 8))
    assert end_condition(state, 0, 33) == 4 and end_condition(state, 1, 33) == 1


def test_NYC_CHAR_34_two_points_per_reserve_card_of_one_type():
    state = scored()
    set_cards(state, 0, reserve=["press", "press", "joker"])
    assert end_condition(state, 0, 34) == 4


def test_NYC_CHAR_35_two_points_per_district_with_three_skyscrapers():
    state = scored()
    state.towers = [[3, 0], [4, 0], [2, 0], [0, 0], [0, 0], [3, 0]]
    assert end_condition(state, 0, 35) == 6


def test_NYC_CHAR_36_one_point_per_character():
    state = scored()
    give_characters(state, 0, 36, 1, 2)
    assert end_condition(state, 0, 36) == 3


def test_NYC_CHAR_37_39_five_points_per_set_of_vehicles():
    """Reconstruction: 37 taxi + bus, 38 tram + metro, 39 boat + taxi."""
    assert best_sets([37], ["taxi", "bus", "taxi"], 0, 0)[0] == 5
    assert best_sets([37, 39], ["taxi", "bus", "boat"], 0, 0)[0] == 5, "the taxi scores once"
    assert best_sets([37, 39], ["taxi", "bus", "boat", "taxi"], 0, 0)[0] == 10


def test_NYC_CHAR_40_42_six_points_per_combination_items_returned_before_leftovers():
    """Reconstruction: 40 vehicle + $2, 41 vehicle + 2 skyscrapers, 42 $2 + 2 skyscrapers."""
    points, money, board, chosen = best_sets([40, 42], ["taxi"], 5, 3)
    assert (points, money, board) == (12, 1, 1) and chosen == {40: 1, 42: 1}
    state = scored()
    give_characters(state, 0, 42)
    state.players[0]["dollars"], state.players[0]["board"] = 3, 2
    parts = final_scores(state)["breakdown"][0]
    assert parts["end_characters"] == 6 and parts["leftovers"] == 1
