"""A Fresh Fish turn: reserve or build (rule ids FF-TURN, FF-RESERVE*, FF-BUILD*, FF-STUCK)."""

from __future__ import annotations

import pytest

from engines.core import IllegalMove, NotYourTurn
from engines.fresh_fish import GAME

from .helpers import at, cells_of, empty_map, events_of, plot_move, position

SEVEN = empty_map(7)


# ---- FF-TURN -------------------------------------------------------------------------------------
def test_FF_TURN_reserve_or_build_then_the_next_player_clockwise():
    state = GAME.setup(3, {}, seed=4)
    first = state.first_player
    moves = state.legal_moves(first)
    assert {mv["type"] for mv in moves} == {"reserve"}, "no reserved plot yet: only reserving"
    state.apply(first, moves[0])
    assert state.to_act() == [(first + 1) % 3]
    with pytest.raises(NotYourTurn):
        state.apply(first, state.legal_moves((first + 1) % 3)[0])


def test_FF_TURN_a_player_with_a_reserved_plot_may_reserve_again_or_build():
    state = position(
        """
        P . . . . . N
        . 0 . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        R . . . . . G
        """,
        pile=["apartment"],
    )
    kinds = {mv["type"] for mv in state.legal_moves(0)}
    assert kinds == {"reserve", "draw"}


# ---- FF-RESERVE, FF-RESERVE-FIRST, FF-RESERVE-OWN ----------------------------------------------
def test_FF_RESERVE_FIRST_anywhere_on_the_players_first_turn():
    state = GAME.setup(2, {}, seed=0)
    seat = state.current
    plots = cells_of(state.legal_moves(seat), "reserve")
    assert len(plots) == 49 - 4, "every undeveloped plot"
    assert (4, 4) in plots, "the centre touches nothing, yet is allowed on the first turn"
    state.apply(seat, plot_move("reserve", 4, 4))
    other = state.current
    assert len(cells_of(state.legal_moves(other), "reserve")) == 49 - 5
    state.apply(other, plot_move("reserve", 2, 6))
    # Second turn of the first player: only plots beside a developed or reserved plot.
    second = cells_of(state.legal_moves(seat), "reserve")
    assert (4, 5) in second and (2, 7) in second and (1, 2) in second
    assert (5, 5) not in second, "touching only by a corner does not count"
    assert (3, 3) not in second


def test_FF_RESERVE_beside_a_developed_or_reserved_plot_after_the_first_turn():
    state = position(
        """
        P . . . . . N
        . . . . . . .
        . . . 1 . . .
        . . . . . . .
        . # . . . . .
        . . . . . . .
        R . . . . . G
        """
    )
    expected = {
        (1, 2), (2, 1), (1, 6), (2, 7), (6, 1), (7, 2), (6, 7), (7, 6),  # beside the distributors
        (2, 4), (3, 3), (3, 5), (4, 4),  # beside seat 1's reservation
        (4, 2), (5, 1), (5, 3), (6, 2),  # beside the street
    }  # fmt: skip
    assert cells_of(state.legal_moves(0), "reserve") == expected
    events = state.apply(0, plot_move("reserve", 4, 4))
    assert events[0] == {"type": "plot_reserved", "seat": 0, "row": 4, "column": 4}
    assert state.reserved[at(state, 4, 4)] == 0
    assert state.players[0]["cubes"] == 5
    view = state.view(1)
    assert view["grid"][3][3] == {"tile": None, "owner": 0}
    assert view["players"][0]["reserved"] == [{"row": 4, "column": 4}]


def test_FF_RESERVE_refusals_name_the_rule():
    state = position(
        """
        P . . . . . N
        . . . . . . .
        . . . 1 . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        R . . . . . G
        """
    )
    for bad, code in [
        (plot_move("reserve", 3, 4), "plot_reserved"),
        (plot_move("reserve", 1, 1), "plot_developed"),
        (plot_move("reserve", 5, 5), "reservation_not_adjacent"),
        (plot_move("reserve", 8, 1), "no_such_plot"),
        (plot_move("reserve", 0, 1), "no_such_plot"),
        (plot_move("reserve", "2", 1), "malformed_move"),
        ({"type": "reserve", "row": 2}, "malformed_move"),
        (plot_move("place", 2, 1), "no_such_step_now"),
        ({"type": "bid", "amount": 1}, "no_such_step_now"),
    ]:
        before = state.to_dict()
        with pytest.raises(IllegalMove) as refused:
            state.apply(0, bad)
        assert refused.value.code == code, bad
        assert state.to_dict() == before


def test_FF_RESERVE_needs_a_cube_in_hand():
    state = position(
        """
        P . . . . . N
        0 0 0 0 0 0 .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        R . . . . . G
        """,
        pile=["park"],
    )
    assert state.players[0]["cubes"] == 0
    assert state.legal_moves(0) == [{"type": "draw"}]
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, plot_move("reserve", 3, 1))
    assert refused.value.code == "no_cube_in_hand"


def test_FF_RESERVE_OWN_only_the_reserver_builds_on_a_reserved_plot():
    state = position(
        """
        P 1 . . . . N
        . 0 . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        R . . . . . G
        """,
        pile=["park", "office"],
    )
    state.apply(0, {"type": "draw"})
    assert state.board[at(state, 2, 2)] == "office", "seat 0's only plot takes the office"
    assert state.board[at(state, 1, 2)] is None and state.reserved[at(state, 1, 2)] == 1


# ---- FF-BUILD, FF-BUILD-BLOCKING -----------------------------------------------------------------
def test_FF_BUILD_needs_a_reserved_plot_of_ones_own():
    state = position(SEVEN, pile=["park"])
    assert {"type": "draw"} not in state.legal_moves(0)
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, {"type": "draw"})
    assert refused.value.code == "no_reserved_plot"


def test_FF_BUILD_BLOCKING_a_drawn_building_goes_on_the_drawers_only_plot_and_the_cube_returns():
    state = position(
        """
        P . . . . . N
        . 0 . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        R . . . . . G
        """,
        pile=["apartment", "park"],
    )
    assert state.players[0]["cubes"] == 5
    events = state.apply(0, {"type": "draw"})
    assert events[0] == {"type": "tile_drawn", "seat": 0, "tile": "park", "pile_size": 1}
    assert events_of(events, "building_built")[0]["tile"] == "park"
    assert state.board[at(state, 2, 2)] == "park" and state.reserved[at(state, 2, 2)] is None
    assert state.players[0]["cubes"] == 6, "the cube comes back to hand"
    assert state.current == 1 and state.pile == ["apartment"]


def test_FF_BUILD_BLOCKING_with_several_plots_the_drawer_chooses():
    state = position(
        """
        P . . . . . N
        . 0 . . . . .
        . . . . 0 . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        R . . . . . G
        """,
        pile=["apartment", "office"],
    )
    state.apply(0, {"type": "draw"})
    assert state.phase == "place" and state.to_act() == [0]
    assert state.view(1)["drawn_tile"] == "office", "a drawn tile is shown to all"
    assert cells_of(state.legal_moves(0), "place") == {(2, 2), (3, 5)}
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, plot_move("place", 4, 4))
    assert refused.value.code == "not_your_reserved_plot"
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, {"type": "draw"})
    assert refused.value.code == "placement_pending"
    state.apply(0, plot_move("place", 3, 5))
    assert state.board[at(state, 3, 5)] == "office" and state.current == 1
    assert state.reserved[at(state, 2, 2)] == 0


# ---- FF-BUILD-EMPTY ------------------------------------------------------------------------------
def test_FF_BUILD_EMPTY_an_empty_pile_lets_the_player_build_a_street_or_a_set_aside_building():
    state = position(
        """
        P . . . . . N
        . 0 . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        R . . . . . G
        """,
        pile=[],
    )
    assert state.set_aside == {"apartment": 8, "office": 4, "park": 4}
    builds = [mv for mv in state.legal_moves(0) if mv["type"] == "build"]
    assert {mv["tile"] for mv in builds} == {"street", "apartment", "office", "park"}
    assert {"type": "draw"} not in state.legal_moves(0)
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, {"type": "draw"})
    assert refused.value.code == "pile_empty"
    state.apply(0, plot_move("build", 2, 2, tile="office"))
    assert state.board[at(state, 2, 2)] == "office"
    assert state.set_aside["office"] == 3 and state.players[0]["cubes"] == 6


def test_FF_BUILD_EMPTY_a_street_on_a_reserved_plot_and_only_streets_once_the_set_aside_is_gone():
    state = position(
        """
        P . . . . . N
        . 0 . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        R . . . . . G
        """,
        pile=[],
    )
    state.set_aside = {"apartment": 0, "office": 0, "park": 0}
    builds = [mv for mv in state.legal_moves(0) if mv["type"] == "build"]
    assert builds == [plot_move("build", 2, 2, tile="street")]
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, plot_move("build", 2, 2, tile="park"))
    assert refused.value.code == "no_set_aside_tile"
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, plot_move("build", 2, 2, tile="fishmonger"))
    assert refused.value.code == "no_such_tile"
    state.apply(0, plot_move("build", 2, 2, tile="street"))
    assert state.board[at(state, 2, 2)] == "street" and state.players[0]["cubes"] == 6


def test_FF_BUILD_EMPTY_is_refused_while_the_pile_holds_tiles():
    state = position(
        """
        P . . . . . N
        . 0 . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        R . . . . . G
        """,
        pile=["park"],
    )
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, plot_move("build", 2, 2, tile="street"))
    assert refused.value.code == "pile_not_empty"


# ---- FF-STUCK ------------------------------------------------------------------------------------
def test_FF_STUCK_a_player_who_can_neither_reserve_nor_build_is_skipped():
    # Every undeveloped plot is reserved by seat 0: seat 1 has nothing to do.
    rows = []
    for r in range(7):
        rows.append(" ".join("0" if (r + c) % 2 == 0 else "#" for c in range(7)))
    grid = [row.split() for row in rows]
    grid[0][0], grid[0][6], grid[6][0], grid[6][6] = "P", "N", "R", "G"
    # seat 0 may hold at most 6 cubes on plots: keep 6 reservations, streets elsewhere
    count = 0
    for r in range(7):
        for c in range(7):
            if grid[r][c] == "0":
                count += 1
                if count > 6:
                    grid[r][c] = "#"
    state = position("\n".join(" ".join(row) for row in grid), current=0, pile=["park"] * 6)
    assert not state.can_act(1)
    events = state.apply(0, {"type": "draw"})
    assert state.phase == "place"
    events = state.apply(0, state.legal_moves(0)[0])
    assert events_of(events, "turn_skipped") == [{"type": "turn_skipped", "seat": 1}]
    assert state.current == 0
