"""What a hand holds, by colour: the two-red-and-two-blue rule (NY-DEAL, NY-DRAW)."""

from __future__ import annotations

from collections.abc import Iterable

from . import material as m


def kinds(hand: Iterable[str]) -> list[str]:
    """The distinct cards of a hand in the fixed card order (copies play the same)."""
    return sorted(set(hand), key=m.CARD_RANK.__getitem__)


def red_blue(hand: Iterable[str]) -> list[int]:
    """[red cards, blue cards]; event cards count for their colour (a reconstruction)."""
    reds = blues = 0
    for card in hand:
        if card.startswith("red-"):
            reds += 1
        else:
            blues += 1
    return [reds, blues]


def complete(hand: list[str]) -> bool:
    """At least two red and two blue cards: the hand a player draws up to."""
    reds = sum(1 for card in hand if card.startswith("red-"))
    return reds >= 2 and len(hand) - reds >= 2
