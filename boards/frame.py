"""What every picture shares: the header (title, whose turn, the result), the seats' holdings,
and the facts of the view that the title's board drawing does not place.

A title module gives ``NAME``, ``BOARD_KEYS`` (the view's keys its board shows), ``draw`` (the
board into a Canvas) and ``board_rows`` (the board as text); it may give ``seat_rows`` (a
seat's holdings as text) and ``hand_cards`` (a hand the view shows, drawn with card ids).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, Protocol

from .svg import FAINT, Canvas, seat_colour, wrap

WIDTH = 980
TEXT_COLUMNS = 118
MARGIN = 16


class TitleRenderer(Protocol):
    NAME: str
    BOARD_KEYS: frozenset[str]

    def draw(self, canvas: Canvas, shown: dict[str, Any], top: float) -> float: ...

    def board_rows(self, shown: dict[str, Any]) -> list[str]: ...


def describe(value: Any) -> str:
    """A compact, readable form of a value of a view."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str | int | float):
        return str(value)
    if isinstance(value, list):
        if all(not isinstance(x, dict | list) for x in value):
            return " ".join(describe(x) for x in value) if value else "none"
        return "; ".join(describe(x) for x in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {describe(v)}" for k, v in value.items())
    return json.dumps(value)


def fact_rows(mapping: dict[str, Any], skip: frozenset[str] | set[str] = frozenset()) -> list[str]:
    rows = []
    for key, value in mapping.items():
        if key in skip or value is None or value == [] or value == {}:
            continue
        rows.append(f"{key.replace('_', ' ')}: {describe(value)}")
    return rows


def seat_name(shown: dict[str, Any], seat: int | None) -> str:
    if seat is None:
        return "-"
    for entry in shown.get("seats") or []:
        if entry.get("seat") == seat:
            if entry.get("name"):
                return f"seat {seat} ({entry['name']})"
            if entry.get("kind") == "bot":
                return f"seat {seat} (bot {entry.get('level') or entry.get('bot')})"
    return f"seat {seat}"


def players(view: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The view's per-seat holdings, by seat (automata such as Tom are kept under their own key)."""
    out: dict[int, dict[str, Any]] = {}
    for index, player in enumerate(view.get("players") or []):
        if isinstance(player, dict):
            seat = player.get("seat", index)
            out[seat if isinstance(seat, int) else 1000 + index] = player
    return out


def standing(result: dict[str, Any], seat: int, score: bool = True) -> str:
    """`` 42`` / `` 42 (resigned)``: a seat's score where the rules counted one (a resignation
    between two seats ends the game before they do), and its resignation."""
    scores = result.get("scores") or []
    resigned = result.get("resigned") or []
    return (f" {scores[seat]}" if score and seat < len(scores) else "") + (
        " (resigned)" if seat < len(resigned) and resigned[seat] else ""
    )


def header_rows(shown: dict[str, Any], name: str) -> list[str]:
    you = shown.get("you")
    rows = [
        f"{name} · game {shown.get('id', '?')} · version {shown.get('version', 0)}"
        f" · {shown.get('status', '?')}",
        "You are " + (seat_name(shown, you) if you is not None else "a spectator"),
    ]
    result = shown.get("result")
    if result:
        order = sorted(range(len(result["ranks"])), key=lambda s: result["ranks"][s])
        # A game ended by a resignation has ranks but no scores (the rules never counted them).
        ranking = ", ".join(
            f"#{result['ranks'][s]} {seat_name(shown, s)}{standing(result, s)}" for s in order
        )
        rows.append(f"Game over ({result.get('reason', 'end')}): {ranking}")
    else:
        acting = shown.get("to_act") or []
        rows.append("To act: " + (", ".join(seat_name(shown, s) for s in acting) or "nobody"))
    return rows


def default_seat_rows(shown: dict[str, Any], player: dict[str, Any]) -> list[str]:
    return fact_rows(player, {"seat", "player"})


Block = tuple[int | None, str, list[str], dict[str, Any]]


def _seat_blocks(shown: dict[str, Any], module: Any) -> list[Block]:
    seat_rows: Callable[[dict[str, Any], dict[str, Any]], list[str]] = getattr(
        module, "seat_rows", default_seat_rows
    )
    held = players(shown["view"])
    blocks: list[Block] = []
    count = len(shown.get("seats") or []) or len(held)
    result = shown.get("result")
    for seat in range(count):
        head = seat_name(shown, seat)
        if seat == shown.get("you"):
            head += " · you"
        if seat in (shown.get("to_act") or []):
            head += " · to act"
        if result:
            scores = result.get("scores") or []
            if seat < len(scores):
                head += f" · score {scores[seat]}"
            head += f" · rank {result['ranks'][seat]}" + standing(result, seat, score=False)
        player = held.get(seat, {})
        blocks.append((seat, head, seat_rows(shown, player) if player else [], player))
    for key, player in held.items():
        if key >= 1000:  # an automaton listed among the players
            blocks.append((None, str(player.get("name", "automaton")), seat_rows(shown, player), player))
    return blocks


def other_rows(shown: dict[str, Any], module: Any) -> list[str]:
    return fact_rows(shown["view"], set(module.BOARD_KEYS) | {"players"})


def svg(shown: dict[str, Any], module: Any) -> str:
    canvas = Canvas(WIDTH)
    y = 8.0
    for index, row in enumerate(header_rows(shown, module.NAME)):
        y += 22 if index == 0 else 18
        canvas.text(MARGIN, y, row, 18 if index == 0 else 14, font_weight="bold" if index == 0 else None)
    y = module.draw(canvas, shown, y + 14)
    columns = WIDTH // 7 - 4
    hand_cards = getattr(module, "hand_cards", None)
    for seat, head, rows, player in _seat_blocks(shown, module):
        y += 26
        canvas.rect(MARGIN, y - 13, 14, 14, fill=seat_colour(seat), stroke="#333")
        canvas.text(MARGIN + 22, y, head, 14, font_weight="bold")
        wrapped = [piece for row in rows for piece in wrap(row, columns)]
        y = canvas.lines(MARGIN + 22, y, wrapped, 12, 4)
        cards = hand_cards(player) if hand_cards and player else []
        for index, (face, card_id, fill) in enumerate(cards):
            line, column = divmod(index, 12)
            canvas.card(MARGIN + 22 + column * 76, y + 6 + line * 46, face, card_id, fill, 70, 40)
        if cards:
            y += 6 + 46 * ((len(cards) + 11) // 12)
    rest = [piece for row in other_rows(shown, module) for piece in wrap(row, WIDTH // 7 - 2)]
    if rest:
        y += 26
        canvas.text(MARGIN, y, "Table", 14, font_weight="bold")
        y = canvas.lines(MARGIN, y, rest, 12, 4)
    y += 10
    canvas.text(WIDTH - MARGIN, y + 6, "drawn from the caller's view", 10, fill=FAINT, text_anchor="end")
    return canvas.document(y + 16, f"{module.NAME}, version {shown.get('version', 0)}")


# A terminal obeys control characters (an escape sequence in a name could rewrite the screen),
# and the text is sent as UTF-8, which holds no lone surrogate.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def text(shown: dict[str, Any], module: Any) -> str:
    out = header_rows(shown, module.NAME)
    out += ["", *module.board_rows(shown)]
    for _, head, rows, _ in _seat_blocks(shown, module):
        out += ["", head, *(piece for row in rows for piece in wrap("  " + row, TEXT_COLUMNS))]
    rest = other_rows(shown, module)
    if rest:
        out += ["", "Table", *(piece for row in rest for piece in wrap("  " + row, TEXT_COLUMNS))]
    return "\n".join(_UNPRINTABLE.sub("\ufffd", row) for row in out) + "\n"
