"""Marshmallow schemas: they validate every input and, through apispec, write the OpenAPI contract.

Only the envelopes are checked here; a move's content is judged by its game's engine. The
contract's schema of each request body and query is the conversion of the schema below that
reads it (tests/contract/test_request_constraints.py holds every constraint to it). The
replies are described in ``service.http.replies``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from marshmallow import Schema, fields, validate

from engines import registry
from engines.bots import LEVELS, STRATEGIES

from ..play.games import MAX_NAME_LENGTH, MAX_SEATS, MAX_SEED, PLAYER_ID_PATTERN
from ..play.webhooks import NOTICE_TYPES
from .components import AnyTitle

# Versions count moves; the bound is Redis's (a signed 64-bit index), past which it refuses.
MAX_VERSION = 2**63 - 1


class WholeNumber(fields.Integer):
    """An integer, as JSON Schema means it: ``0.0`` is the integer 0 (``0.5``, ``"0"`` and
    ``true`` are still refused), so every body the contract calls valid is read alike."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if type(value) is float and value.is_integer():
            value = int(value)
        return super()._deserialize(value, attr, data, **kwargs)


class StrictBoolean(fields.Boolean):
    """A JSON boolean, as JSON Schema means it: ``0``, ``1`` and ``"true"`` are refused."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if type(value) is not bool:
            raise self.make_error("invalid", input=value)
        return value


def display_name(description: str) -> fields.String:
    """A seat's name: shown to other players, in pictures and in logs, so without control
    characters (C0, DEL, C1: no glyph, and XML 1.0, board.svg's, cannot hold most of them)."""
    return fields.String(
        validate=[
            validate.Length(min=1, max=MAX_NAME_LENGTH),
            validate.Regexp(
                r"^[^\x00-\x1f\x7f-\x9f]*$",
                error="A name may not hold control characters (U+0000 to U+001F, U+007F to U+009F).",
            ),
        ],
        metadata={"description": description},
    )


class SeatRequestSchema(Schema):
    kind = fields.String(
        required=True,
        validate=validate.OneOf(["human", "bot", "open"]),
        metadata={"description": "Who plays this seat; `open`: whoever joins it (POST /games/{id}/join)."},
    )
    name = display_name("Display name (an open seat's: whom it is meant for).")
    bot = fields.String(
        validate=validate.OneOf(sorted(STRATEGIES)),
        metadata={"description": "Bot strategy (bot seats only); its default level unless `level` is given."},
    )
    level = fields.String(
        validate=validate.OneOf(list(LEVELS)),
        metadata={"description": "Bot level (see /catalog levels); default medium."},
    )
    player = fields.String(
        validate=validate.Regexp(rf"^(me|{PLAYER_ID_PATTERN})$"),
        metadata={
            "description": "Bind the seat to a player: `me` on a human seat (the creator's player key "
            "in Authorization), a player's id on an open seat (an invitation only that player may take)."
        },
    )


class ClockSchema(Schema):
    turn_seconds = WholeNumber(
        required=True,
        validate=validate.Range(min=10, max=14 * 24 * 3600),
        metadata={"description": "Seconds each human seat has to act (10 s to 14 days)."},
    )
    on_timeout = fields.String(
        load_default="stand_in",
        validate=validate.OneOf(["stand_in", "resign"]),
        metadata={
            "description": "`stand_in`: the stand-in bot plays that one turn (the seat stays human; "
            "after `timeouts_to_resign` timeouts in a row it resigns). `resign`: the seat resigns."
        },
    )
    timeouts_to_resign = WholeNumber(
        load_default=3,
        validate=validate.Range(min=1, max=100),
        metadata={"description": "Timeouts in a row after which the seat resigns (`stand_in` only)."},
    )


def webhook_url() -> fields.String:
    """A webhook's address, as a game's and a player's webhook take it."""
    return fields.String(
        required=True,
        validate=validate.Length(min=1, max=2048),
        metadata={"description": "An https URL whose host resolves to public addresses only."},
    )


def webhook_events(notices: Iterable[str]) -> fields.List[str]:
    """The notice types a webhook asks for, out of ``notices`` (a game's, or a player's)."""
    return fields.List(
        fields.String(validate=validate.OneOf(list(notices))),
        validate=validate.Length(min=1),
        metadata={"description": "The notice types to send (all when omitted)."},
    )


class WebhookRequestSchema(Schema):
    url = webhook_url()
    events = webhook_events(NOTICE_TYPES)


class MuSigmaSchema(Schema):
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)


class RatingChangeSchema(Schema):
    seat = fields.Integer(required=True, validate=validate.Range(min=0))
    player = fields.String(required=True, metadata={"description": "A player's id, or `bot:<level>`."})
    before = fields.Nested(MuSigmaSchema, required=True)
    after = fields.Nested(MuSigmaSchema, required=True)


def rated_game_fields() -> tuple[fields.Field[Any], fields.Field[Any], fields.Field[Any]]:
    """What a rated game's view and record add (docs/ratings.md): rated, ratings, ratings_pending."""
    return (
        fields.Boolean(metadata={"description": "A rated game (absent: not rated)."}),
        fields.List(
            fields.Nested(RatingChangeSchema),
            allow_none=True,
            metadata={
                "description": "An ended rated game: each rated seat's rating before and after; null "
                "while it is not settled yet (`ratings_pending`)."
            },
        ),
        fields.Boolean(metadata={"description": "An ended rated game the archive has not settled yet."}),
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
    seed = WholeNumber(
        validate=validate.Range(min=0, max=MAX_SEED),
        metadata={
            "description": "Seed of all chance; random when omitted. Secret until the end. Refused in a "
            "game with open seats (422 seed_with_open_seats)."
        },
    )
    stand_in = fields.String(
        validate=validate.OneOf(list(LEVELS)),
        metadata={"description": "Level of the bot that plays a resigned seat to the end (default greedy)."},
    )
    clock = fields.Nested(
        ClockSchema,
        metadata={"description": "Turn deadlines: each human seat to act has `turn_seconds` to act."},
    )
    listed = StrictBoolean(
        load_default=False,
        metadata={
            "description": "Show the game in GET /lobby while it waits for players (else it is joined by "
            "its id, a link)."
        },
    )
    rated = StrictBoolean(
        load_default=False,
        metadata={
            "description": "Rate the game: its end moves its players' ratings (docs/ratings.md). Every "
            "human and open seat must be bound to a player (422 unratable_game otherwise)."
        },
    )
    webhooks = fields.List(
        fields.Nested(WebhookRequestSchema),
        validate=validate.Length(max=5),
        metadata={
            "description": "Endpoints told of the game's notices (signed, Standard Webhooks); the reply's "
            "`webhook_secret` (shown once) signs them. docs/notify-your-app.md."
        },
    )


class ActionSchema(Schema):
    move = AnyTitle(
        "Move",
        required=True,
        metadata={
            "description": "One move, exactly as listed by GET /games/{id}/moves (a move of the game's "
            "title)."
        },
    )
    version = WholeNumber(
        validate=validate.Range(min=0, max=MAX_VERSION),
        metadata={
            "description": "The version the move was chosen at; a stale one gets 409. Without it the move "
            "is judged against the current state."
        },
    )


# A language (a tag such as `fr` or `fr-CA`): the reply's text in that language when one is
# shipped, else in the one Accept-Language names, else English (service/http/language.py). Any
# string is taken, a value naming no shipped language alike: ignored, never refused.
LANGUAGE_DESCRIPTION = (
    "The language of the reply's text (labels, refusals): `en` or `fr`; where a header cannot be "
    "sent (an EventSource, an `<img>`, a link). It wins over Accept-Language; an unknown one is ignored."
)


class LanguageQuerySchema(Schema):
    lang = fields.String(
        metadata={"description": LANGUAGE_DESCRIPTION, "example": "fr"},
    )


class ActionQuerySchema(LanguageQuerySchema):
    dry_run = fields.Boolean(
        load_default=False,
        metadata={"description": "Only judge the move (the reply says `valid`); change nothing."},
    )


class EventsQuerySchema(Schema):
    since = fields.Integer(
        load_default=0,
        # Redis list indexes are 64-bit: a larger one would fail there instead of here.
        validate=validate.Range(min=0, max=MAX_VERSION),
        metadata={"description": "Only the entries after this version."},
    )


class SeatRangeSchema(Schema):
    min = fields.Integer(required=True)
    max = fields.Integer(required=True)


class LevelSchema(Schema):
    level = fields.String(required=True, validate=validate.OneOf(list(LEVELS)))
    bot = fields.String(required=True, validate=validate.OneOf(sorted(STRATEGIES)))
    description = fields.String(required=True)
    iterations = fields.Integer(required=True, metadata={"description": "ISMCTS iterations (0: no search)."})
    seconds = fields.Float(required=True, allow_none=True, metadata={"description": "Time budget of a turn."})
    samples = fields.Integer(required=True, metadata={"description": "Guesses of the hidden cards averaged."})
    epsilon = fields.Float(required=True, metadata={"description": "Share of random moves (blunders)."})
    rollout_depth = fields.Integer(required=True)
    exploration = fields.Float(required=True)
    prior_visits = fields.Integer(required=True)
    centred_margins = fields.Boolean(
        required=True,
        metadata={"description": "The search judges lines from the margins of the position searched."},
    )
    searches = fields.Integer(
        required=True,
        metadata={"description": "Independent searches sharing the iterations and voting on the move."},
    )
    greedy_rollouts = fields.Boolean(
        required=True,
        metadata={"description": "Rollout moves are the greedy bot's (one ply), not random ones."},
    )
    sharp_evaluation = fields.Boolean(
        required=True,
        metadata={"description": "Positions are judged with the title's sharper, costlier evaluation."},
    )


class CatalogTitleSchema(Schema):
    title = fields.String(required=True, validate=validate.OneOf(sorted(registry.GAMES)))
    name = fields.String(required=True)
    summary = fields.String(required=True)
    rules_version = fields.Integer(
        required=True, metadata={"description": "The rules a new game is played by (the newest published)."}
    )
    rules_versions = fields.List(
        fields.Integer(),
        required=True,
        metadata={
            "description": "Every rules version this deployment plays: a game keeps the one it began "
            "with, and its versions replay under it (docs/engines.md)."
        },
    )
    seats = fields.Nested(SeatRangeSchema, required=True)
    options = fields.Dict(
        required=True,
        metadata={"description": "JSON Schema of the options (also the component <Title>Options)."},
    )
    moves = fields.Dict(
        required=True, metadata={"description": "JSON Schema of a move (also the component <Title>Move)."}
    )
    view = fields.Dict(
        required=True, metadata={"description": "JSON Schema of a view (also the component <Title>View)."}
    )
    bots = fields.List(fields.String(validate=validate.OneOf(sorted(STRATEGIES))), required=True)
    levels = fields.List(
        fields.Nested(LevelSchema), required=True, metadata={"description": "Bot levels a seat may ask for."}
    )
    rated = fields.Boolean(
        required=True, metadata={"description": "Whether its games may be rated (`rated` at creation)."}
    )


class CatalogSchema(Schema):
    titles = fields.List(fields.Nested(CatalogTitleSchema), required=True)


class IndexLinksSchema(Schema):
    docs = fields.String(required=True, metadata={"description": "The interactive reference (Swagger UI)."})
    openapi = fields.String(required=True, metadata={"description": "This contract, as JSON."})
    catalog = fields.String(required=True, metadata={"description": "The games, their options and schemas."})
    quickstart = fields.String(
        required=True, metadata={"description": "The README's session: a whole game played with curl."}
    )


class IndexSchema(Schema):
    name = fields.String(required=True)
    summary = fields.String(required=True)
    links = fields.Nested(IndexLinksSchema, required=True)
    quickstart = fields.List(
        fields.String(), required=True, metadata={"description": "The README's curl session, step by step."}
    )


class HealthSchema(Schema):
    status = fields.String(required=True)


class ReadySchema(Schema):
    status = fields.String(
        required=True,
        validate=validate.OneOf(["ready", "degraded"]),
        metadata={
            "description": "`ready`; `degraded` while no bot worker is alive (the API itself serves: "
            "bot seats wait until a worker is back)."
        },
    )
    bot_workers = fields.Integer(
        required=True, metadata={"description": "Bot workers that beat within the last 10 s."}
    )


class ProblemSchema(Schema):
    """RFC 9457 problem details, with a stable machine ``code``."""

    type = fields.String(required=True)
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    code = fields.String(required=True)
    errors = fields.Dict(metadata={"description": "Field-by-field input errors."})
    current_version = fields.Integer(allow_none=True)


def paged_query(default: int, maximum: int, items: str) -> type[Schema]:
    """The query of a listing by pages (the lobby, the deliveries): ``cursor``, the ``next`` of
    the page before, and ``limit``, ``items`` per page."""

    class PagedQuery(Schema):
        cursor = fields.String(
            validate=validate.Length(min=1, max=200),
            metadata={"description": "The `next` of the previous page."},
        )
        limit = fields.Integer(
            load_default=default,
            validate=validate.Range(min=1, max=maximum),
            metadata={"description": f"{items} per page."},
        )

    return PagedQuery
