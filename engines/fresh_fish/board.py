"""The square grid of plots: numbering, orthogonal neighbours, corners and quarters.

A plot is numbered ``row * size + column`` (both 0-based, from the top left); moves and views
use 1-based ``row`` and ``column``. Neighbour lists are computed once per board size, since
the connectivity and route code walks them after every build and inside bot search.
"""

from __future__ import annotations

from functools import cache

from ..core.grid import side_neighbours

# Orthogonal neighbours of every plot (touching by a side, never by a corner), per board size.
neighbours = side_neighbours


@cache
def cells(size: int) -> tuple[tuple[int, int], ...]:
    """1-based (row, column) of every plot, for building listings quickly."""
    return tuple((plot // size + 1, plot % size + 1) for plot in range(size * size))


def plot_at(size: int, row: int, column: int) -> int:
    """The plot at 1-based ``row`` and ``column``."""
    return (row - 1) * size + (column - 1)


def coordinates(size: int, plot: int) -> tuple[int, int]:
    """1-based (row, column) of a plot."""
    return plot // size + 1, plot % size + 1


@cache
def corners(size: int) -> tuple[int, ...]:
    last = size - 1
    return (0, last, last * size, last * size + last)


@cache
def quarters(size: int) -> tuple[int, ...]:
    """Bit mask of the quarters each plot lies in (top-left 1, top-right 2, bottom-left 4,
    bottom-right 8). On an odd board the middle row and column belong to both halves."""
    masks = []
    for row in range(size):
        rows = (1 if 2 * row <= size - 1 else 0) | (2 if 2 * row >= size - 1 else 0)
        for column in range(size):
            cols = (1 if 2 * column <= size - 1 else 0) | (2 if 2 * column >= size - 1 else 0)
            mask = 0
            for r_half in (0, 1):
                for c_half in (0, 1):
                    if rows & (1 << r_half) and cols & (1 << c_half):
                        mask |= 1 << (2 * r_half + c_half)
            masks.append(mask)
    return tuple(masks)


def one_per_quarter(masks: list[int]) -> bool:
    """Whether each plot (given by its quarter mask) can stand for a different quarter."""

    def assign(i: int, used: int) -> bool:
        if i == len(masks):
            return True
        free = masks[i] & ~used
        while free:
            bit = free & -free
            if assign(i + 1, used | bit):
                return True
            free ^= bit
        return False

    return assign(0, 0)
