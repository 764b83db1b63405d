"""Who knows where each hidden card lies, and the re-deal of what a seat cannot know.

Cards sit in hidden places (hands, the two piles, the card being auctioned) or in the open
(cities, the top of the face-up pile). For every card in a hidden place the state keeps:

- ``public[card]``: the whole table knows where it is (bought at a face-up auction, a
  sabotaged building put under a pile, the face-up top card);
- ``knows[card]``: the seats that know privately (the auctioneer and the buyer of a
  face-down card, the owner of a hand);
- ``type_shown[card]``: the table knows its kind, not its value (WB-AUCTION-KIND);
- ``pools``: what is left of such knowledge after a card leaves a hand at random, face
  down (WB-SABOTAGE-HAND). Seat ``seat`` then knows that its ``known`` cards lie somewhere
  among the places of the pool's ``cards`` (the hand and the bottom of the pile), not where.

``redeal`` uses exactly this: a seat's known cards stay, a pool's cards are shuffled among
the pool's places, and every other card the seat cannot locate is dealt again at random,
a card whose kind was announced being replaced by one of the same kind. It does so over
canonical orders only, so the sample is a function of what the seat knows and of the
generator: never of where the hidden cards truly are.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import material as m

if TYPE_CHECKING:
    from .rules import Pool, WettstreitState


def known_to(state: WettstreitState, card: str, seat: int | None) -> bool:
    if card in state.public:
        return True
    return seat is not None and seat in state.knows.get(card, ())


def pooled_for(state: WettstreitState, seat: int | None) -> set[str]:
    """Cards whose place ``seat`` knows only up to a pool."""
    return {card for pool in state.pools if pool["seat"] == seat for card in pool["cards"]}


def learn(state: WettstreitState, card: str, seats: list[int]) -> None:
    """These seats now know where ``card`` is (they saw it go there)."""
    knowers = state.knows.setdefault(card, [])
    for seat in seats:
        if seat not in knowers:
            knowers.append(seat)
    knowers.sort()
    if state.pools:
        _drop_from_pools(state, card, set(seats))


def publish(state: WettstreitState, card: str) -> None:
    """The whole table now knows where ``card`` is."""
    state.public[card] = True
    if state.pools:
        _drop_from_pools(state, card, None)


def into_the_open(state: WettstreitState, card: str) -> None:
    """``card`` is now built in a city: its place is public by nature, no record is needed."""
    state.public.pop(card, None)
    state.knows.pop(card, None)
    state.type_shown.pop(card, None)
    if state.pools:
        _drop_from_pools(state, card, None)


def lose_secretly(state: WettstreitState, victim: int, hand: list[str], lost: str) -> None:
    """``lost`` left ``victim``'s ``hand`` at random, face down: only the victim knows which.

    Every other seat that could locate cards of that hand (or knew the kind of one) now
    only knows they are among the hand and the lost card's new place: a pool per seat,
    merged with the pools that already held any of these cards.
    """
    cards = list(hand)
    for card in cards:
        if state.public.pop(card, None):
            # Everyone knew it; from now on only the victim knows exactly.
            state.knows[card] = sorted(set(range(state.seats)))
        learn(state, card, [victim])
    for seat in range(state.seats):
        if seat == victim:
            continue
        known = [card for card in cards if seat in state.knows.get(card, ())]
        for card in known:
            state.knows[card].remove(seat)
        members = set(cards)
        merged_known = set(known)
        for pool in [p for p in state.pools if p["seat"] == seat and members & set(p["cards"])]:
            members.update(pool["cards"])
            merged_known.update(pool["known"])
            state.pools.remove(pool)
        if merged_known or any(card in state.type_shown for card in members):
            state.pools.append(
                {
                    "seat": seat,
                    "cards": sorted(members, key=m.CARD_ORDER.__getitem__),
                    "known": sorted(merged_known, key=m.CARD_ORDER.__getitem__),
                }
            )


def settle_all(state: WettstreitState) -> None:
    """Turn pools whose cards all ended up in one place back into plain knowledge."""
    for pool in list(state.pools):
        _settle(state, pool, _places(state))


def _drop_from_pools(state: WettstreitState, card: str, seats: set[int] | None) -> None:
    places: dict[str, str] | None = None
    for pool in list(state.pools):
        if card in pool["cards"] and (seats is None or pool["seat"] in seats):
            pool["cards"].remove(card)
            if card in pool["known"]:
                pool["known"].remove(card)
            places = places or _places(state)
            _settle(state, pool, places)


def _settle(state: WettstreitState, pool: Pool, places: dict[str, str]) -> None:
    cards = pool["cards"]
    if not pool["known"] and not any(card in state.type_shown for card in cards):
        state.pools.remove(pool)
        return
    if len({places.get(card) for card in cards}) <= 1:
        # One hand (unordered) or one pile position: the seat knows where they all are.
        for card in pool["known"]:
            knowers = state.knows.setdefault(card, [])
            if pool["seat"] not in knowers:
                knowers.append(pool["seat"])
                knowers.sort()
        state.pools.remove(pool)


def _places(state: WettstreitState) -> dict[str, str]:
    """Where every hidden card is: a hand, a pile position, or the auction."""
    places = {}
    for seat, player in enumerate(state.players):
        for card in player["hand"]:
            places[card] = f"hand:{seat}"
    for pile in m.PILES:
        for index, card in enumerate(getattr(state, pile)):
            places[card] = f"{pile}:{index}"
    if state.auction is not None:
        places[state.auction["card"]] = "auction"
    return places


def _slots(state: WettstreitState, seat: int) -> list[tuple[Any, Any, tuple[int, int, int]]]:
    """Every hidden place of a card, except ``seat``'s own hand, as (container, key, where).

    ``where`` names the place as the table does: a pile position, the auction, or just a
    hand (a hand is a set: which index holds which card is nobody's knowledge).
    """
    slots: list[tuple[Any, Any, tuple[int, int, int]]] = []
    if not state.is_over():
        for other, player in enumerate(state.players):
            if other != seat:
                hand = player["hand"]
                slots.extend((hand, i, (0, other, 0)) for i in range(len(hand)))
    for number, pile in enumerate(m.PILES):
        cards = getattr(state, pile)
        slots.extend((cards, i, (1, number, i)) for i in range(len(cards)))
    if state.auction is not None:
        slots.append((state.auction, "card", (2, 0, 0)))
    return slots


def _labeller(state: WettstreitState, identified: set[str]) -> Callable[[str], tuple]:
    """What the seat can tell about a hidden card: its id if it knows it, else its kind if
    announced, and the records that go with it (who else knows it, other seats' pools).

    Two cards with the same label are interchangeable for the seat; labels also give the
    canonical order of cards it cannot tell apart.
    """
    pooled: dict[str, list[tuple[int, bool]]] = {}
    for number, pool in enumerate(state.pools):
        for card in pool["cards"]:
            pooled.setdefault(card, []).append((number, card in pool["known"]))
    knows, type_shown = state.knows, state.type_shown

    def label(card: str) -> tuple:
        knowers = knows.get(card)
        return (
            m.CARD_ORDER[card] if card in identified else -1,
            m.KIND[card] if card in type_shown else "",
            knowers is not None,
            tuple(knowers or ()),
            tuple(pooled.get(card, ())),
        )

    return label


def redeal(state: WettstreitState, seat: int, rng: random.Random) -> None:
    """Re-deal, in place, every card ``seat`` cannot locate, consistently with what it knows.

    The sample depends only on what the seat knows and on ``rng``, never on where the
    hidden cards truly are (a bot's guesses must carry no trace of the truth):

    1. each of the seat's pools: the cards it holds (told apart only by their labels, in
       label order) are shuffled among the pool's places (in table order);
    2. every card the seat cannot identify is dealt again from the sorted list of such
       cards, once shuffled, over their places in table order (a hand's places in label
       order), a place whose kind was announced taking the first card of that kind;
    3. the records of a card (who else knows it, a kind announced, other seats' pools) go
       with it in step 1 and stay with its place in step 2; re-dealt hands are sorted.

    ``rng`` is drawn from the same number of times for any state the seat cannot tell apart.
    """
    slots = _slots(state, seat)
    truth = [container[key] for container, key, _ in slots]
    mine = [pool for pool in state.pools if pool["seat"] == seat]
    fixed = {card for card in truth if known_to(state, card, seat)}
    pool_known = {card for pool in mine for card in pool["known"]} - fixed
    identified = fixed | pool_known
    label = _labeller(state, identified)
    # at[i]: the slot whose card now lies at slot i (the token moved there).
    at = list(range(len(slots)))
    # 1. Pools: the seat knows its pooled cards lie among these places, not which where.
    for pool in mine:
        members = set(pool["cards"])
        here = [i for i, card in enumerate(truth) if card in members and card not in fixed]
        places = sorted(here, key=lambda i: slots[i][2])
        tokens = sorted(here, key=lambda i: label(truth[i]))
        rng.shuffle(tokens)
        for place, token in zip(places, tokens, strict=True):
            at[place] = token
    # 2. Every card the seat cannot identify is dealt again over the places of such cards.
    redealt = [i for i in range(len(slots)) if truth[at[i]] not in identified]
    # Table order; within a hand (a set), label order: the hand's index order is the truth's.
    redealt.sort(key=lambda i: (slots[i][2], label(truth[at[i]]) if slots[i][2][0] == 0 else ()))
    deck = sorted((truth[at[i]] for i in redealt), key=m.CARD_ORDER.__getitem__)
    rng.shuffle(deck)
    new: dict[int, str] = {}
    # A place whose kind was announced receives a card of that kind; the truth proves
    # there are enough of each kind among the unknown cards, so the pick never fails.
    for i in redealt:
        old = truth[at[i]]
        if old in state.type_shown:
            kind = m.KIND[old]
            new[i] = deck.pop(next(n for n, card in enumerate(deck) if m.KIND[card] == kind))
    rest = iter(deck)
    for i in redealt:
        if i not in new:
            new[i] = next(rest)
    mapping = {truth[at[i]]: card for i, card in new.items()}
    for i, (container, key, _) in enumerate(slots):
        container[key] = new.get(i, truth[at[i]])
    if not state.is_over():
        for other, player in enumerate(state.players):
            if other != seat:
                player["hand"].sort(key=m.CARD_ORDER.__getitem__)
    _rename(state, mapping)


def _rename(state: WettstreitState, mapping: dict[str, str]) -> None:
    """Move the records of the re-dealt cards with their places (old card -> new card)."""
    state.knows = {mapping.get(card, card): seats for card, seats in state.knows.items()}
    state.type_shown = {mapping.get(card, card): True for card in state.type_shown}
    for pool in state.pools:
        pool["cards"] = sorted((mapping.get(c, c) for c in pool["cards"]), key=m.CARD_ORDER.__getitem__)
        pool["known"] = sorted((mapping.get(c, c) for c in pool["known"]), key=m.CARD_ORDER.__getitem__)
