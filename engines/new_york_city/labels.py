"""Short English labels for listed moves (display only, not part of the move)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import board as b
from . import cards as c
from . import characters as ch

if TYPE_CHECKING:
    from .rules import NewYorkCityState


def _cards(cards: list[str]) -> str:
    return " + ".join(c.TITLES[card] for card in cards) or "no card"


def _district(name: str) -> str:
    return b.DISTRICT_TITLES.get(name, name)


def _use(move: dict[str, Any]) -> str:
    n = move["character"]
    text = f"Use character {n} ({ch.ABILITIES[n]})"
    if n == 2:
        i, j = move["pairs"]
        first, second = (c.TITLES[card] for card in move["cards"])
        return f"{text}: {first} from pair {i + 1}, {second} from pair {j + 1}"
    if n == 7:
        return f"{text}: discard character {move['discard']}, take character {move['take']}"
    if n in (8, 22):
        return f"{text}: {_cards(move['cards'])}"
    if n == 11:
        return f"{text} in {_district(move['district'])}"
    if n in (13, 15, 20):
        return f"{text}: {c.TITLES[move['card']]}"
    if n == 14:
        return f"{text}: {move['steps']} space(s) back"
    return text


def label(state: NewYorkCityState, move: dict[str, Any]) -> str:
    kind = move["type"]
    if kind == "choose_pile":
        pile = state.piles[move["pile"]]
        return f"Choose starting pile {move['pile'] + 1}: characters {pile[0]} and {pile[1]}"
    if kind == "take_pair":
        return f"Take pair {move['pair'] + 1}: {_cards(state.pairs[move['pair']])}"
    if kind == "use":
        return _use(move)
    if kind == "select":
        where = "hand" if state.stage == "pick" else "reserve"
        return f"Select a {c.TITLES[move['card']]} card of your {where} to discard"
    if kind == "confirm":
        if state.stage == "pick":
            return "Discard the selected cards and draw as many (character 1)"
        return "Discard the selected reserve cards and refill the reserve (character 12)"
    if kind == "discard":
        return f"Discard {_cards(move['cards'])}"
    if kind == "done":
        if state.stage == "replace":
            return "Keep your hand (do not use character 22 now)"
        return "End your turn"
    if kind == "exchange":
        give, take = c.TITLES[move["give"]], c.TITLES[move["take"]]
        return f"Exchange a {give} card of your hand for a {take} card of your reserve"
    if kind == "play":
        return f"Play a {c.TITLES[move['card']]} card"
    if kind == "play_pair":
        return f"Play {_cards(move['cards'])} as one card of the round"
    if kind == "bid":
        return f"Bid {state.bid_in_progress()['value']}"
    if kind == "pass":
        return "Pass"
    if kind == "take_character":
        n = move["character"]
        return f"Take character {n} (value {ch.VALUE[n]}: {ch.ABILITIES[n]})"
    if kind == "prestige":
        tile = move["tile"]
        where = {"board": "from your board", "none": "no skyscraper"}.get(
            move["from"], f"moved from {_district(move['from'])}"
        )
        extra = ", plus one from the supply (character 21)" if move["extra"] else ""
        vehicle = b.CONNECTION_VEHICLE[move["connection"]]
        return (
            f"Place the {vehicle} prestige tile worth {b.TILE_VALUE[tile]} on {_district(move['district'])} "
            f"(taking {vehicle} {move['connection']}); skyscraper {where}{extra}"
        )
    if kind == "decline":
        return "Give up the prestige bonus"
    if kind == "build":
        where = {"board": "from your board", "none": "none (your board is empty)"}.get(
            move["from"], f"one moved from {_district(move['from'])}"
        )
        extra = ", plus one from the supply (character 21)" if move["extra"] else ""
        return f"Build in the Mayor's district: {where}{extra}"
    return kind
