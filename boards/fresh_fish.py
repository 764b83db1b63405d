"""Fresh Fish: the square town, its tiles (distributors, retailers, blocks, streets) and the
plots each seat reserved with its cubes."""

from __future__ import annotations

from typing import Any

from engines.fresh_fish import material

from .frame import fact_rows
from .grid import Cell, draw_grid, text_grid
from .svg import Canvas, seat_colour

NAME = "Fresh Fish"
BOARD_KEYS = frozenset({"grid", "size", "distributors", "options"})

GOODS_FILL = {"fish": "#6fa8dc", "nuclear": "#ffd966", "petrol": "#e06666", "games": "#93c47d"}
TILE_FILL = {"street": "#cccccc", "apartment": "#d9c3a5", "office": "#c9b38f", "park": "#a9d18e"}
# Two letters per tile in the terminal rendering: distributors in capitals, retailers in lower case.
TILE_TEXT = {
    "port": "FI", "nuclear_plant": "NU", "refinery": "PE", "game_factory": "GA",
    "fishmonger": "fi", "waste_dump": "nu", "petrol_station": "pe", "game_shop": "ga",
    "street": "==", "apartment": "Ap", "office": "Of", "park": "Pk",
}  # fmt: skip


def _tile_fill(tile: str) -> str:
    goods = material.GOODS_OF.get(tile)
    return GOODS_FILL[goods] if goods else TILE_FILL.get(tile, "#eeeeee")


def _cell(view: dict[str, Any]):
    def cell(r: int, c: int) -> Cell:
        square = view["grid"][r][c]
        tile, owner = square["tile"], square["owner"]
        where = f"row {r + 1}, column {c + 1}"
        if tile is None and owner is None:
            return Cell()
        if tile is None:  # a plot reserved by a cube
            return Cell(
                fill="#ffffff",
                label=f"s{owner}",
                tip=f"{where}: reserved by seat {owner}",
                text=f"{owner}.",
                border=seat_colour(owner),
            )
        name = material.NAMES.get(tile, tile)
        tip = f"{where}: {name}" + (f" (seat {owner})" if owner is not None else "")
        short = TILE_TEXT.get(tile, tile[:2])
        return Cell(
            fill=_tile_fill(tile),
            label=short if tile != "street" else "",
            tip=tip,
            text=short,
            border=seat_colour(owner) if owner is not None else "#999999",
        )

    return cell


def _legend_rows(view: dict[str, Any]) -> list[str]:
    rows = [
        f"{material.NAMES[material.DISTRIBUTOR[goods]]} ({TILE_TEXT[material.DISTRIBUTOR[goods]]}) at row "
        f"{spot['row']}, column {spot['column']}"
        for goods, spot in view["distributors"].items()
        if spot is not None
    ]
    rows.append("retailers in lower case; a bordered square is a seat's (reserved or built)")
    rows.append("Options: " + ", ".join(f"{k} {v}" for k, v in view["options"].items()))
    return rows


def draw(canvas: Canvas, shown: dict[str, Any], top: float) -> float:
    view = shown["view"]
    size = min(48, 480 // view["size"])
    bottom = draw_grid(canvas, 16, top, view["size"], view["size"], size, _cell(view))
    x = 16 + 26 + view["size"] * size + 24
    canvas.lines(x, top + 14, _legend_rows(view), 12, 6)
    return bottom


def board_rows(shown: dict[str, Any]) -> list[str]:
    view = shown["view"]
    return ["Town", *text_grid(view["size"], view["size"], _cell(view)), *_legend_rows(view)]


def seat_rows(shown: dict[str, Any], player: dict[str, Any]) -> list[str]:
    rows = [
        f"money {player['money']} · cubes: {player['cubes_in_hand']} in hand, "
        f"{player['cubes_set_aside']} set aside, {player['cubes_on_retailers']} on retailers"
    ]
    reserved = " ".join(f"r{spot['row']}c{spot['column']}" for spot in player["reserved"])
    rows.append(f"reserved plots: {reserved or 'none'}")
    built = [
        material.NAMES[material.RETAILER[goods]]
        + (f" r{spot['row']}c{spot['column']}" if isinstance(spot, dict) else " (kept in front)")
        for goods, spot in player["retailers"].items()
        if spot is not None
    ]
    rows.append(f"retailers: {', '.join(built) or 'none'}")
    rows += fact_rows(
        player,
        {"seat", "money", "cubes_in_hand", "cubes_set_aside", "cubes_on_retailers", "reserved", "retailers"},
    )
    return rows
