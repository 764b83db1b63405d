"""Request bodies parsed strictly, with bounds: any body the service cannot hold is a 400.

webargs parses JSON with the standard library, which accepts what the rest of the service
cannot hold: nesting deep enough to exhaust the interpreter's stack (a 500), lone UTF-16
surrogates (``"\\ud800"``), which no UTF-8 encoder takes (a 500 when a name is stored, or an
unknown field named in a 422), and ``NaN``/``Infinity``, which are not JSON. orjson refuses
all of these at the parse, and the depth is bounded here well below its own limit (1,024)
because the store's encoder gives up past 254 levels. Numbers past 64 bits are read as
floats, as JavaScript does; integer fields are strict, so they refuse them (422).
"""

from __future__ import annotations

from typing import Any

import flask
import orjson
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request

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
        400, "json_too_deep", f"The body nests arrays and objects more than {MAX_DEPTH} levels deep."
    )


def _refusal(reason: str) -> Problem:
    if reason.startswith("depth limit exceeded"):
        return _too_deep()
    if "surrogate" in reason or reason.startswith("str is not valid UTF-8"):
        return Problem(
            400,
            "invalid_unicode",
            "The body is not valid UTF-8 text: it holds invalid bytes or a lone UTF-16 surrogate "
            "(\\ud800-\\udfff without its pair).",
        )
    if "infinity" in reason:  # orjson: a number past a double's range (about 1.8e308)
        return Problem(
            400, "number_out_of_range", "A number in the body is too large to be held (past about 1.8e308)."
        )
    return Problem(400, "malformed_json", f"The body is not valid JSON ({reason}).")


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
