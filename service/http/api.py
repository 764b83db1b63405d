"""The HTTP routes. Each view parses (schemas), calls one use-case of ``Games``, and answers."""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response, request
from flask.typing import ResponseReturnValue
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema

from engines.core import say

from ..play import auth
from ..play.errors import InvalidPlayerKey
from ..play.games import Games
from . import conditional, jsonbody, language, sse
from .bearer import PLAYER_SEAT, bearer_token
from .components import ref
from .problems import Problem
from .ratelimit import address_key
from .schemas import (
    LANGUAGE_DESCRIPTION,
    ActionQuerySchema,
    ActionSchema,
    CatalogSchema,
    CreateGameSchema,
    EventsQuerySchema,
    HealthSchema,
    IndexSchema,
    ReadySchema,
)
from .services import parts, services

# Schemas are passed as instances: webargs would otherwise build one per request.
blp = Blueprint("games", __name__, description="Create games, read them, list and play moves.")
# Bodies are read strictly and with bounds (service.http.jsonbody), not by webargs' json.loads.
blp.ARGUMENTS_PARSER = jsonbody.PARSER
ops = Blueprint("operations", __name__, description="Health and readiness.")

AUTH_HEADER = {
    "in": "header",
    "name": "Authorization",
    "required": False,
    "schema": {"type": "string", "pattern": "^Bearer [A-Za-z0-9_-]{1,256}$"},
    "description": "`Bearer <seat token>` from POST /games; without it you are a spectator.",
}
ACT_AUTH_HEADER = {
    **AUTH_HEADER,
    "required": True,
    "description": "`Bearer <seat token>` of the seat that moves.",
}
IDEMPOTENCY_HEADER = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 128},
    "description": "A retried request with the same key is answered once, with the first reply.",
}
# The routes whose replies hold text for a person (labels, refusals) name the reader's language.
LANGUAGE_HEADER = {
    "in": "header",
    "name": "Accept-Language",
    "required": False,
    "schema": {"type": "string"},
    "description": "The reader's languages with q-values (`fr-CA;q=0.9, en;q=0.8`): the first "
    "shipped one by its primary subtag (`en`, `fr`), `*` or none known: English. The reply says "
    "`Content-Language`.",
}
LANGUAGE_QUERY = {
    "in": "query",
    "name": "lang",
    "required": False,
    "schema": {"type": "string"},
    "description": LANGUAGE_DESCRIPTION,
}
GAME_ID = {"in": "path", "name": "game_id", "required": True, "schema": {"type": "string", "maxLength": 64}}


def query_parameters(schema: Schema) -> dict[str, Any]:
    """The parameters of a query as the schema that reads it has them (apispec expands the
    fields): an operation whose doc lists its path and header parameters lists its query so,
    as that list replaces the one flask-smorest would have made from ``blp.arguments``."""
    return {"in": "query", "schema": schema}


ACTION_QUERY = ActionQuerySchema()
EVENTS_QUERY = EventsQuerySchema()
# What a conditional reply sends (service.http.conditional), on its 200 and its 304 alike.
_ETAG = {
    "description": "A strong tag of these bytes: send it back as If-None-Match to get 304 while they "
    "have not changed.",
    "schema": {"type": "string"},
}
FIXED_HEADERS = {"ETag": _ETAG, "Cache-Control": {"description": "`no-cache`.", "schema": {"type": "string"}}}
CALLERS_HEADERS = {
    "ETag": _ETAG,
    "Cache-Control": {
        "description": "`private, no-cache` with a seat token, else `no-cache`.",
        "schema": {"type": "string"},
    },
    "Vary": {"description": "`Authorization`: the reply is the caller's.", "schema": {"type": "string"}},
}
EVENTS_VARY = {
    "description": "`Accept, Authorization`: the log or its stream, and the caller's.",
    "schema": {"type": "string"},
}
NOT_MODIFIED = "Not modified: If-None-Match named these bytes (or `*`)."
_GAME_LINK = {"game_id": "$response.body#/id"}
# The first human seat, whichever seat number it has (seat 0 may be a bot).
_TOKEN = "Bearer {$response.body#/human_seats/0/token}"
# Play on: a listing links to its first move, a move to the next listing, so schemathesis's
# stateful phase (and a reader) can follow a game with real moves.
_SAME_GAME = {"game_id": "$request.path.game_id", "header.Authorization": "$request.header.Authorization"}
MOVES_LINKS = {
    "PlayFirstListedMove": {
        "operationId": "postAction",
        "parameters": {**_SAME_GAME, "query.dry_run": "false"},
        "requestBody": {"move": "$response.body#/moves/0/move", "version": "$response.body#/version"},
        # schemathesis: send this body as is, not merged field by field into a generated one.
        "x-schemathesis": {"merge_body": False},
    },
}
ACTION_LINKS = {
    "GetMoves": {"operationId": "getMoves", "parameters": _SAME_GAME},
    "GetGame": {"operationId": "getGame", "parameters": _SAME_GAME},
}
CREATED_LINKS = {
    "GetGame": {"operationId": "getGame", "parameters": {**_GAME_LINK, "header.Authorization": _TOKEN}},
    "GetMoves": {"operationId": "getMoves", "parameters": {**_GAME_LINK, "header.Authorization": _TOKEN}},
    "PostAction": {"operationId": "postAction", "parameters": {**_GAME_LINK, "header.Authorization": _TOKEN}},
}
# A game's page leads to the rest of it: its listing, its log, its record, its pictures (kept
# off the creation's links, so that a stateful run's scenarios reach the listing, and play).
_THIS_GAME = {"game_id": "$request.path.game_id"}
GAME_LINKS = {
    "GetMoves": {"operationId": "getMoves", "parameters": _SAME_GAME},
    "GetEvents": {"operationId": "getEvents", "parameters": _THIS_GAME},
    "GetRecord": {"operationId": "getRecord", "parameters": _THIS_GAME},
}


# Seat tokens are bearer tokens: optional where a spectator may read, required to act.
SEAT_TOKEN = "seatToken"
PLAYER_KEY = "playerKey"
# Who creates a game: anyone, or a player whose seat says {"player": "me"}.
CREATOR_HEADER = {
    **AUTH_HEADER,
    "description": '`Bearer <player key>`: the creator, bound to every seat that says `"player": "me"`.',
}
OPTIONAL_TOKEN: list[dict[str, list[str]]] = [{}, {SEAT_TOKEN: []}]

# The README's curl session ("A session with curl"), so `curl localhost:8000/` shows how to start.
QUICKSTART_URL = "README.md#a-session-with-curl"
QUICKSTART = [
    "curl -s localhost:8000/catalog",
    "curl -s -X POST localhost:8000/games -H 'Content-Type: application/json' -d "
    """'{"title": "property", "seed": 1, "seats": [{"kind": "human", "name": "Ada"}, """
    """{"kind": "bot", "level": "medium"}]}' | tee game.json""",
    """GAME=$(python3 -c 'import json; print(json.load(open("game.json"))["id"])')""",
    """TOKEN=$(python3 -c 'import json; print(json.load(open("game.json"))["human_seats"][0]["token"])')""",
    'curl -s localhost:8000/games/$GAME/moves -H "Authorization: Bearer $TOKEN"',
    'curl -s -X POST localhost:8000/games/$GAME/actions -H "Authorization: Bearer $TOKEN" '
    "-H 'Content-Type: application/json' "
    """-d '{"move": {"type": "play", "red": "1H", "black": "2C", "column": 1, "row": 2}, "version": 0}'""",
    'curl -s localhost:8000/games/$GAME -H "Authorization: Bearer $TOKEN"',
]


def games() -> Games:
    return services().games


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(orjson.dumps(body), status=status, mimetype="application/json", headers=headers)


def caller_token() -> str | None:
    """The request's seat token; for a player key, its player (one read) and the seat it names."""
    token = bearer_token(request.headers.get("Authorization"))
    if token is not None and auth.is_player_key(token):
        return services().players.credential(token, request.environ.get(PLAYER_SEAT))
    return token


def caller_player() -> str | None:
    """The player of a request made with a player key, else None (a seat token, or nothing, is
    not read where none is needed: such requests go on as before players)."""
    header = request.headers.get("Authorization")
    if header is None or auth.PLAYER_KEY_PREFIX not in header:
        return None
    credential = caller_token()
    return credential.player_id if isinstance(credential, auth.PlayerCredential) else None


def creator_player() -> str | None:
    """The creator of a game: no Authorization, or a player key (the header createGame declares);
    a malformed header or any other token is refused, not ignored (401)."""
    if request.headers.get("Authorization") is None:
        return None
    credential = caller_token()
    if not isinstance(credential, auth.PlayerCredential):
        raise InvalidPlayerKey(say("service.refusal.invalid_player_key.game_created_with_authorization"))
    return credential.player_id


@blp.route("/catalog")
class Catalog(MethodView):
    @blp.response(200, CatalogSchema, headers=FIXED_HEADERS)
    @blp.alt_response(304, description=NOT_MODIFIED, headers=FIXED_HEADERS)
    @blp.doc(operationId="getCatalog", parameters=[LANGUAGE_HEADER, LANGUAGE_QUERY])
    def get(self) -> ResponseReturnValue:
        """List the games: titles, seat counts, options, move and view schemas, bots."""
        spoken = language.current()
        body, etag = parts().catalog_reply[spoken]
        return conditional.reply(body, etag=etag, vary=language.BY_LANGUAGE, headers=language.headers(spoken))


@blp.route("/games")
class GameList(MethodView):
    @blp.arguments(CreateGameSchema())
    @blp.response(
        201,
        ref("GameCreated"),
        description="The game, with one secret token per human seat.",
        headers={"Location": {"schema": {"type": "string"}}},
    )
    @blp.alt_response(415, response="UnsupportedMediaType")
    @blp.alt_response(422, response="UnprocessableContent")
    @blp.doc(
        operationId="createGame",
        parameters=[CREATOR_HEADER, LANGUAGE_HEADER, LANGUAGE_QUERY],
        security=[{}, {PLAYER_KEY: []}],
    )
    def post(self, body: dict[str, Any]) -> ResponseReturnValue:
        """Create a game; the reply holds one secret token per human seat."""
        notify = services().webhooks
        endpoints, secret = notify.checked_at_creation(
            body.pop("webhooks", None) or [], language.current()
        )  # before the game
        player = creator_player()
        created = games().create(body, address=address_key(request.remote_addr), player=player)
        if endpoints:
            notify.register_created(created, endpoints)
            created["webhook_secret"] = secret
        if any("player" in seat for seat in body["seats"]):
            # The bound players' own webhooks (an invitation is announced from version 0).
            services().players.attach(created["id"], -1, created=created)
        return json_response(created, 201, {"Location": f"/games/{created['id']}"})


@blp.route("/games/<gameid:game_id>")
class GameResource(MethodView):
    @blp.response(200, ref("Game"), description="The game as you may see it.", headers=CALLERS_HEADERS)
    @blp.alt_response(304, description=NOT_MODIFIED, headers=CALLERS_HEADERS)
    @blp.alt_response(401, response="Unauthorized")
    @blp.alt_response(404, response="NotFound")
    @blp.doc(operationId="getGame", parameters=[GAME_ID, AUTH_HEADER], security=OPTIONAL_TOKEN)
    def get(self, game_id: str) -> ResponseReturnValue:
        """Show the game as the caller's seat (or a spectator) may see it."""
        shown = games().show(game_id, caller_token())
        return conditional.reply(orjson.dumps(shown), vary=conditional.BY_CALLER)


@blp.route("/games/<gameid:game_id>/moves")
class Moves(MethodView):
    @blp.response(
        200, ref("Moves"), description="Your legal moves (none for a spectator).", headers=CALLERS_HEADERS
    )
    @blp.alt_response(304, description=NOT_MODIFIED, headers=CALLERS_HEADERS)
    @blp.alt_response(401, response="Unauthorized")
    @blp.alt_response(404, response="NotFound")
    @blp.doc(
        operationId="getMoves",
        parameters=[GAME_ID, AUTH_HEADER, LANGUAGE_HEADER, LANGUAGE_QUERY],
        security=OPTIONAL_TOKEN,
    )
    def get(self, game_id: str) -> ResponseReturnValue:
        """List the legal moves of the caller's seat, with labels, and who is to act."""
        spoken = language.current()
        return conditional.reply(
            games().moves_json(game_id, caller_token(), language=spoken),
            vary=(*conditional.BY_CALLER, *language.BY_LANGUAGE),
            headers=language.headers(spoken),
        )


@blp.route("/games/<gameid:game_id>/actions")
class Actions(MethodView):
    @blp.arguments(ActionSchema())
    @blp.arguments(ACTION_QUERY, location="query")
    @blp.response(
        200, ref("ActionResult"), description="The move's events and your new view (or, dry runs, `valid`)."
    )
    @blp.alt_response(401, response="Unauthorized")
    @blp.alt_response(403, response="Forbidden")
    @blp.alt_response(404, response="NotFound")
    @blp.alt_response(409, response="Conflict")
    @blp.alt_response(415, response="UnsupportedMediaType")
    @blp.alt_response(422, response="UnprocessableContent")
    @blp.doc(
        operationId="postAction",
        parameters=[
            GAME_ID,
            ACT_AUTH_HEADER,
            IDEMPOTENCY_HEADER,
            LANGUAGE_HEADER,
            query_parameters(ACTION_QUERY),
        ],
        # The Authorization header above is required, and a move without a seat token is 401.
        # The security requirement lists the token as optional all the same: schemathesis's
        # ST401 check (in `--checks all`) takes a token its stateful phase got through the
        # contract's links for one it made up, and calls the move it rightly plays "accepts
        # invalid authentication" (docs/contract-testing.md).
        security=OPTIONAL_TOKEN,
    )
    def post(self, body: dict[str, Any], query: dict[str, Any], game_id: str) -> ResponseReturnValue:
        """Play one move of the caller's seat (or only check it, with dry_run=true)."""
        key = request.headers.get("Idempotency-Key")
        if key is not None and not 1 <= len(key) <= 128:
            raise Problem(
                422,
                "invalid_idempotency_key",
                say("service.refusal.invalid_idempotency_key.idempotency_key_has_characters"),
            )
        reply = games().act(
            game_id,
            caller_token(),
            body["move"],
            body.get("version"),
            idempotency_key=key,
            dry_run=query["dry_run"],
        )
        return json_response(reply)


@blp.route("/games/<gameid:game_id>/events")
class Events(MethodView):
    @blp.arguments(EVENTS_QUERY, location="query")
    @blp.response(
        200,
        ref("Events"),
        description="The log, redacted for you; with Accept: text/event-stream, live.",
        headers={**CALLERS_HEADERS, "Vary": EVENTS_VARY},
    )
    @blp.alt_response(304, description=NOT_MODIFIED, headers={**CALLERS_HEADERS, "Vary": EVENTS_VARY})
    @blp.alt_response(
        200,
        success=True,
        content_type="text/event-stream",
        description="With Accept: text/event-stream, a live stream: a snapshot, then one event per version.",
        schema={"type": "string"},
    )
    @blp.alt_response(401, response="Unauthorized")
    @blp.alt_response(404, response="NotFound")
    @blp.doc(
        operationId="getEvents",
        parameters=[GAME_ID, AUTH_HEADER, query_parameters(EVENTS_QUERY)],
        security=OPTIONAL_TOKEN,
    )
    def get(self, query: dict[str, Any], game_id: str) -> ResponseReturnValue:
        """The game's log, redacted for the caller; as text/event-stream, live updates."""
        token = caller_token()
        best = request.accept_mimetypes.best_match(["application/json", "text/event-stream"])
        if best == "text/event-stream":
            return sse.stream(games(), game_id, token, request.headers.get("Last-Event-ID"))
        return conditional.reply(orjson.dumps(games().events(game_id, token, query["since"])), vary=sse.VARY)


@blp.route("/games/<gameid:game_id>/record")
class Record(MethodView):
    @blp.response(200, ref("Record"), description="The record of a finished game.", headers=FIXED_HEADERS)
    @blp.alt_response(304, description=NOT_MODIFIED, headers=FIXED_HEADERS)
    @blp.alt_response(404, response="NotFound")
    @blp.alt_response(409, response="Conflict")
    @blp.doc(operationId="getRecord", parameters=[GAME_ID])
    def get(self, game_id: str) -> ResponseReturnValue:
        """Seed, options and every move, once the game is over (it reveals all)."""
        return conditional.reply(orjson.dumps(games().record(game_id)))


@ops.route("/")
class Index(MethodView):
    @ops.response(200, IndexSchema)
    @ops.doc(operationId="getIndex")
    def get(self) -> ResponseReturnValue:
        """Where to start: the interactive reference, the contract, the catalog, a curl session."""
        return json_response(
            {
                "name": "Skyline",
                "summary": "A headless rules service for city-building board games.",
                "links": {
                    "docs": "/docs",
                    "openapi": "/openapi.json",
                    "catalog": "/catalog",
                    "quickstart": QUICKSTART_URL,
                },
                "quickstart": QUICKSTART,
            }
        )


@ops.route("/healthz")
class Health(MethodView):
    @ops.response(200, HealthSchema)
    @ops.doc(operationId="getHealth")
    def get(self) -> ResponseReturnValue:
        """The process is up."""
        return json_response({"status": "ok"})


@ops.route("/readyz")
class Ready(MethodView):
    @ops.response(200, ReadySchema)
    @ops.alt_response(503, response="ServiceUnavailable")
    @ops.doc(operationId="getReady")
    def get(self) -> ResponseReturnValue:
        """The process can reach Redis (503 if not); `degraded` while no bot worker is alive."""
        try:
            workers = services().bot_workers.alive()
        except Exception:
            raise Problem(
                503, "redis_unreachable", say("service.refusal.redis_unreachable.redis_cannot_reached")
            ) from None
        return json_response({"status": "ready" if workers else "degraded", "bot_workers": workers})
