"""engines.core.grid: square boards numbered row by row."""

from __future__ import annotations

from engines.core.grid import group_sizes, group_sizes_by_value, side_neighbours


def test_cells_touch_by_their_sides_only():
    near = side_neighbours(3)
    assert near[0] == (1, 3)  # a corner: right and below
    assert near[4] == (1, 3, 5, 7)  # the centre: above, left, right, below
    assert near[8] == (5, 7)


def test_group_sizes_join_cells_by_sides_not_corners():
    board = [
        "X.X",
        ".XX",
        "X..",
    ]
    marked = [cell == "X" for line in board for cell in line]
    assert group_sizes(marked, 3) == [1, 3, 1]


def test_every_owners_groups_in_one_walk():
    board = [
        "ab.",
        "abb",
        "b.a",
    ]
    cells = [None if cell == "." else cell for line in board for cell in line]
    assert group_sizes_by_value(cells, 3) == {"a": [2, 1], "b": [3, 1]}
    assert group_sizes_by_value([None] * 4, 2) == {}
