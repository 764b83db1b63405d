"""Tom, the automaton of the solo rules (NYC-TOM-*)."""

from __future__ import annotations

import pytest

from engines.new_york_city import GAME
from engines.new_york_city import board as b
from engines.new_york_city import cards as c
from engines.new_york_city.scoring import tom_characters
from engines.new_york_city.tom import TOM_LEVELS

from .helpers import DISTRICT, bid, clear_phase1, new_game, play, set_cards, set_press, start_bidding

HUMAN, TOM = 0, 1


def solo(level=1, seed=21, **options):
    """One seat against one Tom, Phase I skipped; the seat leads the press track."""
    state = new_game(1, seed=seed, toms=options.pop("toms", 1), tom_level=level)
    clear_phase1(state)
    set_press(state, (b.BLACK, 8), (HUMAN, 2), (TOM, 1))
    return state


def tom_cards(state, cards, p=TOM):
    for card in cards:
        state.deck.remove(card)
    state.players[p]["reserve"] = list(cards)


def next_draw(state, card):
    state.deck.remove(card)
    state.deck.append(card)


def test_NYC_TOM_played_by_the_engine_never_a_seat():
    state = GAME.setup(1, {"toms": 3}, 0)
    assert state.seats == 1 and len(state.players) == 4
    while state.to_act():
        assert state.to_act() == [0]
        seat = 0
        moves = state.legal_moves(seat)
        state.apply(seat, next((m for m in moves if m["type"] in ("pass", "done", "decline")), moves[0]))
    result = state.result().to_dict()
    assert len(result["automata"]) == 3 and [a["name"] for a in result["automata"]] == [
        "Tom I",
        "Tom II",
        "Tom III",
    ]


def test_NYC_TOM_LEVELS_the_rulebook_table():
    assert TOM_LEVELS == {
        1: ("A", 6), 2: ("B", 3), 3: ("C", 2), 4: ("A", 7),
        5: ("B", 4), 6: ("C", 3), 7: ("A", 8), 8: ("B", 5),
        9: ("C", 4), 10: ("A", 9), 11: ("B", 6), 12: ("C", 5),
    }  # fmt: skip


def test_NYC_TOM_SETUP_no_board_no_dollar_no_reserve_a_skyscraper_in_x():
    state = GAME.setup(1, {"toms": 1}, 3)
    tom = state.players[TOM]
    assert tom["board"] == 0 and tom["dollars"] == 0 and tom["reserve"] == [] and tom["supply"] == 19
    assert state.towers[state.letters.index("X")][TOM] == 1
    state = new_game(1, seed=3)
    assert state.players[TOM]["hand"] == [], "Tom draws no cards in Phase 0"
    assert len(state.players[TOM]["characters"]) == 2


def test_NYC_TOM_PHASE1_the_pair_left_and_his_level_s_cards():
    state = new_game(1, seed=4, tom_level=5)  # B4
    ev = []
    while state.stage == "pick":
        moves = state.legal_moves(0)
        ev += state.apply(0, next(m for m in moves if m["type"] in ("take_pair", "done")))
    taken = [e for e in ev if e["type"] == "pair_taken" and e["player"] == TOM]
    drew = [e for e in ev if e["type"] == "tom_drew" and e["player"] == TOM]
    assert len(taken) == 1 and len(drew[0]["cards"]) == 4, "B4: Tom starts with 6 cards"
    assert state.view(0)["players"][TOM]["cards"], "Tom's cards lie open"


@pytest.mark.parametrize(("level", "drawn"), [(1, 0), (2, 1), (3, 1)])
def test_NYC_TOM_DRAW_no_card_in_mode_a_one_in_modes_b_and_c(level, drawn):
    state = solo(level)
    deck = len(state.deck)
    start_bidding(state, "press")
    assert deck - len(state.deck) == drawn


def test_NYC_TOM_DRAW_a_building_plan_is_played_at_once_beside_a_dollars_card():
    state = solo(level=2)  # mode B
    tom_cards(state, ["dollars"])
    next_draw(state, "plans")
    start_bidding(state, "dollars", starter=HUMAN)
    assert state.players[TOM]["staged"] == ["plans"]
    ev = bid(state, HUMAN)
    tom_bid = next(e for e in ev if e["type"] == "bid" and e["player"] == TOM)
    assert tom_bid["value"] == 2 and tom_bid["cards"] == ["dollars", "plans"]


def test_NYC_TOM_DRAW_a_joker_without_a_card_of_the_round_goes_to_his_reserve():
    state = solo(level=2)
    tom_cards(state, ["press"])
    next_draw(state, "joker")
    start_bidding(state, "dollars", starter=HUMAN)
    assert state.players[TOM]["staged"] == [] and sorted(state.players[TOM]["reserve"]) == ["joker", "press"]


@pytest.mark.parametrize(
    ("level", "kind", "card", "where"),
    [
        (2, "prestige", "prestige", "staged"),
        (2, "prestige", "press", "discard"),
        (2, "dollars", "skyscrapers", "discard"),
        (3, "dollars", "skyscrapers", "reserve"),
        (3, "prestige", "dollars", "discard"),
    ],
)
def test_NYC_TOM_DRAW_played_discarded_or_kept(level, kind, card, where):
    state = solo(level=level)
    next_draw(state, card)
    discard = len(state.discard)
    start_bidding(state, kind, starter=HUMAN)
    tom = state.players[TOM]
    placed = {"staged": tom["staged"], "reserve": tom["reserve"], "discard": state.discard[discard:]}
    assert placed[where] == [card]


def test_NYC_TOM_BID_the_rulebook_example_one_joker_wins_the_bonus():
    """You bid 2 Prestige; Tom, ahead on the press, has 1 Prestige and 2 jokers: he plays one."""
    state = solo(level=1)
    set_press(state, (b.BLACK, 8), (TOM, 3), (HUMAN, 2))
    set_cards(state, HUMAN, hand=["prestige", "prestige"])
    tom_cards(state, ["prestige", "joker", "joker"])
    start_bidding(state, "prestige", starter=HUMAN)
    bid(state, HUMAN, play("prestige"), play("prestige"))
    assert state.bidding["bids"][TOM] == {
        "value": 2,
        "cards": ["prestige", "joker"],
        "double": False,
        "characters": [],
    }
    assert state.players[TOM]["reserve"] == ["joker"]


def test_NYC_TOM_BID_behind_on_the_press_tom_needs_two_jokers():
    state = solo(level=1)
    set_cards(state, HUMAN, hand=["prestige", "prestige"])
    tom_cards(state, ["prestige", "joker", "plans"])
    start_bidding(state, "prestige", starter=HUMAN)
    bid(state, HUMAN, play("prestige"), play("prestige"))
    assert state.bidding["bids"][TOM]["value"] == 3, "building plans are jokers for Tom"


def test_NYC_TOM_BID_no_joker_when_they_cannot_win_the_bonus_and_never_alone():
    state = solo(level=1)
    set_cards(state, HUMAN, hand=["prestige"] * 3)
    tom_cards(state, ["prestige", "joker"])
    start_bidding(state, "prestige", starter=HUMAN)
    bid(state, HUMAN, *[play("prestige")] * 3)
    assert state.bidding["bids"][TOM]["cards"] == ["prestige"]
    state = solo(level=1)
    tom_cards(state, ["joker", "joker", "dollars", "dollars"])
    start_bidding(state, "prestige", starter=TOM)
    assert state.bidding["bids"][TOM] is None, "jokers never alone, and no two cards for one"


def test_NYC_TOM_PLANS_tom_does_not_bid_for_building_plans():
    state = solo(level=1)
    tom_cards(state, ["plans", "plans", "joker"])
    start_bidding(state, "plans", starter=TOM)
    assert state.bidding["bids"][TOM] is None and state.players[TOM]["reserve"] == ["plans", "plans", "joker"]


def test_NYC_TOM_DOLLARS_tom_keeps_his_dollars():
    state = solo(level=1)
    tom_cards(state, ["dollars", "dollars"])
    start_bidding(state, "dollars", starter=TOM)
    bid(state, HUMAN)
    assert state.players[TOM]["dollars"] == 3


def test_NYC_TOM_CHARACTERS_the_leftmost_of_the_value_his_bid_reaches():
    state = solo(level=1)
    tom_cards(state, ["characters", "characters"])
    start_bidding(state, "characters", starter=TOM)
    leftmost = state.display[2][0]
    bid(state, HUMAN)
    assert state.players[TOM]["characters"][-1] == leftmost, "2 cards + the bonus: value 3"


def test_NYC_TOM_CHARACTERS_reading_a_lower_row_when_that_one_is_empty():
    state = solo(level=1)
    tom_cards(state, ["characters", "characters"])
    start_bidding(state, "characters", starter=TOM)
    state.display[2], state.stacks[2] = [], []
    leftmost = state.display[1][0]
    bid(state, HUMAN)
    assert state.players[TOM]["characters"][-1] == leftmost


def test_NYC_TOM_PRESTIGE_the_solo_example():
    """Reconstruction-based: letters B Queens, C Brooklyn, D Manhattan, X Bronx; the taxi and
    metro tiles reach B, C, D, X; Tom's skyscraper in X leaves B, C, D; D is the highest; of
    D's two taxis and metro Tom takes the taxi to X."""
    state = solo(level=1)
    letters = {
        "queens": "B",
        "brooklyn": "C",
        "manhattan": "D",
        "bronx": "X",
        "staten-island": "A",
        "jersey-city": "E",
    }
    state.letters = [letters[d] for d in b.DISTRICTS]
    state.towers = [[0, 0] for _ in b.DISTRICTS]
    state.towers[DISTRICT["bronx"]][TOM] = 1
    state.prestige_open = [0, 7]  # the yellow (taxi, 2) and brown (metro, 4) tiles
    tile, connection, district = state.tom_prestige_choice(TOM)
    assert b.DISTRICTS[district] == "manhattan"
    assert b.CONNECTIONS[connection] == {
        "vehicle": "taxi",
        "districts": ("manhattan", "bronx"),
        "reconstructed": True,
    }
    assert tile == 0
    ev = []
    state._tom_prestige(TOM, ev)
    assert state.tiles[DISTRICT["manhattan"]] == [0] and state.players[TOM]["vehicles"] == ["taxi"]
    assert connection not in state.connections and state.towers[DISTRICT["manhattan"]][TOM] == 1


def test_NYC_TOM_PRESTIGE_of_two_tiles_of_a_colour_the_higher():
    state = solo(level=1)
    state.prestige_open = [0, 1]  # both taxi tiles
    assert state.tom_prestige_choice(TOM)[0] == 1


def test_NYC_TOM_PRESTIGE_as_the_highest_bidder_in_a_real_round():
    state = solo(level=1)
    tom_cards(state, ["prestige", "prestige"])
    start_bidding(state, "prestige", starter=TOM)
    tile, connection, district = state.tom_prestige_choice(TOM)
    bid(state, HUMAN)
    assert state.players[TOM]["score"] == 2
    assert tile in state.tiles[district] and state.players[TOM]["vehicles"] == [
        b.CONNECTION_VEHICLE[connection]
    ]


def test_NYC_TOM_SKYSCRAPERS_four_jokers_are_three_skyscrapers():
    state = solo(level=1)
    tom_cards(state, ["joker", "joker", "plans", "plans"])
    state.mayor = state.letters.index("A")
    start_bidding(state, "skyscrapers", starter=TOM)
    assert state.bidding["bids"][TOM]["value"] == 3
    mayor = state.mayor
    bid(state, HUMAN)
    assert state.towers[mayor][TOM] == 4, "3 and the bonus, from the supply"
    assert state.players[TOM]["supply"] == 15


def test_NYC_TOM_SKYSCRAPERS_a_single_joker_is_discarded():
    state = solo(level=1)
    tom_cards(state, ["plans"])
    start_bidding(state, "skyscrapers", starter=TOM)
    assert state.bidding["bids"][TOM] is None and state.players[TOM]["reserve"] == []
    assert state.discard[-1] == "plans"


def test_NYC_TOM_SKYSCRAPERS_never_more_than_five_in_a_district():
    state = solo(level=1)
    tom_cards(state, ["skyscrapers"] * 3)
    state.mayor = state.letters.index("A")
    mayor = state.mayor
    state.towers[mayor][TOM] = 3
    start_bidding(state, "skyscrapers", starter=TOM)
    bid(state, HUMAN)
    assert state.towers[mayor][TOM] == 5


def test_NYC_TOM_SCORING_the_rulebook_example_eight_points():
    assert tom_characters([1, 1, 1, 4], 5) == (8, 0)
    assert tom_characters([4, 1], 7) == (10, 3), "two Dollars each at most; the rest are leftovers"
    assert tom_characters([3, 1, 2], 0) == (6, 0)


def test_NYC_TOM_SCORING_no_end_game_condition_for_tom():
    state = solo(level=1)
    state.players[TOM]["characters"] = [36, 35]
    state.players[TOM]["used"] = [False, False]
    from engines.new_york_city.scoring import final_scores

    parts = final_scores(state)["breakdown"][TOM]
    assert parts["end_characters"] == 0 and parts["characters"] == 4 + 5


def test_NYC_WINNER_a_seat_beaten_by_tom_has_rank_two():
    state = solo(level=1)
    state.players[TOM]["score"] = 50
    state._finish([])
    result = state.result()
    assert result.ranks == [2] and result.winners == []
    assert result.to_dict()["automata"][0]["rank"] == 1
    assert c.SYMBOLS
