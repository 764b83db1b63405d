"""Players in-process: the app on the session's Redis (tests/conftest.py's ``client``)."""

from __future__ import annotations

from typing import Any

import pytest


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture
def new_player(client):
    """Create a player: returns {"id", "key"}."""

    def make() -> dict[str, Any]:
        reply = client.post("/players")
        assert reply.status_code == 201, reply.get_json()
        return reply.get_json()

    return make


def first_move(client, game_id: str, headers: dict[str, str], query: str = "") -> dict[str, Any]:
    listing = client.get(f"/games/{game_id}/moves{query}", headers=headers).get_json()
    return {"move": listing["moves"][0]["move"], "version": listing["version"]}
