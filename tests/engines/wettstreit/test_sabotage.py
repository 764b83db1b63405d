"""Step 3b, sabotage: rules WB-SABOTAGE-* and WB-GAP of docs/rules/wettstreit.md."""

from __future__ import annotations

import pytest

from engines.core import IllegalMove
from engines.wettstreit import city as c
from engines.wettstreit import material as m

from .position import END, build, play, position, rig, rig_die

WEAK = ["gate-2a", "cathedral-4a", "gate-3a"]  # no shield
STRONG = ["tower-1a", "gate-4a", "tower-2a"]  # shields on both towers


def sabotage(target, slot):
    return {"type": "sabotage_city", "target": target, "slot": slot}


def hand_sabotage(target):
    return {"type": "sabotage_hand", "target": target}


def city_moves(state, seat=0):
    return [(mv["target"], mv["slot"]) for mv in state.legal_moves(seat) if mv["type"] == "sabotage_city"]


# ---- WB-SABOTAGE-NEEDS --------------------------------------------------------------------
def test_WB_SABOTAGE_NEEDS_a_saboteur_and_never_against_oneself():
    state = position(3, cities={0: WEAK, 1: STRONG})
    assert city_moves(state) == []
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, sabotage(1, 0))
    assert refused.value.code == "no_saboteur"
    state = position(3, cities={0: WEAK, 1: STRONG}, saboteurs={0: 2})
    assert {t for t, _ in city_moves(state)} == {1}, "the weakest city is one's own, yet never a target"
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, sabotage(0, 0))
    assert refused.value.code == "not_against_yourself"


def test_WB_SABOTAGE_NEEDS_one_sabotage_per_turn():
    state = position(3, cities={1: WEAK}, saboteurs={0: 3})
    rig_die(state, 1, 2)
    play(state, sabotage(1, 0))
    assert state.current == 1 and state.players[0]["saboteurs"] == 2, "the turn ends at once"


# ---- WB-SABOTAGE-TARGET -------------------------------------------------------------------
def test_WB_SABOTAGE_TARGET_the_city_with_the_fewest_shields_any_building():
    state = position(4, cities={1: STRONG, 2: WEAK, 3: ["cathedral-5a"]}, saboteurs={0: 1})
    assert city_moves(state) == [(2, 0), (2, 1), (2, 2), (3, 0)], "ties: the saboteur chooses"
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, sabotage(1, 0))
    assert refused.value.code == "city_not_the_weakest"
    assert c.shields(STRONG) > 0 == c.shields(WEAK)


def test_WB_SABOTAGE_TARGET_a_player_without_a_city_is_no_target():
    state = position(3, cities={2: STRONG}, saboteurs={0: 1})
    assert {t for t, _ in city_moves(state)} == {2}
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, sabotage(1, 0))
    assert refused.value.code == "no_city_to_sabotage"


# ---- WB-SABOTAGE-ROLL, WB-SABOTAGE-PILE, WB-SABOTAGE-RETURN --------------------------------------
def test_WB_SABOTAGE_ROLL_black_dot_the_building_goes_under_the_smaller_pile():
    state = position(
        3, cities={1: WEAK}, saboteurs={0: 1}, face_up=["tower-3a"], face_down=["cathedral-9a", "gate-5a"]
    )
    rig_die(state, m.BLACK_DOT, 1)
    events = play(state, sabotage(1, 1))
    attempt = events[0]
    assert attempt["die"] == "black" and attempt["outcome"] == "success" and attempt["card"] == "cathedral-4a"
    assert state.players[1]["city"] == ["gate-2a", None, "gate-3a"], "a gap in the middle"
    assert state.face_up == ["cathedral-4a", "tower-3a"], "under the smaller pile"
    assert state.players[0]["saboteurs"] == 0 and state.centre_saboteurs == 5


@pytest.mark.parametrize("face", [1, 2])
def test_WB_SABOTAGE_ROLL_one_or_two_fails(face):
    state = position(3, cities={1: WEAK}, saboteurs={0: 1})
    rig_die(state, face, 1)
    events = play(state, sabotage(1, 1))
    assert events[0]["outcome"] == "failure"
    assert state.players[1]["city"] == WEAK
    assert state.centre_saboteurs == 5, "the saboteur returns to the centre whatever happens"


@pytest.mark.parametrize("face", [3, 4, 5])
def test_WB_SABOTAGE_RANSOM_discovered_the_target_may_pay_the_value_to_keep_it(face):
    state = position(3, cities={1: WEAK}, saboteurs={0: 1}, money={1: 6})
    bank = state.bank
    rig_die(state, face)
    events = play(state, sabotage(1, 1))
    assert events[0]["outcome"] == "discovered"
    assert state.phase == "ransom" and state.to_act() == [1]
    assert state.legal_moves(1) == [{"type": "pay_ransom"}, {"type": "refuse_ransom"}]
    assert state.centre_saboteurs == 5
    rig_die(state, 2)
    events = play(state, {"type": "pay_ransom"})
    assert events[0] == {"type": "ransom_paid", "seat": 1, "amount": 4}
    income = next(e for e in events if e["type"] == "income")["received"]
    assert state.players[1]["money"] == 6 - 4 + income and state.bank == bank + 4 - income
    assert state.players[1]["city"] == WEAK and state.current == 1


def test_WB_SABOTAGE_RANSOM_not_paying_loses_the_building():
    state = position(
        3, cities={1: WEAK}, saboteurs={0: 1}, face_up=["tower-3a", "gate-5a"], face_down=["cathedral-9a"]
    )
    rig_die(state, 4)
    play(state, sabotage(1, 2))
    rig_die(state, 2)
    events = play(state, {"type": "refuse_ransom"})
    assert state.players[1]["city"] == ["gate-2a", "cathedral-4a"], "an end building leaves no gap"
    assert state.face_down == ["gate-3a", "cathedral-9a"]
    destroyed = next(e for e in events if e["type"] == "building_destroyed")
    assert destroyed["pile"] == "face_down" and destroyed["card"] == "gate-3a"


def test_WB_SABOTAGE_RANSOM_who_cannot_pay_can_only_let_it_go():
    state = position(3, cities={1: WEAK}, saboteurs={0: 1}, money={1: 3})
    rig_die(state, 5)
    play(state, sabotage(1, 1))
    assert state.legal_moves(1) == [{"type": "refuse_ransom"}]
    with pytest.raises(IllegalMove) as refused:
        state.apply(1, {"type": "pay_ransom"})
    assert refused.value.code == "not_enough_money"


def test_WB_SABOTAGE_PILE_the_face_down_pile_when_both_are_as_big():
    state = position(3, cities={1: WEAK}, saboteurs={0: 1}, face_up=["tower-3a"], face_down=["gate-5a"])
    rig_die(state, m.BLACK_DOT, 1)
    play(state, sabotage(1, 0))
    assert state.face_down == ["gate-2a", "gate-5a"] and state.face_up == ["tower-3a"]


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_WB_SABOTAGE_RETURN_the_saboteur_goes_back_to_the_centre_whatever_the_outcome(face):
    state = position(3, cities={1: WEAK}, saboteurs={0: 2})
    rig_die(state, face, 1)
    play(state, sabotage(1, 0))
    assert state.players[0]["saboteurs"] == 1 and state.centre_saboteurs == 4


# ---- WB-SABOTAGE-HAND -----------------------------------------------------------------------
FIVE = ["gate-2a", "cathedral-4a", "gate-3a", "town-hall-5a", "tower-1a"]


def test_WB_SABOTAGE_HAND_a_hand_of_five_loses_a_random_card_whatever_its_shields():
    state = position(
        3,
        hands={1: FIVE, 2: FIVE[:0]},
        cities={1: STRONG, 2: WEAK},
        saboteurs={0: 1},
        face_up=["tower-3a"],
        face_down=["gate-5a", "cathedral-9a"],
    )
    assert {"type": "sabotage_hand", "target": 1} in state.legal_moves(0)
    rig(state, [(5, 3), (6, 1)])
    events = play(state, hand_sabotage(1))
    assert state.players[1]["hand"] == ["gate-2a", "cathedral-4a", "gate-3a", "tower-1a"]
    assert state.face_up == ["town-hall-5a", "tower-3a"], "under the smaller pile, face up"
    assert events[0]["card"] == "town-hall-5a", "laid face up, everyone sees it"
    assert state.centre_saboteurs == 5


def test_WB_SABOTAGE_HAND_under_the_face_down_pile_only_the_victim_knows_the_card():
    state = position(
        3, hands={1: FIVE}, saboteurs={0: 1}, face_up=["tower-3a", "gate-5a"], face_down=["cathedral-9a"]
    )
    rig(state, [(5, 0), (6, 1)])
    events = play(state, hand_sabotage(1))
    assert state.face_down == ["gate-2a", "cathedral-9a"]
    assert events[0]["secret"] == {"to": [1], "fields": {"card": "gate-2a"}}
    assert state.view(1)["face_down"]["known"] == [{"depth": 1, "card": "gate-2a"}]
    assert state.view(0)["face_down"]["known"] == [] and state.view(2)["face_down"]["known"] == []


def test_WB_SABOTAGE_HAND_needs_five_cards_and_allows_no_defence():
    state = position(3, hands={1: FIVE[:4]}, saboteurs={0: 1})
    assert state.legal_moves(0) == [END]
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, hand_sabotage(1))
    assert refused.value.code == "hand_too_small"
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, hand_sabotage(0))
    assert refused.value.code == "not_against_yourself"


# ---- WB-GAP --------------------------------------------------------------------------------
def test_WB_GAP_a_gap_is_never_refilled_and_the_ends_stay_open():
    city = ["gate-2a", None, "gate-3a"]
    state = position(3, hands={0: ["cathedral-4a"]}, cities={0: city})
    assert {(mv["card"], mv["end"]) for mv in state.legal_moves(0) if mv["type"] == "build"} == {
        ("cathedral-4a", "left"),
        ("cathedral-4a", "right"),
    }
    play(state, build("cathedral-4a", "right"), END)
    assert state.players[0]["city"] == ["gate-2a", None, "gate-3a", "cathedral-4a"]


def test_WB_GAP_an_end_building_removed_shortens_the_city():
    city = ["gate-2a", None, "gate-3a"]
    c.remove(city, 2)
    assert city == ["gate-2a"], "the gap at the new end disappears with it"
    c.remove(city, 0)
    assert city == []


def test_WB_GAP_a_city_sabotaged_to_nothing_is_rebuilt_one_card_at_a_time():
    state = position(3, hands={0: ["cathedral-4a"]}, cities={0: []}, has_built={0: True})
    play(state, build("cathedral-4a"), END)
    assert state.players[0]["city"] == ["cathedral-4a"]
