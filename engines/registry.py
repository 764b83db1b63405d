"""The registered games, by id. Adding a game is one import and one line here."""

from __future__ import annotations

from .core import Game, UnknownGame
from .new_york_city import GAME as NEW_YORK_CITY
from .property import GAME as PROPERTY

GAMES: dict[str, Game] = {game.id: game for game in (PROPERTY, NEW_YORK_CITY)}


def get(game_id: str) -> Game:
    """Return the game registered under ``game_id`` or raise UnknownGame."""
    try:
        return GAMES[game_id]
    except (KeyError, TypeError):
        known = ", ".join(sorted(GAMES))
        raise UnknownGame("unknown_title", f"No game is called {game_id!r}; try one of {known}.") from None
