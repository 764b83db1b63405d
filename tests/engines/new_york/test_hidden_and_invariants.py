"""NY-HIDDEN (what each seat sees, what determinize re-deals) and invariants over whole games."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engines.core import RulesError
from engines.core.conformance import illegal_candidates
from engines.new_york import GAME
from engines.new_york import material as m
from engines.new_york.hands import red_blue

from .helpers import all_cards, expected_cards, position

CASES = [
    (2, {"two_colours": True, "events": True}),
    (3, {}),
    (3, {"events": True, "chosen_colours": True}),
    (4, {"teams": True, "events": True}),
    (4, {"chosen_colours": True}),
    (5, {"events": True}),
]


def random_game(seats, options, seed, on_step=None):
    state = GAME.setup(seats, options, seed)
    rng = random.Random(seed)
    while not state.is_over():
        seat = state.to_act()[0]
        move = rng.choice(state.legal_moves(seat))
        state.apply(seat, move)
        if on_step is not None:
            on_step(state, rng)
    return state


# ---- NY-HIDDEN: views ----------------------------------------------------------------------------
def test_NY_HIDDEN_hands_are_seen_by_their_owner_only():
    state = GAME.setup(4, {}, seed=9)
    while state.phase != "play":
        seat = state.to_act()[0]
        state.apply(seat, state.legal_moves(seat)[0])
    for viewer in [None, 0, 1, 2, 3]:
        view = state.view(viewer)
        for shown in view["players"]:
            assert ("hand" in shown) == (shown["seat"] == viewer)
            assert shown["hand_size"] == len(state.hands[shown["seat"]])
        text = repr(view)
        assert "'stock'" not in text and "rng" not in text and view["stock_size"] == len(state.stock)


def test_NY_HIDDEN_an_offered_card_is_seen_by_the_partners_only():
    state = position(4, options={"teams": True}, hands={0: ["red-joker", "blue-5"], 2: ["blue-1"]})
    events = state.apply(0, {"type": "offer", "card": "red-joker"})
    assert "card" not in events[0] and events[0]["secret"] == {"to": [0, 2], "fields": {"card": "red-joker"}}
    assert [("card" in state.view(v)["offer"]) for v in (None, 0, 1, 2, 3)] == [
        False,
        True,
        False,
        True,
        False,
    ]


def test_NY_HIDDEN_determinize_redeals_what_the_seat_cannot_know():
    state = position(
        4,
        options={"teams": True},
        hands={
            0: ["red-1", "red-2", "blue-1", "blue-2"],
            1: ["red-3", "red-4", "blue-3", "blue-4"],
            2: ["red-5", "red-6", "blue-5", "blue-6", "red-joker"],
            3: ["red-7", "red-7", "blue-7", "blue-7"],
        },
    )
    state.min_red_blue = [[2, 2]] * 4
    state.apply(0, {"type": "offer", "card": "red-1"})
    state.apply(2, {"type": "swap", "card": "red-joker"})
    changed = False
    for seed in range(20):
        other = state.determinize(0, random.Random(seed))
        assert other.hands[0] == state.hands[0], "its own hand is its own"
        assert [len(h) for h in other.hands] == [len(h) for h in state.hands]
        assert "red-1" in other.hands[2], "the card it gave its partner stays there"
        for seat in (1, 2, 3):
            reds, blues = red_blue(other.hands[seat])
            need = state.min_red_blue[seat]
            assert reds >= need[0] and blues >= need[1]
        assert Counter(other.stock) + sum((Counter(h) for h in other.hands), Counter()) == Counter(
            state.stock
        ) + sum((Counter(h) for h in state.hands), Counter())
        assert other.view(0) == state.view(0)
        changed = changed or other.hands[1] != state.hands[1] or other.stock != state.stock
    assert changed


def test_NY_HIDDEN_stop_cards_in_the_stock_stay_in_the_stock():
    state = position(hands={0: ["red-1", "blue-1"], 1: ["red-2", "blue-2"]})
    state.stock = state.stock[:10] + [m.STOP] + state.stock[10:20] + [m.STOP] + state.stock[20:]
    state.stops_added = True
    for seed in range(10):
        other = state.determinize(1, random.Random(seed))
        assert other.stock.count(m.STOP) == 2 and all(m.STOP not in h for h in other.hands)
        assert len(other.stock) == len(state.stock)


def test_NY_HIDDEN_cards_drawn_after_a_reshuffle_come_from_the_seen_discards():
    for seed in range(40):
        state = GAME.setup(3, {}, seed)
        rng = random.Random(seed)
        while not state.is_over() and not (state.stock_epoch and any(0 in e for e in state.hand_epochs[1:])):
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_moves(seat)))
        if state.is_over():
            continue
        other = state.determinize(0, random.Random(seed))
        for seat in (1, 2):
            assert sorted(other.hand_epochs[seat]) == sorted(state.hand_epochs[seat])
            for epoch in set(state.hand_epochs[seat]) - {state.stock_epoch}:
                old = [
                    c for c, e in zip(state.hands[seat], state.hand_epochs[seat], strict=True) if e == epoch
                ]
                pool = Counter(
                    c
                    for s in (1, 2)
                    for c, e in zip(state.hands[s], state.hand_epochs[s], strict=True)
                    if e == epoch
                )
                new = [
                    c for c, e in zip(other.hands[seat], other.hand_epochs[seat], strict=True) if e == epoch
                ]
                assert len(new) == len(old) and not Counter(new) - pool
        return
    pytest.fail("no position with cards from an older stock was reached")


def _hidden_team_position():
    """Seat 0's view of a team game after a reshuffle: two states it cannot tell apart.

    Seat 0 gave its partner (seat 2) the red joker; seats 1 and 3 have exchanged a card, and
    seat 1 now offers seat 3 another; two Stop cards lie in the stock. The second state holds
    other cards in the hands of seats 1 and 3 (each from the same stock as in the first), its
    own order in seat 2's hand, other cards in the stock (in another order), another card on
    offer and other knowledge between seats 1 and 3.
    """
    hands = {
        0: ["red-1", "red-2", "blue-1", "blue-2"],
        1: ["red-3", "red-4", "blue-3", "blue-4", "red-5"],
        2: ["red-6", "blue-5", "red-joker", "blue-6"],
        3: ["red-7", "blue-7", "blue-7", "red-6"],
    }
    truth = position(4, options={"teams": True}, current=1, hands=hands)
    truth.stock_epoch = 1
    truth.hand_epochs = [[1, 1, 1, 1], [0, 0, 1, 1, 1], [0, 0, 1, 1], [0, 1, 1, 1]]
    truth.discard = truth.stock[:30]
    truth.stock = truth.stock[30:]
    truth.stock[3:3] = [m.STOP]
    truth.stock[9:9] = [m.STOP]
    truth.stops_added = True
    truth.min_red_blue = [[2, 2], [2, 2], [2, 2], [1, 2]]
    truth.known = [{}, {"3": ["blue-4"]}, {"0": ["red-joker"]}, {"1": ["red-6"]}]
    truth.exchange_received = [0, 1, 1, 1]
    truth.exchanged = False
    truth.offer = {"card": "red-4"}
    truth.phase = "exchange"

    twin = truth.clone()
    # Epoch 0: red-3 (seat 1) and red-7 (seat 3) change places.
    twin.hands[1] = ["red-7", "red-4", "blue-3", "blue-4", "red-5"]
    twin.hands[3] = ["red-3", "blue-7", "blue-7", "red-6"]
    # Epoch 1: blue-4 (seat 1) goes to the stock for one of its blue cards.
    swapped = next(c for c in twin.stock if c.startswith("blue-") and c != "blue-4")
    twin.hands[1][3] = swapped
    twin.stock[twin.stock.index(swapped)] = "blue-4"
    twin.stock.reverse()
    twin.hands[2] = ["blue-6", "red-joker", "red-6", "blue-5"]
    twin.hand_epochs[2] = [1, 1, 0, 0]
    twin.known = [{}, {}, {"0": ["red-joker"]}, {"1": ["blue-7"]}]
    twin.offer = {"card": "red-5"}
    return truth, twin


def test_NY_HIDDEN_determinize_depends_only_on_what_the_seat_knows():
    truth, twin = _hidden_team_position()
    assert twin.view(0) == truth.view(0), "seat 0 cannot tell the two states apart"
    assert twin != truth
    for seed in range(30):
        sample = truth.determinize(0, random.Random(seed))
        assert sample == twin.determinize(0, random.Random(seed)), "a trace of the truth"
        assert sample == sample.determinize(0, random.Random(seed)), "a trace of the sample"
        assert sample.view(0) == truth.view(0)
        assert "red-joker" in sample.hands[2], "the card it gave its partner stays there"
        for seat in (1, 2, 3):
            have, need = red_blue(sample.hands[seat]), truth.min_red_blue[seat]
            assert have[0] >= need[0] and have[1] >= need[1]
        assert sample.offer["card"] in sample.hands[1]
        known = sample.known[3].get("1", [])
        assert len(known) == 1 and not Counter(known) - Counter(sample.hands[3])
        assert sample.stock.count(m.STOP) == 2 and len(sample.stock) == len(truth.stock)


def test_NY_HIDDEN_the_fallback_deal_depends_only_on_what_the_seat_knows(monkeypatch):
    """When swapping cannot restore every hand's known minimum, the colour-pattern deal does."""
    from engines.new_york import hidden

    monkeypatch.setattr(hidden, "_repair", lambda *args: False)
    truth, twin = _hidden_team_position()
    for seed in range(30):
        sample = truth.determinize(0, random.Random(seed))
        assert sample == twin.determinize(0, random.Random(seed))
        for seat in (1, 2, 3):
            have, need = red_blue(sample.hands[seat]), truth.min_red_blue[seat]
            assert have[0] >= need[0] and have[1] >= need[1]
        for seat in (1, 2, 3):
            for epoch in (0, 1):
                held = [
                    c for c, e in zip(sample.hands[seat], sample.hand_epochs[seat], strict=True) if e == epoch
                ]
                assert len(held) == truth.hand_epochs[seat].count(epoch)
        old = Counter(
            c
            for seat in (1, 2, 3)
            for c, e in zip(sample.hands[seat], sample.hand_epochs[seat], strict=True)
            if e == 0
        )
        assert old == Counter(
            c
            for seat in (1, 2, 3)
            for c, e in zip(truth.hands[seat], truth.hand_epochs[seat], strict=True)
            if e == 0
        ), "cards from before the reshuffle stay in the hands"


# ---- invariants over whole games ---------------------------------------------------------------
@pytest.mark.parametrize(("seats", "options"), CASES)
def test_cards_money_and_pieces_are_conserved_in_every_game(seats, options):
    def check(state, rng):
        assert all_cards(state) == expected_cards(state)
        assert sum(state.money) == total_money and min(state.money) >= 0
        for c in range(state.colours):
            assert state.on_board[c] + state.supply[c] == state.pieces_per_colour
            assert state.supply[c] >= 0
            on_board = sum(row.count(c) for row in state.board)
            assert on_board == state.on_board[c]
            assert [row.count(c) for row in state.board] == state.avenue_counts[c]
        for seat, hand in enumerate(state.hands):
            assert m.STOP not in hand and len(hand) == len(state.hand_epochs[seat])
            have, need = red_blue(hand), state.min_red_blue[seat]
            assert have[0] >= need[0] and have[1] >= need[1], "what the table knows is true"

    for seed in range(3):
        total_money = sum(GAME.setup(seats, options, seed).money)
        state = random_game(seats, options, seed, check)
        result = state.result()
        assert result is not None and state.stop_drawn_by is not None
        assert state.unowned() <= m.STOP_WHEN_UNOWNED or state.stops_added


@pytest.mark.parametrize(("seats", "options"), CASES)
def test_unlisted_moves_get_a_rule_code_never_a_crash(seats, options):
    state = GAME.setup(seats, options, 7)
    rng = random.Random(7)
    seen = Counter()
    while not state.is_over():
        seat = state.to_act()[0]
        for bad in illegal_candidates(state, seat, rng, limit=6):
            with pytest.raises(RulesError) as error:
                state.apply(seat, bad)
            seen[error.value.code] += 1
        state.apply(seat, rng.choice(state.legal_moves(seat)))
    assert "move_not_available" not in seen and "illegal_move" not in seen


@pytest.mark.parametrize(("seats", "options"), [CASES[0], CASES[3], CASES[5]])
def test_greedy_play_ends_and_scores(seats, options):
    """The evaluation drives a one-ply bot through a whole game (it sees through two-step plays)."""
    state = GAME.setup(seats, options, 11)
    rng = random.Random(11)
    steps = 0
    while not state.is_over():
        seat = state.to_act()[0]
        moves = state.legal_moves(seat)
        if len(moves) > 40:
            move = rng.choice(moves)
        else:
            scored = []
            for move in moves:
                after = state.clone()
                after.apply_listed(seat, move)
                scored.append(GAME.evaluate(after, seat))
            move = moves[scored.index(max(scored))]
        state.apply(seat, move)
        steps += 1
    assert state.result() is not None and steps < GAME.max_moves
