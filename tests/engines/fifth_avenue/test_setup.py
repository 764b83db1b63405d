"""Fifth Avenue's material and setup: rules FA-PLAYERS to FA-QUICK-START, FA-SIX-PLOTS.

The rulebook's numbers are here: 60 colour cards (5 x 4, 4 x 5, 3 x 6 per colour), 50 black
(20 / 16 / 14), 84 skyscrapers (21 per colour: 1 marker, 2 on the board, 3 in reserve),
36 shops (9 of each), 7 initial shops, 20 in 8 blocks, 9 boxed, and the snake order
Anna - Dieter - Carla - Bernd / Bernd - Carla - Dieter - Anna.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engines.core import IllegalMove, InvalidOptions
from engines.fifth_avenue import GAME, board
from engines.fifth_avenue import material as m

from .helpers import index, new_game


# ---- FA-PLAYERS, FA-CARDS, FA-SHOPS, FA-SKYSCRAPERS, FA-BOARD --------------------------------
@pytest.mark.parametrize("seats", [1, 5])
def test_FA_PLAYERS_two_to_four(seats):
    with pytest.raises(InvalidOptions):
        GAME.setup(seats, {}, seed=0)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_FA_PLAYERS_gedeon_only_at_two(seats):
    state = new_game(seats)
    assert (state.gedeon is not None) == (seats == 2)
    assert len(state.players) == seats, "Gédéon is never a seat"


def test_FA_CARDS_sixty_colour_cards_and_fifty_black():
    colour = Counter(m.COLOUR_DECK)
    assert len(m.COLOUR_DECK) == 60
    for c in m.COLOURS:
        assert (colour[f"{c}-4"], colour[f"{c}-5"], colour[f"{c}-6"]) == (5, 4, 3)
    black = Counter(m.BLACK_DECK)
    assert len(m.BLACK_DECK) == 50
    assert (black["black-4"], black["black-5"], black["black-6"]) == (20, 16, 14)
    assert m.SKYSCRAPERS_ON_CARD == {6: 1, 5: 2, 4: 3}


def test_FA_SHOPS_thirty_six_tiles_nine_of_each():
    assert Counter(m.SHOP_TILES) == {shop: 9 for shop in ("fashion", "jewellery", "gallery", "perfumery")}


def test_FA_SKYSCRAPERS_twenty_one_per_colour_split_as_the_rulebook_says():
    assert m.SKYSCRAPERS_PER_COLOUR * 4 == 84
    assert (m.SCORE_MARKERS, m.INITIAL_ON_BOARD, m.INITIAL_RESERVE) == (1, 2, 3)
    state = new_game(4)
    for seat, player in enumerate(state.players):
        on_board = sum(board.skyscrapers_in(d["plots"], seat) for d in state.districts)
        assert (on_board, player["reserve"], player["supply"]) == (2, 3, 15)


def test_FA_BOARD_seven_districts_of_five_plots_one_of_each_colour_in_a_ring():
    assert len(m.DISTRICT_IDS) == 7
    assert {m.DISTRICT_COLUMN[d] for d in m.DISTRICT_IDS} == {1, 2, 3}
    shapes = set()
    for ring in m.rings(False):
        assert sorted(ring) == sorted(m.COLOURS)
        # The adjacency of a ring, whatever the starting point and direction.
        shapes.add(frozenset(frozenset((ring[i], ring[(i + 1) % 5])) for i in range(5)))
    assert len(shapes) == 7, "each district has its own colour order (reconstructed)"
    assert board.neighbours(5, 0) == (4, 1) and board.neighbours(5, 3) == (2, 4)


def test_FA_SIX_PLOTS_six_plot_rings_hold_the_five_colours_and_the_sixth_plot():
    for five, six in zip(m.rings(False), m.rings(True), strict=True):
        assert sorted(six) == sorted((*m.COLOURS, m.SIXTH))
        assert [p for p in six if p != m.SIXTH] == list(five), "same colours, sixth plot inserted"


# ---- FA-SETUP-CARDS ------------------------------------------------------------------------
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_FA_SETUP_CARDS_one_card_of_each_colour_and_four_black_all_secret(seats):
    state = new_game(seats, quick=False)
    for player in state.players:
        kinds = Counter(m.CARD_KIND[c] for c in player["hand"])
        assert kinds == {**{c: 1 for c in m.COLOURS}, "black": 4}
        assert player["shown"] == []
    for pile in state.colour_piles.values():
        assert len(pile["hidden"]) == 12 - seats and pile["known"] == []
    assert len(state.black_pile["hidden"]) == 50 - 4 * seats
    view = state.view(1)
    assert view["colour_piles"]["grey"]["top"] == state.colour_piles["grey"]["hidden"][0], "face up"
    assert view["black_pile"] == {"size": 50 - 4 * seats, "known_bottom": []}, "face down"
    assert view["players"][1]["hand"] == sorted(
        state.players[1]["hand"], key=lambda c: (m.KINDS.index(m.CARD_KIND[c]), c)
    )
    assert "hand" not in view["players"][0]
    assert view["players"][0]["secret_cards"] == {**{c: 1 for c in m.COLOURS}, "black": 4}


# ---- FA-SETUP-SHOPS, FA-SETUP-SUPPLY ---------------------------------------------------------
def test_FA_SETUP_SHOPS_seats_place_seven_drawn_tiles_one_per_district_in_turn():
    state = new_game(3, quick=False, seed=4)
    assert state.phase == "initial_shop"
    placers = []
    for _ in range(7):
        seat = state.to_act()[0]
        placers.append(seat)
        tile = state.setup_step["tile"]
        assert state.view(None)["setup"]["tile"] == tile, "the drawn tile is face up"
        move = state.legal_moves(seat)[0]
        state.apply(seat, move)
        d = index(move["district"])
        assert tile in state.districts[d]["plots"][state.rings[d].index(move["plot"])]["shops"]
    assert placers == [0, 1, 2, 0, 1, 2, 0]
    assert all(sum(len(p["shops"]) for p in d["plots"]) == 1 for d in state.districts)
    assert state.phase == "initial_skyscraper"


def test_FA_SETUP_SHOPS_at_most_two_per_colour_and_every_colour_covered():
    state = new_game(4, quick=False, seed=2)
    # Put two shops on orange plots: orange is then refused.
    for district in ("34th-street-west", "34th-street-east"):
        state.apply(state.to_act()[0], {"type": "place_initial_shop", "district": district, "plot": "orange"})
    assert all(mv["plot"] != "orange" for mv in state.legal_moves(state.to_act()[0]))
    with pytest.raises(IllegalMove) as refused:
        state.apply(
            state.to_act()[0], {"type": "place_initial_shop", "district": "times-square", "plot": "orange"}
        )
    assert refused.value.code == "two_shops_per_colour"
    with pytest.raises(IllegalMove) as refused:
        state.apply(
            state.to_act()[0], {"type": "place_initial_shop", "district": "34th-street-west", "plot": "grey"}
        )
    assert refused.value.code == "one_shop_per_district"
    # Two more on brown: four tiles placed, three to go, three colours missing: only those remain.
    for district in ("42nd-street-west", "times-square"):
        state.apply(state.to_act()[0], {"type": "place_initial_shop", "district": district, "plot": "brown"})
    moves = state.legal_moves(state.to_act()[0])
    assert {mv["plot"] for mv in moves} == {"grey", "violet", "green"}
    state.apply(
        state.to_act()[0], {"type": "place_initial_shop", "district": "42nd-street-east", "plot": "grey"}
    )
    # Grey is no longer missing, but one grey more would leave violet or green out.
    with pytest.raises(IllegalMove) as refused:
        state.apply(
            state.to_act()[0], {"type": "place_initial_shop", "district": "52nd-street-west", "plot": "grey"}
        )
    assert refused.value.code == "every_colour_needed"


@pytest.mark.parametrize("seed", range(12))
def test_FA_SETUP_SHOPS_every_setup_respects_the_colour_limits(seed):
    state = new_game(2 + seed % 3, seed=seed)
    counts = state.initial_shop_colours()
    assert sorted(counts.values()) == [1, 1, 1, 2, 2]


def test_FA_SETUP_SUPPLY_twenty_tiles_in_blocks_of_three_and_two_after_the_initial_shops():
    state = new_game(3, quick=False, seed=5)
    assert all(block == [] for block in state.blocks), "the supply is laid out after the initial shops"
    assert len(state.tile_bag) == 36 - 1
    for _ in range(7):
        seat = state.to_act()[0]
        state.apply(seat, state.legal_moves(seat)[0])
    assert [len(b) for b in state.blocks] == [3, 2, 3, 2, 3, 2, 3, 2]
    assert len(state.tile_bag) == 9, "nine tiles stay in the box, face down"
    on_board = [s for d in state.districts for p in d["plots"] for s in p["shops"]]
    assert Counter(on_board + [t for b in state.blocks for t in b] + state.tile_bag) == Counter(m.SHOP_TILES)
    assert state.view(0)["face_down_shops"] == 9 and "tile_bag" not in state.view(0)


# ---- FA-SETUP-SKYSCRAPERS, FA-FIRST -----------------------------------------------------------
def test_FA_SETUP_SKYSCRAPERS_the_rulebook_snake_order():
    anna, bernd, carla, dieter = 0, 1, 2, 3  # seats clockwise from the first player
    state = new_game(4, quick=False)
    assert state.snake_order() == [anna, dieter, carla, bernd, bernd, carla, dieter, anna]
    assert new_game(3, quick=False).snake_order() == [0, 2, 1, 1, 2, 0]
    assert new_game(2, quick=False).snake_order() == [0, 1, 1, 0]


def test_FA_SETUP_SKYSCRAPERS_placed_in_snake_order_on_free_plots_one_per_district():
    state = new_game(4, quick=False, seed=3)
    for _ in range(7):
        seat = state.to_act()[0]
        state.apply(seat, state.legal_moves(seat)[0])
    placers = []
    while state.phase == "initial_skyscraper":
        seat = state.to_act()[0]
        placers.append(seat)
        moves = state.legal_moves(seat)
        for mv in moves:
            d = index(mv["district"])
            plots = state.districts[d]["plots"]
            assert board.is_free(plots[state.rings[d].index(mv["plot"])])
            assert board.plot_of(plots, seat) is None
        state.apply(seat, moves[0])
        if placers.count(seat) == 2:
            first = [d for d in state.districts if board.plot_of(d["plots"], seat) is not None]
            assert len(first) == 2, "the second skyscraper goes to another district"
    assert placers == [0, 3, 2, 1, 1, 2, 3, 0]
    assert state.phase == "choose_action" and state.to_act() == [0], "rule FA-FIRST: seat 0 begins"
    for seat in range(4):
        assert sum(board.skyscrapers_in(d["plots"], seat) for d in state.districts) == 2


def test_FA_SETUP_SKYSCRAPERS_refusals_name_the_rule():
    state = new_game(3, quick=False, seed=8)
    for _ in range(7):
        seat = state.to_act()[0]
        state.apply(seat, state.legal_moves(seat)[0])
    seat = state.to_act()[0]
    move = state.legal_moves(seat)[0]
    state.apply(seat, move)
    shop_plot = next(
        (d, p)
        for d in m.DISTRICT_IDS
        for p in state.rings[index(d)]
        if state.districts[index(d)]["plots"][state.rings[index(d)].index(p)]["shops"]
    )
    nxt = state.to_act()[0]
    for bad, code in [
        ({"district": shop_plot[0], "plot": shop_plot[1]}, "plot_not_free"),
        ({"district": move["district"], "plot": move["plot"]}, "plot_not_free"),
        ({"district": "wall-street", "plot": "grey"}, "no_such_district"),
        ({"district": "times-square", "plot": "sixth"}, "no_such_plot"),
    ]:
        with pytest.raises(IllegalMove) as refused:
            state.apply(nxt, {"type": "place_initial_skyscraper", **bad})
        assert refused.value.code == code
    # The first placer's second skyscraper may not join its first one's district.
    while state.to_act()[0] != seat:
        s = state.to_act()[0]
        state.apply(s, state.legal_moves(s)[0])
    free_there = next(
        p
        for i, p in enumerate(state.rings[index(move["district"])])
        if board.is_free(state.districts[index(move["district"])]["plots"][i])
    )
    with pytest.raises(IllegalMove) as refused:
        state.apply(
            seat, {"type": "place_initial_skyscraper", "district": move["district"], "plot": free_there}
        )
    assert refused.value.code == "one_plot_per_district"


def test_FA_SETUP_COMMISSIONS_pawns_and_tokens_at_start_two_signs_beside_the_board():
    state = new_game(3)
    assert state.pawns == {"white": "start", "beige": "start"}
    assert state.expertise == {"white": [], "beige": []}
    assert state.view(None)["building_stop_signs_left"] == 2


# ---- FA-QUICK-START, FA-SIX-PLOTS --------------------------------------------------------------
@pytest.mark.parametrize("six", [False, True])
def test_FA_QUICK_START_deals_the_setup_at_random_within_its_rules(six):
    boards = set()
    for seed in range(6):
        state = new_game(4, six=six, seed=seed)
        assert state.phase == "choose_action" and state.to_act() == [0]
        for d, district in enumerate(state.districts):
            assert sum(len(p["shops"]) for p in district["plots"]) == 1
            if six:
                assert district["plots"][state.rings[d].index(m.SIXTH)]["shops"]
        for seat in range(4):
            held = [d for d in state.districts if board.plot_of(d["plots"], seat) is not None]
            assert len(held) == 2
        boards.add(str(state.districts))
    assert len(boards) == 6, "different seeds, different setups"


def test_FA_SIX_PLOTS_initial_shops_go_on_the_sixth_plot_only():
    state = new_game(4, six=True, quick=False)
    moves = state.legal_moves(0)
    assert {mv["plot"] for mv in moves} == {m.SIXTH} and len(moves) == 7
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, {"type": "place_initial_shop", "district": "times-square", "plot": "grey"})
    assert refused.value.code == "sixth_plot_only"
    assert all(len(d["plots"]) == 6 for d in state.districts)
    state = new_game(4, six=True)
    for d, district in enumerate(state.districts):
        sixth = district["plots"][state.rings[d].index(m.SIXTH)]
        assert sixth["shops"] and not sixth["count"], "the sixth plot never takes skyscrapers"


def test_FA_SIX_PLOTS_the_colourless_sixth_plot_is_never_bid_for():
    from engines.fifth_avenue import auction

    state = new_game(4, six=True)
    d = "times-square"
    ring = state.rings[index(d)]
    owners = iter([1, 2, 3])
    for i, plot_id in enumerate(ring):
        p = state.districts[index(d)]["plots"][i]
        p.update(board.new_plot())
        if plot_id in (m.SIXTH, "grey", "violet"):
            p["shops"] = ["fashion"]
        else:
            p.update({"owner": next(owners), "count": 1})
    # Seat 0 holds nothing there and no plot is free: only the coloured plots of shops are open.
    assert auction.allowed_colours(state, d, 0) == ["grey", "violet"]
