"""Square boards of cells numbered row by row: cell ``row * size + column`` (both 0-based).

Property's grid, New York's city and Fresh Fish's plots are such boards; their rules and
the bots' evaluations walk the cells' side neighbours constantly, so they are worked out
once per board size.
"""

from __future__ import annotations

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
    """The sizes of the groups that the marked cells form by their sides, in board order.

    ``marked`` is used up (every cell ends unmarked): callers build it for the call.
    """
    near = side_neighbours(size)
    sizes = []
    for start, mine in enumerate(marked):
        if not mine:
            continue
        marked[start] = False
        frontier = [start]
        count = 0
        while frontier:
            count += 1
            for neighbour in near[frontier.pop()]:
                if marked[neighbour]:
                    marked[neighbour] = False
                    frontier.append(neighbour)
        sizes.append(count)
    return sizes
