"""Any version of a game: ``GET /games/{id}/versions/{n}`` and its pictures.

A version never changes once made, so its replies are immutable: a strong ETag of the bytes and
``Cache-Control: ... immutable``, public only where every caller gets the same bytes (a
spectator's read, a finished game's ``?seat=``), private for a seat token's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

import boards
from engines.core import say

from ..play.auth import PlayerCredential
from ..play.versions import Versions
from . import conditional, language
from .api import (
    AUTH_HEADER,
    GAME_ID,
    LANGUAGE_HEADER,
    NOT_MODIFIED,
    caller_token,
    query_parameters,
)
from .pictures import BY_CALLER_AND_LANGUAGE, PICTURE_HEADERS
from .problems import Problem
from .schemas import MAX_VERSION, LanguageQuerySchema
from .services import services

blp = Blueprint("versions", __name__, description="Any version of a game, as it stood then.")

VERSION = {
    "in": "path",
    "name": "n",
    "required": True,
    "schema": {"type": "integer", "minimum": 0, "maximum": MAX_VERSION},
    "description": "The version: 0 is the game as created, n the game after its n-th log entry.",
}
_ETAG = {"description": "A strong tag of these bytes (they never change).", "schema": {"type": "string"}}
IMMUTABLE_HEADERS = {
    "ETag": _ETAG,
    "Cache-Control": {
        "description": "`public, max-age=31536000, immutable` for a spectator's read or a finished "
        "game's `?seat=`; `private, max-age=31536000, immutable` with a seat token.",
        "schema": {"type": "string"},
    },
    "Vary": {"description": "`Authorization`: the reply is the caller's.", "schema": {"type": "string"}},
}
# From a game's page to the version it shows, with the same eyes (the typed client and the
# stateful tests find the route through it).
GAME_LINKS = {
    "GetGameVersion": {
        "operationId": "getGameVersion",
        "parameters": {
            "game_id": "$request.path.game_id",
            "n": "$response.body#/version",
            "header.Authorization": "$request.header.Authorization",
        },
    },
}


class VersionQuerySchema(Schema):
    seat = fields.Integer(
        validate=validate.Range(min=0, max=MAX_VERSION),
        metadata={
            "description": "Once the game is finished: this seat's view, to anyone, whatever the "
            "credential (refused while it runs, but for a player key naming one of its own seats)."
        },
    )


def versions() -> Versions:
    return services().versions


def _version_number(text: str) -> int:
    if not text.isascii() or not text.isdigit() or int(text) > MAX_VERSION:
        raise Problem(
            422,
            "invalid_version",
            say("service.refusal.invalid_version.version_whole_number_from", max_version=str(MAX_VERSION)),
        )
    return int(text)


def _shown(game_id: str, n: str, seat: int | None) -> tuple[dict[str, Any], bool]:
    token = caller_token()
    if seat is None and isinstance(token, PlayerCredential):
        # A player key's ``?seat=`` was taken aside (players_api.PlayerKeyLayer) as the seat it
        # names; here ``seat`` is a finished game's public view, whatever the credential.
        seat = token.seat
    return versions().show(game_id, _version_number(n), token, seat)


def _reply(
    body: bytes,
    content_type: str,
    public: bool,
    headers: dict[str, str] | None = None,
    vary: tuple[str, ...] = conditional.BY_CALLER,
) -> Response:
    return conditional.reply(
        body,
        content_type,
        vary=vary,
        headers=headers,
        cache_control=conditional.IMMUTABLE_PUBLIC if public else conditional.IMMUTABLE_PRIVATE,
    )


# A picture's words are the reader's: a copy per caller and language.
SPOKEN_HEADERS = {
    **IMMUTABLE_HEADERS,
    "Vary": {
        "description": "`Authorization, Accept-Language`: the caller's view, in the reader's language.",
        "schema": {"type": "string"},
    },
    "Content-Language": {"description": "The language of the picture's words.", "schema": {"type": "string"}},
}


def _responses(
    content_type: str, description: str, schema: dict[str, Any], headers: dict[str, Any] = IMMUTABLE_HEADERS
) -> dict[str, Any]:
    return {
        "200": {
            "description": description,
            "headers": headers,
            "content": {content_type: {"schema": schema}},
        },
        "304": {"description": NOT_MODIFIED, "headers": headers},
        "401": {"$ref": "#/components/responses/Unauthorized"},
        "404": {"$ref": "#/components/responses/NotFound"},
        "409": {"$ref": "#/components/responses/Conflict"},
        "422": {"$ref": "#/components/responses/UnprocessableContent"},
    }


class VersionPictureQuerySchema(VersionQuerySchema, LanguageQuerySchema):
    """A past version's picture also takes ``?lang=`` (an ``<img>`` sends no Accept-Language)."""


VERSION_QUERY = VersionQuerySchema()
PICTURE_QUERY = VersionPictureQuerySchema()
PARAMETERS = [GAME_ID, VERSION, AUTH_HEADER, query_parameters(VERSION_QUERY)]
PICTURE_PARAMETERS = [GAME_ID, VERSION, AUTH_HEADER, query_parameters(PICTURE_QUERY), LANGUAGE_HEADER]


@blp.route("/games/<gameid:game_id>/versions/<n>")
class GameVersion(MethodView):
    @blp.arguments(VERSION_QUERY, location="query")
    @blp.doc(
        operationId="getGameVersion",
        parameters=PARAMETERS,
        responses=_responses(
            "application/json",
            "The game at that version as the caller saw it then, with the entry that made it.",
            {"$ref": "#/components/schemas/GameVersion"},
        ),
        security=[{}, {"seatToken": []}],
    )
    def get(self, query: dict[str, Any], game_id: str, n: str) -> Response:
        """The game as it stood at version n, as the caller's seat (or a spectator) saw it then."""
        shown, public = _shown(game_id, n, query.get("seat"))
        return _reply(orjson.dumps(shown), "application/json", public)


def _picture(
    game_id: str, n: str, seat: int | None, render: Callable[[dict[str, Any], str], str], content_type: str
) -> Response:
    """A past version's picture, in the reader's language (a copy per language, each immutable)."""
    shown, public = _shown(game_id, n, seat)
    spoken = language.current()
    headers = {**PICTURE_HEADERS, **language.headers(spoken)}
    return _reply(render(shown, spoken).encode(), content_type, public, headers, BY_CALLER_AND_LANGUAGE)


@blp.route("/games/<gameid:game_id>/versions/<n>/board.svg")
class VersionBoardSvg(MethodView):
    @blp.arguments(PICTURE_QUERY, location="query")
    @blp.doc(
        operationId="getGameVersionBoardSvg",
        parameters=PICTURE_PARAMETERS,
        responses=_responses(
            "image/svg+xml",
            "The board at that version, as the caller saw it.",
            {"type": "string"},
            SPOKEN_HEADERS,
        ),
        security=[{}, {"seatToken": []}],
    )
    def get(self, query: dict[str, Any], game_id: str, n: str) -> Response:
        """The board at version n drawn as an SVG picture, with the caller's eyes of then."""
        return _picture(game_id, n, query.get("seat"), boards.render_svg, "image/svg+xml; charset=utf-8")


@blp.route("/games/<gameid:game_id>/versions/<n>/board.txt")
class VersionBoardText(MethodView):
    @blp.arguments(PICTURE_QUERY, location="query")
    @blp.doc(
        operationId="getGameVersionBoardText",
        parameters=PICTURE_PARAMETERS,
        responses=_responses(
            "text/plain", "The board at that version as text.", {"type": "string"}, SPOKEN_HEADERS
        ),
        security=[{}, {"seatToken": []}],
    )
    def get(self, query: dict[str, Any], game_id: str, n: str) -> Response:
        """The board at version n drawn as plain text (the same facts as its board.svg)."""
        return _picture(game_id, n, query.get("seat"), boards.render_text, "text/plain; charset=utf-8")
