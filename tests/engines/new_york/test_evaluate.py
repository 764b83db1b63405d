"""The bots' judgement of New York positions: evaluate, and hard's sharper evaluate_seats_sharp.

evaluate_seats_sharp is evaluate plus, for the seat to act, the best take its hand reaches at
once (bench/RESULTS.md, "New York: hard judging what the seat to act can take at once").
"""

from __future__ import annotations

import importlib
import random

import pytest

from engines.bots.ismcts import ismcts_move
from engines.new_york import GAME
from engines.new_york.evaluate import evaluate, evaluate_seats_sharp

from .helpers import position

# The package's ``evaluate`` is the function; the module is reached by its name.
judgement = importlib.import_module("engines.new_york.evaluate")


def threat(state) -> float:
    """What the sharp evaluation adds for the seat to act (2 seats: taken from the other)."""
    sharp = evaluate_seats_sharp(state)
    plain = [evaluate(state, seat) for seat in range(state.seats)]
    mover = state.current
    assert sharp[1 - mover] - plain[1 - mover] == pytest.approx(-(sharp[mover] - plain[mover]))
    return sharp[mover] - plain[mover]


def test_a_free_building_joining_two_groups_is_worth_the_points_the_largest_gains():
    # Red (seat 0): a group of 2 on avenue 3, a lone building beyond the gap at street 5.
    owned = [(3, 3, "red"), (3, 4, "red"), (3, 6, "red")]
    state = position(2, hands={0: ["red-3", "blue-5"]}, owned=owned)
    assert threat(state) == 2 * (4 - 2)


def test_a_rival_building_costs_twice_its_price_and_counts_two_leaving_their_largest_group():
    owned = [(3, 3, "red"), (3, 4, "red"), (3, 5, "blue")]
    # Blue's only building is its largest group: red's group grows by 1 (+2), the price of 1
    # changes hands (-2), blue's largest group loses it (+2).
    assert threat(position(2, hands={0: ["red-3", "blue-5"]}, owned=owned)) == 2
    # With a larger blue group elsewhere, the building leaves only a lone one: 2 - 2 = 0.
    elsewhere = owned + [(6, 6, "blue"), (6, 7, "blue")]
    assert threat(position(2, hands={0: ["red-3", "blue-5"]}, owned=elsewhere)) == 0


def test_a_building_above_the_seats_money_is_no_threat():
    owned = [(3, 3, "red"), (3, 4, "red"), (3, 5, "blue")]
    assert threat(position(2, hands={0: ["red-3", "blue-5"]}, owned=owned, money={0: 0})) == 0


def test_jokers_reach_every_line_and_the_best_crossing_counts():
    owned = [(1, 1, "red"), (5, 5, "yellow"), (5, 7, "yellow")]
    # A red joker with street 6: (5, 6) joins yellow's two lone buildings into 3.
    assert threat(position(2, hands={0: ["red-joker", "blue-6"]}, owned=owned)) == 2 * (3 - 1)


def test_only_the_seat_to_act_is_credited():
    owned = [(3, 3, "blue"), (3, 4, "blue"), (3, 6, "blue"), (6, 6, "red"), (6, 7, "red"), (7, 1, "yellow")]
    state = position(2, current=0, hands={0: ["red-1", "blue-1"], 1: ["red-3", "blue-5"]}, owned=owned)
    # Seat 1 could join blue's groups, but seat 0 is to act, and (1, 1) would be a lone red or
    # yellow building, no larger than either colour's largest group.
    assert evaluate_seats_sharp(state) == [evaluate(state, 0), evaluate(state, 1)]


def test_along_played_games_the_sharp_evaluation_only_adds_the_movers_take():
    rng = random.Random(3)
    for seed in range(3):
        state = GAME.setup(2, {"two_colours": True}, seed)
        while not state.is_over():
            if state.phase == "play":
                assert threat(state) >= 0
            seat = state.to_act()[0]
            moves = state.legal_moves(seat)
            state.apply(seat, moves[rng.randrange(len(moves))])


def test_the_search_judges_with_the_sharp_evaluation_only_when_asked(monkeypatch):
    calls = []
    real = judgement._best_take

    def spy(*args):
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(judgement, "_best_take", spy)
    owned = [(3, 3, "red"), (3, 4, "red"), (3, 6, "red")]
    state = position(2, hands={0: ["red-3", "blue-5", "red-1", "blue-1"]}, owned=owned)
    ismcts_move(state, 0, random.Random(1), iterations=60, rollout_depth=0)
    assert not calls
    ismcts_move(state, 0, random.Random(1), iterations=60, rollout_depth=0, sharp=True)
    assert calls
