"""Every constraint the service enforces on a request body or query is in the contract.

The routes' marshmallow schemas (``blp.arguments``) are walked field by field, validator by
validator, and each is looked for in the generated document, where the route's body or query
is described: ``required``, the JSON type (and null only where the field allows it),
``minimum``/``maximum`` for a ``Range``, ``minLength``/``maxLength`` (``minItems``/``maxItems``
for a list) for a ``Length``, ``enum`` for a ``OneOf``, ``pattern`` for a ``Regexp``,
``additionalProperties: false`` where unknown fields are refused, and the same again inside
nested schemas and list items. The contract may be stricter than the schema (the body of POST
/games is a union of per-title variants: a title's own seat counts, its title as a constant),
never looser. A validator or field type this test does not know is a failure: teach it.

The second test drops one constraint at a time from the document and sees each missed.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from marshmallow import RAISE, Schema, ValidationError, fields, validate

from engines import registry
from service.config import Settings
from service.http.components import AnyTitle, Component, ComponentField, component_name
from service.http.services import parts
from skyline.web import document_app


def contract_app() -> Any:
    """The app as `skyline openapi` builds it for its contract: without touching Redis."""
    return document_app(Settings.from_env())


APP = contract_app()
SPEC: dict[str, Any] = parts(APP).api.spec.to_dict()
REF = "#/components/schemas/"

# The JSON type each field reads, most specific class first (a subclass reads as its base).
JSON_TYPES: list[tuple[type[fields.Field], str]] = [
    (fields.Boolean, "boolean"),
    (fields.Integer, "integer"),
    (fields.Float, "number"),
    (fields.String, "string"),
    (fields.List, "array"),
    (fields.Dict, "object"),
    (fields.Nested, "object"),
]


@dataclass(frozen=True)
class Argument:
    """A request schema as a route reads it."""

    operation: str  # METHOD path
    location: str  # json or query
    schema: Schema
    required: bool


def openapi_path(rule: str) -> str:
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule)


def arguments(app: Any) -> Iterator[Argument]:
    for rule in app.url_map.iter_rules():
        view = app.view_functions[rule.endpoint]
        view_class = getattr(view, "view_class", None)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            handler = getattr(view_class, method.lower(), None) if view_class else view
            documented = getattr(handler, "_apidoc", {}).get("arguments", {})
            for argument in documented.get("parameters", []):
                yield Argument(
                    f"{method} {openapi_path(rule.rule)}",
                    argument["in"],
                    argument["schema"],
                    argument["required"],
                )


def resolve(spec: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = spec["components"]["schemas"][node["$ref"].removeprefix(REF)]
    return node


def json_types(node: dict[str, Any]) -> set[str]:
    declared = node.get("type")
    return set(declared) if isinstance(declared, list) else {declared} if declared else set()


def enumerated(node: dict[str, Any]) -> list[Any] | None:
    """The values a property is restricted to, if it is (``const`` or ``enum``)."""
    if "const" in node:
        return [node["const"]]
    return node.get("enum")


def passes(validator: Any, value: Any) -> bool:
    try:
        validator(value)
    except ValidationError:
        return False
    return True


def _bound(keyword: str, value: Any, inclusive: bool) -> str:
    return f"{keyword} {value} ({'inclusive' if inclusive else 'exclusive'})"


def bound_problems(
    where: str,
    node: dict[str, Any],
    low: Any,
    high: Any,
    keywords: tuple[str, str],
    inclusive: tuple[bool, bool],
) -> Iterator[str]:
    """The document's bounds must be at least as tight as the validator's."""
    low_keyword, high_keyword = keywords
    if low is not None:
        exclusive = f"exclusive{low_keyword[:1].upper()}{low_keyword[1:]}"
        if low_keyword in node:
            tight = node[low_keyword] >= low if inclusive[0] else node[low_keyword] > low
        else:
            tight = exclusive in node and node[exclusive] >= low
        if not tight:
            yield f"{where}: {_bound(low_keyword, low, inclusive[0])} is not in the contract"
    if high is not None:
        exclusive = f"exclusive{high_keyword[:1].upper()}{high_keyword[1:]}"
        if high_keyword in node:
            tight = node[high_keyword] <= high if inclusive[1] else node[high_keyword] < high
        else:
            tight = exclusive in node and node[exclusive] <= high
        if not tight:
            yield f"{where}: {_bound(high_keyword, high, inclusive[1])} is not in the contract"


def validator_problems(
    where: str, field: fields.Field, validator: Any, node: dict[str, Any]
) -> Iterator[str]:
    values = enumerated(node)
    if values is not None and all(passes(validator, value) for value in values):
        return  # the contract allows only values the validator accepts
    if isinstance(validator, validate.Range):
        yield from bound_problems(
            where,
            node,
            validator.min,
            validator.max,
            ("minimum", "maximum"),
            (validator.min_inclusive, validator.max_inclusive),
        )
    elif isinstance(validator, validate.Length):
        keywords = ("minItems", "maxItems") if isinstance(field, fields.List) else ("minLength", "maxLength")
        low = validator.equal if validator.equal is not None else validator.min
        high = validator.equal if validator.equal is not None else validator.max
        yield from bound_problems(where, node, low, high, keywords, (True, True))
    elif isinstance(validator, validate.OneOf):
        if values is None:
            yield f"{where}: enum {list(validator.choices)} is not in the contract"
        else:
            yield f"{where}: the contract's enum {values} allows what the service refuses"
    elif isinstance(validator, validate.Regexp):
        if validator.regex.flags & ~re.UNICODE:
            yield f"{where}: a pattern with flags cannot be written in the contract"
        elif node.get("pattern") != validator.regex.pattern:
            yield f"{where}: pattern {validator.regex.pattern!r} is not in the contract"
    else:
        yield f"{where}: a validator this test does not know ({validator!r}): teach it"


def field_problems(
    spec: dict[str, Any], where: str, field: fields.Field, documented: dict[str, Any]
) -> Iterator[str]:
    if isinstance(field, ComponentField):
        # A JSON object whose content is a title's to judge: the contract names its components.
        if isinstance(field, Component):
            names = [field.component]
        elif isinstance(field, AnyTitle):
            names = [component_name(game_id, field.part) for game_id in sorted(registry.GAMES)]
        else:
            yield f"{where}: a component field this test does not know ({type(field).__name__})"
            return
        branches = documented.get("anyOf") or documented.get("oneOf") or [documented]
        refs = [branch["$ref"].removeprefix(REF) for branch in branches if "$ref" in branch]
        if refs != names:
            yield f"{where}: the contract names {refs}, the field {names}"
        return
    node = resolve(spec, documented)
    if "oneOf" in node and "type" not in node:
        for index, branch in enumerate(node["oneOf"]):
            yield from field_problems(spec, f"{where}/oneOf/{index}", field, branch)
        return
    expected = next((kind for cls, kind in JSON_TYPES if isinstance(field, cls)), None)
    if expected is None:
        yield f"{where}: a field type this test does not know ({type(field).__name__}): teach it"
        return
    types = json_types(node)
    if expected not in types:
        yield f"{where}: type {expected} is not in the contract ({sorted(types)})"
    if "null" in types and not field.allow_none:
        yield f"{where}: the contract allows null, the service refuses it"
    if field.allow_none and "null" not in types:
        yield f"{where}: the service takes null, the contract does not say so"
    for validator in field.validators:
        yield from validator_problems(where, field, validator, node)
    if isinstance(field, fields.Nested):
        yield from object_problems(spec, where, field.schema, node)
    elif isinstance(field, fields.List):
        if "items" not in node:
            yield f"{where}: the items are not described"
        else:
            yield from field_problems(spec, f"{where}/items", field.inner, node["items"])


def object_problems(
    spec: dict[str, Any], where: str, schema: Schema, documented: dict[str, Any]
) -> Iterator[str]:
    node = resolve(spec, documented)
    if node.get("type") != "object":
        yield f"{where}: not an object in the contract"
        return
    if schema.unknown == RAISE and node.get("additionalProperties") is not False:
        yield f"{where}: unknown fields are refused, the contract allows them"
    yield from members_problems(
        spec, f"{where}/", schema, node.get("properties", {}), set(node.get("required", []))
    )


def members_problems(
    spec: dict[str, Any], where: str, schema: Schema, documented: dict[str, Any], required: set[str]
) -> Iterator[str]:
    """The fields of ``schema`` against the contract's ``documented`` properties or parameters."""
    read = {field.data_key or name: field for name, field in schema.load_fields.items()}
    for name in sorted(set(documented) - set(read)):
        yield f"{where}{name}: in the contract, not read by the service"
    for name, field in read.items():
        if name not in documented:
            yield f"{where}{name}: read by the service, not in the contract"
            continue
        if field.required and name not in required:
            yield f"{where}{name}: required by the service, optional in the contract"
        yield from field_problems(spec, f"{where}{name}", field, documented[name])


def argument_problems(spec: dict[str, Any], argument: Argument) -> Iterator[str]:
    method, path = argument.operation.split(" ", 1)
    operation = spec["paths"][path][method.lower()]
    where = f"{argument.operation} ({argument.location})"
    if argument.location == "json":
        body = operation.get("requestBody")
        if body is None:
            yield f"{where}: no request body in the contract"
            return
        if body.get("required", False) != argument.required:
            yield f"{where}: the body's `required` is {argument.required} in the service"
        documented = resolve(spec, body["content"]["application/json"]["schema"])
        variants = documented["oneOf"] if "oneOf" in documented else [documented]
        for variant in variants:
            name = variant.get("$ref", "").removeprefix(REF) or "body"
            yield from object_problems(spec, f"{where} {name}", argument.schema, variant)
    elif argument.location == "query":
        parameters = [p for p in operation.get("parameters", []) if p["in"] == "query"]
        documented = {p["name"]: p["schema"] for p in parameters}
        required = {p["name"] for p in parameters if p.get("required")}
        yield from members_problems(spec, f"{where} ", argument.schema, documented, required)
    else:
        yield f"{where}: a location this test does not know"


def problems(spec: dict[str, Any]) -> list[str]:
    return [problem for argument in arguments(APP) for problem in argument_problems(spec, argument)]


def test_every_request_constraint_the_service_enforces_is_in_the_contract():
    read = {(a.operation, a.location, type(a.schema).__name__) for a in arguments(APP)}
    # The walk finds the routes' schemas (so that an empty walk cannot pass).
    assert {
        ("POST /games", "json", "CreateGameSchema"),
        ("POST /games/{game_id}/actions", "json", "ActionSchema"),
        ("POST /games/{game_id}/actions", "query", "ActionQuerySchema"),
        ("GET /games/{game_id}/events", "query", "EventsQuerySchema"),
        ("GET /games/{game_id}/versions/{n}", "query", "VersionQuerySchema"),
        ("POST /games/{game_id}/join", "json", "JoinSchema"),
        ("PUT /games/{game_id}/webhook", "json", "SeatWebhookRequestSchema"),
        ("PUT /players/me/webhook", "json", "PlayerWebhookRequestSchema"),
        ("GET /lobby", "query", "LobbyQuerySchema"),
        ("GET /players/me/games", "query", "MyGamesQuerySchema"),
    } <= read
    assert problems(SPEC) == []


def _property(spec: dict[str, Any], component: str, *path: str) -> dict[str, Any]:
    node = spec["components"]["schemas"][component]
    for name in path:
        node = resolve(spec, node)["properties"][name] if name != "items" else node["items"]
    return node


def _query(spec: dict[str, Any], path: str, method: str, name: str) -> dict[str, Any]:
    parameters = spec["paths"][path][method]["parameters"]
    return next(p for p in parameters if p["in"] == "query" and p["name"] == name)


DROPS = {
    "ActionRequest.version maximum": lambda s: _property(s, "ActionRequest", "version").pop("maximum"),
    "ActionRequest required move": lambda s: s["components"]["schemas"]["ActionRequest"].pop("required"),
    "ActionRequest extra fields": lambda s: s["components"]["schemas"]["ActionRequest"].pop(
        "additionalProperties"
    ),
    "SeatRequest.name maxLength": lambda s: _property(s, "SeatRequest", "name").pop("maxLength"),
    "SeatRequest.kind enum": lambda s: _property(s, "SeatRequest", "kind").pop("enum"),
    "SeatRequest.player pattern": lambda s: _property(s, "SeatRequest", "player").pop("pattern"),
    "GameClock.turn_seconds minimum": lambda s: _property(s, "GameClock", "turn_seconds").pop("minimum"),
    "a variant's seats maxItems": lambda s: _property(s, "PropertyCreateGameRequest", "seats").pop(
        "maxItems"
    ),
    "a variant's webhooks' events minItems": lambda s: _property(s, "WebhookRequest", "events").pop(
        "minItems"
    ),
    "Join.seat type": lambda s: _property(s, "Join", "seat").update(type="number"),
    "?since maximum": lambda s: _query(s, "/games/{game_id}/events", "get", "since")["schema"].pop("maximum"),
    "?seat of a version maximum": lambda s: _query(s, "/games/{game_id}/versions/{n}", "get", "seat")[
        "schema"
    ].pop("maximum"),
    "?limit of the lobby minimum": lambda s: _query(s, "/lobby", "get", "limit")["schema"].pop("minimum"),
    "?title of my games enum": lambda s: _query(s, "/players/me/games", "get", "title")["schema"].pop("enum"),
    "a looser bound": lambda s: _property(s, "GameClock", "timeouts_to_resign").update(maximum=101),
    "a property the service refuses": lambda s: s["components"]["schemas"]["Join"]["properties"].update(
        team={"type": "string"}
    ),
}


@pytest.mark.parametrize("drop", DROPS, ids=list(DROPS))
def test_a_constraint_dropped_from_the_contract_is_missed(drop):
    spec = copy.deepcopy(SPEC)
    DROPS[drop](spec)
    assert problems(spec), f"{drop}: dropped, and not missed"
