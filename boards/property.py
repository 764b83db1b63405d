"""Property: the 8×8 grid of squares (column = red card, row = black card), owners and mortgages."""

from __future__ import annotations

from typing import Any

from engines.property import material

from .frame import fact_rows, options_row
from .grid import Cell, draw_grid, text_grid
from .svg import Canvas, seat_colour
from .words import Words

NAME = "Property"
BOARD_KEYS = frozenset({"grid", "discard", "stock_size", "options"})


def _cell(grid: list[list[Any]], words: Words):
    def cell(r: int, c: int) -> Cell:
        square = grid[r][c]
        if square is None:
            return Cell()
        owner, mortgaged = square["owner"], square["mortgaged"]
        tip = words("boards.property.square", column=c + 1, row=r + 1, seat=owner) + (
            words("boards.property.mortgaged") if mortgaged else ""
        )
        return Cell(
            fill=seat_colour(owner),
            label=words("boards.property.mortgage_mark") if mortgaged else "",
            tip=tip,
            text=f"{owner}{words('boards.property.mortgage_letter') if mortgaged else ''}",
            dashed=mortgaged,
        )

    return cell


def _cards(cards: list[str], words: Words) -> str:
    return " ".join(material.card_text(card) for card in cards) or words("boards.none")


def _pile_rows(view: dict[str, Any], words: Words) -> list[str]:
    discard = view["discard"]
    top = material.card_text(discard[-1]) if discard else words("boards.none")
    return [
        words("boards.property.piles", stock=view["stock_size"], discard=len(discard), top=top),
        options_row(view, words),
    ]


def draw(canvas: Canvas, shown: dict[str, Any], top: float, words: Words) -> float:
    view = shown["view"]
    size = 44
    bottom = draw_grid(
        canvas, 16, top, material.GRID_SIZE, material.GRID_SIZE, size, _cell(view["grid"], words)
    )
    x = 16 + 26 + material.GRID_SIZE * size + 24
    canvas.text(x, top + 30, words("boards.property.axes"), 12)
    canvas.lines(x, top + 34, _pile_rows(view, words), 12, 6)
    return bottom


def board_rows(shown: dict[str, Any], words: Words) -> list[str]:
    view = shown["view"]
    grid = text_grid(material.GRID_SIZE, material.GRID_SIZE, _cell(view["grid"], words))
    return [words("boards.property.grid"), *grid, *_pile_rows(view, words)]


def seat_rows(shown: dict[str, Any], player: dict[str, Any], words: Words) -> list[str]:
    units = ", ".join(
        f"{words.known(f'boards.property.unit.{kind}', kind)} {count}"
        for kind, count in player["units"].items()
    )
    rows = [
        words(
            "boards.property.holdings",
            money=player["money"],
            units=units,
            total=player["unit_total"],
            hand=player["hand_size"],
        )
        + (words("boards.property.bankrupt") if player["bankrupt"] else "")
    ]
    if "hand" in player:
        rows.append(words("boards.hand", cards=_cards(player["hand"], words)))
    rows += fact_rows(
        player, words, {"seat", "money", "units", "unit_total", "hand_size", "bankrupt", "hand"}
    )
    return rows
