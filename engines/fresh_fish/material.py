"""Fresh Fish's material as data: boards, distributors, retailers, tiles, money, cubes, caps.

Source: seeds/fresh-fish.fr.txt (Fresh Fish, Friedemann Friese, 2F-Spiele 1997, French rules
with errata) and rules/research/freshfish_newyork_property.md §1. Values no source gives are
named in ``RECONSTRUCTED`` and listed in docs/rules/fresh-fish.md.
"""

from __future__ import annotations

# ---- goods: each distributor supplies the retailers of its type (rule FF-GOODS) ----------
GOODS = ("fish", "nuclear", "petrol", "games")
DISTRIBUTOR = {
    "fish": "port",
    "nuclear": "nuclear_plant",
    "petrol": "refinery",
    "games": "game_factory",
}
RETAILER = {
    "fish": "fishmonger",
    "nuclear": "waste_dump",
    "petrol": "petrol_station",
    "games": "game_shop",
}
DISTRIBUTORS = tuple(DISTRIBUTOR[g] for g in GOODS)
RETAILERS = tuple(RETAILER[g] for g in GOODS)
GOODS_OF = {tile: g for g, tile in DISTRIBUTOR.items()} | {tile: g for g, tile in RETAILER.items()}
NAMES = {
    "port": "port",
    "nuclear_plant": "nuclear power plant",
    "refinery": "refinery",
    "game_factory": "game factory",
    "fishmonger": "fishmonger",
    "waste_dump": "nuclear waste dump",
    "petrol_station": "petrol station",
    "game_shop": "game shop",
    "apartment": "apartment block",
    "office": "office block",
    "park": "park",
    "street": "street",
}

# ---- blocking buildings (rule FF-BLOCKING) -------------------------------------------------
BLOCKING = ("apartment", "office", "park")
BLOCKING_IN_BOX = {"apartment": 12, "office": 6, "park": 6}
BLOCKING_USED = {2: 8, 3: 12, 4: 15, 5: 19}
# Which kinds make up the buildings used: the rulebook gives only the totals, and the kind
# never changes a rule (none needs street access). RECONSTRUCTION: roughly the box's 2:1:1.
BLOCKING_MIX = {
    2: {"apartment": 4, "office": 2, "park": 2},
    3: {"apartment": 6, "office": 3, "park": 3},
    4: {"apartment": 7, "office": 4, "park": 4},
    5: {"apartment": 9, "office": 5, "park": 5},
}

STREET = "street"
# The box holds 58 street tiles, "more than the game needs"; the supply is unlimited here.
STREETS_IN_BOX = 58

# Tiles on the board that must keep access to a street (rule FF-ACCESS).
NEEDS_ACCESS = frozenset(DISTRIBUTORS + RETAILERS)
# Tiles that may be built on a reserved plot when the pile is empty (rule FF-BUILD-EMPTY).
EMPTY_PILE_TILES = (STREET, *BLOCKING)

# ---- the board (rule FF-BOARD) -------------------------------------------------------------
BOARD_SIZE = {2: 7, 3: 8, 4: 9, 5: 10}
BOX_BOARD_SIZE = 10
# Default layout (rule FF-DISTRIBUTORS): the port in a corner, the other three in the other
# corners. Which corner holds which distributor is not given; since the four goods play by
# the same rules, every assignment is the same game up to a rotation or reflection.
# RECONSTRUCTION (harmless): port top left, nuclear plant top right, refinery bottom left,
# game factory bottom right. Values are (row, column) from the top left, 0-based, as a
# fraction of the edge: 0 = first row/column, 1 = last.
CORNER_LAYOUT = {"port": (0, 0), "nuclear_plant": (0, 1), "refinery": (1, 0), "game_factory": (1, 1)}
# Free placement (option): who places the distributors and in which order is not written.
# RECONSTRUCTION: from the first player clockwise, one each, in this order.
PLACEMENT_ORDER = ("port", "nuclear_plant", "refinery", "game_factory")


# ---- retailers (rule FF-RETAILERS): one of each type per player ----------------------------
def retailers_per_type(seats: int) -> int:
    return seats


# ---- money (rule FF-MONEY): 10 orange coins of 1 and one green coin of 5 ------------------
COINS = {"orange": (10, 1), "green": (1, 5)}
STARTING_MONEY = sum(count * value for count, value in COINS.values())  # 15

# ---- cubes (rule FF-CUBES) -----------------------------------------------------------------
CUBES = 8
CUBES_SET_ASIDE = 2  # for the first two retailers built
CUBES_FOR_RESERVING = CUBES - CUBES_SET_ASIDE  # 6

# ---- scoring (rule FF-CAP) -----------------------------------------------------------------
ROUTE_CAP = {2: 8, 3: 10, 4: 12, 5: 14}

RECONSTRUCTED = ("BLOCKING_MIX", "CORNER_LAYOUT", "PLACEMENT_ORDER")


def pile_for(seats: int) -> list[str]:
    """The face-down pile before shuffling (rule FF-PILE): retailers and blocking buildings."""
    tiles = [RETAILER[g] for g in GOODS for _ in range(retailers_per_type(seats))]
    for kind in BLOCKING:
        tiles += [kind] * BLOCKING_MIX[seats][kind]
    return tiles


def set_aside_for(seats: int) -> dict[str, int]:
    """Blocking buildings kept out of the pile, usable once it is empty (rule FF-BUILD-EMPTY)."""
    return {kind: BLOCKING_IN_BOX[kind] - BLOCKING_MIX[seats][kind] for kind in BLOCKING}
