"""The random bot sees only its seat: same choice on any state differing only in hidden facts."""

from __future__ import annotations

import random

import pytest

from engines.bots import random_move
from engines.core.conformance import random_playout
from engines.registry import GAMES


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_random_bot_choice_ignores_what_its_seat_cannot_see(game_id):
    game = GAMES[game_id]
    seats = game.min_seats if game.min_seats > 1 else 2
    options = game.option_combinations(seats)[0]
    playout = random_playout(game, seats, options, seed=3, check=False)
    state = game.setup(seats, options, 3)
    for seat, move in playout.moves[: len(playout.moves) // 2]:
        state.apply(seat, move)
    seat = state.to_act()[0]
    for trial in range(5):
        other = state.determinize(seat, random.Random(trial))
        assert random_move(state, seat, random.Random(42)) == random_move(other, seat, random.Random(42))
