"""Which rule refuses a move that is not listed (stable snake_case codes, English sentences)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import IllegalMove, InvalidMove, Move
from . import city, plays
from . import material as m

if TYPE_CHECKING:
    from .rules import NewYorkState

# The move types each phase waits for, and what to say when another one comes.
_PHASE_MOVES = {
    "choose_colour": (
        ("choose_colour",),
        "colours_being_chosen",
        "Each player first chooses a colour (variant 2).",
    ),
    "preliminary": (("place",), "preliminary_round", "The preliminary round is on: place a piece."),
    "play": (
        ("play", "event", "offer", "discard_hand"),
        "play_cards",
        "It is the time to play cards (a red and a blue card, or an event card alone).",
    ),
    "target": (("take", "line", "name"), "choose_target", "Choose first what the cards just played do."),
    "exchange": (
        ("swap", "refuse"),
        "exchange_pending",
        "Your partner offered a card: give one back or refuse.",
    ),
    "rebuild": (("rebuild",), "rebuild_pending", "The cleared squares must be filled first, one piece each."),
    "surrender": (("surrender",), "surrender_pending", "A building must first be given up."),
}

# Moves that come when nothing of theirs is going on, during a turn.
_OUT_OF_PHASE = {
    "place": ("preliminary_round_over", "The preliminary round is over."),
    "choose_colour": ("colours_settled", "The colours are already settled."),
    "take": ("no_cards_played", "Play cards first; then choose what they reach."),
    "line": ("no_cards_played", "Play cards first; then choose what they reach."),
    "name": ("no_cards_played", "Play cards first; then choose what they reach."),
    "swap": ("no_exchange_offered", "No card is offered to you in exchange."),
    "refuse": ("no_exchange_offered", "No card is offered to you in exchange."),
    "rebuild": ("nothing_to_rebuild", "No cleared square waits for a piece."),
    "surrender": ("nothing_to_give_up", "Nobody has to give up a building now."),
}


def explain(state: NewYorkState, seat: int, move: Move) -> IllegalMove:
    kind = move["type"]
    allowed, code, sentence = _PHASE_MOVES[state.phase]
    if kind not in allowed:
        if state.phase == "play" and kind in _OUT_OF_PHASE:
            return _bad(*_OUT_OF_PHASE[kind])
        return _bad(code, sentence)
    handler = {
        "place": _place,
        "choose_colour": _choose,
        "play": _play,
        "event": _event,
        "take": _take,
        "line": _line_choice,
        "name": _name,
        "offer": _offer,
        "swap": _swap,
        "refuse": _refuse,
        "discard_hand": _discard,
        "rebuild": _rebuild,
        "surrender": _surrender,
    }[kind]
    return handler(state, seat, move) or _bad("move_not_available", "That move is not available now.")


def _must_take() -> IllegalMove:
    return IllegalMove(
        "must_take_a_building",
        "One's own building is lost only when no card pair can take a building (free or bought).",
    )


# ---- shared checks ---------------------------------------------------------------------------
def _bad(code: str, sentence: str) -> IllegalMove:
    return IllegalMove(code, sentence)


def _line(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= m.SIZE


def _fields(move: Move, required: set[str], optional: frozenset[str] = frozenset()) -> IllegalMove | None:
    keys = set(move) - {"type"}
    if not required <= keys or not keys <= required | optional:
        names = ", ".join(sorted(required)) or "nothing else"
        return InvalidMove("malformed_move", f"A {move['type']} move names {names}.")
    return None


def _square(move: Move) -> IllegalMove | None:
    if not _line(move.get("avenue")) or not _line(move.get("street")):
        return _bad("no_such_square", "Avenues and streets are numbered 1 to 7.")
    return None


def _card(state: NewYorkState, seat: int, card: Any, colour: str | None) -> IllegalMove | None:
    if not isinstance(card, str) or card not in m.CARD_RANK or card == m.STOP:
        return _bad("no_such_card", f"{card!r} is not a card of this game.")
    if colour is not None and m.card_colour(card) != colour:
        return _bad("wrong_colour", f"The {colour} card must be a {colour} card.")
    if card not in state.hands[seat]:
        return _bad("card_not_in_hand", f"You do not hold a {m.card_text(card)}.")
    return None


def _gain_colour(state: NewYorkState, seat: int, move: Move) -> IllegalMove | None:
    """The colour the building is taken in: named in variant 3, with a piece in the supply."""
    if state.options["two_colours"]:
        if "colour" not in move:
            return _bad("colour_required", "With two colours each, say which colour takes the building.")
        colour = state.colour_index(move["colour"])
        if colour is None or colour not in state.seat_colours[seat]:
            return _bad("not_your_colour", f"{move['colour']!r} is not one of your colours.")
    else:
        if "colour" in move:
            return _bad(
                "colour_only_with_two_colours", "Only with two colours each does a move name a colour."
            )
        colour = state.seat_colours[seat][0]
    if state.supply[colour] <= 0:
        return _bad("no_piece_left", f"No {m.COLOURS[colour]} piece is left to take a building with.")
    return None


def _designates(card: str, value: int, what: str) -> IllegalMove | None:
    number = m.CARD_LINE[card]
    if number is not None and number != value:
        return _bad("card_does_not_designate", f"{m.card_text(card)} names {what} {number}, not {value}.")
    return None


# ---- before the game -------------------------------------------------------------------------
def _place(state: NewYorkState, seat: int, move: Move) -> IllegalMove | None:
    error = _fields(move, {"avenue", "street"}) or _square(move)
    if error:
        return error
    a, s = move["avenue"], move["street"]
    if state.board[a - 1][s - 1] is not None:
        return _bad("square_taken", "That square already holds a piece.")
    colour = m.COLOURS[state.prelim_queue[0]]
    return _bad(
        "same_colour_adjacent",
        f"A {colour} piece may not go beside another {colour} piece (diagonally is allowed).",
    )


def _choose(state: NewYorkState, seat: int, move: Move) -> IllegalMove | None:
    error = _fields(move, {"colour"})
    if error:
        return error
    if state.colour_index(move["colour"]) is None:
        return _bad(
            "no_such_colour", f"The colours of this game are {', '.join(m.COLOURS[: state.colours])}."
        )
    return _bad("colour_taken", f"{move['colour']} is already taken.")


# ---- laying down cards -----------------------------------------------------------------------
def _play(state: NewYorkState, seat: int, move: Move) -> IllegalMove | None:
    error = _fields(move, {"red", "blue"})
    if error:
        return error
    red, blue = move["red"], move["blue"]
    error = _card(state, seat, red, m.RED) or _card(state, seat, blue, m.BLUE)
    if error:
        return error
    red_event, blue_event = m.CARD_EVENT[red], m.CARD_EVENT[blue]
    if red_event in m.SINGLE_EVENTS or blue_event in m.SINGLE_EVENTS:
        return _bad("single_event_played_alone", "Sanierung, Ruin and Spekulation are played alone.")
    if red_event and blue_event:
        return _bad(
            "event_needs_street_card",
            "Baulöwe and Statik go with a street card or a joker of the other colour.",
        )
    if m.BAULOWE in (red_event, blue_event):
        return _bad(
            "baulowe_needs_opponents_building", "Baulöwe needs another player's building on that line."
        )
    if next(plays.building_choices(state, seat, red, blue, own=True), None) is not None:
        return _must_take()
    if not plays.gaining_colours(state, seat):
        return _bad(
            "no_piece_left",
            "With no piece left you can only lose your own buildings; these cards reach none.",
        )
    return _bad("cannot_afford", "These cards reach only buildings whose owners you cannot pay.")


def _event(state: NewYorkState, seat: int, move: Move) -> IllegalMove | None:
    error = _fields(move, {"card"})
    if error:
        return error
    card = move["card"]
    error = _card(state, seat, card, None)
    if error:
        return error
    if m.CARD_EVENT[card] not in m.SINGLE_EVENTS:
        return _bad("not_a_single_event", f"{m.card_text(card)} is not played alone.")
    if not plays.gaining_colours(state, seat):
        return _bad("no_piece_left", "You have no piece left for the building Spekulation would give you.")
    return _bad(
        "spekulation_needs_more_than_eight",
        f"Spekulation names another player with more than {m.SPEKULATION_MORE_THAN} pieces on the board.",
    )


# ---- what the cards reach ----------------------------------------------------------------------
def _pending_kind(state: NewYorkState) -> str:
    cards = state.pending_cards()
    if len(cards) == 1:
        return "name"
    return "line" if m.STATIK in (m.CARD_EVENT[cards[0]], m.CARD_EVENT[cards[1]]) else "take"


def _wrong_choice(state: NewYorkState, move: Move) -> IllegalMove | None:
    expected = _pending_kind(state)
    if move["type"] != expected:
        what = {"take": "a building", "line": "Statik's line", "name": "Spekulation's victim"}[expected]
        return _bad("choose_" + expected, f"The cards played wait for {what} ({expected}).")
    return None


def _take(state: NewYorkState, seat: int, move: Move) -> IllegalMove | None:
    error = _wrong_choice(state, move) or _fields(move, {"avenue", "street"}, frozenset({"colour"}))
    error = error or _square(move)
    if error:
        return error
    red, blue = state.pending_cards()
    a, s = move["avenue"], move["street"]
    owner = state.board[a - 1][s - 1]
    if m.BAULOWE in (m.CARD_EVENT[red], m.CARD_EVENT[blue]):
        companion, what, value = (blue, "street", s) if m.CARD_EVENT[red] else (red, "avenue", a)
        error = _designates(companion, value, what)
        if error:
            return error
        if owner is None or state.colour_seat[owner] == seat:
            return _bad(
                "baulowe_needs_opponents_building", "Baulöwe takes a building that another player owns."
            )
        return _gain_colour(state, seat, move)
    error = _designates(red, a, "avenue") or _designates(blue, s, "street")
    if error:
        return error
    if owner is not None and state.colour_seat[owner] == seat:
        if "colour" in move:
            return _bad("colour_not_needed", "Losing one's own building needs no colour.")
        return _must_take()
    error = _gain_colour(state, seat, move)
    if error:
        return error
    if owner is not None:
        cost = city.price(*state.price_counts(), owner, a, s)
        if cost > state.money[seat]:
            return _bad(
                "cannot_afford",
                f"{m.COLOURS[owner]}'s building costs {cost} and you have {state.money[seat]}.",
            )
    return None


def _line_choice(state: NewYorkState, seat: int, move: Move) -> IllegalMove | None:
    error = _wrong_choice(state, move)
    if error:
        return error
    red, blue = state.pending_cards()
    kind = "street" if m.CARD_EVENT[red] == m.STATIK else "avenue"
    error = _fields(move, {kind}, frozenset({"victim", "colour"}))
    if error:
        return error
    if not _line(move[kind]):
        return _bad("no_such_line", "Avenues and streets are numbered 1 to 7.")
    error = _designates(blue if kind == "street" else red, move[kind], kind)
    if error:
        return error
    victims = plays.statik_victims(state, seat, kind, move[kind])
    if not victims:
        if "victim" in move or "colour" in move:
            return _bad("statik_no_victim", f"Nobody else has the most buildings in that {kind}.")
        return None
    if "victim" not in move:
        return _bad(
            "statik_victim_required", f"Name who gives up a building: the most buildings in that {kind}."
        )
    if state.colour_index(move["victim"]) not in victims:
        return _bad("statik_victim_not_leader", f"{move['victim']!r} does not have the most buildings there.")
    return _gain_colour(state, seat, move)


def _name(state: NewYorkState, seat: int, move: Move) -> IllegalMove | None:
    error = _wrong_choice(state, move) or _fields(move, {"victim"}, frozenset({"colour"}))
    if error:
        return error
    victim = state.colour_index(move["victim"])
    if victim is None:
        return _bad("no_such_colour", f"{move['victim']!r} is not a colour of this game.")
    if state.colour_seat[victim] == seat:
        return _bad("cannot_name_yourself", "Spekulation names another player.")
    if state.on_board[victim] <= m.SPEKULATION_MORE_THAN:
        return _bad(
            "spekulation_needs_more_than_eight",
            f"Spekulation names a player with more than {m.SPEKULATION_MORE_THAN} pieces on the board.",
        )
    return _gain_colour(state, seat, move)


# ---- partners, dead hands, events ------------------------------------------------------------
def _offer(state: NewYorkState, seat: int, move: Move) -> IllegalMove | None:
    if not state.options["teams"]:
        return _bad("no_partner", "Cards are exchanged only between partners in the team game (variant 4).")
    if state.exchanged:
        return _bad("one_exchange_per_turn", "Partners exchange at most once per turn.")
    return _fields(move, {"card"}) or _card(state, seat, move["card"], None)


def _swap(state: NewYorkState, seat: int, move: Move) -> IllegalMove | None:
    return _fields(move, {"card"}) or _card(state, seat, move["card"], None)


def _refuse(state: NewYorkState, seat: int, move: Move) -> IllegalMove | None:
    return _fields(move, set())


def _discard(state: NewYorkState, seat: int, move: Move) -> IllegalMove | None:
    return _fields(move, set()) or _bad(
        "hand_can_play", "Your hand can take a building: a hand is shown and discarded only when it cannot."
    )


def _rebuild(state: NewYorkState, seat: int, move: Move) -> IllegalMove | None:
    error = _fields(move, {"avenue", "street"}, frozenset({"colour"})) or _square(move)
    if error:
        return error
    if [move["avenue"], move["street"]] not in state.rebuilding()["squares"]:
        return _bad("not_a_cleared_square", "Pieces go only on the cleared squares that are still empty.")
    return _gain_colour(state, seat, move)


def _surrender(state: NewYorkState, seat: int, move: Move) -> IllegalMove | None:
    error = _fields(move, {"avenue", "street"}) or _square(move)
    if error:
        return error
    pending = state.surrendering()
    where = "" if pending["line"] is None else f" in {pending['line']['kind']} {pending['line']['number']}"
    return _bad(
        "not_a_building_to_give", f"Give up one of your {m.COLOURS[pending['colour']]} buildings{where}."
    )
