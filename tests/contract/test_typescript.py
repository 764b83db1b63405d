"""TypeScript types generated from openapi.yaml (openapi-typescript) compile a small client.

The node packages are pinned in tests/contract/ts/package-lock.json and installed with
`npm ci` (by .ci/run, or here when missing). src/client.ts uses the moves and views of two
titles, and expects an error where a move of one title is given another title's fields.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TS = Path(__file__).resolve().parent / "ts"


def _npm_ready() -> None:
    if (TS / "node_modules" / ".bin" / "tsc").exists():
        return
    if shutil.which("npm") is None:
        if os.environ.get("SKYLINE_REQUIRE_TOOLS"):
            pytest.fail("npm is needed for the TypeScript contract check (SKYLINE_REQUIRE_TOOLS is set)")
        pytest.skip("npm is not installed: the TypeScript contract check needs node and npm")
    done = subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=TS, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def run(*command: str) -> str:
    done = subprocess.run(command, cwd=TS, capture_output=True, text=True, timeout=300)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    return output


def test_openapi_typescript_generates_types_that_compile():
    _npm_ready()
    bin_dir = TS / "node_modules" / ".bin"
    output = run(
        str(bin_dir / "openapi-typescript"), str(ROOT / "openapi.yaml"), "-o", "generated/skyline.ts"
    )
    assert "error" not in output.lower() and "warn" not in output.lower(), output
    generated = (TS / "generated" / "skyline.ts").read_text(encoding="utf-8")
    assert "FifthAvenueMove:" in generated and "WettstreitView:" in generated
    run(str(bin_dir / "tsc"), "-p", "tsconfig.json")
