"""How good a Wettstreit position looks for one seat (the greedy bot and ISMCTS's judge).

Points now, plus rough worths, in points, of what is not yet in the city. Two readings of
the rulebook shape it, each measured (bench/RESULTS.md, "Wettstreit: an evaluation that
knows money ends worthless"):

- money and saboteurs count nothing at the end (WB-SCORE-NOTHING-ELSE): they are worth what
  they can still buy or take, and the game may end as soon as the smaller pile is auctioned
  out (WB-END-TRIGGER), so their worth fades over its last cards. Held at full worth, they
  made the greedy bot hoard écus it could no longer spend;
- the bonuses of a complete city are not promised before the city can be completed (the
  second corner tower waits for the final round, WB-BUILD-CORNER): a flat few points for
  each corner tower or town hall built made the bot buy and lay them for their own sake.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import city as c
from . import material as m

if TYPE_CHECKING:
    from .rules import WettstreitState

# Rough worth, in points, of what is not yet in a city: a card in hand is usually built
# later (until the end, when it costs its value); money buys cards at about two écus a
# point; a saboteur can take a building or a card from a rival.
HAND_SHARE = 0.5
POINTS_PER_ECU = 0.4
SABOTEUR_POINTS = 1.5
# Money and saboteurs keep their worth until the smaller pile holds this many cards, then
# lose it evenly card by card (4, 6 and 10 measured alike).
FADE_CARDS = 6
# The sharper evaluation (hard's judge): a hand card that cannot be laid at either end of
# the city, after those that can, costs up to this share of its value (the hand is deducted
# at the end, WB-SCORE-HAND): half of it while money keeps its worth, all of it as it fades.
STUCK_SHARE = 0.5


def city_and_hand(state: WettstreitState, seat: int) -> tuple[list[str | None], list[str]]:
    """The seat's city and hand with the cards it has set out this turn as good as built
    (a build is not taken back; rule WB-BUILD-STEPS)."""
    player = state.players[seat]
    if seat != state.current or not state.pending:
        return player["city"], player["hand"]
    city = list(player["city"])
    hand = list(player["hand"])
    for placed in state.pending:
        c.place(city, placed["card"], placed["end"])
        hand.remove(placed["card"])
    return city, hand


def still_worth(state: WettstreitState) -> float:
    """The share of their worth money and saboteurs keep: what is left to buy or take."""
    return min(1.0, min(len(state.face_up), len(state.face_down)) / FADE_CARDS)


def promise(state: WettstreitState, seat: int, sharp: bool = False) -> float:
    """The seat's score now, plus what its hand, money and saboteurs promise.

    ``sharp`` (hard's judge): only the hand cards that can still be laid promise anything;
    the rest count against the seat (``layable``, ``STUCK_SHARE``)."""
    player = state.players[seat]
    city, hand = city_and_hand(state, seat)
    laid, stuck = layable(city, hand) if sharp else (hand, [])
    if state.phase == "over" or state.end_triggered:
        value = float(c.score(city, hand)["total"])
        if state.phase != "over":
            # The final round still lets up to three cards out of the hand.
            best = sorted((m.VALUE[card] for card in laid), reverse=True)[: m.FINAL_ROUND_CARDS]
            value += 0.5 * sum(best)
        return value
    worth = still_worth(state)
    value = float(c.value(city))
    value += HAND_SHARE * sum(m.VALUE[card] for card in laid)
    if stuck:
        value -= STUCK_SHARE * (1.0 - 0.5 * worth) * sum(m.VALUE[card] for card in stuck)
    value += worth * (POINTS_PER_ECU * player["money"] + SABOTEUR_POINTS * player["saboteurs"])
    value += _auction_promise(state, seat, worth * POINTS_PER_ECU)
    return value


def layable(city: list[str | None], hand: list[str]) -> tuple[list[str], list[str]]:
    """The hand split into cards that can be laid at the city's ends one after another, and
    the rest (rules WB-BUILD-NEIGHBOURS, WB-BUILD-CORNER, WB-BUILD-TOWN-HALL).

    A greedy guess, not a search: each step lays the card of the family the hand holds most
    of (so that no family is left over), at the end whose neighbour's family the hand holds
    most of (so that the end stops blocking it), corner towers last since they close an end;
    the second corner tower counts as laid in the final round.
    """
    ends = c.ends_of(city)
    remaining = list(hand)
    laid: list[str] = []
    while remaining:
        families: dict[str, int] = {}
        for card in remaining:
            family = m.FAMILY[m.KIND[card]]
            families[family] = families.get(family, 0) + 1
        best = None
        for card in remaining:
            kind = m.KIND[card]
            for end in m.ENDS:
                if c.placement_error(ends, kind, end, True) is not None:
                    continue
                neighbour = ends.left if end == "left" else ends.right
                key = (
                    kind not in m.CORNER_TOWERS,
                    families[m.FAMILY[kind]],
                    families.get(m.FAMILY[neighbour], 0) if neighbour else 0,
                    m.VALUE[card],
                )
                if best is None or key > best[0]:
                    best = (key, card, end)
        if best is None:
            break
        _, card, end = best
        ends = c.place_ends(ends, m.KIND[card], end)
        remaining.remove(card)
        laid.append(card)
    return laid, remaining


def _auction_promise(state: WettstreitState, seat: int, per_ecu: float) -> float:
    """What the running auction brings the seat if it closed now (defaults included)."""
    auction = state.auction
    if auction is None or not auction["bids"]:
        return 0.0
    defaulted: set[int] = set()
    outcome = 0.0
    for bidder, price in reversed(auction["bids"]):
        if bidder in defaulted:
            continue
        money = state.players[bidder]["money"]
        if money >= price:
            if bidder == seat:
                outcome += HAND_SHARE * m.VALUE[auction["card"]] - per_ecu * price
            elif seat == auction["auctioneer"]:
                outcome += per_ecu * (price // 2)
            break
        defaulted.add(bidder)
        if bidder == seat:
            outcome -= per_ecu * money  # who cannot pay loses all his money
    return outcome


def evaluate(state: WettstreitState, seat: int) -> float:
    """The seat's promise against the best rival's: higher is better for ``seat``."""
    return evaluate_seats(state)[seat]


def evaluate_seats(state: WettstreitState) -> list[float]:
    """``evaluate`` of every seat, each seat's promise worked out once."""
    return _margins([promise(state, s) for s in range(state.seats)])


def evaluate_seats_sharp(state: WettstreitState) -> list[float]:
    """Every seat's sharper evaluation (``promise`` with ``sharp``), as ``evaluate_seats`` gives its own."""
    return _margins([promise(state, s, sharp=True) for s in range(state.seats)])


def _margins(promises: list[float]) -> list[float]:
    return [
        own - max(p for s, p in enumerate(promises) if s != seat) if len(promises) > 1 else own
        for seat, own in enumerate(promises)
    ]
