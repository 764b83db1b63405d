"""A turn: the four actions and their three phases (FA-TURN to FA-PHASE3-COMMISSION), the
commission pawns (FA-COMMISSION-*, FA-EXPERTISE) and the shops (FA-SHOP-*, FA-END-SHOPS).

The rulebook's examples are here: the pawn moves of its pictures (white to Start or beige to
Central Park; white from Times Square to Central Park or 52nd St. West, beige to 42nd St.
West or Times Square), the districts that may be scored, the two-tile block (the fashion
store placed, the art gallery goes under Central Park), the perfumery that fits on two plots,
the special scorings 4 / 6 / 8 for 3 / 4 / 5 districts, and Blue's 2 + 1 black cards.
"""

from __future__ import annotations

import pytest

from engines.core import IllegalMove
from engines.fifth_avenue import board
from engines.fifth_avenue import material as m

from .helpers import TS, at_turn, empty_board, first, index, new_game, plot, put, ring, types

A = {"type": "choose_action", "action": "A"}
B = {"type": "choose_action", "action": "B"}
C = {"type": "choose_action", "action": "C"}
D = {"type": "choose_action", "action": "D"}


def move(pawn, to):
    return {"type": "move_commission", "pawn": pawn, "to": to}


# ---- FA-TURN, FA-A-SKYSCRAPERS, FA-PHASE2-COLOUR, FA-PHASE3-COMMISSION -------------------------
def test_FA_TURN_one_action_of_four_then_its_phases_in_order():
    state = new_game(3)
    assert state.legal_moves(0) == [A, B, C], "no pawn in a district yet: no action D"
    state.apply(0, A)
    assert state.phase == "take_cards" and state.to_act() == [0]
    state.apply(0, {"type": "take_card", "colour": "grey"})
    state.apply(0, {"type": "take_card", "colour": "green"})
    assert state.phase == "move_commission"
    state.apply(0, state.legal_moves(0)[0])
    assert state.phase == "choose_action" and state.to_act() == [1], "play goes on clockwise"


def test_FA_A_SKYSCRAPERS_three_from_the_common_supply_to_the_reserve():
    state = new_game(3)
    events = state.apply(0, A)
    assert (state.players[0]["reserve"], state.players[0]["supply"]) == (6, 12)
    assert first(events, "skyscrapers_taken")["count"] == 3
    state = new_game(3)
    state.players[0]["supply"] = 2
    state.apply(0, A)
    assert (state.players[0]["reserve"], state.players[0]["supply"]) == (5, 0), "what is left"


def test_FA_PHASE2_COLOUR_two_cards_of_different_colours_taken_face_up():
    state = new_game(3)
    state.apply(0, A)
    top = state.colour_piles["violet"]["hidden"][0]
    events = state.apply(0, {"type": "take_card", "colour": "violet"})
    assert first(events, "colour_card_taken")["card"] == top, "everyone sees the card taken"
    assert top in state.players[0]["shown"]
    assert {mv["colour"] for mv in state.legal_moves(0)} == set(m.COLOURS) - {"violet"}
    for bad, code in [
        ("violet", "different_colours"),
        ("black", "colour_cards_only"),
        ("pink", "no_such_colour"),
    ]:
        with pytest.raises(IllegalMove) as refused:
            state.apply(0, {"type": "take_card", "colour": bad})
        assert refused.value.code == code


def test_FA_PHASE2_COLOUR_an_empty_pile_cannot_be_chosen_and_none_left_skips_the_phase():
    state = new_game(3)
    for colour in m.COLOURS:
        if colour != "orange":
            state.colour_piles[colour] = {"hidden": [], "known": []}
    state.apply(0, A)
    assert state.legal_moves(0) == [{"type": "take_card", "colour": "orange"}]
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, {"type": "take_card", "colour": "grey"})
    assert refused.value.code == "colour_pile_empty"
    state.apply(0, {"type": "take_card", "colour": "orange"})
    assert state.phase == "move_commission", "one colour left: one card only"
    state.colour_piles["orange"] = {"hidden": [], "known": []}
    at_turn(state, 1)
    events = state.apply(1, A)
    assert "no_colour_card_left" in types(events) and state.phase == "move_commission"


def test_FA_COLOUR_PILES_cards_put_under_a_pile_come_up_in_their_turn():
    state = new_game(3)
    state.colour_piles["brown"] = {"hidden": ["brown-5"], "known": ["brown-6", "brown-4"]}
    state.apply(0, A)
    assert state.view(None)["colour_piles"]["brown"] == {
        "top": "brown-5",
        "size": 3,
        "known_bottom": ["brown-6", "brown-4"],
    }
    state.apply(0, {"type": "take_card", "colour": "brown"})
    assert state.view(None)["colour_piles"]["brown"]["top"] == "brown-6", "colour piles are not shuffled"


def test_FA_PHASE3_COMMISSION_every_action_ends_with_a_pawn_move():
    for action in (A, B, C):
        state = new_game(3, seed=7)
        state.apply(0, action)
        while state.phase != "move_commission" or state.turn["step"] != 3:
            state.apply(0, state.legal_moves(0)[0])
        assert state.legal_moves(0)[0]["type"] == "move_commission"
        state.apply(0, state.legal_moves(0)[0])
        assert state.to_act() == [1]


def test_FA_FIRST_seat_zero_begins_and_play_goes_clockwise():
    state = new_game(4)
    seen = []
    for _ in range(5):
        seat = state.to_act()[0]
        seen.append(seat)
        state.apply(seat, A)
        while state.to_act() == [seat]:
            state.apply(seat, state.legal_moves(seat)[0])
    assert seen == [0, 1, 2, 3, 0]


def test_FA_HAND_LIMIT_a_hand_has_no_limit():
    state = new_game(3)
    state.players[0]["hand"] = ["black-4"] * 40
    state.apply(0, C)
    assert len(state.players[0]["hand"]) == 41


# ---- FA-B-SHOP, FA-SHOP-BLOCK, FA-SHOP-PLOT ---------------------------------------------------------
def test_FA_B_SHOP_a_tile_of_the_active_block_only():
    state = new_game(3)
    state.blocks = [["fashion", "gallery", "fashion"], ["perfumery", "jewellery"]] + [
        ["gallery"] * 3 for _ in range(6)
    ]
    state.apply(0, B)
    assert {mv["shop"] for mv in state.legal_moves(0)} == {"fashion", "gallery"}
    legal = state.legal_moves(0)[0]
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, {**legal, "shop": "perfumery"})
    assert refused.value.code == "shop_not_in_active_block"
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, {**legal, "shop": "bakery"})
    assert refused.value.code == "no_such_shop"


def test_FA_SHOP_BLOCK_the_last_tile_of_a_block_goes_under_central_park():
    state = new_game(3)
    state.blocks = [[], ["fashion", "gallery"]] + [["jewellery", "perfumery"] for _ in range(6)]
    empty_board(state)
    state.apply(0, B)
    events = state.apply(
        0, {"type": "place_shop", "shop": "fashion", "district": TS, "plot": ring(state, TS)[0]}
    )
    assert state.under_park == ["gallery"], "the fashion store placed, the art gallery goes under the park"
    assert state.blocks[1] == [] and state.active_block() is state.blocks[2]
    assert types(events)[:2] == ["shop_placed", "shop_to_central_park"]


def test_FA_SHOP_BLOCK_a_three_block_gives_two_tiles_to_the_players():
    state = new_game(3)
    state.blocks = [["fashion", "gallery", "perfumery"]] + [["jewellery"] * 2 for _ in range(7)]
    for seat in (0, 1):
        at_turn(state, seat)
        state.apply(seat, B)
        state.apply(seat, state.legal_moves(seat)[0])
    assert state.shops_placed == 2 and state.blocks[0] == [] and len(state.under_park) == 1


def test_FA_SHOP_PLOT_free_or_beside_one_shop_never_with_skyscrapers_at_most_two():
    state = new_game(3)
    empty_board(state)
    d = TS
    # The rulebook's picture: a new perfumery fits on the plot holding one shop and on the free one.
    put(state, d, 0, owner=1, count=2)
    put(state, d, 1, shops=("fashion",))
    put(state, d, 2, shops=("gallery", "jewellery"))
    put(state, d, 3, owner=2, count=1)
    state.blocks = [["perfumery", "fashion"]] + [["gallery"] * 2 for _ in range(7)]
    state.apply(0, B)
    here = {mv["plot"] for mv in state.legal_moves(0) if mv["district"] == d and mv["shop"] == "perfumery"}
    assert here == {ring(state, d)[1], ring(state, d)[4]}
    for i, code in [(0, "skyscrapers_on_plot"), (2, "plot_full_of_shops")]:
        with pytest.raises(IllegalMove) as refused:
            state.apply(
                0, {"type": "place_shop", "shop": "perfumery", "district": d, "plot": ring(state, d)[i]}
            )
        assert refused.value.code == code
    state.apply(0, {"type": "place_shop", "shop": "perfumery", "district": d, "plot": ring(state, d)[1]})
    assert plot(state, d, 1)["shops"] == ["fashion", "perfumery"]


def test_FA_SHOP_PLOT_two_shops_of_the_same_kind_may_share_a_plot():
    state = new_game(3)
    empty_board(state)
    put(state, TS, 0, shops=("fashion",))
    state.blocks = [["fashion", "gallery"]] + [["gallery"] * 2 for _ in range(7)]
    state.apply(0, B)
    state.apply(0, {"type": "place_shop", "shop": "fashion", "district": TS, "plot": ring(state, TS)[0]})
    assert plot(state, TS, 0)["shops"] == ["fashion", "fashion"]


def test_FA_SHOP_PLOT_no_plot_for_a_shop_means_no_action_B():
    state = new_game(3)
    for district in state.districts:
        for p in district["plots"]:
            p.update({"shops": ["fashion", "gallery"], "owner": None, "count": 0})
    assert B not in state.legal_moves(0)
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, B)
    assert refused.value.code == "no_shop_placement"


# ---- FA-SHOP-SPECIAL, FA-END-SHOPS --------------------------------------------------------------
def _spread(state, seat, districts):
    for d in m.DISTRICT_IDS[:districts]:
        put(state, d, 4 - seat, owner=seat, count=1)


@pytest.mark.parametrize(("placed", "needed", "reward"), [(3, 3, 4), (6, 4, 6), (9, 5, 8)])
def test_FA_SHOP_SPECIAL_after_the_3rd_6th_and_9th_shop(placed, needed, reward):
    state = new_game(3)
    empty_board(state)
    _spread(state, 0, needed)
    _spread(state, 1, needed - 1)
    state.players[1]["park"] = 5  # Central Park is not a district
    state.shops_placed = placed - 1
    state.blocks = [["fashion", "gallery", "perfumery"]] + [[] for _ in range(7)]
    state.apply(0, B)
    events = state.apply(
        0, {"type": "place_shop", "shop": "fashion", "district": TS, "plot": ring(state, TS)[0]}
    )
    special = first(events, "special_scoring")
    assert special["points"] == [reward, 0, 0] and special["districts_needed"] == needed
    assert state.players[0]["points"]["special_scorings"] == reward
    assert state.phase == "take_cards", "the turn goes on"


def test_FA_SHOP_SPECIAL_no_special_scoring_after_other_shops():
    state = new_game(3)
    _spread(state, 0, 7)
    state.shops_placed = 3
    state.apply(0, B)
    events = state.apply(0, state.legal_moves(0)[0])
    assert "special_scoring" not in types(events)


def test_FA_END_SHOPS_the_twelfth_shop_ends_the_game_before_phases_two_and_three():
    state = new_game(3)
    state.shops_placed = 11
    state.blocks = [[] for _ in range(7)] + [["fashion", "gallery"]]
    state.apply(0, B)
    events = state.apply(0, state.legal_moves(0)[0])
    assert state.is_over() and state.result().reason == "last_shop"
    assert state.under_park[-1] == "gallery", "the last tile goes under Central Park"
    assert "colour_card_taken" not in types(events) and "special_scoring" not in types(events)
    assert types(events)[-1] == "game_over"


# ---- FA-C-BLACK, FA-D-SCORE, FA-PHASE2-BLACK ---------------------------------------------------
def test_FA_C_BLACK_a_secret_black_card_then_a_pawn_move_then_cards_then_a_pawn():
    state = new_game(3)
    top = state.black_pile["hidden"][0]
    events = state.apply(0, C)
    drawn = first(events, "black_cards_drawn")
    assert drawn["secret"] == {"to": [0], "fields": {"cards": [top]}} and drawn["count"] == 1
    assert top in state.players[0]["hand"] and top not in state.players[0]["shown"]
    assert state.phase == "move_commission" and state.turn["step"] == 1
    state.apply(0, move("white", "34th-street-west"))
    assert state.phase == "take_cards"
    state.apply(0, {"type": "take_card", "colour": "orange"})
    state.apply(0, {"type": "take_card", "colour": "brown"})
    assert state.phase == "move_commission" and state.turn["step"] == 3
    state.apply(0, move("white", "times-square"))
    assert state.to_act() == [1] and state.expertise["white"] == ["34th-street-west"]


def test_FA_D_SCORE_only_a_district_holding_a_commission_pawn():
    state = new_game(3)
    state.pawns = {"white": "start", "beige": "52nd-street-east"}  # the rulebook's page 4
    state.apply(0, D)
    assert state.legal_moves(0) == [{"type": "score_district", "district": "52nd-street-east"}]
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, {"type": "score_district", "district": TS})
    assert refused.value.code == "no_commission_in_district"
    state = new_game(3)
    state.pawns = {"white": TS, "beige": "34th-street-west"}  # the rulebook's page 5
    state.apply(0, D)
    assert {mv["district"] for mv in state.legal_moves(0)} == {"34th-street-west", TS}
    for pawns in ({"white": "start", "beige": "central_park"}, {"white": "central_park", "beige": "start"}):
        state = new_game(3)
        state.pawns = pawns
        assert D not in state.legal_moves(0), "no pawn in a district: no action D"
        with pytest.raises(IllegalMove) as refused:
            state.apply(0, D)
        assert refused.value.code == "no_commission_in_district"


def test_FA_PHASE2_BLACK_the_scorer_draws_two_and_every_player_without_a_skyscraper_one():
    blue, green, red = 0, 1, 2
    state = new_game(3)
    empty_board(state)
    put(state, TS, 0, owner=red, count=1)
    state.pawns["white"] = TS
    hands = [len(p["hand"]) for p in state.players]
    state.apply(blue, D)
    events = state.apply(blue, {"type": "score_district", "district": TS})
    assert [len(p["hand"]) - h for p, h in zip(state.players, hands, strict=True)] == [3, 1, 0]
    draws = [e for e in events if e["type"] == "black_cards_drawn"]
    assert [(e["seat"], e["count"]) for e in draws] == [(blue, 2), (blue, 1), (green, 1)]
    assert state.phase == "move_commission" and state.turn["step"] == 3


def test_FA_PHASE2_BLACK_an_empty_black_pile_gives_nothing():
    state = new_game(3)
    state.black_pile = {"hidden": [], "known": []}
    hand = list(state.players[0]["hand"])
    events = state.apply(0, C)
    assert state.players[0]["hand"] == hand and first(events, "black_cards_drawn")["count"] == 0


# ---- FA-COMMISSION-PATH, FA-COMMISSION-SKIP, FA-EXPERTISE, FA-COMMISSION-SHARE ------------------
def test_FA_COMMISSION_PATH_every_way_passes_three_districts_to_central_park():
    def ways(place):
        if place == m.CENTRAL_PARK:
            return [[]]
        return [[place, *rest] for nxt in board.destinations(place, set()) for rest in ways(nxt)]

    routes = [way[1:] for way in ways(m.START)]
    assert len(routes) == 6 and all(len(route) == 3 for route in routes)
    assert board.destinations(m.START, set()) == ["34th-street-west", "34th-street-east"]
    assert board.destinations(TS, set()) == ["52nd-street-west", "52nd-street-east"]
    assert board.destinations("42nd-street-west", set()) == ["52nd-street-west"]
    assert board.destinations(m.CENTRAL_PARK, set()) == [m.START]


def test_FA_COMMISSION_PATH_the_rulebook_choice_start_or_central_park():
    state = new_game(3)
    state.pawns = {"white": m.CENTRAL_PARK, "beige": "52nd-street-west"}
    state.turn, state.phase = {"action": "A", "step": 3, "taken": []}, "move_commission"
    assert state.legal_moves(0) == [move("white", m.START), move("beige", m.CENTRAL_PARK)]


def test_FA_COMMISSION_SKIP_the_rulebook_picture_with_52nd_st_east_closed():
    state = new_game(3)
    state.closed_order = ["52nd-street-east"]
    state.districts[index("52nd-street-east")]["closed"] = True
    state.pawns = {"white": TS, "beige": "34th-street-west"}
    state.turn, state.phase = {"action": "A", "step": 3, "taken": []}, "move_commission"
    assert state.legal_moves(0) == [
        move("white", "52nd-street-west"),
        move("white", m.CENTRAL_PARK),
        move("beige", "42nd-street-west"),
        move("beige", TS),
    ]
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, move("white", "52nd-street-east"))
    assert refused.value.code == "district_closed"
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, move("beige", "52nd-street-west"))
    assert refused.value.code == "not_on_commission_path"


def test_FA_COMMISSION_SKIP_is_transitive():
    closed = {"34th-street-west", "times-square"}
    assert board.destinations(m.START, closed) == [
        "34th-street-east",
        "42nd-street-west",
        "52nd-street-west",
        "52nd-street-east",
    ]
    assert board.destinations("42nd-street-west", {"52nd-street-west"}) == [m.CENTRAL_PARK]
    # Start to Central Park in three moves past one closed district.
    closed = {"34th-street-west"}
    assert "42nd-street-west" in board.destinations(m.START, closed)
    assert board.destinations("42nd-street-west", closed) == ["52nd-street-west"]
    assert board.destinations("52nd-street-west", closed) == [m.CENTRAL_PARK]


def test_FA_EXPERTISE_a_token_marks_each_district_a_pawn_leaves():
    state = new_game(3)
    for seat, (pawn, to) in enumerate(
        [
            ("beige", "34th-street-east"),
            ("beige", TS),
            ("white", "34th-street-west"),
            ("beige", "52nd-street-east"),
        ]
    ):
        state.turn, state.phase = {"action": "A", "step": 3, "taken": []}, "move_commission"
        state.current = seat % 3
        state.apply(seat % 3, move(pawn, to))
    assert state.expertise == {"white": [], "beige": ["34th-street-east", TS]}, "none for leaving Start"
    state.turn, state.phase, state.current = {"action": "A", "step": 3, "taken": []}, "move_commission", 1
    state.apply(1, move("beige", m.CENTRAL_PARK))
    assert state.expertise["beige"] == ["34th-street-east", TS, "52nd-street-east"]


def test_FA_COMMISSION_SHARE_both_pawns_may_stand_in_one_district():
    state = new_game(3)
    state.pawns = {"white": "34th-street-west", "beige": m.START}
    state.expertise = {"white": [], "beige": []}
    state.turn, state.phase = {"action": "A", "step": 3, "taken": []}, "move_commission"
    assert move("beige", "34th-street-west") in state.legal_moves(0)
    state.apply(0, move("beige", "34th-street-west"))
    assert state.pawns == {"white": "34th-street-west", "beige": "34th-street-west"}
    at_turn(state, 1)
    state.apply(1, D)
    assert state.legal_moves(1) == [{"type": "score_district", "district": "34th-street-west"}]


def test_FA_COMMISSION_moves_refused_with_the_rule():
    state = new_game(3)
    state.turn, state.phase = {"action": "A", "step": 3, "taken": []}, "move_commission"
    for bad, code in [
        (move("red", TS), "no_such_pawn"),
        (move("white", "brooklyn"), "no_such_place"),
        (move("white", TS), "not_on_commission_path"),
        (move("white", m.CENTRAL_PARK), "not_on_commission_path"),
        ({"type": "take_card", "colour": "grey"}, "not_now"),
        ({"type": "move_commission", "pawn": "white"}, "malformed_move"),
        ({"type": "move_commission", "pawn": "white", "to": 3}, "malformed_move"),
    ]:
        before = state.to_dict()
        with pytest.raises(IllegalMove) as refused:
            state.apply(0, bad)
        assert refused.value.code == code
        assert state.to_dict() == before
