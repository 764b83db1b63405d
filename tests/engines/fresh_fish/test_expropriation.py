"""Expropriation (rule ids FF-CONNECTED, FF-ACCESS, FF-EXPROPRIATE), with the rulebook's two
worked examples (figures 1-3 and 4-7, whose pictures are lost: rebuilt from their captions)."""

from __future__ import annotations

import random

import pytest

from engines.core.conformance import random_playout
from engines.fresh_fish import GAME
from engines.fresh_fish.expropriation import (
    build_would_be_legal,
    cut_plots,
    in_network,
    network_is_sound,
    unbuildable,
)

from .helpers import at, events_of, plot_move, position


def test_FF_ACCESS_figures_1_to_3_the_plots_around_the_port_are_all_reserved():
    # Fig 1: the two plots around the port are reserved, by red (seat 0) and blue (seat 1).
    state = position(
        """
        P 0 . . . . N
        1 . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        R . . . . . G
        """,
        pile=["park", "fishmonger"],
    )
    assert state.players[1]["cubes"] == 5
    # Fig 2: red draws a fishmonger, wins it and builds it beside the port.
    state.apply(0, {"type": "draw"})
    state.apply(0, {"type": "bid", "amount": 2})
    events = state.apply(1, {"type": "bid", "amount": 1})
    assert state.board[at(state, 1, 2)] == "fishmonger"
    # Fig 3: blue's plot, the port's last access, is expropriated for a street.
    taken = events_of(events, "expropriated")[0]["plots"]
    assert taken == [{"row": 2, "column": 1, "owner": 1}]
    assert state.board[at(state, 2, 1)] == "street" and state.reserved[at(state, 2, 1)] is None
    assert state.players[1]["cubes"] == 6, "blue's cube comes home"


def test_FF_ACCESS_apartments_parks_and_offices_need_no_street_access():
    state = position(
        """
        P . . . . . N
        . . . . . . .
        . . A . . . .
        . A 0 A . . .
        . . A . . . .
        . . . . . . .
        R . . . . . G
        """,
        pile=["office"],
    )
    events = state.apply(0, {"type": "draw"})
    assert state.board[at(state, 4, 3)] == "office"
    assert not events_of(events, "expropriated"), "a walled-in office is legal"


def test_FF_ACCESS_a_retailer_keeps_its_last_access():
    state = position(
        """
        P . . . . . N
        . . . . . . .
        . . . 0 . . .
        . . A f1 A . .
        . . . 1 . . .
        . . . . . . .
        R . . . . . G
        """,
        pile=["apartment"],
    )
    events = state.apply(0, {"type": "draw"})
    assert state.board[at(state, 3, 4)] == "apartment"
    assert events_of(events, "expropriated")[0]["plots"] == [{"row": 5, "column": 4, "owner": 1}]


def test_FF_CONNECTED_figures_4_to_7_plots_that_would_cut_off_the_port_become_streets():
    # Fig 4: reservations behind the port; blue is seat 0, yellow seat 1. The pocket of
    # plots around the port reaches the rest of the board through three gaps in row 3:
    # column 1, blue's plot in column 2 and yellow's plot in column 3.
    state = position(
        """
        P . . A . . N
        0 . . A . . .
        . 0 1 A . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        R . . . . . G
        """,
        pile=["park", "fishmonger", "apartment"],
    )
    # Fig 5: blue draws an apartment and plays it on a plot of his (row 3, column 2).
    state.apply(0, {"type": "draw"})
    events = state.apply(0, plot_move("place", 3, 2))
    assert not events_of(events, "expropriated"), "two gaps still join the pocket to the board"
    # Fig 6: yellow wins an auction for a fishmonger and builds it (row 3, column 3).
    state.apply(1, {"type": "draw"})
    state.apply(0, {"type": "bid", "amount": 0})
    events = state.apply(1, {"type": "bid", "amount": 1})
    assert state.board[at(state, 3, 3)] == "fishmonger"
    # Fig 7: the pocket now hangs on one corridor (row 2 column 2, row 2 column 1, then down
    # column 1 to row 4). Building on any of those plots would cut the empty plots next to
    # the port off from the rest: all are expropriated at once, blue's cube comes home.
    taken = events_of(events, "expropriated")[0]["plots"]
    assert taken == [
        {"row": 2, "column": 1, "owner": 0},
        {"row": 2, "column": 2, "owner": None},
        {"row": 3, "column": 1, "owner": None},
        {"row": 4, "column": 1, "owner": None},
    ]
    assert state.players[0]["cubes"] == 6
    assert state.board[at(state, 1, 2)] is None and state.board[at(state, 1, 3)] is None
    assert unbuildable(state.size, state.board) == [], "one pass is enough"
    assert network_is_sound(state.size, state.board)


def test_FF_CONNECTED_the_only_link_between_two_parts_can_never_be_built_on():
    state = position(
        """
        P . . . . . N
        . . . . . . .
        . . . . . . .
        A A A . A A A
        . . . . . . .
        . . . . . . .
        R . . . . . G
        """,
        sound=False,
    )
    # Broken on purpose: row 4 column 4 is the only gap in a wall, so it and the plot on
    # either side of it (the only way into the gap) each hold the two halves together.
    assert unbuildable(state.size, state.board) == [at(state, 3, 4), at(state, 4, 4), at(state, 5, 4)]


def test_FF_EXPROPRIATE_the_check_after_a_build_takes_every_illegal_plot_at_once():
    state = position(
        """
        P . . . . . N
        . . . . . . .
        . . . . . . .
        A A 1 . A A A
        . . . . . . .
        . . . . . . .
        R . . . . . G
        """,
        pile=["park", "fishmonger"],
    )
    # Seat 1 wins the fishmonger and builds it in the wall's left gap: the board's halves
    # are then joined only through the right gap and the plots above and below it, which
    # all become streets at once.
    state.current = 1
    state.apply(1, {"type": "draw"})
    state.apply(0, {"type": "bid", "amount": 0})
    events = state.apply(1, {"type": "bid", "amount": 1})
    assert state.board[at(state, 4, 3)] == "fishmonger"
    assert events_of(events, "expropriated")[0]["plots"] == [
        {"row": 3, "column": 4, "owner": None},
        {"row": 4, "column": 4, "owner": None},
        {"row": 5, "column": 4, "owner": None},
    ]


# ---- the fast check agrees with building and looking ---------------------------------------------
def _positions(seats, games, every=3):
    for seed in range(games):
        playout = random_playout(GAME, seats, {"distributors": "anywhere"}, seed, check=False)
        state = GAME.setup(seats, {"distributors": "anywhere"}, seed)
        for step, (seat, move) in enumerate(playout.moves):
            state.apply(seat, move)
            if step % every == 0:
                yield state


@pytest.mark.parametrize("seats", [2, 5])
def test_FF_EXPROPRIATE_articulation_points_match_a_build_and_flood_fill_on_every_plot(seats):
    checked = 0
    for state in _positions(seats, 3):
        board = state.board
        fast = set(unbuildable(state.size, board))
        assert fast == set(), "after every move every undeveloped plot is buildable"
        for plot, tile in enumerate(board):
            if tile is None:
                assert build_would_be_legal(state.size, board, plot)
                checked += 1
    assert checked > 100


def _connected(size, cells):
    """Plain flood fill: is this set of cells one orthogonally connected area?"""
    cells = set(cells)
    if not cells:
        return True
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        plot = todo.pop()
        r, c = divmod(plot, size)
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if 0 <= r + dr < size and 0 <= c + dc < size:
                other = (r + dr) * size + c + dc
                if other in cells and other not in seen:
                    seen.add(other)
                    todo.append(other)
    return seen == cells


def test_FF_EXPROPRIATE_articulation_points_match_brute_force_on_random_boards():
    rng = random.Random(7)
    tiles = [None, None, None, "street", "apartment", "fishmonger"]
    for _ in range(300):
        size = rng.choice([7, 8, 9, 10])
        board = [rng.choice(tiles) for _ in range(size * size)]
        network = in_network(board)
        cells = [plot for plot, inside in enumerate(network) if inside]
        cut, connected = cut_plots(size, network)
        assert connected == _connected(size, cells)
        if not connected:
            continue
        for plot in cells:
            # a cell is a cut vertex of a connected network exactly when removing it splits it
            assert cut[plot] == (not _connected(size, [c for c in cells if c != plot])), (size, plot)
