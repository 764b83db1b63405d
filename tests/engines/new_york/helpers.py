"""Positions built by hand for New York's rule tests."""

from __future__ import annotations

from collections import Counter

from engines.new_york import GAME
from engines.new_york import material as m


def colour(name: str) -> int:
    return m.COLOURS.index(name)


def position(
    seats: int = 3,
    *,
    options: dict | None = None,
    current: int = 0,
    hands: dict[int, list[str]] | None = None,
    owned: tuple = (),
    money: dict[int, int] | None = None,
    stock_top: list[str] | None = None,
    seed: int = 1,
):
    """A state at the start of ``current``'s turn, past the preliminary round.

    Seat ``i`` plays colour ``i`` (in variant 3 also ``i + 2``): red, blue, yellow, ...
    ``owned`` lists ``(avenue, street, colour name)``; ``stock_top`` lists the next cards
    drawn, first drawn first; the rest of the deck lies below them.
    """
    opts = {"two_colours": seats == 2, **(options or {})}
    state = GAME.setup(seats, opts, seed)
    state.colour_seat = [c % seats for c in range(state.colours)]
    state.seat_colours = [[c for c in range(state.colours) if c % seats == s] for s in range(seats)]
    state.provisional_seat = list(state.colour_seat)
    state.prelim_queue, state.choose_queue = [], []
    state.board = [[None] * m.SIZE for _ in range(m.SIZE)]
    state.avenue_counts = [[0] * m.SIZE for _ in range(state.colours)]
    state.street_counts = [[0] * m.SIZE for _ in range(state.colours)]
    state.on_board = [0] * state.colours
    state.supply = [state.pieces_per_colour] * state.colours
    for avenue, street, name in owned:
        state._put(colour(name), avenue, street)
    hands = hands or {}
    for seat in range(seats):
        hand = list(hands.get(seat, []))
        state.hands[seat] = hand
        state.hand_epochs[seat] = [0] * len(hand)
        state.min_red_blue[seat] = [0, 0]
    rest = Counter(m.deck(opts.get("events", False)))
    rest.subtract(c for h in hands.values() for c in h)
    rest.subtract(c for c in stock_top or [] if c != m.STOP)
    assert all(n >= 0 for n in rest.values()), "more copies of a card than the deck holds"
    below = sorted(rest.elements(), key=m.CARD_RANK.__getitem__)
    state.stock = below + list(reversed(stock_top or []))
    state.discard = []
    for seat, amount in (money or {}).items():
        state.money[seat] = amount
    state.phase = "play"
    state.current = current
    return state


def fill(owned: list, squares, name: str) -> list:
    """Add ``(a, s, name)`` for each square."""
    return owned + [(a, s, name) for a, s in squares]


def all_cards(state) -> Counter:
    """Every card of the game wherever it is (the drawn Stop card included)."""
    cards = Counter(state.stock) + Counter(state.discard)
    for hand in state.hands:
        cards += Counter(hand)
    if state.stop_drawn_by is not None:
        cards[m.STOP] += 1
    return cards


def expected_cards(state) -> Counter:
    cards = Counter(m.deck(state.options["events"]))
    if state.stops_added:
        cards[m.STOP] += m.STOP_COPIES
    return cards
