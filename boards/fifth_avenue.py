"""Fifth Avenue: Start, the seven districts by column, Central Park, the pawns' paths, each
district's ring of plots (colour order reconstructed in the engine's data), shops, skyscrapers
and owners; then the construction-card piles."""

from __future__ import annotations

import math
from typing import Any

from engines.fifth_avenue import material

from .frame import fact_rows, options_row
from .svg import INK, Canvas, fill_of, seat_colour, wrap
from .words import Words

NAME = "Fifth Avenue"
BOARD_KEYS = frozenset({"districts", "commissions", "expertise", "colour_piles", "black_pile", "options"})

HEIGHT = 520
COLUMN_X = {0: 70, 1: 250, 2: 490, 3: 730}
CENTRAL_PARK_X = 900
RADIUS = 68


def _places(top: float) -> dict[str, tuple[float, float]]:
    """Where Start, each district and Central Park sit: districts by the engine's columns."""
    by_column: dict[int, list[str]] = {}
    for district, column in material.DISTRICT_COLUMN.items():
        by_column.setdefault(column, []).append(district)
    places: dict[str, tuple[float, float]] = {
        material.START: (COLUMN_X[0], top + HEIGHT / 2),
        material.CENTRAL_PARK: (CENTRAL_PARK_X, top + HEIGHT / 2),
    }
    for column, districts in by_column.items():
        for index, district in enumerate(districts):
            places[district] = (COLUMN_X[column], top + HEIGHT * (2 * index + 1) / (2 * len(districts)))
    return places


# Fifth Avenue's words are the picture's own (``boards.fifth-avenue.…``), in the rulebook's French.
def _colour(colour: str, words: Words) -> str:
    """A colour of a plot, a pile or a commission pawn."""
    return words.known(f"boards.fifth-avenue.colour.{colour}", colour)


def _shop(shop: str, words: Words) -> str:
    return words.known(f"boards.fifth-avenue.shop.{shop}", shop)


def _place(place: str, words: Words) -> str:
    """Where a commission pawn stands: Start, Central Park, or a district (by its id)."""
    return words.known(f"boards.fifth-avenue.place.{place}", place.replace("_", " "))


def _plot_text(plot: dict[str, Any], words: Words) -> str:
    parts = [_colour(plot["plot"], words)]  # a plot is named by its colour
    if plot["owner"] is not None:
        owner = "Gédéon" if plot["owner"] == "gedeon" else words("boards.seat", seat=plot["owner"])
        parts.append(words("boards.fifth-avenue.skyscrapers", owner=owner, count=plot["skyscrapers"]))
    if plot["shops"]:
        parts.append(
            words("boards.fifth-avenue.shops", shops=" ".join(_shop(shop, words) for shop in plot["shops"]))
        )
    return " ".join(parts)


def _owner_colour(owner: Any) -> str:
    if owner == "gedeon":
        return "#000000"
    return seat_colour(owner) if owner is not None else "#999999"


def _draw_district(canvas: Canvas, district: dict[str, Any], x: float, y: float, words: Words) -> None:
    canvas.circle(x, y, RADIUS, fill="#f1ede0" if not district["closed"] else "#d0ccc0", stroke=INK)
    canvas.text(
        x,
        y - RADIUS - 6,
        district["name"] + (words("boards.fifth-avenue.closed") if district["closed"] else ""),
        12,
        text_anchor="middle",
        font_weight="bold",
    )
    plots = district["plots"]
    for index, plot in enumerate(plots):
        angle = -math.pi / 2 + 2 * math.pi * index / len(plots)
        px, py = x + 44 * math.cos(angle), y + 44 * math.sin(angle)
        colour = plot["colour"]
        canvas.circle(
            px,
            py,
            18,
            fill=fill_of(colour, "#ffffff"),
            stroke=_owner_colour(plot["owner"]),
            stroke_width=4 if plot["owner"] is not None else 1,
            stroke_dasharray="3 3" if colour is None else None,
        )
        canvas.title(_plot_text(plot, words))
        if plot["skyscrapers"]:
            canvas.text(px, py + 4, plot["skyscrapers"], 13, text_anchor="middle", font_weight="bold")
        for shop_index, shop in enumerate(plot["shops"]):
            canvas.rect(px - 12 + 9 * shop_index, py + 8, 8, 8, fill="#ffffff", stroke=INK)
            canvas.title(_shop(shop, words))


def _pile_rows(view: dict[str, Any], words: Words) -> list[str]:
    tops = ", ".join(
        words(
            "boards.fifth-avenue.pile",
            colour=_colour(colour, words),
            top=pile["top"].split("-")[-1] if pile.get("top") else "-",
            size=pile["size"],
        )
        for colour, pile in view["colour_piles"].items()
    )
    rows = [words("boards.fifth-avenue.piles", tops=tops, black=view["black_pile"]["size"])]
    pawns = ", ".join(
        words("boards.fifth-avenue.pawn_at", pawn=_colour(pawn, words), place=_place(place, words))
        for pawn, place in view["commissions"].items()
    )
    expertise = "; ".join(
        words(
            "boards.fifth-avenue.expertise",
            pawn=_colour(pawn, words),
            places=" ".join(words.code(place) for place in places) or words("boards.none"),
        )
        for pawn, places in view["expertise"].items()
    )
    rows.append(words("boards.fifth-avenue.pawns", pawns=pawns, expertise=expertise))
    rows.append(options_row(view, words))
    return rows


def draw(canvas: Canvas, shown: dict[str, Any], top: float, words: Words) -> float:
    view = shown["view"]
    places = _places(top + 20)
    for start, ends in material.PATHS.items():
        for end in ends:
            if start == material.CENTRAL_PARK:
                continue  # the way back to Start, drawn by the order of play rather than a line
            (x1, y1), (x2, y2) = places[start], places[end]
            canvas.line(x1, y1, x2, y2, stroke="#c8bfa8", stroke_width=6)
    canvas.rect(COLUMN_X[0] - 40, places[material.START][1] - 22, 80, 44, fill="#ffffff", stroke=INK, rx=6)
    canvas.text(
        COLUMN_X[0],
        places[material.START][1] + 5,
        words("boards.fifth-avenue.start"),
        13,
        text_anchor="middle",
    )
    park_y = places[material.CENTRAL_PARK][1]
    canvas.rect(CENTRAL_PARK_X - 55, park_y - 40, 110, 80, fill="#b6d7a8", stroke=INK, rx=8)
    canvas.text(
        CENTRAL_PARK_X, park_y + 5, words("boards.fifth-avenue.central_park"), 13, text_anchor="middle"
    )
    for district in view["districts"]:
        x, y = places[district["id"]]
        _draw_district(canvas, district, x, y, words)
    for index, (pawn, place) in enumerate(view["commissions"].items()):
        x, y = places.get(place, places[material.START])
        canvas.circle(x - 12 + 24 * index, y + RADIUS - 2, 9, fill=fill_of(pawn), stroke=INK, stroke_width=2)
        canvas.title(words("boards.fifth-avenue.pawn", pawn=_colour(pawn, words)))
    y = top + HEIGHT + 40
    for index, (colour, pile) in enumerate(view["colour_piles"].items()):
        face = (
            f"{_colour(colour, words)} {pile['top'].split('-')[-1]}"
            if pile.get("top")
            else words("boards.fifth-avenue.empty")
        )
        canvas.card(16 + index * 80, y, face, pile.get("top"), fill_of(colour), 72, 40, str(pile["size"]))
    canvas.card(
        16 + 5 * 80, y, f"{_colour('black', words)} ×{view['black_pile']['size']}", None, "#9e9e9e", 72, 40
    )
    rows = [piece for row in _pile_rows(view, words)[1:] for piece in wrap(row, 130)]
    return canvas.lines(16, y + 44, rows, 12, 5)


def board_rows(shown: dict[str, Any], words: Words) -> list[str]:
    view = shown["view"]
    rows = []
    for district in view["districts"]:
        state = words("boards.fifth-avenue.closed") if district["closed"] else ""
        rows.append(
            words(
                "boards.fifth-avenue.district", name=district["name"], closed=state, column=district["column"]
            )
        )
        rows += ["   " + _plot_text(plot, words) for plot in district["plots"]]
    return rows + _pile_rows(view, words)


def _cards(cards: list[str], words: Words) -> str:
    """Construction cards by their ids (``orange-4``: codes, as the moves name them)."""
    return " ".join(words.code(card) for card in cards)


def seat_rows(shown: dict[str, Any], player: dict[str, Any], words: Words) -> list[str]:
    points = ", ".join(
        f"{words.known(f'boards.fifth-avenue.points.{k}', k.replace('_', ' '))} {v}"
        for k, v in player["points"].items()
        if v
    )
    rows = [
        words("boards.fifth-avenue.score", score=player["score"])
        + (f" ({points})" if points else "")
        + words(
            "boards.fifth-avenue.holdings",
            reserve=player["reserve"],
            common=player["common_supply"],
            park=player["central_park"],
            hand=player["hand_size"],
        )
    ]
    if player.get("shown_cards"):
        rows.append(words("boards.fifth-avenue.shown_cards", cards=_cards(player["shown_cards"], words)))
    if player.get("secret_cards"):
        secret = ", ".join(f"{_colour(k, words)} {v}" for k, v in player["secret_cards"].items())
        rows.append(words("boards.fifth-avenue.secret_cards", piles=secret))
    if "hand" in player:
        rows.append(words("boards.hand", cards=_cards(player["hand"], words) or words("boards.none")))
    rows += fact_rows(
        player,
        words,
        {
            "seat",
            "score",
            "points",
            "reserve",
            "common_supply",
            "central_park",
            "hand_size",
            "shown_cards",
            "secret_cards",
            "hand",
        },
    )
    return rows
