"""The replies about a game, as marshmallow schemas: apispec writes them into the contract.

They describe what the use cases answer (the views send those answers as they are, with
orjson: the move path pays for no dump). A reply whose content depends on the title is one
schema per title (``title_replies``): its ``title`` is that title's constant and its moves,
views, options, events and results are that title's components (``service.http.components``),
so that ``service.http.contract`` can make each reply a union of them told apart by ``title``.
"""

from __future__ import annotations

from typing import Any

from marshmallow import EXCLUDE, Schema, fields, validate

from .components import Component, Constant, component_name
from .schemas import ClockSchema, rated_game_fields

STATUSES = ["waiting", "active", "finished", "aborted", "expired"]


def seat_number(**kwargs: Any) -> fields.Integer:
    return fields.Integer(validate=validate.Range(min=0), **kwargs)


def status_field(**kwargs: Any) -> fields.String:
    return fields.String(
        validate=validate.OneOf(STATUSES),
        metadata={
            "description": "`waiting` for players to join open seats, `active`, `finished`, `aborted` "
            "(no result), or `expired` (left idle too long: no result)."
        },
        **kwargs,
    )


def seats_to_act(**kwargs: Any) -> fields.List[Any]:
    return fields.List(seat_number(), **kwargs)


def version_field() -> fields.Integer:
    return fields.Integer(required=True, validate=validate.Range(min=0))


class SeatSchema(Schema):
    """A seat as every reader sees it."""

    seat = seat_number(required=True)
    kind = fields.String(
        required=True,
        validate=validate.OneOf(["human", "bot", "open"]),
        metadata={"description": "`open`: not taken yet."},
    )
    name = fields.String()
    bot = fields.String(metadata={"description": "Bot seats: the strategy."})
    level = fields.String(metadata={"description": "Bot seats: the level."})
    resigned = fields.Boolean(
        metadata={
            "description": "Its player resigned: a stand-in bot plays it (kind `bot`), or the game ended."
        }
    )


class NewSeatSchema(SeatSchema):
    """A seat of a game just created: a human seat shows its token, once."""

    token = fields.String(metadata={"description": "Secret seat token (human seats); shown once."})


class HumanSeatSchema(Schema):
    seat = seat_number(required=True)
    token = fields.String(
        required=True, metadata={"description": "`Authorization: Bearer <token>` plays this seat."}
    )


class ServiceEventSchema(Schema):
    """An event of the service's own (seats and time), in the log of every title beside the
    title's events; fields beyond those described may be added, as the design allows."""

    class Meta:
        unknown = EXCLUDE  # the contract says nothing of other fields (they may come)


def _service_event(kind: str, **more: fields.Field[Any]) -> type[Schema]:
    return ServiceEventSchema.from_dict(
        {"type": fields.String(required=True, validate=validate.OneOf([kind])), **more},
        name=kind,
    )


# The service's events, by ``type``: (component name, description, schema). Webhooks name them
# `seat.joined`, ... .
SERVICE_EVENTS: dict[str, tuple[str, str, type[Schema]]] = {
    "seat_joined": (
        "SeatJoinedEvent",
        "A player took an open seat.",
        _service_event(
            "seat_joined",
            seat=seat_number(required=True),
            name=fields.String(metadata={"description": "The player's name, if any."}),
        ),
    ),
    "seat_left": (
        "SeatLeftEvent",
        "A player gave a seat back before the start: it is open again.",
        _service_event("seat_left", seat=seat_number(required=True)),
    ),
    "game_started": (
        "GameStartedEvent",
        "The last open seat was taken: the game is under way.",
        _service_event("game_started"),
    ),
    "game_aborted": (
        "GameAbortedEvent",
        "A seated player aborted the game: it ends with no result.",
        _service_event("game_aborted", seat=seat_number(required=True)),
    ),
    "game_expired": (
        "GameExpiredEvent",
        "The game was left idle too long (SKYLINE_GAME_TTL_SECONDS after its last move, or the"
        " lobby's lifetime after its creation while it waited): it ends with no result.",
        _service_event("game_expired", idle_since=fields.DateTime(required=True)),
    ),
    "seat_resigned": (
        "SeatResignedEvent",
        "A player resigned: with two seats the game is over, else a stand-in bot plays the seat.",
        _service_event(
            "seat_resigned",
            seat=seat_number(required=True),
            stand_in=fields.String(metadata={"description": "The stand-in bot's level."}),
        ),
    ),
    "turn_timed_out": (
        "TurnTimedOutEvent",
        "The seat's time ran out: the stand-in bot's move follows in the same entry, or its resignation.",
        _service_event("turn_timed_out", seat=seat_number(required=True), deadline=fields.DateTime()),
    ),
}

# The replies whose content depends on the title, each a union of one component per title.
TAGGED_REPLIES = (
    "GameCreated",
    "Game",
    "GameVersion",
    "Moves",
    "ActionResult",
    "Events",
    "Record",
    "LobbyGame",
)


def title_replies(game_id: str) -> dict[str, type[Schema]]:
    """The replies of one title, by component name (``<Title><Reply>``)."""

    def own(part: str, **kwargs: Any) -> Component:
        return Component(component_name(game_id, part), **kwargs)

    def title_field() -> Constant:
        return Constant(game_id, required=True, metadata={"description": "The game's title (catalog id)."})

    class GameCreated(Schema):
        id = fields.String(required=True)
        title = title_field()
        version = version_field()
        status = status_field(required=True)
        to_act = seats_to_act(required=True)
        options = own("Options", required=True)
        seats = fields.List(fields.Nested(NewSeatSchema), required=True)
        human_seats = fields.List(
            fields.Nested(HumanSeatSchema),
            required=True,
            metadata={"description": "The human seats in seat order, each with its token (also in `seats`)."},
        )
        webhook_secret = fields.String(
            validate=validate.Regexp("^whsec_"),
            metadata={
                "description": "With `webhooks`: the secret that signs their notices, shown once; also the "
                "credential of GET /games/{id}/webhooks/deliveries for them."
            },
        )

    class LobbyGame(Schema):
        id = fields.String(required=True)
        title = title_field()
        options = own("Options", required=True)
        seats = fields.List(fields.Nested(SeatSchema), required=True)
        open_seats = fields.List(
            seat_number(), required=True, metadata={"description": "The seats one may join."}
        )
        created = fields.DateTime(
            required=True, metadata={"description": "When the game was created (RFC 3339, UTC, with `Z`)."}
        )
        rated = fields.Boolean(
            required=True,
            metadata={
                "description": "A rated game: its open seats are taken with a player key (docs/ratings.md)."
            },
        )

    class GameNow(Schema):
        """A game as the caller sees it: at the version it is at, or at an earlier one."""

        id = fields.String(required=True)
        title = title_field()
        rules_version = fields.Integer(required=True)
        version = version_field()
        status = status_field(required=True)
        to_act = seats_to_act(required=True)
        you = seat_number(
            required=True, allow_none=True, metadata={"description": "Your seat; null = spectator."}
        )
        options = own("Options", required=True)
        seats = fields.List(fields.Nested(SeatSchema), required=True)
        view = own("View", required=True, metadata={"description": "What you may see."})
        result = own("Result", required=True, allow_none=True)
        clock = fields.Nested(
            ClockSchema,  # as it was set, defaults filled in
            metadata={"description": "Games with a clock: the clock as set at creation, defaults filled in."},
        )
        deadlines = Component("Deadlines")

    class Game(GameNow):
        rematch = fields.String(
            metadata={
                "description": "A finished game whose rematch a player asked for: the rematch's id "
                "(POST /games/{id}/rematch with your seat token takes your seat in it)."
            }
        )
        rated, ratings, ratings_pending = rated_game_fields()

    class GameVersion(GameNow):
        # Not the rematch: a version is the game of then, and a rematch is asked for now.
        entry = own(
            "LogEntry",
            required=True,
            allow_none=True,
            metadata={
                "description": "The log entry that made this version, as you saw it then (null: version 0)."
            },
        )

    class ListedMove(Schema):
        move = own("Move", required=True)
        label = fields.String(required=True, metadata={"description": "For display."})

    class Moves(Schema):
        title = title_field()
        version = version_field()
        seat = seat_number(required=True, allow_none=True, metadata={"description": "Your seat."})
        to_act = seats_to_act(required=True)
        moves = fields.List(own("ListedMove"), required=True)
        deadlines = Component("Deadlines")

    class ActionResult(Schema):
        title = title_field()
        version = version_field()
        seat = seat_number(required=True)
        move = own(
            "Move",
            metadata={
                "description": "The move as applied: the one sent, or the listed move it is the rules' "
                "equivalent of (Property: a 10 played beside the 9 of its suit is the 9)."
            },
        )
        status = status_field()
        to_act = seats_to_act()
        events = fields.List(own("Event"))
        view = own("View")
        result = own("Result", allow_none=True)
        replayed = fields.Boolean(metadata={"description": "True when an Idempotency-Key replay."})
        valid = fields.Boolean(metadata={"description": "Dry runs: the move would be accepted."})

    class LogEntry(Schema):
        version = fields.Integer(required=True, validate=validate.Range(min=1))
        seat = seat_number(
            required=True,
            allow_none=True,
            metadata={
                "description": "The seat that made the entry; null: the service (an idle game's expiry)."
            },
        )
        move = own(
            "Move",
            metadata={"description": "Shown to the seat that moved, and to all once the game is over."},
        )
        events = fields.List(own("Event"), required=True)
        deadlines = Component(
            "Deadlines", metadata={"description": "Games with a clock: as this entry left them."}
        )

    class Events(Schema):
        title = title_field()
        version = version_field()
        status = status_field(required=True)
        events = fields.List(own("LogEntry"), required=True)

    class RecordMove(Schema):
        seat = seat_number(required=True)
        move = own("Move", required=True)

    class Record(Schema):
        id = fields.String(required=True)
        title = title_field()
        rules_version = fields.Integer(required=True)
        seats = fields.List(fields.Nested(SeatSchema), required=True)
        options = own("Options", required=True)
        seed = fields.Integer(required=True, validate=validate.Range(min=0))
        moves = fields.List(own("RecordMove"), required=True)
        result = own("Result", required=True)
        rated, ratings, ratings_pending = rated_game_fields()

    replies: list[type[Schema]] = [
        GameCreated, LobbyGame, Game, ListedMove, Moves, ActionResult, LogEntry, Events, RecordMove, Record,
        GameVersion,
    ]  # fmt: skip
    return {component_name(game_id, reply.__name__): reply for reply in replies}
