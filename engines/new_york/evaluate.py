"""How good a New York position looks for one seat (the bots' judgement).

``evaluate`` (greedy and medium, and every rollout) counts points now and what the position
promises. ``evaluate_seats_sharp`` (the hard level, Game.evaluate_seats_sharp) adds what
the seat to act can take at once: the tree search reaches that seat's move only now and
then, and a line that leaves a rival a large take looked as good as one that does not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import grid
from . import city, plays
from . import material as m
from .scoring import colour_score

if TYPE_CHECKING:
    from collections.abc import Callable

    from .rules import NewYorkState

# A joker in hand is worth this much: it chooses its line when played.
JOKER_PROMISE = 0.3
# Each building of a colour's second group: it may still be joined to the largest.
SECOND_GROUP_PROMISE = 0.5
# The seat to act's best take at once, counted at this share (bench/RESULTS.md: credited to
# the other seats too, the bot keeps cards for later instead of taking now, and loses).
THREAT_SHARE = 1.0


def evaluate(state: NewYorkState, seat: int) -> float:
    """Points now (own side minus the best other side), plus what the position promises.

    Promise: a second group may still be joined to the largest (half its worth), jokers
    choose their building, and cards just played whose target is still to be chosen are
    worth their best target (so a one-ply bot sees through the two-step play).
    """
    return _with_target(state, seat, _static)


def evaluate_seats_sharp(state: NewYorkState) -> list[float]:
    """Every seat's evaluate, the seat to act credited with the best take its hand reaches."""
    if state.phase == "target":
        return [_with_target(state, seat, _sharp) for seat in range(state.seats)]
    values = _sharp_values(state)
    return [_relative(state, values, seat) for seat in range(state.seats)]


def _with_target(
    state: NewYorkState, seat: int, judge: Callable[[NewYorkState, int], float]
) -> float:
    """``judge``, except that a seat choosing the target of its cards is worth its best target."""
    if state.phase == "target" and state.current == seat:
        best = None
        for choice in plays.choices(state, seat, state.pending["cards"]):
            after = state.clone()
            after.apply_listed(seat, choice)
            value = judge(after, seat)
            best = value if best is None or value > best else best
        if best is not None:
            return best
    return judge(state, seat)


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
                value[s] += SECOND_GROUP_PROMISE * sizes[1]
    return _relative(state, value, seat)


def _relative(state: NewYorkState, values: list[float], seat: int) -> float:
    """The seat's side (its jokers' promise added) minus the best other side."""
    value = list(values)
    value[seat] += JOKER_PROMISE * sum(1 for card in state.hands[seat] if m.is_joker(card))
    if state.options["teams"]:
        mine = value[seat] + value[state.partner(seat)]
        theirs = value[(seat + 1) % 4] + value[(seat + 3) % 4]
        return mine - theirs
    return value[seat] - max(value[s] for s in range(state.seats) if s != seat)


def _sharp(state: NewYorkState, seat: int) -> float:
    return _relative(state, _sharp_values(state), seat)


def _sharp_values(state: NewYorkState) -> list[float]:
    """Every seat's points and promise as ``_static`` counts them, plus, for the seat to
    act, ``THREAT_SHARE`` of the best take its hand reaches (``_best_take``)."""
    two = state.options["two_colours"]
    cells = [owner for line in state.board for owner in line]
    label, sizes, firsts = grid.group_labels(cells, m.SIZE)
    # Per colour: its largest group (the first in board order among equals) and the second.
    largest = [0] * state.colours
    second = [0] * state.colours
    largest_label = [-1] * state.colours
    for group, first_cell in enumerate(firsts):
        owner = cells[first_cell]
        size = sizes[group]
        if size > largest[owner]:
            second[owner] = largest[owner]
            largest[owner] = size
            largest_label[owner] = group
        elif size > second[owner]:
            second[owner] = size
    value = [float(state.money[s] * m.MONEY_POINTS) for s in range(state.seats)]
    for s in range(state.seats):
        for colour in state.seat_colours[s]:
            value[s] += colour_score(largest[colour], state.on_board[colour], two)
            value[s] += SECOND_GROUP_PROMISE * second[colour]
    if state.phase == "play":
        seat = state.current
        value[seat] += THREAT_SHARE * _best_take(state, seat, cells, label, sizes, largest, largest_label)
    return value


# What each card reaches: (red, its lines); a joker any line, an event card none.
_CARD_LINES = {
    card: (m.card_colour(card) == m.RED, m.LINES if m.is_joker(card) else (line,) if line is not None else ())
    for card, line in m.CARD_LINE.items()
}


def _best_take(
    state: NewYorkState,
    seat: int,
    cells: list[int | None],
    label: list[int],
    sizes: list[int],
    largest: list[int],
    largest_label: list[int],
) -> float:
    """The most a take at one crossing of the seat's red and blue cards is worth to it now:
    the points its colour's largest group gains (groups joined counted), less twice any
    price (the money goes to the rival), plus 2 when the building leaves the rival's largest
    group. Never below 0 (a hand may take nothing worth having). Event cards and the main
    game's point for a building outside the group are left out."""
    avenues: set[int] = set()
    streets: set[int] = set()
    for card in state.hands[seat]:
        red, lines = _CARD_LINES[card]
        (avenues if red else streets).update(lines)
    colours = [c for c in state.seat_colours[seat] if state.supply[c] > 0]
    if not avenues or not streets or not colours:
        return 0.0
    prices = None
    colour_seat, money = state.colour_seat, state.money[seat]
    near = grid.side_neighbours(m.SIZE)
    best = 0.0
    for avenue in avenues:
        row = (avenue - 1) * m.SIZE
        for street in streets:
            cell = row + street - 1
            owner = cells[cell]
            cost = 0.0
            if owner is not None:
                if colour_seat[owner] == seat:
                    continue
                if prices is None:
                    prices = state.price_counts()
                price = min(prices[0][owner][avenue - 1], prices[1][owner][street - 1])
                if price > money:
                    continue
                cost = 2.0 * price - (2.0 if label[cell] == largest_label[owner] else 0.0)
            around = near[cell]
            for colour in colours:
                joined = 1
                seen: list[int] = []
                for neighbour in around:
                    if cells[neighbour] == colour and label[neighbour] not in seen:
                        seen.append(label[neighbour])
                        joined += sizes[label[neighbour]]
                gain = 2.0 * max(0, joined - largest[colour]) - cost
                if gain > best:
                    best = gain
    return best
