"""New York City: the six districts with their progression letter, value, lantern and
skyscrapers; the connections and the vehicles still on them (the engine's reconstructed
connection table); the press track; then each player's holdings (Tom's too)."""

from __future__ import annotations

from typing import Any

from engines.new_york_city import board

from .frame import fact_rows, options_row
from .svg import INK, Canvas, fill_of, seat_colour
from .words import Words

NAME = "New York City"
BOARD_KEYS = frozenset({"districts", "vehicles_on_board", "press", "options"})
TOM_COLOUR = "#555555"

# Where each district is drawn (west to east, north to south), inside a 600 × 360 box.
PLACES: dict[str, tuple[float, float]] = {
    "jersey-city": (90, 150),
    "manhattan": (290, 120),
    "bronx": (480, 60),
    "queens": (540, 210),
    "brooklyn": (390, 310),
    "staten-island": (140, 320),
}
VEHICLE_FILL = {"taxi": "#ffd966", "bus": "#e06666", "tram": "#b7b7b7", "metro": "#b08062", "boat": "#6fa8dc"}


def _player_colour(view: dict[str, Any], player: int | None) -> str:
    if player is None:
        return "#000000"  # the neutral black press pawn
    for entry in view["players"]:
        if entry["player"] == player:
            return seat_colour(entry["seat"]) if entry["seat"] is not None else TOM_COLOUR
    return TOM_COLOUR


def _player_name(view: dict[str, Any], player: int | None, words: Words) -> str:
    if player is None:
        return words("boards.new-york-city.black_pawn")
    for entry in view["players"]:
        if entry["player"] == player:
            return entry["name"]
    return words("boards.new-york-city.player", player=player)


# The engine's own words for its districts and vehicles (``new_york_city.district.…``, ``….vehicle.…``).
def _district(district: str, words: Words) -> str:
    return words.known(f"new_york_city.district.{district}", board.DISTRICT_TITLES.get(district, district))


def _vehicle(vehicle: str, words: Words) -> str:
    return words.known(f"new_york_city.vehicle.{vehicle}", vehicle)


def _colour(colour: str, words: Words) -> str:
    return words.known(f"boards.new-york-city.colour.{colour}", colour)


def _district_text(view: dict[str, Any], district: dict[str, Any], words: Words) -> str:
    towers = ", ".join(
        f"{_player_name(view, p, words)} {n}" for p, n in enumerate(district["skyscrapers"]) if n
    )
    # Prestige tiles are listed by number; what each shows comes from the engine's tile table.
    prestige = " ".join(
        f"{_vehicle(board.TILE_VEHICLE[t], words)} {board.TILE_VALUE[t]}" for t in district["prestige"]
    )
    lantern = district["lantern"]
    return (
        words(
            "boards.new-york-city.district",
            district=_district(district["district"], words),
            letter=district["letter"],
            value=district["value"],
            base=district["base"],
            lantern=_colour(lantern, words) if lantern else words("boards.none"),
            black=district["black"],
        )
        + (words("boards.new-york-city.skyscrapers", towers=towers) if towers else "")
        + (words("boards.new-york-city.prestige", tiles=prestige) if prestige else "")
        + (words("boards.new-york-city.mayor") if view.get("mayor") == district["district"] else "")
    )


def _press_row(view: dict[str, Any], words: Words) -> str:
    spaces = ", ".join(f"{_player_name(view, p['player'], words)} {p['space']}" for p in view["press"])
    return words(
        "boards.new-york-city.press_row", last=board.PRESS_LAST, bonus=board.PRESS_BONUS_SPACE, spaces=spaces
    )


def draw(canvas: Canvas, shown: dict[str, Any], top: float, words: Words) -> float:
    view = shown["view"]
    on_board = {entry["connection"]: entry["vehicle"] for entry in view["vehicles_on_board"]}
    for index, connection in enumerate(board.CONNECTIONS):
        a, b = (PLACES[d] for d in connection["districts"])
        (x1, y1), (x2, y2) = (a[0] + 16, a[1] + top), (b[0] + 16, b[1] + top)
        vehicle = on_board.get(index)
        canvas.line(
            x1,
            y1,
            x2,
            y2,
            stroke=VEHICLE_FILL[connection["vehicle"]] if vehicle else "#dddddd",
            stroke_width=5,
            stroke_dasharray=None if vehicle else "6 4",
        )
        if vehicle:
            canvas.text((x1 + x2) / 2, (y1 + y2) / 2 - 4, _vehicle(vehicle, words), 11, text_anchor="middle")
    for district in view["districts"]:
        x, y = PLACES[district["district"]]
        x, y = x + 16, y + top
        canvas.circle(
            x,
            y,
            46,
            fill="#f1ede0",
            stroke=INK,
            stroke_width=3 if view.get("mayor") == district["district"] else 1,
        )
        canvas.title(_district_text(view, district, words))
        canvas.text(
            x,
            y - 50,
            _district(district["district"], words),
            12,
            text_anchor="middle",
            font_weight="bold",
        )
        canvas.text(x, y - 18, f"{district['letter']} · {district['value']}", 14, text_anchor="middle")
        if district["lantern"]:
            canvas.circle(x + 32, y - 28, 7, fill=fill_of(district["lantern"]), stroke=INK)
        for p, count in enumerate(district["skyscrapers"]):
            canvas.rect(x - 36 + 19 * p, y - 4, 16, 16, fill=_player_colour(view, p), stroke=INK)
            canvas.text(x - 28 + 19 * p, y + 8, count, 10, text_anchor="middle", fill="#ffffff")
        canvas.text(
            x, y + 32, words("boards.new-york-city.black", count=district["black"]), 10, text_anchor="middle"
        )
    # the press track
    y = top + 390
    canvas.text(16, y - 6, words("boards.new-york-city.press_track"), 12, font_weight="bold")
    step = 54
    for space in range(board.PRESS_START, board.PRESS_LAST + 1):
        canvas.rect(
            16 + space * step,
            y,
            step - 4,
            24,
            fill="#fff2cc" if space == board.PRESS_BONUS_SPACE else "#ffffff",
            stroke=INK,
        )
        canvas.text(16 + space * step + 4, y + 10, space, 9)
    for index, pawn in enumerate(view["press"]):
        here = [p for p in view["press"][:index] if p["space"] == pawn["space"]]
        canvas.circle(
            16 + pawn["space"] * step + 14 + 10 * len(here),
            y + 16,
            5,
            fill=_player_colour(view, pawn["player"]),
            stroke=INK,
        )
        canvas.title(
            words(
                "boards.new-york-city.on_space",
                pawn=_player_name(view, pawn["player"], words),
                space=pawn["space"],
            )
        )
    return y + 30


def board_rows(shown: dict[str, Any], words: Words) -> list[str]:
    view = shown["view"]
    rows = [_district_text(view, district, words) for district in view["districts"]]
    vehicles = ", ".join(
        f"{_vehicle(entry['vehicle'], words)} {_district(entry['districts'][0], words)}–"
        f"{_district(entry['districts'][1], words)}"
        for entry in view["vehicles_on_board"]
    )
    rows.append(words("boards.new-york-city.vehicles", vehicles=vehicles or words("boards.none")))
    rows.append(_press_row(view, words))
    rows.append(options_row(view, words))
    return rows


def _cards(cards: list[str], words: Words) -> str:
    """Cards by their symbols, in the engine's words (``new_york_city.card.…``)."""
    return " ".join(words.known(f"boards.new-york-city.card.{card}", card) for card in cards) or words(
        "boards.none"
    )


def seat_rows(shown: dict[str, Any], player: dict[str, Any], words: Words) -> list[str]:
    characters = " ".join(f"{c['number']}{'*' if c['used'] else ''}" for c in player.get("characters", []))
    vehicles = " ".join(_vehicle(vehicle, words) for vehicle in player["vehicles"])
    rows = [
        words(
            "boards.new-york-city.holdings",
            score=player["score"],
            dollars=player["dollars"],
            on_characters=player["dollars_on_characters"],
            built=player["board"],
            supply=player["supply"],
            press=player["press_space"],
        ),
        words(
            "boards.new-york-city.characters",
            characters=characters or words("boards.none"),
            vehicles=vehicles or words("boards.none"),
        ),
    ]
    if "hand" in player:
        rows.append(words("boards.hand", cards=_cards(player["hand"], words)))
    if "reserve" in player:
        rows.append(words("boards.new-york-city.reserve", cards=_cards(player["reserve"], words)))
    rows += fact_rows(
        player,
        words,
        {
            "seat",
            "player",
            "name",
            "tom",
            "score",
            "dollars",
            "dollars_on_characters",
            "board",
            "supply",
            "press_space",
            "characters",
            "vehicles",
            "hand",
            "reserve",
        },
    )
    return rows
