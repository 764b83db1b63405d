"""The 42 characters (76 tiles) as data, and the elevator that shows them.

Source: the character supplement of seeds/new-york-city.fr.txt ("Explication des différents
termes", characters 1–42) and rules/research/nyc_feld.md §4. The rule text gives each
character's phase and ability. Its value, its number of light (starting) and dark copies, the
"no Dollar needed" icon and the combinations of 37–42 are a RECONSTRUCTION (research §4.3): no
source gives them; the table adds up to 76 tiles (12 light, 64 dark) and fits every number
printed in the examples (Tom's 1+1+1+4, the blue player's seven characters).
"""

from __future__ import annotations

PHASE_I, PHASE_II, PHASE_III, END = "I", "II", "III", "end"

# number: (phase, value, light copies, dark copies). Values and copies: RECONSTRUCTED.
_TABLE: dict[int, tuple[str, int, int, int]] = {
    1: (PHASE_I, 1, 2, 2),
    2: (PHASE_I, 1, 0, 2),
    3: (PHASE_I, 2, 0, 2),
    4: (PHASE_I, 2, 0, 2),
    5: (PHASE_I, 1, 2, 2),
    6: (PHASE_I, 2, 0, 2),
    7: (PHASE_I, 1, 0, 2),
    8: (PHASE_I, 3, 0, 2),
    9: (PHASE_I, 2, 0, 2),
    10: (PHASE_I, 3, 0, 2),
    11: (PHASE_I, 4, 0, 1),
    12: (PHASE_II, 1, 2, 2),
    13: (PHASE_II, 2, 0, 2),
    14: (PHASE_II, 2, 0, 2),
    15: (PHASE_II, 3, 0, 2),  # the rulebook confirms at least two copies
    16: (PHASE_II, 3, 0, 2),
    17: (PHASE_II, 2, 0, 2),
    18: (PHASE_II, 1, 2, 2),
    19: (PHASE_II, 3, 0, 2),
    20: (PHASE_II, 4, 0, 1),
    21: (PHASE_II, 5, 0, 1),
    22: (PHASE_II, 1, 2, 2),
    23: (PHASE_III, 1, 2, 1),
    24: (PHASE_III, 2, 0, 2),
    25: (PHASE_III, 3, 0, 2),
    26: (PHASE_III, 3, 0, 2),
    27: (PHASE_III, 4, 0, 1),
    28: (END, 2, 0, 1),
    29: (END, 2, 0, 1),
    30: (END, 2, 0, 1),
    31: (END, 2, 0, 1),
    32: (END, 2, 0, 1),
    33: (END, 4, 0, 1),
    34: (END, 4, 0, 1),
    35: (END, 5, 0, 1),
    36: (END, 4, 0, 1),
    37: (END, 4, 0, 1),
    38: (END, 4, 0, 1),
    39: (END, 4, 0, 1),
    40: (END, 5, 0, 1),
    41: (END, 5, 0, 1),
    42: (END, 5, 0, 1),
}
VALUES_RECONSTRUCTED = True
# Research §4.3 proposed 3 for 28–32; the rulebook's final-scoring example (seven characters
# worth 4+1+1+1+2+5+1, character 30 among them) needs character 30 worth 1, 2, 4 or 5, so the
# lantern characters are worth 2 here (still a reconstruction).

NUMBERS = tuple(sorted(_TABLE))
PHASE = {n: row[0] for n, row in _TABLE.items()}
VALUE = {n: row[1] for n, row in _TABLE.items()}
LIGHT_COPIES = {n: row[2] for n, row in _TABLE.items() if row[2]}
DARK_COPIES = {n: row[3] for n, row in _TABLE.items() if row[3]}

# Characters of phases I–III cost $1 to use unless they show the "no Dollar" icon. The icon was
# lost and no source names its characters: RECONSTRUCTION, every one of them costs $1 (research
# names 4, 14 and 21 as the likeliest free ones; change NEEDS_DOLLAR to make them free).
NEEDS_DOLLAR = {n: PHASE[n] != END for n in NUMBERS}

PHASE_I_NUMBERS = tuple(n for n in NUMBERS if PHASE[n] == PHASE_I)
PHASE_II_NUMBERS = tuple(n for n in NUMBERS if PHASE[n] == PHASE_II)
PHASE_III_NUMBERS = tuple(n for n in NUMBERS if PHASE[n] == PHASE_III)
END_NUMBERS = tuple(n for n in NUMBERS if PHASE[n] == END)

# ---- the end-game conditions (characters 28–42) -----------------------------------------------
# 28–32: +1 per own skyscraper in the district whose lantern has the tile's colour. Brown is
# character 30 (final-scoring example); the other four colours: RECONSTRUCTION.
LANTERN_OF = {28: "yellow", 29: "green", 30: "brown", 31: "grey", 32: "blue"}
PRESS_CHARACTER = 33  # +1 per 2 press spaces travelled, rounded up
RESERVE_CHARACTER = 34  # +2 per reserve card of one type of your choice
RESERVE_POINTS = 2
DISTRICTS_CHARACTER = 35  # +2 per district holding 3 or more of your skyscrapers
DISTRICTS_POINTS, DISTRICTS_MINIMUM = 2, 3
COMPANY_CHARACTER = 36  # +1 per character you own
# 37–42: points per combination owned; the items scored go back to the supply, before the
# leftovers are counted. The combinations are a RECONSTRUCTION. "vehicle" is any vehicle;
# "dollars" are Dollars on the player board; "towers" are skyscrapers on the player board.
SETS: dict[int, tuple[dict[str, int], int]] = {
    37: ({"taxi": 1, "bus": 1}, 5),
    38: ({"tram": 1, "metro": 1}, 5),
    39: ({"boat": 1, "taxi": 1}, 5),
    40: ({"vehicle": 1, "dollars": 2}, 6),
    41: ({"vehicle": 1, "towers": 2}, 6),
    42: ({"dollars": 2, "towers": 2}, 6),
}

# ---- the elevator (setup step 3) ------------------------------------------------------------
ELEVATOR_FLOORS = (1, 2, 3, 4, 5)  # one dark stack per value
ELEVATOR_SHOWN = 4  # the top four tiles of each stack lie face up beside the elevator


def dark_stack(value: int) -> list[int]:
    """Every dark tile of one value (one entry per copy), before shuffling."""
    return [n for n in NUMBERS for _ in range(DARK_COPIES.get(n, 0)) if VALUE[n] == value]


def light_tiles() -> list[int]:
    """The starting (light) tiles, one entry per copy."""
    return [n for n in NUMBERS for _ in range(LIGHT_COPIES.get(n, 0))]


TOTAL_TILES = sum(LIGHT_COPIES.values()) + sum(DARK_COPIES.values())
assert TOTAL_TILES == 76, TOTAL_TILES


ABILITIES = {
    1: "+1 point; discard any hand cards and draw as many",
    2: "take two cards of two different pairs instead of a pair",
    3: "+1 point; draw a card face up into your reserve (one more reserve card)",
    4: "take both of your pairs at once",
    5: "draw 3 cards, then discard 2",
    6: "take $2",
    7: "discard a character and take one worth at most 1 more",
    8: "with the pair just taken, move identical reserve cards to your hand",
    9: "draw a card and take $1",
    10: "draw 2 cards",
    11: "replace a black skyscraper with one of yours",
    12: "+1 point; discard reserve cards and refill the reserve",
    13: "one card of any type counts as one card of the round",
    14: "move back 1 or 2 press spaces, each a joker",
    15: "play a reserve card of the same symbol as a card played",
    16: "+1 joker",
    17: "+1 Prestige card",
    18: "take $1 and bid last this bidding round",
    19: "double the points of your Prestige bid",
    20: "one card of any type counts as two cards of the round",
    21: "place one more skyscraper from the supply",
    22: "after a bidding round, replace up to 2 hand cards",
    23: "+2 points",
    24: "+1 point and a skyscraper to your board",
    25: "+3 points",
    26: "a skyscraper to your board and 1 press space",
    27: "move forward on the press track by your position",
    28: "+1 per skyscraper in the yellow-lantern district",
    29: "+1 per skyscraper in the green-lantern district",
    30: "+1 per skyscraper in the brown-lantern district",
    31: "+1 per skyscraper in the grey-lantern district",
    32: "+1 per skyscraper in the blue-lantern district",
    33: "+1 per 2 press spaces",
    34: "+2 per reserve card of one type",
    35: "+2 per district with 3+ of your skyscrapers",
    36: "+1 per character",
    37: "+5 per taxi and bus",
    38: "+5 per tram and metro",
    39: "+5 per boat and taxi",
    40: "+6 per vehicle and $2",
    41: "+6 per vehicle and 2 skyscrapers",
    42: "+6 per $2 and 2 skyscrapers",
}
