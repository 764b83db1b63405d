"""The 105 cards and how they move between the deck, hands, reserves and the discard pile.

Rules NYC-CARDS, NYC-RESHUFFLE, NYC-HIDDEN. Every card in a player's hand or reserve carries a
tag saying what the table knows of it: ``KNOWN`` when its symbol was seen going there (a pair
taken from the display, a card moved with character 8), else the deck epoch it was drawn from
(a card drawn unseen). ``determinize`` re-deals only unknown cards, each among cards of its
epoch (the deck after a reshuffle holds exactly the discards seen before it).
"""

from __future__ import annotations

from ..core import event, secret_event
from .table import Events, Place, Table, cards_and_tags

PRESS, DOLLARS, CHARACTERS, PLANS, PRESTIGE, SKYSCRAPERS, JOKER = (
    "press",
    "dollars",
    "characters",
    "plans",
    "prestige",
    "skyscrapers",
    "joker",
)
# The six bidding rounds, in their order (and the six action symbols).
BIDDING_ROUNDS = (PRESS, DOLLARS, CHARACTERS, PLANS, PRESTIGE, SKYSCRAPERS)
SYMBOLS = (*BIDDING_ROUNDS, JOKER)
SYMBOL_ORDER = {s: i for i, s in enumerate(SYMBOLS)}
COPIES_PER_SYMBOL = 15
DECK = tuple(s for s in SYMBOLS for _ in range(COPIES_PER_SYMBOL))
TITLES = {
    PRESS: "Press",
    DOLLARS: "Dollars",
    CHARACTERS: "Characters",
    PLANS: "Building plans",
    PRESTIGE: "Prestige",
    SKYSCRAPERS: "Skyscrapers",
    JOKER: "Joker",
}
RESERVE_SIZE = 2  # cards under the player board
PHASE0_DRAW = 3  # cards each player draws in Phase 0
KNOWN = -1  # tag of a card whose symbol the table has seen


def sort_cards(cards: list[str]) -> list[str]:
    return sorted(cards, key=SYMBOL_ORDER.__getitem__)


def counts(cards: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for card in cards:
        out[card] = out.get(card, 0) + 1
    return out


def distinct(cards: list[str]) -> list[str]:
    """The symbols present, in the game's symbol order."""
    present = set(cards)
    return [s for s in SYMBOLS if s in present]


def sub_multisets(cards: list[str], largest: int | None = None, smallest: int = 0) -> list[list[str]]:
    """Every choice of cards by symbol (order-free), sizes from ``smallest`` to ``largest``."""
    have = counts(cards)
    kinds = [s for s in SYMBOLS if s in have]
    out: list[list[str]] = []

    def walk(i: int, chosen: list[str]) -> None:
        if largest is not None and len(chosen) > largest:
            return
        if i == len(kinds):
            if len(chosen) >= smallest:
                out.append(list(chosen))
            return
        kind = kinds[i]
        for n in range(have[kind] + 1):
            walk(i + 1, chosen + [kind] * n)

    walk(0, [])
    return out


class CardsMixin(Table):
    """Drawing, discarding and moving tagged cards (state attributes: deck, discard, epoch)."""

    def _draw(self, count: int, ev: Events, epochs: list[int] | None = None) -> list[str]:
        """Take cards from the top of the deck; an empty deck is rebuilt from the discards.

        Rule NYC-RESHUFFLE. ``epochs`` receives the deck epoch of each card drawn.
        """
        drawn: list[str] = []
        for _ in range(count):
            if not self.deck:
                if not self.discard:
                    break  # every card is in play: nothing to draw (never seen in practice)
                self.deck = self.discard
                self.discard = []
                self.shuffle(self.deck)
                self.epoch += 1
                ev.append(event("deck_reshuffled", size=len(self.deck)))
            drawn.append(self.deck.pop())
            if epochs is not None:
                epochs.append(self.epoch)
        return drawn

    def _draw_into(self, p: int, where: Place, count: int, ev: Events, why: str) -> list[str]:
        """Draw ``count`` unseen cards into a player's hand or reserve (only they see them)."""
        epochs: list[int] = []
        cards = self._draw(count, ev, epochs)
        held, tags = cards_and_tags(self.players[p], where)
        held.extend(cards)
        tags.extend(epochs)
        ev.append(
            secret_event(
                "cards_drawn",
                to=[p],
                secret={"cards": sort_cards(cards)},
                player=p,
                into=where,
                count=len(cards),
                reason=why,
            )
        )
        return cards

    def _take(self, p: int, where: Place, symbol: str) -> int:
        """Remove one card of ``symbol`` from a hand or reserve and return its tag.

        A card the table knows is taken first: when a player plays or discards a symbol it
        holds both known and unknown, the table cannot tell which left, so what it can still
        be sure of is the smaller set.
        """
        cards, tags = cards_and_tags(self.players[p], where)
        index = -1
        for i, card in enumerate(cards):
            if card == symbol:
                if tags[i] == KNOWN:
                    index = i
                    break
                if index < 0:
                    index = i
        del cards[index]
        return tags.pop(index)

    def _take_from_reserve(self, p: int, symbol: str) -> int:
        """Remove one reserve card of ``symbol``: a face-down one first, else the face-up one."""
        player = self.players[p]
        if symbol in player["reserve"]:
            return self._take(p, "reserve", symbol)
        player["shown"].remove(symbol)
        return KNOWN

    def _refill_reserve(self, p: int, ev: Events, why: str) -> None:
        player = self.players[p]
        missing = player["reserve_size"] - len(player["reserve"]) - len(player["shown"])
        if missing > 0:
            self._draw_into(p, "reserve", missing, ev, why)
