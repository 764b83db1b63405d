"""The end and the score (rule ids FF-END, FF-ROUTE, FF-ROUTE-MIN, FF-CAP, FF-SCORE, FF-WINNER)."""

from __future__ import annotations

import random

import pytest

from engines.core import GameOver
from engines.fresh_fish import GAME
from engines.fresh_fish import material as m
from engines.fresh_fish.evaluate import estimated_totals, evaluate
from engines.fresh_fish.routes import capped

from .helpers import events_of, plot_move, position

# A finished 7x7 city but for one plot (row 4, column 4) reserved by seat 0, the pile empty.
# Seat 0: fishmonger 1 street from the port, waste dump 1 from the plant, petrol station 1
# from the refinery, game shop 2 from the factory (5). Seat 1: fishmonger 1, waste dump
# beside the plant 2, petrol station beside the refinery 2, game shop 1 (6).
ALMOST_DONE = """
P  #  f0 #  #  w1 N
#  #  #  #  #  #  #
f1 #  A  A  A  #  w0
#  #  #  0  #  #  #
s0 #  A  A  A  #  g1
#  #  #  #  #  #  #
R  s1 #  g0 #  #  G
"""


def finish(state):
    return state.apply(0, plot_move("build", 4, 4, tile="street"))


# ---- FF-ROUTE, FF-ROUTE-MIN ----------------------------------------------------------------------
def test_FF_ROUTE_each_street_on_the_shortest_route_counts_one():
    state = position(ALMOST_DONE, pile=[])
    lengths = state.route_lengths()
    assert lengths[0] == {"fish": 1, "nuclear": 1, "petrol": 1, "games": 2}
    assert lengths[1] == {"fish": 1, "nuclear": 2, "petrol": 2, "games": 1}


def test_FF_ROUTE_goods_never_pass_through_a_building_or_an_undeveloped_plot():
    state = position(
        """
        P # # # A . N
        A A A # A . .
        f0 # # # A . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        R . . . . . G
        """,
        sound=False,
    )
    # The fishmonger is two plots below the port, but the route runs round the apartments.
    assert state.route_lengths()[0]["fish"] == 7


@pytest.mark.parametrize(
    ("rows", "length"),
    [
        ("P f0 .\n# # .\n. . .", 2),  # beside the port: at least 2, never 0
        ("P # .\n# f0 .\n. . .", 1),  # touching by a corner: 1
    ],
)
def test_FF_ROUTE_MIN_goods_never_go_straight_from_distributor_to_retailer(rows, length):
    lines = [line.split() + ["."] * 4 for line in rows.splitlines()]
    lines += [["."] * 7 for _ in range(4)]
    state = position("\n".join(" ".join(line) for line in lines), sound=False)
    assert state.route_lengths()[0]["fish"] == length


# ---- FF-CAP --------------------------------------------------------------------------------------
def test_FF_CAP_maximum_lengths_by_player_count():
    assert m.ROUTE_CAP == {5: 14, 4: 12, 3: 10, 2: 8}
    for seats, cap in m.ROUTE_CAP.items():
        assert GAME.setup(seats, {}, seed=0).view(None)["route_cap"] == cap
    assert capped(3, 8) == 3 and capped(8, 8) == 8 and capped(12, 8) == 8 and capped(None, 8) == 8


def test_FF_CAP_a_route_longer_than_the_cap_scores_the_cap():
    state = position(
        """
        P f0 # . . . N
        # A # . . . .
        # A # . . . .
        # A # . . . .
        # A # . . . .
        # # # . . . .
        R . . . . . G
        """,
        sound=False,
    )
    assert state.route_lengths()[0]["fish"] == 12
    assert capped(state.route_lengths()[0]["fish"], state.cap) == 8


# ---- FF-END, FF-SCORE, FF-WINNER -----------------------------------------------------------------
def test_FF_END_the_game_ends_when_every_plot_is_developed():
    state = position(ALMOST_DONE, pile=[])
    assert state.result() is None and state.to_act() == [0]
    events = finish(state)
    assert state.is_over() and state.phase == "over" and None not in state.board
    assert events[-1]["type"] == "game_over"
    assert state.legal_moves(0) == [] and state.legal_moves(1) == []
    with pytest.raises(GameOver):
        state.apply(1, {"type": "draw"})


def test_FF_SCORE_the_four_distances_added_and_the_money_left_subtracted():
    state = position(ALMOST_DONE, pile=[], money={0: 3, 1: 10})
    finish(state)
    result = state.result()
    assert result.breakdown[0]["routes"] == {"fish": 1, "nuclear": 1, "petrol": 1, "games": 2}
    assert result.breakdown[0]["distance"] == 5 and result.breakdown[0]["total"] == 5 - 3
    assert result.breakdown[1]["distance"] == 6 and result.breakdown[1]["total"] == 6 - 10
    assert result.scores == [2, -4]
    assert result.winners == [1] and result.ranks == [2, 1], "the lowest total wins"
    assert set(result.to_dict()) == {"scores", "ranks", "winners", "breakdown", "reason"}


def test_FF_WINNER_on_equal_totals_the_most_money_wins():
    state = position(ALMOST_DONE, pile=[], money={0: 14, 1: 15})
    finish(state)
    result = state.result()
    assert result.scores == [5 - 14, 6 - 15] == [-9, -9]
    assert result.ranks == [2, 1]


def test_FF_WINNER_equal_totals_and_money_share_the_rank():
    # seat 1's petrol station moved to one street from the refinery: both travel 5
    rows = ALMOST_DONE.replace("#  #  #  #  #  #  #\nR  s1", "#  s1 #  #  #  #  #\nR  #  ")
    state = position(rows, pile=[], money={0: 15, 1: 15})
    finish(state)
    result = state.result()
    assert [b["distance"] for b in result.breakdown] == [5, 5]
    assert result.scores == [-10, -10] and result.ranks == [1, 1] and result.winners == [0, 1]


def test_FF_CAP_a_retailer_in_front_or_never_obtained_scores_the_cap():
    rows = ALMOST_DONE.replace("g1", "A ").replace("w1", "# ")
    state = position(rows, pile=[], in_front={1: ["game_shop"]})
    finish(state)
    result = state.result()
    assert result.breakdown[1]["routes"] == {"fish": 1, "nuclear": 8, "petrol": 2, "games": 8}
    assert result.breakdown[1]["retailers"]["games"] == "in_front"
    assert result.breakdown[1]["retailers"]["nuclear"] is None


def test_FF_END_an_expropriation_can_develop_the_last_plots():
    state = position(
        """
        P  #  f0 #  #  w1 N
        #  #  #  #  #  #  #
        f1 #  #  #  #  #  w0
        A  A  0  A  .  A  A
        s0 #  #  #  #  #  g1
        #  #  #  #  #  #  #
        R  s1 #  g0 #  #  G
        """,
        pile=["park"],
    )
    # Two gaps in a wall; once seat 0 builds in one, the other is the only link and becomes
    # a street: no undeveloped plot is left and the game is over.
    events = state.apply(0, {"type": "draw"})
    assert events_of(events, "building_built")[0]["tile"] == "park"
    assert events_of(events, "expropriated")[0]["plots"] == [{"row": 4, "column": 5, "owner": None}]
    assert state.is_over() and events[-1]["type"] == "game_over"


# ---- evaluate ------------------------------------------------------------------------------------
def test_evaluate_at_the_end_is_the_score_difference_and_during_play_prefers_short_routes():
    state = position(ALMOST_DONE, pile=[], money={0: 3, 1: 10})
    before = estimated_totals(state)
    assert len(before) == 2
    finish(state)
    assert evaluate(state, 1) == 2 - (-4) and evaluate(state, 0) == -6
    near = position(ALMOST_DONE.replace("0  #  #  #", "#  #  #  #").replace("P  #", "P  0"), sound=False)
    far = position(ALMOST_DONE.replace("0  #  #  #", "#  #  #  #").replace("g0 #  #", "g0 0  #"), sound=False)
    for state in (near, far):
        state.players[0]["retailers"].pop("fish")
    assert evaluate(near, 0) > evaluate(far, 0), "a reserved plot near the port promises more"


def test_evaluate_guides_a_one_ply_greedy_player_to_beat_random_play():
    def greedy(state, seat, rng):
        sample = state.determinize(seat, rng)
        scored = []
        for move in sample.legal_moves(seat):
            after = sample.clone()
            after.apply_listed(seat, move)
            scored.append((evaluate(after, seat), rng.random(), move))
        return max(scored, key=lambda item: item[:2])[2]

    wins = 0
    for seed in range(4):
        state = GAME.setup(2, {}, seed)
        rng = random.Random(seed)
        while not state.is_over():
            seat = state.to_act()[0]
            move = greedy(state, seat, rng) if seat == 0 else rng.choice(state.legal_moves(seat))
            state.apply(seat, move)
        wins += state.result().ranks[0] == 1
    assert wins >= 3
