"""Material, setup and step 1 (income): rules WB-PLAYERS … WB-BANK of docs/rules/wettstreit.md."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.core import InvalidOptions
from engines.wettstreit import GAME
from engines.wettstreit import material as m

from .position import END, play, position, rig_die


# ---- WB-PLAYERS, WB-CARDS ---------------------------------------------------------------
@pytest.mark.parametrize("seats", [2, 5])
def test_WB_PLAYERS_three_or_four_players(seats):
    with pytest.raises(InvalidOptions):
        GAME.setup(seats, {}, seed=0)


def test_WB_CARDS_the_forty_building_cards_of_the_rulebook():
    assert len(m.DECK) == 40 and len(set(m.DECK)) == 40
    by_kind = Counter(m.KIND[card] for card in m.DECK)
    assert by_kind == {
        "left-corner": 5,
        "right-corner": 5,
        "tower": 6,
        "gate": 10,
        "town-hall": 6,
        "cathedral": 8,
    }
    values = {kind: sorted(m.VALUE[c] for c in m.DECK if m.KIND[c] == kind) for kind in m.KINDS}
    assert values["left-corner"] == values["right-corner"] == [1, 1, 2, 2, 3]
    assert values["tower"] == [1, 1, 2, 2, 3, 3]
    assert values["gate"] == [2, 2, 3, 3, 3, 4, 4, 4, 5, 5]
    assert values["town-hall"] == [5, 5, 6, 6, 7, 7]
    assert values["cathedral"] == [4, 5, 5, 6, 6, 7, 8, 9]


def test_WB_CARDS_coins_on_gates_and_shields_on_towers_one_or_two():
    """The rulebook's "one or two" symbols; which card has how many is a reconstruction."""
    for card in m.DECK:
        kind = m.KIND[card]
        assert m.COINS[card] in ((1, 2) if kind == m.GATE else (0,))
        assert m.SHIELDS[card] in ((1, 2) if m.FAMILY[kind] == m.TOWER else (0,))
    assert m.RECONSTRUCTED == ("GATE_COINS_BY_VALUE", "SHIELDS_BY_VALUE")


def test_WB_CARDS_corner_towers_and_towers_are_one_type():
    assert m.FAMILY[m.LEFT_CORNER] == m.FAMILY[m.RIGHT_CORNER] == m.FAMILY[m.TOWER]
    assert len({m.FAMILY[k] for k in m.KINDS}) == 4


# ---- WB-SETUP-PILES, WB-SETUP-MONEY, WB-FIRST ------------------------------------------------
@pytest.mark.parametrize("seats", [3, 4])
def test_WB_SETUP_PILES_and_WB_SETUP_MONEY_two_piles_ten_ecus_each_saboteurs_in_the_centre(seats):
    state = GAME.setup(seats, {}, seed=5)
    assert sorted(state.face_up + state.face_down) == sorted(m.DECK)
    assert len(state.face_up) == len(state.face_down) == 20
    view = state.view(None)
    assert view["face_up"]["top"] == state.face_up[-1]
    assert view["face_up"]["known"] == [{"depth": 0, "card": state.face_up[-1]}]
    assert view["face_down"] == {"size": 20, "known": [], "known_kinds": []}
    first = state.current
    others = [p["money"] for s, p in enumerate(state.players) if s != first]
    assert others == [10] * (seats - 1), "10 écus each behind the screen"
    # The first player has rolled for income already.
    assert state.players[first]["money"] + state.bank == 90 - 10 * (seats - 1)
    assert state.centre_saboteurs + state.players[first]["saboteurs"] == 5
    assert m.TOTAL_MONEY == 20 * 3 + 30 * 1


def test_WB_FIRST_chance_picks_the_first_player():
    firsts = {GAME.setup(4, {}, seed=seed).first for seed in range(60)}
    assert firsts == {0, 1, 2, 3}
    for seed in range(10):
        state = GAME.setup(3, {}, seed=seed)
        assert state.current == state.first and state.turn == 1


# ---- WB-TURN ------------------------------------------------------------------------------
def test_WB_TURN_income_auction_build_then_the_next_player_clockwise():
    state = position(4, current=3, phase="build_or_sabotage")
    rig_die(state, 4)
    events = play(state, END)
    assert [e["type"] for e in events] == ["turn_ended", "turn_started", "income"]
    assert state.current == 0, "clockwise: after seat 3 comes seat 0"
    assert state.phase == "choose_pile" and state.to_act() == [0]
    assert {mv["type"] for mv in state.legal_moves(0)} == {"auction"}


# ---- WB-INCOME, WB-INCOME-GATES, WB-INCOME-BLACK ----------------------------------------
@pytest.mark.parametrize("face", [1, 2, 3, 4, 5])
def test_WB_INCOME_the_die_gives_its_number_in_ecus(face):
    state = position(3, current=2)
    rig_die(state, face)
    events = play(state, END)
    assert state.players[0]["money"] == 10 + face
    income = next(e for e in events if e["type"] == "income")
    assert income == {"type": "income", "seat": 0, "die": face, "gate_coins": 0, "received": face}
    assert state.players[0]["saboteurs"] == 0


def test_WB_INCOME_GATES_one_ecu_per_coin_symbol_on_built_gates():
    city = ["gate-2a", "cathedral-4a", "gate-4a", "town-hall-5a", "gate-5a"]
    state = position(3, current=2, cities={0: city})
    coins = sum(m.COINS[c] for c in city)
    assert 3 <= coins <= 6, "three gates of one or two coins each"
    rig_die(state, 3)
    play(state, END)
    assert state.players[0]["money"] == 10 + 3 + coins
    assert state.view(0)["players"][0]["coins"] == coins


def test_WB_INCOME_BLACK_gate_income_only_and_a_saboteur():
    city = ["gate-3a", "cathedral-5a"]
    state = position(3, current=2, cities={0: city})
    rig_die(state, m.BLACK_DOT)
    events = play(state, END)
    assert state.players[0]["money"] == 10 + m.COINS["gate-3a"]
    assert state.players[0]["saboteurs"] == 1 and state.centre_saboteurs == 4
    income = next(e for e in events if e["type"] == "income")
    assert income["die"] == "black"
    assert {"type": "saboteur_taken", "seat": 0, "source": "centre"} in events
    assert state.view(1)["players"][0]["saboteurs"] == 1, "saboteurs stand in front of the screen"


def test_WB_INCOME_SABOTEUR_none_left_take_one_from_a_player_of_ones_choice():
    state = position(4, current=3, saboteurs={1: 2, 2: 3})
    rig_die(state, m.BLACK_DOT)
    play(state, END)
    assert state.phase == "take_saboteur" and state.to_act() == [0]
    assert state.legal_moves(0) == [
        {"type": "take_saboteur", "from": 1},
        {"type": "take_saboteur", "from": 2},
    ]
    with pytest.raises(Exception) as refused:
        state.apply(0, {"type": "take_saboteur", "from": 3})
    assert refused.value.code == "holds_no_saboteur"
    play(state, {"type": "take_saboteur", "from": 2})
    assert [p["saboteurs"] for p in state.players] == [1, 2, 2, 0]
    assert state.phase == "choose_pile"


def test_WB_INCOME_SABOTEUR_a_single_holder_gives_it_without_a_question():
    state = position(3, current=2, saboteurs={1: 5})
    rig_die(state, m.BLACK_DOT)
    events = play(state, END)
    assert [p["saboteurs"] for p in state.players] == [1, 4, 0]
    assert {"type": "saboteur_taken", "seat": 0, "source": 1} in events
    assert state.phase == "choose_pile"


def test_WB_INCOME_SABOTEUR_none_anywhere_else_means_none():
    state = position(3, current=2, saboteurs={0: 5})
    rig_die(state, m.BLACK_DOT)
    events = play(state, END)
    assert state.players[0]["saboteurs"] == 5
    assert any(e["type"] == "no_saboteur_left" for e in events)
    assert state.phase == "choose_pile"


# ---- WB-BANK ---------------------------------------------------------------------------------
def test_WB_BANK_the_bank_pays_only_the_coins_it_has():
    state = position(3, current=2, money={0: 30, 1: 30, 2: 28})
    assert state.bank == 2
    rig_die(state, 5)
    events = play(state, END)
    assert state.players[0]["money"] == 32 and state.bank == 0
    assert next(e for e in events if e["type"] == "income")["received"] == 2
