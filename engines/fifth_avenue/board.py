"""The board: districts of plots in a ring, shops beside skyscrapers, the commission paths.

A district in the state is ``{"closed": bool, "plots": [plot, ...]}`` with its plots in
ring order (material.rings); a plot is ``{"shops": [shop, ...], "owner": seat | "gedeon" |
None, "count": skyscrapers}``. One owner per plot: a player builds only on a free plot or
on the plot it already holds in that district (rule FA-ONE-PLOT).
"""

from __future__ import annotations

from typing import Final, Literal, TypedDict

from . import material as m

GEDEON: Final = "gedeon"
# Who holds a plot, orders a building stop or wins an auction: a seat, or Gédéon (two players).
Owner = int | Literal["gedeon"]


class Plot(TypedDict):
    shops: list[str]
    owner: Owner | None
    count: int  # skyscrapers


class District(TypedDict):
    closed: bool
    plots: list[Plot]  # in ring order (material.rings)


def new_plot() -> Plot:
    return {"shops": [], "owner": None, "count": 0}


def neighbours(size: int, index: int) -> tuple[int, int]:
    """The two plots directly beside plot ``index`` in a ring of ``size``."""
    return ((index - 1) % size, (index + 1) % size)


def different_shops_beside(plots: list[Plot], index: int) -> int:
    """Rule FA-DISTRICT-SCORE: the number of different shops on the two neighbouring plots."""
    left, right = neighbours(len(plots), index)
    return len(set(plots[left]["shops"]) | set(plots[right]["shops"]))


def plot_points(plots: list[Plot], index: int) -> int:
    """Victory points one skyscraper on this plot earns in a district scoring."""
    return m.POINTS_BY_DIFFERENT_SHOPS[different_shops_beside(plots, index)]


def district_points(plots: list[Plot], seats: int) -> list[int]:
    """Points each seat earns when the district is scored (Gédéon never scores)."""
    points = [0] * seats
    for index, plot in enumerate(plots):
        owner = plot["owner"]
        if plot["count"] and owner is not None and owner != GEDEON:
            points[owner] += plot["count"] * plot_points(plots, index)
    return points


def is_free(plot: Plot) -> bool:
    """A free plot holds neither a shop nor a skyscraper."""
    return not plot["shops"] and not plot["count"]


def is_full(plots: list[Plot]) -> bool:
    """Every plot is occupied, by skyscrapers or by shops (rule FA-CLOSURE-WHEN)."""
    return not any(is_free(plot) for plot in plots)


def plot_of(plots: list[Plot], owner: Owner) -> int | None:
    """The index of the plot ``owner`` holds in this district, if any."""
    for index, plot in enumerate(plots):
        if plot["count"] and plot["owner"] == owner:
            return index
    return None


def takes_a_shop(plot: Plot) -> bool:
    """Rule FA-SHOP-PLOT: a shop goes on a free plot or beside a single shop, never with skyscrapers."""
    return not plot["count"] and len(plot["shops"]) < m.MAX_SHOPS_PER_PLOT


def skyscrapers_in(plots: list[Plot], owner: Owner) -> int:
    return sum(plot["count"] for plot in plots if plot["owner"] == owner)


def destinations(location: str, closed: set[str]) -> list[str]:
    """Rules FA-COMMISSION-PATH and FA-COMMISSION-SKIP: where a pawn may move next.

    A closed district does not exist any more: a pawn goes straight past it to whatever
    follows, as far as needed (so from Start, with 34th Street West closed, a pawn may go
    to 42nd St. West, Times Square or 34th Street East).
    """
    out: list[str] = []
    pending = list(m.PATHS[location])
    while pending:
        place = pending.pop(0)
        if place in closed:
            pending.extend(p for p in m.PATHS[place] if p not in pending)
        elif place not in out:
            out.append(place)
    return sorted(out, key=_path_order)


def _path_order(place: str) -> tuple[int, int]:
    if place == m.START:
        return (0, 0)
    if place == m.CENTRAL_PARK:
        return (4, 0)
    return (m.DISTRICT_COLUMN[place], m.DISTRICT_INDEX[place])


def auction_order(districts: list[str]) -> list[str]:
    """Rule FA-AUCTION-VENUES: expertised districts from the one nearest Start, left to right."""
    return sorted(districts, key=_path_order)
