"""The fast lane: the two requests a game is played with, answered without Flask's layers.

``GET /games/{id}/moves`` and ``POST /games/{id}/actions`` are most of a running service's
requests. Through Flask, flask-smorest and webargs each paid for a request context, URL
matching, a dozen hooks through context proxies, and two marshmallow loads — about as much
CPU as the rules and the commit together (bench/RESULTS.md). Here such a request is matched
by one regular expression, its body parsed once by orjson (``service.http.jsonbody``: same bounds)
and its envelope checked against the fields of ``ActionSchema``, then handed to the same
``Games`` use-case as the Flask view, with the same hooks: request id, rate limit (checked
first, as Flask's first hook does), metrics, access line, and problem+json errors from the app's
own handlers. On one Redis the rate limit's check carries the game's read in its round trip
(``RequestLimits.check_along``): a route that reads the game first (a listing; a move with no
state kept at its version) hands its read to the check, and gets its answer back once admitted.
A listing is a conditional GET as in Flask (``service.http.conditional``: its ETag, Cache-Control
and Vary, and 304 to an If-None-Match that names it).

Anything out of the ordinary goes on to Flask, which answers it as before: a body that is not
plain JSON of the usual shape (its 400s and 422s name the fields as webargs does), a query
string on a move (``dry_run``), an Idempotency-Key of a bad length, a chunked or oversized
body, another method. So the contract (openapi.yaml, written by flask-smorest from the same
marshmallow schemas) keeps describing every answer, and the fast lane only ever answers the
requests the Flask views would answer with the same bytes; tests/service/test_fastlane.py
checks that it does, request by request, against the Flask view.
"""

from __future__ import annotations

import io
import re
import time
from collections.abc import Callable, Iterable
from typing import Any

import orjson
from flask import Flask, Response

from ..play.auth import PLAYER_KEY_PREFIX
from ..store.games import GAME_ID_PATTERN, LiveRead
from ..watch import logs, metrics
from . import conditional, errors, jsonbody, language
from .bearer import bearer_token
from .bodylimit import TOO_LARGE
from .problems import Problem
from .schemas import MAX_VERSION, ActionSchema
from .services import services

_GAME_ROUTE = re.compile(rf"/games/({GAME_ID_PATTERN})/(moves|actions)")
MOVES_ROUTE = "/games/{game_id}/moves"
ACTIONS_ROUTE = "/games/{game_id}/actions"
# The action body's fields, from the schema that documents it: a field added there and not
# here sends its requests to Flask rather than dropping them.
_ACTION_FIELDS = frozenset(ActionSchema().fields)
_JSON_HEADERS = ("Content-Type", "application/json")

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]
# What a route's work answers: a 200's JSON body and its headers beyond the type and length
# (written straight to the server: a werkzeug Response costs a tenth of a listing's time), or a
# response of its own (a 304).
Reply = tuple[bytes, list[tuple[str, str]]] | Response


class FastLane:
    """WSGI middleware in front of the Flask app (inside ProxyFix and the body limit)."""

    def __init__(self, app: Flask, flask_app: WsgiApp) -> None:
        self.app = app
        self.flask_app = flask_app
        found = services(app)
        self.games = found.games
        self.limits = app.extensions.get("skyline.request_limits")
        settings = found.settings
        self.max_body = settings.max_body_bytes
        self.access_log = settings.access_log

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        match = _GAME_ROUTE.fullmatch(environ.get("PATH_INFO", ""))
        # A player key is Flask's: its player is read first (http.api.caller_token). A body over
        # the limit is Flask's 413, whatever the route (http.bodylimit).
        if (
            match is not None
            and PLAYER_KEY_PREFIX not in environ.get("HTTP_AUTHORIZATION", "")
            and not environ.get(TOO_LARGE)
        ):
            game_id, what = match.groups()
            method = environ["REQUEST_METHOD"]
            if what == "moves" and method == "GET":
                return self._moves(environ, start_response, game_id)
            if what == "actions" and method == "POST":
                action = self._plain_action(environ)
                if action is not None:
                    return self._act(environ, start_response, game_id, *action)
        return self.flask_app(environ, start_response)

    # ---- the two routes ---------------------------------------------------------------------
    def _moves(
        self, environ: dict[str, Any], start_response: Callable[..., Any], game_id: str
    ) -> Iterable[bytes]:
        def moves(live: LiveRead | None) -> Reply:
            authorization = environ.get("HTTP_AUTHORIZATION")
            spoken = language.current()
            body = self.games.moves_json(game_id, bearer_token(authorization), live, spoken)
            etag = conditional.entity_tag(body)
            # The validators conditional.answer gives the Flask view's reply, in its order.
            headers = [
                *language.headers(spoken).items(),
                ("ETag", etag),
                ("Cache-Control", conditional.PRIVATE if authorization is not None else conditional.SHARED),
                ("Vary", ", ".join((*conditional.BY_CALLER, *language.BY_LANGUAGE))),
            ]
            if conditional.current(environ.get("HTTP_IF_NONE_MATCH"), etag):
                return Response(status=304, headers=headers)
            return body, headers

        return self._answer(environ, start_response, MOVES_ROUTE, game_id, moves, reads=True)

    def _act(
        self,
        environ: dict[str, Any],
        start_response: Callable[..., Any],
        game_id: str,
        move: dict[str, Any],
        version: int | None,
    ) -> Iterable[bytes]:
        def act(live: LiveRead | None) -> Reply:
            token = bearer_token(environ.get("HTTP_AUTHORIZATION"))
            key = environ.get("HTTP_IDEMPOTENCY_KEY")
            applied = self.games.act(game_id, token, move, version, idempotency_key=key, live=live)
            return orjson.dumps(applied), []

        # A move on a state kept at its version reads nothing: its check goes alone.
        reads = self.limits is not None and self.games.reads_to_act(game_id, version)
        return self._answer(environ, start_response, ACTIONS_ROUTE, game_id, act, reads=reads)

    def _plain_action(self, environ: dict[str, Any]) -> tuple[dict[str, Any], int | None] | None:
        """The move and version of an ordinary action request, or None to let Flask answer it.

        A body read here is put back for Flask, which then reads it as if nobody had.
        """
        if environ.get("QUERY_STRING") or environ.get(TOO_LARGE):
            return None
        content_type = environ.get("CONTENT_TYPE", "")
        if content_type.partition(";")[0].strip().lower() != "application/json":
            return None
        key = environ.get("HTTP_IDEMPOTENCY_KEY")
        if key is not None and not 1 <= len(key) <= 128:
            return None
        length = environ.get("CONTENT_LENGTH", "")
        if not length.isdigit() or not 0 < int(length) <= self.max_body:
            return None
        data = environ["wsgi.input"].read(int(length))
        environ["wsgi.input"] = io.BytesIO(data)
        environ["CONTENT_LENGTH"] = str(len(data))
        try:
            body = jsonbody.load(data)
        except Problem:
            return None
        if type(body) is not dict or not body.keys() <= _ACTION_FIELDS or type(body.get("move")) is not dict:
            return None
        version = body.get("version")
        if version is not None and not (type(version) is int and 0 <= version <= MAX_VERSION):
            return None
        if "version" in body and version is None:
            return None  # null: the schema's error, from Flask
        return body["move"], version

    # ---- what every request gets: id, limit, metrics, access line, errors -----------------------
    def _answer(
        self,
        environ: dict[str, Any],
        start_response: Callable[..., Any],
        route: str,
        game_id: str,
        work: Callable[[LiveRead | None], Reply],
        *,
        reads: bool,
    ) -> Iterable[bytes]:
        """``work``'s reply: its bytes, as JSON with status 200, or a response of its own.
        ``reads``: the work starts with the game's read, sent in the limit's round trip and handed
        to it (None when nothing was read with the check: it reads for itself)."""
        started = time.perf_counter()
        request_id = logs.accept_request_id(environ.get("HTTP_X_REQUEST_ID"))
        bound = logs.bind_request_id(request_id)
        spoken = language.bind(language.of_environ(environ))
        metrics.request_began()
        try:
            response = None
            body = b""
            headers: list[tuple[str, str]] = []
            live = None
            try:
                if self.limits is not None:
                    path, address = environ["PATH_INFO"], environ.get("REMOTE_ADDR")
                    authorization = environ.get("HTTP_AUTHORIZATION")
                    if reads:
                        along = self.games.read_ahead(game_id)
                        response, live = self.limits.check_along(path, address, authorization, along)
                    else:
                        response = self.limits.check(path, address, authorization)
                if response is None:
                    done = work(live)
                    if isinstance(done, Response):
                        response = done
                    else:
                        body, headers = done
            except Exception as error:
                response = errors.response_for(self.app, error)
            status = 200 if response is None else response.status_code
            method = environ["REQUEST_METHOD"]
            seconds = time.perf_counter() - started
            metrics.request_answered(method, route, status, seconds)
            if self.access_log:
                logs.access_line(
                    method,
                    route,
                    environ["PATH_INFO"],
                    status,
                    seconds,
                    environ.get("REMOTE_ADDR"),
                    request_id,
                    game_id,
                )
        finally:
            metrics.request_ended()
            logs.end_request_id(bound)
            language.unbind(spoken)
        if response is not None:
            response.headers[logs.REQUEST_ID_HEADER] = request_id
            return response(environ, start_response)
        start_response(
            "200 OK",
            [
                _JSON_HEADERS,
                ("Content-Length", str(len(body))),
                *headers,
                (logs.REQUEST_ID_HEADER, request_id),
            ],
        )
        return [body]


def install(app: Flask) -> None:
    """Put the fast lane in front of the app's Flask layers (call before wrapping wsgi_app further)."""
    lane = FastLane(app, app.wsgi_app)
    app.extensions["skyline.fastlane"] = lane
    app.wsgi_app = lane  # type: ignore[method-assign]
