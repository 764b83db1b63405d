"""Square boards of cells numbered row by row: cell ``row * size + column`` (both 0-based).

Property's grid, New York's city and Fresh Fish's plots are such boards; their rules and
the bots' evaluations walk the cells' side neighbours constantly, so they are worked out
once per board size.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import cache
from typing import TypeVar

H = TypeVar("H", bound=Hashable)


@cache
def side_neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    """Every cell's neighbours by a side (never by a corner): above, left, right, below."""
    out = []
    for row in range(size):
        for column in range(size):
            cell = row * size + column
            near = []
            if row > 0:
                near.append(cell - size)
            if column > 0:
                near.append(cell - 1)
            if column < size - 1:
                near.append(cell + 1)
            if row < size - 1:
                near.append(cell + size)
            out.append(tuple(near))
    return tuple(out)


def group_sizes(marked: list[bool], size: int) -> list[int]:
    """The sizes of the groups that the marked cells form by their sides, in board order."""
    return group_sizes_by_value([True if mine else None for mine in marked], size).get(True, [])


def group_sizes_by_value(cells: Sequence[H | None], size: int) -> dict[H, list[int]]:
    """For every value on the board (``None`` is an empty cell), the sizes of the groups its
    cells form by their sides, in board order: every owner's groups in one walk of the board."""
    near = side_neighbours(size)
    seen = [value is None for value in cells]
    sizes: dict[H, list[int]] = {}
    for start, value in enumerate(cells):
        if seen[start]:
            continue
        assert value is not None  # an empty cell is seen from the start
        seen[start] = True
        frontier = [start]
        count = 0
        while frontier:
            count += 1
            for neighbour in near[frontier.pop()]:
                if not seen[neighbour] and cells[neighbour] == value:
                    seen[neighbour] = True
                    frontier.append(neighbour)
        sizes.setdefault(value, []).append(count)
    return sizes
