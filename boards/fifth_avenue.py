"""Fifth Avenue: Start, the seven districts by column, Central Park, the pawns' paths, each
district's ring of plots (colour order reconstructed in the engine's data), shops, skyscrapers
and owners; then the construction-card piles."""

from __future__ import annotations

import math
from typing import Any

from engines.fifth_avenue import material

from .frame import fact_rows
from .svg import INK, Canvas, fill_of, seat_colour, wrap

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


def _plot_text(plot: dict[str, Any]) -> str:
    parts = [plot["plot"]]
    if plot["owner"] is not None:
        owner = "Gédéon" if plot["owner"] == "gedeon" else f"seat {plot['owner']}"
        parts.append(f"{owner} {plot['skyscrapers']} skyscraper{'s' if plot['skyscrapers'] != 1 else ''}")
    if plot["shops"]:
        parts.append("shops " + " ".join(plot["shops"]))
    return " ".join(parts)


def _owner_colour(owner: Any) -> str:
    if owner == "gedeon":
        return "#000000"
    return seat_colour(owner) if owner is not None else "#999999"


def _draw_district(canvas: Canvas, district: dict[str, Any], x: float, y: float) -> None:
    canvas.circle(x, y, RADIUS, fill="#f1ede0" if not district["closed"] else "#d0ccc0", stroke=INK)
    canvas.text(
        x,
        y - RADIUS - 6,
        district["name"] + (" (closed)" if district["closed"] else ""),
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
        canvas.title(_plot_text(plot))
        if plot["skyscrapers"]:
            canvas.text(px, py + 4, plot["skyscrapers"], 13, text_anchor="middle", font_weight="bold")
        for shop_index, shop in enumerate(plot["shops"]):
            canvas.rect(px - 12 + 9 * shop_index, py + 8, 8, 8, fill="#ffffff", stroke=INK)
            canvas.title(shop)


def _pile_rows(view: dict[str, Any]) -> list[str]:
    tops = ", ".join(
        f"{colour} {pile['top'].split('-')[-1] if pile.get('top') else '-'} ({pile['size']} left)"
        for colour, pile in view["colour_piles"].items()
    )
    rows = [f"Construction piles, top card: {tops}; black pile {view['black_pile']['size']} left"]
    pawns = ", ".join(f"{pawn} at {place.replace('_', ' ')}" for pawn, place in view["commissions"].items())
    expertise = "; ".join(
        f"{pawn}: {' '.join(places) or 'none'}" for pawn, places in view["expertise"].items()
    )
    rows.append(f"Commission pawns: {pawns} · expertise tokens {expertise}")
    rows.append("Options: " + ", ".join(f"{k} {v}" for k, v in view["options"].items()))
    return rows


def draw(canvas: Canvas, shown: dict[str, Any], top: float) -> float:
    view = shown["view"]
    places = _places(top + 20)
    for start, ends in material.PATHS.items():
        for end in ends:
            if start == material.CENTRAL_PARK:
                continue  # the way back to Start, drawn by the order of play rather than a line
            (x1, y1), (x2, y2) = places[start], places[end]
            canvas.line(x1, y1, x2, y2, stroke="#c8bfa8", stroke_width=6)
    canvas.rect(COLUMN_X[0] - 40, places[material.START][1] - 22, 80, 44, fill="#ffffff", stroke=INK, rx=6)
    canvas.text(COLUMN_X[0], places[material.START][1] + 5, "Start", 13, text_anchor="middle")
    park_y = places[material.CENTRAL_PARK][1]
    canvas.rect(CENTRAL_PARK_X - 55, park_y - 40, 110, 80, fill="#b6d7a8", stroke=INK, rx=8)
    canvas.text(CENTRAL_PARK_X, park_y + 5, "Central Park", 13, text_anchor="middle")
    for district in view["districts"]:
        x, y = places[district["id"]]
        _draw_district(canvas, district, x, y)
    for index, (pawn, place) in enumerate(view["commissions"].items()):
        x, y = places.get(place, places[material.START])
        canvas.circle(x - 12 + 24 * index, y + RADIUS - 2, 9, fill=fill_of(pawn), stroke=INK, stroke_width=2)
        canvas.title(f"{pawn} commission pawn")
    y = top + HEIGHT + 40
    for index, (colour, pile) in enumerate(view["colour_piles"].items()):
        face = f"{colour} {pile['top'].split('-')[-1]}" if pile.get("top") else "empty"
        canvas.card(16 + index * 80, y, face, pile.get("top"), fill_of(colour), 72, 40, str(pile["size"]))
    canvas.card(16 + 5 * 80, y, f"black ×{view['black_pile']['size']}", None, "#9e9e9e", 72, 40)
    rows = [piece for row in _pile_rows(view)[1:] for piece in wrap(row, 130)]
    return canvas.lines(16, y + 44, rows, 12, 5)


def board_rows(shown: dict[str, Any]) -> list[str]:
    view = shown["view"]
    rows = []
    for district in view["districts"]:
        state = " (closed)" if district["closed"] else ""
        rows.append(f"{district['name']}{state} [column {district['column']}]")
        rows += ["   " + _plot_text(plot) for plot in district["plots"]]
    return rows + _pile_rows(view)


def seat_rows(shown: dict[str, Any], player: dict[str, Any]) -> list[str]:
    points = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in player["points"].items() if v)
    rows = [
        f"score {player['score']}"
        + (f" ({points})" if points else "")
        + f" · skyscrapers: {player['reserve']} in reserve, {player['common_supply']} in common supply,"
        f" {player['central_park']} in Central Park · {player['hand_size']} cards in hand"
    ]
    if player.get("shown_cards"):
        rows.append("cards shown: " + " ".join(player["shown_cards"]))
    if player.get("secret_cards"):
        rows.append(
            "secret cards by pile: " + ", ".join(f"{k} {v}" for k, v in player["secret_cards"].items())
        )
    if "hand" in player:
        rows.append("hand: " + (" ".join(player["hand"]) or "none"))
    rows += fact_rows(
        player,
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
