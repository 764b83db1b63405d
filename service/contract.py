"""The games' own JSON Schemas (moves, views, options) as components of the OpenAPI contract."""

from __future__ import annotations

from typing import Any

from engines import registry


def component_name(game_id: str, part: str) -> str:
    return "".join(word.capitalize() for word in game_id.split("-")) + part


def _strip(schema: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in schema.items() if k != "$schema"}


def refs(part: str) -> list[dict[str, str]]:
    return [{"$ref": f"#/components/schemas/{component_name(g, part)}"} for g in sorted(registry.GAMES)]


def add_game_schemas(spec: Any) -> None:
    for game_id in sorted(registry.GAMES):
        game = registry.GAMES[game_id]
        spec.components.schema(component_name(game_id, "Move"), _strip(game.move_schema))
        spec.components.schema(component_name(game_id, "View"), _strip(game.view_schema))
        spec.components.schema(component_name(game_id, "Options"), _strip(game.options_schema))


def add_links(spec: Any, path: str, method: str, status: str, links: dict[str, Any]) -> None:
    """Attach OpenAPI links to a response (flask-smorest's doc merge would drop its content)."""
    spec._paths[path][method]["responses"][status]["links"] = links
