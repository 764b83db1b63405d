"""Request bodies: one policy for every route, and parsed strictly, with bounds.

Which body a route reads is the contract's: an operation with a ``requestBody`` reads one,
declared JSON (``application/json``, or a ``+json`` type; parameters such as ``charset`` aside).
Any other body sent to it, a form, text, or one with no Content-Type, is refused with 415
``unsupported_media_type`` before anything reads it: not taken as no fields at all (a join's
first open seat instead of the one asked, a webhook's "url: Missing data"). An empty body with
no type is no body: a route whose body is optional (a join) reads it as ``{}``, one whose body
is required refuses it with the same 415. A route that reads no body ignores whatever is sent.
The fast lane only ever answers a body declared ``application/json``, and leaves the rest to Flask.

Any body the service cannot hold is a 400.

webargs parses JSON with the standard library, which accepts what the rest of the service
cannot hold: nesting deep enough to exhaust the interpreter's stack (a 500), lone UTF-16
surrogates (``"\\ud800"``), which no UTF-8 encoder takes (a 500 when a name is stored, or an
unknown field named in a 422), and ``NaN``/``Infinity``, which are not JSON. orjson refuses
all of these at the parse, and the depth is bounded here well below its own limit (1,024)
because the store's encoder gives up past 254 levels. Numbers past 64 bits are read as
floats, as JavaScript does; integer fields are strict, so they refuse them (422).
"""

from __future__ import annotations

import re
from typing import Any

import flask
import orjson
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request
from werkzeug.exceptions import UnsupportedMediaType

from engines.core import say

from .problems import Problem

# No valid body comes near: a move or a game's options are a few levels deep.
MAX_DEPTH = 64


_CONTAINERS = (dict, list)


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether ``value`` nests arrays and objects more than ``limit`` levels (walked level by
    level, without recursion)."""
    level = [value] if isinstance(value, _CONTAINERS) else []
    for _ in range(limit):
        deeper: list[Any] = []
        for node in level:
            children = node.values() if isinstance(node, dict) else node
            deeper += [child for child in children if isinstance(child, _CONTAINERS)]
        if not deeper:
            return False
        level = deeper
    return True


def load(data: bytes) -> Any:
    """The JSON value of ``data``, or a 400 Problem saying why there is none."""
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as error:
        raise _refusal(str(error)) from None
    # Each level opens a bracket: a body with few brackets needs no walk.
    if data.count(b"[") + data.count(b"{") > MAX_DEPTH and too_deep(value):
        raise _too_deep()
    return value


def _too_deep() -> Problem:
    return Problem(
        400,
        "json_too_deep",
        say("service.refusal.json_too_deep.body_nests_arrays_objects", max_depth=str(MAX_DEPTH)),
    )


def _refusal(reason: str) -> Problem:
    if reason.startswith("depth limit exceeded"):
        return _too_deep()
    if "surrogate" in reason or reason.startswith("str is not valid UTF-8"):
        return Problem(
            400,
            "invalid_unicode",
            say("service.refusal.invalid_unicode.body_valid_utf_text"),
        )
    if "infinity" in reason:  # orjson: a number past a double's range (about 1.8e308)
        return Problem(
            400, "number_out_of_range", say("service.refusal.number_out_of_range.number_body_too_large")
        )
    return Problem(
        400, "malformed_json", say("service.refusal.malformed_json.body_valid_json", reason=str(reason))
    )


class BoundedJsonParser(FlaskParser):
    """webargs' Flask parser, reading JSON bodies with :func:`load`."""

    def _raw_load_json(self, req: flask.Request) -> Any:
        if not is_json_request(req):
            return core.missing
        data = req.get_data(cache=True)
        if not data:
            return core.missing  # as webargs: the schema then says which fields are required
        return load(data)


PARSER = BoundedJsonParser()


_FLASK_VARIABLE = re.compile(r"<(?:[^<>:]+:)?([^<>]+)>")


def contract_path(rule: str) -> str:
    """The contract's path of a Flask rule: ``/games/<game_id>`` is ``/games/{game_id}``."""
    return _FLASK_VARIABLE.sub(r"{\1}", rule)


def bodies_read(paths: dict[str, dict[str, Any]]) -> dict[tuple[str, str], bool]:
    """(path, METHOD) of every operation of the contract that reads a body -> is it required."""
    return {
        (path, method.upper()): bool(operation["requestBody"].get("required"))
        for path, operations in paths.items()
        for method, operation in operations.items()
        if isinstance(operation, dict) and "requestBody" in operation
    }


def refuse_bodies_not_json(app: flask.Flask, paths: dict[str, dict[str, Any]]) -> None:
    """Hold every route to the policy above (call once the contract's paths are complete)."""
    in_contract = bodies_read(paths)
    # By Flask's rule, as a request knows its route.
    reads = {
        (rule.rule, method): in_contract[(contract_path(rule.rule), method)]
        for rule in app.url_map.iter_rules()
        for method in rule.methods or ()
        if (contract_path(rule.rule), method) in in_contract
    }

    @app.before_request
    def _refuse_a_body_not_declared_json() -> None:
        request = flask.request
        if request.url_rule is None:
            return
        required = reads.get((request.url_rule.rule, request.method))
        if required is None or is_json_request(request):
            return
        if required or request.get_data(cache=True):
            raise UnsupportedMediaType()
