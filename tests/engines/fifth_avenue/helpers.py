"""Positions for Fifth Avenue's rule tests, built through the engine's own state.

Scenarios name plots by their place in the district's ring (index 0 to 4, or 5), never by
colour: the colour order of each ring is a reconstruction (material.FIVE_PLOT_RINGS), and
the tests must hold whatever order the real board has.
"""

from __future__ import annotations

from typing import Any

from engines.fifth_avenue import GAME, board
from engines.fifth_avenue import material as m

TS = "times-square"


def new_game(seats: int = 3, *, six: bool = False, quick: bool = True, seed: int = 1):
    return GAME.setup(seats, {"quick_start": quick, "six_plot_board": six}, seed)


def empty_board(state) -> None:
    """No shop and no skyscraper anywhere (the cards stay as dealt)."""
    for district in state.districts:
        district["closed"] = False
        for plot in district["plots"]:
            plot.update(board.new_plot())


def index(district: str) -> int:
    return m.DISTRICT_INDEX[district]


def ring(state, district: str) -> tuple[str, ...]:
    return state.rings[index(district)]


def plot(state, district: str, i: int) -> dict[str, Any]:
    return state.districts[index(district)]["plots"][i]


def put(state, district: str, i: int, owner: Any = None, count: int = 0, shops: tuple[str, ...] = ()) -> None:
    p = plot(state, district, i)
    p["owner"] = owner if count else None
    p["count"] = count
    p["shops"] = list(shops)


def fill_with_shops(state, district: str, skip: tuple[int, ...] = ()) -> None:
    """Give every plot not in ``skip`` one shop, so that the district has no free plot."""
    for i, p in enumerate(state.districts[index(district)]["plots"]):
        if i not in skip and not p["count"] and not p["shops"]:
            p["shops"] = ["fashion"]


def set_hand(state, seat: int, cards: list[str], shown: list[str] | None = None) -> None:
    state.players[seat]["hand"] = list(cards)
    state.players[seat]["shown"] = list(shown or [])


def at_turn(state, seat: int) -> None:
    state.current = seat
    state.phase = "choose_action"
    state.turn = {"action": None, "step": 0, "taken": []}
    state.auction = None


def start_auction(state, seat: int, districts: list[str], pawn: str = "white") -> list[dict[str, Any]]:
    """``seat`` ends its turn moving ``pawn`` from Central Park to Start, with these districts expertised."""
    state.current = seat
    state.turn = {"action": "A", "step": 3, "taken": []}
    state.phase = "move_commission"
    state.auction = None
    state.pawns[pawn] = m.CENTRAL_PARK
    state.expertise[pawn] = list(districts)
    return state.apply(seat, {"type": "move_commission", "pawn": pawn, "to": m.START})


def add(state, seat: int, *cards: str) -> None:
    for card in cards:
        state.apply(seat, {"type": "add_card", "card": card})


def bid(state, seat: int, *cards: str) -> list[dict[str, Any]]:
    add(state, seat, *cards)
    return state.apply(seat, {"type": "bid"})


def pass_(state, seat: int) -> list[dict[str, Any]]:
    return state.apply(seat, {"type": "pass"})


def black_pile(state, cards: list[str]) -> None:
    state.black_pile = {"hidden": list(cards), "known": []}


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def first(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return next(e for e in events if e["type"] == kind)
