"""The routes of webhooks: a seat's own endpoint, and the deliveries' listing.

A game's creation registers its endpoints (``webhooks`` in POST /games, service/http/api.py);
here a seat registers its own with its token, and either credential lists what was sent.
"""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.typing import ResponseReturnValue
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from ..play.webhooks import (
    DELIVERIES_PAGE,
    DELIVERIES_PAGE_MAX,
    NOTICE_TYPES,
    SEAT_NOTICES,
    SECRET_PATTERN,
    Webhooks,
)
from . import jsonbody, language
from .api import (
    ACT_AUTH_HEADER,
    GAME_ID,
    LANGUAGE_HEADER,
    LANGUAGE_QUERY,
    OPTIONAL_TOKEN,
    caller_token,
    json_response,
    query_parameters,
)
from .schemas import WebhookRequestSchema, paged_query
from .services import services

blp = Blueprint("webhooks", __name__, description="Webhooks: signed notices to your app (Standard Webhooks).")
blp.ARGUMENTS_PARSER = jsonbody.PARSER


# Links: a game's page, read with a seat token, to that seat's webhook and deliveries.
_SAME_SEAT = {"game_id": "$request.path.game_id", "header.Authorization": "$request.header.Authorization"}
GAME_LINKS = {
    "PutSeatWebhook": {"operationId": "putSeatWebhook", "parameters": _SAME_SEAT},
    "DeleteSeatWebhook": {"operationId": "deleteSeatWebhook", "parameters": _SAME_SEAT},
    "GetWebhookDeliveries": {"operationId": "getWebhookDeliveries", "parameters": _SAME_SEAT},
}


# The deliveries' listing takes a seat token or the creation's webhook_secret (Standard
# Webhooks: ``whsec_`` and standard base64, ``+`` and ``/`` included).
DELIVERIES_AUTH_HEADER = {
    "in": "header",
    "name": "Authorization",
    "required": False,
    "schema": {"type": "string", "pattern": f"^Bearer ([A-Za-z0-9_-]{{1,256}}|{SECRET_PATTERN})$"},
    "description": "`Bearer <seat token>` (its seat's webhook), or `Bearer <webhook_secret>` "
    "(`whsec_…`, the creation's webhooks).",
}


def webhooks() -> Webhooks:
    return services().webhooks


class SeatWebhookRequestSchema(WebhookRequestSchema):
    # The enum is the contract's; the use case refuses any other event (422
    # webhook_events_refused, naming those a seat's webhook may have).
    events = fields.List(
        fields.String(metadata={"enum": list(SEAT_NOTICES)}),
        validate=validate.Length(min=1),
        metadata={"description": "The notice types to send (all four when omitted): your seat's own."},
    )


class SeatWebhookSchema(Schema):
    seat = fields.Integer(required=True, metadata={"description": "Your seat."})
    url = fields.String(required=True)
    events = fields.List(
        fields.String(validate=validate.OneOf(list(SEAT_NOTICES))),
        required=True,
        metadata={"description": "What this endpoint hears of: your turn, deadline and timeout, the end."},
    )
    webhook_secret = fields.String(
        required=True,
        metadata={"description": "The secret that signs its notices (`whsec_…`), shown once."},
    )


class DeliverySchema(Schema):
    id = fields.String(required=True, metadata={"description": "The `webhook-id` (the same on every retry)."})
    type = fields.String(required=True, validate=validate.OneOf(list(NOTICE_TYPES)))
    version = fields.Integer(required=True, metadata={"description": "The game's version it announces."})
    url = fields.String(required=True, allow_none=True)
    state = fields.String(
        required=True,
        validate=validate.OneOf(["pending", "delivered", "failed", "disabled", "cancelled", "skipped"]),
        metadata={
            "description": "`pending` (to be tried, or retried), `delivered`, `failed` (out of attempts), "
            "`disabled` (the endpoint answered 410), `cancelled` (the endpoint was removed), `skipped` "
            "(a `deadline.near` whose seat acted first)."
        },
    )
    attempts = fields.Integer(required=True)
    last_status = fields.Integer(required=True, allow_none=True, metadata={"description": "The receiver's."})
    last_error = fields.String(required=True, allow_none=True)
    next_attempt = fields.String(
        required=True, allow_none=True, metadata={"description": "When it is tried next (RFC 3339, UTC)."}
    )


class DeliveriesQuerySchema(paged_query(DELIVERIES_PAGE, DELIVERIES_PAGE_MAX, "Deliveries")):  # type: ignore[misc]  # a base a function makes: mypy cannot follow it
    pass


DELIVERIES_QUERY = DeliveriesQuerySchema()


class DeliveriesSchema(Schema):
    deliveries = fields.List(
        fields.Nested(DeliverySchema),
        required=True,
        metadata={"description": "Newest first (by version), a page of them."},
    )
    next = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "Cursor of the next page, older deliveries (`?cursor=`); null on the last."},
    )


@blp.route("/games/<gameid:game_id>/webhook")
class SeatWebhook(MethodView):
    @blp.arguments(SeatWebhookRequestSchema(), example={"url": "https://app.example/skyline-hook"})
    @blp.response(200, SeatWebhookSchema, description="Your seat's endpoint, with its new secret.")
    @blp.alt_response(401, response="Unauthorized")
    @blp.alt_response(404, response="NotFound")
    @blp.alt_response(415, response="UnsupportedMediaType")
    @blp.alt_response(422, response="UnprocessableContent")
    @blp.doc(
        operationId="putSeatWebhook",
        parameters=[GAME_ID, ACT_AUTH_HEADER, LANGUAGE_HEADER, LANGUAGE_QUERY],
        security=OPTIONAL_TOKEN,
    )
    def put(self, body: dict[str, Any], game_id: str) -> ResponseReturnValue:
        """Register (or replace) your seat's own webhook: your turn, your deadline, the end."""
        spoken = language.current()  # the notices' text: the registering request's language
        registered = webhooks().put_seat(game_id, caller_token(), body["url"], body.get("events"), spoken)
        return json_response(registered)

    @blp.response(204, description="Your seat's endpoint is removed; what waited for it is cancelled.")
    @blp.alt_response(401, response="Unauthorized")
    @blp.alt_response(404, response="NotFound", description="No such game, or no webhook for your seat.")
    @blp.doc(operationId="deleteSeatWebhook", parameters=[GAME_ID, ACT_AUTH_HEADER], security=OPTIONAL_TOKEN)
    def delete(self, game_id: str) -> ResponseReturnValue:
        """Remove your seat's webhook."""
        webhooks().remove_seat(game_id, caller_token())
        return Response(status=204)


@blp.route("/games/<gameid:game_id>/webhooks/deliveries")
class Deliveries(MethodView):
    @blp.arguments(DELIVERIES_QUERY, location="query")
    @blp.response(200, DeliveriesSchema, description="The deliveries to your endpoints, newest first.")
    @blp.alt_response(401, response="Unauthorized")
    @blp.alt_response(404, response="NotFound", description="No such game, or no webhook for your seat.")
    @blp.alt_response(422, response="UnprocessableContent")
    @blp.doc(
        operationId="getWebhookDeliveries",
        parameters=[GAME_ID, DELIVERIES_AUTH_HEADER, query_parameters(DELIVERIES_QUERY)],
        security=OPTIONAL_TOKEN,
    )
    def get(self, query: dict[str, Any], game_id: str) -> ResponseReturnValue:
        """What was sent, and what waits: with a seat token, to its seat's endpoint; with the
        creation's `webhook_secret` as the bearer, to the creation's endpoints. Newest first, by
        pages (`next`)."""
        return json_response(
            webhooks().deliveries(game_id, caller_token(), query.get("cursor"), query["limit"])
        )
