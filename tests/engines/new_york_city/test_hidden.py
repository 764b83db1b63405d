"""Hidden information, determinize and chance (NYC-HIDDEN, NYC-CHANCE)."""

from __future__ import annotations

import random

from engines.core.events import redact
from engines.new_york_city import GAME
from engines.new_york_city import board as b
from engines.new_york_city import cards as c
from engines.new_york_city.bidding import new_pending

from .helpers import clear_phase1, give_characters, new_game, set_cards, set_press, start_bidding


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


def _same_sample(one, two, seat: int, salts=range(8)) -> None:
    """``one`` and ``two`` look the same to ``seat`` and determinize identically."""
    assert one.view(seat) == two.view(seat)
    for salt in salts:
        assert one.determinize(seat, random.Random(salt)) == two.determinize(seat, random.Random(salt))


def bidder(kind: str, hand, *numbers, reserve=None):
    """Seat 0 (press leader) to bid in ``kind`` with ``hand``, ``reserve`` and ``numbers``."""
    state = new_game(2, seed=12)
    clear_phase1(state)
    set_press(state, (0, 3), (1, 1), (b.BLACK, 8))
    set_cards(state, 0, hand=hand, reserve=reserve)
    give_characters(state, 0, *numbers)
    start_bidding(state, kind, starter=0)
    return state


def test_NYC_HIDDEN_determinize_depends_only_on_what_the_seat_knows():
    """Two states seat 0 cannot tell apart (other hidden cards, deck, prestige stack and
    character stacks in another order) give the same sample for the same rng."""
    state = new_game(3, seed=21)
    clear_phase1(state)
    set_cards(state, 1, hand=["press", "joker", "plans"], reserve=["dollars", "prestige"])
    set_cards(state, 2, hand=["skyscrapers"], reserve=["characters", "press"])
    state.players[1]["hand_tags"][1] = c.KNOWN  # the table saw its joker arrive
    state.players[2]["mixed"] = True  # it exchanged: hand or reserve is unsure
    twin = state.clone()
    p1, p2 = twin.players[1], twin.players[2]
    p1["hand"][0], p2["hand"][0] = p2["hand"][0], p1["hand"][0]  # unknown cards swapped
    p1["reserve"], p1["reserve_tags"] = ["dollars", "prestige"][::-1], [0, 0]
    p2["hand"], p2["reserve"] = [p2["reserve"][1]], [p2["reserve"][0], p2["hand"][0]]
    twin.deck.reverse()
    twin.prestige_stack.reverse()
    for stack in twin.stacks:
        stack.reverse()
    assert twin != state
    _same_sample(state, twin, 0)
    # And from any sample of the truth, as the conformance suite checks.
    for salt in range(5):
        _same_sample(state, state.determinize(0, random.Random(100 + salt)), 0)


def test_NYC_HIDDEN_a_bid_in_progress_goes_back_to_the_hand_for_the_others():
    state = bidder("press", ["press", "dollars", "dollars"])
    before = state.clone()
    state.apply(0, {"type": "play", "card": "press"})
    state.apply(0, {"type": "play_pair", "cards": ["dollars", "dollars"]})
    copy = state.determinize(1, random.Random(3))
    assert copy.pending == new_pending() and len(copy.players[0]["hand"]) == 3
    assert copy.view(1) == state.view(1)
    # The other seat cannot tell whether the bid was begun: same sample either way.
    _same_sample(state, before, 1)
    # The bidder itself keeps its bid.
    assert state.determinize(0, random.Random(3)).pending == state.pending


def test_NYC_HIDDEN_reserve_cards_played_with_15_stay_in_the_bid():
    """The table saw the reserve refilled: one reserve card per use of 15 stays in the bid,
    re-dealt; the hand card played with it goes back to the hand."""
    state = bidder("dollars", ["press", "joker"], 15, reserve=["press", "joker"])
    state.apply(0, {"type": "use", "character": 15, "card": "press"})
    assert len(state.pending["cards"]) == 2 and len(state.players[0]["reserve"]) == 2
    seen = set()
    for salt in range(30):
        copy = state.determinize(1, random.Random(salt))
        assert copy.view(1) == state.view(1)
        pending = copy.pending
        assert pending["uses"] == [15] and pending["value"] == 1 and len(pending["cards"]) == 1
        assert pending["elements"] == [{"kind": "res15", "cards": pending["cards"], "value": 1}]
        assert len(copy.players[0]["hand"]) == 2 and len(copy.players[0]["reserve"]) == 2
        seen.add(pending["cards"][0])
    assert len(seen) > 1, "the reserve card's symbol is re-dealt"
    _same_sample(state, state.determinize(1, random.Random(7)), 1)


def test_NYC_HIDDEN_cards_selected_for_character_1_are_forgotten_by_the_others():
    state = new_game(2, seed=5)
    seat = state.actor
    for player in state.players:
        player["characters"], player["used"] = [], []
    give_characters(state, seat, 1)
    set_cards(state, seat, hand=["press", "press", "joker"])
    before = state.clone()
    state.apply(seat, {"type": "use", "character": 1})
    state.apply(seat, {"type": "select", "card": "joker"})
    copy = state.determinize(1 - seat, random.Random(1))
    assert copy.turn["select"] is None
    _same_sample(state, before, 1 - seat)
    assert state.determinize(seat, random.Random(1)).turn["select"] == ["joker"]


def test_NYC_HIDDEN_cards_selected_for_character_12_are_forgotten_by_the_others():
    state = bidder("press", ["press"], 12, reserve=["joker", "plans"])
    before = state.clone()
    state.apply(0, {"type": "use", "character": 12})
    state.apply(0, {"type": "select", "card": "plans"})
    assert state.determinize(1, random.Random(2)).pending["select12"] is None
    _same_sample(state, before, 1)


def test_NYC_HIDDEN_determinize_is_pure_along_random_games():
    rng = random.Random(5)
    for seats, seed in ((2, 31), (3, 32), (4, 33)):
        state = GAME.setup(seats, {}, seed)
        for step in range(400):
            if not state.to_act():
                break
            if step % 7 == 0:
                for seat in range(seats):
                    sample = state.determinize(seat, random.Random(rng.random()))
                    _same_sample(state, sample, seat, salts=[rng.random()])
            actor = state.to_act()[0]
            state.apply(actor, rng.choice(state.legal_moves(actor)))


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
