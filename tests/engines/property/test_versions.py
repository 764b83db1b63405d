"""Property's rules version 2, for tests only (engines/property/versions.py): a mortgaged square
collects no rent (P-MORTGAGED-RENT, version 2, docs/rules/property.md). It shows what every
version of every game must do: a game begun under version 1 goes on under version 1 once
version 2 is the newest, new games get version 2, and a record replays under its own version.
"""

from __future__ import annotations

from typing import Any

import pytest

from engines import registry
from engines.core import Game, InvalidState, Move, State
from engines.property import GAME as VERSION_1
from engines.property import material as m
from engines.property.versions import MORTGAGES_COLLECT_NO_RENT as VERSION_2

from .scripts import scripted_game

NO_UNITS = {"king": 0, "queen": 0, "jack": 0, "joker": 0}


def position(game: Game[State], owned, hands, units=None) -> Any:
    """Seat 0 to play ``hands[0]`` on a grid of ``owned`` squares (column, row, owner, mortgaged)."""
    state: Any = game.setup(2, {}, seed=1)
    state.current = 0
    for seat, hand in hands.items():
        state.players[seat]["hand"] = list(hand)
        state.players[seat]["hand_epochs"] = [0] * len(hand)
    held = {card for hand in hands.values() for card in hand}
    state.stock = [card for card in m.DECK if card not in held]
    state.discard = []
    for seat, held_units in (units or {}).items():
        state.players[seat]["units"] = {**NO_UNITS, **held_units}
    for column, row, owner, mortgaged in owned:
        state.grid[row - 1][column - 1] = {"owner": owner, "mortgaged": mortgaged}
    return state


def play(red: str, black: str, column: int, row: int) -> Move:
    return {"type": "play", "red": red, "black": black, "column": column, "row": row}


def rent_paid(events) -> dict:
    return next(e for e in events if e["type"] == "rent_paid")


# A group of two of seat 1: (3, 5) mortgaged, (3, 4) not.
GROUP = [(3, 5, 1, True), (3, 4, 1, False)]
HANDS = {0: ["3D", "5C"], 1: ["2D", "3S"]}


def test_P_MORTGAGED_RENT_version_1_a_mortgaged_square_collects_its_rent():
    state = position(VERSION_1, GROUP, HANDS)
    assert rent_paid(state.apply(0, play("3D", "5C", 3, 5)))["amount"] == 2
    assert [p["money"] for p in state.players] == [148, 152]


def test_P_MORTGAGED_RENT_version_2_a_mortgaged_square_collects_no_rent_and_still_sells():
    state = position(VERSION_2, GROUP, HANDS, units={0: {"jack": 2}})
    assert "pay $0 rent" in str(state.label(play("3D", "5C", 3, 5)))
    events = state.apply(0, play("3D", "5C", 3, 5))
    assert rent_paid(events)["amount"] == 0 and rent_paid(events)["group"] == 2
    assert [p["money"] for p in state.players] == [150, 150]
    # Still in its owner's group: the price is the group's size (P-BUY).
    offer = next(e for e in events if e["type"] == "purchase_offered")
    assert offer["price"] == 2 and state.to_act() == [0]


@pytest.mark.parametrize(("red", "black", "rent"), [("3D", "4C", 2), ("3H", "4C", 4), ("3H", "4S", 8)])
def test_version_2_keeps_every_other_rent_of_version_1(red, black, rent):
    """The unmortgaged square of the same group, its mortgaged neighbour counting, in both versions."""
    for game in (VERSION_1, VERSION_2):
        state = position(game, GROUP, {0: [red, black], 1: ["2D", "3S"]})
        assert rent_paid(state.apply(0, play(red, black, 3, 4)))["amount"] == rent


def test_a_game_begun_under_version_1_goes_on_under_it_once_version_2_is_the_newest():
    moves, hit = scripted_game(VERSION_1, seed=3, to_the_end=False)
    before = registry.get("property").setup(2, {}, 3)
    for seat, move in moves[:hit]:
        before.apply(seat, move)
    saved = before.to_dict()  # what the store keeps of a live game
    assert saved["rules_version"] == 1

    with registry.publishing(VERSION_2):
        # The old game, restored as the service restores it: by its title and its version.
        live: Any = registry.get(saved["game"], saved["rules_version"]).restore(saved)
        assert type(live) is type(before) and live == before
        seat, move = moves[hit]
        assert rent_paid(live.apply(seat, move))["amount"] > 0
        assert live.to_dict()["rules_version"] == 1, "it is saved again under the version it began with"

        # A new game gets version 2, and the same moves cost no rent there.
        new: Any = registry.get("property").setup(2, {}, 3)
        assert new.to_dict()["rules_version"] == 2
        for seat, move in moves[:hit]:
            new.apply(seat, move)
        seat, move = moves[hit]
        assert rent_paid(new.apply(seat, move))["amount"] == 0

        # The mistake the registry prevents: the newest rules refuse a state of version 1.
        with pytest.raises(InvalidState) as refused:
            registry.get("property").restore(saved)
        assert refused.value.code == "unsupported_rules_version"


def test_a_record_replays_under_its_own_version_and_not_under_the_other():
    moves, hit = scripted_game(VERSION_1, seed=5, to_the_end=True)
    played = VERSION_1.setup(2, {}, 5)
    for seat, move in moves:
        played.apply(seat, move)
    record = {"title": "property", "rules_version": 1, "seed": 5, "moves": moves, "result": played.result()}

    with registry.publishing(VERSION_2):
        replayed = registry.get(record["title"], record["rules_version"]).setup(2, {}, record["seed"])
        for seat, move in record["moves"]:
            replayed.apply(seat, move)
        assert replayed == played and replayed.result() == record["result"]

        # Under version 2 the same record parts ways with it at the mortgaged square.
        other: Any = registry.get("property").setup(2, {}, record["seed"])
        mirror: Any = VERSION_1.setup(2, {}, record["seed"])
        for seat, move in record["moves"][:hit]:
            other.apply(seat, move)
            mirror.apply(seat, move)
        assert other.players == mirror.players
        seat, move = record["moves"][hit]
        other.apply(seat, move)
        mirror.apply(seat, move)
        assert [p["money"] for p in other.players] != [p["money"] for p in mirror.players]
