"""A small SVG writer shared by the board renderers: shapes, text, seat colours, escaping.

Every string that comes from a view goes through ``text`` or an attribute, both escaped, so a
name or a label can never break the document (the pictures are served as image/svg+xml). What
XML 1.0 cannot hold even escaped (most control characters, lone surrogates, U+FFFE and U+FFFF)
is drawn as U+FFFD: the service refuses control characters in names, but a picture must not
break on a view written before it did, or on a string of an engine's.
"""

from __future__ import annotations

import functools
import re
from xml.sax.saxutils import escape as _escape
from xml.sax.saxutils import quoteattr as _quoteattr

# Not in XML 1.0's Char production; C1 and DEL are legal there but have no glyph either.
UNDRAWABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def drawable(text: str) -> str:
    """``text`` with what no picture can hold replaced by U+FFFD."""
    return UNDRAWABLE.sub("\ufffd", text)


# Most strings drawn (numbers, colours, plain words) hold nothing to escape or replace: they are
# written as they are, without the standard library's five passes of str.replace over each (a
# picture writes thousands of attributes, and escaping was half of its time).
PLAIN_TEXT = re.compile("[^&<>\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]*")
PLAIN_ATTRIBUTE = re.compile("[^&<>\"'\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]*")


def escape(text: str) -> str:
    if PLAIN_TEXT.fullmatch(text):
        return text
    return _escape(drawable(text))


def quoteattr(text: str) -> str:
    if PLAIN_ATTRIBUTE.fullmatch(text):
        return f'"{text}"'
    return _quoteattr(drawable(text))


# One colour per seat, distinct on white and on the board colours (up to six seats).
SEAT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
INK = "#222"
FAINT = "#888"
PAPER = "#fbfaf6"
FONT = "DejaVu Sans, Verdana, sans-serif"

# Colour names the games use for their pieces, drawn as these fills.
NAMED_FILLS = {
    "red": "#e06666",
    "blue": "#6fa8dc",
    "yellow": "#ffd966",
    "green": "#93c47d",
    "grey": "#b7b7b7",
    "orange": "#f6b26b",
    "brown": "#b08062",
    "violet": "#b4a7d6",
    "black": "#444444",
    "white": "#ffffff",
    "beige": "#e8d8b0",
    "purple": "#b4a7d6",
}


def seat_colour(seat: int | None) -> str:
    if seat is None or not isinstance(seat, int) or seat < 0:
        return FAINT
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def fill_of(name: object, default: str = "#eeeeee") -> str:
    return NAMED_FILLS.get(name, default) if isinstance(name, str) else default


@functools.cache
def _attribute_name(key: str) -> str:
    return key.rstrip("_").replace("_", "-")


def _attributes(attrs: dict[str, object]) -> str:
    parts = []
    for key, value in attrs.items():
        if value is None:
            continue
        if type(value) is int or type(value) is float:  # coordinates: digits, never escaped
            parts.append(f' {_attribute_name(key)}="{value}"')
        else:
            parts.append(f" {_attribute_name(key)}={quoteattr(str(value))}")
    return "".join(parts)


class Canvas:
    """Collects SVG elements; ``document`` wraps them with a size and a background."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.parts: list[str] = []

    def rect(self, x: float, y: float, w: float, h: float, **attrs: object) -> None:
        attrs.setdefault("fill", "none")
        self.parts.append(f"<rect{_attributes({'x': x, 'y': y, 'width': w, 'height': h, **attrs})}/>")

    def circle(self, cx: float, cy: float, r: float, **attrs: object) -> None:
        self.parts.append(f"<circle{_attributes({'cx': cx, 'cy': cy, 'r': r, **attrs})}/>")

    def line(self, x1: float, y1: float, x2: float, y2: float, **attrs: object) -> None:
        attrs.setdefault("stroke", INK)
        self.parts.append(f"<line{_attributes({'x1': x1, 'y1': y1, 'x2': x2, 'y2': y2, **attrs})}/>")

    def text(self, x: float, y: float, content: object, size: float = 12, **attrs: object) -> None:
        attrs.setdefault("fill", INK)
        attrs = {"x": x, "y": y, "font_size": size, **attrs}
        self.parts.append(f"<text{_attributes(attrs)}>{escape(str(content))}</text>")

    def title(self, content: object) -> None:
        """A tooltip for the element drawn just before (wrapped in a group with it)."""
        last = self.parts.pop()
        self.parts.append(f"<g>{last}<title>{escape(str(content))}</title></g>")

    def lines(self, x: float, y: float, rows: list[str], size: float = 12, gap: float = 4) -> float:
        """Draws rows of text downwards from y; returns the y below the last one."""
        for row in rows:
            y += size + gap
            self.text(x, y, row, size)
        return y

    def card(
        self,
        x: float,
        y: float,
        face: str,
        card_id: str | None = None,
        fill: str = "#ffffff",
        w: float = 64,
        h: float = 40,
        corner: str = "",
    ) -> None:
        """A card seen face up (its id kept in data-card, for tooltips and the leak tests) or,
        with no id, from its back."""
        body = _attributes({"x": x, "y": y, "width": w, "height": h, "rx": 4, "fill": fill, "stroke": INK})
        label = _attributes(
            {"x": x + w / 2, "y": y + h / 2 + 4, "font_size": 11, "text_anchor": "middle", "fill": INK}
        )
        extra = (
            f"<text{_attributes({'x': x + w - 3, 'y': y + 11, 'font_size': 9, 'text_anchor': 'end'})}>"
            f"{escape(corner)}</text>"
            if corner
            else ""
        )
        group = _attributes({"data_card": card_id, "class": "card" if card_id else "card-back"})
        tip = f"<title>{escape(card_id)}</title>" if card_id else ""
        self.parts.append(f"<g{group}><rect{body}/><text{label}>{escape(face)}</text>{extra}{tip}</g>")

    def document(self, height: float, label: str) -> str:
        head = (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{int(height)}" '
            f'viewBox="0 0 {self.width} {int(height)}" font-family={quoteattr(FONT)} '
            f'role="img" aria-label={quoteattr(label)}>\n'
            f"<title>{escape(label)}</title>\n"
            f'<rect x="0" y="0" width="{self.width}" height="{int(height)}" fill="{PAPER}"/>\n'
        )
        return head + "\n".join(self.parts) + "\n</svg>\n"


def wrap(row: str, width: int) -> list[str]:
    """Splits a long line of text at spaces so that no piece is longer than ``width``."""
    if len(row) <= width:
        return [row]
    out, current = [], ""
    for word in row.split(" "):
        if current and len(current) + 1 + len(word) > width:
            out.append(current)
            current = "    " + word
        else:
            current = f"{current} {word}" if current else word
    if current:
        out.append(current)
    return out
