"""The app factory: Flask and flask-smorest over the use cases (play/) and a Redis store (store/)."""

from __future__ import annotations

from typing import Any

import flask
import orjson
import redis
from flask import Flask
from flask_smorest import Api

from ..config import Settings
from ..play.archiving import ArchivedReads
from ..play.games import Games
from ..play.players import Players
from ..play.seats import Seats
from ..play.versions import Versions
from ..play.webhooks import Webhooks
from ..store.botgames import BotGameQuota
from ..store.botqueue import BotQueue, queue_redis
from ..store.connect import settings_client
from ..store.games import GameStore
from ..store.lobby import LobbyIndex
from ..store.migrate import refuse_first_layout
from ..store.players import PlayerStore
from ..store.seats import SeatStore
from ..store.streamcaps import StreamCaps
from ..store.webhooks import WebhookStore
from ..store.workers import WorkerPresence
from . import bodylimit, conditional, cors, errors, fastlane, hooks, jsonbody, ratelimit
from .schemas import ProblemSchema

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


def create_app(
    settings: Settings | None = None,
    *,
    redis_client: redis.Redis | None = None,
    enqueue_bots: bool = True,
) -> Flask:
    """Build the app. Tests pass their own settings or client; production reads the environment."""
    settings = settings or Settings.from_env()
    app = SkylineFlask(__name__)
    app.config.update(api_config())
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes

    if redis_client is None:
        # A bounded pool: under gevent every waiting request would otherwise open its own
        # connection, and a burst of thousands of event streams would open thousands.
        redis_client = settings_client(settings, max_connections=settings.redis_connections)
    refuse_first_layout(redis_client)
    store = GameStore(
        redis_client,
        ttl_seconds=settings.game_ttl_seconds,
        finished_ttl_seconds=settings.finished_game_ttl_seconds,
        lobby_ttl_seconds=settings.lobby_ttl_seconds,
    )
    lobby = LobbyIndex(redis_client, settings.lobby_ttl_seconds)
    # RQ_REDIS_URL's own pool, or the store's client when the queue shares its Redis.
    rq_client = queue_redis(settings, store=redis_client, max_connections=settings.redis_connections)
    enqueue = BotQueue(rq_client, job_timeout=settings.bot_job_timeout).offer_turn if enqueue_bots else None
    bot_games = BotGameQuota(
        redis_client, per_address=settings.bot_games_per_address, ttl_seconds=settings.game_ttl_seconds
    )
    # Games Redis has let go are read from the archive (Redis first: a live game pays nothing).
    archived = ArchivedReads(settings.database_url) if settings.database_url else None
    player_store = PlayerStore(redis_client)
    games = Games(
        store,
        enqueue,
        stall_seconds=settings.bot_stall_seconds,
        recent_games=settings.recent_games,
        bot_games=bot_games,
        lobby=lobby,
        archived=archived,
        player_store=player_store,
        live_games_per_player=settings.live_games_per_player,
    )
    app.extensions["skyline.settings"] = settings
    app.extensions["skyline.games"] = games
    app.extensions["skyline.versions"] = Versions(games)
    webhooks = Webhooks(
        WebhookStore(redis_client, ttl_seconds=max(settings.game_ttl_seconds, settings.lobby_ttl_seconds)),
        games,
        allow_http=settings.webhook_allow_http,
        allow_private=settings.webhook_allow_private,
    )
    app.extensions["skyline.seats"] = Seats(games, SeatStore(redis_client), lobby, webhooks=webhooks)
    app.extensions["skyline.webhooks"] = webhooks
    app.extensions["skyline.players"] = Players(player_store, archived, webhooks)
    catalog = orjson.dumps(games.catalog())
    app.extensions["skyline.catalog_json"] = (catalog, conditional.entity_tag(catalog))
    app.extensions["skyline.queue_redis"] = rq_client  # /metrics reads the queues there
    app.extensions["skyline.worker_presence"] = WorkerPresence(redis_client)
    app.extensions["skyline.stream_caps"] = StreamCaps(
        redis_client,
        per_address=settings.streams_per_address,
        per_token=settings.streams_per_token,
        lifetime=settings.sse_max_seconds,
    )

    hooks.install_logs(app, enabled=settings.access_log)
    hooks.install_metrics(app)
    ratelimit.install(app, redis_client, settings)
    ratelimit.install_player_creations(app, redis_client, settings)

    api = SkylineApi(app)
    from . import pictures, versions_api
    from .api import ACTION_LINKS, CREATED_LINKS, GAME_LINKS, MOVES_LINKS, SEAT_TOKEN, blp, ops
    from .contract import add_game_schemas, add_links, name_error_responses, prepare
    from .docs import docs_blueprint
    from .players_api import PLAYER_KEY
    from .players_api import blp as players_blp
    from .players_api import install as install_player_keys
    from .seats_api import GAME_LINKS as SEAT_LINKS
    from .seats_api import JOINED_LINKS
    from .seats_api import blp as seats_blp
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
    app.extensions["skyline.api"] = api

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
