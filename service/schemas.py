"""Marshmallow schemas: they validate every input and, through apispec, write the OpenAPI contract.

Only the envelopes are checked here; a move's content is judged by its game's engine
(and described for clients by the game's JSON Schema, referenced in the contract).
"""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields, validate

from engines.bots import LEVELS, STRATEGIES

from .contract import refs

MAX_SEATS = 12
MAX_SEED = 2**63 - 1
# Versions count moves; the bound is Redis's (a signed 64-bit index), past which it refuses.
MAX_VERSION = 2**63 - 1


class SeatRequestSchema(Schema):
    kind = fields.String(
        required=True,
        validate=validate.OneOf(["human", "bot"]),
        metadata={"description": "Who plays this seat."},
    )
    name = fields.String(validate=validate.Length(min=1, max=40), metadata={"description": "Display name."})
    bot = fields.String(
        validate=validate.OneOf(sorted(STRATEGIES)),
        metadata={"description": "Bot strategy (bot seats only); its default level unless `level` is given."},
    )
    level = fields.String(
        validate=validate.OneOf(list(LEVELS)),
        metadata={"description": "Bot level (see /catalog levels); default medium."},
    )


class CreateGameSchema(Schema):
    title = fields.String(
        required=True,
        validate=validate.Length(min=1, max=64),
        metadata={"description": "Game id from /catalog."},
    )
    seats = fields.List(
        fields.Nested(SeatRequestSchema), required=True, validate=validate.Length(min=1, max=MAX_SEATS)
    )
    options = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={"description": "Variants, per the title's catalog entry."},
    )
    seed = fields.Integer(
        strict=True,
        validate=validate.Range(min=0, max=MAX_SEED),
        metadata={"description": "Seed of all chance; random when omitted. Secret until the game ends."},
    )


class ActionSchema(Schema):
    move = fields.Dict(
        required=True,
        metadata={
            "description": "One move, exactly as listed by GET /games/{id}/moves.",
            "anyOf": refs("Move"),
        },
    )
    version = fields.Integer(
        strict=True,
        validate=validate.Range(min=0, max=MAX_VERSION),
        metadata={"description": "The version the move was chosen at; a stale one gets 409."},
    )


class ActionQuerySchema(Schema):
    dry_run = fields.Boolean(
        load_default=False, metadata={"description": "Only check the move; change nothing."}
    )


class EventsQuerySchema(Schema):
    since = fields.Integer(
        load_default=0,
        validate=validate.Range(min=0, max=MAX_VERSION),
        metadata={"description": "Return entries after this version."},
    )


class SeatSchema(Schema):
    seat = fields.Integer(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["human", "bot"]))
    name = fields.String()
    bot = fields.String()
    level = fields.String()


class NewSeatSchema(SeatSchema):
    token = fields.String(metadata={"description": "Secret seat token (human seats); shown once."})


class GameCreatedSchema(Schema):
    id = fields.String(required=True)
    title = fields.String(required=True)
    version = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["active", "finished"]))
    to_act = fields.List(fields.Integer(), required=True)
    options = fields.Dict(required=True)
    seats = fields.List(fields.Nested(NewSeatSchema), required=True)


class ResultSchema(Schema):
    """Scores, ranks (1 = best, ties share) and breakdown per seat; games may add facts of
    their own (automata such as Tom ranked beside the seats, tiles revealed at the end)."""

    class Meta:
        unknown = INCLUDE

    scores = fields.List(fields.Float(), required=True)
    ranks = fields.List(fields.Integer(), required=True)
    winners = fields.List(fields.Integer(), required=True)
    breakdown = fields.List(fields.Dict(), required=True)
    reason = fields.String(required=True)
    automata = fields.List(fields.Dict())


class GameSchema(Schema):
    id = fields.String(required=True)
    title = fields.String(required=True)
    rules_version = fields.Integer(required=True)
    version = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["active", "finished"]))
    to_act = fields.List(fields.Integer(), required=True)
    you = fields.Integer(
        required=True, allow_none=True, metadata={"description": "Your seat; null = spectator."}
    )
    options = fields.Dict(required=True)
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    view = fields.Dict(
        required=True,
        metadata={
            "description": "What you may see; its shape is the title's view schema.",
            "anyOf": refs("View"),
        },
    )
    result = fields.Nested(ResultSchema, required=True, allow_none=True)


class ListedMoveSchema(Schema):
    move = fields.Dict(required=True, metadata={"anyOf": refs("Move")})
    label = fields.String(required=True)


class MovesSchema(Schema):
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True, allow_none=True)
    to_act = fields.List(fields.Integer(), required=True)
    moves = fields.List(fields.Nested(ListedMoveSchema), required=True)


class ActionResultSchema(Schema):
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    move = fields.Dict(
        metadata={
            "description": "The move as applied: the one sent, or the listed move it is the "
            "rules' equivalent of (Property: a 10 played beside the 9 of its suit is the 9).",
            "anyOf": refs("Move"),
        },
    )
    status = fields.String(validate=validate.OneOf(["active", "finished"]))
    to_act = fields.List(fields.Integer())
    events = fields.List(fields.Dict())
    view = fields.Dict(metadata={"anyOf": refs("View")})
    result = fields.Nested(ResultSchema, allow_none=True)
    replayed = fields.Boolean(metadata={"description": "True when an Idempotency-Key replay."})
    valid = fields.Boolean(metadata={"description": "Dry runs: the move would be accepted."})


class LogEntrySchema(Schema):
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    move = fields.Dict(
        metadata={"description": "Shown to the seat that moved, and to all once the game is over."}
    )
    events = fields.List(fields.Dict(), required=True)


class EventsSchema(Schema):
    version = fields.Integer(required=True)
    status = fields.String(required=True)
    events = fields.List(fields.Nested(LogEntrySchema), required=True)


class RecordMoveSchema(Schema):
    seat = fields.Integer(required=True)
    move = fields.Dict(required=True)


class RecordSchema(Schema):
    id = fields.String(required=True)
    title = fields.String(required=True)
    rules_version = fields.Integer(required=True)
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    options = fields.Dict(required=True)
    seed = fields.Integer(required=True)
    moves = fields.List(fields.Nested(RecordMoveSchema), required=True)
    result = fields.Nested(ResultSchema, required=True)


class CatalogTitleSchema(Schema):
    title = fields.String(required=True)
    name = fields.String(required=True)
    summary = fields.String(required=True)
    rules_version = fields.Integer(required=True)
    seats = fields.Dict(required=True)
    options = fields.Dict(required=True, metadata={"description": "JSON Schema of the options."})
    moves = fields.Dict(required=True, metadata={"description": "JSON Schema of a move."})
    view = fields.Dict(required=True, metadata={"description": "JSON Schema of a view."})
    bots = fields.List(fields.String(), required=True)
    levels = fields.List(
        fields.Dict(), required=True, metadata={"description": "Bot levels a seat may ask for."}
    )


class CatalogSchema(Schema):
    titles = fields.List(fields.Nested(CatalogTitleSchema), required=True)


class HealthSchema(Schema):
    status = fields.String(required=True)


class ProblemSchema(Schema):
    """RFC 9457 problem details, with a stable machine ``code``."""

    type = fields.String(required=True)
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    code = fields.String(required=True)
    errors = fields.Dict(metadata={"description": "Field-by-field input errors."})
    current_version = fields.Integer(allow_none=True)
