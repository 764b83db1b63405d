"""Fifth Avenue's material as data: the board, the cards, the shops and every score table.

Source: seeds/fifth-avenue.fr.txt (Wilko Manz, alea 2004, French rulebook), with
rules/README.md and rules/research/fifth_avenue_and_003.md part 1. Values no source gives
are marked RECONSTRUCTION here and listed in docs/rules/fifth-avenue.md, so a person
holding the real box can correct one line.
"""

from __future__ import annotations

from ..core import Message, say

# ---- the building plots and the construction cards (rule FA-BOARD, FA-CARDS) ----------------
# One plot of each colour in every district; a colour card names the plot of its colour.
COLOURS = ("orange", "brown", "grey", "violet", "green")
BLACK = "black"
KINDS = (*COLOURS, BLACK)  # the six piles of construction cards

# Copies of each value: per colour 5 x "4", 4 x "5", 3 x "6"; black 20 / 16 / 14.
COLOUR_CARD_COPIES = {4: 5, 5: 4, 6: 3}
BLACK_CARD_COPIES = {4: 20, 5: 16, 6: 14}
VALUES = (4, 5, 6)

# Skyscrapers drawn on a card = the most a winner may build with it (rule FA-AUCTION-BUILD);
# of all the cards bid, only the one with the fewest skyscrapers (the highest value) counts.
SKYSCRAPERS_ON_CARD = {4: 3, 5: 2, 6: 1}


def card_id(kind: str, value: int) -> str:
    return f"{kind}-{value}"


COLOUR_DECK = tuple(card_id(c, v) for c in COLOURS for v, n in COLOUR_CARD_COPIES.items() for _ in range(n))
BLACK_DECK = tuple(card_id(BLACK, v) for v, n in BLACK_CARD_COPIES.items() for _ in range(n))
CARD_KIND = {card_id(k, v): k for k in KINDS for v in VALUES}
CARD_VALUE = {card_id(k, v): v for k in KINDS for v in VALUES}
ALL_CARDS = tuple(CARD_KIND)

# ---- the districts and the paths of the commission pawns (FA-BOARD, FA-COMMISSION-PATH) ------
START = "start"
CENTRAL_PARK = "central_park"

# id, printed name, column counted from Start (the auction order goes by column).
DISTRICTS = (
    ("34th-street-west", "34th Street West", 1),
    ("34th-street-east", "34th Street East", 1),
    ("42nd-street-west", "42nd St. West", 2),
    ("times-square", "Times Square", 2),
    # INFERRED: no source names the seventh district; the board is symmetric (research §1.2).
    ("42nd-street-east", "42nd St. East", 2),
    ("52nd-street-west", "52nd St. West", 3),
    ("52nd-street-east", "52nd St. East", 3),
)
DISTRICT_IDS = tuple(d[0] for d in DISTRICTS)
DISTRICT_NAMES = {d[0]: d[1] for d in DISTRICTS}
DISTRICT_COLUMN = {d[0]: d[2] for d in DISTRICTS}
DISTRICT_INDEX = {d: i for i, d in enumerate(DISTRICT_IDS)}

# Where a pawn may go next, left to right (research §1.3: Start, the 34th streets and Times
# Square offer two ways; 42nd St. East's edges are INFERRED by symmetry). From Central Park
# the only move is back to Start, which starts the auctions.
PATHS = {
    START: ("34th-street-west", "34th-street-east"),
    "34th-street-west": ("42nd-street-west", "times-square"),
    "34th-street-east": ("times-square", "42nd-street-east"),
    "42nd-street-west": ("52nd-street-west",),
    "times-square": ("52nd-street-west", "52nd-street-east"),
    "42nd-street-east": ("52nd-street-east",),
    "52nd-street-west": (CENTRAL_PARK,),
    "52nd-street-east": (CENTRAL_PARK,),
    CENTRAL_PARK: (START,),
}

PAWNS = ("white", "beige")  # each with 3 expertise tokens of its colour
EXPERTISE_TOKENS_PER_PAWN = 3
CLOSURE_SIGNS = 2  # "Fermeture des chantiers"; the second one ends the game

# ---- the ring of plots in each district (FA-BOARD, FA-SIX-PLOTS) ------------------------------
# Plots lie in a ring: each touches the one before and after it (the last touches the first).
# RECONSTRUCTION: the colour order around each ring is printed only on the board; no public
# source gives it. One order per district, all different (rules/README.md).
RINGS_RECONSTRUCTED = True
FIVE_PLOT_RINGS = {
    "34th-street-west": ("orange", "brown", "grey", "violet", "green"),
    "34th-street-east": ("brown", "violet", "green", "grey", "orange"),
    "42nd-street-west": ("grey", "violet", "orange", "brown", "green"),
    "times-square": ("violet", "green", "orange", "grey", "brown"),
    "42nd-street-east": ("green", "brown", "violet", "orange", "grey"),
    "52nd-street-west": ("orange", "violet", "brown", "grey", "green"),
    "52nd-street-east": ("brown", "green", "orange", "violet", "grey"),
}
# The other board side: six plots, the sixth (broken border, no colour) holds the initial shop.
# RECONSTRUCTION: where the sixth plot sits in each ring.
SIXTH = "sixth"
SIX_PLOT_RINGS = {
    "34th-street-west": ("orange", "brown", "grey", SIXTH, "violet", "green"),
    "34th-street-east": ("brown", SIXTH, "violet", "green", "grey", "orange"),
    "42nd-street-west": ("grey", "violet", "orange", "brown", SIXTH, "green"),
    "times-square": ("violet", "green", SIXTH, "orange", "grey", "brown"),
    "42nd-street-east": ("green", "brown", "violet", "orange", "grey", SIXTH),
    "52nd-street-west": (SIXTH, "orange", "violet", "brown", "grey", "green"),
    "52nd-street-east": ("brown", "green", "orange", SIXTH, "violet", "grey"),
}


_RINGS = {
    six: tuple((SIX_PLOT_RINGS if six else FIVE_PLOT_RINGS)[d] for d in DISTRICT_IDS) for six in (False, True)
}


def rings(six_plots: bool) -> tuple[tuple[str, ...], ...]:
    """The plot ids of each district in ring order, districts in DISTRICT_IDS order."""
    return _RINGS[six_plots]


# ---- shops (FA-SHOPS, FA-SHOP-BLOCK) ----------------------------------------------------------
SHOPS = ("fashion", "jewellery", "gallery", "perfumery")
SHOP_NAMES = {
    "fashion": "fashion store",  # Magasin de mode
    "jewellery": "jeweller",  # Bijouterie
    "gallery": "art gallery",  # Galerie d'art
    "perfumery": "perfumery",  # Parfumerie
}
SHOP_COPIES = 9


# ---- what a person reads of the material (messages, engines/core/messages.py) ----------------
def the_shop(shop: str | None) -> Message:
    """'the fashion store', « le magasin de mode »: a shop tile with its article."""
    return say(f"fifth_avenue.the_shop.{shop if shop in SHOP_NAMES else 'unknown'}")


def the_plot(plot: str) -> Message:
    """'the grey plot', « le terrain gris »; 'the sixth plot' on the six-plot side."""
    return say(f"fifth_avenue.the_plot.{plot}")


def colour_name(kind: str) -> Message:
    """A card or plot colour (or black) as a noun: 'grey', « gris »."""
    return say(f"fifth_avenue.colour.{kind}")


def card_text(card: str) -> Message:
    """A construction card: 'grey-4' in English (its id, as the view writes it), « 4 gris »."""
    return say(f"fifth_avenue.card.{CARD_KIND[card]}", value=CARD_VALUE[card])


def listed(items: list[Message]) -> Message | str:
    """Items one after the other, each language's comma between them (never an 'and': a bid's
    cards are laid down as a row, and the English has always read 'grey-4, black-6')."""
    if not items:
        return ""
    said: Message = items[-1]
    for item in reversed(items[:-1]):
        said = say("fifth_avenue.then", first=item, rest=said)
    return said


SHOP_TILES = tuple(s for s in SHOPS for _ in range(SHOP_COPIES))
INITIAL_SHOPS = 7  # one per district
MAX_SHOPS_PER_PLOT = 2
# At most two initial shops on plots of one colour, at least one on each colour (the
# English rulebook adds the second half; research §1.8.2).
INITIAL_SHOPS_PER_COLOUR_MAX = 2
# Eight blocks along the top edge, left to right. INFERRED order 3,2,3,2,... (research §1.5).
SUPPLY_BLOCKS = (3, 2, 3, 2, 3, 2, 3, 2)

# Special scorings after the 3rd, 6th and 9th shop placed by the players: a player with a
# skyscraper in at least this many districts scores these points (FA-SHOP-SPECIAL).
SPECIAL_SCORINGS = {3: (3, 4), 6: (4, 6), 9: (5, 8)}
SHOPS_TO_END = 12  # the 12th shop placed ends the game at once (FA-END-SHOPS)

# ---- scoring (FA-DISTRICT-SCORE, FA-PARK-SCORE) -----------------------------------------------
# Victory points per skyscraper by the number of *different* shops on the two plots beside it.
POINTS_BY_DIFFERENT_SHOPS = (1, 2, 3, 5, 8)
# Central Park at the end: 3 tiles revealed from under the park; points per skyscraper by the
# number of different shops among them. READING: with no tile to reveal (a game ended by two
# closures before any block emptied) a park skyscraper scores the rulebook's minimum, 2.
PARK_REVEALED_TILES = 3
PARK_POINTS_BY_DIFFERENT_SHOPS = (2, 2, 3, 5)

# ---- skyscrapers and hands (FA-SKYSCRAPERS, FA-SETUP-CARDS) -----------------------------------
# The French box: 84 skyscrapers, 21 per colour. The German and English editions have 18 per
# colour (72); the engine follows the French seed.
SKYSCRAPERS_PER_COLOUR = 21
SCORE_MARKERS = 1
INITIAL_ON_BOARD = 2
INITIAL_RESERVE = 3
COMMON_SUPPLY = SKYSCRAPERS_PER_COLOUR - SCORE_MARKERS - INITIAL_ON_BOARD - INITIAL_RESERVE
INITIAL_BLACK_CARDS = 4
TAKE_SKYSCRAPERS = 3  # action A
TAKE_COLOUR_CARDS = 2  # phase 2 of actions A to C, of different colours
SCORING_BLACK_CARDS = 2  # phase 2 of action D
ABSENT_BLACK_CARDS = 1  # to every player without a skyscraper in the district scored
# Gédéon, the neutral bidder of the two-player game, builds with an unused colour.
GEDEON_SKYSCRAPERS = SKYSCRAPERS_PER_COLOUR
