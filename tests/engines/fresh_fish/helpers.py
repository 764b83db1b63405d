"""Build Fresh Fish positions from little maps, for the rule tests.

A map is one line per row (top first), one token per plot, separated by spaces:

    .  empty plot          0-4  plot reserved by that seat
    #  street              A O K  apartment, office, park
    P N R G  port, nuclear plant, refinery, game factory
    f w s g  followed by a seat: that seat's fishmonger, waste dump, petrol station, game shop

The board size gives the player count (7: 2 players ... 10: 5) unless ``seats`` says
otherwise. Cubes are set so that each seat still owns 8: on its retailers (the first two
from the set-aside pair), on its reservations, and the rest in hand.
"""

from __future__ import annotations

from engines.fresh_fish import GAME
from engines.fresh_fish import material as m
from engines.fresh_fish.board import neighbours, plot_at
from engines.fresh_fish.expropriation import unbuildable

TILES = {
    "#": "street",
    "A": "apartment",
    "O": "office",
    "K": "park",
    "P": "port",
    "N": "nuclear_plant",
    "R": "refinery",
    "G": "game_factory",
}
RETAILER_LETTERS = {"f": "fishmonger", "w": "waste_dump", "s": "petrol_station", "g": "game_shop"}
SEATS_FOR_SIZE = {7: 2, 8: 3, 9: 4, 10: 5}


def position(
    rows: str,
    *,
    seats: int | None = None,
    current: int = 0,
    pile: list[str] | None = None,
    money: dict[int, int] | None = None,
    in_front: dict[int, list[str]] | None = None,
    first_turn: bool = False,
    sound: bool = True,
    options: dict | None = None,
):
    lines = [line.split() for line in rows.strip().splitlines()]
    size = len(lines)
    assert all(len(line) == size for line in lines), "a map is square"
    seats = seats or SEATS_FOR_SIZE[size]
    state = GAME.setup(seats, options or {}, seed=1)
    assert state.size == size, f"{seats} players play on {state.size}x{state.size}"
    count = size * size
    state.board = [None] * count
    state.reserved = [None] * count
    state.distributors = {}
    for player in state.players:
        player["retailers"] = {}
    for r, line in enumerate(lines):
        for c, token in enumerate(line):
            plot = r * size + c
            if token == ".":
                continue
            if token.isdigit():
                state.reserved[plot] = int(token)
            elif token in TILES:
                tile = TILES[token]
                state.board[plot] = tile
                if tile in m.DISTRIBUTORS:
                    state.distributors[m.GOODS_OF[tile]] = plot
            else:
                tile = RETAILER_LETTERS[token[0]]
                state.board[plot] = tile
                state.players[int(token[1:])]["retailers"][m.GOODS_OF[tile]] = plot
    for seat, tiles in (in_front or {}).items():
        for tile in tiles:
            state.players[seat]["retailers"][m.GOODS_OF[tile]] = "front"
    for seat, player in enumerate(state.players):
        on_board = sum(1 for where in player["retailers"].values() if where != "front")
        player["set_aside"] = max(0, m.CUBES_SET_ASIDE - on_board)
        player["cubes"] = m.CUBES - player["set_aside"] - on_board - state.reserved.count(seat)
        assert player["cubes"] >= 0, f"seat {seat} has more than 8 cubes on the map"
        player["money"] = (money or {}).get(seat, m.STARTING_MONEY)
    state.frontier = frontier(state)
    if pile is not None:
        state.pile = list(pile)
    state.turns_taken = [0 if first_turn else 1] * seats
    state.current = current
    state.first_player = 0
    state.phase = "turn"
    state.next_distributor = None
    state.placer = state.drawer = state.drawn = None
    if sound:
        assert unbuildable(size, state.board) == [], "the map itself breaks the network rules"
    return state


def at(state, row: int, column: int) -> int:
    """The plot at 1-based row and column."""
    return plot_at(state.size, row, column)


def plot_move(kind: str, row: int, column: int, **extra) -> dict:
    return {"type": kind, "row": row, "column": column, **extra}


def cells_of(moves: list[dict], kind: str) -> set[tuple[int, int]]:
    return {(mv["row"], mv["column"]) for mv in moves if mv["type"] == kind}


def events_of(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def empty_map(size: int, corners: bool = True) -> str:
    """An empty board with the distributors in the corners (the default layout)."""
    rows = [["."] * size for _ in range(size)]
    if corners:
        rows[0][0], rows[0][-1], rows[-1][0], rows[-1][-1] = "P", "N", "R", "G"
    return "\n".join(" ".join(row) for row in rows)


def frontier(state) -> list[int]:
    """Free plots touching a developed or reserved plot, counted afresh."""
    board, reserved = state.board, state.reserved
    near = neighbours(state.size)
    return [
        plot
        for plot in range(len(board))
        if board[plot] is None
        and reserved[plot] is None
        and any(board[o] is not None or reserved[o] is not None for o in near[plot])
    ]
