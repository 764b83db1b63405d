"""schemathesis against the live app: examples, coverage, fuzzing and stateful phases (links).

Runs the schemathesis CLI on the committed contract against gunicorn + an RQ worker on a
real Redis, with every check; fails on any server error or response breaking the schema.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def test_schemathesis_finds_no_failure(live, tmp_path):
    command = [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "--no-color",
        "--config-file",
        str(HERE / "schemathesis.toml"),
        "run",
        str(ROOT / "openapi.yaml"),
        "--url",
        live,
        "--checks",
        "all",
        "--seed",
        "1",
    ]
    env = {**os.environ, "SCHEMATHESIS_HOOKS": ""}
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    assert "Stateful" in done.stdout
