"""Re-dealing what a seat cannot know (``determinize``; rule NY-HIDDEN).

A seat cannot see the other hands, the order of the stock, or a card offered between two
partners it is not one of. It knows each hand's size; the stock each card was drawn from
(cards drawn after a reshuffle come from the discards it saw); the cards a partner received
from it or gave it; and, for each hand, the least number of red and blue cards it must hold
(a hand is drawn up to two of each; every card played since is seen). The re-deal keeps all
of that: cards are shuffled among places of the same stock epoch, then swapped within an
epoch until every hand again holds its known minimum of each colour. If that fails, a
colour pattern that fits every minimum is built first and each epoch's cards are shuffled
into it by colour. The Stop cards, once in the stock, go back at random places in the stock
(they are never held). What the partners of the other team know of each other's hands is
drawn again from their re-dealt hands: of each, as many cards as it has received in exchanges.

The re-deal depends only on what the seat knows and on ``rng``, never on where the hidden
cards truly are: every pool is sorted before it is shuffled, and the number of random draws
depends only on known facts (and on earlier draws), so two states the seat cannot tell apart
give the same sample from the same ``rng``.
"""

from __future__ import annotations

import itertools
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


def _sorted(cards: list[str]) -> list[str]:
    return sorted(cards, key=m.CARD_RANK.__getitem__)


def redeal(state: NewYorkState, viewer: int, rng: random.Random) -> None:
    others = [s for s in range(state.seats) if s != viewer]
    offered = None if state.offer is None else state.offer["card"]
    offerer = state.current if offered is not None else None
    # Each re-dealt hand starts with the cards the seat knows there (given to its partner, or
    # offered by it), then its other places sorted by epoch: a canonical layout, so the
    # re-deal never depends on the order the truth holds its cards in.
    stock_cards = [c for c in state.stock if c != m.STOP]
    stops = len(state.stock) - len(stock_cards)
    pools: dict[int, list[str]] = {state.stock_epoch: list(stock_cards)}
    base: dict[int, list[str]] = {_STOCK: [""] * len(stock_cards)}
    free: dict[int, list[int]] = {}
    for s in others:
        known = list(state.known[s].get(str(viewer), []))
        if offered is not None and offerer == s and viewer == state.partner(s) and offered not in known:
            # The offered card may be the very card the seat gave: then it knows of one only.
            known.append(offered)
        rest = list(zip(state.hands[s], state.hand_epochs[s], strict=True))
        kept: list[tuple[str, int]] = []
        for card in known:
            j = next(j for j, (held, _) in enumerate(rest) if held == card)
            kept.append(rest.pop(j))
        for card, epoch in rest:
            pools.setdefault(epoch, []).append(card)
        free[s] = sorted(epoch for _, epoch in rest)
        base[s] = [card for card, _ in kept] + [""] * len(rest)
        state.hand_epochs[s] = [epoch for _, epoch in kept] + free[s]
    places: dict[int, list[Place]] = {}
    for epoch in sorted(pools):
        group = [
            (s, len(base[s]) - len(free[s]) + k) for s in others for k, e in enumerate(free[s]) if e == epoch
        ]
        if epoch == state.stock_epoch:
            group.extend((_STOCK, i) for i in range(len(stock_cards)))
        places[epoch] = group
    # What the seat knows of each epoch: which cards its places hold, in a canonical order.
    pools = {epoch: _sorted(cards) for epoch, cards in pools.items()}
    minimum = {s: state.min_red_blue[s] for s in others}

    dealt = _deal(base, places, pools, rng)
    if not _repair(dealt, places, minimum, rng):
        dealt = _deal_by_pattern(base, places, pools, minimum, rng)
    for s in others:
        state.hands[s] = dealt[s]
    stock = dealt[_STOCK]
    for _ in range(stops):
        stock.insert(rng.randrange(len(stock) + 1), m.STOP)
    state.stock = stock
    _redraw_partner_knowledge(state, viewer, rng)
    if offerer is not None and viewer not in (offerer, state.partner(offerer)):
        # The offered card is one of the offerer's cards, which one this seat cannot know.
        state.offer = {"card": rng.choice(state.hands[offerer])}


def _deal(
    base: dict[int, list[str]],
    places: dict[int, list[Place]],
    pools: dict[int, list[str]],
    rng: random.Random,
) -> dict[int, list[str]]:
    """Each epoch's cards shuffled into that epoch's places (the places the seat knows held)."""
    dealt = {owner: list(cards) for owner, cards in base.items()}
    for epoch, group in places.items():
        pool = list(pools[epoch])
        rng.shuffle(pool)
        for (owner, i), card in zip(group, pool, strict=True):
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


def _deal_by_pattern(
    base: dict[int, list[str]],
    places: dict[int, list[Place]],
    pools: dict[int, list[str]],
    minimum: dict[int, list[int]],
    rng: random.Random,
) -> dict[int, list[str]]:
    """A deal that always fits: first how many red cards each hand gets from each epoch.

    The counts come from a search over what the seat knows (the places of each epoch, the
    red cards among that epoch's cards, each hand's minimum), tried in a random order; the
    truth is one solution, so there always is one. Then each epoch's red and blue cards are
    shuffled into red and blue places; the stock takes the current epoch's rest.
    """
    hands = list(minimum)
    epochs = list(places)
    free = [[sum(1 for owner, _ in places[e] if owner == s) for e in epochs] for s in hands]
    placed = {p for group in places.values() for p in group}
    needs = []
    for s in hands:
        # Cards the seat knows in a hand (given to its partner) keep their place and colour.
        kept_red, kept_blue = red_blue(card for i, card in enumerate(base[s]) if (s, i) not in placed)
        needs.append((max(0, minimum[s][0] - kept_red), max(0, minimum[s][1] - kept_blue)))
    has_stock = [any(owner == _STOCK for owner, _ in places[e]) for e in epochs]
    dead_ends: set[tuple[int, tuple[int, ...]]] = set()

    def search(h: int, reds: tuple[int, ...], blues: tuple[int, ...]) -> list[tuple[int, ...]] | None:
        """Red cards per epoch for hands h, h + 1, ... out of the red and blue cards left."""
        if h == len(hands):
            # Only the stock may take what the hands leave of an epoch.
            return [] if all(has_stock[j] or reds[j] == 0 for j in range(len(epochs))) else None
        if (h, reds) in dead_ends:  # (the blue cards left follow from h and the red ones)
            return None
        counts, (need_red, need_blue) = free[h], needs[h]
        options = [
            split
            for split in itertools.product(*(range(n + 1) for n in counts))
            if need_red <= sum(split) <= sum(counts) - need_blue
            and all(r <= left for r, left in zip(split, reds, strict=True))
            and all(n - r <= left for n, r, left in zip(counts, split, blues, strict=True))
        ]
        rng.shuffle(options)
        for split in options:
            rest = search(
                h + 1,
                tuple(left - r for left, r in zip(reds, split, strict=True)),
                tuple(left - n + r for left, n, r in zip(blues, counts, split, strict=True)),
            )
            if rest is not None:
                return [split, *rest]
        dead_ends.add((h, reds))
        return None

    reds_in = [sum(1 for card in pools[e] if _colour(card) == 0) for e in epochs]
    blues_in = [len(pools[e]) - reds for e, reds in zip(epochs, reds_in, strict=True)]
    splits = search(0, tuple(reds_in), tuple(blues_in))
    if splits is None:  # cannot happen: the truth fits
        raise AssertionError("no colour pattern fits what the seat knows")
    dealt = {owner: list(cards) for owner, cards in base.items()}
    for j, epoch in enumerate(epochs):
        by_colour = [[c for c in pools[epoch] if _colour(c) == colour] for colour in (0, 1)]
        for pool in by_colour:
            rng.shuffle(pool)
        for h, s in enumerate(hands):
            mine = [p for p in places[epoch] if p[0] == s]
            red = set(rng.sample(range(len(mine)), splits[h][j]))
            for k, (_, i) in enumerate(mine):
                dealt[s][i] = by_colour[0 if k in red else 1].pop()
        rest = by_colour[0] + by_colour[1]
        rng.shuffle(rest)
        for (_, i), card in zip([p for p in places[epoch] if p[0] == _STOCK], rest, strict=True):
            dealt[_STOCK][i] = card
    return dealt


def _redraw_partner_knowledge(state: NewYorkState, viewer: int, rng: random.Random) -> None:
    """Variant 4: what the partners of the other team know of each other's hands.

    The seat saw how many cards each of them received in exchanges, not which, nor whether
    those are still held: each keeps that many (at most its hand) of its re-dealt cards.
    """
    if not state.options["teams"]:
        return
    for s in range(state.seats):
        partner = state.partner(s)
        if viewer in (s, partner):
            continue
        hand = state.hands[s]
        cards = rng.sample(hand, min(state.exchange_received[s], len(hand)))
        state.known[s] = {str(partner): _sorted(cards)} if cards else {}
