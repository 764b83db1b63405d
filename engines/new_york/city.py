"""The city: who owns which building, and what follows from it (prices, groups, leaders).

The board is ``board[avenue - 1][street - 1]``: a colour index or None. These functions
read plain lists so that the state stays plain JSON and scoring can be tested alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core import grid
from . import material as m

Board = Sequence[Sequence[int | None]]


def neighbours(avenue: int, street: int) -> list[tuple[int, int]]:
    """Squares sharing a side with this one (diagonals never count: NY-PRELIM-ADJACENT, NY-SCORE)."""
    out = []
    for a, s in ((avenue - 1, street), (avenue + 1, street), (avenue, street - 1), (avenue, street + 1)):
        if 1 <= a <= m.SIZE and 1 <= s <= m.SIZE:
            out.append((a, s))
    return out


# The neighbours of every square, as 0-based (row, column) pairs: asked for constantly.
NEIGHBOURS = {
    (a, s): tuple((na - 1, ns - 1) for na, ns in neighbours(a, s)) for a in m.LINES for s in m.LINES
}


def touches_colour(board: Board, avenue: int, street: int, colour: int) -> bool:
    for r, c in NEIGHBOURS[(avenue, street)]:
        if board[r][c] == colour:
            return True
    return False


# The same, keyed by 0-based (row, column): the group search walks the board in those.
_NEIGHBOURS_0 = {(a - 1, s - 1): around for (a, s), around in NEIGHBOURS.items()}


def _components(board: Board, colour: int) -> list[list[tuple[int, int]]]:
    """The colour's orthogonally connected groups, as 0-based squares in no order."""
    seen: set[tuple[int, int]] = set()
    found = []
    for row, line in enumerate(board):
        for column, owner in enumerate(line):
            if owner != colour or (row, column) in seen:
                continue
            seen.add((row, column))
            group = [(row, column)]
            frontier = [(row, column)]
            while frontier:
                for square in _NEIGHBOURS_0[frontier.pop()]:
                    if square not in seen and board[square[0]][square[1]] == colour:
                        seen.add(square)
                        group.append(square)
                        frontier.append(square)
            found.append(group)
    return found


def groups(board: Board, colour: int) -> list[list[tuple[int, int]]]:
    """The colour's orthogonally connected groups, largest first (squares as (avenue, street))."""
    found = [sorted((r + 1, c + 1) for r, c in group) for group in _components(board, colour)]
    found.sort(key=len, reverse=True)
    return found


def group_sizes(board: Board, colour: int) -> list[int]:
    """The sizes of the colour's groups, largest first: all that scoring needs."""
    sizes = grid.group_sizes([owner == colour for line in board for owner in line], m.SIZE)
    sizes.sort(reverse=True)
    return sizes


def group_sizes_by_colour(board: Board) -> dict[int, list[int]]:
    """Every colour's group sizes, largest first (absent: no building), in one walk of the
    board: the bots' evaluation asks for all colours at every position it judges."""
    by_colour = grid.group_sizes_by_value([owner for line in board for owner in line], m.SIZE)
    for sizes in by_colour.values():
        sizes.sort(reverse=True)
    return by_colour


def largest_group(board: Board, colour: int) -> int:
    sizes = group_sizes(board, colour)
    return sizes[0] if sizes else 0


def buildings(board: Board, colour: int) -> list[tuple[int, int]]:
    return [(a, s) for a, s in m.SQUARES if board[a - 1][s - 1] == colour]


def line_squares(kind: str, number: int) -> list[tuple[int, int]]:
    """The 7 squares of an avenue (a row) or a street (a column)."""
    if kind == "avenue":
        return [(number, s) for s in m.LINES]
    return [(a, number) for a in m.LINES]


def line_counts(board: Board, kind: str, number: int, colours: int) -> list[int]:
    counts = [0] * colours
    for a, s in line_squares(kind, number):
        owner = board[a - 1][s - 1]
        if owner is not None:
            counts[owner] += 1
    return counts


def price(
    avenue_counts: Sequence[Sequence[int]],
    street_counts: Sequence[Sequence[int]],
    owner: int,
    avenue: int,
    street: int,
) -> int:
    """Rule NY-BUY-PRICE: the lower of the owner's buildings in that avenue and in that street.

    The building itself is the owner's and lies in both, so it counts in both and the
    price is never below 1 (research §2: inferred).
    """
    return min(avenue_counts[owner][avenue - 1], street_counts[owner][street - 1])
