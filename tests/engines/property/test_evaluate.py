"""Property's evaluate (what the greedy and ISMCTS bots judge positions by)."""

from __future__ import annotations

import random

import pytest

from engines.bots import greedy_move
from engines.property import GAME, evaluate
from engines.property import material as m
from engines.property.evaluate import WILD_CARD_WORTH, group_sizes

from .test_rules import play, position


def test_a_wild_card_kept_in_hand_is_worth_more_than_a_number_card():
    """Claiming ♥3 ♣5's square with the ♥3 keeps the ♥9, which could have gone anywhere in
    row 5: the two plays differ only by the card kept, and so by ``WILD_CARD_WORTH``."""
    state = position(hands={0: ["3H", "9H", "5C"], 1: ["2D", "4S"]})
    with_number, with_wild = state.clone(), state.clone()
    with_number.apply(0, play("3H", "5C", 3, 5))
    with_wild.apply(0, play("9H", "5C", 3, 5))
    assert evaluate(with_number, 0) - evaluate(with_wild, 0) == WILD_CARD_WORTH


def test_the_greedy_bot_claims_with_number_cards_and_keeps_its_wild_ones():
    """On an empty grid every claim is worth the same: only the card kept tells them apart."""
    state = position(hands={0: ["3H", "9H", "5C"], 1: ["2D", "4S"]})
    for seed in range(10):
        move = greedy_move(state, 0, random.Random(seed), samples=3)
        assert (move["red"], move["black"], move["column"], move["row"]) == ("3H", "5C", 3, 5)


@pytest.mark.parametrize("seed", range(5))
def test_group_sizes_agree_with_the_groups_of_rule_P_GROUP(seed):
    state = GAME.setup(3, {}, seed)
    rng = random.Random(seed)
    while not state.is_over() and state.turn < 40:
        seat = state.to_act()[0]
        moves = state.legal_moves(seat)
        state.apply(seat, moves[rng.randrange(len(moves))])
    for seat in range(3):
        groups = {
            frozenset(state.group(column, row))
            for row in range(1, m.GRID_SIZE + 1)
            for column in range(1, m.GRID_SIZE + 1)
            if (square := state.grid[row - 1][column - 1]) is not None and square["owner"] == seat
        }
        assert sorted(group_sizes(state, seat)) == sorted(len(g) for g in groups)
