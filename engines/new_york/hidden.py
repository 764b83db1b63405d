"""Re-dealing what a seat cannot know (``determinize``; rule NY-HIDDEN).

A seat cannot see the other hands, the order of the stock, or a card offered between two
partners it is not one of. It knows each hand's size; the stock each card was drawn from
(cards drawn after a reshuffle come from the discards it saw); the cards a partner received
from it or gave it; and, for each hand, the least number of red and blue cards it must hold
(a hand is drawn up to two of each; every card played since is seen). The re-deal keeps all
of that: cards are shuffled among places of the same stock epoch, then swapped within an
epoch until every hand again holds its known minimum of each colour. If that fails the
cards are shuffled within their colour too, which always fits. The Stop cards, once in the
stock, go back at random places in the stock (they are never held).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import material as m
from .hands import red_blue

if TYPE_CHECKING:
    import random

    from .rules import NewYorkState

_STOCK = -1
Place = tuple[int, int]


def _colour(card: str) -> int:
    return 0 if card.startswith("red-") else 1


def redeal(state: NewYorkState, viewer: int, rng: random.Random) -> None:
    others = [s for s in range(state.seats) if s != viewer]
    offerer = state.current if state.offer is not None else None
    fixed: dict[int, set[int]] = {}
    for s in others:
        known = list(state.known[s].get(str(viewer), []))
        if offerer == s and viewer == state.partner(s):
            known.append(state.offer["card"])
        hand, used = state.hands[s], set()
        for card in known:
            for i, held in enumerate(hand):
                if i not in used and held == card:
                    used.add(i)
                    break
        fixed[s] = used
    stock_cards = [c for c in state.stock if c != m.STOP]
    stops = len(state.stock) - len(stock_cards)
    places: dict[int, list[Place]] = {state.stock_epoch: []}
    for s in others:
        for i, epoch in enumerate(state.hand_epochs[s]):
            if i not in fixed[s]:
                places.setdefault(epoch, []).append((s, i))
    places[state.stock_epoch].extend((_STOCK, i) for i in range(len(stock_cards)))
    truth = {s: state.hands[s] for s in others} | {_STOCK: stock_cards}
    minimum = {s: state.min_red_blue[s] for s in others}

    dealt = _deal(truth, places, rng, keep_colour=False)
    if not _repair(dealt, places, minimum, rng):
        dealt = _deal(truth, places, rng, keep_colour=True)
    for s in others:
        state.hands[s] = dealt[s]
    stock = dealt[_STOCK]
    for _ in range(stops):
        stock.insert(rng.randrange(len(stock) + 1), m.STOP)
    state.stock = stock
    if offerer is not None and viewer not in (offerer, state.partner(offerer)):
        # The offered card is one of the offerer's cards, which one this seat cannot know.
        state.offer = {"card": rng.choice(state.hands[offerer])}


def _deal(
    truth: dict[int, list[str]], places: dict[int, list[Place]], rng: random.Random, keep_colour: bool
) -> dict[int, list[str]]:
    dealt = {owner: list(cards) for owner, cards in truth.items()}
    for group in places.values():
        parts = [group]
        if keep_colour:
            parts = [[p for p in group if _colour(truth[p[0]][p[1]]) == colour] for colour in (0, 1)]
        for part in parts:
            pool = [truth[owner][i] for owner, i in part]
            rng.shuffle(pool)
            for (owner, i), card in zip(part, pool, strict=True):
                dealt[owner][i] = card
    return dealt


def _repair(
    dealt: dict[int, list[str]],
    places: dict[int, list[Place]],
    minimum: dict[int, list[int]],
    rng: random.Random,
) -> bool:
    """Swap cards within an epoch until each hand holds its known minimum of each colour."""
    epoch_of: dict[Place, int] = {p: e for e, group in places.items() for p in group}
    for _ in range(64):
        short = [
            (s, colour)
            for s, need in minimum.items()
            for colour, have in enumerate(red_blue(dealt[s]))
            if have < need[colour]
        ]
        if not short:
            return True
        s, colour = short[0]
        counts = {o: red_blue(dealt[o]) for o in minimum}
        swapped = False
        mine = [p for p in epoch_of if p[0] == s and _colour(dealt[s][p[1]]) != colour]
        rng.shuffle(mine)
        for place in mine:
            candidates = [
                p
                for p in places[epoch_of[place]]
                if p[0] != s
                and _colour(dealt[p[0]][p[1]]) == colour
                and (p[0] == _STOCK or counts[p[0]][colour] - 1 >= minimum[p[0]][colour])
            ]
            if candidates:
                other = rng.choice(candidates)
                dealt[s][place[1]], dealt[other[0]][other[1]] = dealt[other[0]][other[1]], dealt[s][place[1]]
                swapped = True
                break
        if not swapped:
            return False
    return False
