"""Scoring: districts (FA-DISTRICT-SCORE), the end (FA-FINAL-SCORE, FA-PARK-SCORE, FA-WINNER).

The rulebook's numbers: 1 / 2 / 3 / 5 / 8 points for 0 to 4 different shops beside a
skyscraper; its three pictures (Blue 4 and Yellow 2; Blue 4, Yellow 3 and Red 6; Blue 10
and Yellow 8); Central Park's 2 / 3 / 5 for 1 to 3 different shops among 3 tiles revealed.
The pictures are lost: each board here is one that gives the printed numbers.
"""

from __future__ import annotations

import pytest

from engines.fifth_avenue import board
from engines.fifth_avenue import material as m

from .helpers import TS, empty_board, first, new_game, put, set_hand, types

BLUE, YELLOW, RED = 0, 1, 2


def score(state, district=TS):
    state.pawns["white"] = district
    state.phase, state.current = "choose_action", BLUE
    state.turn = {"action": None, "step": 0, "taken": []}
    state.apply(BLUE, {"type": "choose_action", "action": "D"})
    return first(state.apply(BLUE, {"type": "score_district", "district": district}), "district_scored")


def test_FA_DISTRICT_SCORE_the_table_of_points():
    assert m.POINTS_BY_DIFFERENT_SHOPS == (1, 2, 3, 5, 8)
    shops = ("fashion", "jewellery", "gallery", "perfumery")
    for different in range(5):
        state = new_game(3)
        empty_board(state)
        put(state, TS, 0, owner=BLUE, count=1)
        put(state, TS, 1, shops=shops[: min(different, 2)])
        put(state, TS, 4, shops=shops[2:different])
        assert score(state)["points"][BLUE] == m.POINTS_BY_DIFFERENT_SHOPS[different]


def test_FA_DISTRICT_SCORE_different_shops_count_not_tiles():
    state = new_game(3)
    empty_board(state)
    put(state, TS, 0, owner=BLUE, count=1)
    put(state, TS, 1, shops=("fashion", "fashion"))
    put(state, TS, 4, shops=("fashion",))
    assert board.different_shops_beside(state.districts[3]["plots"], 0) == 1
    assert score(state)["points"][BLUE] == 2


def test_FA_DISTRICT_SCORE_only_the_two_plots_directly_beside():
    state = new_game(3)
    empty_board(state)
    put(state, TS, 0, owner=BLUE, count=1)
    put(state, TS, 2, shops=("fashion", "gallery"))
    put(state, TS, 3, shops=("perfumery", "jewellery"))
    assert score(state)["points"][BLUE] == 1


def test_FA_DISTRICT_SCORE_rulebook_picture_one_blue_4_yellow_2():
    state = new_game(3)
    empty_board(state)
    put(state, TS, 0, owner=BLUE, count=2)
    put(state, TS, 1, shops=("fashion",))
    put(state, TS, 2, owner=YELLOW, count=1)
    assert score(state)["points"] == [4, 2, 0]
    assert [p["score"] for p in state.players] == [4, 2, 0]
    assert state.players[BLUE]["points"]["district_scorings"] == 4


def test_FA_DISTRICT_SCORE_rulebook_picture_two_blue_4_yellow_3_red_6():
    state = new_game(3)
    empty_board(state)
    put(state, TS, 0, owner=BLUE, count=2)
    put(state, TS, 1, owner=YELLOW, count=1)
    put(state, TS, 2, shops=("fashion", "jewellery"))
    put(state, TS, 3, owner=RED, count=2)
    put(state, TS, 4, shops=("fashion",))
    assert score(state)["points"] == [4, 3, 6]


def test_FA_DISTRICT_SCORE_rulebook_picture_three_blue_10_yellow_8():
    state = new_game(3)
    empty_board(state)
    put(state, TS, 0, shops=("fashion", "jewellery"))
    put(state, TS, 1, owner=YELLOW, count=1)
    put(state, TS, 2, shops=("gallery", "perfumery"))
    put(state, TS, 3, owner=BLUE, count=2)
    put(state, TS, 4, shops=("fashion",))
    assert score(state)["points"] == [10, 8, 0]


def test_FA_DISTRICT_SCORE_a_six_plot_ring_has_its_own_neighbours():
    state = new_game(4, six=True)
    empty_board(state)
    put(state, TS, 0, owner=BLUE, count=1)
    put(state, TS, 5, shops=("fashion",))
    put(state, TS, 1, shops=("gallery",))
    put(state, TS, 3, shops=("perfumery",))  # opposite: not beside
    assert score(state)["points"][BLUE] == 3


# ---- FA-FINAL-SCORE, FA-PARK-SCORE, FA-WINNER ----------------------------------------------------
def end_by_last_shop(state, last_tile="gallery"):
    """Seat 0 places the 12th shop; ``last_tile``, left alone in its block, goes under the park."""
    state.phase, state.current = "choose_action", 0
    state.turn = {"action": None, "step": 0, "taken": []}
    state.shops_placed = 11
    state.blocks = [[] for _ in range(7)] + [["fashion", last_tile]]
    state.apply(0, {"type": "choose_action", "action": "B"})
    free = next(
        (d, state.rings[m.DISTRICT_INDEX[d]][i])
        for d in m.DISTRICT_IDS
        for i, p in enumerate(state.districts[m.DISTRICT_INDEX[d]]["plots"])
        if board.takes_a_shop(p) and not state.districts[m.DISTRICT_INDEX[d]]["closed"]
    )
    return state.apply(0, {"type": "place_shop", "shop": "fashion", "district": free[0], "plot": free[1]})


def test_FA_FINAL_SCORE_every_open_district_once_more_then_central_park():
    state = new_game(3)
    empty_board(state)
    put(state, TS, 0, owner=BLUE, count=2)
    put(state, TS, 1, shops=("jewellery",))
    put(state, "34th-street-west", 2, owner=YELLOW, count=1)
    put(state, "52nd-street-east", 2, owner=RED, count=3)
    state.districts[m.DISTRICT_INDEX["52nd-street-east"]]["closed"] = True
    state.closed_order = ["52nd-street-east"]
    state.under_park = ["gallery", "gallery", "gallery"]
    state.players[RED]["park"] = 2
    events = end_by_last_shop(state)
    scored = [e["district"] for e in events if e["type"] == "district_scored"]
    assert "52nd-street-east" not in scored and len(scored) == 6
    assert [p["points"]["final_districts"] for p in state.players] == [4, 1, 0]
    assert first(events, "central_park_scored")["per_skyscraper"] == 2
    assert state.players[RED]["points"]["central_park"] == 4
    assert types(events)[-1] == "game_over"


@pytest.mark.parametrize(
    ("tiles", "each"),
    [
        (["gallery"] * 3, 2),
        (["gallery", "fashion", "gallery"], 3),
        (["gallery", "fashion", "perfumery"], 5),
        (["gallery", "fashion"], 3),
    ],
)
def test_FA_PARK_SCORE_two_three_or_five_by_the_shops_revealed(tiles, each):
    assert m.PARK_POINTS_BY_DIFFERENT_SHOPS[1:] == (2, 3, 5)
    state = new_game(3)
    empty_board(state)
    state.players[YELLOW]["park"] = 3
    state.under_park = list(tiles[:-1])
    events = end_by_last_shop(state, last_tile=tiles[-1])
    park = first(events, "central_park_scored")
    assert sorted(park["revealed"]) == sorted(tiles) and park["per_skyscraper"] == each
    assert park["points"] == [0, 3 * each, 0]


def test_FA_PARK_SCORE_with_no_tile_under_the_park_the_minimum_two():
    state = new_game(3)
    state.players[YELLOW]["park"] = 2
    state.under_park = []
    events = state.end_game("second_building_stop")
    park = first(events, "central_park_scored")
    assert park["revealed"] == [] and park["points"] == [0, 4, 0]


def test_FA_PARK_SCORE_only_three_tiles_are_revealed_at_random():
    revealed = set()
    for seed in range(12):
        state = new_game(3, seed=seed)
        empty_board(state)
        state.under_park = [
            "gallery",
            "fashion",
            "perfumery",
            "jewellery",
            "gallery",
            "gallery",
            "fashion",
            "fashion",
        ]
        end_by_last_shop(state)
        shown = state.end["revealed"]
        assert len(shown) == 3
        revealed.add(tuple(sorted(shown)))
        assert state.view(None)["end"]["revealed"] == shown
    assert len(revealed) > 1, "the tiles are shuffled face down first"


def test_FA_WINNER_most_points_then_most_cards_in_hand():
    state = new_game(3)
    empty_board(state)
    for seat, (points, cards) in enumerate([(30, 2), (30, 5), (12, 9)]):
        state.players[seat]["score"] = points
        set_hand(state, seat, ["black-4"] * cards)
    end_by_last_shop(state)
    result = state.result()
    assert result.ranks == [2, 1, 3] and result.winners == [1]
    assert result.breakdown[1]["cards_in_hand"] == 5
    state.players[0]["hand"].extend(["black-5"] * 3)
    assert state.result().ranks == [1, 1, 3], "equal points and cards: a shared win"


def test_FA_SCORE_TRACK_scores_go_past_eighty():
    state = new_game(3)
    empty_board(state)
    state.players[0]["score"] = 79
    put(state, TS, 0, owner=BLUE, count=3)
    put(state, TS, 1, shops=("jewellery", "gallery"))
    put(state, TS, 4, shops=("fashion", "perfumery"))
    score(state)
    assert state.players[0]["score"] == 79 + 24
