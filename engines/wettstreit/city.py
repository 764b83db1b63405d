"""A player's city: one row of building cards, left to right, with gaps left by sabotage.

A city is a list of card ids and ``None`` (a gap). Its two ends are never gaps: a building
sabotaged at an end just shortens the row (rule WB-GAP). Placement is judged on the ends
alone, summed up in an ``Ends`` tuple, so the legality of a whole multi-card build can be
searched without copying cities.
"""

from __future__ import annotations

from typing import NamedTuple, TypedDict

from . import material as m


class Ends(NamedTuple):
    """What placement depends on: the kinds at both ends, the town hall, the corner towers."""

    left: str | None  # kind of the leftmost card, None for an empty city
    right: str | None
    has_town_hall: bool
    corner_towers: int


def ends_of(city: list[str | None]) -> Ends:
    if not city:
        return Ends(None, None, False, 0)
    left, right = city[0], city[-1]
    assert left is not None and right is not None  # WB-GAP: the ends are never gaps
    kinds = [m.KIND[card] for card in city if card is not None]
    return Ends(
        m.KIND[left],
        m.KIND[right],
        m.TOWN_HALL in kinds,
        sum(1 for kind in kinds if kind in m.CORNER_TOWERS),
    )


def placement_error(ends: Ends, kind: str, end: str, final_round: bool) -> str | None:
    """The rule a placement of ``kind`` at ``end`` breaks (a stable code), or None if legal."""
    if ends.left is not None:
        if end == "left":
            if ends.left == m.LEFT_CORNER:
                return "end_closed_by_corner_tower"  # WB-BUILD-CORNER: the corner is the edge
            if kind == m.RIGHT_CORNER:
                return "corner_tower_wrong_end"
            neighbour = ends.left
        else:
            if ends.right == m.RIGHT_CORNER:
                return "end_closed_by_corner_tower"
            if kind == m.LEFT_CORNER:
                return "corner_tower_wrong_end"
            assert ends.right is not None  # a city with a left end has a right one
            neighbour = ends.right
        if m.FAMILY[kind] == m.FAMILY[neighbour]:
            return "same_type_side_by_side"  # WB-BUILD-NEIGHBOURS
    if kind == m.TOWN_HALL and ends.has_town_hall:
        return "one_town_hall_per_city"  # WB-BUILD-TOWN-HALL
    if kind in m.CORNER_TOWERS and ends.corner_towers and not final_round:
        return "second_corner_tower_final_round_only"  # WB-BUILD-CORNER
    return None


def place_ends(ends: Ends, kind: str, end: str) -> Ends:
    """The ends after a (legal) placement."""
    hall = ends.has_town_hall or kind == m.TOWN_HALL
    corners = ends.corner_towers + (kind in m.CORNER_TOWERS)
    if ends.left is None:
        return Ends(kind, kind, hall, corners)
    if end == "left":
        return Ends(kind, ends.right, hall, corners)
    return Ends(ends.left, kind, hall, corners)


def can_complete(ends: Ends, kinds: dict[str, int], remaining: int, final_round: bool) -> bool:
    """Whether ``remaining`` more cards of the kinds in hand can still be placed legally."""
    if remaining <= 0:
        return True
    for kind, count in kinds.items():
        if not count:
            continue
        for end in m.ENDS:
            if placement_error(ends, kind, end, final_round) is None:
                kinds[kind] -= 1
                ok = can_complete(place_ends(ends, kind, end), kinds, remaining - 1, final_round)
                kinds[kind] += 1
                if ok:
                    return True
    return False


def place(city: list[str | None], card: str, end: str) -> None:
    if end == "left":
        city.insert(0, card)
    else:
        city.append(card)


def remove(city: list[str | None], slot: int) -> None:
    """Take a sabotaged building out, leaving a gap inside the row but none at its ends."""
    city[slot] = None
    while city and city[0] is None:
        city.pop(0)
    while city and city[-1] is None:
        city.pop()


def shields(city: list[str | None]) -> int:
    return sum(m.SHIELDS[card] for card in city if card is not None)


def coins(city: list[str | None]) -> int:
    return sum(m.COINS[card] for card in city if card is not None)


def value(city: list[str | None]) -> int:
    return sum(m.VALUE[card] for card in city if card is not None)


def is_complete(city: list[str | None]) -> bool:
    """WB-SCORE-COMPLETE: a left corner tower at the left end, a right one at the right, no gap."""
    if len(city) < 2:
        return False
    left, right = city[0], city[-1]
    assert left is not None and right is not None  # WB-GAP: the ends are never gaps
    return m.KIND[left] == m.LEFT_CORNER and m.KIND[right] == m.RIGHT_CORNER and None not in city


class Score(TypedDict):
    city_value: int
    complete: bool
    town_hall_bonus: int
    cathedral_bonus: int
    corner_tower_bonus: int
    hand_penalty: int
    total: int


def score(city: list[str | None], hand: list[str]) -> Score:
    """Rules WB-SCORE-*: card values, the complete city's three bonuses, minus the hand."""
    town_hall = cathedrals = towers = 0
    complete = is_complete(city)
    if complete:
        built = [card for card in city if card is not None]  # all of it: a complete city has no gap
        halls = [i for i, card in enumerate(built) if m.KIND[card] == m.TOWN_HALL]
        if halls:
            hall = halls[0]
            # WB-SCORE-TOWN-HALL: exactly in the middle, which needs an odd number of cards.
            if len(built) % 2 == 1 and hall == len(built) // 2:
                town_hall = m.TOWN_HALL_MIDDLE_BONUS
            # WB-SCORE-CATHEDRALS: as many on each side of the town hall, and not none.
            left = sum(1 for card in built[:hall] if m.KIND[card] == m.CATHEDRAL)
            right = sum(1 for card in built[hall + 1 :] if m.KIND[card] == m.CATHEDRAL)
            if left == right and left > 0:
                cathedrals = m.CATHEDRALS_BALANCED_BONUS
        # WB-SCORE-CORNER-TOWERS: both corner towers of the same value.
        if m.VALUE[built[0]] == m.VALUE[built[-1]]:
            towers = m.CORNER_TOWERS_EQUAL_BONUS
    city_value = value(city)
    in_hand = sum(m.VALUE[card] for card in hand)
    return {
        "city_value": city_value,
        "complete": complete,
        "town_hall_bonus": town_hall,
        "cathedral_bonus": cathedrals,
        "corner_tower_bonus": towers,
        "hand_penalty": in_hand,
        "total": city_value + town_hall + cathedrals + towers - in_hand,
    }
