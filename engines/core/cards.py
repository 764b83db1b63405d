"""Piles of cards kept as plain lists inside a state (the top of a pile is its end)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


def draw(pile: list[T], count: int = 1) -> list[T]:
    """Take ``count`` cards from the top of ``pile`` (fewer if it runs out)."""
    taken = pile[len(pile) - count :] if count else []
    del pile[len(pile) - len(taken) :]
    taken.reverse()
    return taken


def refill_from_discard(pile: list[T], discard: list[T], shuffle: Callable[[list[T]], None]) -> bool:
    """When ``pile`` is empty, shuffle ``discard`` into it; return whether it did."""
    if pile or not discard:
        return False
    pile.extend(discard)
    discard.clear()
    shuffle(pile)
    return True


def redeal(rng: random.Random, places: Sequence[list[Any]]) -> None:
    """Shuffle together the cards of several hidden places and deal them back, sizes kept.

    This is the core of ``determinize``: every card a seat cannot locate (other hands,
    the face-down stock) is re-dealt consistently with what it knows (the counts).
    """
    # Sorted first, so the deal depends on what the seat knows (the cards in the pool), never
    # on where they truly are: a bot's sample must not carry a trace of the hidden truth.
    pool = sorted(card for place in places for card in place)
    rng.shuffle(pool)
    start = 0
    for place in places:
        size = len(place)
        place[:] = pool[start : start + size]
        start += size
