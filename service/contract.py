"""The games' own JSON Schemas (moves, views, options) as components of the OpenAPI contract."""

from __future__ import annotations

import http
from typing import Any

from engines import registry


def component_name(game_id: str, part: str) -> str:
    return "".join(word.capitalize() for word in game_id.split("-")) + part


def _strip(schema: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in schema.items() if k != "$schema"}


def refs(part: str) -> list[dict[str, str]]:
    return [{"$ref": f"#/components/schemas/{component_name(g, part)}"} for g in sorted(registry.GAMES)]


def _hoist_definitions(name: str, schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Split a self-contained schema into components: ``$defs`` become their own components
    (``<name>_<def>``) and ``#/$defs/...`` references point at them, since inside the
    OpenAPI document ``#`` is the document's root, not the game's schema."""
    schema = _strip(schema)
    definitions = schema.pop("$defs", {})

    def rewrite(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                return {**node, "$ref": f"#/components/schemas/{name}_{ref[len('#/$defs/') :]}"}
            return {key: rewrite(value) for key, value in node.items()}
        if isinstance(node, list):
            return [rewrite(item) for item in node]
        return node

    parts = {name: rewrite(schema)}
    for def_name, definition in definitions.items():
        parts[f"{name}_{def_name}"] = rewrite(definition)
    return parts


def add_game_schemas(spec: Any) -> None:
    for game_id in sorted(registry.GAMES):
        game = registry.GAMES[game_id]
        for part, schema in (
            ("Move", game.move_schema),
            ("View", game.view_schema),
            ("Options", game.options_schema),
        ):
            for name, component in _hoist_definitions(component_name(game_id, part), schema).items():
                spec.components.schema(name, component)


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


def create_game_schema() -> dict[str, Any]:
    """The body of POST /games, exact per title: its seat counts and its options."""
    variants = []
    for game_id in sorted(registry.GAMES):
        game = registry.GAMES[game_id]
        variants.append(
            {
                "type": "object",
                "title": game.title,
                "required": ["title", "seats"],
                "additionalProperties": False,
                "properties": {
                    "title": {"const": game_id},
                    "seats": {
                        "type": "array",
                        "minItems": game.min_seats,
                        "maxItems": game.max_seats,
                        "items": {"$ref": "#/components/schemas/SeatRequest"},
                    },
                    "options": {"$ref": f"#/components/schemas/{component_name(game_id, 'Options')}"},
                    "seed": {
                        "type": "integer",
                        "minimum": 0,
                        "maximum": 2**63 - 1,
                        "description": "Seed of all chance; random when omitted. Secret until the end.",
                    },
                },
            }
        )
    return {"oneOf": variants}


def document_create_game(spec: Any) -> None:
    spec.components.schema("CreateGameRequest", create_game_schema())
    body = spec._paths["/games"]["post"]["requestBody"]["content"]["application/json"]
    body["schema"] = {"$ref": "#/components/schemas/CreateGameRequest"}
