"""How good a New York position looks for one seat (used by the greedy bot)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import city, plays
from . import material as m
from .scoring import colour_score

if TYPE_CHECKING:
    from .rules import NewYorkState


def evaluate(state: NewYorkState, seat: int) -> float:
    """Points now (own side minus the best other side), plus what the position promises.

    Promise: a second group may still be joined to the largest (half its worth), jokers
    choose their building, and cards just played whose target is still to be chosen are
    worth their best target (so a one-ply bot sees through the two-step play).
    """
    if state.phase == "target" and state.current == seat:
        best = None
        for choice in plays.choices(state, seat, state.pending_cards()):
            after = state.clone()
            after.apply_listed(seat, choice)
            value = _static(after, seat)
            best = value if best is None or value > best else best
        if best is not None:
            return best
    return _static(state, seat)


def _static(state: NewYorkState, seat: int) -> float:
    two = state.options["two_colours"]
    value = [float(state.money[s] * m.MONEY_POINTS) for s in range(state.seats)]
    by_colour = city.group_sizes_by_colour(state.board)
    for s in range(state.seats):
        for colour in state.seat_colours[s]:
            # The count of scoring.seat_points, from the same group search as the promise.
            sizes = by_colour.get(colour, [])
            largest = sizes[0] if sizes else 0
            value[s] += colour_score(largest, state.on_board[colour], two)
            if len(sizes) > 1:
                value[s] += 0.5 * sizes[1]
    value[seat] += 0.3 * sum(1 for card in state.hands[seat] if m.is_joker(card))
    if state.options["teams"]:
        mine = value[seat] + value[state.partner(seat)]
        theirs = value[(seat + 1) % 4] + value[(seat + 3) % 4]
        return mine - theirs
    return value[seat] - max(value[s] for s in range(state.seats) if s != seat)
