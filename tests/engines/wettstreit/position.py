"""Build Wettstreit positions by hand, and rig the state's own chance for the next draws."""

from __future__ import annotations

import random

from engines.core import Chance
from engines.wettstreit import GAME
from engines.wettstreit import material as m
from engines.wettstreit.rules import WettstreitState


def position(
    seats: int = 3,
    *,
    current: int = 0,
    phase: str = "build_or_sabotage",
    hands: dict[int, list[str]] | None = None,
    cities: dict[int, list[str | None]] | None = None,
    money: dict[int, int] | None = None,
    saboteurs: dict[int, int] | None = None,
    face_up: list[str] | None = None,
    face_down: list[str] | None = None,
    has_built: dict[int, bool] | None = None,
    seed: int = 1,
) -> WettstreitState:
    """A state where ``current`` is at ``phase``, with hands, cities and money as given.

    Piles (top = last) default to the unused cards split in two; when only one pile is
    given the other gets the rest; when both are given, unused cards are left out.
    Every seat knows its own hand; the face-up top card is public; nothing else is known.
    """
    state = GAME.setup(seats, {}, seed)
    hands, cities, money, saboteurs = hands or {}, cities or {}, money or {}, saboteurs or {}
    used: set[str] = set()
    for seat in range(seats):
        player = state.players[seat]
        player["hand"] = list(hands.get(seat, []))
        player["city"] = list(cities.get(seat, []))
        player["money"] = money.get(seat, m.STARTING_MONEY)
        player["saboteurs"] = saboteurs.get(seat, 0)
        player["has_built"] = (has_built or {}).get(seat, bool(player["city"]))
        used.update(player["hand"])
        used.update(card for card in player["city"] if card)
    used.update(face_up or [])
    used.update(face_down or [])
    rest = [card for card in m.DECK if card not in used]
    if face_up is None and face_down is None:
        face_down, face_up = rest[: len(rest) // 2], rest[len(rest) // 2 :]
    elif face_up is None:
        face_up = rest
    elif face_down is None:
        face_down = rest
    state.face_up, state.face_down = list(face_up), list(face_down)
    state.bank = m.TOTAL_MONEY - sum(p["money"] for p in state.players)
    state.centre_saboteurs = m.SABOTEURS - sum(p["saboteurs"] for p in state.players)
    state.public = {state.face_up[-1]: True} if state.face_up else {}
    state.knows = {card: [seat] for seat, p in enumerate(state.players) for card in p["hand"]}
    state.type_shown, state.pools = {}, []
    state.current, state.phase = current, phase
    state.auction, state.pending, state.sabotage = None, [], None
    state.end_triggered, state.final_queue = False, []
    return state


def rig(state: WettstreitState, draws: list[tuple[int, int]]) -> None:
    """Set the state's generator so its next draws ``below(n)`` give these values, in order."""
    for candidate in range(1, 1_000_000):
        chance = Chance(candidate)
        if all(chance.below(n) == value for n, value in draws):
            state.rng = candidate
            return
    raise AssertionError(f"no generator state gives {draws}")


def rig_die(state: WettstreitState, *faces: int) -> None:
    """The next die rolls show these faces (6 = the black dot)."""
    rig(state, [(m.DIE_SIDES, face - 1) for face in faces])


def play(state: WettstreitState, *moves: dict) -> list[dict]:
    """Apply moves, each by the seat the game waits for; return all events."""
    events = []
    for move in moves:
        events.extend(state.apply(state.to_act()[0], move))
    return events


def bid(amount: int) -> dict:
    return {"type": "bid", "amount": amount}


PASS = {"type": "pass"}
END = {"type": "end_turn"}


def build(card: str, end: str = "right") -> dict:
    return {"type": "build", "card": card, "end": end}


def random_game(seats: int, seed: int, *, stop=None) -> WettstreitState:
    """Play random legal moves until the end (or until ``stop(state)`` holds)."""
    state = GAME.setup(seats, {}, seed)
    rng = random.Random(seed)
    while state.to_act() and not (stop and stop(state)):
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_moves(seat)))
    return state
