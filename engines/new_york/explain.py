"""Which rule refuses a move that is not listed: a stable snake_case code and a message
(``new_york.refusal.…``, engines/locales/)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import IllegalMove, InvalidMove, Move, say
from . import city, plays
from . import material as m

if TYPE_CHECKING:
    from .rules import NewYorkState

# The move types each phase waits for, and the code refusing another one (its message:
# new_york.refusal.<code>).
_PHASE_MOVES = {
    "choose_colour": (("choose_colour",), "colours_being_chosen"),
    "preliminary": (("place",), "preliminary_round"),
    "play": (("play", "event", "offer", "discard_hand"), "play_cards"),
    "target": (("take", "line", "name"), "choose_target"),
    "exchange": (("swap", "refuse"), "exchange_pending"),
    "rebuild": (("rebuild",), "rebuild_pending"),
    "surrender": (("surrender",), "surrender_pending"),
}

# Moves that come when nothing of theirs is going on, during a turn, and the code refusing them.
_OUT_OF_PHASE = {
    "place": "preliminary_round_over",
    "choose_colour": "colours_settled",
    "take": "no_cards_played",
    "line": "no_cards_played",
    "name": "no_cards_played",
    "swap": "no_exchange_offered",
    "refuse": "no_exchange_offered",
    "rebuild": "nothing_to_rebuild",
    "surrender": "nothing_to_give_up",
}


def explain(state: NewYorkState, seat: int, move: Move) -> IllegalMove:
    kind = move["type"]
    allowed, code = _PHASE_MOVES[state.phase]
    if kind not in allowed:
        if state.phase == "play" and kind in _OUT_OF_PHASE:
            code = _OUT_OF_PHASE[kind]
        return IllegalMove(code, say(f"new_york.refusal.{code}"))
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
    return handler(state, seat, move) or IllegalMove(
        "move_not_available", say("new_york.refusal.move_not_available")
    )


def _must_take() -> IllegalMove:
    return IllegalMove("must_take_a_building", say("new_york.refusal.must_take_a_building"))


# ---- shared checks ---------------------------------------------------------------------------
def _line(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= m.SIZE


def _fields(move: Move, required: set[str], optional: frozenset[str] = frozenset()) -> IllegalMove | None:
    keys = set(move) - {"type"}
    if not required <= keys or not keys <= required | optional:
        if not required:
            return InvalidMove("malformed_move", say("new_york.refusal.fields_none", type=repr(move["type"])))
        names = [repr(name) for name in sorted(required)]
        return InvalidMove(
            "malformed_move", say("new_york.refusal.fields", type=repr(move["type"]), names=names)
        )
    return None


def _square(move: Move) -> IllegalMove | None:
    if not _line(move.get("avenue")) or not _line(move.get("street")):
        return IllegalMove("no_such_square", say("new_york.refusal.lines_numbered"))
    return None


def _card(state: NewYorkState, seat: int, card: Any, colour: str | None) -> IllegalMove | None:
    if not isinstance(card, str) or card not in m.CARD_RANK or card == m.STOP:
        return IllegalMove("no_such_card", say("new_york.refusal.no_such_card", card=repr(card)))
    if colour is not None and m.card_colour(card) != colour:
        return IllegalMove("wrong_colour", say(f"new_york.refusal.wrong_colour.{colour}"))
    if card not in state.hands[seat]:
        return IllegalMove(
            "card_not_in_hand", say("new_york.refusal.card_not_in_hand", card=m.card_said(card))
        )
    return None


def _gain_colour(state: NewYorkState, seat: int, move: Move) -> IllegalMove | None:
    """The colour the building is taken in: named in variant 3, with a piece in the supply."""
    if state.options["two_colours"]:
        if "colour" not in move:
            return IllegalMove("colour_required", say("new_york.refusal.colour_required"))
        colour = state.colour_index(move["colour"])
        if colour is None or colour not in state.seat_colours[seat]:
            return IllegalMove(
                "not_your_colour", say("new_york.refusal.not_your_colour", colour=repr(move["colour"]))
            )
    else:
        if "colour" in move:
            return IllegalMove(
                "colour_only_with_two_colours", say("new_york.refusal.colour_only_with_two_colours")
            )
        colour = state.seat_colours[seat][0]
    if state.supply[colour] <= 0:
        return IllegalMove(
            "no_piece_left",
            say("new_york.refusal.no_piece_left.colour", colour=m.COLOUR_SAID[m.COLOURS[colour]]),
        )
    return None


def _designates(card: str, value: int, what: str) -> IllegalMove | None:
    number = m.CARD_LINE[card]
    if number is not None and number != value:
        return IllegalMove(
            "card_does_not_designate",
            say(
                f"new_york.refusal.card_does_not_designate.{what}",
                card=m.card_said(card),
                number=number,
                value=value,
            ),
        )
    return None


# ---- before the game -------------------------------------------------------------------------
def _place(state: NewYorkState, seat: int, move: Move) -> IllegalMove | None:
    error = _fields(move, {"avenue", "street"}) or _square(move)
    if error:
        return error
    a, s = move["avenue"], move["street"]
    if state.board[a - 1][s - 1] is not None:
        return IllegalMove("square_taken", say("new_york.refusal.square_taken"))
    colour = m.COLOUR_SAID[m.COLOURS[state.prelim_queue[0]]]
    return IllegalMove("same_colour_adjacent", say("new_york.refusal.same_colour_adjacent", colour=colour))


def _choose(state: NewYorkState, seat: int, move: Move) -> IllegalMove | None:
    error = _fields(move, {"colour"})
    if error:
        return error
    if state.colour_index(move["colour"]) is None:
        colours = [m.COLOUR_SAID[c] for c in m.COLOURS[: state.colours]]
        return IllegalMove("no_such_colour", say("new_york.refusal.no_such_colour.game", colours=colours))
    return IllegalMove(
        "colour_taken", say("new_york.refusal.colour_taken", colour=m.COLOUR_SAID[move["colour"]])
    )


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
        return IllegalMove("single_event_played_alone", say("new_york.refusal.single_event_played_alone"))
    if red_event and blue_event:
        return IllegalMove("event_needs_street_card", say("new_york.refusal.event_needs_street_card"))
    if m.BAULOWE in (red_event, blue_event):
        return IllegalMove(
            "baulowe_needs_opponents_building", say("new_york.refusal.baulowe_needs_opponents_building.line")
        )
    if next(plays.building_choices(state, seat, red, blue, own=True), None) is not None:
        return _must_take()
    if not plays.gaining_colours(state, seat):
        return IllegalMove("no_piece_left", say("new_york.refusal.no_piece_left.only_lose"))
    return IllegalMove("cannot_afford", say("new_york.refusal.cannot_afford.cards"))


def _event(state: NewYorkState, seat: int, move: Move) -> IllegalMove | None:
    error = _fields(move, {"card"})
    if error:
        return error
    card = move["card"]
    error = _card(state, seat, card, None)
    if error:
        return error
    if m.CARD_EVENT[card] not in m.SINGLE_EVENTS:
        return IllegalMove(
            "not_a_single_event", say("new_york.refusal.not_a_single_event", card=m.card_said(card))
        )
    if not plays.gaining_colours(state, seat):
        return IllegalMove("no_piece_left", say("new_york.refusal.no_piece_left.spekulation"))
    return IllegalMove(
        "spekulation_needs_more_than_eight",
        say("new_york.refusal.spekulation_needs_more_than_eight.another", count=m.SPEKULATION_MORE_THAN),
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
        return IllegalMove("choose_" + expected, say(f"new_york.refusal.choose_{expected}"))
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
            return IllegalMove(
                "baulowe_needs_opponents_building",
                say("new_york.refusal.baulowe_needs_opponents_building.square"),
            )
        return _gain_colour(state, seat, move)
    error = _designates(red, a, "avenue") or _designates(blue, s, "street")
    if error:
        return error
    if owner is not None and state.colour_seat[owner] == seat:
        if "colour" in move:
            return IllegalMove("colour_not_needed", say("new_york.refusal.colour_not_needed"))
        return _must_take()
    error = _gain_colour(state, seat, move)
    if error:
        return error
    if owner is not None:
        cost = city.price(*state.price_counts(), owner, a, s)
        if cost > state.money[seat]:
            return IllegalMove(
                "cannot_afford",
                say(
                    "new_york.refusal.cannot_afford.building",
                    owner=m.COLOUR_SAID[m.COLOURS[owner]],
                    count=cost,
                    money=state.money[seat],
                ),
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
        return IllegalMove("no_such_line", say("new_york.refusal.lines_numbered"))
    error = _designates(blue if kind == "street" else red, move[kind], kind)
    if error:
        return error
    victims = plays.statik_victims(state, seat, kind, move[kind])
    if not victims:
        if "victim" in move or "colour" in move:
            return IllegalMove("statik_no_victim", say(f"new_york.refusal.statik_no_victim.{kind}"))
        return None
    if "victim" not in move:
        return IllegalMove("statik_victim_required", say(f"new_york.refusal.statik_victim_required.{kind}"))
    if state.colour_index(move["victim"]) not in victims:
        return IllegalMove(
            "statik_victim_not_leader",
            say("new_york.refusal.statik_victim_not_leader", victim=repr(move["victim"])),
        )
    return _gain_colour(state, seat, move)


def _name(state: NewYorkState, seat: int, move: Move) -> IllegalMove | None:
    error = _wrong_choice(state, move) or _fields(move, {"victim"}, frozenset({"colour"}))
    if error:
        return error
    victim = state.colour_index(move["victim"])
    if victim is None:
        return IllegalMove(
            "no_such_colour", say("new_york.refusal.no_such_colour.victim", victim=repr(move["victim"]))
        )
    if state.colour_seat[victim] == seat:
        return IllegalMove("cannot_name_yourself", say("new_york.refusal.cannot_name_yourself"))
    if state.on_board[victim] <= m.SPEKULATION_MORE_THAN:
        return IllegalMove(
            "spekulation_needs_more_than_eight",
            say("new_york.refusal.spekulation_needs_more_than_eight.named", count=m.SPEKULATION_MORE_THAN),
        )
    return _gain_colour(state, seat, move)


# ---- partners, dead hands, events ------------------------------------------------------------
def _offer(state: NewYorkState, seat: int, move: Move) -> IllegalMove | None:
    if not state.options["teams"]:
        return IllegalMove("no_partner", say("new_york.refusal.no_partner"))
    if state.exchanged:
        return IllegalMove("one_exchange_per_turn", say("new_york.refusal.one_exchange_per_turn"))
    return _fields(move, {"card"}) or _card(state, seat, move["card"], None)


def _swap(state: NewYorkState, seat: int, move: Move) -> IllegalMove | None:
    return _fields(move, {"card"}) or _card(state, seat, move["card"], None)


def _refuse(state: NewYorkState, seat: int, move: Move) -> IllegalMove | None:
    return _fields(move, set())


def _discard(state: NewYorkState, seat: int, move: Move) -> IllegalMove | None:
    return _fields(move, set()) or IllegalMove("hand_can_play", say("new_york.refusal.hand_can_play"))


def _rebuild(state: NewYorkState, seat: int, move: Move) -> IllegalMove | None:
    error = _fields(move, {"avenue", "street"}, frozenset({"colour"})) or _square(move)
    if error:
        return error
    if [move["avenue"], move["street"]] not in state.rebuilding()["squares"]:
        return IllegalMove("not_a_cleared_square", say("new_york.refusal.not_a_cleared_square"))
    return _gain_colour(state, seat, move)


def _surrender(state: NewYorkState, seat: int, move: Move) -> IllegalMove | None:
    error = _fields(move, {"avenue", "street"}) or _square(move)
    if error:
        return error
    pending = state.surrendering()
    colour = m.COLOUR_SAID[m.COLOURS[pending["colour"]]]
    line = pending["line"]
    if line is None:
        return IllegalMove(
            "not_a_building_to_give", say("new_york.refusal.not_a_building_to_give", colour=colour)
        )
    return IllegalMove(
        "not_a_building_to_give",
        say(f"new_york.refusal.not_a_building_to_give.{line['kind']}", colour=colour, number=line["number"]),
    )
