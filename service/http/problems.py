"""Problems the HTTP layer answers with, and the tables mapping the rooms' errors to a status.

``Problem`` is HTTP's own refusal (a malformed header or body, an unknown address). The use
cases (``service.play``) and the engines refuse with exceptions of their own, which know no
status: ``RULES_STATUS`` and ``PLAY_STATUS`` give each class its status, here and nowhere else.
"""

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

from ..play.errors import (
    GameNotFound,
    GameNotOver,
    IdempotencyKeyReused,
    InvalidToken,
    LevelNotForBot,
    MissingToken,
    PlayError,
    StaleVersion,
    TooManyBotGames,
    TooMuchContention,
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


# The use cases' refusals (service.play.errors), each class with the status it is answered with;
# a refusal of a class not listed takes the status of its nearest listed ancestor.
PLAY_STATUS: dict[type[PlayError], int] = {
    GameNotFound: 404,
    MissingToken: 401,
    InvalidToken: 401,
    StaleVersion: 409,
    GameNotOver: 409,
    TooMuchContention: 409,
    IdempotencyKeyReused: 422,
    LevelNotForBot: 422,
    TooManyBotGames: 429,
    PlayError: 422,
}


def from_play_error(error: PlayError) -> Problem:
    for kind in type(error).__mro__:
        status = PLAY_STATUS.get(kind)
        if status is not None:
            return Problem(status, error.code, error.message, **error.extra)
    return Problem(422, error.code, error.message, **error.extra)  # pragma: no cover - PlayError is listed
