"""The conformance suite: every registered game, every published rules version, every seat count,
every option value.

Random playouts check the protocol along the way (see engines/core/conformance.py: the
listings and events at every step, the rest at step 0, at random probes and at the end):
listed moves apply, unlisted ones are refused with a code and change nothing (every refusal an
IllegalMove; a move of the wrong shape an InvalidMove with the same code in every game), views
of seats that do not exist are refused, games end,
states survive to_dict/from_dict, replays are identical, listings stay under 1,000 moves,
views are JSON, match the game's schemas, and never depend on what the seat cannot see.

An older published version is played in full as the newest is: a live or archived game goes
on under it (engines/registry.py). A version for tests only (registry.TEST_ONLY) is played at
its two smallest seat counts, every option: it changes one decision of rules played in full here.
"""

from __future__ import annotations

import functools

import jsonschema_rs
import pytest

from engines import registry
from engines.core import Game, IllegalMove, InvalidMove, NotYourTurn, State, UnknownSeat
from engines.core.conformance import random_playout
from engines.core.shapes import structural
from engines.registry import GAMES

# Checked playouts per (game, seats, options) case: CHECKED_SEEDS for a (game, seats)'s first
# option set, one for each of its other option sets (an option changes which rules run, and one
# checked game under it runs them; more deals are the extra seeds' part). Lightly-probed extra
# seeds per (game, seats) so that many deals are played without slowing the suite.
CHECKED_SEEDS = 2
EXTRA_SEEDS = 12


def _played_versions() -> list[tuple[Game[State], range]]:
    """Each version played, with the seat counts it is played at."""
    published = [(game, game.seat_counts()) for game in registry.every_version()]
    test_only = [(game, range(game.min_seats, game.min_seats + 2)) for game in registry.TEST_ONLY]
    return published + test_only


def _label(game: Game[State]) -> str:
    """The title, and the rules version when it is not the newest (the cases' ids stay put)."""
    return game.id if GAMES[game.id] is game else f"{game.id}@v{game.rules_version}"


def _cases():
    for game, seat_counts in _played_versions():
        for seats in seat_counts:
            for index, options in enumerate(game.option_combinations(seats)):
                label = ",".join(f"{k}={v}" for k, v in sorted(options.items())) or "defaults"
                seeds = CHECKED_SEEDS if index == 0 else 1
                yield pytest.param(game, seats, options, seeds, id=f"{_label(game)}-{seats}p-{label}")


@functools.cache
def _validators(game: Game[State]):
    moves = jsonschema_rs.validator_for(game.move_schema)
    view = jsonschema_rs.validator_for(game.view_schema)
    shape = jsonschema_rs.validator_for(game.move_shape_schema)
    return moves.validate, view.validate, shape.validate


@pytest.mark.parametrize(("game", "seats", "options", "seeds"), list(_cases()))
def test_random_playouts_follow_the_protocol(game, seats, options, seeds):
    validate_move, validate_view, validate_shape = _validators(game)
    for seed in range(seeds):
        playout = random_playout(
            game,
            seats,
            options,
            seed,
            validate_move=validate_move,
            validate_view=validate_view,
            validate_shape=validate_shape,
        )
        assert playout.final is not None and playout.final.result() is not None
        assert playout.final.to_dict()["rules_version"] == game.rules_version


@pytest.mark.parametrize(
    ("game", "seats"),
    [
        pytest.param(game, n, id=f"{_label(game)}-{n}p")
        for game, seat_counts in _played_versions()
        for n in seat_counts
    ],
)
def test_many_seeds_end_and_replay(game, seats):
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
    jsonschema_rs.validator_for(game.move_shape_schema)
    jsonschema_rs.validator_for(game.view_schema)
    assert game.state_class.move_types, "a game lists its move types"


# ---- protocol points every title shares (issue 18) ------------------------------------------
def test_every_refusal_of_a_move_is_an_IllegalMove():
    """One family: a client or bot catching IllegalMove catches every refusal of a move."""
    assert issubclass(InvalidMove, IllegalMove)
    assert issubclass(NotYourTurn, IllegalMove) and issubclass(UnknownSeat, IllegalMove)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_malformed_moves_get_the_same_codes_in_every_title(game_id):
    game = GAMES[game_id]
    state = game.setup(game.min_seats, None, seed=1)
    seat = state.to_act()[0]
    listed = state.legal_moves(seat)[0]
    cases = [
        ("not a move", "malformed_move"),
        ({"type": 7}, "malformed_move"),
        ({}, "malformed_move"),
        ({"type": "no_such_move"}, "unknown_move_type"),
        ({**listed, "unexpected": 1}, "malformed_move"),
    ]
    for key in listed:
        if key != "type":
            cases.append(({k: v for k, v in listed.items() if k != key}, "malformed_move"))
            wrong_kind = [1] if not isinstance(listed[key], list) else "x"
            cases.append(({**listed, key: wrong_kind}, "malformed_move"))
    before = state.to_dict()
    for bad, code in cases:
        with pytest.raises(InvalidMove) as refused:
            state.apply(seat, bad)
        assert refused.value.code == code, bad
        assert refused.value.message
    assert state.to_dict() == before


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_view_of_a_seat_that_does_not_exist_raises(game_id):
    game = GAMES[game_id]
    state = game.setup(game.min_seats, None, seed=1)
    assert isinstance(state.view(None), dict)
    for viewer in (state.seats, 5, -1, "x", True, 0.0):
        with pytest.raises(UnknownSeat) as refused:
            state.view(viewer)
        assert refused.value.code == "unknown_seat"
    with pytest.raises(UnknownSeat):
        state.apply(state.seats, state.legal_moves(state.to_act()[0])[0])


def test_structural_schema_keeps_kinds_and_drops_ranges():
    schema = {
        "oneOf": [
            {
                "type": "object",
                "properties": {
                    "type": {"const": "take"},
                    "avenue": {"type": "integer", "minimum": 1, "maximum": 7},
                    "colour": {"enum": ["red", "blue"]},
                    "card": {"type": "string", "pattern": "^red-"},
                },
                "required": ["type", "avenue"],
                "additionalProperties": False,
            }
        ]
    }
    shape = structural(schema)["oneOf"][0]
    assert shape["properties"] == {
        "type": {"const": "take"},
        "avenue": {"type": "integer"},
        "colour": {"type": "string"},
        "card": {"type": "string"},
    }
    assert shape["required"] == ["type", "avenue"] and shape["additionalProperties"] is False


def test_an_every_seat_evaluation_that_differs_from_evaluate_is_caught():
    """New York City evaluates every seat at once for its bots (Game.evaluate_seats); the
    suite compares it with evaluate seat by seat, so a shortcut that drifts cannot pass."""
    from dataclasses import replace

    from engines.core.conformance import ConformanceError

    game = GAMES["new-york-city"]
    assert game.evaluate_seats is not None
    random_playout(game, 2, {}, 0)  # the real one passes

    def drifting(state):
        return [value + 0.001 * seat for seat, value in enumerate(game.evaluate_seats(state))]

    with pytest.raises(ConformanceError, match="evaluate_seats gave"):
        random_playout(replace(game, evaluate_seats=drifting), 2, {}, 0)
