"""evaluate(state, seat): the greedy bot's view of a position."""

from __future__ import annotations

import random

from engines.wettstreit import GAME
from engines.wettstreit.evaluate import evaluate

from .position import PASS, bid, play, position

UP = {"type": "auction", "pile": "face_up"}


def test_evaluate_prefers_a_cheap_card_to_nothing_and_never_a_bid_it_cannot_pay():
    state = position(3, phase="choose_pile", money={0: 10, 1: 4, 2: 10}, face_up=["tower-1a", "cathedral-9a"])
    play(state, UP, bid(1))
    cheap, dear, drop = state.clone(), state.clone(), state.clone()
    play(cheap, bid(2))
    play(dear, bid(20))
    play(drop, PASS)
    assert evaluate(cheap, 1) > evaluate(drop, 1) > evaluate(dear, 1)


def test_evaluate_counts_a_built_card_above_a_card_in_hand():
    state = position(3, hands={0: ["town-hall-5a"]}, cities={0: ["gate-2a", "cathedral-4a", "gate-3a"]})
    built = state.clone()
    play(built, {"type": "build", "card": "town-hall-5a", "end": "left"})
    assert evaluate(built, 0) > evaluate(state, 0)


def test_a_greedy_player_beats_random_ones():
    wins = 0
    for seed in range(3):
        state = GAME.setup(3, {}, seed)
        rng = random.Random(seed)
        while state.to_act():
            seat = state.to_act()[0]
            moves = state.legal_moves(seat)
            if seat == 0:
                world = state.determinize(0, rng)

                def worth(move, world=world):
                    copy = world.clone()
                    copy.apply_listed(0, move)
                    return evaluate(copy, 0)

                state.apply(0, max(moves, key=worth))
            else:
                state.apply(seat, rng.choice(moves))
        wins += state.result().ranks[0] == 1
    assert wins == 3
