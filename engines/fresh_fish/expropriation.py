"""Expropriation: which undeveloped plots can no longer be built on (rules FF-CONNECTED,
FF-ACCESS, FF-EXPROPRIATE).

The *network* is every street and every undeveloped plot (empty or reserved). Two conditions
hold at all times:

- the network is one orthogonally connected area (FF-CONNECTED);
- every distributor and every retailer on the board touches the network (FF-ACCESS).

Building on an undeveloped plot removes it from the network. That is illegal exactly when
the plot is a cut vertex (articulation point) of the network, or when it is the last network
plot beside some distributor or retailer. One depth-first search (Tarjan's low-link) finds
every cut vertex at once, so the whole board is judged in O(plots) after each build instead
of one flood fill per plot. Turning such plots into streets keeps the network the same set
of cells, so one pass is enough.
"""

from __future__ import annotations

from .board import neighbours
from .material import NEEDS_ACCESS, STREET


def in_network(board: list[str | None]) -> list[bool]:
    return [tile is None or tile == STREET for tile in board]


def cut_plots(size: int, network: list[bool]) -> tuple[list[bool], bool]:
    """Return (cut, connected): which network cells disconnect the network when removed,
    and whether the network is one connected area. Iterative Tarjan, no recursion."""
    near = neighbours(size)
    count = len(network)
    cut = [False] * count
    try:
        start = network.index(True)
    except ValueError:
        return cut, True
    order = [0] * count  # discovery time, 0 = not yet seen
    low = [0] * count  # earliest discovery time reachable through one back edge
    parent = [-1] * count
    resume = [0] * count  # index of the next neighbour to look at, per cell on the stack
    order[start] = low[start] = 1
    clock = 1
    root_children = 0
    stack = [start]
    while stack:
        plot = stack[-1]
        around = near[plot]
        i = resume[plot]
        reach = low[plot]
        up = parent[plot]
        size_around = len(around)
        while i < size_around:
            other = around[i]
            i += 1
            if network[other]:
                seen = order[other]
                if seen == 0:
                    resume[plot] = i
                    low[plot] = reach
                    clock += 1
                    order[other] = low[other] = clock
                    parent[other] = plot
                    stack.append(other)
                    break
                if seen < reach and other != up:
                    reach = seen
        else:
            # every neighbour done: report to the parent
            low[plot] = reach
            stack.pop()
            if up >= 0:
                if reach < low[up]:
                    low[up] = reach
                if up == start:
                    root_children += 1
                elif reach >= order[up]:
                    cut[up] = True
    cut[start] = root_children > 1
    return cut, clock == network.count(True)


def unbuildable(size: int, board: list[str | None]) -> list[int]:
    """Undeveloped plots on which no tile may be built now (they must become streets)."""
    network = in_network(board)
    cut, _connected = cut_plots(size, network)
    bad = {plot for plot, tile in enumerate(board) if tile is None and cut[plot]}
    near = neighbours(size)
    for plot, tile in enumerate(board):
        if tile in NEEDS_ACCESS:
            access = [other for other in near[plot] if network[other]]
            if len(access) == 1 and board[access[0]] is None:
                bad.add(access[0])
    return sorted(bad)


def network_is_sound(size: int, board: list[str | None]) -> bool:
    """Both conditions hold: one connected network, and access for every building needing it."""
    network = in_network(board)
    _cut, connected = cut_plots(size, network)
    if not connected:
        return False
    near = neighbours(size)
    return all(
        any(network[other] for other in near[plot]) for plot, tile in enumerate(board) if tile in NEEDS_ACCESS
    )


def build_would_be_legal(size: int, board: list[str | None], plot: int) -> bool:
    """Slow reference check of one plot: build on it and test both conditions directly.

    Used by tests to cross-check ``unbuildable`` (the fast articulation-point version)."""
    if board[plot] is not None:
        return False
    trial = list(board)
    trial[plot] = "apartment"
    return network_is_sound(size, trial)
