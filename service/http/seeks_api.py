"""The routes of seeks (service.play.seeks): ask for a game, read and cancel one's own seeks.

Every route takes a player key (``Authorization: Bearer sk_player_...``): a seek is a player's,
and no one else reads it (another's seek is a 404, as a seek that never was).
"""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from engines import registry

from ..play.games import MAX_SEATS
from ..play.players import Players
from . import jsonbody
from .api import caller_token, json_response
from .components import AnyTitle
from .players_api import PLAYER_AUTH_HEADER, PLAYER_ONLY
from .schemas import ClockSchema, StrictBoolean
from .services import services

blp = Blueprint("seeks", __name__, description="Seeks: finding opponents for a game.")
blp.ARGUMENTS_PARSER = jsonbody.PARSER


class SeekRequestSchema(Schema):
    title = fields.String(required=True, validate=validate.OneOf(sorted(registry.GAMES)))
    seats = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=2, max=MAX_SEATS),
        metadata={"description": "The game's seat count, every seat a seeker's."},
    )
    rated = StrictBoolean(load_default=False, metadata={"description": "A rated game (docs/ratings.md)."})
    options = AnyTitle("Options", load_default=dict, metadata={"description": "As in POST /games."})
    clock = fields.Nested(ClockSchema, metadata={"description": "As in POST /games; none when omitted."})
    rating_window = fields.List(
        fields.Float(allow_nan=False, validate=validate.Range(min=-1e6, max=1e6)),
        validate=validate.Length(equal=2),
        metadata={
            "description": "[low, high]: the conservative ratings (mu − 3·sigma) of the title this seek "
            "accepts in its opponents; every opponent's window must hold this seeker's too. Any, when "
            "omitted."
        },
    )

    @validates_schema
    def _window_in_order(self, data: dict[str, Any], **kwargs: Any) -> None:
        window = data.get("rating_window")
        if window is not None and window[0] > window[1]:
            raise ValidationError("[low, high] with low at most high.", "rating_window")


class SeekSchema(Schema):
    id = fields.String(required=True)
    status = fields.String(
        required=True, validate=validate.OneOf(["waiting", "matched", "cancelled", "expired"])
    )
    game = fields.String(required=True, allow_none=True, metadata={"description": "The game, once matched."})
    title = fields.String(required=True)
    seats = fields.Integer(required=True)
    rated = fields.Boolean(required=True)
    options = AnyTitle("Options", required=True)
    clock = fields.Nested(ClockSchema, required=True, allow_none=True)
    rating_window = fields.List(fields.Float(), required=True)
    expires = fields.Float(required=True, metadata={"description": "Unix time the seek stops waiting."})


class SeekListSchema(Schema):
    seeks = fields.List(fields.Nested(SeekSchema), required=True)


def _player() -> str:
    return Players.player_of(caller_token())


@blp.route("/seeks")
class SeekList(MethodView):
    @blp.arguments(SeekRequestSchema(), example={"title": "property", "seats": 3, "rated": True})
    @blp.response(201, SeekSchema, description="The seek: matched at once (with its game), or waiting.")
    @blp.alt_response(401, response="Unauthorized")
    @blp.alt_response(415, response="UnsupportedMediaType")
    @blp.alt_response(422, response="UnprocessableContent")
    @blp.alt_response(429, response="TooManyRequests")
    @blp.doc(operationId="createSeek", parameters=[PLAYER_AUTH_HEADER], security=PLAYER_ONLY)
    def post(self, body: dict[str, Any]) -> Response:
        """Seek a game: when enough compatible seeks exist the game is made at once, every seeker
        seated in an order the server draws, each told by its player webhook (`game.started`) and in
        "my games". A seek waits 600 s at most; 3 waiting per player and title at most (429)."""
        return json_response(services().seeks.seek(_player(), body), 201)

    @blp.response(200, SeekListSchema, description="The key's own seeks (waiting, and ended within a day).")
    @blp.alt_response(401, response="Unauthorized")
    @blp.doc(operationId="getSeeks", parameters=[PLAYER_AUTH_HEADER], security=PLAYER_ONLY)
    def get(self) -> Response:
        """My seeks."""
        return json_response(services().seeks.mine(_player()))


@blp.route("/seeks/<string:seek_id>")
class OneSeek(MethodView):
    @blp.response(200, SeekSchema, description="The seek.")
    @blp.alt_response(401, response="Unauthorized")
    @blp.alt_response(404, response="NotFound")
    @blp.doc(operationId="getSeek", parameters=[PLAYER_AUTH_HEADER], security=PLAYER_ONLY)
    def get(self, seek_id: str) -> Response:
        """One of my seeks."""
        return json_response(services().seeks.read(_player(), seek_id))

    @blp.response(204, description="The seek is cancelled: it will not be matched.")
    @blp.alt_response(401, response="Unauthorized")
    @blp.alt_response(404, response="NotFound")
    @blp.alt_response(409, response="Conflict")
    @blp.doc(operationId="cancelSeek", parameters=[PLAYER_AUTH_HEADER], security=PLAYER_ONLY)
    def delete(self, seek_id: str) -> Response:
        """Cancel a waiting seek (409 `seek_not_waiting` once matched, cancelled or expired)."""
        services().seeks.cancel(_player(), seek_id)
        return Response(status=204)
