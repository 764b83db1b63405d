"""evaluate(state, seat): the greedy bot's view of a position."""

from __future__ import annotations

import random

from engines.wettstreit import GAME
from engines.wettstreit import material as m
from engines.wettstreit.evaluate import evaluate, evaluate_seats, evaluate_seats_sharp, layable

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


def _worth_of_more(cards_in_smaller_pile: int, **more: dict[int, int]) -> float:
    """What ``more`` (money or saboteurs of seat 0) adds to seat 0's evaluation, with this
    many cards in the smaller pile."""
    deck = list(m.DECK)
    piles = {"face_down": deck[:cards_in_smaller_pile], "face_up": deck[cards_in_smaller_pile:]}
    ((what, amounts),) = more.items()
    before = position(3, **{what: {0: 0}}, **piles)
    after = position(3, **{what: amounts}, **piles)
    return evaluate(after, 0) - evaluate(before, 0)


def test_WB_SCORE_NOTHING_ELSE_money_is_worth_less_as_the_end_nears():
    # Money counts nothing at the end, and the game may end once the smaller pile is
    # auctioned out: écus fade over its last cards, so a bot spends rather than hoards.
    plenty, few, none = (_worth_of_more(cards, money={0: 10}) for cards in (15, 3, 0))
    assert plenty > few > none == 0


def test_WB_SCORE_NOTHING_ELSE_saboteurs_are_worth_less_as_the_end_nears():
    plenty, few = (_worth_of_more(cards, saboteurs={0: 1}) for cards in (15, 2))
    assert plenty > few > 0


def test_a_card_set_out_in_the_final_round_counts_as_built():
    # WB-BUILD-STEPS: cards set out are committed with the third card or end_turn; the
    # evaluation counts them built, so a bot sees the worth of each card it lays.
    state = position(
        3,
        phase="final_build",
        hands={0: ["right-corner-1a", "town-hall-5a"]},
        cities={0: ["left-corner-1a", "gate-2a", "cathedral-4a", "gate-3a"]},
    )
    state.end_triggered, state.final_queue = True, [0, 1, 2]
    laid = state.clone()
    play(laid, {"type": "build", "card": "town-hall-5a", "end": "right"})
    assert laid.pending and evaluate(laid, 0) > evaluate(state, 0)


# The sharper evaluation hard judges with (evaluate_seats_sharp): what of a hand can be laid.


def test_WB_BUILD_NEIGHBOURS_a_hand_of_one_family_can_be_laid_only_between_others():
    laid, stuck = layable([], ["gate-2a", "gate-4a", "gate-5a", "tower-1a"])
    # gate, tower, gate: the third gate has no neighbour of another family left.
    assert sorted(laid) == ["gate-4a", "gate-5a", "tower-1a"] and stuck == ["gate-2a"]


def test_WB_BUILD_NEIGHBOURS_cards_of_other_families_let_a_whole_hand_be_laid():
    hand = ["gate-4a", "gate-5a", "cathedral-9a", "tower-1a", "town-hall-5a"]
    laid, stuck = layable(["gate-3a"], hand)
    assert sorted(laid) == sorted(hand) and stuck == []


def test_WB_BUILD_TOWN_HALL_a_second_town_hall_is_stuck_in_hand():
    laid, stuck = layable(["gate-2a", "town-hall-5a", "cathedral-4a"], ["town-hall-6a", "tower-2a"])
    assert laid == ["tower-2a"] and stuck == ["town-hall-6a"]


def test_WB_BUILD_CORNER_an_end_closed_by_a_corner_tower_takes_nothing_more():
    city = ["left-corner-1a", "gate-2a", "right-corner-2a"]
    laid, stuck = layable(city, ["cathedral-4a"])
    assert laid == [] and stuck == ["cathedral-4a"]


def test_WB_SCORE_HAND_hard_counts_a_card_that_cannot_be_laid_against_the_hand():
    # Buying a fourth gate for a hand of gates costs hard's judge, not medium's: the card
    # would be deducted at the end (WB-SCORE-HAND).
    city = ["gate-2a"]
    hand = ["gate-3a", "gate-4a"]
    without = position(3, hands={0: hand}, cities={0: city})
    with_gate = position(3, hands={0: [*hand, "gate-5a"]}, cities={0: city})
    with_cathedral = position(3, hands={0: [*hand, "cathedral-5a"]}, cities={0: city})
    assert evaluate(with_gate, 0) > evaluate(without, 0)
    assert evaluate_seats_sharp(with_gate)[0] < evaluate_seats_sharp(without)[0]
    assert evaluate_seats_sharp(with_cathedral)[0] > evaluate_seats_sharp(without)[0]


def test_the_sharper_evaluation_is_evaluate_where_every_card_can_be_laid():
    state = position(3, hands={0: ["cathedral-4a", "tower-2a"]}, cities={0: ["gate-2a"]})
    assert evaluate_seats_sharp(state) == evaluate_seats(state)
