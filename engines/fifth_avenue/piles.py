"""The construction cards: five face-up colour piles, the black pile, and the hands.

What the table knows is kept with the cards, because it is what ``determinize`` must keep:

- A pile is ``{"hidden": [...], "known": [...]}``, top first. ``hidden`` is the part whose
  order nobody knows (dealt shuffled); ``known`` lies under it: cards the table saw being
  put under the pile (a winner's bid, Gédéon's cards). A colour pile lies face up, so its
  top card is always seen (rule FA-SETUP-CARDS). In the black pile each known card is
  ``[card, face_up]``: a winner's black cards go under face up, Gédéon's face down.
- A hand is ``hand`` (every card) and ``shown`` (those the table has seen enter it: colour
  cards taken from the face-up piles, a passed bid taken back). The rest is secret: the
  colour cards of the deal (one of each colour, so their colours are known) and black
  cards drawn face down.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypedDict, TypeVar

from ..core.cards import redeal as deal_again
from . import material as m

# What lies known under a pile: a colour pile's cards, or in the black pile ``[card, face_up]``
# pairs (a JSON array, so no tuple; a list of a str and a bool has no closer type).
Known = TypeVar("Known")
BlackCard = list[Any]


class Pile(TypedDict, Generic[Known]):
    hidden: list[str]  # top first, in an order nobody knows
    known: list[Known]  # under it, top first


class Hand(TypedDict):
    hand: list[str]  # every card
    shown: list[str]  # those the table has seen enter it


def new_pile(cards: list[str]) -> Pile[Known]:
    return {"hidden": list(cards), "known": []}


def top(pile: Pile[str]) -> str | None:
    """The card seen on top of a colour pile (None when it is empty)."""
    if pile["hidden"]:
        return pile["hidden"][0]
    return pile["known"][0] if pile["known"] else None


def size(pile: Pile[Known]) -> int:
    return len(pile["hidden"]) + len(pile["known"])


def take_top(pile: Pile[str]) -> str:
    """Take the top card of a (non-empty) colour pile."""
    return pile["hidden"].pop(0) if pile["hidden"] else pile["known"].pop(0)


def draw_black(pile: Pile[BlackCard]) -> tuple[str, bool] | None:
    """Draw the top black card: ``(card, seen_by_all)``, or None when the pile is empty.

    A card the table watched Gédéon put under the pile is still known when it comes up.
    Call ``settle_black`` afterwards.
    """
    if pile["hidden"]:
        return pile["hidden"].pop(0), False
    if pile["known"]:
        card, _face_up = pile["known"].pop(0)
        return card, True
    return None


def settle_black(pile: Pile[BlackCard], shuffle: Callable[[list[str]], None]) -> bool:
    """Rule FA-BLACK-RESHUFFLE: once a face-up black card comes to the top, shuffle the pile.

    Returns whether it reshuffled.
    """
    if pile["hidden"] or not pile["known"] or not pile["known"][0][1]:
        return False
    cards = [card for card, _face_up in pile["known"]]
    shuffle(cards)
    pile["hidden"], pile["known"] = cards, []
    return True


# ---- hands -----------------------------------------------------------------------------------
def give(player: Hand, card: str, seen: bool) -> None:
    player["hand"].append(card)
    if seen:
        player["shown"].append(card)


def remove(player: Hand, card: str) -> None:
    """Take a card out of a hand to show it (a bid).

    Of two equal cards, the one the table already knew leaves first: what stays secret is
    then exactly what was secret before, as the table sees it.
    """
    player["hand"].remove(card)
    if card in player["shown"]:
        player["shown"].remove(card)


def secret_cards(player: Hand) -> list[str]:
    rest = list(player["hand"])
    for card in player["shown"]:
        rest.remove(card)
    return rest


def hidden_kinds(player: Hand) -> dict[str, int]:
    """How many secret cards of each kind a hand holds (the table knows this much)."""
    counts = {kind: 0 for kind in m.KINDS}
    for card in secret_cards(player):
        counts[m.CARD_KIND[card]] += 1
    return counts


def redeal(
    players: Sequence[Hand],
    piles: Mapping[str, Pile[str]],
    black: Pile[BlackCard],
    others: list[int],
    rng: random.Random,
) -> None:
    """Re-deal what one seat cannot know: the other hands' secret cards and the unseen pile parts.

    Kind by kind (each colour, then black): the secret cards of that kind in the other
    hands and the unseen part of that pile (a colour pile's top card is seen) are shuffled
    together and dealt back, sizes kept. Known cards stay where they are.

    The result depends only on what the seat knows and on ``rng``: each pool is sorted
    before it is shuffled (``engines.core.cards.redeal``), and each other hand is rebuilt
    as its shown cards followed by its new secret cards, kind by kind, so nothing of the
    true order of a hand survives (a hand's order means nothing in play).
    """
    secrets = {s: secret_cards(players[s]) for s in others}
    dealt: dict[int, list[str]] = {s: [] for s in others}
    for kind in m.KINDS:
        pile = black if kind == m.BLACK else piles[kind]
        keep_top = 0 if kind == m.BLACK else min(1, len(pile["hidden"]))
        places = [
            pile["hidden"][keep_top:],
            *([c for c in secrets[s] if m.CARD_KIND[c] == kind] for s in others),
        ]
        deal_again(rng, places)
        pile["hidden"][keep_top:] = places[0]
        for s, new in zip(others, places[1:], strict=True):
            dealt[s].extend(new)
    for s in others:
        players[s]["hand"] = list(players[s]["shown"]) + dealt[s]
