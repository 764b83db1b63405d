"""The final scoring (NYC-FINAL-*, NYC-WINNER)."""

from __future__ import annotations

from engines.new_york_city import board as b
from engines.new_york_city.scoring import final_scores, majorities, majority_points

from .helpers import DISTRICT, clear_phase1, give_characters, new_game, set_press

RED, YELLOW, BLUE = 0, 1, 2


def final(seats=3, seed=19):
    state = new_game(seats, seed=seed)
    clear_phase1(state)
    state.towers = [[0] * seats for _ in b.DISTRICTS]
    state.black = [0] * 6
    for player in state.players:
        player["dollars"], player["board"] = 0, 0
    set_press(state, (b.BLACK, 7), *[(p, 0) for p in range(seats)])
    return state


def test_NYC_FINAL_MAJORITY_halved_rounded_up():
    assert majority_points(14, 5) == [14, 7, 4, 2, 1]
    assert majority_points(9, 3) == [9, 5, 3]


def test_NYC_FINAL_MAJORITY_the_brooklyn_example():
    """Tiles 4 and 2 and base 8: 14. Yellow most: 14; red tied with black but ahead of the
    black pawn: 7; black 4 (fictitious); blue fewest: 2."""
    state = final()
    brooklyn = DISTRICT["brooklyn"]
    state.base[brooklyn] = 8
    state.tiles[brooklyn] = [1, 6]  # a 4 (taxi) and a 2 (metro)
    assert {b.TILE_VALUE[t] for t in state.tiles[brooklyn]} == {4, 2}
    state.towers[brooklyn] = [2, 4, 1]
    state.black[brooklyn] = 2
    set_press(state, (RED, 9), (b.BLACK, 7), (YELLOW, 3), (BLUE, 1))
    assert majorities(state)[brooklyn] == [7, 14, 2]
    set_press(state, (b.BLACK, 9), (RED, 7), (YELLOW, 3), (BLUE, 1))
    assert majorities(state)[brooklyn] == [4, 14, 2], "behind the black pawn, red is third"


def test_NYC_FINAL_MAJORITY_no_skyscraper_no_points():
    state = final()
    q = DISTRICT["queens"]
    state.towers[q] = [0, 1, 0]
    assert majorities(state)[q] == [0, state.base[q], 0]


def test_NYC_FINAL_CHARACTERS_each_scores_its_value():
    state = final()
    give_characters(state, RED, 21, 11, 1)
    assert final_scores(state)["breakdown"][RED]["characters"] == 5 + 4 + 1


def test_NYC_FINAL_DISTRICTS_three_for_all_six_even_after_the_four():
    state = final()
    state.towers = [[1, 1 if d < 5 else 0, 0] for d in range(6)]
    state.statue_flipped = True
    parts = final_scores(state)["breakdown"]
    assert parts[RED]["districts"] == 3 and parts[YELLOW]["districts"] == 0


def test_NYC_FINAL_PRESS_three_from_space_five():
    state = final()
    set_press(state, (b.BLACK, 7), (RED, 5), (YELLOW, 4), (BLUE, 0))
    parts = final_scores(state)["breakdown"]
    assert [p["press"] for p in parts] == [3, 0, 0]


def test_NYC_FINAL_LEFTOVERS_dollars_and_board_skyscrapers_halved_rounded_up():
    state = final()
    state.players[RED]["dollars"], state.players[RED]["board"] = 3, 2
    state.players[YELLOW]["dollars"] = 4
    parts = final_scores(state)["breakdown"]
    assert [p["leftovers"] for p in parts] == [3, 2, 0]


def test_NYC_FINAL_the_total_adds_every_part():
    state = final()
    give_characters(state, RED, 36, 1)
    state.players[RED]["score"] = 11
    state.players[RED]["dollars"] = 1
    state.towers[0] = [2, 0, 0]
    parts = final_scores(state)["breakdown"][RED]
    assert parts["total"] == 11 + 4 + 1 + 2 + state.base[0] + 0 + 0 + 1


def test_NYC_WINNER_most_points_ties_to_the_press_leader():
    state = final()
    for player in state.players:
        player["score"] = 10
    set_press(state, (b.BLACK, 7), (BLUE, 3), (RED, 3), (YELLOW, 1))
    state._finish([])
    result = state.result()
    assert result.ranks == [2, 3, 1] and result.winners == [BLUE]
    assert result.scores == [10, 10, 10]
    assert "automata" not in result.to_dict()


def test_NYC_FINAL_END_CHARACTERS_humans_score_their_conditions():
    state = final()
    give_characters(state, RED, 36, 35)
    state.towers[0] = [3, 0, 0]
    state.towers[1] = [4, 0, 0]
    parts = final_scores(state)["breakdown"][RED]
    assert parts["characters"] == 4 + 5
    assert parts["end_characters"] == 2 + 2 * 2
