"""What a player may do with the cards in hand (rules NY-PLAY, NY-JOKER, NY-TAKE-*, NY-EV-*).

A play is two steps when the cards leave a choice, as at the table: the player lays down
the cards (``play`` a red and a blue card, or an ``event`` card alone), then, if the cards
do not settle everything, chooses: the building on the joker's line (``take``), Statik's
line and victim (``line``), Spekulation's victim (``name``); in variant 3 also the colour
that takes the building. Cards with exactly one outcome resolve at once. Each choice below
is produced by a generator so that "is there any?" stops at the first one.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING

from . import city
from . import material as m

if TYPE_CHECKING:
    from ..core import Move
    from .rules import NewYorkState


def gaining_colours(state: NewYorkState, seat: int) -> list[int]:
    """Colours in which ``seat`` can take a building now: its own, with a piece left.

    RECONSTRUCTION (research §2): the pieces are the limit; with none left in the supply a
    player cannot take a building in that colour.
    """
    return [c for c in state.seat_colours[seat] if state.supply[c] > 0]


def colour_variants(state: NewYorkState, seat: int, move: Move) -> Iterator[Move]:
    """The move once per colour it can be made in (only variant 3 names the colour)."""
    gain = gaining_colours(state, seat)
    if not state.options["two_colours"]:
        if gain:
            yield move
        return
    for colour in gain:
        yield {**move, "colour": m.COLOURS[colour]}


def building_choices(state: NewYorkState, seat: int, red: str, blue: str, own: bool) -> Iterator[Move]:
    """Rules NY-JOKER, NY-TAKE-FREE, NY-TAKE-BUY, NY-TAKE-OWN: the buildings two cards reach.

    ``own=False``: the buildings they can take (free, or bought from an owner who can be
    paid, with a piece left); ``own=True``: one's own buildings they reach, which are lost.
    """
    avenue, street = m.CARD_LINE[red], m.CARD_LINE[blue]
    avenues = m.LINES if avenue is None else (avenue,)
    streets = m.LINES if street is None else (street,)
    board, money, colour_seat = state.board, state.money[seat], state.colour_seat
    if own:
        for a in avenues:
            row = board[a - 1]
            for s in streets:
                owner = row[s - 1]
                if owner is not None and colour_seat[owner] == seat:
                    yield {"type": "take", "avenue": a, "street": s}
        return
    gain = gaining_colours(state, seat)
    if not gain:
        return
    by_avenue, by_street = state.price_counts()
    names = [m.COLOURS[c] for c in gain] if state.options["two_colours"] else None
    for a in avenues:
        row = board[a - 1]
        for s in streets:
            owner = row[s - 1]
            if owner is not None and (
                colour_seat[owner] == seat or min(by_avenue[owner][a - 1], by_street[owner][s - 1]) > money
            ):
                continue  # one's own, or an owner who cannot be paid
            if names is None:
                yield {"type": "take", "avenue": a, "street": s}
            else:
                for name in names:
                    yield {"type": "take", "avenue": a, "street": s, "colour": name}


def baulowe_choices(state: NewYorkState, seat: int, kind: str, numbers: tuple[int, ...]) -> Iterator[Move]:
    """Rule NY-EV-BAULOWE: another player's building on the companion's line, taken free."""
    board, colour_seat = state.board, state.colour_seat
    for n in numbers:
        for a, s in city.line_squares(kind, n):
            owner = board[a - 1][s - 1]
            if owner is not None and colour_seat[owner] != seat:
                yield from colour_variants(state, seat, {"type": "take", "avenue": a, "street": s})


def statik_victims(state: NewYorkState, seat: int, kind: str, number: int) -> list[int]:
    """Rule NY-EV-STATIK: the colours with the most buildings in the line, not the player's.

    RECONSTRUCTION (research §2): when several colours share the most, the card player
    picks among them; when the card player alone has the most (or the line is empty),
    nothing happens. Rule NY-V3-OWNER: in variant 3 the leader is a player, whose count is
    both colours'; the victim is named by the player's first colour and gives a building
    of either colour.
    """
    counts = state.price_counts()[0 if kind == "avenue" else 1]
    per_colour = [counts[c][number - 1] for c in range(state.colours)]
    most = max(per_colour)
    if most == 0:
        return []
    leaders = [c for c in range(state.colours) if per_colour[c] == most and state.colour_seat[c] != seat]
    if state.owner_is_player():
        return [c for c in leaders if c == state.seat_colours[state.seat_of(c)][0]]
    return leaders


def statik_choices(state: NewYorkState, seat: int, kind: str, numbers: tuple[int, ...]) -> Iterator[Move]:
    for n in numbers:
        victims = statik_victims(state, seat, kind, n)
        if not victims:
            yield {"type": "line", kind: n}  # played for nothing
            continue
        for victim in victims:
            yield from colour_variants(state, seat, {"type": "line", kind: n, "victim": m.COLOURS[victim]})


def spekulation_victims(state: NewYorkState, seat: int) -> list[int]:
    """Rule NY-EV-SPEKULATION: another player's colour with more than 8 pieces on the board."""
    return [
        c
        for c in range(state.colours)
        if state.colour_seat[c] != seat and state.on_board[c] > m.SPEKULATION_MORE_THAN
    ]


def spekulation_choices(state: NewYorkState, seat: int) -> Iterator[Move]:
    for victim in spekulation_victims(state, seat):
        yield from colour_variants(state, seat, {"type": "name", "victim": m.COLOURS[victim]})


def choices(state: NewYorkState, seat: int, cards: list[str]) -> Iterator[Move]:
    """What is left to choose once ``cards`` are played (empty: the cards cannot be played)."""
    if len(cards) == 1:
        name = m.CARD_EVENT[cards[0]]
        if name == m.SPEKULATION:
            return spekulation_choices(state, seat)
        return iter(())
    red, blue = cards
    red_event, blue_event = m.CARD_EVENT[red], m.CARD_EVENT[blue]
    if red_event is None and blue_event is None:
        taking = building_choices(state, seat, red, blue, own=False)
        losing = building_choices(state, seat, red, blue, own=True)
        if not state.options["own_building_last_resort"]:
            # Rule NY-TAKE-OWN: one's own building is a choice like any other.
            return itertools.chain(taking, losing)
        # Option own_building_last_resort: cards that reach something to take are never
        # used to lose a building (and card_plays offers pairs that reach only one's own
        # buildings only when the whole hand is so).
        first = next(taking, None)
        if first is not None:
            return itertools.chain((first,), taking)
        return losing
    if red_event is not None and blue_event is not None:
        return iter(())
    event_name = red_event or blue_event
    if event_name not in m.PAIRED_EVENTS:
        return iter(())
    # A red event card goes with a blue card, which names a street (and vice versa).
    companion, kind = (blue, "street") if red_event else (red, "avenue")
    number = m.CARD_LINE[companion]
    numbers = m.LINES if number is None else (number,)
    if event_name == m.BAULOWE:
        return baulowe_choices(state, seat, kind, numbers)
    return statik_choices(state, seat, kind, numbers)


def pair_reach(
    state: NewYorkState,
    seat: int,
    red: str,
    blue: str,
    can_gain: bool,
    price_counts: tuple[list[list[int]], list[list[int]]],
) -> int:
    """What two street cards or jokers reach: 2 a building to take, 1 only one's own, 0 nothing.

    The same test as ``building_choices``, written flat because listing asks it of every
    pair (``price_counts``: the state's, counted once for all pairs).
    """
    avenue, street = m.CARD_LINE[red], m.CARD_LINE[blue]
    avenues = m.LINES if avenue is None else (avenue,)
    streets = m.LINES if street is None else (street,)
    board, money, colour_seat = state.board, state.money[seat], state.colour_seat
    by_avenue, by_street = price_counts
    own = 0
    for a in avenues:
        row = board[a - 1]
        for s in streets:
            owner = row[s - 1]
            if owner is None:
                if can_gain:
                    return 2
            elif colour_seat[owner] == seat:
                own = 1
            elif can_gain and min(by_avenue[owner][a - 1], by_street[owner][s - 1]) <= money:
                return 2
    return own


def card_plays(state: NewYorkState, seat: int) -> list[Move]:
    """Every way to lay down cards this turn that leaves at least one legal outcome.

    Rule NY-TAKE-OWN: pairs that reach only one's own buildings are offered like the others;
    with option own_building_last_resort, only when no pair of the hand can take a building
    (free, bought, or with Baulöwe).
    """
    last_resort = state.options["own_building_last_resort"]
    held = sorted(set(state.hands[seat]), key=m.CARD_RANK.__getitem__)
    reds = [c for c in held if c.startswith("red-")]
    blues = [c for c in held if c.startswith("blue-")]
    can_gain = bool(gaining_colours(state, seat))
    counts = state.price_counts()
    taking: list[Move] = []
    losing: list[Move] = []
    statik: list[Move] = []
    event_of = m.CARD_EVENT
    for red in reds:
        red_event = event_of[red]
        for blue in blues:
            blue_event = event_of[blue]
            move = {"type": "play", "red": red, "blue": blue}
            if red_event is None and blue_event is None:
                reach = pair_reach(state, seat, red, blue, can_gain, counts)
                if reach == 2 or (reach == 1 and not last_resort):
                    taking.append(move)
                elif reach == 1:
                    losing.append(move)
            elif m.STATIK in (red_event, blue_event):
                if next(choices(state, seat, [red, blue]), None) is not None:
                    statik.append(move)
            elif next(choices(state, seat, [red, blue]), None) is not None:
                taking.append(move)  # Baulöwe
    moves = taking or losing
    if statik:
        moves = sorted(moves + statik, key=lambda mv: (m.CARD_RANK[mv["red"]], m.CARD_RANK[mv["blue"]]))
    for card in held:
        name = event_of[card]
        if name in (m.SANIERUNG, m.RUIN) or (
            name == m.SPEKULATION and next(spekulation_choices(state, seat), None)
        ):
            moves.append({"type": "event", "card": card})
    return moves


def playout_moves(state: NewYorkState, seat: int, moves: list[Move]) -> list[Move]:
    """The moves that do not lose one of one's own buildings (``Game.playout_moves``).

    NY-TAKE-OWN lets a player lose a building by choice; a random player does so often enough
    that the city never fills and the Stop cards never come. Random playouts prefer the other
    moves, and still play these now and then.
    """
    if state.phase == "target":
        board, colour_seat = state.board, state.colour_seat

        def keeps(move: Move) -> bool:
            if move["type"] != "take":
                return True
            owner = board[move["avenue"] - 1][move["street"] - 1]
            return owner is None or colour_seat[owner] != seat or "colour" in move

        return [move for move in moves if keeps(move)]
    if state.phase == "play":
        can_gain = bool(gaining_colours(state, seat))
        counts = state.price_counts()
        return [
            move
            for move in moves
            if move["type"] != "play"
            or m.CARD_EVENT[move["red"]] is not None
            or m.CARD_EVENT[move["blue"]] is not None
            or pair_reach(state, seat, move["red"], move["blue"], can_gain, counts) == 2
        ]
    return moves
