"""The six actions, their bonuses, the Statue of Liberty, Phase 0/I/III and the end of a round."""

from __future__ import annotations

import pytest

from engines.core import IllegalMove
from engines.new_york_city import board as b
from engines.new_york_city import cards as c
from engines.new_york_city import press

from .helpers import (
    DISTRICT,
    bid,
    clear_phase1,
    give_characters,
    new_game,
    play,
    set_cards,
    set_press,
    start_bidding,
)

RED, YELLOW, BLUE = 0, 1, 2


def three_players(**hands):
    state = new_game(3, seed=0)
    clear_phase1(state)
    set_press(state, (b.BLACK, 7), (RED, 3), (YELLOW, 2), (BLUE, 1))
    for name, hand in hands.items():
        set_cards(state, {"red": RED, "yellow": YELLOW, "blue": BLUE}[name], hand=hand)
    return state


# ---- NYC-PRESS-TRACK, NYC-TIES, NYC-ORDER --------------------------------------------------------
def test_NYC_PRESS_TRACK_a_pawn_stopping_on_a_pawn_goes_on_top():
    track = [[0, 4], [1, 2]]
    press.move(track, 1, 2)
    assert track == [[1, 4], [0, 4]]


def test_NYC_PRESS_TRACK_on_the_last_space_a_pawn_goes_under():
    track = [[0, 15], [1, 12]]
    assert press.move(track, 1, 6) == 15
    assert track == [[0, 15], [1, 15]]
    assert press.order(track) == [0, 1]


def test_NYC_TIES_the_rulebook_examples_of_the_track():
    """Red first, yellow second, blue third; with a tie, the pawn on top wins."""
    track = [[b.BLACK, 8], [0, 5], [1, 3], [2, 3]]
    assert press.order(track) == [0, 1, 2], "the black pawn is ignored in play order"
    assert press.standing(track)[b.BLACK] == 0, "but counts in majority ties"


def test_NYC_ORDER_phase_one_goes_from_the_last_on_the_press_track():
    state = new_game(3, seed=6)
    order = list(reversed(press.order(state.press)))
    seen = []
    while state.stage == "pick":
        seen.append(state.actor)
        state.apply(state.actor, {"type": "take_pair", "pair": 0})
        if state.stage == "pick" and state.turn and not state.turn["takes"] - state.turn["taken"]:
            state.apply(state.actor, {"type": "done"})
    assert seen == order + order


# ---- NYC-PHASE0, NYC-PHASE1, NYC-ROUNDS ----------------------------------------------------------
@pytest.mark.parametrize(
    ("seats", "toms", "pairs"), [(4, 0, 9), (3, 0, 7), (2, 0, 5), (1, 1, 3), (1, 2, 4), (2, 1, 6)]
)
def test_NYC_PHASE0_pairs_revealed_by_player_count(seats, toms, pairs):
    state = new_game(seats, seed=1, toms=toms)
    assert len(state.pairs) == pairs


def test_NYC_PHASE0_mayor_tiles_cards_and_dollars_back():
    state = new_game(2, seed=2)
    assert state.mayor == state.letters.index("A")
    assert len(state.prestige_open) == 2 and len(state.prestige_stack) == 8
    assert [len(p["hand"]) for p in state.players] == [3, 3]
    state.players[0]["on_characters"] = 1
    state.players[0]["used"] = [True] * len(state.players[0]["characters"])
    supply = state.supply_dollars
    state._start_round([])
    assert state.supply_dollars == supply + 1 and state.players[0]["on_characters"] == 0
    assert not any(state.players[0]["used"])
    assert state.mayor == state.letters.index("B")


def test_NYC_ROUNDS_the_mayor_visits_a_to_e_never_x():
    state = new_game(2, seed=3)
    visited = []
    while state.stage != "over":
        if state.round > len(visited):
            visited.append(state.letters[state.mayor])
        seat = state.to_act()[0]
        moves = state.legal_moves(seat)
        state.apply(seat, next((m for m in moves if m["type"] in ("pass", "done", "decline")), moves[0]))
    assert visited == ["A", "B", "C", "D", "E"]
    assert state.result() is not None


def test_NYC_PHASE1_two_pairs_each_seven_cards_in_hand():
    state = new_game(4, seed=4)
    while state.stage == "pick":
        moves = state.legal_moves(state.actor)
        state.apply(state.actor, next(m for m in moves if m["type"] in ("take_pair", "done")))
    assert [len(p["hand"]) for p in state.players] == [7, 7, 7, 7]
    assert [p["pairs_taken"] for p in state.players] == [2, 2, 2, 2]
    assert state.pairs == [] and state.stage == "bid"
    assert c.counts(state.discard) and sum(c.counts(state.discard).values()) == 2, (
        "the pair left is discarded"
    )


def test_NYC_PHASE1_TURN_characters_before_or_after_the_pair_then_done():
    state = new_game(2, seed=5)
    seat = state.actor
    state.players[seat]["characters"], state.players[seat]["used"] = [], []
    give_characters(state, seat, 6)
    assert {"type": "use", "character": 6} in state.legal_moves(seat)
    state.apply(seat, {"type": "take_pair", "pair": 0})
    assert state.actor == seat and {"type": "done"} in state.legal_moves(seat)
    assert not any(m["type"] == "take_pair" for m in state.legal_moves(seat))
    state.apply(seat, {"type": "use", "character": 6})
    assert state.actor != seat, "nothing left to use: the turn ends by itself"


def test_NYC_RESHUFFLE_an_empty_deck_is_rebuilt_from_the_discards():
    state = new_game(2, seed=7)
    state.discard = state.deck[:-1]
    state.deck = state.deck[-1:]
    epoch = state.epoch
    ev = []
    drawn = state._draw(3, ev)
    assert len(drawn) == 3 and state.epoch == epoch + 1
    assert any(e["type"] == "deck_reshuffled" for e in ev)
    assert state.discard == []


def test_NYC_DISCARD_the_discard_pile_is_public():
    state = new_game(2, seed=7)
    state.discard = ["press", "press", "joker"]
    assert state.view(None)["discard"] == {"press": 2, "joker": 1}


# ---- the actions: the rulebook's examples --------------------------------------------------------
def test_NYC_ACT_PRESS_the_rulebook_example():
    state = three_players(red=["press"], yellow=["press", "press"], blue=["press"])
    start_bidding(state, "press")
    bid(state, RED, play("press"))
    bid(state, YELLOW, play("press"), play("press"))
    bid(state, BLUE, play("press"))
    assert state.press == [[b.BLACK, 7], [YELLOW, 5], [RED, 4], [BLUE, 2]]


def test_NYC_ACT_PRESS_the_order_of_moving_matters():
    """Red moves first (leader) and yellow, arriving later on the same space, goes on top."""
    state = three_players(red=["press"], yellow=["press", "press", "press"], blue=["press"])
    set_press(state, (b.BLACK, 7), (RED, 3), (YELLOW, 1), (BLUE, 0))
    start_bidding(state, "press")
    bid(state, RED, play("press"))
    bid(state, YELLOW, play("press"), play("press"))
    bid(state, BLUE, play("press"))
    assert state.press == [[b.BLACK, 7], [YELLOW, 4], [RED, 4], [BLUE, 1]]


def test_NYC_ACT_DOLLARS_the_rulebook_example():
    state = three_players(red=["dollars", "dollars"], yellow=["dollars"], blue=["dollars"])
    start_bidding(state, "dollars", starter=RED)
    before = [p["dollars"] for p in state.players]
    for seat, cards in ((RED, 2), (YELLOW, 1), (BLUE, 1)):
        bid(state, seat, *[play("dollars")] * cards)
    assert [p["dollars"] - before[i] for i, p in enumerate(state.players)] == [3, 1, 1]


def test_NYC_ACT_CHARACTERS_the_rulebook_example():
    state = three_players(red=["characters"] * 2, yellow=["characters"] * 2, blue=["characters"])
    set_press(state, (b.BLACK, 7), (YELLOW, 3), (RED, 2), (BLUE, 1))
    start_bidding(state, "characters", starter=RED)
    for seat, cards in ((RED, 2), (YELLOW, 2), (BLUE, 1)):
        bid(state, seat, *[play("characters")] * cards)
    limits = []
    while state.stage == "character":
        seat = state.actor
        limit = state.view(None)["decision"]["limit"]
        limits.append((seat, limit))
        values = {state_value(m["character"]) for m in state.legal_moves(seat)}
        assert max(values) == limit
        state.apply(seat, next(m for m in state.legal_moves(seat) if state_value(m["character"]) == limit))
        assert (
            state.players[seat]["characters"][-1:]
            and state_value(state.players[seat]["characters"][-1]) == limit
        )
    assert limits == [(YELLOW, 3), (RED, 2), (BLUE, 1)]


def state_value(n):
    from engines.new_york_city import characters as ch

    return ch.VALUE[n]


def test_NYC_ACT_CHARACTERS_the_elevator_refills_from_the_right():
    state = three_players(red=["characters"])
    start_bidding(state, "characters", starter=RED)
    bid(state, RED, play("characters"))
    for seat in (YELLOW, BLUE):
        bid(state, seat)
    row = list(state.display[0])
    top = state.stacks[0][-1]
    state.apply(RED, {"type": "take_character", "character": row[1]})
    assert state.display[0] == [row[0], row[2], row[3], top]


def test_NYC_ACT_PLANS_the_rulebook_example():
    state = three_players(red=["plans"], yellow=["plans"], blue=["plans"] * 3)
    start_bidding(state, "plans", starter=RED)
    for seat, cards in ((RED, 1), (YELLOW, 1), (BLUE, 3)):
        bid(state, seat, *[play("plans")] * cards)
    assert [p["board"] for p in state.players] == [5, 5, 8]
    assert [p["supply"] for p in state.players] == [14, 14, 11]


def test_NYC_ACT_PRESTIGE_the_rulebook_example():
    state = three_players(yellow=["prestige"], blue=["prestige"] * 2)
    state.prestige_open = [4, 6]  # the grey (tram) and brown (metro) tiles, each worth 2
    state.prestige_stack = [t for t in state.prestige_stack if t not in (4, 6)]
    start_bidding(state, "prestige", starter=RED)
    bid(state, RED)
    bid(state, YELLOW, play("prestige"))
    bid(state, BLUE, play("prestige"), play("prestige"))
    assert [p["score"] for p in state.players] == [0, 1, 2]
    assert state.to_act() == [BLUE]
    brooklyn, queens = DISTRICT["brooklyn"], DISTRICT["queens"]
    move = {
        "type": "prestige",
        "tile": 4,
        "connection": 4,
        "district": "brooklyn",
        "from": "board",
        "extra": False,
    }
    assert move in state.legal_moves(BLUE)
    state.apply(BLUE, move)
    assert state.tiles[brooklyn] == [4] and state.towers[brooklyn][BLUE] == 1
    assert state.players[BLUE]["vehicles"] == ["tram"] and 4 not in state.connections
    assert state.to_act() == [YELLOW]
    assert {m["tile"] for m in state.legal_moves(YELLOW) if m["type"] == "prestige"} == {6}
    state.apply(
        YELLOW,
        {
            "type": "prestige",
            "tile": 6,
            "connection": 6,
            "district": "queens",
            "from": "board",
            "extra": False,
        },
    )
    assert state.tiles[queens] == [6] and state.towers[queens][YELLOW] == 1
    assert state.players[YELLOW]["vehicles"] == ["metro"]
    assert state.prestige_open == [] and state.stage != "prestige"


def test_NYC_ACT_PRESTIGE_BONUS_declined_tiles_go_to_the_box_and_the_second_chooses_among_both():
    state = three_players(yellow=["prestige"], blue=["prestige"] * 2)
    start_bidding(state, "prestige", starter=RED)
    open_tiles = list(state.prestige_open)
    bid(state, RED)
    bid(state, YELLOW, play("prestige"))
    bid(state, BLUE, play("prestige"), play("prestige"))
    state.apply(BLUE, {"type": "decline"})
    assert {m["tile"] for m in state.legal_moves(YELLOW) if m["type"] == "prestige"} == set(open_tiles)
    state.apply(YELLOW, {"type": "decline"})
    assert sorted(state.prestige_box) == sorted(open_tiles)


def test_NYC_ACT_PRESTIGE_BONUS_with_an_empty_board_a_skyscraper_may_be_moved():
    state = three_players(blue=["prestige"])
    state.players[BLUE]["board"] = 0
    start_bidding(state, "prestige", starter=RED)
    bid(state, RED)
    bid(state, YELLOW)
    bid(state, BLUE, play("prestige"))
    sources = {m["from"] for m in state.legal_moves(BLUE) if m["type"] == "prestige"}
    x = b.DISTRICTS[state.letters.index("X")]
    assert "none" in sources and x in sources and "board" not in sources
    move = next(m for m in state.legal_moves(BLUE) if m["type"] == "prestige" and m["from"] == x)
    state.apply(BLUE, move)
    assert state.towers[DISTRICT[x]][BLUE] == 0 and state.towers[DISTRICT[move["district"]]][BLUE] == 1


def test_NYC_ACT_PRESTIGE_BONUS_a_tile_without_a_vehicle_cannot_be_placed():
    state = three_players(blue=["prestige"])
    start_bidding(state, "prestige", starter=RED)
    gone = {b.TILE_VEHICLE[t] for t in state.prestige_open}
    state.connections = [k for k in state.connections if b.CONNECTION_VEHICLE[k] not in gone]
    bid(state, RED)
    bid(state, YELLOW)
    bid(state, BLUE, play("prestige"))
    assert state.stage != "prestige", "no placement: the bonus is skipped"
    assert state.players[BLUE]["score"] == 1


def test_NYC_ACT_SKYSCRAPERS_the_rulebook_example():
    state = three_players(red=["skyscrapers"] * 2, yellow=["skyscrapers"] * 2, blue=["skyscrapers"] * 3)
    state.mayor = DISTRICT["manhattan"]
    start_bidding(state, "skyscrapers", starter=RED)
    for seat, cards in ((RED, 2), (YELLOW, 2), (BLUE, 3)):
        bid(state, seat, *[play("skyscrapers")] * cards)
    manhattan = state.towers[DISTRICT["manhattan"]]
    x = int(state.letters[DISTRICT["manhattan"]] == "X")
    assert manhattan == [2 + x, 2 + x, 4 + x]
    assert [p["board"] for p in state.players] == [2, 2, 0]


def test_NYC_ACT_SKYSCRAPERS_compulsory_and_as_many_as_the_board_holds():
    state = three_players(red=["skyscrapers"] * 3)
    state.players[RED]["board"] = 2
    mayor = state.mayor
    start_bidding(state, "skyscrapers", starter=RED)
    bid(state, RED, *[play("skyscrapers")] * 3)
    bid(state, YELLOW)
    bid(state, BLUE)
    assert state.players[RED]["board"] == 0
    assert state.towers[mayor][RED] == 2 + (mayor == state.letters.index("X"))


def test_NYC_ACT_SKYSCRAPERS_an_empty_board_may_move_one_from_another_district():
    state = three_players(red=["skyscrapers"])
    state.players[RED]["board"] = 0
    state.mayor = state.letters.index("A")
    start_bidding(state, "skyscrapers", starter=RED)
    bid(state, RED, play("skyscrapers"))
    bid(state, YELLOW)
    bid(state, BLUE)
    x = b.DISTRICTS[state.letters.index("X")]
    assert state.legal_moves(RED) == [
        {"type": "build", "from": "none", "extra": False},
        {"type": "build", "from": x, "extra": False},
    ]
    with pytest.raises(IllegalMove) as refused:
        state.apply(RED, {"type": "build", "from": "board", "extra": False})
    assert refused.value.code == "board_empty"
    mayor = state.mayor
    state.apply(RED, {"type": "build", "from": x, "extra": False})
    assert state.towers[mayor][RED] == 1 and state.towers[DISTRICT[x]][RED] == 0


# ---- NYC-STATUE ----------------------------------------------------------------------------------
def test_NYC_STATUE_the_first_in_all_six_districts_scores_four_and_turns_the_tile():
    state = three_players()
    state.towers = [[1, 1 if d else 0, 0] for d in range(6)]
    start_bidding(state, "plans", starter=RED)
    for seat in (RED, YELLOW, BLUE):
        bid(state, seat)
    assert state.players[RED]["score"] == 4 and state.statue_flipped
    assert state.view(None)["statue"] == 3
    state.towers[0][YELLOW] = 1
    start_bidding(state, "prestige", starter=RED)
    for seat in (RED, YELLOW, BLUE):
        bid(state, seat)
    assert state.players[YELLOW]["score"] == 0, "only the first get 4"


def test_NYC_STATUE_several_players_in_the_same_bidding_round_all_score_four():
    state = three_players()
    state.towers = [[1, 1, 0] for _ in range(6)]
    start_bidding(state, "dollars", starter=RED)
    for seat in (RED, YELLOW, BLUE):
        bid(state, seat)
    assert [p["score"] for p in state.players] == [4, 4, 0]


# ---- NYC-PHASE3, NYC-ROUND-END -------------------------------------------------------------------
def phase_three(state):
    start_bidding(state, "skyscrapers", starter=RED)
    for seat in list(state.bidding["order"]):
        if state.actor == seat:
            bid(state, seat)
    return state


def test_NYC_PHASE3_characters_in_press_order_then_the_round_ends():
    state = three_players(red=["press"])
    give_characters(state, RED, 24)
    give_characters(state, YELLOW, 26)
    set_press(state, (b.BLACK, 7), (YELLOW, 3), (RED, 2), (BLUE, 1))
    phase_three(state)
    assert state.stage == "phase3" and state.to_act() == [YELLOW]
    state.apply(YELLOW, {"type": "use", "character": 26})
    assert state.players[YELLOW]["board"] == 5 and press.space_of(state.press, YELLOW) == 4
    assert state.to_act() == [RED]
    state.apply(RED, {"type": "use", "character": 24})
    assert state.players[RED]["score"] == 1 and state.players[RED]["board"] == 5
    assert state.round == 2 and state.stage == "pick"
    assert len(state.players[RED]["hand"]) == 3, "the hand was discarded; 3 new cards"
    assert "press" in state.discard


def test_NYC_ROUND_END_the_reserve_stays():
    state = three_players(red=["press"])
    reserve = list(state.players[RED]["reserve"])
    phase_three(state)
    assert state.round == 2 and state.players[RED]["reserve"] == reserve


def test_NYC_ACTION_ORDER_the_press_leader_acts_first_whatever_the_bids():
    state = three_players(red=["characters"], yellow=["characters"] * 3, blue=["characters"] * 2)
    set_press(state, (b.BLACK, 7), (BLUE, 4), (RED, 2), (YELLOW, 1))
    start_bidding(state, "characters", starter=RED)
    for seat, cards in ((RED, 1), (YELLOW, 3), (BLUE, 2)):
        bid(state, seat, *[play("characters")] * cards)
    order = []
    while state.stage == "character":
        order.append(state.actor)
        state.apply(state.actor, state.legal_moves(state.actor)[0])
    assert order == [BLUE, RED, YELLOW]


def test_NYC_SUPPLY_dollars_and_skyscrapers_run_out():
    state = three_players(red=["dollars"] * 3)
    state.supply_dollars = 1
    start_bidding(state, "dollars", starter=RED)
    bid(state, RED, *[play("dollars")] * 3)
    bid(state, YELLOW)
    bid(state, BLUE)
    assert state.players[RED]["dollars"] == 2 and state.supply_dollars == 0
    state = three_players(red=["plans"] * 3)
    state.players[RED]["supply"], state.players[RED]["board"] = 2, 17
    start_bidding(state, "plans", starter=RED)
    bid(state, RED, *[play("plans")] * 3)
    bid(state, YELLOW)
    bid(state, BLUE)
    assert state.players[RED]["board"] == 19 and state.players[RED]["supply"] == 0
