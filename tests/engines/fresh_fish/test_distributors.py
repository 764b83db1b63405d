"""Free placement of the distributors, the harder game (rule id FF-DISTRIBUTORS-FREE)."""

from __future__ import annotations

import pytest

from engines.core import IllegalMove
from engines.fresh_fish import GAME
from engines.fresh_fish.board import corners, one_per_quarter, quarters

from .helpers import at, cells_of, events_of, plot_move


def test_FF_DISTRIBUTORS_FREE_the_players_place_them_port_first_in_a_corner():
    state = GAME.setup(4, {"distributors": "quarters"}, seed=3)
    first = state.first_player
    assert state.phase == "distribute" and state.to_act() == [first]
    assert state.board == [None] * 81 and state.distributors == {}
    assert state.view(None)["next_distributor"] == "port"
    assert cells_of(state.legal_moves(first), "place_distributor") == {(1, 1), (1, 9), (9, 1), (9, 9)}
    with pytest.raises(IllegalMove) as refused:
        state.apply(first, plot_move("place_distributor", 2, 2))
    assert refused.value.code == "port_not_in_corner"
    with pytest.raises(IllegalMove) as refused:
        state.apply(first, plot_move("reserve", 2, 2))
    assert refused.value.code == "distributors_not_placed"
    events = state.apply(first, plot_move("place_distributor", 1, 1))
    assert events[0] == {"type": "distributor_placed", "seat": first, "tile": "port", "row": 1, "column": 1}
    assert state.to_act() == [(first + 1) % 4]


def test_FF_DISTRIBUTORS_FREE_one_per_quarter_with_the_middle_lines_shared_on_odd_boards():
    state = GAME.setup(4, {"distributors": "quarters"}, seed=3)
    state.apply(state.to_act()[0], plot_move("place_distributor", 1, 1))
    offered = cells_of(state.legal_moves(state.to_act()[0]), "place_distributor")
    assert (2, 3) not in offered and (4, 4) not in offered, "the port's quarter is taken"
    assert (2, 8) in offered and (8, 2) in offered and (8, 8) in offered
    assert (5, 5) in offered, "the centre of a 9x9 board lies in every quarter"
    seat = state.to_act()[0]
    with pytest.raises(IllegalMove) as refused:
        state.apply(seat, plot_move("place_distributor", 3, 3))
    assert refused.value.code == "quarter_taken"
    for where in [(2, 8), (8, 2), (8, 7)]:
        state.apply(state.to_act()[0], plot_move("place_distributor", *where))
    assert state.phase == "turn" and state.current == state.first_player
    assert set(state.distributors) == {"fish", "nuclear", "petrol", "games"}
    masks = quarters(9)
    assert one_per_quarter([masks[plot] for plot in state.distributors.values()])
    assert state.board[at(state, 8, 7)] == "game_factory"


def test_FF_DISTRIBUTORS_FREE_the_players_take_turns_placing_them_clockwise():
    state = GAME.setup(2, {"distributors": "anywhere"}, seed=5)
    placers = []
    for where in [(1, 7), (3, 3), (5, 2), (6, 6)]:
        seat = state.to_act()[0]
        placers.append(seat)
        state.apply(seat, plot_move("place_distributor", *where))
    first = state.first_player
    assert placers == [first, 1 - first, first, 1 - first]
    assert state.board[at(state, 1, 7)] == "port" and state.board[at(state, 3, 3)] == "nuclear_plant"
    assert state.board[at(state, 5, 2)] == "refinery" and state.board[at(state, 6, 6)] == "game_factory"


def test_FF_DISTRIBUTORS_FREE_anywhere_and_expropriation_applies_to_the_placement():
    state = GAME.setup(2, {"distributors": "anywhere"}, seed=5)
    state.apply(state.to_act()[0], plot_move("place_distributor", 1, 1))
    offered = cells_of(state.legal_moves(state.to_act()[0]), "place_distributor")
    assert len(offered) == 48, "anywhere: every plot but the port's"
    # The nuclear plant beside the port leaves the port one access, which becomes a street.
    events = state.apply(state.to_act()[0], plot_move("place_distributor", 1, 2))
    assert events_of(events, "expropriated")[0]["plots"] == [{"row": 2, "column": 1, "owner": None}]
    offered = cells_of(state.legal_moves(state.to_act()[0]), "place_distributor")
    assert (2, 1) not in offered and (2, 2) in offered
    with pytest.raises(IllegalMove) as refused:
        state.apply(state.to_act()[0], plot_move("place_distributor", 2, 1))
    assert refused.value.code == "plot_developed"


def test_FF_DISTRIBUTORS_FREE_a_placement_that_leaves_a_plot_hanging_expropriates_its_link():
    state = GAME.setup(2, {"distributors": "anywhere"}, seed=5)
    state.apply(state.to_act()[0], plot_move("place_distributor", 1, 1))
    # With the nuclear plant two plots right of the port, the plot between them hangs on the
    # one below it: building there would cut it off, so that plot becomes a street at once.
    events = state.apply(state.to_act()[0], plot_move("place_distributor", 1, 3))
    assert events_of(events, "expropriated")[0]["plots"] == [{"row": 2, "column": 2, "owner": None}]
    offered = cells_of(state.legal_moves(state.to_act()[0]), "place_distributor")
    assert (1, 2) in offered and (2, 2) not in offered


def test_FF_DISTRIBUTORS_corners_are_the_four_corners_of_every_board():
    for size in (7, 8, 9, 10):
        last = size - 1
        assert corners(size) == (0, last, last * size, last * size + last)
