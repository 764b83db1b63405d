"""The final count (rule NY-SCORE and the variants' scoring NY-V3-SCORE, NY-V4-SCORE)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import Result, ranks_from_keys
from . import city
from . import material as m

if TYPE_CHECKING:
    from .rules import NewYorkState


def _rates(two_colours: bool) -> tuple[int, int]:
    """Points per building of the largest group, and per other building."""
    if two_colours:
        return m.TWO_COLOUR_GROUP_POINTS, m.TWO_COLOUR_OTHER_POINTS
    return m.GROUP_POINTS, m.OTHER_POINTS


def colour_score(largest: int, on_board: int, two_colours: bool) -> int:
    """Largest orthogonal group ×2, other buildings ×1 (variant 3: other buildings ×0)."""
    group_points, other_points = _rates(two_colours)
    return largest * group_points + (on_board - largest) * other_points


def colour_points(board: city.Board, colour: int, on_board: int, two_colours: bool) -> dict[str, Any]:
    """A colour's count, itemised (colour_score's terms)."""
    largest = city.largest_group(board, colour)
    group_points, other_points = _rates(two_colours)
    others = on_board - largest
    return {
        "colour": m.COLOURS[colour],
        "buildings": on_board,
        "largest_group": largest,
        "group_points": largest * group_points,
        "other_buildings": others,
        "other_points": others * other_points,
        "points": colour_score(largest, on_board, two_colours),
    }


def seat_points(state: NewYorkState) -> list[dict[str, Any]]:
    two = state.options["two_colours"]
    out = []
    for seat in range(state.seats):
        colours = [colour_points(state.board, c, state.on_board[c], two) for c in state.seat_colours[seat]]
        money = state.money[seat] * m.MONEY_POINTS
        out.append({"colours": colours, "money": money, "points": sum(c["points"] for c in colours) + money})
    return out


def final_result(state: NewYorkState) -> Result:
    breakdown = seat_points(state)
    scores = [b["points"] for b in breakdown]
    if state.options["teams"]:
        # Variant 4: each adds their points to their partner's; the team's total ranks both.
        team = [scores[s] + scores[state.partner(s)] for s in range(state.seats)]
        for s, b in enumerate(breakdown):
            b["partner"] = state.partner(s)
            b["team_points"] = team[s]
        scores = team
    # The rulebook names no tie-break: equal totals share the rank.
    ranks = ranks_from_keys([(score,) for score in scores])
    return Result(scores, ranks, breakdown, "stop_card_drawn")
