"""Problems the HTTP layer answers with, the tables mapping the rooms' errors to a status, and
the bytes of a problem.

``Problem`` is HTTP's own refusal (a malformed header or body, an unknown address). The use
cases (``service.play``) and the engines refuse with exceptions of their own, which know no
status: ``RULES_STATUS`` and ``PLAY_STATUS`` give each class its status, here and nowhere else.
``problem_body`` writes any of them as RFC 9457 problem details; it needs neither Flask nor
Redis, so gunicorn's master can load it (``service.run.gunicorn_refusals``) before it forks.
"""

from __future__ import annotations

from typing import Any

import orjson

from engines.core import (
    GameOver,
    IllegalMove,
    InvalidMove,
    InvalidOptions,
    InvalidState,
    Message,
    NotYourTurn,
    RulesError,
    UnknownGame,
    render,
)
from engines.core.messages import catalogue

from ..play.errors import (
    AbortRefused,
    AlreadySeated,
    ArchiveUnreachable,
    BadCursor,
    BadPlayerBinding,
    GameNotActive,
    GameNotFound,
    GameNotOver,
    GameNotWaiting,
    IdempotencyKeyReused,
    InvalidPlayerKey,
    InvalidToken,
    LevelNotForBot,
    MissingToken,
    NoSuchSeat,
    NotYourGame,
    NotYourSeat,
    PlayerKeyRequired,
    PlayError,
    RatedPlayerNotFound,
    RatedSeatNeedsPlayer,
    SeatAmbiguous,
    SeatInvited,
    SeatResigned,
    SeatTaken,
    SeatViewWhileRunning,
    SeedWithOpenSeats,
    SeekNotFound,
    SeekNotWaiting,
    StaleVersion,
    TitleNotFound,
    TooManyBotGames,
    TooManyLiveGames,
    TooManySeeks,
    TooMuchContention,
    UnratableGame,
    VersionNotFound,
    WebhookEventsRefused,
    WebhookNotFound,
    WebhookRefused,
)

PROBLEM_TYPE = "https://skyline.invalid/problems/"
# A problem type's title is the message problem.title.<code>: its English is the code's words.
TITLE = "problem.title."


class Problem(Exception):
    """A request the service refuses: an HTTP status, a stable code and a sentence (a rules
    error's ``Message``, rendered in the reader's language when the problem is written)."""

    def __init__(self, status: int, code: str, message: str | Message, **extra: object) -> None:
        super().__init__(str(message))
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
            return Problem(status, error.code, error.said)
    return Problem(422, error.code, error.said)  # pragma: no cover - RulesError is last


# The use cases' refusals (service.play.errors), each class with the status it is answered with;
# a refusal of a class not listed takes the status of its nearest listed ancestor.
PLAY_STATUS: dict[type[PlayError], int] = {
    GameNotFound: 404,
    ArchiveUnreachable: 503,
    MissingToken: 401,
    InvalidToken: 401,
    StaleVersion: 409,
    GameNotOver: 409,
    TooMuchContention: 409,
    IdempotencyKeyReused: 422,
    LevelNotForBot: 422,
    TooManyBotGames: 429,
    GameNotActive: 409,
    SeatTaken: 409,
    GameNotWaiting: 409,
    NoSuchSeat: 422,
    SeedWithOpenSeats: 422,
    AbortRefused: 409,
    BadCursor: 422,
    SeatResigned: 409,
    WebhookRefused: 422,
    WebhookEventsRefused: 422,
    WebhookNotFound: 404,
    VersionNotFound: 404,
    SeatViewWhileRunning: 409,
    InvalidPlayerKey: 401,
    PlayerKeyRequired: 401,
    NotYourGame: 403,
    NotYourSeat: 403,
    SeatAmbiguous: 409,
    SeatInvited: 403,
    BadPlayerBinding: 422,
    TooManyLiveGames: 429,
    UnratableGame: 422,
    RatedSeatNeedsPlayer: 403,
    AlreadySeated: 409,
    RatedPlayerNotFound: 404,
    TitleNotFound: 404,
    SeekNotFound: 404,
    TooManySeeks: 429,
    SeekNotWaiting: 409,
    PlayError: 422,
}


def from_play_error(error: PlayError) -> Problem:
    for kind in type(error).__mro__:
        status = PLAY_STATUS.get(kind)
        if status is not None:
            return Problem(status, error.code, error.said, **error.extra)
    return Problem(422, error.code, error.said, **error.extra)  # pragma: no cover - PlayError is listed


# ---- the body of a problem (RFC 9457): also what gunicorn's own refusals send ---------------------
def problem_title(code: str, language: str) -> str:
    """The problem type's title (``problem.title.<code>``) in ``language``. A code no catalogue
    names (tests/service/test_problem_words.py walks every code there is) reads as its English."""
    title = catalogue(language).sentences.get(TITLE + code)
    return title if isinstance(title, str) else code.replace("_", " ").capitalize()


def problem_body(status: int, code: str, detail: str | Message, language: str = "en", **extra: Any) -> bytes:
    """The problem's bytes, its ``title`` and its ``detail`` (when a ``Message``) in ``language``."""
    body = {
        "type": PROBLEM_TYPE + code,
        "title": problem_title(code, language),
        "status": status,
        "detail": render(detail, language),
        "code": code,
        **{k: v for k, v in extra.items() if v is not None},
    }
    try:
        # Field errors may be keyed by list index (ints): allow non-string keys.
        return orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS)
    except orjson.JSONEncodeError:
        # Something in ``extra`` (an echoed field name, say) cannot be written as JSON: an error
        # must still leave as one, so strings are made encodable and anything else is shown.
        return orjson.dumps(_encodable(body), option=orjson.OPT_NON_STR_KEYS)


def _encodable(value: Any, depth: int = 0) -> Any:
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if depth > 32:
        return "..."
    if isinstance(value, dict):
        return {
            (_encodable(k, depth) if isinstance(k, str) else k): _encodable(v, depth + 1)
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [_encodable(v, depth + 1) for v in value]
    if value is None or isinstance(value, bool | int | float):
        return value if not isinstance(value, int) or -(2**63) <= value < 2**64 else str(value)
    return repr(value)
