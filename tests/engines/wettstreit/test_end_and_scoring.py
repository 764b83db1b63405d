"""The end and the scoring: rules WB-END-*, WB-SCORE-*, WB-WINNER, and the rulebook's examples.

The four example cities are research §2.5's reconstructions (the pictures were lost); they
obey the card list and the building rules and reproduce the French text's printed numbers.
"""

from __future__ import annotations

import pytest

from engines.core import GameOver
from engines.wettstreit import city as c
from engines.wettstreit import material as m

from .position import END, PASS, bid, build, play, position, rig_die

UP = {"type": "auction", "pile": "face_up"}

# (city left to right, hand, printed lines, printed total)
EXAMPLES = {
    "example_1": (
        [
            "left-corner-2a",
            "gate-4a",
            "cathedral-7a",
            "town-hall-7a",
            "gate-4b",
            "cathedral-8a",
            "gate-5a",
            "right-corner-2a",
        ],
        ["tower-3a"],
        {"city_value": 39, "cathedral_bonus": 5, "corner_tower_bonus": 5, "hand_penalty": 3},
        46,
    ),
    "example_2": (
        [
            "left-corner-2a",
            "gate-3a",
            "cathedral-5a",
            "town-hall-6a",
            "cathedral-6a",
            "gate-3b",
            "right-corner-2a",
        ],
        [],
        {"city_value": 27, "town_hall_bonus": 10, "cathedral_bonus": 5, "corner_tower_bonus": 5},
        47,
    ),
    "example_3": (
        [
            "left-corner-1a",
            "gate-5a",
            "cathedral-6a",
            "town-hall-6a",
            None,
            "cathedral-9a",
            "gate-5b",
            "right-corner-2a",
        ],
        [],
        {"city_value": 34, "complete": False},
        34,
    ),
    "example_4": (
        ["left-corner-3a", "cathedral-9a", "town-hall-7a", "cathedral-8a", "gate-5a", "cathedral-5a"],
        ["cathedral-7a"],
        {"city_value": 37, "complete": False, "hand_penalty": 7},
        30,
    ),
}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_WB_EXAMPLES_the_rulebooks_four_examples_46_47_34_30(name):
    city, hand, printed, total = EXAMPLES[name]
    scored = c.score(city, hand)
    for line, value in printed.items():
        assert scored[line] == value, line
    assert scored["total"] == total
    if not scored["complete"]:
        assert scored["town_hall_bonus"] == scored["cathedral_bonus"] == scored["corner_tower_bonus"] == 0


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_WB_EXAMPLES_the_example_cities_obey_the_building_rules(name):
    city, _, _, _ = EXAMPLES[name]
    cards = [card for card in city if card]
    ends = c.ends_of([])
    for index, card in enumerate(cards):
        kind = m.KIND[card]
        assert c.placement_error(ends, kind, "right", final_round=index == len(cards) - 1) is None
        ends = c.place_ends(ends, kind, "right")


def test_WB_EXAMPLES_through_a_finished_game():
    state = position(
        4,
        phase="final_build",
        cities={s: EXAMPLES[f"example_{s + 1}"][0] for s in range(4)},
        hands={s: EXAMPLES[f"example_{s + 1}"][1] for s in range(4)},
    )
    state.final_queue = [0, 1, 2, 3]
    events = play(state, END, END, END, END)
    result = state.result()
    assert result.scores == [46, 47, 34, 30]
    assert result.ranks == [2, 1, 3, 4] and result.winners == [1]
    assert events[-1]["type"] == "game_over" and events[-1]["result"]["scores"] == [46, 47, 34, 30]
    assert result.breakdown[0]["hand"] == ["tower-3a"]
    with pytest.raises(GameOver):
        state.apply(0, END)


def test_WB_SCORE_VALUE_each_building_scores_its_value_gaps_nothing():
    city = ["gate-2a", "cathedral-9a", None, "town-hall-7a", "tower-3a"]
    scored = c.score(city, [])
    assert scored["city_value"] == 2 + 9 + 7 + 3 == scored["total"]


# ---- WB-SCORE-COMPLETE, WB-SCORE-TOWN-HALL, WB-SCORE-CATHEDRALS, WB-SCORE-CORNER-TOWERS ------------
def test_WB_SCORE_COMPLETE_needs_both_corner_towers_at_their_ends_and_no_gap():
    assert c.is_complete(["left-corner-1a", "gate-2a", "right-corner-1a"])
    assert not c.is_complete(["left-corner-1a", "gate-2a", "cathedral-4a"])
    assert not c.is_complete(["gate-2a", "cathedral-4a", "right-corner-1a"])
    assert not c.is_complete(["left-corner-1a", "gate-2a", None, "cathedral-4a", "right-corner-1a"])


def test_WB_SCORE_TOWN_HALL_exactly_in_the_middle_of_an_odd_city():
    middle = ["left-corner-1a", "gate-2a", "town-hall-5a", "gate-3a", "right-corner-2a"]
    assert c.score(middle, [])["town_hall_bonus"] == 10
    off = ["left-corner-1a", "town-hall-5a", "gate-2a", "cathedral-4a", "right-corner-2a"]
    assert c.score(off, [])["town_hall_bonus"] == 0
    even = ["left-corner-1a", "gate-2a", "town-hall-5a", "gate-3a", "cathedral-4a", "right-corner-2a"]
    assert c.score(even, [])["town_hall_bonus"] == 0, "no middle card in an even city"


def test_WB_SCORE_CATHEDRALS_as_many_on_each_side_of_the_town_hall_and_not_none():
    two_two = [
        "left-corner-1a",
        "cathedral-4a",
        "gate-2a",
        "cathedral-5a",
        "town-hall-5a",
        "cathedral-6a",
        "gate-3a",
        "cathedral-7a",
        "right-corner-1b",
    ]
    scored = c.score(two_two, [])
    assert (
        scored["cathedral_bonus"] == 5
        and scored["town_hall_bonus"] == 10
        and scored["corner_tower_bonus"] == 5
    )
    off_centre = [
        "left-corner-1a",
        "cathedral-4a",
        "town-hall-5a",
        "cathedral-5a",
        "gate-2a",
        "right-corner-2a",
    ]
    assert c.score(off_centre, [])["cathedral_bonus"] == 5, "whatever the town hall's position"
    none = ["left-corner-1a", "gate-2a", "town-hall-5a", "gate-3a", "right-corner-2a"]
    assert c.score(none, [])["cathedral_bonus"] == 0
    uneven = ["left-corner-1a", "cathedral-4a", "town-hall-5a", "gate-2a", "right-corner-2a"]
    assert c.score(uneven, [])["cathedral_bonus"] == 0
    no_hall = ["left-corner-1a", "cathedral-4a", "gate-2a", "cathedral-5a", "right-corner-2a"]
    assert c.score(no_hall, [])["cathedral_bonus"] == 0


def test_WB_SCORE_CORNER_TOWERS_both_of_the_same_value():
    assert c.score(["left-corner-3a", "gate-2a", "right-corner-3a"], [])["corner_tower_bonus"] == 5
    assert c.score(["left-corner-3a", "gate-2a", "right-corner-2a"], [])["corner_tower_bonus"] == 0


def test_WB_SCORE_HAND_and_WB_SCORE_NOTHING_ELSE_hand_deducted_money_and_saboteurs_nothing():
    state = position(
        3,
        phase="final_build",
        cities={0: ["gate-2a", "cathedral-4a", "gate-3a"]},
        hands={0: ["town-hall-5a", "tower-1a"]},
        money={0: 40, 1: 0, 2: 0},
        saboteurs={0: 3},
    )
    state.final_queue = [1, 2, 0]
    state.current = 1
    play(state, END, END, END)
    result = state.result()
    assert result.scores[0] == 9 - 6 and result.scores[1:] == [0, 0]
    assert result.breakdown[0]["hand_penalty"] == 6
    assert result.winners == [0]


def test_WB_WINNER_equal_totals_share_the_rank():
    state = position(
        3,
        phase="final_build",
        cities={0: ["gate-2a", "cathedral-4a"], 1: ["gate-3a", "cathedral-5a", "tower-1a"]},
    )
    state.final_queue = [0, 1, 2]
    play(state, END, END, END)
    assert state.result().scores == [6, 9, 0]
    state = position(
        3,
        phase="final_build",
        cities={0: ["gate-4a", "cathedral-5a"], 1: ["gate-3a", "cathedral-5b", "tower-1a"]},
    )
    state.final_queue = [0, 1, 2]
    play(state, END, END, END)
    assert state.result().ranks == [1, 1, 3] and state.result().winners == [0, 1]


# ---- WB-END-TRIGGER, WB-END-FINAL-ROUND ----------------------------------------------------------
def test_WB_END_TRIGGER_the_last_card_of_a_pile_is_auctioned_then_the_player_still_acts():
    state = position(
        3,
        current=1,
        phase="choose_pile",
        face_up=["gate-2a"],
        hands={1: ["cathedral-4a"]},
        cities={1: ["town-hall-5a", "gate-4a", "tower-1a"], 2: ["cathedral-5a", "gate-5a", "cathedral-6a"]},
        saboteurs={1: 1},
    )
    events = play(state, UP, bid(2), PASS, PASS)
    assert {"type": "pile_exhausted", "pile": "face_up"} in events and state.end_triggered
    assert state.phase == "build_or_sabotage" and state.to_act() == [1]
    types = {mv["type"] for mv in state.legal_moves(1)}
    assert types == {"build", "sabotage_city", "end_turn"}, "this player may still build or sabotage"
    events = play(state, build("cathedral-4a", "left"), END)
    assert events[-1] == {"type": "final_round", "order": [2, 0, 1]}
    assert state.phase == "final_build" and state.to_act() == [2]


def test_WB_END_FINAL_ROUND_everyone_adds_up_to_three_cards_the_trigger_last():
    state = position(
        3,
        current=2,
        phase="final_build",
        hands={0: ["right-corner-1a", "gate-2a", "town-hall-5a", "cathedral-4a"], 1: ["tower-1a"]},
        cities={0: ["left-corner-1a", "cathedral-5a", "gate-3a"]},
    )
    state.final_queue = [2, 0, 1]
    state.end_triggered = True
    assert state.legal_moves(2) == [END]
    play(state, END)
    assert state.to_act() == [0]
    moves = state.legal_moves(0)
    assert {mv["type"] for mv in moves} == {"build", "end_turn"}, "no sabotage in the final round"
    play(
        state,
        build("town-hall-5a", "right"),
        build("cathedral-4a", "right"),
        build("right-corner-1a", "right"),
    )
    assert state.players[0]["city"] == [
        "left-corner-1a",
        "cathedral-5a",
        "gate-3a",
        "town-hall-5a",
        "cathedral-4a",
        "right-corner-1a",
    ]
    assert state.to_act() == [1], "three cards at most, then the next player"
    assert state.players[0]["hand"] == ["gate-2a"]
    play(state, END)
    assert state.is_over() and state.to_act() == []
    assert state.result().breakdown[0]["complete"]


def test_WB_END_no_income_or_auction_after_the_trigger():
    state = position(3, current=0, phase="build_or_sabotage")
    state.end_triggered = True
    rig_die(state, 5)
    money = [p["money"] for p in state.players]
    events = play(state, END)
    assert [p["money"] for p in state.players] == money
    assert not any(e["type"] in ("income", "turn_started") for e in events)
