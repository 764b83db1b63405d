"""Victory points: district scorings, the special scorings, building stops and the final count."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import event
from . import board
from . import material as m

if TYPE_CHECKING:
    from .rules import FifthAvenueState

# Where points came from, for the result's breakdown.
CATEGORIES = ("district_scorings", "special_scorings", "closures", "final_districts", "central_park")


def gain(state: FifthAvenueState, seat: int, points: int, category: str) -> None:
    player = state.players[seat]
    player["score"] += points
    player["points"][category] += points


def score_district(state: FifthAvenueState, index: int, category: str) -> dict[str, Any]:
    """Rule FA-DISTRICT-SCORE: every skyscraper earns its owner 1/2/3/5/8 by the shops beside it."""
    points = board.district_points(state.districts[index]["plots"], state.seats)
    for seat, earned in enumerate(points):
        if earned:
            gain(state, seat, earned, category)
    return event("district_scored", district=m.DISTRICT_IDS[index], points=points)


def districts_with_skyscrapers(state: FifthAvenueState, seat: int) -> int:
    """Districts where the seat has at least one skyscraper (Central Park is not a district)."""
    return sum(
        1
        for district in state.districts
        if not district["closed"] and any(p["count"] and p["owner"] == seat for p in district["plots"])
    )


def special_scoring(state: FifthAvenueState, shops_placed: int) -> dict[str, Any] | None:
    """Rule FA-SHOP-SPECIAL: after the 3rd, 6th and 9th shop, 4/6/8 VP for 3/4/5 districts."""
    if shops_placed not in m.SPECIAL_SCORINGS:
        return None
    needed, reward = m.SPECIAL_SCORINGS[shops_placed]
    points = [0] * state.seats
    for seat in range(state.seats):
        if districts_with_skyscrapers(state, seat) >= needed:
            points[seat] = reward
            gain(state, seat, reward, "special_scorings")
    return event("special_scoring", shops_placed=shops_placed, districts_needed=needed, points=points)


def closure_points(state: FifthAvenueState, index: int, orderer: int | str) -> list[int]:
    """Rule FA-CLOSURE-SCORE: the one who orders it gets every skyscraper of the district, each
    other player half (rounded down) of a normal scoring. Gédéon orders but never scores."""
    plots = state.districts[index]["plots"]
    total = sum(plot["count"] for plot in plots)
    normal = board.district_points(plots, state.seats)
    return [total if seat == orderer else normal[seat] // 2 for seat in range(state.seats)]


def final_scoring(state: FifthAvenueState) -> list[dict[str, Any]]:
    """Rules FA-FINAL-SCORE and FA-PARK-SCORE: every open district once more, then Central Park."""
    events = [
        score_district(state, index, "final_districts")
        for index, district in enumerate(state.districts)
        if not district["closed"]
    ]
    tiles = list(state.under_park)
    state.shuffle(tiles)
    revealed = tiles[: m.PARK_REVEALED_TILES]
    per_skyscraper = m.PARK_POINTS_BY_DIFFERENT_SHOPS[len(set(revealed))]
    points = [player["park"] * per_skyscraper for player in state.players]
    for seat, earned in enumerate(points):
        if earned:
            gain(state, seat, earned, "central_park")
    events.append(
        event("central_park_scored", revealed=revealed, per_skyscraper=per_skyscraper, points=points)
    )
    state.game_end()["revealed"] = revealed
    return events
