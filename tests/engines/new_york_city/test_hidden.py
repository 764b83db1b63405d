"""Hidden information, determinize and chance (NYC-HIDDEN, NYC-CHANCE)."""

from __future__ import annotations

import random

from engines.core.events import redact
from engines.new_york_city import GAME
from engines.new_york_city import board as b
from engines.new_york_city import cards as c

from .helpers import clear_phase1, new_game, set_cards, set_press, start_bidding


def test_NYC_HIDDEN_hands_and_reserves_only_to_their_owner():
    state = new_game(3, seed=2)
    for viewer in (None, 0, 1, 2):
        view = state.view(viewer)
        for p, player in enumerate(view["players"]):
            assert ("hand" in player) == (viewer == p) and ("reserve" in player) == (viewer == p)
            assert player["hand_size"] == len(state.players[p]["hand"])
            assert player["reserve_count"] == 2


def test_NYC_HIDDEN_draws_are_secret_to_the_drawer():
    state = new_game(2, seed=2)
    ev = []
    state._draw_into(0, "hand", 2, ev, "test")
    drawn = ev[-1]
    assert (
        redact(drawn, 0)["cards"] and "cards" not in redact(drawn, 1) and "cards" not in redact(drawn, None)
    )
    assert redact(drawn, 1)["count"] == 2


def test_NYC_HIDDEN_the_table_knows_the_pairs_taken():
    state = new_game(2, seed=8)
    seat = state.actor
    pair = list(state.pairs[0])
    state.apply(seat, {"type": "take_pair", "pair": 0})
    known = state.view(1 - seat)["players"][seat]["known_cards"]
    assert c.sort_cards(pair) == known


def test_NYC_HIDDEN_tom_s_cards_lie_open():
    state = new_game(1, seed=3, tom_level=1)
    while state.stage == "pick":
        moves = state.legal_moves(0)
        state.apply(0, next(m for m in moves if m["type"] in ("take_pair", "done")))
    tom = state.view(None)["players"][1]
    assert tom["cards"] == c.sort_cards(state.players[1]["reserve"]) and tom["cards"]


def test_NYC_HIDDEN_determinize_redeals_unknown_cards_keeps_known_ones():
    state = new_game(2, seed=8)
    seat = state.actor
    other = 1 - seat
    state.apply(seat, {"type": "take_pair", "pair": 0})
    truth = state.players[seat]
    hands = set()
    for i in range(30):
        copy = state.determinize(other, random.Random(i))
        assert copy.view(other) == state.view(other)
        hand = copy.players[seat]["hand"]
        known = [
            card for card, tag in zip(hand, copy.players[seat]["hand_tags"], strict=True) if tag == c.KNOWN
        ]
        assert c.sort_cards(known) == c.sort_cards(truth["hand"][-2:])
        assert copy.players[other]["hand"] == state.players[other]["hand"], "its own hand is kept"
        hands.add(tuple(c.sort_cards(hand)))
    assert len(hands) > 1


def test_NYC_HIDDEN_determinize_keeps_each_card_within_its_deck_epoch():
    state = new_game(2, seed=9)
    clear_phase1(state)
    p = 1
    # Seat 1 holds 3 cards from the first deck; the deck was then rebuilt from discards.
    state.players[p]["hand"] = ["joker", "joker", "joker"]
    state.players[p]["hand_tags"] = [0, 0, 0]
    state.players[p]["reserve"], state.players[p]["reserve_tags"] = [], []
    state.players[p]["reserve_size"] = 0
    state.deck = ["press"] * 10
    state.epoch = 1
    for i in range(10):
        copy = state.determinize(0, random.Random(i))
        assert copy.players[p]["hand"] == ["joker"] * 3
        assert copy.deck == ["press"] * 10


def test_NYC_HIDDEN_hand_or_reserve_unsure_only_after_an_exchange():
    state = new_game(2, seed=10)
    clear_phase1(state)
    set_cards(state, 1, hand=["press", "press"], reserve=["joker", "joker"])
    state.players[1]["hand_tags"] = [c.KNOWN, c.KNOWN]
    for i in range(10):
        copy = state.determinize(0, random.Random(i))
        assert copy.players[1]["hand"] == ["press", "press"]
    state.players[1]["mixed"] = True
    seen = {tuple(state.determinize(0, random.Random(i)).players[1]["hand"]) for i in range(20)}
    assert ("press", "press") in seen and len(seen) > 1


def test_NYC_HIDDEN_a_bid_in_progress_is_not_redealt():
    state = new_game(2, seed=12)
    clear_phase1(state)
    set_press(state, (0, 3), (1, 1), (b.BLACK, 8))
    set_cards(state, 0, hand=["press", "press", "dollars"])
    start_bidding(state, "press")
    state.apply(0, {"type": "play", "card": "press"})
    copy = state.determinize(1, random.Random(3))
    assert copy.pending == state.pending and copy.view(1) == state.view(1)


def test_NYC_CHANCE_seed_options_and_moves_replay_exactly():
    one, two = GAME.setup(3, {}, "same seed"), GAME.setup(3, {}, "same seed")
    assert one == two
    rng = random.Random(4)
    for _ in range(200):
        if not one.to_act():
            break
        seat = one.to_act()[0]
        move = rng.choice(one.legal_moves(seat))
        one.apply(seat, move)
        two.apply(seat, move)
        assert one == two
    assert GAME.setup(3, {}, 1) != GAME.setup(3, {}, 2)
