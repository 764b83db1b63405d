"""The contract's assembly, and its title-dependent half, built from the games' own JSON Schemas.

openapi.yaml is written by apispec (through flask-smorest) from the marshmallow schemas the
routes read their requests with (``service.http.schemas`` and the blueprints), the replies'
schemas (``service.http.replies``) and, for what a title's rules decide, the engines' JSON
Schemas (here). Nothing is described twice: tests/contract/test_request_constraints.py holds
every constraint of the request schemas to the document.

Every reply that depends on the title names it (``title``), and is a ``oneOf`` of one named
component per title with a ``discriminator`` on ``title``; inside a title, a move is a ``oneOf``
of one component per move ``type`` with a ``discriminator`` on ``type``. So a generated client
reads a reply into the model of its own title and move type, never into another's. The body of
POST /games is such a union too: ``CreateGameSchema`` narrowed to each title.

The games' schemas (``engines/<game>/*.schema.json``) are written for people and validators;
code generators need a little more, added here rather than in every file:

- ``const`` and ``enum`` without a ``type`` get one (``"gedeon"`` in a number-or-constant choice
  is a string), and such a constant becomes a one-value ``enum``: generators misread untyped
  constants, and parse a ``const`` branch of a union without trying the others.
- ``$defs``, move branches and objects nested in a schema become named components
  (``FifthAvenueViewAuction``), so generated models have stable names.
"""

from __future__ import annotations

import http
import json
from pathlib import Path
from typing import Any

from apispec import APISpec
from marshmallow import Schema, fields, validate

from engines import registry

from .components import REF, Component, ComponentField, Constant, component_name, pascal, ref
from .replies import SERVICE_EVENTS as SERVICE_EVENT_SCHEMAS
from .replies import TAGGED_REPLIES, title_replies
from .schemas import ActionSchema, ClockSchema, CreateGameSchema

__all__ = ["REF", "SERVICE_EVENTS", "TAGGED_REPLIES", "component_name", "pascal", "ref"]


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    raise ValueError(f"no JSON type for {value!r}")


class Components:
    """Named schemas collected while the games' schemas are split into components."""

    def __init__(self) -> None:
        self.schemas: dict[str, dict[str, Any]] = {}

    def add(self, name: str, schema: dict[str, Any]) -> dict[str, str]:
        if name in self.schemas and self.schemas[name] != schema:
            raise ValueError(f"two different schemas want the component name {name}")
        self.schemas[name] = schema
        return ref(name)

    def split(self, name: str, schema: dict[str, Any]) -> dict[str, Any]:
        """Return ``schema`` with its ``$defs`` and nested objects turned into components."""
        split: dict[str, Any] = self.nest(name, self.definitions(name, schema), root=True)
        return split

    def definitions(self, name: str, schema: dict[str, Any]) -> dict[str, Any]:
        """Return ``schema`` typed, with its ``$defs`` turned into components ``<name><Def>``."""
        schema = {k: v for k, v in schema.items() if k not in ("$schema", "title")}
        definitions = schema.pop("$defs", {})
        def_names = {key: name + pascal(key) for key in definitions}

        def rewrite_refs(node: Any) -> Any:
            if isinstance(node, dict):
                target = node.get("$ref")
                if isinstance(target, str) and target.startswith("#/$defs/"):
                    return {**node, "$ref": REF + def_names[target[len("#/$defs/") :]]}
                return {key: rewrite_refs(value) for key, value in node.items()}
            if isinstance(node, list):
                return [rewrite_refs(item) for item in node]
            return node

        for key, definition in definitions.items():
            self.add(def_names[key], self.nest(def_names[key], typed(rewrite_refs(definition)), root=True))
        rewritten: dict[str, Any] = typed(rewrite_refs(schema))
        return rewritten

    def nest(self, name: str, node: Any, root: bool = False) -> Any:
        """Hoist every object with properties below the root into a component named by its path."""
        if not isinstance(node, dict):
            return node
        node = dict(node)
        if isinstance(node.get("properties"), dict):
            node["properties"] = {
                key: self.nest(name + pascal(key), value) for key, value in node["properties"].items()
            }
        if isinstance(node.get("items"), dict):
            node["items"] = self.nest(name + "Item", node["items"])
        if isinstance(node.get("additionalProperties"), dict):
            node["additionalProperties"] = self.nest(name + "Value", node["additionalProperties"])
        for keyword in ("oneOf", "anyOf", "allOf"):
            if isinstance(node.get(keyword), list):
                objects = [b for b in node[keyword] if isinstance(b, dict) and "properties" in b]
                node[keyword] = [
                    self.nest(name if len(objects) == 1 else f"{name}{index}", branch)
                    if branch in objects
                    else self.nest(name, branch, root=True)
                    for index, branch in enumerate(node[keyword])
                ]
        if not root and node.get("type") == "object" and "properties" in node:
            return self.add(name, node)
        return node


def typed(node: Any) -> Any:
    """Give every ``const`` and ``enum`` the JSON type of its values."""
    if isinstance(node, list):
        return [typed(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: typed(value) for key, value in node.items()}
    for keyword in ("oneOf", "anyOf"):
        if isinstance(node.get(keyword), list):
            # A constant among other choices (a seat or "gedeon", a die or "black") as a one-value
            # enum: generators parse a bare const branch without trying the others.
            node[keyword] = [
                {**{k: v for k, v in branch.items() if k != "const"}, "enum": [branch["const"]]}
                if isinstance(branch, dict) and "const" in branch
                else branch
                for branch in node[keyword]
            ]
    if "type" not in node and ("const" in node or "enum" in node):
        values = [node["const"]] if "const" in node else node["enum"]
        types = sorted(
            {_json_type(v) for v in values}, key=["string", "integer", "number", "boolean", "null"].index
        )
        node = {"type": types[0] if len(types) == 1 else types, **node}
    return node


# ---- the games' parts -----------------------------------------------------------------------


def _tagged_by_type(components: Components, game_id: str, part: str, schema: dict[str, Any]) -> None:
    """``<Title><Part>``: one component per ``type`` (``<Title><Type><Part>``), tagged by ``type``."""
    name = component_name(game_id, part)
    schema = components.definitions(name, schema)
    mapping = {}
    branches = []
    for branch in schema.pop("oneOf"):
        kind = branch["properties"]["type"]["const"]
        branch_name = component_name(game_id, pascal(kind) + part)
        branches.append(components.add(branch_name, components.nest(branch_name, branch, root=True)))
        mapping[kind] = REF + branch_name
    components.add(
        name,
        {
            **{k: v for k, v in schema.items() if k != "description"},
            "description": schema.get("description")
            or f"A {part.lower()} of {registry.GAMES[game_id].title}, told apart by its `type`.",
            "oneOf": branches,
            "discriminator": {"propertyName": "type", "mapping": mapping},
        },
    )


def _moves(components: Components, game_id: str) -> None:
    _tagged_by_type(components, game_id, "Move", registry.GAMES[game_id].move_schema)


def _events(components: Components, game_id: str) -> None:
    """``<Title>Event``: the title's events (``engines/<game>/events.schema.json``), by ``type``.

    Fields beyond those described may be added (``additionalProperties``), as the design allows."""
    game = registry.GAMES[game_id]
    own = json.loads((Path(game.folder) / "events.schema.json").read_text(encoding="utf-8"))
    for branch in own["oneOf"]:
        if branch["properties"]["type"].get("const") == "game_over":
            # The result the game ended with: the title's own result component, not a copy.
            branch["properties"]["result"] = ref(component_name(game_id, "Result"))
    _tagged_by_type(components, game_id, "Event", own)
    # The service's own events (seats and time), the same in every title's log.
    union = components.schemas[component_name(game_id, "Event")]
    for kind, name in SERVICE_EVENTS.items():
        union["oneOf"].append(ref(name))
        union["discriminator"]["mapping"][kind] = REF + name


# The service's events (seats and time), in the log and the stream of every title beside the
# title's own, by ``type``: their components (service.http.replies describes them).
SERVICE_EVENTS = {kind: name for kind, (name, _, _) in SERVICE_EVENT_SCHEMAS.items()}


def _result(components: Components, game_id: str) -> None:
    """``<Title>Result``: the common fields, each seat's breakdown and the title's own facts of the
    end, from ``engines/<game>/result.schema.json``."""
    game = registry.GAMES[game_id]
    own = json.loads((Path(game.folder) / "result.schema.json").read_text(encoding="utf-8"))
    name = component_name(game_id, "Result")
    combined = {
        "$defs": {**own.get("$defs", {}), "breakdown": own["breakdown"]},
        "type": "object",
        "description": "Scores, ranks (1 = best, ties share) and the breakdown of each seat's score.",
        # The title's own facts of the end are there when the rules reached it: a game of two
        # seats ended by a resignation has none (nor scores or a breakdown).
        "required": ["scores", "ranks", "winners", "breakdown", "reason"],
        "properties": {
            "scores": {
                "type": "array",
                "items": {"type": "number"},
                "description": "Per seat; empty when a resignation ended the game before the rules did.",
            },
            "ranks": {
                "type": "array",
                "items": {"type": "integer", "minimum": 1},
                "description": "Per seat; resigned seats last, in the order they resigned.",
            },
            "winners": {"type": "array", "items": {"type": "integer", "minimum": 0}},
            "breakdown": {
                "type": "array",
                "items": {"$ref": "#/$defs/breakdown"},
                "description": "Per seat; empty when a resignation ended the game before the rules did.",
            },
            "reason": {
                "type": "string",
                "description": "Why the game ended: the rules' reason, or `resignation` (two seats, "
                "one resigned).",
            },
            "resigned": {
                "type": "array",
                "items": {"type": "boolean"},
                "description": "Per seat: whether its player resigned (only when one did).",
            },
            **own.get("properties", {}),
        },
        "additionalProperties": False,
    }
    components.add(name, components.split(name, combined))


def add_links(spec: Any, path: str, method: str, status: str, links: dict[str, Any]) -> None:
    """Attach OpenAPI links to a response (flask-smorest's doc merge would drop its content)."""
    spec._paths[path][method]["responses"][status]["links"] = links


def name_error_responses(spec: Any, names: dict[int, str]) -> None:
    """Point flask-smorest's automatic error responses (named after ``http.HTTPStatus``, whose
    names change between Python versions) at our fixed, version-independent names."""
    by_status_name = {http.HTTPStatus(code).name: name for code, name in names.items()}
    for operations in spec._paths.values():
        for operation in operations.values():
            responses = operation.get("responses", {}) if isinstance(operation, dict) else {}
            for status, response in list(responses.items()):
                if isinstance(response, str) and response in by_status_name:
                    responses[status] = by_status_name[response]
                elif isinstance(response, dict) and "$ref" in response:
                    name = response["$ref"].rsplit("/", 1)[-1]
                    if name in by_status_name:
                        responses[status] = {"$ref": f"#/components/responses/{by_status_name[name]}"}


DEADLINES = {
    "type": "object",
    "description": "Games with a clock: each human seat to act (by number) and when its time runs out "
    "(RFC 3339, UTC, with `Z`: `2026-12-02T14:25:39Z`).",
    "additionalProperties": {"type": "string", "format": "date-time"},
    "example": {"1": "2026-12-02T14:25:39Z"},
}


# ---- the contract, assembled -----------------------------------------------------------------


def component_property(converter: Any, field: fields.Field[Any], **kwargs: Any) -> dict[str, Any]:
    """apispec's converter function for the fields that stand for components (service.http.components)."""
    if isinstance(field, (ComponentField, Constant)):
        return field.openapi_property()
    return {}


def _tagged(part: str) -> dict[str, Any]:
    ids = sorted(registry.GAMES)
    return {
        "description": "Told apart by `title`.",
        "oneOf": [ref(component_name(g, part)) for g in ids],
        "discriminator": {
            "propertyName": "title",
            "mapping": {g: REF + component_name(g, part) for g in ids},
        },
    }


def game_components() -> dict[str, dict[str, Any]]:
    """The components made from the engines' JSON Schemas: each title's moves, views, options,
    events and results."""
    components = Components()
    for game_id in sorted(registry.GAMES):
        game = registry.GAMES[game_id]
        _moves(components, game_id)
        view, view_name = game.view_schema, component_name(game_id, "View")
        if "options" in view.get("properties", {}):
            # A view's options are the title's options: the component requests use too.
            options = ref(component_name(game_id, "Options"))
            view = {**view, "properties": {**view["properties"], "options": options}}
        components.add(view_name, components.split(view_name, view))
        components.add(
            component_name(game_id, "Options"),
            components.split(component_name(game_id, "Options"), game.options_schema),
        )
        _events(components, game_id)
        _result(components, game_id)
    return components.schemas


def create_game_variants() -> dict[str, tuple[str, type[Schema]]]:
    """``CreateGameSchema`` narrowed to each title, by component name: (description, schema).

    The body of POST /games is read with ``CreateGameSchema``; the title's engine then holds it
    to the title's seat counts and options (with codes of its own). Each variant is that schema
    with those three fields as the engine takes them, and every other field inherited."""
    envelope = CreateGameSchema().fields
    seats = envelope["seats"]
    assert isinstance(seats, fields.List)
    variants = {}
    for game_id in sorted(registry.GAMES):
        game = registry.GAMES[game_id]
        narrowed: dict[str, fields.Field[Any]] = {
            "title": Constant(game_id, required=True, metadata=envelope["title"].metadata),
            "seats": fields.List(
                seats.inner,
                required=True,
                validate=validate.Length(min=game.min_seats, max=game.max_seats),
                metadata=seats.metadata,
            ),
            "options": Component(component_name(game_id, "Options"), metadata=envelope["options"].metadata),
        }
        name = component_name(game_id, "CreateGameRequest")
        variants[name] = (f"A new game of {game.title}.", CreateGameSchema.from_dict(narrowed, name=name))
    return variants


def prepare(spec: APISpec, converter: Any) -> None:
    """Before the routes are registered: teach apispec our fields, and name the schemas whose
    component names clients know (a nested schema is named where it is first met)."""
    converter.map_to_openapi_type(ComponentField, None, None)
    converter.add_attribute_function(component_property)
    spec.components.schema(
        "GameClock",
        {
            "description": "Turn deadlines: every human seat to act has `turn_seconds` to act; when they "
            "run out, with no client request, the server plays the turn with the stand-in bot or resigns "
            "the seat.",
            "example": {"turn_seconds": 86400, "on_timeout": "stand_in", "timeouts_to_resign": 3},
        },
        schema=ClockSchema,
    )
    spec.components.schema("ActionRequest", schema=ActionSchema)


def add_game_schemas(spec: APISpec) -> None:
    """After the routes: the title-dependent half of the contract (the module's docstring)."""
    for name, schema in game_components().items():
        spec.components.schema(name, schema)
    spec.components.schema("Deadlines", DEADLINES)
    for name, description, event in SERVICE_EVENT_SCHEMAS.values():
        spec.components.schema(name, {"description": description}, schema=event)
    for game_id in sorted(registry.GAMES):
        for name, reply in title_replies(game_id).items():
            spec.components.schema(name, schema=reply)
    for part in TAGGED_REPLIES:
        spec.components.schema(part, _tagged(part))

    variants = create_game_variants()
    for name, (description, variant) in variants.items():
        spec.components.schema(name, {"description": description}, schema=variant)
    spec.components.schema("CreateGameRequest", _tagged("CreateGameRequest"))
    # The body POST /games reads with CreateGameSchema, as its variants describe it.
    body = spec._paths["/games"]["post"]["requestBody"]["content"]["application/json"]
    body["schema"] = ref("CreateGameRequest")
    spec.components.schemas.pop("CreateGame")
