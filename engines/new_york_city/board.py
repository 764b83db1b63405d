"""The board of New York City as data: districts, connections, lanterns, prestige tiles, tracks.

Source: seeds/new-york-city.fr.txt (material, setup) and rules/research/nyc_feld.md §1, §2, §5.
The rulebook's pictures were lost: every value marked RECONSTRUCTED below comes from no
source and is the team's proposal (docs/rules/new-york-city.md lists them). A person holding
the box can correct one line here.
"""

from __future__ import annotations

# ---- districts (rule NYC-DISTRICTS) ---------------------------------------------------------
# The six districts, in the order the rulebook's district-bonus example names them.
DISTRICTS = ("staten-island", "jersey-city", "manhattan", "bronx", "queens", "brooklyn")
DISTRICT_INDEX = {name: i for i, name in enumerate(DISTRICTS)}
DISTRICT_TITLES = {
    "staten-island": "Staten Island",
    "jersey-city": "Jersey City",
    "manhattan": "Manhattan",
    "bronx": "the Bronx",
    "queens": "Queens",
    "brooklyn": "Brooklyn",
}

# Progression tiles, shuffled onto the districts; the Mayor visits A to E, never X.
LETTERS = ("A", "B", "C", "D", "E", "X")
MAYOR_ROUTE = ("A", "B", "C", "D", "E")
# "The highest letter" in Tom's district choice: alphabetical, so X ranks above E (a reading).
LETTER_RANK = {letter: i for i, letter in enumerate(LETTERS)}

# Base-value tiles, shuffled onto the districts.
BASE_VALUES = (6, 7, 8, 8, 9, 10)
BLACK_PER_DISTRICT = 2  # 12 black skyscrapers, 2 per district

# ---- connections and vehicles (rule NYC-VEHICLES) ---------------------------------------------
VEHICLES = ("taxi", "bus", "tram", "metro", "boat")
# Colours the rule text names (taxi yellow, metro brown, tram grey); bus and boat are unnamed.
VEHICLE_COLOURS = {"taxi": "yellow", "bus": None, "tram": "grey", "metro": "brown", "boat": None}

# One vehicle per connection, on the connection of its colour. Two are confirmed by the
# rulebook's Prestige example (tram Brooklyn–Queens, metro Bronx–Queens); the other eight are a
# RECONSTRUCTION from the city's geography that keeps the solo example true (one district
# touches both taxis and a metro; taxi and metro reach exactly four districts).
CONNECTIONS: tuple[dict, ...] = (
    {"vehicle": "taxi", "districts": ("manhattan", "bronx"), "reconstructed": True},
    {"vehicle": "taxi", "districts": ("manhattan", "queens"), "reconstructed": True},
    {"vehicle": "bus", "districts": ("staten-island", "brooklyn"), "reconstructed": True},
    {"vehicle": "bus", "districts": ("jersey-city", "bronx"), "reconstructed": True},
    {"vehicle": "tram", "districts": ("brooklyn", "queens"), "reconstructed": False},
    {"vehicle": "tram", "districts": ("jersey-city", "staten-island"), "reconstructed": True},
    {"vehicle": "metro", "districts": ("bronx", "queens"), "reconstructed": False},
    {"vehicle": "metro", "districts": ("manhattan", "brooklyn"), "reconstructed": True},
    {"vehicle": "boat", "districts": ("staten-island", "manhattan"), "reconstructed": True},
    {"vehicle": "boat", "districts": ("jersey-city", "manhattan"), "reconstructed": True},
)
CONNECTION_ENDS = tuple(tuple(DISTRICT_INDEX[d] for d in c["districts"]) for c in CONNECTIONS)
CONNECTION_VEHICLE = tuple(c["vehicle"] for c in CONNECTIONS)

# ---- lanterns (characters 28–32) ------------------------------------------------------------
# Brown exists (final-scoring example, character 30) and green exists (icon legend); which
# district shows which lantern is a RECONSTRUCTION. Jersey City shows none.
LANTERNS = {
    "manhattan": "yellow",
    "queens": "green",
    "brooklyn": "brown",
    "bronx": "grey",
    "staten-island": "blue",
    "jersey-city": None,
}
LANTERNS_RECONSTRUCTED = True
DISTRICT_LANTERN = tuple(LANTERNS[d] for d in DISTRICTS)

# ---- prestige tiles (rule NYC-PRESTIGE-TILES) -----------------------------------------------
# Ten tiles, two per vehicle type. Values 2 and 4 exist (final-scoring example) and the two
# tiles of a colour differ (Tom takes "the higher"); one 2 and one 4 per colour is a
# RECONSTRUCTION.
PRESTIGE_TILES: tuple[dict, ...] = tuple(
    {"vehicle": vehicle, "value": value, "reconstructed": True} for vehicle in VEHICLES for value in (2, 4)
)
TILE_VEHICLE = tuple(t["vehicle"] for t in PRESTIGE_TILES)
TILE_VALUE = tuple(t["value"] for t in PRESTIGE_TILES)
PRESTIGE_REVEALED = 2  # revealed each Phase 0

# ---- the press track (rule NYC-PRESS-TRACK) ---------------------------------------------------
PRESS_START = 0  # the start space (reading: space 0; the playable spaces are 1 to 15)
PRESS_LAST = 15
BLACK = -1  # the neutral black press pawn, in the press list
BLACK_PAWN_SPACE = {2: 8, 3: 7, 4: 6}  # by number of players (Toms included)
PRESS_BONUS_SPACE = 5
PRESS_BONUS = 3

# ---- statue, material, rounds ------------------------------------------------------------------
STATUE_FIRST = 4  # the Statue of Liberty tile's first side
STATUE_END = 3  # every player present in all six districts at the end
TOWERS_PER_COLOUR = 20
START_BOARD_TOWERS = 4
START_DOLLARS = 1
# The box holds 26 Dollars; the engine treats them as a limited supply (a reading).
DOLLARS_IN_BOX = 26
ROUNDS = 5
TOM_TOWER_CAP = 5  # Tom never has more than 5 skyscrapers in a district


def pairs_to_reveal(humans: int, toms: int) -> int:
    """Phase 0: 2N+1 pairs (9/7/5 at 4/3/2 players), one more per Tom.

    Reading: alone against Tom the rulebook reveals two pairs for you and one per Tom, so the
    leftover pair of the multi-player rule only exists with two or more humans.
    """
    return 2 * humans + toms + (1 if humans >= 2 else 0)


def piles_to_reveal(humans: int, toms: int) -> int:
    """Setup: one starting pile per player plus one (one more per Tom); solo: one per player."""
    return humans + toms + (1 if humans >= 2 else 0)
