"""Invariants over whole random games: cards, money and saboteurs conserved, cities legal."""

from __future__ import annotations

import random

import pytest

from engines.core.conformance import MAX_LISTED_MOVES
from engines.wettstreit import GAME
from engines.wettstreit import material as m


def all_cards(state) -> list[str]:
    cards = state.face_up + state.face_down
    for player in state.players:
        cards += player["hand"] + [card for card in player["city"] if card]
    if state.auction:
        cards.append(state.auction["card"])
    return cards


def check_city(player, final_round: bool) -> None:
    city = player["city"]
    if not city:
        return
    assert city[0] is not None and city[-1] is not None, "no gap at an end"
    kinds = [None if card is None else m.KIND[card] for card in city]
    for left, right in zip(kinds, kinds[1:], strict=False):
        if left and right:
            assert m.FAMILY[left] != m.FAMILY[right], city
    assert kinds.count(m.TOWN_HALL) <= 1
    assert m.LEFT_CORNER not in kinds[1:] and m.RIGHT_CORNER not in kinds[:-1]
    corners = sum(kind in m.CORNER_TOWERS for kind in kinds)
    assert corners <= (2 if final_round else 1)


def check(state) -> None:
    assert sorted(all_cards(state)) == sorted(m.DECK), "every card exactly once"
    assert sum(p["money"] for p in state.players) + state.bank == m.TOTAL_MONEY
    assert state.bank >= 0 and all(p["money"] >= 0 for p in state.players)
    assert state.centre_saboteurs + sum(p["saboteurs"] for p in state.players) == m.SABOTEURS
    assert len(state.pending) < m.MAX_CARDS_PER_BUILD
    final = state.phase in ("final_build", "over")
    for player in state.players:
        check_city(player, final)
    acting = state.to_act()
    for seat in acting:
        assert 0 < len(state.legal_moves(seat)) <= MAX_LISTED_MOVES


@pytest.mark.parametrize("seats", [3, 4])
def test_cards_money_and_saboteurs_are_conserved_and_cities_stay_legal(seats):
    for seed in range(12):
        state = GAME.setup(seats, {}, seed)
        rng = random.Random(seed)
        moves = 0
        while state.to_act():
            check(state)
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_moves(seat)))
            moves += 1
        check(state)
        assert moves < GAME.max_moves
        result = state.result()
        assert result is not None and 1 in result.ranks
        assert state.end_triggered and state.phase == "over" and state.final_queue == []


@pytest.mark.parametrize("seats", [3, 4])
def test_determinize_conserves_cards_and_keeps_every_view_over_whole_games(seats):
    pooled_games = 0
    for seed in range(30):
        state = GAME.setup(seats, {}, seed)
        rng = random.Random(seed)
        had_pool = False
        step = 0
        while state.to_act():
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_moves(seat)))
            step += 1
            had_pool = had_pool or bool(state.pools)
            if state.pools or step % 25 == 0:
                for viewer in range(seats):
                    other = state.determinize(viewer, random.Random(step * 7 + viewer))
                    assert sorted(all_cards(other)) == sorted(m.DECK)
                    assert other.view(viewer) == state.view(viewer)
                    assert other.legal_moves(viewer) == state.legal_moves(viewer)
                    kinds = sorted(m.KIND[card] for card in other.type_shown)
                    assert kinds == sorted(m.KIND[card] for card in state.type_shown)
        pooled_games += had_pool
    assert pooled_games, "some game saw a card lost face down from a hand with known cards"
