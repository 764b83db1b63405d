"""New York: the 7×7 city (avenues are rows, streets columns), its pieces by colour and owner."""

from __future__ import annotations

from typing import Any

from engines.new_york import material

from .frame import fact_rows, options_row
from .grid import Cell, draw_grid, text_grid
from .svg import Canvas, fill_of, seat_colour
from .words import Words

NAME = "New York"
BOARD_KEYS = frozenset({"board", "colours", "unowned", "stock_size", "discard", "options"})
LINE_NAMES = [str(n) for n in material.LINES]


def _owners(view: dict[str, Any]) -> dict[str, Any]:
    return {entry["colour"]: entry["seat"] for entry in view["colours"]}


def _colour(colour: str, words: Words) -> str:
    """A colour in the words of the engine's own labels (``new_york.colour.…``)."""
    return words.known(f"new_york.colour.{colour}", colour)


def _cards(cards: list[str], words: Words) -> str:
    """Cards by their ids (codes, as the view and the moves name them)."""
    return " ".join(words.code(card) for card in cards)


def _cell(view: dict[str, Any], words: Words):
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
            tip=words(
                "boards.new-york.square",
                avenue=r + 1,
                street=c + 1,
                colour=_colour(colour, words),
                seat=owner,
            ),
            text=_colour(colour, words)[:1].upper() + (mark or " "),
            border=seat_colour(owner) if owner is not None else "#999999",
        )

    return cell


def _table_rows(view: dict[str, Any], words: Words) -> list[str]:
    rows = [
        words(
            "boards.new-york.colour",
            colour=_colour(entry["colour"], words),
            seat=entry["seat"],
            placed_by=entry["placed_by"],
            on_board=entry["on_board"],
            supply=entry["supply"],
        )
        for entry in view["colours"]
    ]
    rows.append(words("boards.new-york.unowned", count=view["unowned"]))
    rows.append(
        words(
            "boards.new-york.piles",
            stock=view["stock_size"],
            discard=_cards(view["discard"], words) or words("boards.none"),
        )
    )
    rows.append(options_row(view, words))
    return rows


def draw(canvas: Canvas, shown: dict[str, Any], top: float, words: Words) -> float:
    view = shown["view"]
    size = 48
    bottom = draw_grid(
        canvas, 16, top, material.SIZE, material.SIZE, size, _cell(view, words), LINE_NAMES, LINE_NAMES
    )
    x = 16 + 26 + material.SIZE * size + 24
    canvas.text(x, top + 30, words("boards.new-york.axes"), 12)
    canvas.text(x, top + 48, words("boards.new-york.marks"), 12)
    canvas.lines(x, top + 54, _table_rows(view, words), 12, 6)
    return bottom


def board_rows(shown: dict[str, Any], words: Words) -> list[str]:
    view = shown["view"]
    grid = text_grid(material.SIZE, material.SIZE, _cell(view, words), LINE_NAMES, LINE_NAMES)
    return [words("boards.new-york.city"), *grid, *_table_rows(view, words)]


def seat_rows(shown: dict[str, Any], player: dict[str, Any], words: Words) -> list[str]:
    rows = [
        words(
            "boards.new-york.holdings",
            colours=" ".join(_colour(colour, words) for colour in player["colours"]),
            money=player["money"],
            hand=player["hand_size"],
        )
    ]
    if "hand" in player:
        rows.append(words("boards.hand", cards=_cards(player["hand"], words) or words("boards.none")))
    if player.get("known_cards"):
        rows.append(words("boards.known_cards", cards=_cards(player["known_cards"], words)))
    rows += fact_rows(player, words, {"seat", "colours", "money", "hand_size", "hand", "known_cards"})
    return rows
