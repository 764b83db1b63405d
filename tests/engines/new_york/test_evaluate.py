"""The bots' judgement of New York positions: evaluate, and hard's sharper evaluate_seats_sharp.

evaluate_seats_sharp is evaluate plus, for each colour, 0.2 points per free building beside
its largest group (bench/RESULTS.md, "New York: hard judging its groups' room to grow").
"""

from __future__ import annotations

import pytest

from engines.new_york.evaluate import LIBERTY_POINTS, evaluate, evaluate_seats_sharp

from .helpers import position


def room(state) -> list[float]:
    """What the sharp evaluation adds to each seat's evaluate."""
    return [sharp - evaluate(state, seat) for seat, sharp in enumerate(evaluate_seats_sharp(state))]


def test_NY_SCORE_a_largest_group_in_the_open_is_worth_more_than_one_hemmed_in():
    # Red (seat 0) and blue (seat 1) each own a group of two; red's is in the open (6 free
    # buildings beside it), blue's sits in a corner (3 beside it).
    owned = [(4, 3, "red"), (4, 4, "red"), (1, 1, "blue"), (1, 2, "blue")]
    state = position(2, owned=owned)
    assert room(state) == pytest.approx([LIBERTY_POINTS * (6 - 3), LIBERTY_POINTS * (3 - 6)])


def test_NY_SCORE_only_the_largest_group_of_a_colour_counts_its_room():
    # Red's lone building at (7, 7) has room too, but only the group of two counts (6).
    owned = [(4, 3, "red"), (4, 4, "red"), (7, 7, "red"), (1, 1, "blue")]
    state = position(2, owned=owned)
    assert room(state)[0] == pytest.approx(LIBERTY_POINTS * (6 - 2))


def test_NY_V3_SCORE_both_colours_of_a_seat_count_their_room():
    # Two seats play two colours each (red and yellow for seat 0): yellow's room adds to red's.
    owned = [(4, 4, "red"), (1, 1, "yellow"), (7, 7, "blue")]
    state = position(2, owned=owned)
    assert room(state)[0] == pytest.approx(LIBERTY_POINTS * (4 + 2 - 2))


def test_the_sharp_evaluation_is_evaluate_on_an_empty_board():
    state = position(2)
    assert evaluate_seats_sharp(state) == [evaluate(state, seat) for seat in range(2)]
