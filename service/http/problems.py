"""Errors the service raises, and the one table mapping every error to an HTTP status."""

from __future__ import annotations

from engines.core import (
    GameOver,
    IllegalMove,
    InvalidMove,
    InvalidOptions,
    InvalidState,
    NotYourTurn,
    RulesError,
    UnknownGame,
)


class Problem(Exception):
    """A request the service refuses: an HTTP status, a stable code and a sentence."""

    def __init__(self, status: int, code: str, message: str, **extra: object) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra


# Most specific first: NotYourTurn and GameOver are IllegalMoves.
RULES_STATUS: tuple[tuple[type[RulesError], int], ...] = (
    (NotYourTurn, 403),
    (GameOver, 409),
    (InvalidMove, 422),
    (IllegalMove, 422),
    (InvalidOptions, 422),
    (UnknownGame, 422),
    (InvalidState, 409),
    (RulesError, 422),
)


def from_rules_error(error: RulesError) -> Problem:
    for kind, status in RULES_STATUS:
        if isinstance(error, kind):
            return Problem(status, error.code, error.message)
    return Problem(422, error.code, error.message)  # pragma: no cover - RulesError is last


def not_found(game_id: str) -> Problem:
    return Problem(404, "game_not_found", f"No game {game_id!r} exists (or it has expired).")
