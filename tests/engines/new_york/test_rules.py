"""New York's rules, one test (or more) per rule id of docs/rules/new-york.md.

The rulebook's own numbers are here: 49 buildings, 28 + 28 street cards (4 per line), 5 + 5
jokers, 2 Stop cards, 12 events (Baulöwe 2 per colour), 25/20/15 pieces and 8/6/5 money for
3/4/5 players, the preliminary round of 8/6/5 pieces, Broadway + a blue joker reaching 7
crossings and two jokers all 49, a hand of 6 red + 2 blue beside one of 2 + 2, at least 4
cards, the end at 4 unowned buildings, largest group ×2, others ×1, money ×1, Spekulation's
"more than 8", the 5 centre squares and 4 corners, variant 3's 20 pieces "as for 4 players".
"""

from __future__ import annotations

import pytest

from engines.core import GameOver, IllegalMove, InvalidOptions, NotYourTurn
from engines.new_york import GAME
from engines.new_york import material as m
from engines.new_york.scoring import final_result

from .helpers import colour, position


def play(red, blue):
    return {"type": "play", "red": red, "blue": blue}


def take(avenue, street, **extra):
    return {"type": "take", "avenue": avenue, "street": street, **extra}


def refused(state, seat, move):
    before = state.to_dict()
    with pytest.raises(IllegalMove) as error:
        state.apply(seat, move)
    assert state.to_dict() == before
    return error.value.code


def finish_preliminary(state):
    while state.phase in ("choose_colour", "preliminary"):
        seat = state.to_act()[0]
        state.apply(seat, state.legal_moves(seat)[0])


# ---- NY-PLAYERS ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("seats", "options", "code"),
    [
        (2, {"two_colours": False}, "two_players_need_two_colours"),
        (3, {"price_per_colour": True}, "option_needs_other_seat_count"),
        (3, {"two_colours": True}, "two_colours_needs_two_players"),
        (4, {"two_colours": True}, "two_colours_needs_two_players"),
        (3, {"teams": True}, "teams_need_four_players"),
        (5, {"teams": True}, "teams_need_four_players"),
        (1, {}, "invalid_seat_count"),
        (6, {}, "invalid_seat_count"),
    ],
)
def test_NY_PLAYERS_impossible_combinations_are_refused_with_a_code(seats, options, code):
    with pytest.raises(InvalidOptions) as error:
        GAME.setup(seats, options, seed=0)
    assert error.value.code == code


@pytest.mark.parametrize(
    ("seats", "options"),
    [(2, {"two_colours": True}), (3, {}), (4, {}), (4, {"teams": True}), (5, {"events": True})],
)
def test_NY_PLAYERS_possible_combinations_start(seats, options):
    assert GAME.setup(seats, options, seed=0).to_act() == [0]


def test_NY_PLAYERS_two_seats_play_with_two_colours_without_being_told():
    """Two seats can only play variant 3: it applies by itself, and the catalog says so."""
    state = GAME.setup(2, {}, seed=0)
    assert state.options["two_colours"] is True
    assert state.colours == 4 and state.money == [12, 12]
    assert GAME.options_schema["properties"]["two_colours"]["x-seat-defaults"] == {"2": True}
    assert GAME.setup(3, {}, seed=0).options["two_colours"] is False


# ---- NY-BOARD, NY-CARDS, NY-PIECES, NY-MONEY ----------------------------------------------------
def test_NY_BOARD_seven_avenues_by_seven_streets_make_49_buildings():
    assert len(m.SQUARES) == 49 and len(set(m.SQUARES)) == 49
    state = position(hands={0: ["red-3", "blue-5"]})
    state.apply(0, play("red-3", "blue-5"))
    assert state.board[3 - 1][5 - 1] == colour("red"), "a red card names the avenue (row)"
    assert state.view(None)["board"][2][4] == "red"


def test_NY_CARDS_the_deck_of_the_basic_game():
    deck = m.deck(events=False)
    assert len(deck) == 66
    for number in m.LINES:
        assert deck.count(f"red-{number}") == 4 and deck.count(f"blue-{number}") == 4
    assert sum(1 for c in deck if c.startswith("red-") and m.CARD_LINE[c]) == 28
    assert sum(1 for c in deck if c.startswith("blue-") and m.CARD_LINE[c]) == 28
    assert deck.count("red-joker") == 5 and deck.count("blue-joker") == 5
    assert m.STOP not in deck and len(m.STOP_CARDS) == 2
    state = GAME.setup(3, {}, seed=4)
    assert sorted(state.stock) == sorted(deck), "red and blue cards in one stock; Stops and events aside"
    assert state.view(None)["stops"] == {"added": False, "in_discard": 0, "in_stock": 0, "drawn_by": None}


@pytest.mark.parametrize(("seats", "pieces", "money"), [(3, 25, 8), (4, 20, 6), (5, 15, 5)])
def test_NY_PIECES_and_NY_MONEY_by_number_of_players(seats, pieces, money):
    state = GAME.setup(seats, {}, seed=2)
    assert state.supply == [pieces] * seats
    assert state.money == [money] * seats
    assert [c["colour"] for c in state.view(None)["colours"]] == list(m.COLOURS[:seats])
    assert m.COLOURS[:3] == ("red", "blue", "yellow") and m.COLOURS[3:] == ("green", "black")


def test_NY_PIECE_LIMIT_no_piece_left_no_building_taken_but_losing_stays():
    state = position(hands={0: ["red-1", "blue-1", "red-2", "blue-2"]}, owned=[(2, 2, "red")])
    state.supply[colour("red")] = 0
    assert state.legal_moves(0) == [play("red-2", "blue-2")], "only losing its own building is left"
    assert refused(state, 0, play("red-1", "blue-1")) == "no_piece_left"
    state.apply(0, play("red-2", "blue-2"))
    assert state.board[1][1] is None and state.supply[colour("red")] == 1


# ---- the preliminary round ------------------------------------------------------------------------
@pytest.mark.parametrize(("seats", "each"), [(3, 8), (4, 6), (5, 5)])
def test_NY_PRELIM_COUNT_each_colour_places_its_money_in_pieces(seats, each):
    state = GAME.setup(seats, {}, seed=seats)
    assert len(state.prelim_queue) == seats * each
    finish_preliminary(state)
    assert state.on_board == [each] * seats
    assert state.supply == [m.PIECES[seats] - each] * seats


def test_NY_PRELIM_ORDER_youngest_first_then_clockwise_one_piece_each():
    state = GAME.setup(4, {}, seed=3)
    order = []
    for _ in range(8):
        seat = state.to_act()[0]
        order.append((seat, state.view(None)["preliminary"]["placing"]))
        state.apply(seat, state.legal_moves(seat)[0])
    assert order == [(0, "red"), (1, "blue"), (2, "yellow"), (3, "green")] * 2


def test_NY_PRELIM_ADJACENT_never_beside_the_same_colour_diagonal_allowed():
    state = GAME.setup(3, {}, seed=1)
    state.apply(0, {"type": "place", "avenue": 4, "street": 4})  # red
    state.apply(1, {"type": "place", "avenue": 4, "street": 5})  # blue beside red: fine
    state.apply(2, {"type": "place", "avenue": 5, "street": 4})  # yellow beside red: fine
    moves = state.legal_moves(0)
    squares = {(mv["avenue"], mv["street"]) for mv in moves}
    assert (3, 4) not in squares and (4, 3) not in squares, "beside the red piece"
    assert (3, 3) in squares and (5, 5) in squares, "diagonally is allowed"
    assert refused(state, 0, {"type": "place", "avenue": 3, "street": 4}) == "same_colour_adjacent"
    assert refused(state, 0, {"type": "place", "avenue": 4, "street": 5}) == "square_taken"
    assert refused(state, 0, {"type": "place", "avenue": 8, "street": 1}) == "no_such_square"
    with pytest.raises(NotYourTurn):
        state.apply(1, {"type": "place", "avenue": 1, "street": 1})


def test_NY_PRELIM_ADJACENT_a_colour_without_a_legal_square_skips():
    state = GAME.setup(3, {}, seed=1)
    # Red on every square of one parity but the corner (1, 1): each free square touches red.
    for a, s in m.SQUARES:
        if (a + s) % 2 == 0:
            state._put(colour("yellow") if (a, s) == (1, 1) else colour("red"), a, s)
    assert state.preliminary_squares(colour("red")) == []
    state.prelim_queue = [colour("blue"), colour("red")]
    events = state.apply(1, state.legal_moves(1)[0])
    assert {"type": "placement_impossible", "colour": "red"} in events
    assert state.phase == "play", "the preliminary round is over"


def test_NY_COLOUR_DRAW_the_colour_cards_decide_who_owns_the_placed_pieces():
    seen_red_seats = set()
    for seed in range(12):
        state = GAME.setup(3, {}, seed=seed)
        finish_preliminary(state)
        placed = [row[:] for row in state.board]
        assert sorted(state.colour_seat) == [0, 1, 2]
        assert state.board == placed, "the pieces stay; only their owners are drawn"
        view = state.view(None)
        assert view["colour_draw"] is not None
        assert {c["colour"]: c["seat"] for c in view["colours"]} == {
            m.COLOURS[c]: state.colour_seat[c] for c in range(3)
        }
        seen_red_seats.add(state.colour_seat[0])
        assert state.current == state.colour_seat[0], "NY-FIRST: red begins"
    assert len(seen_red_seats) > 1, "the draw is random"


# ---- NY-DEAL, NY-FIRST --------------------------------------------------------------------------
def _deal_stock(sequences, order):
    """The stock (top = end) that deals ``sequences[seat]`` one card at a time in ``order``."""
    dealt, queues = [], {s: list(cards) for s, cards in sequences.items()}
    while any(queues.values()):
        for seat in order:
            if queues[seat]:
                dealt.append(queues[seat].pop(0))
    return list(reversed(dealt))


def test_NY_DEAL_six_red_and_two_blue_beside_two_of_each_the_rulebook_example():
    state = GAME.setup(3, {"chosen_colours": True}, seed=5)
    state.apply(0, {"type": "choose_colour", "colour": "blue"})
    state.apply(1, {"type": "choose_colour", "colour": "red"})
    state.apply(2, {"type": "choose_colour", "colour": "yellow"})
    sequences = {
        1: ["red-1", "red-2", "red-3", "red-4", "red-5", "red-6", "blue-1", "blue-2"],
        2: ["red-1", "blue-1", "red-2", "blue-2"],
        0: ["blue-3", "blue-4", "red-7", "red-7"],
    }
    deck = list(m.deck(False))
    for cards in sequences.values():
        for card in cards:
            deck.remove(card)
    state.stock = deck + _deal_stock(sequences, [1, 2, 0])
    finish_preliminary(state)
    assert state.current == 1, "the red player (seat 1) begins"
    assert sorted(state.hands[1]) == sorted(sequences[1])
    assert sorted(state.hands[2]) == sorted(sequences[2])
    assert all(len(hand) >= 4 for hand in state.hands)


def test_NY_FIRST_then_clockwise():
    state = position(4, current=2, hands={s: ["red-1", "blue-1", "red-2", "blue-2"] for s in range(4)})
    turns = []
    for _ in range(5):
        turns.append(state.current)
        state.apply(state.current, state.legal_moves(state.current)[0])
        if state.phase == "target":
            state.apply(state.current, state.legal_moves(state.current)[0])
    assert turns == [2, 3, 0, 1, 2]


# ---- a turn -------------------------------------------------------------------------------------
def test_NY_PLAY_one_red_and_one_blue_card_from_the_hand():
    state = position(hands={0: ["red-3", "blue-5", "red-4"]})
    assert state.legal_moves(0) == [play("red-3", "blue-5"), play("red-4", "blue-5")]
    assert refused(state, 0, play("red-6", "blue-5")) == "card_not_in_hand"
    assert refused(state, 0, play("blue-5", "red-3")) == "wrong_colour"
    assert refused(state, 0, play("red-9", "blue-5")) == "no_such_card"
    assert refused(state, 0, take(3, 5)) == "no_cards_played"
    assert refused(state, 0, {"type": "play", "red": "red-3"}) == "malformed_move"
    with pytest.raises(NotYourTurn):
        state.apply(1, play("red-3", "blue-5"))


def test_NY_JOKER_broadway_and_a_blue_joker_reach_the_seven_crossings_of_broadway():
    state = position(hands={0: ["red-3", "blue-joker"]})
    events = state.apply(0, play("red-3", "blue-joker"))
    assert events[0] == {"type": "cards_played", "seat": 0, "cards": ["red-3", "blue-joker"]}
    assert state.phase == "target" and state.view(1)["played"] == ["red-3", "blue-joker"]
    assert state.legal_moves(0) == [take(3, s) for s in m.LINES]
    assert refused(state, 0, take(4, 4)) == "card_does_not_designate"
    state.apply(0, take(3, 6))
    assert state.board[2][5] == colour("red") and state.current == 1


def test_NY_JOKER_two_jokers_reach_any_of_the_49_squares():
    state = position(hands={0: ["red-joker", "blue-joker"]})
    state.apply(0, play("red-joker", "blue-joker"))
    assert len(state.legal_moves(0)) == 49


def test_NY_TAKE_FREE_an_unowned_building_costs_nothing():
    state = position(hands={0: ["red-3", "blue-5"]})
    events = state.apply(0, play("red-3", "blue-5"))
    taken = [e for e in events if e["type"] == "building_taken"]
    assert taken == [{"type": "building_taken", "seat": 0, "colour": "red", "avenue": 3, "street": 5}]
    assert state.money[0] == 8 and state.supply[0] == 24 and state.on_board[0] == 1


def test_NY_TAKE_BUY_the_lower_of_the_owners_counts_in_the_avenue_and_the_street():
    # Yellow: 3 buildings in avenue 3, 2 in street 5 (the building itself in both): price 2.
    owned = [(3, 5, "yellow"), (3, 1, "yellow"), (3, 2, "yellow"), (6, 5, "yellow")]
    state = position(hands={0: ["red-3", "blue-5"]}, owned=owned)
    events = state.apply(0, play("red-3", "blue-5"))
    bought = [e for e in events if e["type"] == "building_bought"][0]
    assert bought["price"] == 2 and bought["seller"] == 2 and bought["owner"] == "yellow"
    assert state.money == [6, 8, 10], "paid to the owner, who cannot refuse"
    assert state.board[2][4] == colour("red")
    assert state.supply[colour("yellow")] == 25 - 3 and state.supply[colour("red")] == 24


def test_NY_TAKE_BUY_a_lone_building_costs_one_because_it_counts_itself():
    state = position(hands={0: ["red-3", "blue-5"]}, owned=[(3, 5, "blue")])
    state.apply(0, play("red-3", "blue-5"))
    assert state.money[:2] == [7, 9]


def test_NY_TAKE_BUY_a_building_above_the_players_money_cannot_be_designated():
    owned = [(3, 5, "yellow"), (3, 1, "yellow"), (6, 5, "yellow")]
    state = position(hands={0: ["red-3", "blue-5", "red-1", "blue-1"]}, owned=owned, money={0: 1})
    assert play("red-3", "blue-5") not in state.legal_moves(0)
    assert refused(state, 0, play("red-3", "blue-5")) == "cannot_afford"
    state = position(hands={0: ["red-joker", "blue-5"]}, owned=owned, money={0: 1})
    state.apply(0, play("red-joker", "blue-5"))
    assert take(3, 5) not in state.legal_moves(0)
    assert refused(state, 0, take(3, 5)) == "cannot_afford"


def test_NY_TAKE_OWN_ones_own_building_is_lost_when_nothing_else_is_possible():
    state = position(hands={0: ["red-3", "blue-5"]}, owned=[(3, 5, "red")])
    assert state.legal_moves(0) == [play("red-3", "blue-5")]
    events = state.apply(0, play("red-3", "blue-5"))
    assert any(e["type"] == "building_lost" for e in events)
    assert state.board[2][4] is None and state.supply[0] == 25 and state.money[0] == 8


def test_NY_TAKE_OWN_ones_own_building_is_a_choice_like_any_other():
    """« Si le bâtiment choisi appartient au joueur, le joueur le perd »: a normal choice."""
    state = position(hands={0: ["red-3", "blue-5", "red-1"]}, owned=[(3, 5, "red")])
    assert state.legal_moves(0) == [play("red-1", "blue-5"), play("red-3", "blue-5")]
    events = state.apply(0, play("red-3", "blue-5"))
    assert any(e["type"] == "building_lost" for e in events)
    assert state.board[2][4] is None


def test_NY_TAKE_OWN_a_joker_reaches_ones_own_buildings_too():
    state = position(hands={0: ["red-joker", "blue-5"]}, owned=[(3, 5, "red"), (4, 5, "blue")])
    state.apply(0, play("red-joker", "blue-5"))
    squares = [(mv["avenue"], mv["street"]) for mv in state.legal_moves(0)]
    assert (3, 5) in squares and (4, 5) in squares and len(squares) == 7
    assert squares[-1] == (3, 5), "one's own buildings are listed after those to take"
    events = state.apply(0, take(3, 5))
    assert any(e["type"] == "building_lost" for e in events)


LAST_RESORT = {"own_building_last_resort": True}


def test_NY_TAKE_OWN_option_last_resort_not_while_another_pair_can_take_a_building():
    state = position(options=LAST_RESORT, hands={0: ["red-3", "blue-5", "red-1"]}, owned=[(3, 5, "red")])
    assert state.legal_moves(0) == [play("red-1", "blue-5")]
    assert refused(state, 0, play("red-3", "blue-5")) == "must_take_a_building"


def test_NY_TAKE_OWN_option_last_resort_when_nothing_else_is_possible():
    state = position(options=LAST_RESORT, hands={0: ["red-3", "blue-5"]}, owned=[(3, 5, "red")])
    assert state.legal_moves(0) == [play("red-3", "blue-5")]
    state.apply(0, play("red-3", "blue-5"))
    assert state.board[2][4] is None


def test_NY_TAKE_OWN_option_last_resort_a_joker_that_reaches_something_to_take_skips_ones_own():
    owned = [(3, 5, "red"), (4, 5, "blue")]
    state = position(options=LAST_RESORT, hands={0: ["red-joker", "blue-5"]}, owned=owned)
    state.apply(0, play("red-joker", "blue-5"))
    squares = [(mv["avenue"], mv["street"]) for mv in state.legal_moves(0)]
    assert (3, 5) not in squares and (4, 5) in squares and len(squares) == 6
    assert refused(state, 0, take(3, 5)) == "must_take_a_building"


def test_NY_TAKE_OWN_the_option_is_in_the_catalog_with_its_source():
    description = GAME.options_schema["properties"]["own_building_last_resort"]["description"]
    assert "ludorium" in description and "le joueur le perd" in description
    assert GAME.options_schema["properties"]["own_building_last_resort"]["default"] is False


def test_NY_DEAD_HAND_show_discard_and_draw_a_new_hand():
    owned = [(3, 5, "yellow"), (3, 1, "yellow"), (6, 5, "yellow")]
    top = ["red-1", "blue-1", "red-2", "blue-2"]
    state = position(hands={0: ["red-3", "blue-5"]}, owned=owned, money={0: 1}, stock_top=top)
    assert state.legal_moves(0) == [{"type": "discard_hand"}]
    events = state.apply(0, {"type": "discard_hand"})
    assert events[0] == {"type": "hand_revealed", "seat": 0, "cards": ["red-3", "blue-5"]}
    assert state.view(2)["revealed_hand"] == {"seat": 0, "cards": ["red-3", "blue-5"]}
    assert state.discard == ["red-3", "blue-5"]
    assert sorted(state.hands[0]) == sorted(top)
    assert state.current == 1, "the turn ends"


def test_NY_DEAD_HAND_not_while_a_play_is_possible():
    state = position(hands={0: ["red-3", "blue-5"]})
    assert refused(state, 0, {"type": "discard_hand"}) == "hand_can_play"


def test_NY_DISCARD_and_NY_DRAW_discard_both_then_draw_to_two_of_each():
    top = ["red-2", "red-4", "blue-2", "blue-3"]
    state = position(hands={0: ["red-3", "blue-5", "red-1", "blue-1"]}, stock_top=top)
    events = state.apply(0, play("red-3", "blue-5"))
    assert state.discard == ["red-3", "blue-5"]
    assert sorted(state.hands[0]) == sorted(["red-1", "blue-1", "red-2", "red-4", "blue-2"])
    drawn = [e for e in events if e["type"] == "cards_drawn"][0]
    assert drawn["count"] == 3 and drawn["secret"] == {
        "to": [0],
        "fields": {"cards": ["red-2", "red-4", "blue-2"]},
    }
    assert "cards" not in state.view(1)["players"][0] and state.view(1)["players"][0]["hand_size"] == 5


def test_NY_RESHUFFLE_an_empty_stock_is_rebuilt_from_the_discards():
    state = position(hands={0: ["red-3", "blue-5"]})
    state.discard, state.stock = state.stock, []
    events = state.apply(0, play("red-3", "blue-5"))
    assert any(e["type"] == "stock_reshuffled" for e in events)
    assert state.stock_epoch == 1 and state.discard == []
    assert state.hand_epochs[0] == [1] * len(state.hands[0])


# ---- the end ------------------------------------------------------------------------------------
def _crowded(unowned):
    """A board with exactly ``unowned`` free squares, the free ones at the end of avenue 7."""
    free = set(m.SQUARES[-unowned:])
    names = ("red", "blue", "yellow")
    return [(a, s, names[(a + s) % 3]) for a, s in m.SQUARES if (a, s) not in free]


def test_NY_END_TRIGGER_the_stop_cards_go_on_the_discard_pile_at_four_unowned():
    state = position(hands={0: ["red-7", "blue-7"]}, owned=_crowded(5))
    events = state.apply(0, play("red-7", "blue-7"))
    assert state.unowned() == 4
    assert any(e["type"] == "stop_cards_added" for e in events)
    assert state.discard.count(m.STOP) == 2 and state.stops_added
    assert state.view(None)["stops"]["in_discard"] == 2


def test_NY_END_TRIGGER_not_at_five_unowned():
    state = position(hands={0: ["red-7", "blue-7"]}, owned=_crowded(6))
    state.apply(0, play("red-7", "blue-7"))
    assert state.unowned() == 5 and not state.stops_added and m.STOP not in state.discard


def test_NY_END_TRIGGER_stops_come_up_only_after_the_discards_are_reshuffled():
    for seed in range(6):
        state = position(hands={0: ["red-7", "blue-7"]}, owned=_crowded(5), seed=seed)
        state.shuffle(state.stock)
        log = state.apply(0, play("red-7", "blue-7"))
        while not state.is_over():
            seat = state.to_act()[0]
            log += state.apply(seat, state.legal_moves(seat)[0])
        kinds = [e["type"] for e in log]
        added, ended = kinds.index("stop_cards_added"), kinds.index("stop_drawn")
        assert "stock_reshuffled" in kinds[added:ended]


def test_NY_END_a_stop_card_drawn_ends_the_game_at_once():
    state = position(hands={0: ["red-3", "blue-5"]}, stock_top=["red-1", m.STOP, "blue-1"])
    state.stops_added = True
    events = state.apply(0, play("red-3", "blue-5"))
    assert state.is_over() and state.stop_drawn_by == 0
    assert state.hands[0] == ["red-1"], "the draw stops at the Stop card"
    assert events[-1]["type"] == "game_over"
    assert state.view(None)["stops"]["drawn_by"] == 0
    with pytest.raises(GameOver):
        state.apply(1, play("red-1", "blue-1"))
    assert state.legal_moves(1) == []


def test_NY_SCORE_largest_group_twice_other_buildings_once_money_once():
    owned = [(1, 1, "red"), (1, 2, "red"), (2, 2, "red"), (2, 3, "red"), (5, 5, "red"), (7, 7, "red")]
    owned += [(3, 5, "blue"), (4, 6, "blue")]  # diagonal: not connected
    state = position(owned=owned, money={0: 8, 1: 9, 2: 3})
    state.phase = "over"
    result = final_result(state)
    assert result.scores == [2 * 4 + 2 + 8, 2 * 1 + 1 + 9, 3]
    assert result.ranks == [1, 2, 3]
    red = result.breakdown[0]["colours"][0]
    assert red == {
        "colour": "red",
        "buildings": 6,
        "largest_group": 4,
        "group_points": 8,
        "other_buildings": 2,
        "other_points": 2,
        "points": 10,
    }


def test_NY_SCORE_groups_are_orthogonal_and_their_sizes_come_largest_first():
    from engines.new_york import city
    from engines.new_york import material as m

    owned = [(1, 1, "red"), (1, 2, "red"), (2, 2, "red"), (2, 3, "red"), (5, 5, "red"), (7, 7, "red")]
    owned += [(4, 4, "red"), (4, 5, "red"), (3, 5, "blue")]
    board = position(owned=owned, money={0: 0, 1: 0, 2: 0}).board
    red = m.COLOURS.index("red")
    found = city.groups(board, red)
    assert [len(group) for group in found] == [4, 3, 1]  # (4, 5) touches (5, 5)
    assert found[0] == [(1, 1), (1, 2), (2, 2), (2, 3)]
    assert city.group_sizes(board, red) == [4, 3, 1] and city.largest_group(board, red) == 4
    assert city.group_sizes(board, m.COLOURS.index("green")) == []


@pytest.mark.parametrize("seed", range(4))
def test_NY_SCORE_group_sizes_count_the_same_groups_on_played_boards(seed):
    """The bots' fast count agrees with the group search on boards of random games."""
    import random

    from engines.new_york import city

    state = GAME.setup(3, {}, seed)
    rng = random.Random(seed)
    checked = 0
    while not state.is_over():
        seat = state.to_act()[0]
        moves = state.legal_moves(seat)
        state.apply(seat, moves[rng.randrange(len(moves))])
        for index in range(len(m.COLOURS)):
            expected = [len(group) for group in city.groups(state.board, index)]
            assert city.group_sizes(state.board, index) == expected
            checked += sum(expected)
    assert checked > 100


def test_NY_SCORE_equal_totals_share_the_rank():
    state = position(owned=[(1, 1, "red"), (7, 7, "blue")], money={0: 5, 1: 5, 2: 1})
    state.phase = "over"
    assert final_result(state).ranks == [1, 1, 3]


# ---- variant 1: events ----------------------------------------------------------------------------
EV = {"events": True}


def test_NY_V1_EVENTS_twelve_event_cards_in_the_deck():
    deck = m.deck(events=True)
    assert len(deck) == 78
    events = [c for c in deck if m.CARD_EVENT[c]]
    assert len(events) == 12
    for name in (m.SANIERUNG, m.RUIN, m.SPEKULATION, m.STATIK):
        assert events.count(f"red-{name}") == 1 and events.count(f"blue-{name}") == 1
    assert events.count("red-baulowe") == 2 and events.count("blue-baulowe") == 2
    assert sorted(GAME.setup(3, EV, seed=1).stock) == sorted(deck)


def test_NY_EV_COLOUR_event_cards_count_for_their_colour_in_the_hand_rule():
    state = position(
        options=EV, hands={0: ["red-ruin", "red-1", "blue-1", "blue-2"]}, stock_top=["red-2", "blue-3"]
    )
    state.apply(0, play("red-1", "blue-1"))
    assert sorted(state.hands[0]) == sorted(["red-ruin", "blue-2", "red-2", "blue-3"])


def test_NY_EV_SINGLE_and_NY_EV_RUIN_corners_cleared_refilled_clockwise_and_no_draw():
    owned = [(1, 1, "blue"), (7, 7, "blue"), (1, 7, "yellow"), (4, 4, "red")]
    state = position(options=EV, hands={0: ["red-ruin", "red-1", "blue-2"]}, owned=owned)
    assert {"type": "event", "card": "red-ruin"} in state.legal_moves(0)
    events = state.apply(0, {"type": "event", "card": "red-ruin"})
    ruin = [e for e in events if e["type"] == "ruin"][0]
    assert len(ruin["cleared"]) == 3 and state.on_board == [1, 0, 0]
    assert state.phase == "rebuild"
    placers = []
    while state.phase == "rebuild":
        seat = state.to_act()[0]
        placers.append(seat)
        assert all((mv["avenue"], mv["street"]) in m.CORNER_SQUARES for mv in state.legal_moves(seat))
        state.apply(seat, state.legal_moves(seat)[-1])
    assert placers == [0, 1, 2, 0]
    assert all(state.board[a - 1][s - 1] is not None for a, s in m.CORNER_SQUARES)
    assert state.hands[0] == ["red-1", "blue-2"], "no draw after a single event"
    assert state.current == 1


def test_NY_EV_SANIERUNG_the_five_centre_squares():
    assert m.CENTRE_SQUARES_RECONSTRUCTED and sorted(m.CENTRE_SQUARES) == [
        (3, 4),
        (4, 3),
        (4, 4),
        (4, 5),
        (5, 4),
    ]
    owned = [(a, s, "blue") for a, s in m.CENTRE_SQUARES] + [(1, 1, "red")]
    state = position(4, options=EV, current=2, hands={2: ["blue-sanierung", "red-1", "blue-1"]}, owned=owned)
    state.apply(2, {"type": "event", "card": "blue-sanierung"})
    assert state.supply[colour("blue")] == 20
    placers = []
    while state.phase == "rebuild":
        seat = state.to_act()[0]
        placers.append(seat)
        state.apply(seat, state.legal_moves(seat)[0])
    assert placers == [2, 3, 0, 1, 2]
    owners = sorted(state.board[a - 1][s - 1] for a, s in m.CENTRE_SQUARES)
    assert owners == [0, 1, 2, 2, 3]
    assert state.current == 3 and len(state.hands[2]) == 2


def test_NY_EV_SINGLE_a_hand_short_of_a_colour_next_turn_is_shown_and_redrawn():
    state = position(options=EV, hands={0: ["red-ruin", "blue-1", "blue-2"]})
    state.apply(0, {"type": "event", "card": "red-ruin"})
    while state.phase == "rebuild":
        state.apply(state.to_act()[0], state.legal_moves(state.to_act()[0])[0])
    state.current = 0
    assert state.legal_moves(0) == [{"type": "discard_hand"}]


def test_NY_EV_PAIRED_a_companion_is_a_street_card_or_joker_and_singles_go_alone():
    hand = ["red-baulowe", "blue-statik", "red-sanierung", "blue-1"]
    state = position(options=EV, hands={0: hand}, owned=[(1, 1, "blue")])
    moves = state.legal_moves(0)
    assert play("red-baulowe", "blue-statik") not in moves
    assert refused(state, 0, play("red-baulowe", "blue-statik")) == "event_needs_street_card"
    assert refused(state, 0, play("red-sanierung", "blue-1")) == "single_event_played_alone"
    assert refused(state, 0, {"type": "event", "card": "blue-statik"}) == "not_a_single_event"
    assert play("red-baulowe", "blue-1") in moves


def test_NY_EV_SPEKULATION_needs_a_player_with_more_than_eight_pieces():
    blue8 = [(1, s, "blue") for s in m.LINES] + [(3, 1, "blue")]
    state = position(options=EV, hands={0: ["red-spekulation", "red-1", "blue-1"]}, owned=blue8)
    assert {"type": "event", "card": "red-spekulation"} not in state.legal_moves(0)
    assert (
        refused(state, 0, {"type": "event", "card": "red-spekulation"}) == "spekulation_needs_more_than_eight"
    )
    state = position(
        options=EV, hands={0: ["red-spekulation", "red-1", "blue-1"]}, owned=blue8 + [(3, 3, "blue")]
    )
    state.apply(0, {"type": "event", "card": "red-spekulation"})
    assert state.phase == "surrender" and state.to_act() == [1], "blue chooses which building goes"
    assert len(state.legal_moves(1)) == 9
    state.apply(1, {"type": "surrender", "avenue": 3, "street": 3})
    assert state.board[2][2] == colour("red") and state.on_board[colour("blue")] == 8
    assert len(state.hands[0]) == 2, "a single event: no draw"
    assert state.current == 1


def test_NY_EV_SPEKULATION_the_player_names_among_several():
    many = [(1, s, "blue") for s in m.LINES] + [(3, 1, "blue"), (3, 3, "blue")]
    many += [(7, s, "yellow") for s in m.LINES] + [(5, 1, "yellow"), (5, 3, "yellow")]
    state = position(options=EV, hands={0: ["red-spekulation", "red-1", "blue-1"]}, owned=many)
    state.apply(0, {"type": "event", "card": "red-spekulation"})
    assert state.legal_moves(0) == [{"type": "name", "victim": "blue"}, {"type": "name", "victim": "yellow"}]
    assert refused(state, 0, {"type": "name", "victim": "red"}) == "cannot_name_yourself"
    state.apply(0, {"type": "name", "victim": "yellow"})
    assert state.to_act() == [2]


def test_NY_EV_BAULOWE_takes_another_players_building_on_the_line_free():
    owned = [(2, 5, "yellow"), (4, 5, "red")]
    state = position(options=EV, hands={0: ["red-baulowe", "blue-5"]}, owned=owned)
    state.apply(0, play("red-baulowe", "blue-5"))
    assert state.board[1][4] == colour("red"), "the only other player's building on street 5"
    assert state.money == [8, 8, 8], "it costs nothing"
    state = position(options=EV, hands={0: ["red-baulowe", "blue-joker"]}, owned=owned + [(6, 1, "blue")])
    state.apply(0, play("red-baulowe", "blue-joker"))
    assert state.legal_moves(0) == [take(6, 1), take(2, 5)]
    assert refused(state, 0, take(4, 5)) == "baulowe_needs_opponents_building"
    assert refused(state, 0, take(3, 3)) == "baulowe_needs_opponents_building"


def test_NY_EV_BAULOWE_not_playable_without_another_players_building_on_the_line():
    state = position(
        options=EV, hands={0: ["blue-baulowe", "red-2", "red-3", "blue-1"]}, owned=[(2, 2, "red")]
    )
    assert play("red-2", "blue-baulowe") not in state.legal_moves(0)


def test_NY_EV_STATIK_the_leader_of_the_line_gives_a_building_of_its_choice():
    owned = [(1, 5, "yellow"), (2, 5, "yellow"), (3, 5, "blue"), (4, 5, "red")]
    state = position(options=EV, hands={0: ["red-statik", "blue-5"]}, owned=owned)
    events = state.apply(0, play("red-statik", "blue-5"))
    assert any(e["type"] == "statik" and e["victim"] == "yellow" for e in events)
    assert state.to_act() == [2]
    assert state.legal_moves(2) == [
        {"type": "surrender", "avenue": 1, "street": 5},
        {"type": "surrender", "avenue": 2, "street": 5},
    ]
    assert refused(state, 2, {"type": "surrender", "avenue": 3, "street": 5}) == "not_a_building_to_give"
    state.apply(2, {"type": "surrender", "avenue": 2, "street": 5})
    assert state.board[1][4] == colour("red") and state.current == 1


def test_NY_EV_STATIK_a_tie_is_settled_by_the_card_player():
    owned = [(1, 5, "yellow"), (2, 5, "yellow"), (3, 5, "blue"), (4, 5, "blue")]
    state = position(options=EV, hands={0: ["red-statik", "blue-5"]}, owned=owned)
    state.apply(0, play("red-statik", "blue-5"))
    assert state.legal_moves(0) == [
        {"type": "line", "street": 5, "victim": "blue"},
        {"type": "line", "street": 5, "victim": "yellow"},
    ]
    state.apply(0, {"type": "line", "street": 5, "victim": "blue"})
    assert state.to_act() == [1]


def test_NY_EV_STATIK_nothing_happens_when_the_card_player_leads_alone():
    owned = [(1, 5, "red"), (2, 5, "red"), (3, 5, "blue")]
    top = ["red-1", "red-2", "blue-1", "blue-2"]
    state = position(options=EV, hands={0: ["red-statik", "blue-5"]}, owned=owned, stock_top=top)
    events = state.apply(0, play("red-statik", "blue-5"))
    assert any(e["type"] == "statik_no_effect" for e in events)
    assert state.on_board[:2] == [2, 1] and state.current == 1
    assert sorted(state.hands[0]) == sorted(top), "a paired event: the player draws"


def test_NY_EV_STATIK_a_blue_statik_with_a_joker_chooses_the_avenue():
    owned = [(6, 1, "blue"), (6, 2, "blue")]
    state = position(options=EV, hands={0: ["red-joker", "blue-statik"]}, owned=owned)
    state.apply(0, play("red-joker", "blue-statik"))
    moves = state.legal_moves(0)
    assert {"type": "line", "avenue": 6, "victim": "blue"} in moves
    assert {"type": "line", "avenue": 1} in moves and len(moves) == 7


# ---- variant 2 ----------------------------------------------------------------------------------
def test_NY_V2_CHOSEN_colours_are_chosen_first_and_placed_by_their_owners():
    state = GAME.setup(3, {"chosen_colours": True}, seed=2)
    assert state.phase == "choose_colour" and state.to_act() == [0]
    state.apply(0, {"type": "choose_colour", "colour": "yellow"})
    assert {"type": "choose_colour", "colour": "yellow"} not in state.legal_moves(1)
    assert refused(state, 1, {"type": "choose_colour", "colour": "yellow"}) == "colour_taken"
    assert refused(state, 1, {"type": "choose_colour", "colour": "green"}) == "no_such_colour"
    state.apply(1, {"type": "choose_colour", "colour": "red"})
    state.apply(2, {"type": "choose_colour", "colour": "blue"})
    placing = []
    for _ in range(3):
        seat = state.to_act()[0]
        placing.append((seat, state.view(None)["preliminary"]["placing"]))
        state.apply(seat, state.legal_moves(seat)[0])
    assert placing == [(0, "yellow"), (1, "red"), (2, "blue")]
    finish_preliminary(state)
    assert state.colour_seat == [1, 2, 0] and state.colour_draw is None
    assert state.current == 1, "the red player begins"


# ---- variant 3 ----------------------------------------------------------------------------------
V3 = {"two_colours": True}


def test_NY_V3_SETUP_as_for_four_players():
    state = GAME.setup(2, V3, seed=3)
    assert state.colours == 4 and state.supply == [20] * 4
    assert state.money == [12, 12]
    order = []
    for _ in range(8):
        seat = state.to_act()[0]
        order.append((seat, state.view(None)["preliminary"]["placing"]))
        state.apply(seat, state.legal_moves(seat)[0])
    assert order == [(0, "red"), (1, "blue"), (0, "yellow"), (1, "green")] * 2
    finish_preliminary(state)
    assert state.on_board == [6] * 4
    assert sorted(len(c) for c in state.seat_colours) == [2, 2]
    assert state.current == state.colour_seat[0]


def test_NY_V3_COLOUR_the_player_chooses_the_colour_that_takes():
    state = position(2, hands={0: ["red-3", "blue-5"]})
    state.apply(0, play("red-3", "blue-5"))
    assert state.legal_moves(0) == [take(3, 5, colour="red"), take(3, 5, colour="yellow")]
    assert refused(state, 0, take(3, 5)) == "colour_required"
    assert refused(state, 0, take(3, 5, colour="blue")) == "not_your_colour"
    state.apply(0, take(3, 5, colour="yellow"))
    assert state.board[2][4] == colour("yellow")


def test_NY_V3_OWN_ones_other_colour_cannot_be_displaced_it_is_lost():
    state = position(2, hands={0: ["red-3", "blue-5"]}, owned=[(3, 5, "yellow")])
    assert state.legal_moves(0) == [play("red-3", "blue-5")]
    state.apply(0, play("red-3", "blue-5"))
    assert state.board[2][4] is None and state.money == [12, 12]
    state = position(2, hands={0: ["red-3", "blue-5"]}, owned=[(3, 5, "green")])
    state.apply(0, play("red-3", "blue-5"))
    assert state.legal_moves(0) == [take(3, 5, colour="red"), take(3, 5, colour="yellow")]
    state.apply(0, take(3, 5, colour="red"))
    assert state.money == [11, 13], "the opponent's building is bought as usual"


def test_NY_V3_SCORE_each_colours_largest_group_only_plus_money():
    owned = [(1, 1, "red"), (1, 2, "red"), (5, 5, "red"), (3, 3, "yellow"), (7, 7, "yellow")]
    owned += [(2, 6, "blue"), (2, 7, "blue"), (3, 7, "blue"), (6, 1, "green")]
    state = position(2, owned=owned, money={0: 10, 1: 14})
    state.phase = "over"
    result = final_result(state)
    assert result.scores == [2 * 2 + 2 * 1 + 10, 2 * 3 + 2 * 1 + 14]
    assert result.breakdown[0]["colours"][0]["other_points"] == 0


def test_NY_V3_OWNER_the_price_counts_both_colours_of_the_owner_player():
    """« le nombre de bâtiments que le propriétaire actuel a dans cette rue et dans cette
    avenue »: the owner is the player, who owns both colours' buildings."""
    # Blue (seat 1) at (3, 5); seat 1's green at (3, 1), (3, 2) and (1, 5), (2, 5).
    owned = [(3, 5, "blue"), (3, 1, "green"), (3, 2, "green"), (1, 5, "green"), (2, 5, "green")]
    state = position(2, hands={0: ["red-3", "blue-5"]}, owned=owned)
    assert state.price_counts()[0][colour("blue")][2] == 3
    state.apply(0, play("red-3", "blue-5"))
    assert "for 3" in str(state.label(state.legal_moves(0)[0]))
    events = state.apply(0, take(3, 5, colour="red"))
    bought = next(e for e in events if e["type"] == "building_bought")
    assert bought["price"] == 3 and state.money == [9, 15]


def test_NY_V3_OWNER_option_price_per_colour_counts_the_colour_alone():
    owned = [(3, 5, "blue"), (3, 1, "green"), (3, 2, "green"), (1, 5, "green"), (2, 5, "green")]
    state = position(2, options={"price_per_colour": True}, hands={0: ["red-3", "blue-5"]}, owned=owned)
    state.apply(0, play("red-3", "blue-5"))
    events = state.apply(0, take(3, 5, colour="red"))
    assert next(e for e in events if e["type"] == "building_bought")["price"] == 1
    assert state.money == [11, 13]


def test_NY_V3_OWNER_an_unaffordable_price_counts_both_colours():
    owned = [(3, 5, "blue"), (3, 1, "green"), (3, 2, "green"), (1, 5, "green"), (2, 5, "green")]
    state = position(2, hands={0: ["red-3", "blue-5", "red-1"]}, owned=owned, money={0: 2})
    assert play("red-3", "blue-5") not in state.legal_moves(0)
    assert refused(state, 0, play("red-3", "blue-5")) == "cannot_afford"


def test_NY_V3_OWNER_statik_leader_is_the_player_with_the_most_in_both_colours():
    """Statik: « Le joueur avec le plus de bâtiments dans cette rue ou avenue en perd un (au
    choix de ce joueur) »: in variant 3 the opponent's two colours count together, and the
    opponent gives a building of either colour."""
    owned = [(1, 5, "red"), (2, 5, "red"), (3, 5, "blue"), (4, 5, "green")]
    state = position(2, options=EV, hands={0: ["red-statik", "blue-5"]}, owned=owned)
    state.apply(0, play("red-statik", "blue-5"))
    assert state.legal_moves(0) == [
        {"type": "line", "street": 5, "victim": "blue", "colour": "red"},
        {"type": "line", "street": 5, "victim": "blue", "colour": "yellow"},
    ]
    assert str(state.label(state.legal_moves(0)[0])).startswith("Street 5: the blue/green player gives")
    state.apply(0, {"type": "line", "street": 5, "victim": "blue", "colour": "yellow"})
    assert state.to_act() == [1]
    assert state.legal_moves(1) == [
        {"type": "surrender", "avenue": 3, "street": 5},
        {"type": "surrender", "avenue": 4, "street": 5},
    ]
    events = state.apply(1, {"type": "surrender", "avenue": 4, "street": 5})
    given = next(e for e in events if e["type"] == "building_given")
    assert given["colour"] == "green" and state.board[3][4] == colour("yellow")


def test_NY_V3_OWNER_statik_per_colour_with_the_option():
    owned = [(1, 5, "red"), (2, 5, "red"), (3, 5, "blue"), (4, 5, "green")]
    options = {**EV, "price_per_colour": True}
    state = position(2, options=options, hands={0: ["red-statik", "blue-5"]}, owned=owned)
    events = state.apply(0, play("red-statik", "blue-5"))
    assert any(e["type"] == "statik_no_effect" for e in events), "red leads its colours alone"


# ---- variant 4 ----------------------------------------------------------------------------------
TEAMS = {"teams": True}


def test_NY_V4_TEAMS_a_partners_building_is_bought_and_points_are_added():
    state = position(4, options=TEAMS, hands={0: ["red-3", "blue-5"]}, owned=[(3, 5, "yellow")])
    state.apply(0, play("red-3", "blue-5"))
    assert state.money == [5, 6, 7, 6], "seat 2 (yellow) is seat 0's partner and is paid"
    state.phase = "over"
    result = final_result(state)
    own = [b["points"] for b in result.breakdown]
    assert own == [2 + 5, 6, 7, 6]
    assert result.scores == [14, 12, 14, 12] and result.ranks == [1, 3, 1, 3]
    assert result.breakdown[0]["partner"] == 2 and result.breakdown[0]["team_points"] == 14


def test_NY_V4_EXCHANGE_one_card_for_one_once_per_turn_seen_by_the_partners_only():
    hands = {0: ["red-3", "blue-5", "red-joker"], 2: ["blue-1", "blue-2", "red-6"]}
    state = position(4, options=TEAMS, hands=hands)
    assert {"type": "offer", "card": "red-joker"} in state.legal_moves(0)
    events = state.apply(0, {"type": "offer", "card": "red-joker"})
    assert events[0]["secret"]["to"] == [0, 2]
    assert state.to_act() == [2] and state.view(2)["offer"] == {"from": 0, "to": 2, "card": "red-joker"}
    assert state.view(1)["offer"] == {"from": 0, "to": 2}
    assert refused(state, 2, {"type": "swap", "card": "blue-7"}) == "card_not_in_hand"
    state.apply(2, {"type": "swap", "card": "blue-2"})
    assert sorted(state.hands[0]) == sorted(["red-3", "blue-5", "blue-2"])
    assert sorted(state.hands[2]) == sorted(["blue-1", "red-6", "red-joker"])
    assert state.view(0)["players"][2]["known_cards"] == ["red-joker"]
    assert "known_cards" not in state.view(1)["players"][2]
    assert state.to_act() == [0] and not any(mv["type"] == "offer" for mv in state.legal_moves(0))
    assert refused(state, 0, {"type": "offer", "card": "red-3"}) == "one_exchange_per_turn"


def test_NY_V4_EXCHANGE_a_partner_may_refuse_and_only_partners_exchange():
    state = position(4, options=TEAMS, hands={0: ["red-3", "blue-5"], 2: ["blue-1"]})
    state.apply(0, {"type": "offer", "card": "red-3"})
    state.apply(2, {"type": "refuse"})
    assert state.hands[0] == ["red-3", "blue-5"] and state.exchanged
    plain = position(4, hands={0: ["red-3", "blue-5"]})
    assert not any(mv["type"] == "offer" for mv in plain.legal_moves(0))
    assert refused(plain, 0, {"type": "offer", "card": "red-3"}) == "no_partner"


def test_NY_PIECE_LIMIT_a_player_without_pieces_is_skipped_when_squares_are_refilled():
    owned = [(1, 1, "blue"), (7, 7, "yellow")]
    state = position(options=EV, hands={0: ["red-ruin", "red-1", "blue-1"]}, owned=owned)
    state.supply[colour("yellow")] = 0
    state.apply(0, {"type": "event", "card": "red-ruin"})
    placers = []
    while state.phase == "rebuild":
        seat = state.to_act()[0]
        placers.append(seat)
        state.apply(seat, state.legal_moves(seat)[0])
    assert placers == [0, 1, 2, 0], "yellow got its corner piece back, so it places once"
    state = position(options=EV, hands={0: ["red-ruin", "red-1", "blue-1"]})
    state.supply[colour("yellow")] = 0
    state.apply(0, {"type": "event", "card": "red-ruin"})
    placers = []
    while state.phase == "rebuild":
        seat = state.to_act()[0]
        placers.append(seat)
        state.apply(seat, state.legal_moves(seat)[0])
    assert placers == [0, 1, 0, 1], "yellow, without pieces, is skipped"


def test_NY_EV_BAULOWE_in_the_team_game_a_partners_building_may_be_taken():
    owned = [(2, 5, "yellow")]
    state = position(4, options={**EV, **TEAMS}, hands={0: ["red-baulowe", "blue-5"]}, owned=owned)
    state.apply(0, play("red-baulowe", "blue-5"))
    assert state.board[1][4] == colour("red") and state.money == [6, 6, 6, 6]


def test_NY_EV_SPEKULATION_in_variant_3_counts_pieces_per_colour():
    nine = [(1, s, "blue") for s in m.LINES] + [(3, 1, "blue"), (3, 3, "blue")]
    eight_and_eight = (
        [(5, s, "green") for s in m.LINES] + [(7, 1, "green")] + [(7, s, "yellow") for s in (3, 5)]
    )
    state = position(2, options=EV, hands={0: ["red-spekulation", "red-1", "blue-1"]}, owned=nine)
    state.apply(0, {"type": "event", "card": "red-spekulation"})
    assert state.legal_moves(0) == [
        {"type": "name", "victim": "blue", "colour": "red"},
        {"type": "name", "victim": "blue", "colour": "yellow"},
    ]
    state = position(2, options=EV, hands={0: ["red-spekulation", "red-1", "blue-1"]}, owned=eight_and_eight)
    assert {"type": "event", "card": "red-spekulation"} not in state.legal_moves(0), "green has 8, not more"


def test_NY_V2_CHOSEN_with_two_colours_each_the_choice_goes_round_twice():
    state = GAME.setup(2, {"chosen_colours": True, "two_colours": True}, seed=1)
    for seat, name in [(0, "green"), (1, "red"), (0, "blue"), (1, "yellow")]:
        assert state.to_act() == [seat]
        state.apply(seat, {"type": "choose_colour", "colour": name})
    assert state.seat_colours == [[colour("green"), colour("blue")], [colour("red"), colour("yellow")]]
    assert state.view(None)["preliminary"]["placing"] == "green" and state.to_act() == [0]
    finish_preliminary(state)
    assert state.current == 1 and state.on_board == [6] * 4


def test_NY_TAKE_OWN_random_playouts_prefer_keeping_ones_buildings():
    """Game.playout_moves: random playouts (tests, benchmarks) mostly skip the moves that lose
    one's own building, which NY-TAKE-OWN allows, so random games still fill the city."""
    from engines.new_york.plays import playout_moves

    state = position(hands={0: ["red-3", "blue-5", "red-1"]}, owned=[(3, 5, "red")])
    assert playout_moves(state, 0, state.legal_moves(0)) == [play("red-1", "blue-5")]
    state = position(hands={0: ["red-joker", "blue-5"]}, owned=[(3, 5, "red"), (4, 5, "blue")])
    state.apply(0, play("red-joker", "blue-5"))
    kept = playout_moves(state, 0, state.legal_moves(0))
    assert take(3, 5) not in kept and take(4, 5) in kept and len(kept) == 6
    assert GAME.playout_moves is playout_moves
