"""Hidden information and chance (FA-HIDDEN, FA-CHANCE): what each seat sees, and determinize."""

from __future__ import annotations

import random
from collections import Counter

from engines.core import redact
from engines.core.conformance import random_playout
from engines.fifth_avenue import GAME, piles
from engines.fifth_avenue import material as m

from .helpers import TS, add, at_turn, first, new_game, set_hand, start_auction


def test_FA_HIDDEN_a_hand_is_seen_whole_by_its_owner_only():
    state = new_game(4, seed=3)
    for viewer in (None, 0, 1, 2, 3):
        view = state.view(viewer)
        for shown in view["players"]:
            assert ("hand" in shown) == (shown["seat"] == viewer)
            assert shown["hand_size"] == 9
            assert shown["secret_cards"] == {**{c: 1 for c in m.COLOURS}, "black": 4}
        text = str(view)
        assert "rng" not in text and "hidden" not in text
        assert str(state.black_pile["hidden"][:10]) not in text


def test_FA_HIDDEN_cards_taken_face_up_or_taken_back_are_known_to_all():
    state = new_game(3, seed=2)
    top = state.colour_piles["green"]["hidden"][0]
    state.apply(0, {"type": "choose_action", "action": "A"})
    state.apply(0, {"type": "take_card", "colour": "green"})
    seen_by_1 = state.view(1)["players"][0]
    assert seen_by_1["shown_cards"] == [top] and seen_by_1["hand_size"] == 10
    assert seen_by_1["secret_cards"]["green"] == 1, "the dealt green card is still secret"


def test_FA_HIDDEN_the_dealt_card_played_from_a_pair_keeps_the_other_secret():
    state = new_game(3)
    player = state.players[0]
    set_hand(state, 0, ["grey-4", "grey-4", "black-5"], shown=["grey-4"])
    piles.remove(player, "grey-4")
    assert player["hand"] == ["grey-4", "black-5"] and player["shown"] == []
    assert piles.hidden_kinds(player)["grey"] == 1


def test_FA_HIDDEN_black_draws_are_secret_events():
    state = new_game(3, seed=4)
    events = state.apply(0, {"type": "choose_action", "action": "C"})
    drawn = first(events, "black_cards_drawn")
    assert "cards" not in redact(drawn, None) and "cards" not in redact(drawn, 1)
    assert redact(drawn, 0)["cards"] == [state.players[0]["hand"][-1]]


def _everything(state):
    cards = [c for p in state.players for c in p["hand"]]
    for pile in state.colour_piles.values():
        cards += pile["hidden"] + pile["known"]
    cards += state.black_pile["hidden"] + [c for c, _ in state.black_pile["known"]]
    if state.auction:
        cards += [c for b in state.auction["bids"] for c in b]
        if state.auction["gedeon"]:
            cards += state.auction["gedeon"]["cards"]
    return Counter(cards)


def test_FA_HIDDEN_determinize_redeals_only_what_the_seat_cannot_know():
    changed = 0
    for seed in range(6):
        playout = random_playout(GAME, 3, {"quick_start": True, "six_plot_board": False}, seed, check=False)
        state = GAME.setup(3, {"quick_start": True, "six_plot_board": False}, seed)
        for seat, move in playout.moves[: len(playout.moves) // 2]:
            state.apply(seat, move)
        for seat in range(3):
            other = state.determinize(seat, random.Random(seed))
            assert other.view(seat) == state.view(seat)
            assert other.players[seat]["hand"] == state.players[seat]["hand"]
            assert _everything(other) == _everything(state)
            for s in range(3):
                assert Counter(other.players[s]["shown"]) == Counter(state.players[s]["shown"])
                assert piles.hidden_kinds(other.players[s]) == piles.hidden_kinds(state.players[s])
            for colour in m.COLOURS:
                assert piles.top(other.colour_piles[colour]) == piles.top(state.colour_piles[colour])
                assert other.colour_piles[colour]["known"] == state.colour_piles[colour]["known"]
            assert other.black_pile["known"] == state.black_pile["known"]
            changed += any(
                Counter(other.players[s]["hand"]) != Counter(state.players[s]["hand"])
                for s in range(3)
                if s != seat
            )
    assert changed, "other hands' secret cards are re-dealt"


def test_FA_HIDDEN_determinize_forgets_another_seats_unfinished_bid():
    state = new_game(3)
    set_hand(state, 0, ["grey-4", "black-4"])
    start_auction(state, 0, [TS])
    add(state, 0, "grey-4")
    assert state.determinize(1, random.Random(1)).auction["draft"][0] == []
    assert state.determinize(0, random.Random(1)).auction["draft"][0] == ["grey-4"]


def test_FA_HIDDEN_face_down_shop_tiles_are_shuffled_by_determinize_but_the_drawn_tile_is_kept():
    state = new_game(3, quick=False, seed=6)
    other = state.determinize(2, random.Random(3))
    assert other.setup_step["tile"] == state.setup_step["tile"]
    assert Counter(other.tile_bag) == Counter(state.tile_bag) and other.tile_bag != state.tile_bag


def _secret_black(state, seat):
    return [c for c in piles.secret_cards(state.players[seat]) if m.CARD_KIND[c] == m.BLACK]


def _swap(hand_a, card_a, hand_b, card_b):
    hand_a[hand_a.index(card_a)] = card_b
    hand_b[hand_b.index(card_b)] = card_a


def test_FA_HIDDEN_determinize_depends_only_on_what_the_seat_knows():
    # Seat 1 took two colour cards face up, then started an auction and chose a first card.
    state = new_game(3, seed=5)
    at_turn(state, 1)
    state.apply(1, {"type": "choose_action", "action": "A"})
    state.apply(1, {"type": "take_card", "colour": "green"})
    state.apply(1, {"type": "take_card", "colour": "grey"})
    start_auction(state, 1, [TS])
    add(state, 1, next(mv["card"] for mv in state.legal_moves(1) if mv["type"] == "add_card"))
    assert state.players[1]["shown"] and state.auction["draft"][1] and len(state.tile_bag) > 1

    # A state seat 0 cannot tell apart: other secret cards, other orders, no draft yet.
    twin = state.clone()
    twin.auction["draft"][1] = []
    one, two = _secret_black(twin, 1), _secret_black(twin, 2)
    a, b = next((a, b) for a in one for b in two if a != b)
    _swap(twin.players[1]["hand"], a, twin.players[2]["hand"], b)
    c = next(c for c in twin.black_pile["hidden"] if c not in (a, b))
    _swap(twin.players[2]["hand"], a, twin.black_pile["hidden"], c)
    twin.players[1]["hand"].reverse()
    twin.colour_piles["violet"]["hidden"][1:] = twin.colour_piles["violet"]["hidden"][:0:-1]
    twin.tile_bag.reverse()
    assert twin != state and twin.view(0) == state.view(0)

    for salt in range(5):
        sample = state.determinize(0, random.Random(salt))
        assert sample == twin.determinize(0, random.Random(salt))
        assert sample.view(0) == state.view(0)
        assert sample.determinize(0, random.Random(salt)) == sample


def test_FA_CHANCE_the_same_seed_and_moves_replay_the_same_game():
    a = random_playout(GAME, 4, {"quick_start": True, "six_plot_board": True}, 11, check=False)
    b = random_playout(GAME, 4, {"quick_start": True, "six_plot_board": True}, 11, check=False)
    assert a.moves == b.moves and a.final == b.final
    c = GAME.setup(4, {"quick_start": True, "six_plot_board": True}, 12)
    assert c.players != GAME.setup(4, {"quick_start": True, "six_plot_board": True}, 11).players
