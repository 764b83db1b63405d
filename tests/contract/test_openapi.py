"""openapi.yaml is the contract: it must be exactly what the app generates."""

from __future__ import annotations

from pathlib import Path

import yaml

from service.openapi import document

CONTRACT = Path(__file__).resolve().parents[2] / "openapi.yaml"


def test_openapi_yaml_matches_the_app():
    committed = yaml.safe_load(CONTRACT.read_text(encoding="utf-8"))
    assert committed == document(), "openapi.yaml is out of date: run `make openapi` and commit it"


def test_the_contract_is_openapi_3_1_with_every_route():
    spec = document()
    assert spec["openapi"] == "3.1.0"
    assert set(spec["paths"]) == {
        "/catalog",
        "/games",
        "/games/{game_id}",
        "/games/{game_id}/moves",
        "/games/{game_id}/actions",
        "/games/{game_id}/events",
        "/games/{game_id}/record",
        "/games/{game_id}/board.svg",
        "/games/{game_id}/board.txt",
        "/play",
        "/play/{asset}",
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
