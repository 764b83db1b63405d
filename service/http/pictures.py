"""Pictures of a game and the playground page.

``board.svg`` and ``board.txt`` draw exactly what ``GET /games/{id}`` shows the caller (the
renderers in ``boards`` see nothing else), so a picture follows the same token rules as the
view. Their words are in the reader's language (``Accept-Language``, or ``?lang=`` for an
``<img>``, which sends no header of its own): one copy, and one ETag, per caller and language.
``/play`` is one static page that plays any title over the public API, like any client.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from importlib import resources
from typing import Any

from babel import Locale
from flask import Response
from flask.typing import ResponseReturnValue
from flask.views import MethodView
from flask_smorest import Blueprint

import boards
from engines.core import say
from engines.core.messages import catalogue

from . import conditional, language
from .api import (
    AUTH_HEADER,
    CALLERS_HEADERS,
    FIXED_HEADERS,
    GAME_ID,
    LANGUAGE_HEADER,
    LANGUAGE_QUERY,
    NOT_MODIFIED,
    caller_token,
    games,
)
from .problems import Problem

blp = Blueprint("pictures", __name__, description="Board pictures and the playground page.")

# What the page may load: itself, the API, and the board pictures it turns into blob: URLs.
PAGE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self' blob: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
# A picture is an image: it may not run or load anything, even opened directly.
PICTURE_POLICY = "default-src 'none'; style-src 'unsafe-inline'"
ASSETS = {
    "play.js": "text/javascript; charset=utf-8",
    "play.css": "text/css; charset=utf-8",
}


# OpenAPI links from a game's page to its pictures (the same seat's eyes), so clients and the
# stateful tests find them.
GAME_LINKS = {
    "GetBoardSvg": {
        "operationId": "getBoardSvg",
        "parameters": {
            "game_id": "$request.path.game_id",
            "header.Authorization": "$request.header.Authorization",
        },
    },
    "GetBoardText": {"operationId": "getBoardText", "parameters": {"game_id": "$request.path.game_id"}},
}


# A picture's words are the reader's: its Vary names the language as well as the caller.
SPOKEN_HEADERS = {
    **CALLERS_HEADERS,
    "Vary": {
        "description": "`Authorization, Accept-Language`: the caller's view, in the reader's language.",
        "schema": {"type": "string"},
    },
    "Content-Language": {"description": "The language of the picture's words.", "schema": {"type": "string"}},
}


def _picture_responses(content_type: str, description: str) -> dict[str, Any]:
    return {
        "200": {
            "description": description,
            "headers": SPOKEN_HEADERS,
            "content": {content_type: {"schema": {"type": "string"}}},
        },
        "304": {"description": NOT_MODIFIED, "headers": SPOKEN_HEADERS},
        "401": {"$ref": "#/components/responses/Unauthorized"},
        "404": {"$ref": "#/components/responses/NotFound"},
    }


PICTURE_HEADERS = {"X-Content-Type-Options": "nosniff", "Content-Security-Policy": PICTURE_POLICY}


# The Vary of a reply drawn for one caller in one reader's language (also the versions' pictures).
BY_CALLER_AND_LANGUAGE = (*conditional.BY_CALLER, *language.BY_LANGUAGE)


def _picture(game_id: str, render: Callable[[Any, str], str], content_type: str) -> Response:
    spoken = language.current()
    picture = render(games().show(game_id, caller_token()), spoken).encode()
    return conditional.reply(
        picture,
        content_type,
        vary=BY_CALLER_AND_LANGUAGE,
        headers={**PICTURE_HEADERS, **language.headers(spoken)},
    )


@blp.route("/games/<gameid:game_id>/board.svg")
class BoardSvg(MethodView):
    @blp.doc(
        operationId="getBoardSvg",
        parameters=[GAME_ID, AUTH_HEADER, LANGUAGE_HEADER, LANGUAGE_QUERY],
        responses=_picture_responses(
            "image/svg+xml", "The board as the caller's seat (or a spectator) sees it."
        ),
    )
    def get(self, game_id: str) -> ResponseReturnValue:
        """The caller's view drawn as an SVG picture: board, holdings, whose turn, the result."""
        return _picture(game_id, boards.render_svg, "image/svg+xml; charset=utf-8")


@blp.route("/games/<gameid:game_id>/board.txt")
class BoardText(MethodView):
    @blp.doc(
        operationId="getBoardText",
        parameters=[GAME_ID, AUTH_HEADER, LANGUAGE_HEADER, LANGUAGE_QUERY],
        responses=_picture_responses("text/plain", "The board as text, for a terminal."),
    )
    def get(self, game_id: str) -> ResponseReturnValue:
        """The caller's view drawn as plain text (the same facts as board.svg)."""
        return _picture(game_id, boards.render_text, "text/plain; charset=utf-8")


@functools.cache
def _static(name: str) -> tuple[bytes, str]:
    """A file of the page, with its ETag (read once: the files change only with a new release)."""
    body = resources.files("service.http").joinpath("static", "play", name).read_bytes()
    return body, conditional.entity_tag(body)


PAGE_RESPONSES = {
    "200": {
        "description": "The page.",
        "headers": FIXED_HEADERS,
        "content": {"text/html": {"schema": {"type": "string"}}},
    },
    "304": {"description": NOT_MODIFIED, "headers": FIXED_HEADERS},
}
ASSET_RESPONSES = {
    "200": {
        "description": "The playground's script or style.",
        "headers": FIXED_HEADERS,
        "content": {
            "text/javascript": {"schema": {"type": "string"}},
            "text/css": {"schema": {"type": "string"}},
        },
    },
    "304": {"description": NOT_MODIFIED, "headers": FIXED_HEADERS},
    "404": {"$ref": "#/components/responses/NotFound"},
}
ASSET_NAME = {
    "in": "path",
    "name": "asset",
    "required": True,
    "schema": {"type": "string", "enum": sorted(ASSETS)},
}


@blp.route("/play")
class Playground(MethodView):
    @blp.doc(operationId="getPlayground", responses=PAGE_RESPONSES)
    def get(self) -> ResponseReturnValue:
        """The playground: create a game of any title and play it in a browser, over this API."""
        body, etag = _static("index.html")
        headers = {
            "Content-Security-Policy": PAGE_POLICY,
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
        }
        return conditional.reply(body, "text/html; charset=utf-8", headers=headers, etag=etag)


@blp.route("/play/<asset>")
class PlaygroundAsset(MethodView):
    @blp.doc(operationId="getPlaygroundAsset", parameters=[ASSET_NAME], responses=ASSET_RESPONSES)
    def get(self, asset: str) -> ResponseReturnValue:
        """The playground's script and style sheet (plain files, no build step)."""
        if asset not in ASSETS:
            raise Problem(404, "not_found", say("service.refusal.not_found"))
        body, etag = _static(asset)
        headers = {"X-Content-Type-Options": "nosniff"}
        return conditional.reply(body, ASSETS[asset], headers=headers, etag=etag)


# ---- the page's own words: the ``playground.*`` messages of each language's catalogue ----------

WORDS_PREFIX = "playground."
# Numbers enough to meet every plural category of a language (CLDR's "many" of French: 1e6).
PLURAL_SAMPLES = (*range(200), 1_000_000)


def _by_category(forms: tuple[str, ...], spoken: str) -> dict[str, str]:
    """A plural entry's forms by CLDR category (``one``, ``many``, ``other``), the names the
    browser's ``Intl.PluralRules`` gives, rather than by gettext's index."""
    category = Locale.parse(spoken).plural_form
    index = catalogue(spoken).plural_index
    chosen: dict[str, str] = {}
    for n in PLURAL_SAMPLES:
        chosen.setdefault(category(n), forms[min(index(n), len(forms) - 1)])
    return chosen


@functools.cache
def _words(spoken: str) -> tuple[bytes, str]:
    """The page's words in ``spoken`` and the languages it can switch to, with its ETag."""
    sentences = catalogue(spoken).sentences
    words = {
        key.removeprefix(WORDS_PREFIX): (
            _by_category(sentence, spoken) if isinstance(sentence, tuple) else sentence
        )
        for key, sentence in sentences.items()
        if key.startswith(WORDS_PREFIX)
    }
    # Each language by its own name, as a reader of it looks for it in the switch.
    names = {
        other: str(catalogue(other).sentences["playground.language.name"]) for other in language.SUPPORTED
    }
    body = json.dumps(
        {"language": spoken, "languages": names, "words": words}, ensure_ascii=False, sort_keys=True
    ).encode()
    return body, conditional.entity_tag(body)


WORDS_RESPONSES = {
    "200": {
        "description": "The page's words in the reader's language: `words` by id (a plural one by "
        "CLDR category, `one`, `many`, `other`, with `{count}`), and `languages`, each shipped "
        "language by its own name.",
        "headers": {
            **FIXED_HEADERS,
            "Content-Language": {"description": "The language of the words.", "schema": {"type": "string"}},
            "Vary": {"description": "`Accept-Language`.", "schema": {"type": "string"}},
        },
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "required": ["language", "languages", "words"],
                    "properties": {
                        "language": {"type": "string"},
                        "languages": {"type": "object", "additionalProperties": {"type": "string"}},
                        "words": {
                            "type": "object",
                            "additionalProperties": {
                                "oneOf": [
                                    {"type": "string"},
                                    {"type": "object", "additionalProperties": {"type": "string"}},
                                ]
                            },
                        },
                    },
                }
            }
        },
    },
    "304": {"description": NOT_MODIFIED, "headers": FIXED_HEADERS},
}


@blp.route("/play/words.json")
class PlaygroundWords(MethodView):
    @blp.doc(
        operationId="getPlaygroundWords",
        parameters=[LANGUAGE_HEADER, LANGUAGE_QUERY],
        responses=WORDS_RESPONSES,
    )
    def get(self) -> ResponseReturnValue:
        """The playground's own words (headings, buttons, statuses) in the reader's language."""
        spoken = language.current()
        body, etag = _words(spoken)
        return conditional.reply(body, etag=etag, vary=language.BY_LANGUAGE, headers=language.headers(spoken))
