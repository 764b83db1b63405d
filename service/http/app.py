"""The app factory: Flask and flask-smorest over the use cases (play/) and a Redis store (store/)."""

from __future__ import annotations

from typing import Any

import flask
import orjson
from flask import Flask
from flask_smorest import Api
from werkzeug.routing import BaseConverter

from ..play.ratings import RATED_ID_PATTERN
from ..play.services import Services
from ..store.games import GAME_ID_PATTERN
from . import bodylimit, conditional, cors, errors, fastlane, hooks, jsonbody, language, ratelimit
from .schemas import ProblemSchema
from .services import AppParts
from .services import install as install_parts

API_TITLE = "Skyline"
API_VERSION = "1.0.0"
PROBLEM_CONTENT_TYPE = "application/problem+json"

# Reusable error responses of the contract, by status.
ERROR_RESPONSES = {
    400: ("BadRequest", "The body is not valid JSON or the request cannot be read."),
    401: ("Unauthorized", "The seat token is missing, malformed or unknown."),
    403: ("Forbidden", "The seat is not allowed to act now."),
    404: ("NotFound", "No such game (or it expired)."),
    405: ("MethodNotAllowed", "The address does not accept that method."),
    409: ("Conflict", "Stale version, game over, or the record of a running game."),
    413: ("PayloadTooLarge", "The body is larger than allowed."),
    415: ("UnsupportedMediaType", "The body is not declared as JSON (send Content-Type: application/json)."),
    422: ("UnprocessableContent", "Invalid fields, or a move the rules refuse (see code)."),
    503: ("ServiceUnavailable", "Redis cannot be reached."),
}


class GameIdConverter(BaseConverter):
    """``<gameid:game_id>``: a game id as the service makes them (``store.games.GAME_ID_PATTERN``).

    An id outside it (a NUL, a slash, 65 characters) matches no route and is a 404 from the
    routing itself, before any view, store or archive is asked: the archive's fallback once
    handed a NUL to PostgreSQL, a 500. The fast lane's routes match the same pattern.
    """

    regex = GAME_ID_PATTERN


class RatedIdConverter(BaseConverter):
    """``<ratedid:player_id>``: a player's id or a bot level's (``bot:<level>``), never ``me``:
    ``/players/me`` stays the key's own routes (an OPTIONS of it lists their methods only)."""

    regex = RATED_ID_PATTERN


def _rated_id_schema(converter: BaseConverter) -> dict[str, Any]:
    return {"type": "string", "pattern": f"^{RATED_ID_PATTERN}$"}


def _game_id_schema(converter: BaseConverter) -> dict[str, Any]:
    # The contract's schema of the id as before (its operations add maxLength): with the pattern
    # in it, schemathesis's stateful search played a move in one try of eight, not at once.
    return {"type": "string", "minLength": 1}


class SkylineFlask(Flask):
    """Flask, asking once per function (not on every call) whether it is a coroutine.

    Flask passes every view and every before/after/teardown hook through ``ensure_sync`` on
    each request, and the check inside (``inspect.iscoroutinefunction``) cost a few per cent
    of a move's time over the ~20 calls a request makes. The answer never changes for a
    function, so it is kept per function (a bound method, new on every request for a
    MethodView, is looked up by the function it binds).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._is_sync: dict[Any, bool] = {}

    def ensure_sync(self, func: Any) -> Any:
        key = getattr(func, "__func__", func)
        try:
            if self._is_sync[key]:
                return func
        except KeyError:
            sync = super().ensure_sync(func)
            self._is_sync[key] = sync is func
            return sync
        except TypeError:  # an unhashable callable: ask every time, as Flask does
            pass
        return super().ensure_sync(func)


class SkylineApi(Api):
    """flask-smorest's Api, documenting every error as RFC 9457 problem details."""

    ERROR_SCHEMA = ProblemSchema
    DEFAULT_ERROR_RESPONSE_NAME = "DEFAULT_ERROR"

    def _register_responses(self) -> None:
        for name, description in ERROR_RESPONSES.values():
            self.spec.components.response(
                name,
                {"description": description, "content": {PROBLEM_CONTENT_TYPE: {"schema": "ProblemSchema"}}},
                lazy=True,
            )
        self.spec.components.response(
            "DEFAULT_ERROR",
            {"description": "An error.", "content": {PROBLEM_CONTENT_TYPE: {"schema": "ProblemSchema"}}},
            lazy=True,
        )

    def _openapi_json(self) -> flask.Response:
        """GET /openapi.json: the document, written once (it is final once the app is built)."""
        written = getattr(self, "_written_spec", None)
        if written is None:
            body = flask.json.dumps(self.spec.to_dict(), indent=2, sort_keys=False).encode()
            written = self._written_spec = (body, conditional.entity_tag(body))
        return conditional.reply(written[0], etag=written[1])


def api_config() -> dict[str, Any]:
    return {
        "API_TITLE": API_TITLE,
        "API_VERSION": API_VERSION,
        "OPENAPI_VERSION": "3.1.0",
        "OPENAPI_URL_PREFIX": "/",
        "OPENAPI_JSON_PATH": "openapi.json",
        "API_SPEC_OPTIONS": {
            "info": {
                "description": (
                    "Skyline is a headless rules service for city-building board games. Create a game, "
                    "list the legal moves of your seat, apply one. Errors are application/problem+json "
                    "with a stable `code`. Every response carries `X-Request-ID` (yours, when you send a "
                    "sane one). Requests are rate limited per address and per seat token: over the limit, "
                    "429 with `Retry-After`."
                ),
            },
        },
    }


def create_app(services: Services) -> Flask:
    """The API over ``services`` (built by ``skyline.compose.build_services``, once per process)."""
    settings = services.settings
    app = SkylineFlask(__name__)
    app.config.update(api_config())
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes
    app.url_map.converters["gameid"] = GameIdConverter  # before any route names it
    app.url_map.converters["ratedid"] = RatedIdConverter
    api = SkylineApi(app)
    api.register_converter(GameIdConverter, _game_id_schema)
    api.register_converter(RatedIdConverter, _rated_id_schema)
    catalogs = {lang: orjson.dumps(services.games.catalog(lang)) for lang in language.SUPPORTED}
    replies = {lang: (body, conditional.entity_tag(body)) for lang, body in catalogs.items()}
    install_parts(app, AppParts(services, replies, api))

    hooks.install_logs(app, enabled=settings.access_log)
    hooks.install_metrics(app)
    ratelimit.install(app, services.redis, settings)
    ratelimit.install_player_creations(app, services.redis, settings)

    from . import pictures, versions_api
    from .api import ACTION_LINKS, CREATED_LINKS, GAME_LINKS, MOVES_LINKS, PLAYER_KEY, SEAT_TOKEN, blp, ops
    from .contract import add_game_schemas, add_links, name_error_responses, prepare
    from .docs import docs_blueprint
    from .players_api import blp as players_blp
    from .players_api import install as install_player_keys
    from .seats_api import GAME_LINKS as SEAT_LINKS
    from .seats_api import JOINED_LINKS
    from .seats_api import blp as seats_blp
    from .seeks_api import blp as seeks_blp
    from .webhooks_api import GAME_LINKS as WEBHOOK_LINKS
    from .webhooks_api import blp as webhooks_blp

    api.spec.components.security_scheme(
        SEAT_TOKEN,
        {"type": "http", "scheme": "bearer", "description": "A seat token from POST /games."},
    )
    api.spec.components.security_scheme(
        PLAYER_KEY,
        {"type": "http", "scheme": "bearer", "description": "A player key from POST /players."},
    )
    prepare(api.spec, api.ma_plugin.converter)
    api.register_blueprint(ops)
    api.register_blueprint(blp)
    api.register_blueprint(seats_blp)
    api.register_blueprint(webhooks_blp)
    api.register_blueprint(players_blp)
    api.register_blueprint(seeks_blp)
    api.register_blueprint(hooks.blp)
    api.register_blueprint(pictures.blp)
    api.register_blueprint(versions_api.blp)
    app.register_blueprint(docs_blueprint())
    add_game_schemas(api.spec)
    add_links(api.spec, "/games", "post", "201", CREATED_LINKS)
    add_links(
        api.spec,
        "/games/{game_id}",
        "get",
        "200",
        {**GAME_LINKS, **pictures.GAME_LINKS, **versions_api.GAME_LINKS, **SEAT_LINKS, **WEBHOOK_LINKS},
    )
    add_links(api.spec, "/games/{game_id}/join", "post", "201", JOINED_LINKS)
    add_links(api.spec, "/games/{game_id}/moves", "get", "200", MOVES_LINKS)
    add_links(api.spec, "/games/{game_id}/actions", "post", "200", ACTION_LINKS)
    name_error_responses(api.spec, {code: name for code, (name, _) in ERROR_RESPONSES.items()})
    ratelimit.document(api.spec)
    jsonbody.refuse_bodies_not_json(app, api.spec._paths)
    errors.register(app)

    # WSGI layers, innermost first: the fast lane sees the client's address as ProxyFix reads
    # it, and a chunked body as the body limit has bounded it; CORS wraps them all.
    fastlane.install(app)
    install_player_keys(app)  # around the fast lane: a key in a URL never reaches it
    if settings.trusted_proxy_hops > 0:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.trusted_proxy_hops)  # type: ignore[method-assign]
    bodylimit.install(app, settings.max_body_bytes)
    cors.install(app, settings.cors_origins)  # outermost: every answer, the body limit's included
    return app
