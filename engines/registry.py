"""The registered games, by id. Adding a game is one import and one entry here."""

from __future__ import annotations

from .core import Game, State, UnknownGame
from .fifth_avenue import GAME as FIFTH_AVENUE
from .fresh_fish import GAME as FRESH_FISH
from .new_york import GAME as NEW_YORK
from .new_york_city import GAME as NEW_YORK_CITY
from .property import GAME as PROPERTY
from .wettstreit import GAME as WETTSTREIT

GAMES: dict[str, Game[State]] = {
    game.id: game for game in (FIFTH_AVENUE, FRESH_FISH, NEW_YORK, NEW_YORK_CITY, PROPERTY, WETTSTREIT)
}


def get(game_id: str) -> Game[State]:
    """Return the game registered under ``game_id`` or raise UnknownGame."""
    try:
        return GAMES[game_id]
    except (KeyError, TypeError):
        known = ", ".join(sorted(GAMES))
        raise UnknownGame("unknown_title", f"No game is called {game_id!r}; try one of {known}.") from None
