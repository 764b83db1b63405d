"""engines/ stays pure: no web, storage, clock or network imports (DESIGN: arrows point one way)."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINES = Path(__file__).resolve().parents[2] / "engines"
FORBIDDEN = {
    "flask",
    "redis",
    "rq",
    "marshmallow",
    "service",
    "worker",
    "requests",
    "socket",
    "time",
    "datetime",
    "urllib",
    "http",
    "threading",
    "asyncio",
    "pickle",
    "os",
    "subprocess",
}


def test_engines_import_nothing_impure():
    offenders = []
    for path in ENGINES.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                if name.split(".")[0] in FORBIDDEN:
                    offenders.append(f"{path.relative_to(ENGINES.parent)}: {name}")
    assert not offenders, offenders
