"""The deployment checks run tools kept out of the app's virtualenv (and out of the image): hadolint,
the Helm SDK and kubernetes-validate live in ``.venv-tools``, which ``make test`` creates from
requirements-tools.txt. Run directly with pytest and without it, these tests are skipped — unless
``SKYLINE_REQUIRE_TOOLS=1`` (``make test`` sets it), when a missing tool is a failure.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOLS = Path(os.environ.get("SKYLINE_TOOLS_VENV", ROOT / ".venv-tools"))


@pytest.fixture(scope="session")
def tools() -> Path:
    """The tools virtualenv's bin folder."""
    needed = [TOOLS / "bin" / name for name in ("python", "hadolint", "kubernetes-validate")]
    missing = [str(path) for path in needed if not path.exists()]
    if missing:
        message = f"tools virtualenv incomplete ({', '.join(missing)}): run `make tools`"
        if os.environ.get("SKYLINE_REQUIRE_TOOLS") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return TOOLS / "bin"
