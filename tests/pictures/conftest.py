"""A headless Chromium for the browser tests: Debian's ``chromium`` driven by Playwright.

Without a browser (or without the playwright package) the browser tests are skipped with a
message — unless ``SKYLINE_REQUIRE_TOOLS=1`` (``make test`` sets it, and ``.ci/run`` installs
chromium), when a missing browser is a failure. Screenshots go to ``SKYLINE_TEST_ARTIFACTS``
(default var/test-artifacts, which git ignores).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _chromium() -> str | None:
    wanted = os.environ.get("SKYLINE_CHROMIUM")
    if wanted:
        return wanted if Path(wanted).exists() else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


def _missing(message: str) -> None:
    if os.environ.get("SKYLINE_REQUIRE_TOOLS") == "1":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed: pip install -e '.[dev]'")
    executable = _chromium()
    if executable is None:
        _missing("no chromium found (apt-get install chromium, or set SKYLINE_CHROMIUM)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    folder = Path(os.environ.get("SKYLINE_TEST_ARTIFACTS", ROOT / "var" / "test-artifacts"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder
