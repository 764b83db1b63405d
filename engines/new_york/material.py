"""New York's material as data: the 7×7 city, the street cards, pieces and money by players.

Source: seeds/new-york-and-property.fr.txt (NEW YORK, Sackson & Kübler, Piatnik 1995) and
rules/research/freshfish_newyork_property.md §2. Values no source gives are marked
RECONSTRUCTION (and listed in docs/rules/new-york.md) so that someone holding the box can
correct one line.
"""

from __future__ import annotations

from ..core import Message, say

# ---- the board (rule NY-BOARD) ---------------------------------------------------------
# 7 horizontal avenues (red cards) cross 7 vertical streets (blue cards): 49 buildings.
# Squares are named (avenue, street), both 1..7.
SIZE = 7
LINES = tuple(range(1, SIZE + 1))
SQUARES = tuple((avenue, street) for avenue in LINES for street in LINES)

# RECONSTRUCTION (rules/README.md): "the 5 centre squares" of Sanierung are the centre and
# its 4 orthogonal neighbours (a plus shape); the rulebook's picture was lost.
CENTRE_SQUARES = ((3, 4), (4, 3), (4, 4), (4, 5), (5, 4))
CENTRE_SQUARES_RECONSTRUCTED = True
# The 4 corner squares of Ruin (no doubt about them).
CORNER_SQUARES = ((1, 1), (1, 7), (7, 1), (7, 7))

# Only three names of the printed board are known (research §2): Broadway and Fifth
# Avenue are avenues, 42nd Street is a street. Which numbers they carry is unknown, so
# the engine numbers the lines and names none of them.
KNOWN_NAMES = {"avenues": ("Broadway", "Fifth Avenue"), "streets": ("42nd Street",)}

# ---- the cards (rules NY-CARDS, NY-EVENTS) -----------------------------------------------
# A card is a plain string; copies of one card are equal strings. Red cards name avenues,
# blue cards name streets.
RED, BLUE = "red", "blue"
JOKER = "joker"
STOP = "stop"
STREET_CARD_COPIES = 4  # 4 per avenue (28 red) and 4 per street (28 blue)
JOKER_COPIES = 5  # 5 red and 5 blue jokers
STOP_COPIES = 2

SANIERUNG, RUIN, SPEKULATION, BAULOWE, STATIK = "sanierung", "ruin", "spekulation", "baulowe", "statik"
# Event cards per colour: one red and one blue of each, two of each colour for Baulöwe
# (12 in all; PL's "Statik ×4" would make 14 and contradicts his own table).
EVENT_COPIES = {SANIERUNG: 1, RUIN: 1, SPEKULATION: 1, BAULOWE: 2, STATIK: 1}
SINGLE_EVENTS = (SANIERUNG, RUIN, SPEKULATION)  # played alone
PAIRED_EVENTS = (BAULOWE, STATIK)  # played with a card of the other colour
EVENT_TITLES = {
    SANIERUNG: "Sanierung",
    RUIN: "Ruin",
    SPEKULATION: "Spekulation",
    BAULOWE: "Baulöwe",
    STATIK: "Statik",
}


def line_card(colour: str, number: int) -> str:
    return f"{colour}-{number}"


def card_colour(card: str) -> str:
    """'red' or 'blue' (a Stop card has no colour and is never held)."""
    return card.split("-", 1)[0]


def card_face(card: str) -> str:
    """What the card shows: a line number as text, 'joker', or an event name."""
    return card.split("-", 1)[1]


def card_line(card: str) -> int | None:
    """The avenue (red) or street (blue) a street card names; None for jokers and events."""
    face = card_face(card)
    return int(face) if face.isdigit() else None


def is_joker(card: str) -> bool:
    return card.endswith("-" + JOKER)


def card_event(card: str) -> str | None:
    face = card.split("-", 1)[-1]
    return face if face in EVENT_COPIES else None


def is_line_or_joker(card: str) -> bool:
    """Cards that designate a line: street cards and jokers (the companions of paired events)."""
    return card_event(card) is None


def other_colour(colour: str) -> str:
    return BLUE if colour == RED else RED


STREET_CARDS = tuple(
    line_card(colour, number) for colour in (RED, BLUE) for number in LINES for _ in range(STREET_CARD_COPIES)
)
JOKERS = tuple(f"{colour}-{JOKER}" for colour in (RED, BLUE) for _ in range(JOKER_COPIES))
EVENT_CARDS = tuple(
    f"{colour}-{name}"
    for name, copies in EVENT_COPIES.items()
    for colour in (RED, BLUE)
    for _ in range(copies)
)
STOP_CARDS = (STOP,) * STOP_COPIES
# Every card kind, in the fixed order hands are shown and moves are listed in.
CARD_ORDER = tuple(
    dict.fromkeys(
        [line_card(RED, n) for n in LINES]
        + [f"{RED}-{JOKER}"]
        + [f"{RED}-{e}" for e in EVENT_COPIES]
        + [line_card(BLUE, n) for n in LINES]
        + [f"{BLUE}-{JOKER}"]
        + [f"{BLUE}-{e}" for e in EVENT_COPIES]
        + [STOP]
    )
)
CARD_RANK = {card: i for i, card in enumerate(CARD_ORDER)}


def deck(events: bool) -> tuple[str, ...]:
    """The draw pile at the start: street cards and jokers, plus the 12 events in variant 1."""
    return STREET_CARDS + JOKERS + (EVENT_CARDS if events else ())


def _card_said(card: str) -> Message:
    if card == STOP:
        return say("new_york.card.stop")
    colour, face = card_colour(card), card_face(card)
    if face.isdigit():
        return say("new_york.card.avenue" if colour == RED else "new_york.card.street", number=int(face))
    if face == JOKER:
        return say("new_york.card.red_joker" if colour == RED else "new_york.card.blue_joker")
    # The event cards keep their German names in the French rulebook too ("la carte Sanierung").
    event_id = "new_york.card.red_event" if colour == RED else "new_york.card.blue_event"
    return say(event_id, event=EVENT_TITLES[face])


# ---- pieces and money (rules NY-PIECES, NY-MONEY) ------------------------------------------
COLOURS = ("red", "blue", "yellow", "green", "black")
PIECES = {3: 25, 4: 20, 5: 15}  # pieces of each colour, by number of players
MONEY = {3: 8, 4: 6, 5: 5}  # money per player; also the pieces each places before the game

# Variant 3 (two players, two colours each) is set up "as for 4 players": four colours of
# 20 pieces. INFERRED (research §2): the money is 6 per colour, so 12 per player, and each
# colour places 6 pieces in the preliminary round.
TWO_PLAYER_COLOURS = 4
TWO_PLAYER_AS_IF = 4

# ---- scoring (rule NY-SCORE) ---------------------------------------------------------------
GROUP_POINTS = 2  # each building of the largest connected group
OTHER_POINTS = 1  # each other building
MONEY_POINTS = 1  # each unit of money
# Variant 3: each colour's largest group counts, other buildings do not. READING: a
# building of those groups is worth 2 points as in the main game (the rulebook names only
# the buildings outside the groups as the difference).
TWO_COLOUR_GROUP_POINTS = 2
TWO_COLOUR_OTHER_POINTS = 0

# ---- the end (rule NY-END-TRIGGER) ---------------------------------------------------------
STOP_WHEN_UNOWNED = 4  # the Stop cards go on the discard pile when only 4 are unowned

# ---- events (rule NY-EV-SPEKULATION) -------------------------------------------------------
SPEKULATION_MORE_THAN = 8  # the named player must have more than 8 pieces on the board


# Lookups computed once: listing moves asks these questions thousands of times a second.
CARD_LINE = {card: card_line(card) for card in CARD_ORDER if card != STOP}
CARD_EVENT = {card: card_event(card) for card in CARD_ORDER}
CARD_SAID = {card: _card_said(card) for card in CARD_ORDER}
card_said = CARD_SAID.__getitem__
# A colour as a word ("red", « rouge »): the colour of a piece, a building or a player.
COLOUR_SAID = {colour: say(f"new_york.colour.{colour}") for colour in COLOURS}

# Values no source gives, and those only inferred (docs/rules/new-york.md lists them all,
# with the readings of unclear sentences, which live in the rules code).
RECONSTRUCTED = ("CENTRE_SQUARES",)
INFERRED = ("TWO_PLAYER_AS_IF (money 6 per colour in variant 3)", "TWO_COLOUR_GROUP_POINTS")
