"""Live processes for tests/ and bench/: a free port, a wait for a URL, children stopped together."""

from __future__ import annotations

import os
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import requests

from service.run.embedded import gunicorn_command, worker_command

__all__ = ["Processes", "api_command", "free_port", "wait_http", "worker_command"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url: str, timeout: float = 60.0) -> None:
    """Until ``url`` answers 200. The wait costs nothing when the server is up sooner; a start on a
    saturated machine (a whole suite beside other work) took over 20 s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if requests.get(url, timeout=1).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{url} did not come up")


class Processes:
    """Child processes started by a fixture, stopped (SIGTERM, then SIGKILL) at teardown.

    Their output goes to files under ``SKYLINE_TEST_LOGS`` (default: the temp dir) for debugging.
    """

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.children: list[subprocess.Popen] = []
        self.terminated: list[subprocess.Popen] = []
        self.logs: list = []
        self.log_dir = Path(os.environ.get("SKYLINE_TEST_LOGS", tempfile.gettempdir()))

    def start(self, command: list[str]) -> subprocess.Popen:
        log = tempfile.NamedTemporaryFile(
            dir=self.log_dir, prefix="skyline-test-", suffix=".log", delete=False
        )
        self.logs.append(log)
        child = subprocess.Popen(command, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        self.children.append(child)
        return child

    def terminate(self) -> None:
        """SIGTERM to every child still running, without waiting: a caller stopping several
        groups signals them all first, so that their stops overlap."""
        for child in self.children:
            if child.poll() is None and child not in self.terminated:
                child.terminate()
                self.terminated.append(child)

    def stop(self, grace: float = 15) -> None:
        """SIGTERM, then SIGKILL to a child still running ``grace`` seconds later."""
        self.terminate()
        deadline = time.monotonic() + grace
        for child in self.children:
            try:
                child.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        for log in self.logs:
            log.close()


def api_command(port: int, workers: int = 2) -> list[str]:
    """gunicorn as production runs it (service.run.gunicorn_conf), on a loopback port."""
    return [*gunicorn_command("127.0.0.1", port, workers)[:-1], "--threads", "4", "skyline.wsgi:app"]
