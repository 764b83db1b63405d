"""Building New York City positions for the rule tests."""

from __future__ import annotations

from typing import Any

from engines.new_york_city import GAME
from engines.new_york_city import board as b
from engines.new_york_city import cards as c
from engines.new_york_city import characters as ch

DISTRICT = b.DISTRICT_INDEX


def new_game(seats: int = 2, seed: int = 0, **options: Any):
    """A new game, the starting piles chosen (the first pile each): round 1, Phase I."""
    state = GAME.setup(seats, options, seed)
    while state.stage == "piles":
        state.apply(state.actor, {"type": "choose_pile", "pile": 0})
    return state


def set_press(state, *pawns: tuple[int, int]) -> None:
    """The press track from the leader: (player, space), the black pawn as b.BLACK."""
    state.press = [[p, space] for p, space in pawns]


def set_cards(state, p: int, hand=None, reserve=None) -> None:
    """Give a player exactly these cards (drawn unseen); the deck keeps 105 cards in all."""
    player = state.players[p]
    if hand is not None:
        state.deck.extend(player["hand"])
        player["hand"], player["hand_tags"] = [], []
        for card in hand:
            state.deck.remove(card)
        player["hand"] = list(hand)
        player["hand_tags"] = [0] * len(hand)
    if reserve is not None:
        state.deck.extend(player["reserve"] + player["shown"])
        player["shown"] = []
        for card in reserve:
            state.deck.remove(card)
        player["reserve"] = list(reserve)
        player["reserve_tags"] = [0] * len(reserve)
        player["reserve_size"] = len(reserve)


def give_characters(state, p: int, *numbers: int) -> None:
    for n in numbers:
        state.players[p]["characters"].append(n)
        state.players[p]["used"].append(False)


def clear_phase1(state, characters: bool = True) -> None:
    """Skip Phase I: pairs back into the deck, nobody has cards in hand (nor characters)."""
    for pair in state.pairs:
        state.deck.extend(pair)
    state.pairs = []
    for player in state.players:
        state.deck.extend(player["hand"] + player["staged"])
        player["hand"], player["hand_tags"], player["staged"] = [], [], []
        if player["tom"]:
            state.deck.extend(player["reserve"])
            player["reserve"] = []
        if characters:
            state.box.extend(player["characters"])
            player["characters"], player["used"] = [], []
    state.turn = None
    state.queue = []
    state.actor = -1


def start_bidding(state, kind: str, starter: int | None = None) -> list:
    """Jump to the bidding round ``kind`` of the current round (hands as they are)."""
    clear_table(state)
    r = c.BIDDING_ROUNDS.index(kind)
    if starter is not None:
        state.starter = starter
    ev: list = []
    state.turn, state.queue, state.actor = None, [], -1
    state._start_bidding(r, ev)
    state._advance(ev)
    return ev


def clear_table(state) -> None:
    state.deck.extend(state.table)
    state.table = []


def bid(state, seat: int, *steps: dict) -> list:
    """Apply the steps of a bid, then lay it down (or pass when there are none)."""
    for step in steps:
        state.apply(seat, step)
    return state.apply(seat, {"type": "bid"} if steps else {"type": "pass"})


def play(card: str) -> dict:
    return {"type": "play", "card": card}


def use(n: int, **fields: Any) -> dict:
    return {"type": "use", "character": n, **fields}


def card_census(state) -> dict[str, int]:
    """Every card of the game, wherever it is."""
    places = [state.deck, state.discard, state.table]
    places += [list(pair) for pair in state.pairs]
    for player in state.players:
        places += [player["hand"], player["reserve"], player["shown"], player["staged"]]
    if state.pending:
        places.append(state.pending["cards"])
    return c.counts([card for place in places for card in place])


def character_census(state) -> dict[int, int]:
    tiles = list(state.box) + list(state.removed)
    tiles += [n for pile in state.piles for n in pile]
    tiles += [n for row in state.display for n in row] + [n for stack in state.stacks for n in stack]
    for player in state.players:
        tiles += player["characters"]
    out: dict[int, int] = {}
    for n in tiles:
        out[n] = out.get(n, 0) + 1
    return out


ALL_COPIES = {n: ch.LIGHT_COPIES.get(n, 0) + ch.DARK_COPIES.get(n, 0) for n in ch.NUMBERS}
