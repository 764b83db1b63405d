"""The benchmarks share one percentile (bench/measure.py) and import nothing of the tests."""

from __future__ import annotations

import ast
import math
from pathlib import Path

import pytest

from bench.measure import percentile

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("share", "expected"),
    [(0.5, 5), (0.9, 9), (0.95, 10), (0.99, 10), (1.0, 10), (0.1, 1), (0.01, 1)],
)
def test_the_nearest_rank_percentile_of_one_to_ten(share, expected):
    assert percentile(range(10, 0, -1), share) == expected


def test_the_percentile_is_always_a_sample_and_nan_without_any():
    samples = [0.003, 0.001, 0.250, 0.002]
    assert percentile(samples, 0.99) == 0.250 and percentile(samples, 0.5) == 0.002
    assert percentile([7.0], 0.5) == 7.0 and math.isnan(percentile([], 0.99))


def test_no_benchmark_imports_the_tests_or_writes_a_percentile_of_its_own():
    for path in sorted((ROOT / "bench").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom | ast.Import):
                names = (
                    [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
                )
                assert not [n for n in names if n.split(".")[0] == "tests"], f"{path.name} imports tests"
            if isinstance(node, ast.FunctionDef) and path.name != "measure.py":
                assert "percentile" not in node.name, f"{path.name} defines {node.name}"
