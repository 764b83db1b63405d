"""What each seat may see (rule NY-HIDDEN).

Public: the board, the colours and who plays them, money, pieces on the board and in the
supply, hand sizes, the discard pile (cards are discarded face up), the stock's size, where
the Stop cards are, a hand shown because nothing could be played. Private: one's own hand,
the cards a partner handed over in an exchange (to those two), an offered card (to those two).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import View
from . import material as m

if TYPE_CHECKING:
    from .rules import NewYorkState


def view(state: NewYorkState, seat: int | None) -> View:
    names = m.COLOURS
    players = []
    for s in range(state.seats):
        shown: dict[str, object] = {
            "seat": s,
            "colours": [names[c] for c in state.seat_colours[s]],
            "money": state.money[s],
            "hand_size": len(state.hands[s]),
        }
        if state.options["teams"]:
            shown["partner"] = state.partner(s)
        if s == seat:
            shown["hand"] = sorted(state.hands[s], key=m.CARD_RANK.__getitem__)
        elif seat is not None:
            known = state.known[s].get(str(seat))
            if known:
                shown["known_cards"] = sorted(known, key=m.CARD_RANK.__getitem__)
        players.append(shown)
    colours = [
        {
            "colour": names[c],
            "seat": state.colour_seat[c],
            "placed_by": state.provisional_seat[c],
            "on_board": state.on_board[c],
            "supply": state.supply[c],
        }
        for c in range(state.colours)
    ]
    in_discard = state.discard.count(m.STOP)
    drawn = 0 if state.stop_drawn_by is None else 1
    stops = {
        "added": state.stops_added,
        "in_discard": in_discard,
        "in_stock": (m.STOP_COPIES - in_discard - drawn) if state.stops_added else 0,
        "drawn_by": state.stop_drawn_by,
    }
    offer: dict[str, int | str] | None = None
    if state.offer is not None:
        offer = {"from": state.current, "to": state.partner(state.current)}
        if seat in (state.current, state.partner(state.current)):
            offer["card"] = state.offer["card"]
    surrender = None
    if state.surrender is not None:
        pending = state.surrender
        surrender = {
            "seat": pending["seat"],
            "colour": names[pending["colour"]],
            "line": None if pending["line"] is None else dict(pending["line"]),
            "to_colour": names[pending["gain"]],
            "event": pending["event"],
        }
    rebuild = None
    if state.rebuild is not None:
        rebuild = {
            "event": state.rebuild["event"],
            "squares": [list(sq) for sq in state.rebuild["squares"]],
            "seat": state.rebuild["seat"],
        }
    return {
        "phase": state.phase,
        "current": state.current,
        "turn": state.turn,
        "board": [[None if c is None else names[c] for c in row] for row in state.board],
        "unowned": state.unowned(),
        "colours": colours,
        "players": players,
        "stock_size": len(state.stock),
        "discard": list(state.discard),
        "stops": stops,
        "preliminary": {
            "placing": names[state.prelim_queue[0]] if state.prelim_queue else None,
            "placements_left": len(state.prelim_queue),
            "choosing": state.choose_queue[0] if state.choose_queue else None,
        },
        "colour_draw": None if state.colour_draw is None else list(state.colour_draw),
        "played": None if state.pending is None else list(state.pending["cards"]),
        "rebuild": rebuild,
        "surrender": surrender,
        "offer": offer,
        "exchanged": state.exchanged,
        "revealed_hand": None
        if state.revealed is None
        else dict(state.revealed, cards=list(state.revealed["cards"])),
        "options": dict(state.options),
    }
