"""Fresh Fish: the square town, its tiles (distributors, retailers, blocks, streets) and the
plots each seat reserved with its cubes."""

from __future__ import annotations

from typing import Any

from engines.fresh_fish import material

from .frame import fact_rows, options_row
from .grid import Cell, draw_grid, text_grid
from .svg import Canvas, seat_colour
from .words import Words

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


def _name(tile: str, words: Words) -> str:
    """A tile's name (the engine's table says it in English; the rulebook's French beside it)."""
    return words.known(f"boards.fresh-fish.tile.{tile}", material.NAMES.get(tile, tile))


def _tile_fill(tile: str) -> str:
    goods = material.GOODS_OF.get(tile)
    return GOODS_FILL[goods] if goods else TILE_FILL.get(tile, "#eeeeee")


def _cell(view: dict[str, Any], words: Words):
    def cell(r: int, c: int) -> Cell:
        square = view["grid"][r][c]
        tile, owner = square["tile"], square["owner"]
        where = words("boards.fresh-fish.where", row=r + 1, column=c + 1)
        if tile is None and owner is None:
            return Cell()
        if tile is None:  # a plot reserved by a cube
            return Cell(
                fill="#ffffff",
                label=f"s{owner}",
                tip=words("boards.fresh-fish.reserved_by", where=where, seat=owner),
                text=f"{owner}.",
                border=seat_colour(owner),
            )
        name = _name(tile, words)
        tip = words("boards.fresh-fish.tile", where=where, tile=name) + (
            words("boards.fresh-fish.of_seat", seat=owner) if owner is not None else ""
        )
        short = TILE_TEXT.get(tile, tile[:2])
        return Cell(
            fill=_tile_fill(tile),
            label=short if tile != "street" else "",
            tip=tip,
            text=short,
            border=seat_colour(owner) if owner is not None else "#999999",
        )

    return cell


def _legend_rows(view: dict[str, Any], words: Words) -> list[str]:
    rows = [
        words(
            "boards.fresh-fish.distributor",
            tile=_name(material.DISTRIBUTOR[goods], words),
            short=TILE_TEXT[material.DISTRIBUTOR[goods]],
            row=spot["row"],
            column=spot["column"],
        )
        for goods, spot in view["distributors"].items()
        if spot is not None
    ]
    rows.append(words("boards.fresh-fish.legend"))
    rows.append(options_row(view, words))
    return rows


def draw(canvas: Canvas, shown: dict[str, Any], top: float, words: Words) -> float:
    view = shown["view"]
    size = min(48, 480 // view["size"])
    bottom = draw_grid(canvas, 16, top, view["size"], view["size"], size, _cell(view, words))
    x = 16 + 26 + view["size"] * size + 24
    canvas.lines(x, top + 14, _legend_rows(view, words), 12, 6)
    return bottom


def board_rows(shown: dict[str, Any], words: Words) -> list[str]:
    view = shown["view"]
    grid = text_grid(view["size"], view["size"], _cell(view, words))
    return [words("boards.fresh-fish.town"), *grid, *_legend_rows(view, words)]


def seat_rows(shown: dict[str, Any], player: dict[str, Any], words: Words) -> list[str]:
    rows = [
        words(
            "boards.fresh-fish.holdings",
            money=player["money"],
            in_hand=player["cubes_in_hand"],
            set_aside=player["cubes_set_aside"],
            on_retailers=player["cubes_on_retailers"],
        )
    ]
    reserved = " ".join(f"r{spot['row']}c{spot['column']}" for spot in player["reserved"])
    rows.append(words("boards.fresh-fish.reserved", plots=reserved or words("boards.none")))
    built = [
        _name(material.RETAILER[goods], words)
        + (f" r{spot['row']}c{spot['column']}" if isinstance(spot, dict) else words("boards.fresh-fish.kept"))
        for goods, spot in player["retailers"].items()
        if spot is not None
    ]
    rows.append(words("boards.fresh-fish.retailers", retailers=", ".join(built) or words("boards.none")))
    rows += fact_rows(
        player,
        words,
        {"seat", "money", "cubes_in_hand", "cubes_set_aside", "cubes_on_retailers", "reserved", "retailers"},
    )
    return rows
