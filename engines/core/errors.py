"""The error family every engine raises.

Each error carries a stable machine ``code`` (clients branch on it) and what it says to a
person: a ``Message`` (``said``) the service renders in the reader's language, whose English
sentence is ``message``; a title whose refusals are not messages yet gives an English string.
The service maps the classes to HTTP statuses in one table; engines never think about HTTP.
"""

from __future__ import annotations

from .messages import Message


class RulesError(ValueError):
    """Base of every error an engine raises on purpose."""

    default_code = "rules_error"

    def __init__(self, code: str | None = None, message: str | Message = "") -> None:
        self.code = code or self.default_code
        self.said: Message | str = message or self.code.replace("_", " ")
        self.message = str(self.said)
        super().__init__(self.message)

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class IllegalMove(RulesError):
    """The rules refuse this move now. Every refusal of a move is one: a client or a bot
    that catches ``IllegalMove`` catches them all."""

    default_code = "illegal_move"


class InvalidMove(IllegalMove):
    """The move is not shaped like any move of this game: not an object with a string
    ``type`` (code ``malformed_move``), a type the game does not have (``unknown_move_type``),
    or a known type whose fields are missing, extra or of the wrong kind (``malformed_move``),
    the same codes in every game."""

    default_code = "malformed_move"


class NotYourTurn(IllegalMove):
    """The seat is not among those the game waits for."""

    default_code = "not_your_turn"


class UnknownSeat(NotYourTurn):
    """No seat of that number exists in this game (a move or a view asked for it)."""

    default_code = "unknown_seat"


class GameOver(IllegalMove):
    """The game has ended; no move is accepted."""

    default_code = "game_over"


class InvalidOptions(RulesError):
    """Setup was asked with options or a seat count the game does not accept."""

    default_code = "invalid_options"


class InvalidState(RulesError):
    """A stored state cannot be restored (wrong game, unknown rules version, corrupt)."""

    default_code = "invalid_state"


class UnknownGame(RulesError):
    """No game is registered under that id."""

    default_code = "unknown_game"
