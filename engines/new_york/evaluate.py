"""How good a New York position looks for one seat (used by the greedy bot)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import grid
from . import city, plays
from . import material as m
from .scoring import colour_score

if TYPE_CHECKING:
    from .rules import NewYorkState


# The sharper evaluation (hard's judge): each free building beside a colour's largest group
# (its liberties, as in Go: room to grow, and what a rival must take to hem it in) is worth
# this many points. Measured with the greedy bot (bench/RESULTS.md): 0.2 best of 0.1–0.5.
LIBERTY_POINTS = 0.2


def evaluate(state: NewYorkState, seat: int, *, sharp: bool = False) -> float:
    """Points now (own side minus the best other side), plus what the position promises.

    Promise: a second group may still be joined to the largest (half its worth), jokers
    choose their building, and cards just played whose target is still to be chosen are
    worth their best target (so a one-ply bot sees through the two-step play). ``sharp``
    also counts each largest group's room to grow (``LIBERTY_POINTS``).
    """
    if state.phase == "target" and state.current == seat:
        best = None
        for choice in plays.choices(state, seat, state.pending["cards"]):
            after = state.clone()
            after.apply_listed(seat, choice)
            value = _static(after, seat, sharp)
            best = value if best is None or value > best else best
        if best is not None:
            return best
    return _static(state, seat, sharp)


def evaluate_seats_sharp(state: NewYorkState) -> list[float]:
    """Every seat's ``evaluate`` with its largest groups' room to grow (hard's judge)."""
    return [evaluate(state, seat, sharp=True) for seat in range(state.seats)]


def _groups(state: NewYorkState, sharp: bool) -> tuple[dict[int, list[int]], dict[int, int]]:
    """Each colour's group sizes, largest first, and (``sharp``) the free buildings beside its
    largest group (the first in board order), from one walk of the board."""
    if not sharp:
        return city.group_sizes_by_colour(state.board), {}
    found = grid.groups_by_value([owner for line in state.board for owner in line], m.SIZE)
    sizes = {colour: sorted((size for size, _ in groups), reverse=True) for colour, groups in found.items()}
    room = {colour: max(groups, key=lambda group: group[0])[1] for colour, groups in found.items()}
    return sizes, room


def _static(state: NewYorkState, seat: int, sharp: bool = False) -> float:
    two = state.options["two_colours"]
    value = [float(state.money[s] * m.MONEY_POINTS) for s in range(state.seats)]
    by_colour, room = _groups(state, sharp)
    for s in range(state.seats):
        for colour in state.seat_colours[s]:
            # The count of scoring.seat_points, from the same group search as the promise.
            sizes = by_colour.get(colour, [])
            largest = sizes[0] if sizes else 0
            value[s] += colour_score(largest, state.on_board[colour], two)
            if len(sizes) > 1:
                value[s] += 0.5 * sizes[1]
            value[s] += LIBERTY_POINTS * room.get(colour, 0)
    value[seat] += 0.3 * sum(1 for card in state.hands[seat] if m.is_joker(card))
    if state.options["teams"]:
        mine = value[seat] + value[state.partner(seat)]
        theirs = value[(seat + 1) % 4] + value[(seat + 3) % 4]
        return mine - theirs
    return value[seat] - max(value[s] for s in range(state.seats) if s != seat)
