"""The conformance suite: every registered game, every seat count, every option value.

Random playouts check the protocol at every step (see engines/core/conformance.py):
listed moves apply, unlisted ones are refused with a code and change nothing, games end,
states survive to_dict/from_dict, replays are identical, listings stay under 1,000 moves,
views are JSON, match the game's schemas, and never depend on what the seat cannot see.
"""

from __future__ import annotations

import functools

import jsonschema_rs
import pytest

from engines.core.conformance import random_playout
from engines.registry import GAMES

# Checked playouts per (game, seats, options) case, and lightly-probed extra seeds per
# (game, seats) so that many deals are played without slowing the suite.
CHECKED_SEEDS = 2
EXTRA_SEEDS = 12


def _cases():
    for game in GAMES.values():
        for seats in game.seat_counts():
            for options in game.option_combinations(seats):
                label = ",".join(f"{k}={v}" for k, v in sorted(options.items())) or "defaults"
                yield pytest.param(game.id, seats, options, id=f"{game.id}-{seats}p-{label}")


@functools.cache
def _validators(game_id: str):
    game = GAMES[game_id]
    moves = jsonschema_rs.validator_for(game.move_schema)
    view = jsonschema_rs.validator_for(game.view_schema)
    return moves.validate, view.validate


@pytest.mark.parametrize(("game_id", "seats", "options"), list(_cases()))
def test_random_playouts_follow_the_protocol(game_id, seats, options):
    game = GAMES[game_id]
    validate_move, validate_view = _validators(game_id)
    for seed in range(CHECKED_SEEDS):
        playout = random_playout(
            game, seats, options, seed, validate_move=validate_move, validate_view=validate_view
        )
        assert playout.final is not None and playout.final.result() is not None


@pytest.mark.parametrize(
    ("game_id", "seats"),
    [pytest.param(g.id, n, id=f"{g.id}-{n}p") for g in GAMES.values() for n in g.seat_counts()],
)
def test_many_seeds_end_and_replay(game_id, seats):
    game = GAMES[game_id]
    options = game.option_combinations(seats)[0]
    saw_hidden = False
    for seed in range(100, 100 + EXTRA_SEEDS):
        playout = random_playout(game, seats, options, seed, probe_rate=0.02)
        saw_hidden = saw_hidden or playout.saw_hidden
    if game.state_class.hidden_information:
        assert saw_hidden, "determinize never re-dealt anything in a game that hides information"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_game_describes_itself(game_id):
    game = GAMES[game_id]
    entry = game.catalog_entry()
    assert entry["title"] == game_id and entry["name"]
    assert 1 <= game.min_seats <= game.max_seats
    jsonschema_rs.validator_for(game.options_schema)
    jsonschema_rs.validator_for(game.move_schema)
    jsonschema_rs.validator_for(game.view_schema)
    assert game.state_class.move_types, "a game lists its move types"
