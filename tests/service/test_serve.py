"""`skyline serve`: the embedded default starts Redis, gunicorn and a worker, and stops them together."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
import pytest
import requests

from ..conftest import free_port, wait_http

pytestmark = pytest.mark.live  # `skyline serve` itself


def test_serve_runs_everything_and_ctrl_c_stops_it_all(tmp_path):
    # Not under pytest's folder: as root the embedded PostgreSQL runs as another user, who must
    # reach its data, and pytest sessions take the search bit off /tmp/pytest-of-root.
    data = Path(tempfile.mkdtemp(prefix="skyline-serve-test-")) / "var"
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    log = open(tmp_path / "serve.log", "wb")  # noqa: SIM115
    serve = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "skyline.cli",
            "serve",
            "--port",
            str(port),
            "--data-dir",
            str(data),
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_http(f"http://127.0.0.1:{port}/readyz")
        children = psutil.Process(serve.pid).children(recursive=True)
        names = " ".join(" ".join(c.cmdline()) for c in children)
        assert "redis-server" in names and "gunicorn" in names and "skyline.cli worker" in names
        assert str(data / "postgres" / "data") in names, "the archive's embedded PostgreSQL"
        created = requests.post(
            f"http://127.0.0.1:{port}/games",
            json={"title": "property", "seats": [{"kind": "bot"}, {"kind": "bot"}], "seed": 1},
            timeout=10,
        ).json()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            game = requests.get(f"http://127.0.0.1:{port}/games/{created['id']}", timeout=10).json()
            if game["version"] > 0:
                break
            time.sleep(0.1)
        assert game["version"] > 0, "the embedded worker plays the bots"
        # gunicorn and the worker share one PROMETHEUS_MULTIPROC_DIR: the API shows the bot jobs.
        deadline = time.monotonic() + 30  # a job is counted when it ends (after up to 2 s of moves)
        while time.monotonic() < deadline:
            metrics = requests.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
            if 'skyline_bot_jobs_total{outcome="played"}' in metrics:
                break
            time.sleep(0.2)
        assert 'skyline_bot_jobs_total{outcome="played"}' in metrics
        assert 'skyline_moves_applied_total{by="bot",title="property"}' in metrics
        serve.send_signal(signal.SIGINT)
        assert serve.wait(timeout=60) == 0
        for child in children:
            assert not child.is_running() or child.status() == psutil.STATUS_ZOMBIE
        assert (data / "redis" / "appendonly.aof").exists() or any((data / "redis").glob("appendonly*")), (
            "the embedded Redis persists with AOF under the data folder"
        )
    finally:
        if serve.poll() is None:
            serve.kill()
        log.close()
        shutil.rmtree(data.parent, ignore_errors=True)
