"""Players, options, material and setup (docs/rules/new-york-city.md, sections 1–3)."""

from __future__ import annotations

import pytest

from engines.core import InvalidOptions
from engines.new_york_city import GAME, press
from engines.new_york_city import board as b
from engines.new_york_city import cards as c
from engines.new_york_city import characters as ch

from .helpers import ALL_COPIES, card_census, character_census, new_game


# ---- NYC-PLAYERS, NYC-OPT-TOMS, NYC-OPT-LEVEL ----------------------------------------------------
@pytest.mark.parametrize("seats", [1, 2, 3, 4])
def test_NYC_PLAYERS_one_to_four_seats(seats):
    state = GAME.setup(seats, {}, 0)
    assert state.humans == seats
    assert len(state.players) == max(seats, 2)


@pytest.mark.parametrize("seats", [0, 5])
def test_NYC_PLAYERS_no_other_seat_count(seats):
    with pytest.raises(InvalidOptions):
        GAME.setup(seats, {}, 0)


@pytest.mark.parametrize(("seats", "toms"), [(4, 1), (3, 2), (2, 3)])
def test_NYC_PLAYERS_four_colours_for_seats_and_toms(seats, toms):
    with pytest.raises(InvalidOptions) as refused:
        GAME.setup(seats, {"toms": toms}, 0)
    assert refused.value.code == "too_many_players"


def test_NYC_OPT_TOMS_a_single_seat_always_plays_against_tom():
    state = GAME.setup(1, {}, 0)
    assert state.toms == 1 and state.players[1]["tom"] and state.players[1]["name"] == "Tom"
    assert GAME.setup(1, {"toms": 3}, 0).toms == 3
    names = [p["name"] for p in GAME.setup(2, {"toms": 2}, 0).players]
    assert names == ["Seat 0", "Seat 1", "Tom I", "Tom II"]


def test_NYC_OPT_LEVEL_needs_a_tom():
    with pytest.raises(InvalidOptions) as refused:
        GAME.setup(3, {"tom_level": 9}, 0)
    assert refused.value.code == "option_needs_tom"
    state = GAME.setup(3, {"toms": 1, "tom_level": 9}, 0)
    assert (state.tom_mode, state.tom_cards) == ("C", 4)
    assert GAME.setup(1, {}, 0).tom_cards == 4, "the default is the recommended B4"


# ---- NYC-CARDS, NYC-DISTRICTS, NYC-VEHICLES, NYC-PRESTIGE-TILES, NYC-LANTERNS, NYC-CHARACTERS ----
def test_NYC_CARDS_105_cards_15_of_seven_symbols():
    assert len(c.DECK) == 105
    assert c.counts(list(c.DECK)) == {s: 15 for s in c.SYMBOLS}
    assert c.BIDDING_ROUNDS == ("press", "dollars", "characters", "plans", "prestige", "skyscrapers")
    assert card_census(new_game(4)) == {s: 15 for s in c.SYMBOLS}


def test_NYC_DISTRICTS_letters_and_base_values_are_dealt_at_random():
    deals = set()
    for seed in range(8):
        state = GAME.setup(2, {}, seed)
        assert sorted(state.letters) == sorted(b.LETTERS)
        assert sorted(state.base) == [6, 7, 8, 8, 9, 10]
        deals.add((tuple(state.letters), tuple(state.base)))
    assert len(deals) > 1
    assert len(b.DISTRICTS) == 6


def test_NYC_VEHICLES_ten_vehicles_two_of_each_type():
    vehicles = [conn["vehicle"] for conn in b.CONNECTIONS]
    assert sorted(vehicles) == sorted(list(b.VEHICLES) * 2)
    confirmed = {
        (conn["vehicle"], frozenset(conn["districts"])) for conn in b.CONNECTIONS if not conn["reconstructed"]
    }
    assert confirmed == {
        ("tram", frozenset({"brooklyn", "queens"})),
        ("metro", frozenset({"bronx", "queens"})),
    }


def test_NYC_VEHICLES_reconstruction_keeps_the_solo_example_true():
    """Reconstruction: one district touches both taxis and a metro; taxi and metro reach four."""
    reach = {d for conn in b.CONNECTIONS if conn["vehicle"] in ("taxi", "metro") for d in conn["districts"]}
    assert len(reach) == 4
    touching = [
        d
        for d in b.DISTRICTS
        if sum(1 for conn in b.CONNECTIONS if conn["vehicle"] == "taxi" and d in conn["districts"]) == 2
        and any(conn["vehicle"] == "metro" and d in conn["districts"] for conn in b.CONNECTIONS)
    ]
    assert touching == ["manhattan"]


def test_NYC_PRESTIGE_TILES_ten_tiles_two_per_vehicle_of_different_values():
    assert len(b.PRESTIGE_TILES) == 10
    for vehicle in b.VEHICLES:
        values = [t["value"] for t in b.PRESTIGE_TILES if t["vehicle"] == vehicle]
        assert len(values) == 2 and values[0] != values[1]
    assert {2, 4} <= set(b.TILE_VALUE), "the rulebook's Brooklyn example shows a 4 and a 2"


def test_NYC_LANTERNS_brown_is_character_30_and_green_exists():
    assert ch.LANTERN_OF[30] == "brown"
    assert "green" in b.LANTERNS.values() and "brown" in b.LANTERNS.values()
    assert set(ch.LANTERN_OF.values()) <= set(b.LANTERNS.values())


def test_NYC_CHARACTERS_76_tiles_numbered_1_to_42_with_their_phases():
    assert ch.TOTAL_TILES == 76 and ch.NUMBERS == tuple(range(1, 43))
    assert ch.PHASE_I_NUMBERS == tuple(range(1, 12))
    assert ch.PHASE_II_NUMBERS == tuple(range(12, 23))
    assert ch.PHASE_III_NUMBERS == tuple(range(23, 28))
    assert ch.END_NUMBERS == tuple(range(28, 43))
    assert ch.DARK_COPIES[15] >= 2, "the rulebook shows character 15 owned twice"
    assert set(ch.VALUE.values()) == {1, 2, 3, 4, 5}
    assert sum(ch.LIGHT_COPIES.values()) == 12
    assert all(ch.VALUE[n] == 1 for n in ch.LIGHT_COPIES), "reading: starting tiles are worth 1"


def test_NYC_CHAR_FREE_every_character_of_phases_one_to_three_costs_a_dollar():
    """Reconstruction: the 'no Dollar' icon is lost."""
    assert all(ch.NEEDS_DOLLAR[n] for n in range(1, 28))
    assert not any(ch.NEEDS_DOLLAR[n] for n in range(28, 43))


# ---- NYC-SETUP-* ---------------------------------------------------------------------------------
def test_NYC_SETUP_ELEVATOR_four_tiles_of_each_value_face_up():
    state = GAME.setup(2, {}, 3)
    for value, (row, stack) in enumerate(zip(state.display, state.stacks, strict=True), start=1):
        assert len(row) == 4
        assert all(ch.VALUE[n] == value for n in row + stack)
        assert len(row) + len(stack) == len(ch.dark_stack(value))
    assert character_census(state) == ALL_COPIES


@pytest.mark.parametrize(
    ("seats", "toms", "space"), [(2, 0, 8), (3, 0, 7), (4, 0, 6), (1, 1, 8), (1, 2, 7), (2, 2, 6)]
)
def test_NYC_SETUP_BOARD_black_pawn_by_player_count(seats, toms, space):
    state = GAME.setup(seats, {"toms": toms}, 0)
    assert [entry for entry in state.press if entry[0] == b.BLACK] == [[b.BLACK, space]]


def test_NYC_SETUP_BOARD_tiles_statue_vehicles_black_skyscrapers():
    state = GAME.setup(3, {}, 5)
    assert sorted(state.prestige_stack) == list(range(10)) and state.prestige_open == []
    assert not state.statue_flipped and state.view(None)["statue"] == 4
    assert state.connections == list(range(10))
    assert state.black == [2] * 6
    assert state.supply_dollars == 26 - 3


def test_NYC_SETUP_PLAYER_material_of_each_seat():
    state = GAME.setup(3, {}, 2)
    x = state.letters.index("X")
    for p, player in enumerate(state.players):
        assert [state.towers[d][p] for d in range(6)] == [1 if d == x else 0 for d in range(6)]
        assert player["board"] == 4 and player["supply"] == 15
        assert player["dollars"] == 1 and player["score"] == 0
    assert all(space == 0 for who, space in state.press if who != b.BLACK)
    starts = {tuple(press.order(GAME.setup(3, {}, seed).press)) for seed in range(10)}
    assert len(starts) > 1, "pawns are stacked at random on the start space"


def test_NYC_SETUP_RESERVE_two_face_down_cards():
    state = GAME.setup(4, {}, 1)
    for p in range(4):
        assert len(state.players[p]["reserve"]) == 2
        others = state.view((p + 1) % 4)["players"][p]
        assert "reserve" not in others and others["reserve_count"] == 2
        assert state.view(p)["players"][p]["reserve"] == c.sort_cards(state.players[p]["reserve"])


def test_NYC_SETUP_PILES_players_plus_one_piles_of_two_different_characters():
    state = GAME.setup(3, {}, 4)
    assert len(state.piles) == 4
    assert all(len(pile) == 2 and pile[0] != pile[1] and ch.LIGHT_COPIES.get(pile[0]) for pile in state.piles)
    assert len(state.box) == 4


def test_NYC_SETUP_PILES_chosen_from_the_last_on_the_press_track():
    """Rulebook: blue is last on the press track and chooses first, then yellow, then red."""
    state = GAME.setup(3, {}, 4)
    blue, yellow, red = reversed(press.order(state.press))
    chosen = []
    for expected in (blue, yellow, red):
        assert state.to_act() == [expected]
        pile = state.piles[1]
        state.apply(expected, {"type": "choose_pile", "pile": 1})
        chosen.append(pile)
        assert state.players[expected]["characters"] == pile
    assert state.stage == "pick" and state.round == 1
    assert sorted(state.box) == sorted(state.box), "the pile left goes to the box"
    assert len(state.box) == 6 and state.piles == []


def test_NYC_SETUP_PILES_alone_one_pile_per_player_and_tom_takes_the_rest():
    state = GAME.setup(1, {"toms": 2}, 0)
    assert len(state.piles) == 3
    piles = [list(p) for p in state.piles]
    state.apply(0, {"type": "choose_pile", "pile": 2})
    assert state.players[0]["characters"] == piles[2]
    toms = sorted(tuple(state.players[p]["characters"]) for p in (1, 2))
    assert toms == sorted(tuple(p) for p in piles[:2])


def test_NYC_SETUP_PILES_with_toms_one_more_pile_per_tom():
    assert len(GAME.setup(2, {"toms": 1}, 0).piles) == 4
    assert len(GAME.setup(3, {"toms": 1}, 0).piles) == 5
