"""How good a New York position looks for one seat (used by the greedy bot)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import city
from . import material as m
from .scoring import seat_points

if TYPE_CHECKING:
    from .rules import NewYorkState


def evaluate(state: NewYorkState, seat: int) -> float:
    """Points now (own side minus the best other side), plus what the position promises.

    Promise: a second-largest group may still be joined to the largest (half its worth),
    jokers choose their building (a little), and money buys buildings later.
    """
    points = seat_points(state)
    value = [float(p["points"]) for p in points]
    for s in range(state.seats):
        for colour in state.seat_colours[s]:
            found = city.groups(state.board, colour)
            if len(found) > 1:
                value[s] += 0.5 * len(found[1])
        value[s] += 0.3 * sum(1 for card in state.hands[s] if m.is_joker(card)) if s == seat else 0.0
    if state.options["teams"]:
        mine = value[seat] + value[state.partner(seat)]
        theirs = value[(seat + 1) % 4] + value[(seat + 3) % 4]
        return mine - theirs
    others = [value[s] for s in range(state.seats) if s != seat]
    return value[seat] - max(others)
