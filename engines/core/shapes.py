"""Is a move shaped like a move of the game? Checked against the game's own move schema.

The shape of a move is its ``type``, which fields it has and what kind of JSON value each
holds (a string, a whole number, true/false, a list of two...): the game's published
``moves.schema.json`` with the value ranges left out (``structural``). A move of the wrong
shape is refused the same way in every game: ``InvalidMove``, code ``malformed_move``, a
sentence naming the field. A value of the right kind outside the game's range (avenue 0, a
card that does not exist, a bid below the opening one) is a rule's business and keeps the
rule's own code.

The engines carry no runtime dependency, so this reads the small part of JSON Schema the
move schemas use; a keyword outside it raises, so a schema cannot silently outgrow the
check. The conformance suite compares every verdict with jsonschema-rs on the same
structural schema, over many bad moves.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from .messages import Message, say

Schema = dict[str, Any]

_ANNOTATIONS = {"$schema", "$comment", "title", "description", "$defs", "default", "examples"}

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    # Stricter than JSON Schema, which lets 1.0 be an integer: moves are read exactly
    # (``move_key``), so 1.0 is never the listed 1.
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "null": lambda v: v is None,
}


@lru_cache(maxsize=256)
def _pattern(text: str) -> re.Pattern[str]:
    return re.compile(text)


def _same(a: object, b: object) -> bool:
    """Exact equality, as moves are compared: true is not 1, and 1.0 is not 1."""
    if isinstance(a, (bool, float)) or isinstance(b, (bool, float)):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def _where(path: tuple[Any, ...]) -> str | Message:
    """Where in the move: a JSON path (``.district``, ``.pay.king``), a code in every language."""
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path) or say("core.shape.the_move")


def _either(kinds: list[str]) -> str | Message:
    said: str | Message = kinds[-1]
    for kind in reversed(kinds[:-1]):
        said = say("core.shape.either", first=kind, rest=said)
    return said


def shape_error(
    schema: Schema, value: Any, root: Schema | None = None, path: tuple[Any, ...] = ()
) -> Message | None:
    """Return why ``value`` does not fit ``schema`` (a message), or None when it does."""
    root = schema if root is None else root
    for key, want in schema.items():
        if key in _ANNOTATIONS or key in ("properties", "additionalProperties", "minimum", "maximum"):
            continue
        if key == "$ref":
            if not want.startswith("#/"):
                raise ValueError(f"only local references are read, not {want!r}")
            target: Any = root
            for part in want[2:].split("/"):
                target = target[part]
            found = shape_error(target, value, root, path)
        elif key == "type":
            kinds = want if isinstance(want, list) else [want]
            found = (
                None
                if any(_TYPES[k](value) for k in kinds)
                else say("core.shape.must_be_kind", where=_where(path), kinds=_either(kinds))
            )
        elif key == "const":
            found = (
                None
                if _same(value, want)
                else say("core.shape.must_be", where=_where(path), value=repr(want))
            )
        elif key == "enum":
            found = (
                None
                if any(_same(value, w) for w in want)
                else say("core.shape.must_be_one_of", where=_where(path), values=repr(want))
            )
        elif key == "pattern":
            found = (
                None
                if not isinstance(value, str) or _pattern(want).search(value)
                else say("core.shape.not_a_name", where=_where(path), value=repr(value))
            )
        elif key == "required":
            missing = [k for k in want if isinstance(value, dict) and k not in value]
            found = (
                say("core.shape.lacks_field", where=_where(path), field=repr(missing[0])) if missing else None
            )
        elif key == "items":
            found = None
            if isinstance(value, list):
                for i, item in enumerate(value):
                    found = shape_error(want, item, root, (*path, i))
                    if found:
                        break
        elif key in ("minItems", "maxItems"):
            size = len(value) if isinstance(value, list) else None
            bad = size is not None and (size < want if key == "minItems" else size > want)
            found = say(f"core.shape.{key}", where=_where(path), number=str(want)) if bad else None
        elif key == "oneOf":
            found = _one_of(want, value, root, path)
        elif key == "anyOf":
            errors = [shape_error(branch, value, root, path) for branch in want]
            found = None if any(e is None for e in errors) else errors[0]
        elif key == "if":
            # A condition and its two outcomes (New York's line: an avenue, else a street).
            outcome = "then" if shape_error(want, value, root, path) is None else "else"
            found = shape_error(schema[outcome], value, root, path) if outcome in schema else None
        elif key in ("then", "else"):
            continue  # read with "if"
        elif key == "not":
            found = (
                say("core.shape.field_combination", where=_where(path))
                if shape_error(want, value, root, path) is None
                else None
            )
        else:
            raise ValueError(f"the move schema uses {key!r}, which shapes.py does not read")
        if found:
            return found
    return _number_error(schema, value, path) or _object_error(schema, value, root, path)


def _number_error(schema: Schema, value: Any, path: tuple[Any, ...]) -> Message | None:
    if not _TYPES["number"](value):
        return None
    if "minimum" in schema and value < schema["minimum"]:
        return say("core.shape.minimum", where=_where(path), bound=str(schema["minimum"]))
    if "maximum" in schema and value > schema["maximum"]:
        return say("core.shape.maximum", where=_where(path), bound=str(schema["maximum"]))
    return None


def _object_error(schema: Schema, value: Any, root: Schema, path: tuple[Any, ...]) -> Message | None:
    if not isinstance(value, dict):
        return None
    properties = schema.get("properties", {})
    for name, sub in properties.items():
        if name in value:
            found = shape_error(sub, value[name], root, (*path, name))
            if found:
                return found
    extra = schema.get("additionalProperties", True)
    if extra is False:
        unknown = sorted(k for k in value if k not in properties)
        if unknown:
            return say("core.shape.unknown_field", where=_where(path), field=repr(unknown[0]))
    elif isinstance(extra, dict):
        for name in sorted(k for k in value if k not in properties):
            found = shape_error(extra, value[name], root, (*path, name))
            if found:
                return found
    return None


def _one_of(branches: list[Schema], value: Any, root: Schema, path: tuple[Any, ...]) -> Message | None:
    errors = [shape_error(branch, value, root, path) for branch in branches]
    fits = errors.count(None)
    if fits == 1:
        return None
    if fits > 1:
        return say("core.shape.more_than_one_form", where=_where(path))
    # The branch for the move's own type says best what is wrong.
    kind = value.get("type") if isinstance(value, dict) else None
    for branch, error in zip(branches, errors, strict=True):
        if branch.get("properties", {}).get("type", {}).get("const") == kind:
            return error
    return errors[0]


# Keywords that bound a value rather than give its kind.
_RANGE_KEYWORDS = {"enum", "pattern", "minimum", "maximum"}


def _kind_of(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return {str: "string", float: "number", list: "array", dict: "object"}.get(type(value), "null")


def structural(schema: Any, discriminator: bool = False) -> Any:
    """The schema without its value ranges: an ``enum`` becomes the kind of its values, and
    ``pattern``, ``minimum`` and ``maximum`` go. The ``const`` of a move's ``type`` stays:
    it says which fields the move has."""
    if isinstance(schema, list):
        return [structural(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _RANGE_KEYWORDS:
            continue
        if key == "properties":
            out[key] = {name: structural(sub, discriminator=name == "type") for name, sub in value.items()}
        elif key == "const" and not discriminator:
            out["type"] = _kind_of(value)
        else:
            out[key] = structural(value)
    if "enum" in schema and "type" not in out:
        kinds = sorted({_kind_of(v) for v in schema["enum"]})
        out["type"] = kinds[0] if len(kinds) == 1 else kinds
    return out


def move_shape_error(schema: Schema, move: Any) -> Message | None:
    """Return a message saying how ``move`` breaks ``schema`` (the game's structural move
    schema), or None."""
    error = shape_error(schema, move)
    if error is None:
        return None
    kind = move.get("type") if isinstance(move, dict) else None
    if kind:
        return say("core.shape.not_well_formed", type=str(kind), error=error)
    return say("core.shape.not_a_move", error=error)
