"""WB-WAIT: what a seat holds at creation, before any player has joined or moved.

The service shows every reader of a waiting game the spectator's view (tests/service/test_seats.py
checks that for every title); here, the engine's side of the rule: at creation a seat's own view
adds to the spectator's only its empty hand and its money behind the screen."""

from __future__ import annotations

import pytest

from engines import registry


@pytest.mark.parametrize("seats", [3, 4])
@pytest.mark.parametrize("seed", range(6))
def test_WB_WAIT_a_seat_holds_no_card_at_creation(seats, seed):
    state = registry.get("wettstreit").setup(seats, {}, seed)
    spectator = state.view(None)
    for seat in range(seats):
        own = state.view(seat)
        player = own["players"][seat]
        assert player["hand"] == [] and player["hand_size"] == 0
        assert isinstance(player["money"], int)
        # Everything else of the seat's view is the spectator's.
        others = {key: value for key, value in own.items() if key != "players"}
        assert others == {key: value for key, value in spectator.items() if key != "players"}
        for index, shown in enumerate(own["players"]):
            if index != seat:
                assert shown == spectator["players"][index]
