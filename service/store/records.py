"""The records that cross the rooms: a game's meta and its seats, a result, a log entry, a game
as read. store/ keeps them, play/ decides on them, http/ and worker/ read them.

Types only: each is the JSON kept in Redis as it is (orjson writes a TypedDict as the dict it
is), so naming a field here changes no byte of what is stored or sent. A key that only some
games have is ``NotRequired``; code that reads one tests for it first (``"clock" in meta``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, NotRequired, TypedDict

# What a seat is: a human's (taken, or a resigned seat of two), a bot's (a stand-in plays a
# resigned seat of more), or open (nobody took it yet).
SeatKind = Literal["human", "bot", "open"]


class StandIn(TypedDict):
    """The bot that plays a seat whose player resigned or ran out of time."""

    bot: str
    level: str


class Clock(TypedDict):
    """A game's turn deadlines as kept with it (``service.play.deadlines.clock_of``)."""

    turn_seconds: int
    on_timeout: str
    timeouts_to_resign: int


class SeatRecord(TypedDict):
    """A seat as stored in the game's meta; the three secret keys never leave play/."""

    seat: int
    kind: SeatKind
    name: NotRequired[str]
    # The digest of the seat's token (service.play.auth): a human seat, or a resigned one.
    token_hash: NotRequired[str]
    # The name the creator gave an open seat, kept while a joiner plays it under their own.
    invited: NotRequired[str]
    # A rematch's seat: the token digest of its player in the finished game.
    reserved_for: NotRequired[str]
    bot: NotRequired[str]
    level: NotRequired[str]
    # The seat's place in the order of resignations (1 = the first to resign).
    resigned: NotRequired[int]
    # The player the seat is bound to (service.play.players): an open seat's, an invitation only
    # that player may take. Never shown to readers.
    player: NotRequired[str]


class PublicSeat(TypedDict):
    """A seat as every reader of the game sees it (``service.play.games.public_seat``)."""

    seat: int
    kind: SeatKind
    name: NotRequired[str]
    bot: NotRequired[str]
    level: NotRequired[str]
    resigned: NotRequired[bool]
    # Only in the reply that creates the game, to the creator: the human seats' tokens.
    token: NotRequired[str]


class GameResult(TypedDict):
    """A result as the service gives it: the rules' (engines.core.ResultDict, its game's own
    facts riding along) or the service's own for a two-seat resignation, with ``resigned``
    per seat once a seat resigned (service.play.results)."""

    scores: list[int | float]
    ranks: list[int]
    winners: list[int]
    breakdown: list[dict[str, object]]
    reason: str
    resigned: NotRequired[list[bool]]


class GameMeta(TypedDict):
    """What a game is, beside its state: written at creation, changed by the seats' changes."""

    title: str
    rules_version: int
    seats: list[SeatRecord]
    options: dict[str, Any]
    seed: int
    created: float  # Unix time
    # Games from before a choice of stand-in have none (service.play.games.stand_in_of).
    stand_in: NotRequired[StandIn]
    clock: NotRequired[Clock]
    listed: NotRequired[bool]  # shown in the lobby while it waits
    rated: NotRequired[bool]  # its end moves its players' ratings (docs/ratings.md)
    rematch_of: NotRequired[str]  # the finished game this one is the rematch of
    ended: NotRequired[GameResult]  # a two-seat game ended by a resignation
    played_out: NotRequired[bool]  # every human resigned: the bots play it out at once


# An event as the service handles it: a JSON object with a string ``type`` (the engines' events,
# engines.core.Event, and the service's own: seat_joined, game_started, turn_timed_out...).
ServiceEvent = dict[str, Any]


class LogEntry(TypedDict):
    """One entry of a game's log: the version it made, a move or a change of seats."""

    version: int
    seat: int | None  # who made it; None: the service itself (an idle game's expiry)
    # A move's as Redis keeps it has none: the rules' are made again by replay, after the
    # service's own in ``leading_events`` (store.logform); every reader gets them made.
    events: NotRequired[list[ServiceEvent]]
    leading_events: NotRequired[list[ServiceEvent]]
    at: float  # Unix time of the commit
    # Read by the webhooks' fan-out without the state (service.play.webhooks).
    status: str  # waiting, active, finished, aborted or expired
    to_act: list[int]
    move: NotRequired[Any]  # a move's; a seat change has none
    # Games with a clock: each human seat to act and when its time runs out (RFC 3339).
    deadlines: NotRequired[dict[str, str]]


@dataclass
class StoredGame:
    """A game as read from its hash (service.store.games.GameStore.load)."""

    id: str
    version: int
    status: str  # waiting, active, finished, aborted or expired
    meta: GameMeta
    state: dict[str, Any]
    updated: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)
    # The state as stored (JSON), when the reader asked for it unparsed (``load(parse_state=False)``).
    raw_state: bytes = b""
    # Games with a clock: each human seat to act (its number, as a string) and when its time runs
    # out (Unix time), as the commit that made this version wrote them.
    deadlines: dict[str, float] = field(default_factory=dict)
    # A finished game's rematch, once a player asked for it (service.store.seats.RematchStore).
    rematch: str | None = None
    # Read from the archive: Redis had let the game go (service.play.repository).
    archived: bool = False
