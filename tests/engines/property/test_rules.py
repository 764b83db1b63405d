"""Property's rules, one test (or more) per rule id of docs/rules/property.md.

The rulebook's own numbers are here: the rent of 6 / 12 / 24 on a group of six, the
purchase of that square for 6 units, ♥A + ♣8 on the upper-left square, the wild 9s and 10s.
"""

from __future__ import annotations

import random

import pytest

from engines.core import GameOver, IllegalMove, InvalidMove, InvalidOptions, NotYourTurn
from engines.core.conformance import random_playout
from engines.property import GAME
from engines.property import material as m
from engines.property.rules import minimal_payments

NO_UNITS = {"king": 0, "queen": 0, "jack": 0, "joker": 0}


def position(seats=2, *, current=0, hands=None, money=None, units=None, owned=(), options=None):
    """A state at the start of ``current``'s turn, with hands, money and squares as given."""
    state = GAME.setup(seats, options or {}, seed=1)
    state.current = current
    everything = list(m.DECK)
    hands = hands or {}
    for seat in range(seats):
        hand = hands.get(seat, [])
        state.players[seat]["hand"] = list(hand)
        state.players[seat]["hand_epochs"] = [0] * len(hand)
    held = {c for h in hands.values() for c in h}
    state.stock = [c for c in everything if c not in held]
    state.discard = []
    for seat, amount in (money or {}).items():
        state.players[seat]["money"] = amount
    for seat, held_units in (units or {}).items():
        state.players[seat]["units"] = {**NO_UNITS, **held_units}
    for column, row, owner, *mortgaged in owned:
        state.grid[row - 1][column - 1] = {"owner": owner, "mortgaged": bool(mortgaged and mortgaged[0])}
    return state


def play(red, black, column, row):
    return {"type": "play", "red": red, "black": black, "column": column, "row": row}


# A six-square group of seat 1 around column 3, row 5 (the rulebook's J.B. example).
SIX_GROUP = [(3, 5, 1), (3, 4, 1), (2, 4, 1), (4, 5, 1), (4, 6, 1), (5, 6, 1)]


# ---- P-PLAYERS, P-CHIPS, P-UNITS, P-DECK -----------------------------------------------
@pytest.mark.parametrize(("seats", "money"), [(2, 150), (3, 136), (4, 102), (5, 85), (6, 68)])
def test_P_CHIPS_money_per_player_from_the_chip_table(seats, money):
    state = GAME.setup(seats, {}, seed=3)
    assert [p["money"] for p in state.players] == [money] * seats


@pytest.mark.parametrize(("seats", "units"), [(2, 14), (3, 10), (4, 7), (5, 6), (6, 5)])
def test_P_UNITS_every_player_gets_the_same_purchasing_units(seats, units):
    state = GAME.setup(seats, {}, seed=3)
    totals = [m.unit_total(p["units"]) for p in state.players]
    assert totals == [units] * seats
    jokers = sum(p["units"]["joker"] for p in state.players)
    assert jokers == (0 if seats in (2, 4) else 2), "jokers are unused at 4 and 2 players"
    for kind, copies in (("king", 4), ("queen", 4), ("jack", 4)):
        assert sum(p["units"][kind] for p in state.players) == copies


def test_P_UNITS_values_of_the_court_cards():
    assert m.UNIT_VALUES == {"king": 4, "queen": 2, "jack": 1, "joker": 1}


def test_P_DECK_forty_number_cards_ace_to_ten():
    assert len(m.DECK) == 40 and len(set(m.DECK)) == 40
    assert {m.card_rank(c) for c in m.DECK} == set(range(1, 11))


@pytest.mark.parametrize("seats", [1, 7])
def test_P_PLAYERS_two_to_six(seats):
    with pytest.raises(InvalidOptions):
        GAME.setup(seats, {}, seed=0)


# ---- P-FIRST, P-HAND -------------------------------------------------------------------
def test_P_FIRST_highest_cut_starts():
    for seed in range(20):
        state = GAME.setup(4, {}, seed=seed)
        last_round = state.cut[-1]
        best = max(m.card_rank(c) for c in last_round.values())
        winners = [int(s) for s, c in last_round.items() if m.card_rank(c) == best]
        assert winners == [state.current]
        assert state.to_act() == [state.current]


def test_P_HAND_every_hand_starts_with_both_colours_and_one_lone_card():
    for seed in range(30):
        state = GAME.setup(6, {}, seed=seed)
        for player in state.players:
            reds = sum(m.is_red(c) for c in player["hand"])
            assert min(reds, len(player["hand"]) - reds) == 1
        assert len(state.stock) + sum(len(p["hand"]) for p in state.players) == 40


# ---- P-GRID, P-PLAY, P-WILD, P-CLAIM ----------------------------------------------------
def test_P_GRID_ace_of_hearts_and_eight_of_clubs_is_the_upper_left_square():
    state = position(hands={0: ["1H", "8C"], 1: ["2D", "3S"]})
    assert state.legal_moves(0) == [play("1H", "8C", 1, 8)]
    state.apply(0, play("1H", "8C", 1, 8))
    assert state.grid[7][0] == {"owner": 0, "mortgaged": False}
    assert state.view(None)["grid"][7][0]["owner"] == 0


def test_P_WILD_a_ten_stands_for_any_number_of_its_colour():
    state = position(hands={0: ["1H", "10C"], 1: ["2D", "3S"]})
    moves = state.legal_moves(0)
    assert sorted((mv["column"], mv["row"]) for mv in moves) == [(1, r) for r in range(1, 9)]


def test_P_WILD_two_nines_designate_any_square():
    state = position(hands={0: ["9D", "9C"], 1: ["2D", "3S"]})
    assert len(state.legal_moves(0)) == 64


def test_P_WILD_a_nine_and_a_ten_of_one_suit_are_listed_once():
    state = position(hands={0: ["9H", "10H", "4C"], 1: ["2D", "3S"]})
    moves = state.legal_moves(0)
    assert {mv["red"] for mv in moves} == {"9H"} and len(moves) == 8


def test_P_WILD_the_ten_beside_the_nine_is_accepted_as_the_equivalent_play():
    """« Les 9 et les 10 peuvent être utilisés… »: a client following the rulebook may play
    the 10; it is the listed play with the 9, and resolve() names the move as applied."""
    state = position(hands={0: ["9H", "10H", "4C"], 1: ["2D", "3S"]})
    assert state.resolve(0, play("10H", "4C", 2, 4)) == play("9H", "4C", 2, 4)
    by_nine = state.clone()
    events = state.apply(0, play("10H", "4C", 2, 4))
    assert events == by_nine.apply(0, play("9H", "4C", 2, 4)) and state == by_nine
    assert state.grid[3][1]["owner"] == 0 and "10H" in state.players[0]["hand"]
    # Two tens beside their nines, too; and a ten alone is listed as it is.
    state = position(hands={0: ["9D", "10D", "9S", "10S"], 1: ["2D", "3S"]})
    assert state.resolve(0, play("10D", "10S", 5, 6)) == play("9D", "9S", 5, 6)
    state = position(hands={0: ["10H", "4C"], 1: ["2D", "3S"]})
    assert state.resolve(0, play("10H", "4C", 2, 4)) == play("10H", "4C", 2, 4)


def test_P_WILD_an_equivalent_ten_still_follows_the_other_rules():
    state = position(hands={0: ["9H", "10H", "4C"], 1: ["2D", "3S"]})
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, play("10H", "4C", 2, 5))
    assert refused.value.code == "card_does_not_designate"


def test_P_PLAY_one_red_and_one_black_card_from_the_hand():
    state = position(hands={0: ["3H", "5C", "6C"], 1: ["2D", "3S"]})
    for bad, code in [
        (play("4H", "5C", 4, 5), "card_not_in_hand"),
        (play("5C", "3H", 5, 3), "wrong_colour"),
        (play("3H", "5C", 4, 5), "card_does_not_designate"),
        (play("3H", "5C", 3, 9), "no_such_square"),
        ({"type": "buy", "pay": NO_UNITS}, "no_purchase_offered"),
    ]:
        before = state.to_dict()
        with pytest.raises(IllegalMove) as refused:
            state.apply(0, bad)
        assert refused.value.code == code
        assert state.to_dict() == before
    with pytest.raises(NotYourTurn):
        state.apply(1, play("2D", "3S", 2, 3))


def test_P_CLAIM_and_P_DRAW_claim_an_empty_square_then_refill_both_colours():
    state = position(hands={0: ["3H", "5C"], 1: ["2D", "3S"]})
    events = state.apply(0, play("3H", "5C", 3, 5))
    assert state.grid[4][2] == {"owner": 0, "mortgaged": False}
    hand = state.players[0]["hand"]
    reds = sum(m.is_red(c) for c in hand)
    assert 0 < reds < len(hand)
    assert state.discard == ["3H", "5C"]
    drawn = [e for e in events if e["type"] == "cards_drawn"][0]
    assert drawn["secret"]["to"] == [0] and drawn["count"] == len(hand)
    assert state.current == 1


def test_P_RESHUFFLE_an_empty_stock_is_rebuilt_from_the_shuffled_discards():
    state = position(hands={0: ["3H", "5C"], 1: ["2D", "3S"]})
    state.discard = state.stock
    state.stock = []
    events = state.apply(0, play("3H", "5C", 3, 5))
    assert any(e["type"] == "stock_reshuffled" for e in events)
    assert state.stock_epoch == 1 and state.discard == []
    assert len(state.stock) + sum(len(p["hand"]) for p in state.players) == 40


# ---- P-GROUP, P-RENT, P-RENT-SUIT: the rulebook's 6 / 12 / 24 ------------------------------
@pytest.mark.parametrize(
    ("red", "black", "rent"),
    [("3D", "5C", 6), ("3H", "5C", 12), ("3D", "5S", 12), ("3H", "5S", 24)],
)
def test_P_RENT_SUIT_the_rulebook_example_six_twelve_twenty_four(red, black, rent):
    state = position(hands={0: [red, black], 1: ["2D", "3S"]}, owned=SIX_GROUP + [(6, 6, 1, False)][:0])
    assert state.rent(3, 5, red, black) == rent
    events = state.apply(0, play(red, black, 3, 5))
    paid = [e for e in events if e["type"] == "rent_paid"][0]
    assert paid["amount"] == rent and paid["group"] == 6 and paid["owner"] == 1
    assert state.players[0]["money"] == 150 - rent and state.players[1]["money"] == 150 + rent


def test_P_GROUP_squares_touching_by_a_corner_are_not_connected():
    state = position(owned=[(3, 5, 1), (4, 6, 1), (2, 4, 1), (3, 6, 0)])
    assert state.group(3, 5) == [(3, 5)]


def test_P_MORTGAGED_RENT_mortgaged_squares_still_count_in_the_group():
    owned = [(3, 5, 1, True), (3, 4, 1, True)]
    state = position(hands={0: ["3D", "5C"], 1: ["2D", "3S"]}, owned=owned)
    state.apply(0, play("3D", "5C", 3, 5))
    assert state.players[1]["money"] == 152


# ---- P-BUY, P-BUY-PAY, P-BUY-MORTGAGED ------------------------------------------------------
def test_P_BUY_the_square_for_six_units_after_paying_rent():
    state = position(
        hands={0: ["3D", "5C"], 1: ["2D", "3S"]},
        owned=SIX_GROUP,
        units={0: {"king": 1, "jack": 1, "joker": 1}, 1: {}},
    )
    state.apply(0, play("3D", "5C", 3, 5))
    assert state.phase == "buy" and state.to_act() == [0]
    pay = {"king": 1, "queen": 0, "jack": 1, "joker": 1}
    assert {"type": "buy", "pay": pay} in state.legal_moves(0)
    events = state.apply(0, {"type": "buy", "pay": pay})
    assert state.grid[4][2]["owner"] == 0
    assert state.players[1]["units"] == pay, "the units go to the previous owner"
    assert m.unit_total(state.players[0]["units"]) == 0
    assert any(e["type"] == "square_bought" for e in events)
    assert state.current == 1


def test_P_BUY_the_suits_change_the_rent_but_not_the_price():
    state = position(hands={0: ["3H", "5S"], 1: ["2D", "3S"]}, owned=SIX_GROUP, units={0: {"king": 1}})
    state.apply(0, play("3H", "5S", 3, 5))
    assert state.phase == "play", "4 units cannot buy a group of 6: no offer"
    state = position(hands={0: ["3H", "5S"], 1: ["2D", "3S"]}, owned=SIX_GROUP, units={0: {"king": 2}})
    state.apply(0, play("3H", "5S", 3, 5))
    assert state.pending["price"] == 6


def test_P_BUY_declining_keeps_the_square_with_its_owner():
    state = position(hands={0: ["3D", "5C"], 1: ["2D", "3S"]}, owned=SIX_GROUP, units={0: {"king": 2}})
    state.apply(0, play("3D", "5C", 3, 5))
    state.apply(0, {"type": "decline"})
    assert state.grid[4][2]["owner"] == 1 and state.current == 1
    with pytest.raises(IllegalMove) as refused:
        state.apply(1, {"type": "decline"})
    assert refused.value.code == "no_purchase_offered"


def test_P_BUY_PAY_no_change_is_given_and_only_needed_cards_are_paid():
    assert minimal_payments({"king": 2, "queen": 1, "jack": 0, "joker": 0}, 3) == [
        {"king": 1, "queen": 0, "jack": 0, "joker": 0},
    ]
    payments = minimal_payments({"king": 1, "queen": 2, "jack": 1, "joker": 0}, 5)
    assert {"king": 1, "queen": 0, "jack": 1, "joker": 0} in payments
    assert {"king": 1, "queen": 1, "jack": 0, "joker": 0} in payments
    assert {"king": 1, "queen": 1, "jack": 1, "joker": 0} not in payments
    state = position(
        hands={0: ["3D", "5C"], 1: ["2D", "3S"]}, owned=SIX_GROUP, units={0: {"king": 2, "jack": 1}}
    )
    state.apply(0, play("3D", "5C", 3, 5))
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, {"type": "buy", "pay": {"king": 2, "queen": 0, "jack": 1, "joker": 0}})
    assert refused.value.code == "payment_not_minimal"
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, {"type": "buy", "pay": {"king": 1, "queen": 0, "jack": 1, "joker": 0}})
    assert refused.value.code == "not_enough_units"


def test_P_BUY_MORTGAGED_a_bought_mortgaged_square_stays_mortgaged():
    state = position(
        hands={0: ["3D", "5C"], 1: ["2D", "3S"]}, owned=[(3, 5, 1, True)], units={0: {"jack": 1}}
    )
    state.apply(0, play("3D", "5C", 3, 5))
    state.apply(0, {"type": "buy", "pay": {"king": 0, "queen": 0, "jack": 1, "joker": 0}})
    assert state.grid[4][2] == {"owner": 0, "mortgaged": True}


# ---- P-MORTGAGE, P-LOSE ---------------------------------------------------------------------
def test_P_MORTGAGE_then_P_LOSE_playing_on_ones_own_square():
    state = position(hands={0: ["3D", "5C"], 1: ["2D", "3S"]}, owned=[(3, 5, 0)])
    state.apply(0, play("3D", "5C", 3, 5))
    assert state.grid[4][2] == {"owner": 0, "mortgaged": True}
    assert state.players[0]["money"] == 150, "no compensation"
    state.current = 0
    state.players[0]["hand"], state.players[0]["hand_epochs"] = ["3H", "5S"], [0, 0]
    state.apply(0, play("3H", "5S", 3, 5))
    assert state.grid[4][2] is None


# ---- P-BANKRUPT, P-END, P-WINNER --------------------------------------------------------------
def test_P_BANKRUPT_rent_above_cash_takes_everything_and_ends_the_game():
    state = position(hands={0: ["3H", "5S"], 1: ["2D", "3S"]}, owned=SIX_GROUP, money={0: 23, 1: 277})
    events = state.apply(0, play("3H", "5S", 3, 5))
    assert state.players[0]["money"] == 0 and state.players[1]["money"] == 300
    assert state.players[0]["bankrupt"] and state.is_over()
    assert events[-1]["type"] == "game_over"
    result = state.result()
    assert result.winners == [1] and result.ranks == [2, 1] and result.scores == [0, 300]
    with pytest.raises(GameOver):
        state.apply(1, play("2D", "3S", 2, 3))


def test_P_BANKRUPT_rent_equal_to_cash_is_paid():
    state = position(hands={0: ["3H", "5S"], 1: ["2D", "3S"]}, owned=SIX_GROUP, money={0: 24, 1: 276})
    state.apply(0, play("3H", "5S", 3, 5))
    assert state.players[0]["money"] == 0 and not state.players[0]["bankrupt"]
    assert not state.is_over()


def test_P_WINNER_the_richest_wins_whatever_land_they_hold_and_ties_share():
    state = position(3, hands={0: ["3H", "5S"]}, owned=SIX_GROUP, money={0: 1, 1: 99, 2: 100})
    state.apply(0, play("3H", "5S", 3, 5))
    result = state.result()
    assert result.ranks == [3, 1, 1] and result.winners == [1, 2]
    assert result.breakdown[1] == {"money": 100, "property": 0, "squares": 6}


# ---- options -----------------------------------------------------------------------------------
def test_P_OPT_VALUE_each_square_counts_five_dollars_at_the_end():
    state = position(
        3,
        hands={0: ["3H", "5S"]},
        owned=SIX_GROUP + [(8, 8, 2)],
        money={0: 1, 1: 100, 2: 120},
        options={"property_value": True},
    )
    state.apply(0, play("3H", "5S", 3, 5))
    result = state.result()
    assert result.scores == [0, 101 + 30, 120 + 5]
    assert result.winners == [1]


def test_P_OPT_LONGER_play_on_to_the_second_bankruptcy_with_squares_vacated():
    state = position(
        3,
        hands={0: ["3H", "5S"], 1: ["2D", "3S"], 2: ["4D", "4S"]},
        owned=SIX_GROUP + [(1, 1, 0)],
        money={0: 1},
        options={"bankruptcies_to_end": 2},
    )
    state.apply(0, play("3H", "5S", 3, 5))
    assert state.players[0]["bankrupt"] and not state.is_over()
    assert state.grid[0][0] is None, "a bankrupt player's squares become vacant"
    assert state.players[0]["hand"] == []
    assert state.current == 1
    state.apply(1, state.legal_moves(1)[0])
    assert state.current == 2
    state.apply(2, state.legal_moves(2)[0])
    assert state.current == 1, "the bankrupt player is skipped"


def test_P_OPT_LONGER_cannot_outlast_the_players():
    with pytest.raises(InvalidOptions):
        GAME.setup(2, {"bankruptcies_to_end": 2}, seed=0)
    GAME.setup(3, {"bankruptcies_to_end": 2}, seed=0)


# ---- P-STUCK, P-HIDDEN -------------------------------------------------------------------------
def test_P_STUCK_a_hand_without_both_colours_can_only_pass():
    state = position(hands={0: ["3H", "5H"], 1: ["2D", "3S"]})
    assert state.legal_moves(0) == [{"type": "pass"}]
    state.apply(0, {"type": "pass"})
    assert state.current == 1


def test_P_HIDDEN_hands_are_seen_by_their_owner_only():
    state = GAME.setup(4, {}, seed=9)
    for viewer in [None, 0, 1, 2, 3]:
        view = state.view(viewer)
        for shown in view["players"]:
            assert ("hand" in shown) == (shown["seat"] == viewer)
        assert "stock" not in view and "rng" not in str(view)


def test_P_HIDDEN_determinize_keeps_epochs_sizes_and_colour_shapes():
    state = None
    for seed in range(40):
        playout = random_playout(GAME, 4, {}, seed, check=False)
        if playout.final.stock_epoch:
            state = GAME.setup(4, {}, seed)
            for seat, move in playout.moves[: len(playout.moves) - 3]:
                state.apply(seat, move)
            break
    assert state is not None
    other = state.determinize(0, random.Random(5))
    assert other.players[0]["hand"] == state.players[0]["hand"]
    for seat in (1, 2, 3):
        assert other.players[seat]["hand_epochs"] == state.players[seat]["hand_epochs"]
        assert len(other.players[seat]["hand"]) == len(state.players[seat]["hand"])
    assert sorted(other.stock + [c for p in other.players for c in p["hand"]]) == sorted(
        state.stock + [c for p in state.players for c in p["hand"]]
    )


# ---- invariants over whole games ---------------------------------------------------------------
@pytest.mark.parametrize("seats", range(2, 7))
def test_money_cards_and_units_are_conserved_in_every_game(seats):
    for seed in range(8):
        options = {"bankruptcies_to_end": min(2, seats - 1), "property_value": True}
        state = GAME.setup(seats, options, seed)
        money = sum(p["money"] for p in state.players)
        units = sum(m.unit_total(p["units"]) for p in state.players)
        rng = random.Random(seed)
        while not state.is_over():
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_moves(seat)))
            assert sum(p["money"] for p in state.players) == money
            assert sum(m.unit_total(p["units"]) for p in state.players) == units
            cards = state.stock + state.discard + [c for p in state.players for c in p["hand"]]
            assert sorted(cards) == sorted(m.DECK)
            assert all(p["money"] >= 0 for p in state.players)


# ---- P-NO-DEALS --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "deal",
    [
        {"type": "trade", "give": "3H", "to": 1},
        {"type": "loan", "amount": 5, "to": 1},
        {"type": "sell", "column": 3, "row": 5, "to": 1},
    ],
)
def test_P_NO_DEALS_no_trade_loan_or_sale_between_players(deal):
    state = position(hands={0: ["3H", "5C"], 1: ["2D", "3S"]}, owned=[(3, 5, 0)])
    assert all(mv["type"] in {"play", "buy", "decline", "pass"} for mv in state.legal_moves(0))
    before = state.to_dict()
    with pytest.raises(InvalidMove) as refused:  # not a move of this game at all
        state.apply(0, deal)
    assert (
        refused.value.code == "unknown_move_type"
        and "'play', 'buy', 'decline', 'pass'" in refused.value.message
    )
    assert state.to_dict() == before
