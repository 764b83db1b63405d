"""The final scoring (rules NYC-FINAL-*, NYC-TOM-SCORING).

Pure functions of the state: ``final_scores`` is used once the fifth round is over, and also by
``evaluate`` to score a position as if the game ended now. Nothing here changes the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import board as b
from . import characters as ch
from . import press
from .table import FinalScores

if TYPE_CHECKING:
    from .rules import NewYorkCityState


def majority_points(first: int, ranked: int) -> list[int]:
    """Points by rank: the first takes the district's value, each next rank half of the one
    above, rounded up (14, 7, 4, 2, 1)."""
    points = []
    value = first
    for _ in range(ranked):
        points.append(value)
        value = (value + 1) // 2
    return points


def district_value(state: NewYorkCityState, d: int) -> int:
    return state.base[d] + sum(b.TILE_VALUE[t] for t in state.tiles[d])


def majorities(state: NewYorkCityState) -> list[list[int]]:
    """Points per district (rows) per participant (columns), the black skyscrapers ranked as a
    neutral player; ties go to the pawn ahead on the press track, the black pawn included."""
    count = len(state.players)
    standing = press.standing(state.press)
    table = []
    for d in range(len(b.DISTRICTS)):
        contenders = [(state.towers[d][p], p) for p in range(count) if state.towers[d][p]]
        if state.black[d]:
            contenders.append((state.black[d], b.BLACK))
        contenders.sort(key=lambda entry: (-entry[0], standing[entry[1]]))
        row = [0] * count
        for (_, who), points in zip(
            contenders, majority_points(district_value(state, d), len(contenders)), strict=True
        ):
            if who != b.BLACK:
                row[who] = points  # the black skyscrapers' points are fictitious
        table.append(row)
    return table


def best_sets(
    owned: list[int], vehicles: list[str], dollars: int, towers: int
) -> tuple[int, int, int, dict[int, int]]:
    """Characters 37–42: the combinations to score, chosen to give the most points once the
    leftovers (Dollars and board skyscrapers, halved, rounded up) are counted.

    Return (points of the sets, Dollars left, board skyscrapers left, sets per character).
    """
    specific = [
        n for n in owned if n in ch.SETS and "vehicle" not in ch.SETS[n][0] and "dollars" not in ch.SETS[n][0]
    ]
    generic = [n for n in owned if n in ch.SETS and n not in specific]
    have = {v: vehicles.count(v) for v in b.VEHICLES}
    best: tuple[int, int, int, int, dict[int, int]] = (-1, 0, 0, 0, {})

    def generic_walk(
        i: int, free_vehicles: int, money: int, board: int, points: int, chosen: dict[int, int]
    ) -> None:
        nonlocal best
        if i == len(generic):
            total = points + (money + board + 1) // 2
            if total > best[0]:
                best = (total, points, money, board, dict(chosen))
            return
        n = generic[i]
        need, worth = ch.SETS[n]
        k = 0
        while True:
            chosen[n] = k
            generic_walk(i + 1, free_vehicles, money, board, points + k * worth, chosen)
            free_vehicles -= need.get("vehicle", 0)
            money -= need.get("dollars", 0)
            board -= need.get("towers", 0)
            if free_vehicles < 0 or money < 0 or board < 0:
                break
            k += 1
        del chosen[n]

    def specific_walk(i: int, left: dict[str, int], points: int, chosen: dict[int, int]) -> None:
        if i == len(specific):
            generic_walk(0, sum(left.values()), dollars, towers, points, chosen)
            return
        n = specific[i]
        need, worth = ch.SETS[n]
        k = 0
        left = dict(left)
        while True:
            chosen[n] = k
            specific_walk(i + 1, left, points + k * worth, chosen)
            for v, amount in need.items():
                left[v] -= amount
            if any(amount < 0 for amount in left.values()):
                break
            k += 1
        del chosen[n]

    specific_walk(0, have, 0, {})
    _, points, money, board, chosen = best
    return points, money, board, chosen


def end_condition(state: NewYorkCityState, p: int, number: int) -> int:
    """Characters 28–36: the points of one end-game condition."""
    player = state.players[p]
    if number in ch.LANTERN_OF:
        colour = ch.LANTERN_OF[number]
        return sum(state.towers[d][p] for d in range(len(b.DISTRICTS)) if b.DISTRICT_LANTERN[d] == colour)
    if number == ch.PRESS_CHARACTER:
        return (press.space_of(state.press, p) + 1) // 2
    if number == ch.RESERVE_CHARACTER:
        reserve = player["reserve"] + player["shown"]
        return ch.RESERVE_POINTS * max((reserve.count(s) for s in set(reserve)), default=0)
    if number == ch.DISTRICTS_CHARACTER:
        return ch.DISTRICTS_POINTS * sum(
            1 for district in state.towers if district[p] >= ch.DISTRICTS_MINIMUM
        )
    if number == ch.COMPANY_CHARACTER:
        return len(player["characters"])
    return 0


def tom_characters(values: list[int], dollars: int) -> tuple[int, int]:
    """Tom's characters: sorted from lowest, a Dollar on each from the left, then a second,
    until the Dollars run out or each holds two. Two Dollars double a character's value.
    Return (points, Dollars left for the leftovers)."""
    values = sorted(values)
    doubled = min(max(dollars - len(values), 0), len(values))
    left = max(dollars - 2 * len(values), 0)
    return sum(values) + sum(values[:doubled]), left


def final_scores(state: NewYorkCityState) -> FinalScores:
    """Every participant's final score and its breakdown (seats first, then the Toms)."""
    table = majorities(state)
    breakdown = []
    totals = []
    for p, player in enumerate(state.players):
        parts: dict[str, Any] = {"track": player["score"]}
        values = [ch.VALUE[n] for n in player["characters"]]
        if player["tom"]:
            parts["characters"], money = tom_characters(values, player["dollars"])
            parts["end_characters"] = 0  # Tom scores no end-game condition
            board = player["board"]
        else:
            parts["characters"] = sum(values)
            conditions = sum(end_condition(state, p, n) for n in player["characters"] if n not in ch.SETS)
            sets, money, board, chosen = best_sets(
                [n for n in player["characters"] if n in ch.SETS],
                player["vehicles"],
                player["dollars"],
                player["board"],
            )
            parts["end_characters"] = conditions + sets
            if chosen:
                parts["sets"] = {str(n): k for n, k in sorted(chosen.items())}
        parts["majorities"] = sum(row[p] for row in table)
        parts["districts"] = b.STATUE_END if all(district[p] for district in state.towers) else 0
        parts["press"] = b.PRESS_BONUS if press.space_of(state.press, p) >= b.PRESS_BONUS_SPACE else 0
        parts["leftovers"] = (money + board + 1) // 2
        total = sum(v for k, v in parts.items() if k != "sets")
        parts["total"] = total
        breakdown.append(parts)
        totals.append(total)
    return {"totals": totals, "breakdown": breakdown}
