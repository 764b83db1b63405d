"""The labels of listed moves (display only, not part of the move): messages
(``new_york_city.label.…``, engines/locales/), in the rulebook's words in each language."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import Message, say
from . import board as b
from . import characters as ch

if TYPE_CHECKING:
    from .rules import NewYorkCityState


def card_said(card: str) -> Message:
    """A card's symbol: "Press", « Presse »."""
    return say(f"new_york_city.card.{card}")


def cards_said(cards: list[str]) -> Message:
    """Cards joined as one bid or pair: "Press + Joker"; "no card" when there is none."""
    if not cards:
        return say("new_york_city.cards.none")
    said = card_said(cards[-1])
    for card in reversed(cards[:-1]):
        said = say("new_york_city.cards.plus", first=card_said(card), second=said)
    return said


def district_said(name: str) -> Message | str:
    """A district ("the Bronx", « le Bronx »); an unknown name as it is."""
    return say(f"new_york_city.district.{name}") if name in b.DISTRICT_INDEX else name


def ability_said(number: int) -> Message:
    return say(f"new_york_city.ability.{number}")


def _use(move: dict[str, Any]) -> Message:
    n = move["character"]
    used = {"number": n, "ability": ability_said(n)}
    if n == 2:
        i, j = move["pairs"]
        first, second = (card_said(card) for card in move["cards"])
        return say("new_york_city.label.use_pairs", **used, first=first, i=i + 1, second=second, j=j + 1)
    if n == 7:
        return say(
            "new_york_city.label.use_swap_character", **used, discard=move["discard"], take=move["take"]
        )
    if n in (8, 22):
        return say("new_york_city.label.use_cards", **used, cards=cards_said(move["cards"]))
    if n == 11:
        return say("new_york_city.label.use_district", **used, district=district_said(move["district"]))
    if n in (13, 15, 20):
        return say("new_york_city.label.use_card", **used, card=card_said(move["card"]))
    if n == 14:
        return say("new_york_city.label.use_steps", **used, count=move["steps"])
    return say("new_york_city.label.use", **used)


def _extra(move: dict[str, Any]) -> Message | str:
    return say("new_york_city.label.extra_skyscraper") if move["extra"] else ""


def label(state: NewYorkCityState, move: dict[str, Any]) -> Message:
    kind = move["type"]
    if kind == "choose_pile":
        pile = state.piles[move["pile"]]
        return say("new_york_city.label.choose_pile", pile=move["pile"] + 1, first=pile[0], second=pile[1])
    if kind == "take_pair":
        cards = cards_said(state.pairs[move["pair"]])
        return say("new_york_city.label.take_pair", pair=move["pair"] + 1, cards=cards)
    if kind == "use":
        return _use(move)
    if kind == "select":
        kept = "hand" if state.stage == "pick" else "reserve"
        return say(f"new_york_city.label.select_{kept}", card=card_said(move["card"]))
    if kind == "confirm":
        if state.stage == "pick":
            return say("new_york_city.label.confirm_hand")
        return say("new_york_city.label.confirm_reserve")
    if kind == "discard":
        return say("new_york_city.label.discard", cards=cards_said(move["cards"]))
    if kind == "done":
        if state.stage == "replace":
            return say("new_york_city.label.keep_hand")
        return say("new_york_city.label.end_turn")
    if kind == "exchange":
        return say("new_york_city.label.exchange", give=card_said(move["give"]), take=card_said(move["take"]))
    if kind == "play":
        return say("new_york_city.label.play", card=card_said(move["card"]))
    if kind == "play_pair":
        return say("new_york_city.label.play_pair", cards=cards_said(move["cards"]))
    if kind == "bid":
        return say("new_york_city.label.bid", value=state.bid_in_progress()["value"])
    if kind == "pass":
        return say("new_york_city.label.pass")
    if kind == "take_character":
        n = move["character"]
        return say("new_york_city.label.take_character", number=n, value=ch.VALUE[n], ability=ability_said(n))
    if kind == "prestige":
        tile, source = move["tile"], move["from"]
        if source in ("board", "none"):
            where: Message = say(f"new_york_city.label.prestige_from_{source}")
        else:
            where = say("new_york_city.label.prestige_moved", district=district_said(source))
        return say(
            "new_york_city.label.prestige",
            vehicle=say(f"new_york_city.vehicle.{b.CONNECTION_VEHICLE[move['connection']]}"),
            value=b.TILE_VALUE[tile],
            district=district_said(move["district"]),
            connection=move["connection"],
            where=where,
            extra=_extra(move),
        )
    if kind == "decline":
        return say("new_york_city.label.decline")
    if kind == "build":
        source = move["from"]
        if source in ("board", "none"):
            where = say(f"new_york_city.label.build_from_{source}")
        else:
            where = say("new_york_city.label.build_moved", district=district_said(source))
        return say("new_york_city.label.build", where=where, extra=_extra(move))
    return say("new_york_city.label.other", type=repr(kind))
