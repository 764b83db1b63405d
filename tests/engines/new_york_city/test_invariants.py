"""Invariants over whole random games: material is conserved, limits hold, games end."""

from __future__ import annotations

import random

import pytest

from engines.new_york_city import GAME
from engines.new_york_city import board as b
from engines.new_york_city import cards as c
from engines.new_york_city.evaluate import evaluate

from .helpers import ALL_COPIES, card_census, character_census

CASES = [
    (1, {"toms": 1, "tom_level": 12}),
    (1, {"toms": 3, "tom_level": 3}),
    (2, {}),
    (2, {"toms": 2, "tom_level": 8}),
    (3, {"toms": 1, "tom_level": 10}),
    (4, {}),
]


def check(state) -> None:
    assert card_census(state) == {s: c.COPIES_PER_SYMBOL for s in c.SYMBOLS}, "105 cards"
    dollars = state.supply_dollars + sum(p["dollars"] + p["on_characters"] for p in state.players)
    assert dollars == b.DOLLARS_IN_BOX and state.supply_dollars >= 0
    for p, player in enumerate(state.players):
        built = sum(district[p] for district in state.towers)
        assert player["supply"] + player["board"] + built == b.TOWERS_PER_COLOUR
        assert min(player["supply"], player["board"], player["dollars"]) >= 0
        if player["tom"]:
            assert max(district[p] for district in state.towers) <= b.TOM_TOWER_CAP
            assert player["board"] == 0 and player["hand"] == []
        elif state.stage != "over":
            assert len(player["reserve"]) + len(player["shown"]) <= player["reserve_size"]
    assert sum(state.black) + state.black_removed == 12
    assert character_census(state) == ALL_COPIES, "76 character tiles"
    tiles = (
        state.prestige_stack + state.prestige_open + state.prestige_box + [t for d in state.tiles for t in d]
    )
    assert sorted(tiles) == list(range(10))
    vehicles = [b.CONNECTION_VEHICLE[k] for k in state.connections] + [
        v for p in state.players for v in p["vehicles"]
    ]
    assert sorted(vehicles) == sorted(list(b.VEHICLES) * 2)
    spaces = [space for _, space in state.press]
    assert spaces == sorted(spaces, reverse=True) and all(0 <= s <= b.PRESS_LAST for s in spaces)
    assert sum(1 for who, _ in state.press if who == b.BLACK) == 1


@pytest.mark.parametrize(("seats", "options"), CASES)
def test_invariants_material_is_conserved_over_random_games(seats, options):
    for seed in range(3):
        state = GAME.setup(seats, options, seed)
        rng = random.Random(seed)
        black_space = next(space for who, space in state.press if who == b.BLACK)
        scores = [0] * len(state.players)
        longest = 0
        while state.to_act():
            check(state)
            seat = state.to_act()[0]
            moves = state.legal_moves(seat)
            longest = max(longest, len(moves))
            state.apply(seat, rng.choice(moves))
            assert all(p["score"] >= s for p, s in zip(state.players, scores, strict=True)), "no points lost"
            scores = [p["score"] for p in state.players]
            assert next(space for who, space in state.press if who == b.BLACK) == black_space
        check(state)
        assert state.round == 5 and state.stage == "over"
        assert longest <= 1000
        result = state.result().to_dict()
        everyone = result["ranks"] + [a["rank"] for a in result.get("automata", [])]
        assert sorted(everyone) == list(range(1, len(state.players) + 1)), "the press track breaks every tie"
        for p in range(seats):
            assert isinstance(evaluate(state, p), float | int)


def test_invariants_evaluate_prefers_a_better_position():
    state = GAME.setup(2, {}, 5)
    before = evaluate(state, 0)
    state.players[0]["score"] += 10
    assert evaluate(state, 0) == before + 10
