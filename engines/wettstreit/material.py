"""Wettstreit der Baumeister's material as data: the 40 building cards, the die, the coins.

Source: seeds/city-auction-003.fr.txt ("Matériel", "Les bâtiments") and
rules/research/fifth_avenue_and_003.md part 2 (§2.1 components, §2.2 die, §2.3 card list).
Values the research marks RECONSTRUCTION are flagged below; correct one line here if a
photo of the real cards turns up (rule ids in docs/rules/wettstreit.md).
"""

from __future__ import annotations

from typing import TypedDict

from ..core import Message, say

# ---- building kinds (rule WB-CARDS) --------------------------------------------------------
LEFT_CORNER = "left-corner"
RIGHT_CORNER = "right-corner"
TOWER = "tower"
GATE = "gate"
TOWN_HALL = "town-hall"
CATHEDRAL = "cathedral"

KINDS = (LEFT_CORNER, RIGHT_CORNER, TOWER, GATE, TOWN_HALL, CATHEDRAL)
CORNER_TOWERS = (LEFT_CORNER, RIGHT_CORNER)

# "Les tours d'angle et les tours sont des bâtiments de même type" (rule WB-BUILD-NEIGHBOURS):
# the neighbour rule compares families, and corner towers belong to the tower family.
FAMILY = {
    LEFT_CORNER: TOWER,
    RIGHT_CORNER: TOWER,
    TOWER: TOWER,
    GATE: GATE,
    TOWN_HALL: TOWN_HALL,
    CATHEDRAL: CATHEDRAL,
}

# Printed values per kind, one entry per card (CONFIRMED: the French card list).
VALUES: dict[str, tuple[int, ...]] = {
    LEFT_CORNER: (1, 1, 2, 2, 3),
    RIGHT_CORNER: (1, 1, 2, 2, 3),
    TOWER: (1, 1, 2, 2, 3, 3),
    GATE: (2, 2, 3, 3, 3, 4, 4, 4, 5, 5),
    TOWN_HALL: (5, 5, 6, 6, 7, 7),
    CATHEDRAL: (4, 5, 5, 6, 6, 7, 8, 9),
}

# RECONSTRUCTION (research §2.3): the cards carry "one or two" coin symbols (gates) and
# shield symbols (towers, corner towers), but which card carries how many is unknown.
# Proposal: cheap gates earn more, cheap towers defend more.
GATE_COINS_BY_VALUE = {2: 2, 3: 2, 4: 1, 5: 1}
SHIELDS_BY_VALUE = {1: 2, 2: 1, 3: 1}
RECONSTRUCTED = ("GATE_COINS_BY_VALUE", "SHIELDS_BY_VALUE")


class Card(TypedDict):
    id: str
    kind: str
    value: int
    coins: int
    shields: int


def _deck() -> tuple[Card, ...]:
    """One record per card; copies of a value are told apart by a letter (gate-3a, gate-3b)."""
    cards: list[Card] = []
    for kind in KINDS:
        seen: dict[int, int] = {}
        for value in VALUES[kind]:
            copy = seen.get(value, 0)
            seen[value] = copy + 1
            coins = GATE_COINS_BY_VALUE[value] if kind == GATE else 0
            shields = SHIELDS_BY_VALUE[value] if FAMILY[kind] == TOWER else 0
            cards.append(
                {
                    "id": f"{kind}-{value}{'abc'[copy]}",
                    "kind": kind,
                    "value": value,
                    "coins": coins,
                    "shields": shields,
                }
            )
    return tuple(cards)


CARDS = _deck()
DECK = tuple(card["id"] for card in CARDS)
KIND = {card["id"]: card["kind"] for card in CARDS}
VALUE = {card["id"]: card["value"] for card in CARDS}
COINS = {card["id"]: card["coins"] for card in CARDS}
SHIELDS = {card["id"]: card["shields"] for card in CARDS}
CARD_ORDER = {card: index for index, card in enumerate(DECK)}


# The pictures' English names (boards/wettstreit.py draws in English: not a message yet).
KIND_NAMES = {
    LEFT_CORNER: "left corner tower",
    RIGHT_CORNER: "right corner tower",
    TOWER: "tower",
    GATE: "gate",
    TOWN_HALL: "town hall",
    CATHEDRAL: "cathedral",
}


def card_text(card: str) -> str:
    return f"{KIND_NAMES[KIND[card]]} {VALUE[card]}"


def the_card(card: str) -> Message:
    """A building card named with its article and value ("the tower 3", « la tour 3 »)."""
    return say(f"wettstreit.the.{KIND[card].replace('-', '_')}", value=VALUE[card])


# ---- piles (rule WB-SETUP-PILES) ------------------------------------------------------------
PILE_SIZE = 20
FACE_UP = "face_up"
FACE_DOWN = "face_down"
PILES = (FACE_UP, FACE_DOWN)

# ---- money (rules WB-SETUP-MONEY, WB-BANK) -------------------------------------------------
# 20 gold coins worth 3 écus and 30 silver coins worth 1: the whole money of the box.
COIN_SETS = {"gold": (20, 3), "silver": (30, 1)}
TOTAL_MONEY = sum(count * worth for count, worth in COIN_SETS.values())  # 90 écus
STARTING_MONEY = 10
MINIMUM_OPENING_BID = 1  # reading: an auction opens at 1 écu or more

# ---- saboteurs and the die (rules WB-INCOME, WB-SABOTAGE-ROLL) ------------------------------
SABOTEURS = 5
DIE_SIDES = 6
BLACK_DOT = 6  # the face that shows a black dot instead of a 6
SABOTAGE_SUCCESS = "success"
SABOTAGE_FAILURE = "failure"
SABOTAGE_DISCOVERED = "discovered"
SABOTAGE_OUTCOME = {
    BLACK_DOT: SABOTAGE_SUCCESS,
    1: SABOTAGE_FAILURE,
    2: SABOTAGE_FAILURE,
    3: SABOTAGE_DISCOVERED,
    4: SABOTAGE_DISCOVERED,
    5: SABOTAGE_DISCOVERED,
}
HAND_SABOTAGE_MINIMUM = 5  # "un joueur qui a cinq cartes ou davantage en main"

# ---- building (rule WB-BUILD-*) -------------------------------------------------------------
FIRST_BUILD_CARDS = 3
MAX_CARDS_PER_BUILD = 3
FINAL_ROUND_CARDS = 3
ENDS = ("left", "right")

# ---- scoring (rule WB-SCORE-*) ------------------------------------------------------------
TOWN_HALL_MIDDLE_BONUS = 10
CATHEDRALS_BALANCED_BONUS = 5
CORNER_TOWERS_EQUAL_BONUS = 5


def die_face(face: int) -> int | str:
    """The die as players read it: 1–5, or "black" for the black dot."""
    return "black" if face == BLACK_DOT else face
