"""Property's material as data: the 8×8 grid, the 40 number cards, purchasing units, chips.

Source: seeds/new-york-and-property.fr.txt (Property, Sid Sackson, A Gamut of Games 1969)
and rules/research/freshfish_newyork_property.md §3.
"""

from __future__ import annotations

GRID_SIZE = 8

# Red suits number the columns (left to right), black suits the rows (bottom to top).
RED_SUITS = ("H", "D")
BLACK_SUITS = ("S", "C")
SUIT_SYMBOLS = {"H": "♥", "D": "♦", "S": "♠", "C": "♣"}
# Rent multiplier per suit: a ♥ or a ♠ doubles, both quadruple (rule P-RENT-SUIT).
SUIT_FACTOR = {"H": 2, "D": 1, "S": 2, "C": 1}

RANKS = tuple(range(1, 11))  # ace counts 1
WILD_RANKS = (9, 10)  # a 9 or 10 stands for any number 1–8 of its colour


def card_id(rank: int, suit: str) -> str:
    return f"{rank}{suit}"


def card_rank(card: str) -> int:
    return int(card[:-1])


def card_suit(card: str) -> str:
    return card[-1]


def is_red(card: str) -> bool:
    return card[-1] in RED_SUITS


def is_wild(card: str) -> bool:
    return card_rank(card) in WILD_RANKS


def card_text(card: str) -> str:
    rank = card_rank(card)
    return f"{'A' if rank == 1 else rank}{SUIT_SYMBOLS[card_suit(card)]}"


DECK = tuple(card_id(rank, suit) for suit in ("H", "D", "S", "C") for rank in RANKS)

# Per-card facts looked up rather than parsed: listing moves is on every bot's hot path.
RED = {card: card[-1] in RED_SUITS for card in DECK}
WILD = {card: is_wild(card) for card in DECK}
NUMBERS = {
    card: tuple(range(1, GRID_SIZE + 1)) if card_rank(card) in WILD_RANKS else (card_rank(card),)
    for card in DECK
}
# Sort order within a hand (suit, then rank), and the class of cards that play alike
# (a 9 and a 10 of one suit are the same wild card).
ORDER = {card: (card[-1], card_rank(card)) for card in DECK}
PLAY_CLASS = {card: (card[-1], min(card_rank(card), 9)) for card in DECK}

# Purchasing units: the court cards and jokers, by kind (rule P-UNITS).
UNIT_VALUES = {"king": 4, "queen": 2, "jack": 1, "joker": 1}
UNIT_KINDS = tuple(UNIT_VALUES)

# How the unit cards are shared so every player gets the same number of units (rule
# P-UNITS). The rulebook gives the totals (6p: 5, 4p: 7, 3p: 10, 2p: 14; jokers unused at
# 4 and 2); the split into cards is the team's reading, as is the 5-player row (6 each,
# jokers used), which the French text lost. Each row lists one hand of units per seat;
# hands are dealt to seats at random.
UNIT_HANDS: dict[int, tuple[dict[str, int], ...]] = {
    2: ({"king": 2, "queen": 2, "jack": 2},) * 2,
    3: ({"king": 2, "queen": 1},) * 2 + ({"queen": 2, "jack": 4, "joker": 2},),
    4: ({"king": 1, "queen": 1, "jack": 1},) * 4,
    5: ({"king": 1, "queen": 1},) * 4 + ({"jack": 4, "joker": 2},),
    6: ({"king": 1, "jack": 1},) * 4 + ({"queen": 2, "joker": 1},) * 2,
}
UNIT_HANDS_RECONSTRUCTED = (5,)

# Poker chips per player: white $1, red $5, blue $10 (rule P-CHIPS).
CHIP_VALUES = {"white": 1, "red": 5, "blue": 10}
CHIPS: dict[int, dict[str, int]] = {
    6: {"white": 8, "red": 4, "blue": 4},
    5: {"white": 10, "red": 5, "blue": 5},
    4: {"white": 12, "red": 6, "blue": 6},
    3: {"white": 16, "red": 8, "blue": 8},
    2: {"white": 15, "red": 9, "blue": 9},
}


def starting_money(seats: int) -> int:
    return sum(CHIP_VALUES[colour] * count for colour, count in CHIPS[seats].items())


def unit_total(units: dict[str, int]) -> int:
    return sum(UNIT_VALUES[kind] * count for kind, count in units.items())


# The optional rule "properties count $5 at the end" (rule P-OPT-VALUE).
PROPERTY_END_VALUE = 5
