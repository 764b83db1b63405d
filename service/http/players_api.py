"""The routes of players: create one, rotate its key, delete it, and "my games".

A player key travels in ``Authorization: Bearer sk_player_...`` only, never in a URL (a URL is
logged, kept in histories and sent on in ``Referer``): ``PlayerKeyLayer`` refuses any query string
that holds one, and takes the ``?seat=`` a player key names out of the query before the routes'
own parameters are read (``http.api.caller_token`` hands it to ``service.play.auth``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qsl, unquote_plus, urlencode

from flask import Flask, Response, current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from engines import registry
from engines.core import messages, say

from ..archive.ratings import PROVISIONAL_SIGMA
from ..play.auth import PLAYER_KEY_PREFIX
from ..play.players import MY_GAMES_PAGE, MY_GAMES_PAGE_MAX, Players
from ..play.ratings import HISTORY_PAGE, HISTORY_PAGE_MAX, LEADERBOARD_PAGE, LEADERBOARD_PAGE_MAX
from ..play.webhooks import PLAYER_NOTICES
from . import jsonbody, language
from .api import PLAYER_KEY, caller_token, json_response, query_parameters
from .bearer import PLAYER_SEAT
from .components import AnyTitle
from .errors import problem_response
from .ratelimit import address_key
from .replies import SeatSchema
from .schemas import paged_query, webhook_events, webhook_url
from .services import services

blp = Blueprint("players", __name__, description="Players: one key for all of a person's seats.")
blp.ARGUMENTS_PARSER = jsonbody.PARSER

PLAYER_ONLY: list[dict[str, list[str]]] = [{PLAYER_KEY: []}]
PLAYER_AUTH_HEADER = {
    "in": "header",
    "name": "Authorization",
    "required": True,
    "schema": {"type": "string", "pattern": "^Bearer sk_player_[A-Za-z0-9_-]{1,246}$"},
    "description": "`Bearer <player key>` from POST /players.",
}


def players() -> Players:
    return services().players


class PlayerKeyLayer:
    """A WSGI layer in front of the fast lane: a player key in a URL is refused (400
    ``key_in_url``, before anything is read), and a player key's ``?seat=`` is taken aside."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        query = environ.get("QUERY_STRING", "")
        if query:
            if PLAYER_KEY_PREFIX in unquote_plus(query):
                refusal = problem_response(
                    400,
                    "key_in_url",
                    say("service.refusal.key_in_url.player_key_goes_authorization"),
                )
                return refusal(environ, start_response)
            if PLAYER_KEY_PREFIX in environ.get("HTTP_AUTHORIZATION", ""):
                pairs = parse_qsl(query, keep_blank_values=True)
                seats = [value for name, value in pairs if name == "seat"]
                if seats:
                    if len(seats) > 1 or not seats[0].isdigit() or len(seats[0]) > 3:
                        refusal = problem_response(
                            422, "invalid_seat", say("service.refusal.invalid_seat.seat_one_seat_number")
                        )
                        return refusal(environ, start_response)
                    environ[PLAYER_SEAT] = int(seats[0])
                    environ["QUERY_STRING"] = urlencode([(n, v) for n, v in pairs if n != "seat"])
        return self.app(environ, start_response)


def install(app: Flask) -> None:
    """Put the layer around the fast lane (call after ``fastlane.install``)."""
    app.wsgi_app = PlayerKeyLayer(app.wsgi_app)  # type: ignore[method-assign]


class PlayerKeySchema(Schema):
    id = fields.String(required=True, metadata={"description": "The player's id: what an invitation names."})
    key = fields.String(
        required=True,
        metadata={
            "description": "The secret player key, shown once: `Authorization: Bearer <key>` wherever a "
            "seat token works, for the seats bound to the player. Only its digest is kept."
        },
    )


class MyGamesQuerySchema(paged_query(MY_GAMES_PAGE, MY_GAMES_PAGE_MAX, "Games")):  # type: ignore[misc]  # a base a function makes: mypy cannot follow it
    status = fields.String(
        validate=validate.OneOf(["waiting", "active", "finished"]),
        metadata={"description": "Only games of this status (default: waiting and active)."},
    )
    title = fields.String(
        validate=validate.OneOf(sorted(registry.GAMES)), metadata={"description": "Only games of this title."}
    )


MY_GAMES_QUERY = MyGamesQuerySchema()


class MyGameSchema(Schema):
    id = fields.String(required=True)
    title = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["waiting", "active", "finished"]))
    version = fields.Integer(required=True)
    my_turn = fields.Boolean(required=True, metadata={"description": "One of my seats is to act."})
    my_seats = fields.List(fields.Integer(), required=True, metadata={"description": "The seats I hold."})
    invitation = fields.Boolean(
        required=True, metadata={"description": "An open seat bound to me that I have not taken yet."}
    )
    invited_seats = fields.List(fields.Integer(), metadata={"description": "An invitation's seats."})
    to_act = fields.List(fields.Integer(), required=True)
    seats = fields.List(
        fields.Nested(SeatSchema), required=True, metadata={"description": "As every reader sees them."}
    )
    my_deadline = fields.String(
        required=True, allow_none=True, metadata={"description": "When my time to act runs out (RFC 3339)."}
    )
    last_move_at = fields.String(required=True, allow_none=True, metadata={"description": "RFC 3339."})
    updated = fields.String(required=True, metadata={"description": "The game's last change (RFC 3339)."})
    result = AnyTitle("Result", allow_none=True, metadata={"description": "A finished game's result."})
    my_rank = fields.Integer(allow_none=True, metadata={"description": "A finished game: my best rank."})
    rated = fields.Boolean(required=True, metadata={"description": "A rated game (docs/ratings.md)."})


class MyGamesCountsSchema(Schema):
    my_turn = fields.Integer(required=True, metadata={"description": "Active games where I am to act."})
    active = fields.Integer(required=True)
    invitations = fields.Integer(required=True)


class MyGamesSchema(Schema):
    games = fields.List(
        fields.Nested(MyGameSchema), required=True, metadata={"description": "Most urgent first."}
    )
    counts = fields.Nested(
        MyGamesCountsSchema, required=True, metadata={"description": "Over all my live games."}
    )
    next = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "Cursor of the next page (`?cursor=`); null on the last page."},
    )


@blp.route("/players")
class PlayerList(MethodView):
    @blp.response(201, PlayerKeySchema, description="The player and its key (shown once).")
    @blp.alt_response(429, response="TooManyRequests")
    @blp.doc(operationId="createPlayer")
    def post(self) -> Response:
        """Create a player: an identity an app holds for a person (Skyline keeps no names)."""
        limiter = current_app.extensions.get("skyline.player_creations")
        if limiter is not None:
            limiter(address_key(request.remote_addr))
        return json_response(players().create(), 201)


@blp.route("/players/me/keys")
class PlayerKeys(MethodView):
    @blp.response(201, PlayerKeySchema, description="A new key (shown once); the old one no longer works.")
    @blp.alt_response(401, response="Unauthorized")
    @blp.doc(operationId="rotatePlayerKey", parameters=[PLAYER_AUTH_HEADER], security=PLAYER_ONLY)
    def post(self) -> Response:
        """Rotate the player's key: the one sent is refused from now on, everywhere, and its open
        event streams end with `revoked`. The key sent must be the current one: of two rotations
        at once with one key, one is 401."""
        return json_response(players().rotate(caller_token()), 201)


class PlayerSettingsRequestSchema(Schema):
    language = fields.String(
        required=True,
        validate=validate.OneOf(list(messages.languages())),
        metadata={"description": "The language of the player's webhook notices (`text`)."},
    )


class PlayerSettingsSchema(Schema):
    id = fields.String(required=True)
    language = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "The player's language; null: none set (each request's own)."},
    )


@blp.route("/players/me")
class Me(MethodView):
    @blp.response(200, PlayerSettingsSchema, description="The player's id and language.")
    @blp.alt_response(401, response="Unauthorized")
    @blp.doc(operationId="getMe", parameters=[PLAYER_AUTH_HEADER], security=PLAYER_ONLY)
    def get(self) -> Response:
        """The player's own settings: its language."""
        return json_response(players().settings(caller_token()))

    @blp.arguments(PlayerSettingsRequestSchema(), example={"language": "fr"})
    @blp.response(200, PlayerSettingsSchema, description="The player's settings as stored.")
    @blp.alt_response(401, response="Unauthorized")
    @blp.alt_response(415, response="UnsupportedMediaType")
    @blp.alt_response(422, response="UnprocessableContent")
    @blp.doc(operationId="putMe", parameters=[PLAYER_AUTH_HEADER], security=PLAYER_ONLY)
    def put(self, body: dict[str, Any]) -> Response:
        """Set the player's language: the `text` of its webhook notices speaks it, in every game."""
        return json_response(players().put_settings(caller_token(), body["language"]))

    @blp.response(204, description="The player is deleted; its seats keep their own tokens.")
    @blp.alt_response(401, response="Unauthorized")
    @blp.doc(operationId="deletePlayer", parameters=[PLAYER_AUTH_HEADER], security=PLAYER_ONLY)
    def delete(self) -> Response:
        """Delete the player: its key stops working (its open event streams end with `revoked`);
        its games go on, played by their seat tokens; its id leaves the archive too."""
        players().delete(caller_token())
        return Response(status=204)


class PlayerWebhookRequestSchema(Schema):
    url = webhook_url()
    events = webhook_events(PLAYER_NOTICES)


class PlayerWebhookSchema(Schema):
    url = fields.String(required=True)
    events = fields.List(fields.String(validate=validate.OneOf(list(PLAYER_NOTICES))), required=True)
    webhook_secret = fields.String(
        required=True, metadata={"description": "The secret that signs its notices (`whsec_…`), shown once."}
    )


class PlayerDeliverySchema(Schema):
    id = fields.String(required=True, metadata={"description": "The `webhook-id` (the same on every retry)."})
    game_id = fields.String(required=True)
    type = fields.String(required=True, validate=validate.OneOf(list(PLAYER_NOTICES)))
    version = fields.Integer(required=True)
    state = fields.String(required=True)
    attempts = fields.Integer(required=True)
    last_status = fields.Integer(required=True, allow_none=True)


class PlayerWebhookShownSchema(Schema):
    url = fields.String(required=True)
    events = fields.List(fields.String(validate=validate.OneOf(list(PLAYER_NOTICES))), required=True)
    deliveries = fields.List(
        fields.Nested(PlayerDeliverySchema), required=True, metadata={"description": "Newest first."}
    )


@blp.route("/players/me/webhook")
class PlayerWebhook(MethodView):
    @blp.arguments(PlayerWebhookRequestSchema(), example={"url": "https://app.example/skyline-player-hook"})
    @blp.response(200, PlayerWebhookSchema, description="The player's webhook, with its new secret.")
    @blp.alt_response(401, response="Unauthorized")
    @blp.alt_response(415, response="UnsupportedMediaType")
    @blp.alt_response(422, response="UnprocessableContent")
    @blp.doc(operationId="putPlayerWebhook", parameters=[PLAYER_AUTH_HEADER], security=PLAYER_ONLY)
    def put(self, body: dict[str, Any]) -> Response:
        """One webhook for all the player's games: its turns, deadlines, invitations, joins, ends and
        rematches, signed (Standard Webhooks) with the secret in the reply."""
        spoken = language.current()  # unless the player has set one (PUT /players/me)
        return json_response(players().put_webhook(caller_token(), body["url"], body.get("events"), spoken))

    @blp.response(
        200, PlayerWebhookShownSchema, description="The player's webhook and its latest deliveries."
    )
    @blp.alt_response(401, response="Unauthorized")
    @blp.alt_response(404, response="NotFound")
    @blp.doc(operationId="getPlayerWebhook", parameters=[PLAYER_AUTH_HEADER], security=PLAYER_ONLY)
    def get(self) -> Response:
        """The player's webhook (not its secret) and what was sent to it, across its games."""
        return json_response(players().webhook(caller_token()))

    @blp.response(204, description="No more notices to the player's webhook.")
    @blp.alt_response(401, response="Unauthorized")
    @blp.alt_response(404, response="NotFound")
    @blp.doc(operationId="deletePlayerWebhook", parameters=[PLAYER_AUTH_HEADER], security=PLAYER_ONLY)
    def delete(self) -> Response:
        """Remove the player's webhook from all its games."""
        players().delete_webhook(caller_token())
        return Response(status=204)


@blp.route("/players/me/games")
class MyGames(MethodView):
    @blp.arguments(MY_GAMES_QUERY, location="query")
    @blp.response(200, MyGamesSchema, description="My games, the most urgent first.")
    @blp.alt_response(401, response="Unauthorized")
    @blp.alt_response(422, response="UnprocessableContent")
    @blp.doc(
        operationId="getMyGames",
        parameters=[PLAYER_AUTH_HEADER, query_parameters(MY_GAMES_QUERY)],
        security=PLAYER_ONLY,
    )
    def get(self, query: dict[str, Any]) -> Response:
        """My games: my turn with the nearest deadline first, then my turn, then games waiting for
        others, then invitations; `counts` of my turns, active games and invitations."""
        return json_response(
            players().my_games(
                caller_token(), query.get("status"), query.get("title"), query.get("cursor"), query["limit"]
            )
        )


class RatingSchema(Schema):
    rating = fields.Float(required=True, metadata={"description": "The conservative rating: mu − 3·sigma."})
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    games = fields.Integer(required=True, metadata={"description": "Rated games counted."})
    provisional = fields.Boolean(
        required=True, metadata={"description": f"sigma above {PROVISIONAL_SIGMA} (docs/ratings.md)."}
    )


class PublicPlayerSchema(Schema):
    id = fields.String(required=True)
    ratings = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(RatingSchema),
        required=True,
        metadata={"description": "Per title rated in; nothing else of the player is public."},
    )


class LeaderboardEntrySchema(RatingSchema):
    player = fields.String(required=True, metadata={"description": "A player's id, or `bot:<level>`."})


class LeaderboardSchema(Schema):
    title = fields.String(required=True)
    entries = fields.List(
        fields.Nested(LeaderboardEntrySchema),
        required=True,
        metadata={"description": "Best conservative rating first; provisional ratings left out."},
    )
    next = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "Cursor of the next page (`?cursor=`); null on the last page."},
    )


LEADERBOARD_QUERY = paged_query(LEADERBOARD_PAGE, LEADERBOARD_PAGE_MAX, "Entries")()


class RatingPointSchema(Schema):
    rating = fields.Float(required=True, metadata={"description": "mu − 3·sigma."})
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)


class RatingChangeEntrySchema(Schema):
    game = fields.String(required=True, metadata={"description": "The rated game that moved the rating."})
    seat = fields.Integer(required=True, metadata={"description": "The seat rated in that game."})
    ended = fields.String(required=True, metadata={"description": "When the game ended (RFC 3339)."})
    before = fields.Nested(RatingPointSchema, required=True)
    after = fields.Nested(RatingPointSchema, required=True)
    change = fields.Float(
        required=True, metadata={"description": "How much the game moved the rating: after − before."}
    )


class RatingHistorySchema(Schema):
    id = fields.String(required=True, metadata={"description": "A player's id, or `bot:<level>`."})
    title = fields.String(required=True)
    entries = fields.List(
        fields.Nested(RatingChangeEntrySchema),
        required=True,
        metadata={"description": "The latest settlement first: one entry per rated seat."},
    )
    next = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "Cursor of the next page (`?cursor=`); null on the last page."},
    )


HISTORY_QUERY = paged_query(HISTORY_PAGE, HISTORY_PAGE_MAX, "Entries")()


@blp.route("/players/<ratedid:player_id>")
class PublicPlayer(MethodView):
    @blp.response(200, PublicPlayerSchema, description="The player's (or bot level's) ratings, per title.")
    @blp.alt_response(404, response="NotFound")
    @blp.alt_response(503, response="ServiceUnavailable")
    @blp.doc(operationId="getPlayer")
    def get(self, player_id: str) -> Response:
        """A player's public face: its ratings per title, nothing else. `bot:<level>` (e.g.
        `bot:medium`) is a bot level's, rated as a player."""
        return json_response(services().ratings.player(player_id))


@blp.route("/players/<ratedid:player_id>/ratings/<string:title>/history")
class RatingHistory(MethodView):
    @blp.arguments(HISTORY_QUERY, location="query")
    @blp.response(
        200, RatingHistorySchema, description="Which games moved the rating, latest first, by pages."
    )
    @blp.alt_response(404, response="NotFound")
    @blp.alt_response(422, response="UnprocessableContent")
    @blp.alt_response(503, response="ServiceUnavailable")
    @blp.doc(operationId="getRatingHistory", parameters=[query_parameters(HISTORY_QUERY)])
    def get(self, query: dict[str, Any], player_id: str, title: str) -> Response:
        """A player's (or bot level's) rating in one title, game by game: which rated game moved it
        and by how much (docs/ratings.md)."""
        history = services().ratings.history(player_id, title, query.get("cursor"), query["limit"])
        return json_response(history)


@blp.route("/leaderboards/<string:title>")
class Leaderboard(MethodView):
    @blp.arguments(LEADERBOARD_QUERY, location="query")
    @blp.response(200, LeaderboardSchema, description="A title's leaderboard, best first, by pages.")
    @blp.alt_response(404, response="NotFound")
    @blp.alt_response(422, response="UnprocessableContent")
    @blp.alt_response(503, response="ServiceUnavailable")
    @blp.doc(operationId="getLeaderboard", parameters=[query_parameters(LEADERBOARD_QUERY)])
    def get(self, query: dict[str, Any], title: str) -> Response:
        """A title's players and bot levels by their conservative rating (mu − 3·sigma), the
        provisional ones left out."""
        return json_response(services().ratings.leaderboard(title, query.get("cursor"), query["limit"]))
