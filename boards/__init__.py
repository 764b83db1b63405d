"""Pictures of games: an SVG and a text rendering of what one caller may see.

Every renderer is a pure function of the *shown game* — the reply of ``GET /games/{id}`` for
that caller: title, version, status, to_act, you, seats, the seat's ``view`` and the result.
It never receives a State, so a picture cannot show what the view hides. Board layouts the
rulebooks lost (reconstructed) are read from the engines' own data tables, so the picture
and the rules agree.

One module per title (its board), sharing the frame (header, seats, table) and the SVG writer.
Every word is a message rendered in the reader's language (``words.Words``): a picture is a pure
function of (shown game, language).
This package sits beside ``engines`` and ``service`` rather than inside each game's folder:
the engines stay rules only, and the pictures are a presentation any client could write.
"""

from __future__ import annotations

from typing import Any

from engines.core.messages import ENGLISH

from . import fifth_avenue, frame, fresh_fish, new_york, new_york_city, property, wettstreit
from .words import Words

RENDERERS = {
    "fifth-avenue": fifth_avenue,
    "fresh-fish": fresh_fish,
    "new-york": new_york,
    "new-york-city": new_york_city,
    "property": property,
    "wettstreit": wettstreit,
}


def render_svg(shown: dict[str, Any], language: str = ENGLISH) -> str:
    """The shown game as an SVG document, in ``language`` (a shipped one)."""
    return frame.svg(shown, RENDERERS[shown["title"]], Words(language))


def render_text(shown: dict[str, Any], language: str = ENGLISH) -> str:
    """The shown game as plain text, for a terminal, in ``language`` (a shipped one)."""
    return frame.text(shown, RENDERERS[shown["title"]], Words(language))


__all__ = ["RENDERERS", "render_svg", "render_text"]
