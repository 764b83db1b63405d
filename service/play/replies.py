"""What the use cases answer, typed: the shapes http/ serialises (openapi.yaml's replies).

TypedDicts, so at run time they are the plain dicts orjson writes: a reply keeps every byte. A
view, an event and a move are the engines' own JSON (each title's, described by its JSON Schema in
the catalog), so they stay ``dict[str, Any]`` here.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from ..store.records import Clock, GameResult, PublicSeat

# A title's view of its state for one reader, one of its events, one of its moves (engines).
View = dict[str, Any]
Event = dict[str, Any]
Move = Any


class HumanSeat(TypedDict):
    seat: int
    token: str


class CreatedGame(TypedDict):
    """POST /games: the new game, with each human seat's token (shown this once)."""

    id: str
    title: str
    version: int
    status: str
    to_act: list[int]
    options: dict[str, Any]
    seats: list[PublicSeat]
    human_seats: list[HumanSeat]
    webhook_secret: NotRequired[str]  # the game's webhooks' signing secret, when it registered some


class ShownGame(TypedDict):
    """GET /games/{id}: the game as its reader sees it."""

    id: str
    title: str
    rules_version: int
    version: int
    status: str
    to_act: list[int]
    you: int | None
    options: dict[str, Any]
    seats: list[PublicSeat]
    view: View
    result: GameResult | None
    clock: NotRequired[Clock]
    deadlines: NotRequired[dict[str, str]]
    rematch: NotRequired[str]


class ShownEntry(TypedDict):
    """A log entry as one reader may see it (``Games.redact_entry``)."""

    version: int
    seat: int | None
    events: list[Event]
    move: NotRequired[Move]
    deadlines: NotRequired[dict[str, str]]


class EventsPage(TypedDict):
    """GET /games/{id}/events: the log after a version, redacted for its reader."""

    title: str
    version: int
    status: str
    events: list[ShownEntry]


class RecordedMove(TypedDict):
    seat: int | None
    move: Move


class GameRecord(TypedDict):
    """GET /games/{id}/record and an export's record: the setup and the moves, once it is over."""

    id: str
    title: str
    rules_version: int
    seats: list[PublicSeat]
    options: dict[str, Any]
    seed: int
    moves: list[RecordedMove]
    result: GameResult | None


class CheckedMove(TypedDict):
    """POST /games/{id}/actions?dry_run=true: the move would be accepted, as this one."""

    title: str
    valid: bool
    version: int
    seat: int
    move: Move


class AppliedMove(TypedDict):
    """POST /games/{id}/actions: the move as applied, its events and the mover's new view."""

    title: str
    version: int
    seat: int
    move: Move
    status: str
    to_act: list[int]
    events: list[Event]
    view: View
    result: GameResult | None
    replayed: NotRequired[bool]  # the answer kept for a retried Idempotency-Key
