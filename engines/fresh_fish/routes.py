"""Shortest street routes from a distributor to a retailer (rules FF-ROUTE, FF-ROUTE-MIN, FF-CAP).

A route leaves the distributor onto a street beside it, runs from street to street by their
sides, and ends on a street beside the retailer; its length is the number of streets on it.
Goods never pass through a building, and never go straight from a distributor to a retailer
beside it: at least one street lies between them (the rulebook's note), so a retailer
beside its distributor is at least 2 away, one touching it by a corner at least 1.

One breadth-first search per distributor gives the distance to every street, so scoring the
whole table costs four searches.
"""

from __future__ import annotations

from .board import neighbours

UNREACHED = -1


def distances_from(size: int, passable: list[bool], source: int) -> list[int]:
    """Streets counted from ``source`` (a distributor) to every passable cell; -1 if unreached."""
    near = neighbours(size)
    dist = [UNREACHED] * len(passable)
    frontier = []
    for first in near[source]:
        if passable[first]:
            dist[first] = 1
            frontier.append(first)
    step = 1
    while frontier:
        step += 1
        following = []
        for plot in frontier:
            for other in near[plot]:
                if passable[other] and dist[other] == UNREACHED:
                    dist[other] = step
                    following.append(other)
        frontier = following
    return dist


def length_to(size: int, dist: list[int], target: int) -> int | None:
    """Length of the shortest route ending beside ``target`` (a retailer), None if none."""
    best = None
    for other in neighbours(size)[target]:
        d = dist[other]
        if d != UNREACHED and (best is None or d < best):
            best = d
    return best


def route_length(size: int, passable: list[bool], source: int, target: int) -> int | None:
    return length_to(size, distances_from(size, passable, source), target)


def capped(length: int | None, cap: int) -> int:
    """The length that scores: the cap for a route longer than it, or for no route at all."""
    return cap if length is None or length > cap else length
