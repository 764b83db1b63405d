"""The protocol every game follows, and what all games share."""

from .chance import Chance, seed_state
from .errors import (
    GameOver,
    IllegalMove,
    InvalidMove,
    InvalidOptions,
    InvalidState,
    NotYourTurn,
    RulesError,
    UnknownGame,
    UnknownSeat,
)
from .events import Event, Secret, event, redact, redact_all, secret_event
from .game import Game
from .messages import Message, render, say
from .options import Option
from .result import Result, ResultDict, ranks_from_keys
from .state import Move, State, View, move_key
from .values import JSONObject, JSONValue

__all__ = [
    "Chance",
    "Event",
    "Game",
    "GameOver",
    "IllegalMove",
    "InvalidMove",
    "InvalidOptions",
    "InvalidState",
    "JSONObject",
    "JSONValue",
    "Message",
    "Move",
    "NotYourTurn",
    "Option",
    "Result",
    "ResultDict",
    "RulesError",
    "Secret",
    "State",
    "UnknownGame",
    "UnknownSeat",
    "View",
    "event",
    "move_key",
    "ranks_from_keys",
    "redact",
    "redact_all",
    "render",
    "say",
    "secret_event",
    "seed_state",
]
