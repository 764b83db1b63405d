"""Square boards of cells numbered row by row: cell ``row * size + column`` (both 0-based).

Property's grid, New York's city and Fresh Fish's plots are such boards; their rules and
the bots' evaluations walk the cells' side neighbours constantly, so they are worked out
once per board size.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import cache


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


def group_sizes_by_value(cells: Sequence[Hashable | None], size: int) -> dict[Hashable, list[int]]:
    """For every value on the board (``None`` is an empty cell), the sizes of the groups its
    cells form by their sides, in board order: every owner's groups in one walk of the board."""
    near = side_neighbours(size)
    seen = [value is None for value in cells]
    sizes: dict[Hashable, list[int]] = {}
    for start, value in enumerate(cells):
        if seen[start]:
            continue
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


def group_labels(
    cells: Sequence[Hashable | None], size: int
) -> tuple[list[int], list[int], list[int]]:
    """Which group each cell belongs to (-1 for an empty cell), each group's size and its
    first cell: the groups that cells of one value form by their sides, numbered in board
    order. For questions about one cell's groups (which groups a new piece there joins)."""
    near = side_neighbours(size)
    label = [-1] * len(cells)
    sizes: list[int] = []
    firsts: list[int] = []
    for start, value in enumerate(cells):
        if value is None or label[start] >= 0:
            continue
        group = len(sizes)
        firsts.append(start)
        label[start] = group
        frontier = [start]
        count = 0
        while frontier:
            count += 1
            for neighbour in near[frontier.pop()]:
                if label[neighbour] < 0 and cells[neighbour] == value:
                    label[neighbour] = group
                    frontier.append(neighbour)
        sizes.append(count)
    return label, sizes, firsts
