"""Property: the 8×8 grid of squares (column = red card, row = black card), owners and mortgages."""

from __future__ import annotations

from typing import Any

from engines.property import material

from .frame import fact_rows
from .grid import Cell, draw_grid, text_grid
from .svg import Canvas, seat_colour

NAME = "Property"
BOARD_KEYS = frozenset({"grid", "discard", "stock_size", "options"})


def _cell(grid: list[list[Any]]):
    def cell(r: int, c: int) -> Cell:
        square = grid[r][c]
        if square is None:
            return Cell()
        owner, mortgaged = square["owner"], square["mortgaged"]
        tip = f"column {c + 1}, row {r + 1}: seat {owner}" + (" (mortgaged)" if mortgaged else "")
        return Cell(
            fill=seat_colour(owner),
            label="M" if mortgaged else "",
            tip=tip,
            text=f"{owner}{'m' if mortgaged else ''}",
            dashed=mortgaged,
        )

    return cell


def _cards(cards: list[str]) -> str:
    return " ".join(material.card_text(card) for card in cards) or "none"


def _pile_rows(view: dict[str, Any]) -> list[str]:
    discard = view["discard"]
    top = material.card_text(discard[-1]) if discard else "none"
    return [
        f"Stock: {view['stock_size']} cards face down · discard: {len(discard)} cards, top {top}",
        "Options: " + ", ".join(f"{k} {v}" for k, v in view["options"].items()),
    ]


def draw(canvas: Canvas, shown: dict[str, Any], top: float) -> float:
    view = shown["view"]
    size = 44
    bottom = draw_grid(canvas, 16, top, material.GRID_SIZE, material.GRID_SIZE, size, _cell(view["grid"]))
    x = 16 + 26 + material.GRID_SIZE * size + 24
    canvas.text(x, top + 30, "Columns: red cards · rows: black cards (9 and 10 are wild)", 12)
    canvas.lines(x, top + 34, _pile_rows(view), 12, 6)
    return bottom


def board_rows(shown: dict[str, Any]) -> list[str]:
    view = shown["view"]
    grid = text_grid(material.GRID_SIZE, material.GRID_SIZE, _cell(view["grid"]))
    return ["Grid (seat owning each square; m = mortgaged)", *grid, *_pile_rows(view)]


def seat_rows(shown: dict[str, Any], player: dict[str, Any]) -> list[str]:
    rows = [
        f"money ${player['money']} · units "
        + ", ".join(f"{kind} {count}" for kind, count in player["units"].items())
        + f" (total {player['unit_total']}) · {player['hand_size']} cards in hand"
        + (" · bankrupt" if player["bankrupt"] else "")
    ]
    if "hand" in player:
        rows.append(f"hand: {_cards(player['hand'])}")
    rows += fact_rows(player, {"seat", "money", "units", "unit_total", "hand_size", "bankrupt", "hand"})
    return rows
