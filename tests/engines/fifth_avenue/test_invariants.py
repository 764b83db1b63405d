"""Invariants over whole random games: cards, shops and skyscrapers are conserved, plots obey
their rules at every step, tokens stay where they may, scores only grow."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engines.fifth_avenue import GAME, board, piles
from engines.fifth_avenue import material as m
from engines.fifth_avenue.evaluate import evaluate

from .helpers import TS, empty_board, new_game, put


def cards_everywhere(state) -> Counter:
    cards = [c for p in state.players for c in p["hand"]]
    for pile in state.colour_piles.values():
        cards += pile["hidden"] + pile["known"]
    cards += state.black_pile["hidden"] + [c for c, _ in state.black_pile["known"]]
    if state.auction is not None:
        cards += [c for b in state.auction["bids"] for c in b]
        if state.auction["gedeon"] is not None:
            cards += state.auction["gedeon"]["cards"]
    return Counter(cards)


def shops_everywhere(state) -> Counter:
    tiles = [s for d in state.districts for p in d["plots"] for s in p["shops"]]
    tiles += [t for b in state.blocks for t in b] + state.under_park + state.boxed_tiles + state.tile_bag
    if state.setup_step["tile"] is not None and state.phase == "initial_shop":
        tiles.append(state.setup_step["tile"])
    return Counter(tiles)


def check(state, scores_before):
    assert cards_everywhere(state) == Counter(m.COLOUR_DECK + m.BLACK_DECK)
    assert shops_everywhere(state) == Counter(m.SHOP_TILES)
    step = state.setup_step
    for seat, player in enumerate(state.players):
        on_board = sum(board.skyscrapers_in(d["plots"], seat) for d in state.districts)
        # The two initial skyscrapers wait beside the board until the snake order reaches the seat.
        waiting = {"initial_shop": 2, "initial_skyscraper": step["order"][step["index"] :].count(seat)}
        total = 1 + on_board + player["park"] + player["reserve"] + player["supply"] + player["boxed"]
        total += waiting.get(state.phase, 0)
        assert total == m.SKYSCRAPERS_PER_COLOUR
        assert min(player["reserve"], player["supply"], player["park"]) >= 0
        assert not (Counter(player["shown"]) - Counter(player["hand"])), "shown cards are in the hand"
        assert player["score"] >= scores_before[seat], "scores never go down"
        assert player["score"] == sum(player["points"].values())
    if state.gedeon is not None:
        placed = sum(board.skyscrapers_in(d["plots"], board.GEDEON) for d in state.districts)
        assert placed + state.gedeon["supply"] + state.gedeon["boxed"] == m.GEDEON_SKYSCRAPERS
    for d, district in enumerate(state.districts):
        for plot in district["plots"]:
            assert not (plot["shops"] and plot["count"]), "shops and skyscrapers never share a plot"
            assert len(plot["shops"]) <= 2
            assert (plot["owner"] is None) == (plot["count"] == 0)
            if plot["owner"] == board.GEDEON:
                assert plot["count"] == 1
        owners = [p["owner"] for p in district["plots"] if p["owner"] not in (None, board.GEDEON)]
        assert len(owners) == len(set(owners)), "one plot per player per district"
        if district["closed"]:
            assert all(p == board.new_plot() for p in district["plots"])
            assert m.DISTRICT_IDS[d] in state.closed_order
    for pawn in m.PAWNS:
        tokens = state.expertise[pawn]
        assert len(tokens) <= m.EXPERTISE_TOKENS_PER_PAWN and len(set(tokens)) == len(tokens)
        assert not set(tokens) & set(state.closed_order)
        columns = [m.DISTRICT_COLUMN[t] for t in tokens]
        assert len(set(columns)) == len(columns), "a trip crosses each column once"
    assert state.shops_placed <= m.SHOPS_TO_END and len(state.closed_order) <= 2
    if state.black_pile["known"] and not state.black_pile["hidden"]:
        assert not state.black_pile["known"][0][1], "a face-up black card on top is reshuffled at once"


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("six", [False, True])
def test_material_is_conserved_and_the_board_stays_legal_in_every_game(seats, six):
    for seed in range(3):
        options = {"quick_start": seed % 2 == 0, "six_plot_board": six}
        state = GAME.setup(seats, options, seed)
        rng = random.Random(seed)
        scores = [0] * seats
        while not state.is_over():
            check(state, scores)
            scores = [p["score"] for p in state.players]
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_moves(seat)))
        check(state, scores)
        result = state.result()
        assert result.scores == [p["score"] for p in state.players]
        assert state.end["reason"] in ("last_shop", "second_building_stop")
        assert piles.size(state.black_pile) <= 50


def test_evaluate_prefers_points_and_well_placed_skyscrapers():
    state = new_game(3)
    empty_board(state)
    base = [evaluate(state, seat) for seat in range(3)]
    state.players[0]["score"] += 10
    assert evaluate(state, 0) > base[0] and evaluate(state, 1) < base[1]
    before = evaluate(state, 1)
    put(state, TS, 0, owner=1, count=2)
    put(state, TS, 1, shops=("fashion", "gallery"))
    assert evaluate(state, 1) > before
