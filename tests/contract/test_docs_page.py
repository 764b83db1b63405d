"""GET /docs renders the interactive reference in headless Chromium, from local assets only,
and lists every route of the contract; GET / points at it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import requests

from tests.conftest import read_yaml

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = read_yaml(ROOT / "openapi.yaml")


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("SKYLINE_REQUIRE_TOOLS"):
        pytest.fail("Chromium is needed to render /docs (SKYLINE_REQUIRE_TOOLS is set)")
    pytest.skip("no Chromium on this machine (apt-get install chromium): /docs is not rendered")


def test_docs_page_uses_only_local_assets(live):
    page = requests.get(f"{live}/docs/", timeout=10)
    assert page.status_code == 200 and "text/html" in page.headers["Content-Type"]
    sources = re.findall(r"""(?:src|href)=["']([^"']+)["']""", page.text)
    assert sources and all(s.startswith("/docs/") for s in sources), sources
    for source in sources:
        assert requests.get(live + source, timeout=10).status_code == 200, source


def test_docs_renders_in_chromium_and_lists_every_route(live, tmp_path):
    browser = chromium()
    done = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
        + [f"--user-data-dir={tmp_path}", "--virtual-time-budget=30000", "--dump-dom", f"{live}/docs/"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout
    assert "swagger-ui" in dom and "Skyline" in dom, dom[:2000]
    shown = set(re.findall(r'data-path="([^"]+)"', dom))
    for path, operations in CONTRACT["paths"].items():
        assert path in shown, f"{path} is not listed on /docs"
        for method in set(operations) & {"get", "post", "put", "patch", "delete"}:
            assert f"opblock-{method}" in dom


def test_front_door_points_at_docs_contract_catalog_and_quickstart(live):
    index = requests.get(f"{live}/", timeout=10).json()
    assert index["links"]["docs"] == "/docs" and index["links"]["openapi"] == "/openapi.json"
    assert (
        index["links"]["catalog"] == "/catalog"
        and "curl" in index["links"]["quickstart"] + index["quickstart"][0]
    )
    assert requests.get(f"{live}/openapi.json", timeout=10).json()["openapi"] == "3.1.0"
