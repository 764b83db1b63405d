"""Property's evaluate (what the greedy and ISMCTS bots judge positions by)."""

from __future__ import annotations

import random

from engines.bots import greedy_move
from engines.property import evaluate
from engines.property.evaluate import WILD_CARD_WORTH

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
