"""New York: the 7×7 city (avenues are rows, streets columns), its pieces by colour and owner."""

from __future__ import annotations

from typing import Any

from engines.new_york import material

from .frame import fact_rows
from .grid import Cell, draw_grid, text_grid
from .svg import Canvas, fill_of, seat_colour

NAME = "New York"
BOARD_KEYS = frozenset({"board", "colours", "unowned", "stock_size", "discard", "options"})
LINE_NAMES = [str(n) for n in material.LINES]


def _owners(view: dict[str, Any]) -> dict[str, Any]:
    return {entry["colour"]: entry["seat"] for entry in view["colours"]}


def _cell(view: dict[str, Any]):
    owners = _owners(view)
    centre = {(a - 1, s - 1) for a, s in material.CENTRE_SQUARES}
    corners = {(a - 1, s - 1) for a, s in material.CORNER_SQUARES}

    def cell(r: int, c: int) -> Cell:
        colour = view["board"][r][c]
        mark = "+" if (r, c) in centre else "x" if (r, c) in corners else ""
        if colour is None:
            return Cell(label=mark, text=" " + (mark or "."))
        owner = owners.get(colour)
        return Cell(
            fill=fill_of(colour),
            label=mark,
            tip=f"avenue {r + 1} × street {c + 1}: {colour} (seat {owner})",
            text=colour[:1].upper() + (mark or " "),
            border=seat_colour(owner) if owner is not None else "#999999",
        )

    return cell


def _table_rows(view: dict[str, Any]) -> list[str]:
    rows = [
        f"{entry['colour']}: seat {entry['seat']}, placed by seat {entry['placed_by']}, "
        f"{entry['on_board']} on the board, {entry['supply']} in supply"
        for entry in view["colours"]
    ]
    rows.append(f"Unowned buildings: {view['unowned']}")
    rows.append(f"Stock: {view['stock_size']} cards · discard: {' '.join(view['discard']) or 'none'}")
    rows.append("Options: " + ", ".join(f"{k} {v}" for k, v in view["options"].items()))
    return rows


def draw(canvas: Canvas, shown: dict[str, Any], top: float) -> float:
    view = shown["view"]
    size = 48
    bottom = draw_grid(
        canvas, 16, top, material.SIZE, material.SIZE, size, _cell(view), LINE_NAMES, LINE_NAMES
    )
    x = 16 + 26 + material.SIZE * size + 24
    canvas.text(x, top + 30, "Rows: avenues (red cards) · columns: streets (blue cards)", 12)
    canvas.text(x, top + 48, "+ the 5 centre squares (reconstructed) · x the 4 corners", 12)
    canvas.lines(x, top + 54, _table_rows(view), 12, 6)
    return bottom


def board_rows(shown: dict[str, Any]) -> list[str]:
    view = shown["view"]
    grid = text_grid(material.SIZE, material.SIZE, _cell(view), LINE_NAMES, LINE_NAMES)
    return [
        "City (rows avenues, columns streets; letter = colour, + centre, x corner)",
        *grid,
        *_table_rows(view),
    ]


def seat_rows(shown: dict[str, Any], player: dict[str, Any]) -> list[str]:
    rows = [
        f"colours {' '.join(player['colours'])} · money {player['money']}"
        f" · {player['hand_size']} cards in hand"
    ]
    if "hand" in player:
        rows.append(f"hand: {' '.join(player['hand']) or 'none'}")
    if player.get("known_cards"):
        rows.append(f"cards of this hand you know: {' '.join(player['known_cards'])}")
    rows += fact_rows(player, {"seat", "colours", "money", "hand_size", "hand", "known_cards"})
    return rows
