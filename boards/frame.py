"""What every picture shares: the header (title, whose turn, the result), the seats' holdings,
and the facts of the view that the title's board drawing does not place.

A title module gives ``NAME``, ``BOARD_KEYS`` (the view's keys its board shows), ``draw`` (the
board into a Canvas) and ``board_rows`` (the board as text); it may give ``seat_rows`` (a
seat's holdings as text) and ``hand_cards`` (a hand the view shows, drawn with card ids). Each
takes the picture's ``Words`` last: every word it writes is a message in the reader's language.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, Protocol

from .svg import FAINT, Canvas, seat_colour, wrap
from .words import Words

WIDTH = 980
TEXT_COLUMNS = 118
MARGIN = 16


class TitleRenderer(Protocol):
    NAME: str
    BOARD_KEYS: frozenset[str]

    def draw(self, canvas: Canvas, shown: dict[str, Any], top: float, words: Words) -> float: ...

    def board_rows(self, shown: dict[str, Any], words: Words) -> list[str]: ...


def describe(value: Any, words: Words) -> str:
    """A compact, readable form of a value of a view (its strings and nested keys are codes)."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return words("boards.yes") if value else words("boards.no")
    if isinstance(value, str):
        return words.code(value)
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list):
        if all(not isinstance(x, dict | list) for x in value):
            return " ".join(describe(x, words) for x in value) if value else words("boards.none")
        return "; ".join(describe(x, words) for x in value)
    if isinstance(value, dict):
        return ", ".join(f"{words.code(k)} {describe(v, words)}" for k, v in value.items())
    return json.dumps(value)


def fact_rows(
    mapping: dict[str, Any], words: Words, skip: frozenset[str] | set[str] = frozenset()
) -> list[str]:
    rows = []
    for key, value in mapping.items():
        if key in skip or value is None or value == [] or value == {}:
            continue
        rows.append(words("boards.fact", name=words.field(key), value=describe(value, words)))
    return rows


def options_row(view: dict[str, Any], words: Words) -> str:
    """The game's options, by their codes (as the catalog names them), with their values."""
    chosen = ", ".join(f"{words.code(k)} {_option_value(v, words)}" for k, v in view["options"].items())
    return words("boards.options", options=chosen)


def _option_value(value: Any, words: Words) -> str:
    if isinstance(value, bool):  # before int: a bool is an int
        return words("boards.option.true") if value else words("boards.option.false")
    return words.code(value) if isinstance(value, str) else str(value)


def seat_name(shown: dict[str, Any], seat: int | None, words: Words) -> str:
    if seat is None:
        return "-"
    for entry in shown.get("seats") or []:
        if entry.get("seat") == seat:
            if entry.get("name"):
                return words("boards.seat.named", seat=seat, name=entry["name"])
            if entry.get("kind") == "bot":
                return words("boards.seat.bot", seat=seat, level=entry.get("level") or entry.get("bot"))
    return words("boards.seat", seat=seat)


def players(view: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The view's per-seat holdings, by seat (automata such as Tom are kept under their own key)."""
    out: dict[int, dict[str, Any]] = {}
    for index, player in enumerate(view.get("players") or []):
        if isinstance(player, dict):
            seat = player.get("seat", index)
            out[seat if isinstance(seat, int) else 1000 + index] = player
    return out


def standing(result: dict[str, Any], seat: int, words: Words, score: bool = True) -> str:
    """`` 42`` / `` 42 (resigned)``: a seat's score where the rules counted one (a resignation
    between two seats ends the game before they do), and its resignation."""
    scores = result.get("scores") or []
    resigned = result.get("resigned") or []
    return (f" {scores[seat]}" if score and seat < len(scores) else "") + (
        words("boards.resigned") if seat < len(resigned) and resigned[seat] else ""
    )


# The reasons the engines give for an ended game, by the code (or the sentence) they give.
REASONS = {
    "The fifth round is over: final scoring; ties go to the player ahead on the press track.": (
        "boards.reason.new_york_city_final"
    ),
}


def reason(words: Words, said: str) -> str:
    return words.known(REASONS.get(said, f"boards.reason.{said}"), said)


def header_rows(shown: dict[str, Any], name: str, words: Words) -> list[str]:
    you = shown.get("you")
    status = str(shown.get("status", "?"))
    rows = [
        words(
            "boards.header",
            title=name,
            game=shown.get("id", "?"),
            version=shown.get("version", 0),
            status=words.known(f"boards.status.{status}", status),
        ),
        words(
            "boards.you_are",
            who=seat_name(shown, you, words) if you is not None else words("boards.spectator"),
        ),
    ]
    result = shown.get("result")
    if result:
        order = sorted(range(len(result["ranks"])), key=lambda s: result["ranks"][s])
        # A game ended by a resignation has ranks but no scores (the rules never counted them).
        ranking = ", ".join(
            f"#{result['ranks'][s]} {seat_name(shown, s, words)}{standing(result, s, words)}" for s in order
        )
        rows.append(
            words("boards.game_over", reason=reason(words, result.get("reason", "end")), ranking=ranking)
        )
    else:
        acting = shown.get("to_act") or []
        named = ", ".join(seat_name(shown, s, words) for s in acting) or words("boards.nobody")
        rows.append(words("boards.to_act", seats=named))
    return rows


def default_seat_rows(shown: dict[str, Any], player: dict[str, Any], words: Words) -> list[str]:
    return fact_rows(player, words, {"seat", "player"})


Block = tuple[int | None, str, list[str], dict[str, Any]]


def _seat_blocks(shown: dict[str, Any], module: Any, words: Words) -> list[Block]:
    seat_rows: Callable[[dict[str, Any], dict[str, Any], Words], list[str]] = getattr(
        module, "seat_rows", default_seat_rows
    )
    held = players(shown["view"])
    blocks: list[Block] = []
    count = len(shown.get("seats") or []) or len(held)
    result = shown.get("result")
    for seat in range(count):
        head = seat_name(shown, seat, words)
        if seat == shown.get("you"):
            head += words("boards.head.you")
        if seat in (shown.get("to_act") or []):
            head += words("boards.head.to_act")
        if result:
            scores = result.get("scores") or []
            if seat < len(scores):
                head += words("boards.head.score", score=scores[seat])
            head += words("boards.head.rank", rank=result["ranks"][seat]) + standing(
                result, seat, words, score=False
            )
        player = held.get(seat, {})
        blocks.append((seat, head, seat_rows(shown, player, words) if player else [], player))
    for key, player in held.items():
        if key >= 1000:  # an automaton listed among the players
            name = str(player["name"]) if "name" in player else words("boards.automaton")
            blocks.append((None, name, seat_rows(shown, player, words), player))
    return blocks


def other_rows(shown: dict[str, Any], module: Any, words: Words) -> list[str]:
    return fact_rows(shown["view"], words, set(module.BOARD_KEYS) | {"players"})


def svg(shown: dict[str, Any], module: Any, words: Words) -> str:
    canvas = Canvas(WIDTH)
    y = 8.0
    for index, row in enumerate(header_rows(shown, module.NAME, words)):
        y += 22 if index == 0 else 18
        canvas.text(MARGIN, y, row, 18 if index == 0 else 14, font_weight="bold" if index == 0 else None)
    y = module.draw(canvas, shown, y + 14, words)
    columns = WIDTH // 7 - 4
    hand_cards = getattr(module, "hand_cards", None)
    for seat, head, rows, player in _seat_blocks(shown, module, words):
        y += 26
        canvas.rect(MARGIN, y - 13, 14, 14, fill=seat_colour(seat), stroke="#333")
        canvas.text(MARGIN + 22, y, head, 14, font_weight="bold")
        wrapped = [piece for row in rows for piece in wrap(row, columns)]
        y = canvas.lines(MARGIN + 22, y, wrapped, 12, 4)
        cards = hand_cards(player, words) if hand_cards and player else []
        for index, (face, card_id, fill) in enumerate(cards):
            line, column = divmod(index, 12)
            canvas.card(MARGIN + 22 + column * 76, y + 6 + line * 46, face, card_id, fill, 70, 40)
        if cards:
            y += 6 + 46 * ((len(cards) + 11) // 12)
    rest = [piece for row in other_rows(shown, module, words) for piece in wrap(row, WIDTH // 7 - 2)]
    if rest:
        y += 26
        canvas.text(MARGIN, y, words("boards.table"), 14, font_weight="bold")
        y = canvas.lines(MARGIN, y, rest, 12, 4)
    y += 10
    canvas.text(WIDTH - MARGIN, y + 6, words("boards.drawn_from"), 10, fill=FAINT, text_anchor="end")
    label = words("boards.document", title=module.NAME, version=shown.get("version", 0))
    return canvas.document(y + 16, label)


# A terminal obeys control characters (an escape sequence in a name could rewrite the screen),
# and the text is sent as UTF-8, which holds no lone surrogate.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def text(shown: dict[str, Any], module: Any, words: Words) -> str:
    out = header_rows(shown, module.NAME, words)
    out += ["", *module.board_rows(shown, words)]
    for _, head, rows, _ in _seat_blocks(shown, module, words):
        out += ["", head, *(piece for row in rows for piece in wrap("  " + row, TEXT_COLUMNS))]
    rest = other_rows(shown, module, words)
    if rest:
        out += [
            "",
            words("boards.table"),
            *(piece for row in rest for piece in wrap("  " + row, TEXT_COLUMNS)),
        ]
    return "\n".join(_UNPRINTABLE.sub("\ufffd", row) for row in out) + "\n"
