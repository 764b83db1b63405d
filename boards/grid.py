"""Square boards (Property, New York, Fresh Fish) drawn as SVG cells and as text."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .svg import INK, Canvas


@dataclass(frozen=True)
class Cell:
    fill: str = "#ffffff"
    label: str = ""
    tip: str = ""
    text: str = " ."  # two characters in the terminal rendering
    border: str = "#999999"
    dashed: bool = False


def draw_grid(
    canvas: Canvas,
    x: float,
    y: float,
    rows: int,
    columns: int,
    size: float,
    cell: Callable[[int, int], Cell],
    row_names: list[str] | None = None,
    column_names: list[str] | None = None,
) -> float:
    """Draws the grid with row and column names; returns the y below it."""
    left, top = x + 26, y + 18
    for c in range(columns):
        name = column_names[c] if column_names else str(c + 1)
        canvas.text(left + c * size + size / 2, top - 5, name, 11, text_anchor="middle")
    for r in range(rows):
        name = row_names[r] if row_names else str(r + 1)
        canvas.text(left - 6, top + r * size + size / 2 + 4, name, 11, text_anchor="end")
        for c in range(columns):
            shown = cell(r, c)
            canvas.rect(
                left + c * size,
                top + r * size,
                size,
                size,
                fill=shown.fill,
                stroke=shown.border,
                stroke_width=3 if shown.border != "#999999" else 1,
                stroke_dasharray="4 3" if shown.dashed else None,
            )
            if shown.tip:
                canvas.title(shown.tip)
            if shown.label:
                canvas.text(
                    left + c * size + size / 2,
                    top + r * size + size / 2 + 4,
                    shown.label,
                    max(8, min(12, size / 4)),
                    text_anchor="middle",
                    fill=INK,
                )
    return top + rows * size


def text_grid(
    rows: int,
    columns: int,
    cell: Callable[[int, int], Cell],
    row_names: list[str] | None = None,
    column_names: list[str] | None = None,
) -> list[str]:
    names = column_names or [str(c + 1) for c in range(columns)]
    out = ["    " + " ".join(f"{n[:2]:>2}" for n in names)]
    for r in range(rows):
        name = row_names[r] if row_names else str(r + 1)
        out.append(f"{name[:3]:>3} " + " ".join(f"{cell(r, c).text[:2]:>2}" for c in range(columns)))
    return out
