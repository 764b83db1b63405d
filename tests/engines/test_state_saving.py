"""State.to_dict: a copy by default; without one only for a caller that serializes at once."""

from __future__ import annotations

import random

import orjson
import pytest

from engines import registry


@pytest.mark.parametrize("title", sorted(registry.GAMES))
def test_the_shared_saved_form_serializes_as_the_copy_does(title):
    game = registry.get(title)
    seats = max(3, game.min_seats)
    state = game.setup(seats, game.normalize_options(seats, {}), 4)
    rng = random.Random(4)
    for _ in range(25):
        if state.is_over():
            break
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_moves(seat)))
    copied, shared = state.to_dict(), state.to_dict(copy=False)
    assert orjson.dumps(copied) == orjson.dumps(shared)
    assert shared["state"] is state.__dict__
    assert copied["state"] is not state.__dict__ and copied["state"] == state.__dict__
    assert game.restore(orjson.loads(orjson.dumps(shared))) == state
