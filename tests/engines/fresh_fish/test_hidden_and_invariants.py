"""Hidden information (rule id FF-HIDDEN) and invariants over whole random games."""

from __future__ import annotations

import random

import pytest

from engines.core.events import redact
from engines.fresh_fish import GAME
from engines.fresh_fish import material as m
from engines.fresh_fish.expropriation import network_is_sound, unbuildable

from .helpers import frontier, position

NINE = """
P . . . . . . . N
. 0 . . . . . 1 .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. 2 . . . . . 3 .
R . . . . . . . G
"""


# ---- FF-HIDDEN -----------------------------------------------------------------------------------
def test_FF_HIDDEN_the_pile_order_is_seen_by_nobody_its_contents_by_all():
    state = GAME.setup(3, {}, seed=2)
    views = [state.view(viewer) for viewer in (None, 0, 1, 2)]
    for view in views:
        assert view["pile_size"] == len(state.pile)
        assert view["pile_contents"] == {t: state.pile.count(t) for t in sorted(set(state.pile))}
        assert "pile" not in view and "rng" not in view
    assert views[1]["pile_contents"] == views[0]["pile_contents"]
    other = state.determinize(0, random.Random(1))
    assert sorted(other.pile) == sorted(state.pile) and other.pile != state.pile
    assert other.view(0) == state.view(0)


def test_FF_HIDDEN_sealed_bids_are_re_dealt_within_what_each_bidder_could_bid():
    state = position(NINE, money={1: 4, 2: 0, 3: 9})
    state.pile = ["park", "game_shop"]
    state.apply(0, {"type": "draw"})
    state.apply(1, {"type": "bid", "amount": 3})
    state.apply(2, {"type": "bid", "amount": 0})
    state.apply(3, {"type": "bid", "amount": 9})
    assert state.to_act() == [0]
    for seed in range(30):
        other = state.determinize(0, random.Random(seed))
        assert other.bids[0] is None
        assert 0 <= other.bids[1] <= 4 and other.bids[2] == 0 and 0 <= other.bids[3] <= 9
        assert other.to_act() == [0] and other.view(0) == state.view(0)
    mine = state.determinize(3, random.Random(0))
    assert mine.bids[3] == 9


def test_FF_HIDDEN_bids_are_revealed_together_once_all_are_in():
    state = position(NINE)
    state.pile = ["park", "fishmonger"]
    state.apply(0, {"type": "draw"})
    sealed = []
    for seat, amount in enumerate([2, 5, 1, 0]):
        events = state.apply(seat, {"type": "bid", "amount": amount})
        sealed.append(events[0])
    for seat, e in enumerate(sealed):
        for viewer in (None, 0, 1, 2, 3):
            assert ("amount" in redact(e, viewer)) == (viewer == seat)
    won = [e for e in events if e["type"] == "auction_won"][0]
    assert won["bids"] == [2, 5, 1, 0] and "secret" not in won
    for viewer in (None, 0, 3):
        assert state.view(viewer)["last_auction"]["bids"] == [2, 5, 1, 0]
        assert state.view(viewer)["players"][1]["money"] == 10, "money is open"


def test_FF_HIDDEN_determinize_depends_only_on_what_the_seat_knows():
    state = position(NINE)
    state.pile = ["park", "office", "game_shop", "apartment", "fishmonger"]
    state.apply(0, {"type": "draw"})
    state.apply(1, {"type": "bid", "amount": 3})
    state.apply(3, {"type": "bid", "amount": 7})
    for seat in range(4):
        other = state.determinize(seat, random.Random(seat))
        for salt in range(5):
            assert state.determinize(seat, random.Random(salt)) == other.determinize(
                seat, random.Random(salt)
            )


# ---- invariants over whole games -----------------------------------------------------------------
def _check_invariants(state, paid):
    size, board, reserved = state.size, state.board, state.reserved
    # the network rules hold after every move, and nothing illegal is left to expropriate
    assert network_is_sound(size, board)
    assert unbuildable(size, board) == []
    # a reservation lies only on an undeveloped plot
    assert all(board[plot] is None for plot, who in enumerate(reserved) if who is not None)
    # cubes: 8 per player, in hand, set aside, on reservations or on retailers
    for seat, player in enumerate(state.players):
        on_board = [plot for plot in player["retailers"].values() if plot != "front"]
        assert player["cubes"] >= 0 and 0 <= player["set_aside"] <= 2
        assert player["cubes"] + player["set_aside"] + reserved.count(seat) + len(on_board) == m.CUBES
        assert player["set_aside"] == max(0, 2 - len(on_board))
        # money: 15 less what was paid at auctions, never below 0
        assert player["money"] == m.STARTING_MONEY - paid[seat] >= 0
        # one retailer of each type at most, and the board agrees
        for goods, plot in player["retailers"].items():
            if plot != "front":
                assert board[plot] == m.RETAILER[goods]
    # tiles: every retailer and blocking building is in the pile, drawn, on the board,
    # in front of a player or set aside
    drawn = [state.drawn] if state.drawn else []
    front = [m.RETAILER[g] for p in state.players for g, w in p["retailers"].items() if w == "front"]
    for retailer in m.RETAILERS:
        count = state.pile.count(retailer) + board.count(retailer) + front.count(retailer)
        assert count + drawn.count(retailer) == state.seats
    for kind in m.BLOCKING:
        count = state.pile.count(kind) + board.count(kind) + state.set_aside[kind] + drawn.count(kind)
        assert count == m.BLOCKING_IN_BOX[kind]
    assert sum(1 for tile in board if tile in m.DISTRIBUTORS) == len(state.distributors)
    # the kept frontier of plots open to reservation matches a fresh count
    assert state.frontier == frontier(state)


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
@pytest.mark.parametrize("distributors", ["corners", "quarters", "anywhere"])
def test_cubes_money_tiles_and_the_network_are_conserved_in_every_game(seats, distributors):
    for seed in range(2):
        state = GAME.setup(seats, {"distributors": distributors}, seed)
        rng = random.Random(seed)
        paid = [0] * seats
        moves = 0
        while not state.is_over():
            seat = rng.choice(state.to_act())
            events = state.apply(seat, rng.choice(state.legal_moves(seat)))
            for e in events:
                if e["type"] == "auction_won":
                    paid[e["seat"]] += e["price"]
            _check_invariants(state, paid)
            moves += 1
        assert None not in state.board, "the game ends when every plot is developed"
        assert moves <= GAME.max_moves
        result = state.result()
        for seat, row in enumerate(result.breakdown):
            assert all(0 <= d <= state.cap for d in row["routes"].values())
            assert row["total"] == row["distance"] - row["money"] == result.scores[seat]
            assert row["money"] == state.players[seat]["money"]


def test_every_retailer_route_at_the_end_is_capped_or_real():
    for seed in range(6):
        state = GAME.setup(3, {}, seed)
        rng = random.Random(seed)
        while not state.is_over():
            seat = rng.choice(state.to_act())
            state.apply(seat, rng.choice(state.legal_moves(seat)))
        lengths = state.route_lengths()
        for seat, player in enumerate(state.players):
            for goods, where in player["retailers"].items():
                if where != "front":
                    assert lengths[seat][goods] is not None, "a street route always exists at the end"
                    assert lengths[seat][goods] >= 1
