"""openapi.yaml is the contract: it must be exactly what the app generates."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from openapi_spec_validator import validate

from engines import registry
from service.config import Settings
from service.http import openapi
from service.http.contract import pascal
from skyline.web import document_app

CONTRACT = Path(__file__).resolve().parents[2] / "openapi.yaml"


def document() -> dict[str, Any]:
    """The contract as `skyline openapi` writes it (make openapi)."""
    return openapi.document(document_app(Settings.from_env()))


def test_openapi_yaml_matches_the_app():
    committed = yaml.safe_load(CONTRACT.read_text(encoding="utf-8"))
    assert committed == document(), "openapi.yaml is out of date: run `make openapi` and commit it"


def test_the_contract_is_openapi_3_1_with_every_route():
    spec = document()
    assert spec["openapi"] == "3.1.0"
    assert set(spec["paths"]) == {
        "/",
        "/catalog",
        "/games",
        "/games/{game_id}",
        "/games/{game_id}/moves",
        "/games/{game_id}/actions",
        "/games/{game_id}/events",
        "/games/{game_id}/record",
        "/games/{game_id}/versions/{n}",
        "/games/{game_id}/versions/{n}/board.svg",
        "/games/{game_id}/versions/{n}/board.txt",
        "/games/{game_id}/join",
        "/games/{game_id}/webhook",
        "/games/{game_id}/webhooks/deliveries",
        "/games/{game_id}/leave",
        "/games/{game_id}/resign",
        "/games/{game_id}/rematch",
        "/games/{game_id}/abort",
        "/lobby",
        "/players",
        "/players/me",
        "/players/me/keys",
        "/players/me/games",
        "/players/me/webhook",
        "/players/{player_id}",
        "/players/{player_id}/ratings/{title}/history",
        "/leaderboards/{title}",
        "/seeks",
        "/seeks/{seek_id}",
        "/games/{game_id}/board.svg",
        "/games/{game_id}/board.txt",
        "/play",
        "/play/{asset}",
        "/play/words.json",
        "/healthz",
        "/readyz",
        "/metrics",
    }
    problem = spec["components"]["responses"]["UnprocessableContent"]["content"]
    assert "application/problem+json" in problem
    assert list(spec["paths"]["/metrics"]["get"]["responses"]["200"]["content"]) == ["text/plain"]


def test_every_rate_limited_operation_documents_429_with_retry_after():
    spec = document()
    too_many = spec["components"]["responses"]["TooManyRequests"]
    assert "Retry-After" in too_many["headers"] and "application/problem+json" in too_many["content"]
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue  # path-level parameters
            documented = "429" in operation["responses"]
            exempt = path in ("/healthz", "/readyz", "/metrics")
            assert documented != exempt, f"{method.upper()} {path}"


def test_openapi_spec_validator_passes():
    validate(yaml.safe_load(CONTRACT.read_text(encoding="utf-8")))


def _walk(node: Any, path: str = ""):
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from _walk(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _walk(value, f"{path}/{index}")


def test_title_dependent_replies_are_tagged_unions_of_named_components():
    spec = document()
    schemas = spec["components"]["schemas"]
    for part in ("GameCreated", "Game", "Moves", "ActionResult", "Events", "Record", "CreateGameRequest"):
        union = schemas[part]
        assert union["discriminator"]["propertyName"] == "title"
        assert set(union["discriminator"]["mapping"]) == set(registry.GAMES)
        for game_id, target in union["discriminator"]["mapping"].items():
            title = schemas[target.rsplit("/", 1)[-1]]["properties"]["title"]
            assert title["const"] == game_id and title["type"] == "string"
    for game_id in registry.GAMES:
        moves = schemas[pascal(game_id) + "Move"]
        assert moves["discriminator"]["propertyName"] == "type"
        for move_type, target in moves["discriminator"]["mapping"].items():
            branch = schemas[target.rsplit("/", 1)[-1]]
            assert branch["properties"]["type"] == {"type": "string", "const": move_type}
    operation = spec["paths"]["/games/{game_id}/moves"]["get"]
    assert operation["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Moves"
    }


def test_no_inline_object_and_no_untyped_constant_in_the_games_components():
    spec = document()
    for name, schema in spec["components"]["schemas"].items():
        for path, node in _walk(schema):
            if ("const" in node or "enum" in node) and "type" not in node:
                raise AssertionError(f"{name}{path}: a constant without a type")
            if path and node.get("type") == "object" and "properties" in node:
                raise AssertionError(f"{name}{path}: an inline object (make it a named component)")
            for keyword in ("oneOf", "anyOf"):
                for branch in node.get(keyword, []):
                    assert "const" not in branch, f"{name}{path}: a const branch in a union"


def test_actions_document_dry_run_events_document_since_and_tokens_are_bearer():
    spec = document()
    assert spec["components"]["securitySchemes"]["seatToken"] == {
        "type": "http",
        "scheme": "bearer",
        "description": "A seat token from POST /games.",
    }
    action = spec["paths"]["/games/{game_id}/actions"]["post"]
    assert "dry_run" in [p["name"] for p in action["parameters"] if p["in"] == "query"]
    # The header is required; the security requirement optional (schemathesis, see api.py).
    assert action["security"] == [{}, {"seatToken": []}]
    assert [p for p in action["parameters"] if p["name"] == "Authorization"][0]["required"] is True
    events = spec["paths"]["/games/{game_id}/events"]["get"]
    assert "since" in [p["name"] for p in events["parameters"] if p["in"] == "query"]
    links = spec["paths"]["/games"]["post"]["responses"]["201"]["links"]
    assert links["PostAction"]["parameters"]["header.Authorization"] == (
        "Bearer {$response.body#/human_seats/0/token}"
    )
