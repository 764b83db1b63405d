"""Step 3a, building: rules WB-BUILD-* of docs/rules/wettstreit.md."""

from __future__ import annotations

import pytest

from engines.core import IllegalMove
from engines.wettstreit import city as c

from .position import END, build, play, position, rig_die


def placements(state, seat=0):
    return {(mv["card"], mv["end"]) for mv in state.legal_moves(seat) if mv["type"] == "build"}


def refused(state, move, seat=0):
    before = state.to_dict()
    with pytest.raises(IllegalMove) as error:
        state.apply(seat, move)
    assert state.to_dict() == before
    return error.value.code


# ---- WB-BUILD-FIRST -------------------------------------------------------------------------
def test_WB_BUILD_FIRST_exactly_three_cards_side_by_side():
    hand = ["gate-2a", "cathedral-4a", "town-hall-5a", "gate-3a"]
    state = position(3, hands={0: hand})
    rig_die(state, 2)
    play(state, build("gate-2a"))
    assert state.players[0]["city"] == [] and state.players[0]["hand"] == hand, "set out, not built"
    assert END not in state.legal_moves(0)
    assert refused(state, END) == "first_build_needs_three_cards"
    play(state, build("cathedral-4a", "right"))
    events = play(state, build("gate-3a", "right"))
    assert state.players[0]["city"] == ["gate-2a", "cathedral-4a", "gate-3a"]
    assert state.players[0]["hand"] == ["town-hall-5a"] and state.players[0]["has_built"]
    built = next(e for e in events if e["type"] == "turn_ended")
    assert [b["card"] for b in built["built"]] == ["gate-2a", "cathedral-4a", "gate-3a"]
    assert state.current == 1, "building the third card ends the turn"


def test_WB_BUILD_FIRST_nothing_is_offered_that_cannot_make_three():
    # Two gates and a cathedral: only gate-cathedral-gate works, so a gate must start it
    # and the cathedral must come second.
    state = position(3, hands={0: ["gate-2a", "gate-3a", "cathedral-4a", "tower-1a"]})
    assert placements(state) >= {("gate-2a", "right"), ("cathedral-4a", "right"), ("tower-1a", "right")}
    play(state, build("gate-2a"))
    assert placements(state) == {
        ("cathedral-4a", "left"),
        ("cathedral-4a", "right"),
        ("tower-1a", "left"),
        ("tower-1a", "right"),
    }
    state = position(3, hands={0: ["gate-2a", "gate-3a", "gate-4a"]})
    assert placements(state) == set(), "three gates can never stand side by side"
    assert state.legal_moves(0) == [END]


def test_WB_BUILD_FIRST_fewer_than_three_cards_cannot_start_a_city():
    state = position(3, hands={0: ["gate-2a", "cathedral-4a"]})
    assert state.legal_moves(0) == [END]
    assert refused(state, build("gate-2a")) == "first_build_needs_three_cards"


# ---- WB-BUILD-LATER -------------------------------------------------------------------------
def test_WB_BUILD_LATER_one_to_three_cards_at_either_end():
    city = ["gate-2a", "cathedral-4a", "gate-3a"]
    hand = ["town-hall-5a", "cathedral-5a", "tower-1a", "town-hall-6a"]
    state = position(3, hands={0: hand}, cities={0: city})
    assert ("town-hall-5a", "left") in placements(state) and ("town-hall-5a", "right") in placements(state)
    play(state, build("town-hall-5a", "left"))
    assert END in state.legal_moves(0), "one card is enough after the first build"
    play(state, END)
    assert state.players[0]["city"] == ["town-hall-5a", "gate-2a", "cathedral-4a", "gate-3a"]


def test_WB_BUILD_LATER_at_most_three_cards_then_the_turn_ends():
    city = ["gate-2a", "cathedral-4a", "gate-3a"]
    hand = ["town-hall-5a", "cathedral-5a", "tower-1a", "gate-4a"]
    state = position(3, hands={0: hand}, cities={0: city})
    play(state, build("cathedral-5a", "right"), build("tower-1a", "right"))
    assert state.current == 0
    play(state, build("town-hall-5a", "left"))
    assert state.players[0]["city"] == [
        "town-hall-5a",
        "gate-2a",
        "cathedral-4a",
        "gate-3a",
        "cathedral-5a",
        "tower-1a",
    ]
    assert state.current == 1


def test_WB_BUILD_ONE_CITY_one_row_whose_cards_never_move():
    city = ["gate-2a", "cathedral-4a", "gate-3a"]
    state = position(3, hands={0: ["town-hall-5a"]}, cities={0: city})
    play(state, build("town-hall-5a", "right"), END)
    assert state.players[0]["city"][:3] == city


# ---- WB-BUILD-NEIGHBOURS ----------------------------------------------------------------------
def test_WB_BUILD_NEIGHBOURS_never_two_of_a_type_side_by_side():
    state = position(
        3, hands={0: ["gate-4a", "cathedral-5a"]}, cities={0: ["gate-2a", "cathedral-4a", "gate-3a"]}
    )
    assert placements(state) == {("cathedral-5a", "left"), ("cathedral-5a", "right")}
    assert refused(state, build("gate-4a", "right")) == "same_type_side_by_side"


def test_WB_BUILD_NEIGHBOURS_towers_and_corner_towers_are_one_type():
    state = position(
        3, hands={0: ["left-corner-2a", "tower-2a"]}, cities={0: ["tower-1a", "gate-3a", "cathedral-4a"]}
    )
    assert refused(state, build("left-corner-2a", "left")) == "same_type_side_by_side"
    state = position(3, hands={0: ["tower-2a"]}, cities={0: ["left-corner-1a", "gate-3a", "cathedral-4a"]})
    assert placements(state) == {("tower-2a", "right")}
    state = position(
        3,
        hands={0: ["tower-2a"]},
        cities={0: ["left-corner-1a", "gate-3a", "right-corner-1a"]},
        has_built={0: True},
    )
    assert placements(state) == set()


# ---- WB-BUILD-CORNER --------------------------------------------------------------------------
def test_WB_BUILD_CORNER_a_city_may_start_with_a_corner_tower():
    state = position(3, hands={0: ["left-corner-1a", "gate-2a", "cathedral-4a"]})
    play(state, build("left-corner-1a", "left"), build("gate-2a", "right"), build("cathedral-4a", "right"))
    assert state.players[0]["city"] == ["left-corner-1a", "gate-2a", "cathedral-4a"]


def test_WB_BUILD_CORNER_a_corner_tower_is_the_edge_at_its_own_side():
    state = position(
        3,
        hands={0: ["left-corner-1a", "right-corner-1a", "town-hall-5a"]},
        cities={0: ["gate-2a", "cathedral-4a", "gate-3a"]},
    )
    assert refused(state, build("left-corner-1a", "right")) == "corner_tower_wrong_end"
    assert refused(state, build("right-corner-1a", "left")) == "corner_tower_wrong_end"
    state = position(
        3, hands={0: ["town-hall-5a"]}, cities={0: ["left-corner-1a", "gate-2a", "cathedral-4a"]}
    )
    assert placements(state) == {("town-hall-5a", "right")}
    assert refused(state, build("town-hall-5a", "left")) == "end_closed_by_corner_tower"


def test_WB_BUILD_CORNER_the_second_corner_tower_only_in_the_final_round():
    city = ["left-corner-1a", "gate-2a", "cathedral-4a"]
    state = position(3, hands={0: ["right-corner-1a"]}, cities={0: city})
    assert refused(state, build("right-corner-1a", "right")) == "second_corner_tower_final_round_only"
    state = position(3, phase="final_build", hands={0: ["right-corner-1a"]}, cities={0: city})
    state.final_queue = [0, 1, 2]
    play(state, build("right-corner-1a", "right"), END)
    assert state.players[0]["city"] == city + ["right-corner-1a"]


def test_WB_BUILD_CORNER_no_two_corner_towers_in_a_first_build_before_the_end():
    hand = ["left-corner-1a", "town-hall-5a", "right-corner-2a"]
    state = position(3, hands={0: hand})
    assert state.legal_moves(0) == [END]
    state = position(3, phase="final_build", hands={0: hand})
    state.final_queue = [0, 1, 2]
    play(state, build("town-hall-5a"), build("left-corner-1a", "left"), build("right-corner-2a", "right"))
    assert state.players[0]["city"] == ["left-corner-1a", "town-hall-5a", "right-corner-2a"]


# ---- WB-BUILD-TOWN-HALL -----------------------------------------------------------------------
def test_WB_BUILD_TOWN_HALL_one_town_hall_per_city():
    state = position(3, hands={0: ["town-hall-6a"]}, cities={0: ["town-hall-5a", "gate-2a", "cathedral-4a"]})
    assert refused(state, build("town-hall-6a", "right")) == "one_town_hall_per_city"
    state = position(
        3,
        hands={0: ["town-hall-6a", "town-hall-5a", "gate-2a"]},
        cities={0: ["cathedral-4a", "gate-3a", "cathedral-5a"]},
    )
    play(state, build("town-hall-6a", "left"))
    assert ("town-hall-5a", "right") not in placements(state), "one set out already counts"


def test_WB_BUILD_TOWN_HALL_a_sabotaged_town_hall_may_be_replaced():
    state = position(3, hands={0: ["town-hall-6a"]}, cities={0: ["gate-2a", "cathedral-4a", None, "gate-3a"]})
    assert ("town-hall-6a", "left") in placements(state)


# ---- WB-BUILD-OR-SABOTAGE, WB-BUILD-PRIVATE ------------------------------------------------------
def test_WB_BUILD_OR_SABOTAGE_one_or_the_other_or_neither():
    state = position(
        3,
        hands={0: ["town-hall-5a"]},
        cities={0: ["gate-2a", "cathedral-4a", "gate-3a"], 1: ["cathedral-5a", "gate-4a", "cathedral-6a"]},
        saboteurs={0: 1},
    )
    types = {mv["type"] for mv in state.legal_moves(0)}
    assert types == {"build", "sabotage_city", "end_turn"}
    play(state, build("town-hall-5a", "left"))
    assert {mv["type"] for mv in state.legal_moves(0)} == {"end_turn"}
    assert refused(state, {"type": "sabotage_city", "target": 1, "slot": 0}) == "already_building"
    play(state, END)
    assert state.players[0]["saboteurs"] == 1


def test_WB_BUILD_STEPS_cards_set_out_are_seen_by_their_owner_only():
    state = position(3, hands={0: ["gate-2a", "cathedral-4a", "gate-3a"]})
    events = play(state, build("gate-2a"))
    assert events[0]["secret"] == {"to": [0], "fields": {"card": "gate-2a", "end": "right"}}
    assert state.view(0)["players"][0]["set_out"] == [{"card": "gate-2a", "end": "right"}]
    for viewer in (1, 2, None):
        shown = state.view(viewer)["players"][0]
        assert "set_out" not in shown and shown["hand_size"] == 3 and shown["city"] == []


def test_WB_BUILD_the_city_signature_decides_placements():
    ends = c.ends_of(["left-corner-1a", "gate-2a", None, "town-hall-5a"])
    assert ends == c.Ends("left-corner", "town-hall", True, 1)
    assert c.placement_error(ends, "cathedral", "right", False) is None
    assert c.placement_error(ends, "cathedral", "left", False) == "end_closed_by_corner_tower"
