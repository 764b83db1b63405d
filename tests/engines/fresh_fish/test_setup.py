"""Fresh Fish material and setup: rule ids FF-PLAYERS ... FF-FIRST of docs/rules/fresh-fish.md.

The rulebook's numbers are here: boards of 10, 9, 8, 7; 5 retailers of each of 4 types in the
box and one per player in play; 24 blocking buildings (12 + 6 + 6) of which 19 / 15 / 12 / 8
are used; 58 streets; 10 coins of 1 and one of 5 each; 8 cubes, 2 set aside and 6 to reserve.
"""

from __future__ import annotations

import pytest

from engines.core import InvalidOptions
from engines.fresh_fish import GAME
from engines.fresh_fish import material as m
from engines.fresh_fish.board import corners, quarters


@pytest.mark.parametrize("seats", [1, 6])
def test_FF_PLAYERS_two_to_five(seats):
    with pytest.raises(InvalidOptions):
        GAME.setup(seats, {}, seed=0)


@pytest.mark.parametrize(("seats", "size"), [(5, 10), (4, 9), (3, 8), (2, 7)])
def test_FF_BOARD_size_by_player_count(seats, size):
    state = GAME.setup(seats, {}, seed=0)
    assert state.size == size and len(state.board) == size * size
    view = state.view(None)
    assert view["size"] == size and len(view["grid"]) == size and len(view["grid"][0]) == size
    assert m.BOX_BOARD_SIZE == 10


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_FF_DISTRIBUTORS_port_and_the_others_in_the_corners_by_default(seats):
    state = GAME.setup(seats, {}, seed=0)
    size = state.size
    assert sorted(state.distributors.values()) == sorted(corners(size))
    assert state.board[state.distributors["fish"]] == "port"
    placed = {state.board[plot] for plot in corners(size)}
    assert placed == {"port", "nuclear_plant", "refinery", "game_factory"}
    assert state.phase == "turn" and state.to_act() == [state.first_player]
    assert all(tile is None for plot, tile in enumerate(state.board) if plot not in corners(size))


def test_FF_GOODS_each_distributor_supplies_its_own_retailer_type():
    assert m.GOODS == ("fish", "nuclear", "petrol", "games")
    assert {m.DISTRIBUTOR[g]: m.RETAILER[g] for g in m.GOODS} == {
        "port": "fishmonger",
        "nuclear_plant": "waste_dump",
        "refinery": "petrol_station",
        "game_factory": "game_shop",
    }


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_FF_RETAILERS_one_of_each_type_per_player_in_the_pile(seats):
    state = GAME.setup(seats, {}, seed=0)
    for retailer in m.RETAILERS:
        assert state.pile.count(retailer) == seats
    assert max(m.BOARD_SIZE) == 5, "the box holds 5 of each type, for up to 5 players"


@pytest.mark.parametrize(("seats", "used"), [(5, 19), (4, 15), (3, 12), (2, 8)])
def test_FF_BLOCKING_buildings_used_by_player_count_the_rest_set_aside(seats, used):
    assert m.BLOCKING_IN_BOX == {"apartment": 12, "office": 6, "park": 6}
    assert sum(m.BLOCKING_IN_BOX.values()) == 24
    state = GAME.setup(seats, {}, seed=0)
    in_pile = sum(state.pile.count(kind) for kind in m.BLOCKING)
    assert in_pile == used == m.BLOCKING_USED[seats] == sum(m.BLOCKING_MIX[seats].values())
    assert sum(state.set_aside.values()) == 24 - used
    for kind in m.BLOCKING:
        assert state.pile.count(kind) + state.set_aside[kind] == m.BLOCKING_IN_BOX[kind]


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_FF_PILE_retailers_and_blocking_buildings_shuffled_face_down(seats):
    orders = set()
    for seed in range(6):
        state = GAME.setup(seats, {}, seed=seed)
        assert len(state.pile) == 4 * seats + m.BLOCKING_USED[seats]
        assert sorted(state.pile) == sorted(m.pile_for(seats))
        orders.add(tuple(state.pile))
        view = state.view(0)
        assert view["pile_size"] == len(state.pile)
        assert sum(view["pile_contents"].values()) == len(state.pile)
        assert "pile" not in view
    assert len(orders) == 6, "each seed deals another order"


def test_FF_STREETS_a_separate_face_up_supply_of_58_more_than_enough():
    assert m.STREETS_IN_BOX == 58
    state = GAME.setup(2, {}, seed=0)
    assert "street" not in state.pile


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_FF_MONEY_ten_coins_of_one_and_one_of_five_each(seats):
    assert m.COINS == {"orange": (10, 1), "green": (1, 5)}
    state = GAME.setup(seats, {}, seed=0)
    assert [p["money"] for p in state.players] == [15] * seats
    for viewer in [None, *range(seats)]:
        assert [p["money"] for p in state.view(viewer)["players"]] == [15] * seats, "money is open"


@pytest.mark.parametrize("seats", [2, 5])
def test_FF_CUBES_eight_each_two_set_aside_six_to_reserve(seats):
    assert (m.CUBES, m.CUBES_SET_ASIDE, m.CUBES_FOR_RESERVING) == (8, 2, 6)
    state = GAME.setup(seats, {}, seed=0)
    for shown in state.view(None)["players"]:
        assert shown["cubes_in_hand"] == 6 and shown["cubes_set_aside"] == 2
        assert shown["cubes_on_retailers"] == 0 and shown["reserved"] == []


def test_FF_FIRST_a_random_first_player_starts_and_the_same_seed_replays():
    firsts = {GAME.setup(4, {}, seed=seed).first_player for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    for seed in range(10):
        state = GAME.setup(4, {}, seed=seed)
        assert state.to_act() == [state.first_player] == [state.current]
        assert GAME.setup(4, {}, seed=seed) == state


def test_FF_OPTIONAL_TILES_are_not_in_the_game():
    for seats in (2, 5):
        state = GAME.setup(seats, {}, seed=0)
        assert set(state.pile) <= set(m.RETAILERS) | set(m.BLOCKING)
    assert "construction_zone" not in m.NAMES and "demonstration" not in m.NAMES


def test_FF_DISTRIBUTORS_FREE_quarters_on_odd_and_even_boards():
    # 8x8: four 4x4 quarters. 7x7: the middle row and column belong to two halves.
    eight = quarters(8)
    assert eight[0] == 1 and eight[7] == 2 and eight[56] == 4 and eight[63] == 8
    assert eight[3 * 8 + 3] == 1 and eight[4 * 8 + 4] == 8
    seven = quarters(7)
    assert seven[3 * 7 + 3] == 15, "the centre of a 7x7 board lies in all four quarters"
    assert seven[3] == 1 | 2 and seven[3 * 7] == 1 | 4
    assert seven[0] == 1 and seven[48] == 8


def test_reconstructed_values_are_named_in_the_data():
    for name in m.RECONSTRUCTED:
        assert hasattr(m, name)


def test_schemas_are_self_contained_for_embedding_in_the_openapi_document():
    # The service embeds each game's schemas in openapi.yaml, where "#/..." would point at
    # the OpenAPI root: the schemas must not use $ref.
    for schema in (GAME.move_schema, GAME.view_schema):
        assert "$ref" not in str(schema) and "$defs" not in schema
