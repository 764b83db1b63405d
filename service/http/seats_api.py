"""The routes of seats and the lobby: join, leave, abort, and the list of games waiting for players.

Each view parses, calls one use case of ``service.play.seats.Seats``, and answers. Their
shapes are title-independent, so they are marshmallow schemas here (in the contract as they are).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask.typing import ResponseReturnValue
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from engines import registry

from ..play.games import MAX_SEATS
from ..play.seats import LOBBY_PAGE, LOBBY_PAGE_MAX, Seats
from . import jsonbody
from .api import ACT_AUTH_HEADER, GAME_ID, OPTIONAL_TOKEN, caller_player, caller_token, json_response
from .components import Component
from .schemas import display_name, paged_query
from .services import services

blp = Blueprint("seats", __name__, description="Open seats: join, leave, abort, and the lobby.")
blp.ARGUMENTS_PARSER = jsonbody.PARSER

STATUS = validate.OneOf(["waiting", "active", "finished", "aborted", "expired"])


def seats() -> Seats:
    return services().seats


class JoinSchema(Schema):
    seat = fields.Integer(
        strict=True,
        validate=validate.Range(min=0, max=MAX_SEATS - 1),
        metadata={"description": "The open seat to take; the first open one when omitted."},
    )
    name = display_name("Display name.")


class JoinedSchema(Schema):
    id = fields.String(required=True, metadata={"description": "The game."})
    seat = fields.Integer(required=True, metadata={"description": "The seat you took."})
    token = fields.String(
        required=True,
        metadata={"description": "Secret seat token, shown once: `Authorization: Bearer <token>`."},
    )
    status = fields.String(
        required=True,
        validate=STATUS,
        metadata={
            "description": "`active` when yours was the last open seat (the game started), else `waiting`."
        },
    )
    version = fields.Integer(required=True, metadata={"description": "The game's version after the join."})


class LeftSchema(Schema):
    id = fields.String(required=True)
    seat = fields.Integer(required=True, metadata={"description": "The seat given back: open again."})
    status = fields.String(required=True, validate=STATUS)
    version = fields.Integer(required=True)


class ResignedSchema(Schema):
    id = fields.String(required=True)
    seat = fields.Integer(required=True, metadata={"description": "The seat that resigned."})
    status = fields.String(
        required=True,
        validate=STATUS,
        metadata={
            "description": "`finished` when the game ended at once (two seats: the other won), else `active` "
            "(a stand-in bot plays the seat to the end)."
        },
    )
    version = fields.Integer(required=True)


class AbortedSchema(Schema):
    id = fields.String(required=True)
    status = fields.String(required=True, validate=STATUS)
    version = fields.Integer(required=True)


class LobbyQuerySchema(paged_query(LOBBY_PAGE, LOBBY_PAGE_MAX, "Games")):  # type: ignore[misc]  # a base a function makes: mypy cannot follow it
    title = fields.String(
        validate=validate.OneOf(sorted(registry.GAMES)), metadata={"description": "Only games of this title."}
    )
    seats = fields.Integer(
        validate=validate.Range(min=1, max=MAX_SEATS),
        metadata={"description": "Only games of this many seats."},
    )


class LobbySchema(Schema):
    # Each item is a ``LobbyGame``: a union of one component per title, told apart by ``title``
    # (service/http/contract.py), so that a game's options are its title's typed ``Options``.
    games = fields.List(Component("LobbyGame"), required=True, metadata={"description": "Newest first."})
    next = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "Cursor of the next page (`?cursor=`); null on the last page."},
    )


_JOIN_EXAMPLE = {"seat": 1, "name": "Bo"}

# Links: a game's page to its seats' routes (as the same seat), a join to the joined seat's.
# (Not from the creation: its links lead to play first, the listing and the move.)
_GAME = {"game_id": "$response.body#/id"}
_THIS_GAME = {"game_id": "$request.path.game_id"}
_SAME_SEAT = {**_THIS_GAME, "header.Authorization": "$request.header.Authorization"}
_JOINER = {**_GAME, "header.Authorization": "Bearer {$response.body#/token}"}
GAME_LINKS = {
    "JoinGame": {"operationId": "joinGame", "parameters": _THIS_GAME},
    "ResignGame": {"operationId": "resignGame", "parameters": _SAME_SEAT},
    "AbortGame": {"operationId": "abortGame", "parameters": _SAME_SEAT},
    "LeaveGame": {"operationId": "leaveGame", "parameters": _SAME_SEAT},
}
JOINED_LINKS = {
    "GetGameAsJoined": {"operationId": "getGame", "parameters": _JOINER},
    "GetMovesAsJoined": {"operationId": "getMoves", "parameters": _JOINER},
    "LeaveJoinedGame": {"operationId": "leaveGame", "parameters": _JOINER},
    "ResignJoinedGame": {"operationId": "resignGame", "parameters": _JOINER},
}


@blp.route("/games/<gameid:game_id>/join")
class Join(MethodView):
    @blp.arguments(JoinSchema(), required=False, example=_JOIN_EXAMPLE)
    @blp.response(201, JoinedSchema, description="Your seat and its token (shown once).")
    @blp.alt_response(403, response="Forbidden")
    @blp.alt_response(404, response="NotFound")
    @blp.alt_response(409, response="Conflict")
    @blp.alt_response(415, response="UnsupportedMediaType")
    @blp.alt_response(422, response="UnprocessableContent")
    @blp.doc(operationId="joinGame", parameters=[GAME_ID])
    def post(self, body: dict[str, Any], game_id: str) -> ResponseReturnValue:
        """Take an open seat of a waiting game (409 `seat_taken`, or `game_not_waiting` once it started).

        An invitation is its player's (403 `seat_invited` to anyone else); an open seat of a rated
        game is taken with a player key only (403 `rated_seat_needs_player`), by a player who holds
        none of its seats (409 `already_seated`)."""
        body = body or {}
        player = caller_player()
        joined = seats().join(game_id, body.get("seat"), body.get("name"), player=player)
        if player is not None:  # the player's webhook hears of its join, and of what follows
            services().players.attach(game_id, joined["version"] - 1, [player])
        return json_response(joined, 201)


def seat_action(operation_id: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """What every action of a seated player documents alike: its seat token, the game's id, and
    the refusals 401 (no such token), 404 (no such game) and 409 (not now)."""
    decorators = (
        blp.alt_response(401, response="Unauthorized"),
        blp.alt_response(404, response="NotFound"),
        blp.alt_response(409, response="Conflict"),
        blp.doc(operationId=operation_id, parameters=[GAME_ID, ACT_AUTH_HEADER], security=OPTIONAL_TOKEN),
    )

    def document(view: Callable[..., Any]) -> Callable[..., Any]:
        for decorator in reversed(decorators):  # applied bottom-up, as if stacked in this order
            view = decorator(view)
        return view

    return document


@blp.route("/games/<gameid:game_id>/leave")
class Leave(MethodView):
    @blp.response(200, LeftSchema, description="The seat is open again; its token no longer works.")
    @seat_action("leaveGame")
    def post(self, game_id: str) -> ResponseReturnValue:
        """Give your seat back before the game starts (after the start: 409, resign instead)."""
        return json_response(seats().leave(game_id, caller_token()))


@blp.route("/games/<gameid:game_id>/resign")
class Resign(MethodView):
    @blp.response(200, ResignedSchema, description="You resigned.")
    @seat_action("resignGame")
    def post(self, game_id: str) -> ResponseReturnValue:
        """Give the game up: two seats, the other wins at once; more, a stand-in bot plays your seat,
        ranked last."""
        return json_response(seats().resign(game_id, caller_token()))


class RematchSchema(Schema):
    id = fields.String(
        required=True, metadata={"description": "The rematch: the same for every player who asks."}
    )
    seat = fields.Integer(required=True, metadata={"description": "Your seat: the one you had."})
    token = fields.String(
        required=True,
        metadata={
            "description": "A new seat token for the rematch, shown once. Asking again (a lost token) "
            "gives a new one for the same seat, and the one before stops working."
        },
    )
    status = fields.String(
        required=True,
        validate=STATUS,
        metadata={"description": "`active` once every human player has asked."},
    )


@blp.route("/games/<gameid:game_id>/rematch")
class Rematch(MethodView):
    @blp.response(201, RematchSchema, description="Your seat in the rematch, with its token (shown once).")
    @seat_action("rematchGame")
    def post(self, game_id: str) -> ResponseReturnValue:
        """Ask for the finished game's one rematch: same title, options, clock and bots, a new seed;
        it starts once every human player has asked."""
        return json_response(seats().rematch(game_id, caller_token()), 201)


@blp.route("/games/<gameid:game_id>/abort")
class Abort(MethodView):
    @blp.response(200, AbortedSchema, description="The game is aborted: no result.")
    @seat_action("abortGame")
    def post(self, game_id: str) -> ResponseReturnValue:
        """End the game with no result: while it waits, or before every human seat has moved."""
        return json_response(seats().abort(game_id, caller_token()))


@blp.route("/lobby")
class Lobby(MethodView):
    @blp.arguments(LobbyQuerySchema(), location="query")
    @blp.response(200, LobbySchema, description="Listed games waiting for players, newest first.")
    @blp.alt_response(422, response="UnprocessableContent")
    @blp.doc(operationId="getLobby")
    def get(self, query: dict[str, Any]) -> ResponseReturnValue:
        """Listed games waiting for players (`listed: true` at creation), newest first, by pages."""
        return json_response(
            seats().lobby_page(query.get("title"), query.get("seats"), query.get("cursor"), query["limit"])
        )
