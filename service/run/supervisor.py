"""`skyline serve`: a supervisor for Redis (embedded unless REDIS_URL is set), gunicorn and the
bot workers.

- One instance per data folder: an exclusive lock on ``<data>/skyline.lock`` is taken before
  anything starts; a second `skyline serve` on the same folder refuses at once, naming the
  running one's pid and address. The embedded Redis inherits the lock, so it is held until
  the last process that may write the AOF is gone: two Redis servers never share one AOF.
- Each child runs in a session of its own: the terminal's Ctrl-C (or a closed terminal's
  SIGHUP) reaches only the supervisor, which stops them in order — the API and the workers
  first, Redis last, after it has written its AOF.
- On Linux each child dies with the supervisor (a parent-death signal), so a ``kill -9`` of
  the supervisor leaves no orphan serving a half-dead stack.
- A child that dies is restarted, with a backoff (Redis included), and the log says so. A
  child that fails within its first seconds, the first time, stops everything instead: that is
  a configuration error (a port in use, a bad setting), not a crash to heal.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .embedded import EmbeddedRedis, gunicorn_command, worker_command

_PR_SET_PDEATHSIG = 1
# A child that exits this soon after its first start is failing to start, not crashing.
STARTUP_SECONDS = 5.0
# A child that ran this long before it died starts again without delay.
HEALTHY_SECONDS = 30.0
MAX_BACKOFF_SECONDS = 10.0


def log(message: str) -> None:
    print(f"skyline: {message}", file=sys.stderr, flush=True)


def die_with_parent(sig: int = signal.SIGKILL) -> None:
    """Ask Linux to send ``sig`` to this process when its parent dies (no-op elsewhere)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
    except (OSError, AttributeError):
        return


def _child_setup(sig: int) -> Callable[[], None]:
    def setup() -> None:  # runs in the child, between fork and exec
        die_with_parent(sig)

    return setup


class DataDirInUse(SystemExit):
    pass


class DataDirLock:
    """An exclusive flock on ``<data_dir>/skyline.lock``, holding the owner's pid and address."""

    def __init__(self, data_dir: Path) -> None:
        data_dir.mkdir(parents=True, exist_ok=True)
        self.path = data_dir / "skyline.lock"
        self.fd: int | None = None

    def _holder(self) -> dict[str, Any]:
        try:
            return json.loads(self.path.read_text() or "{}")
        except (OSError, ValueError):
            return {}

    def acquire(self, owner: dict[str, Any], *, wait_for_dead_owner: float = 10.0) -> None:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + wait_for_dead_owner
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as error:
                if error.errno not in (errno.EAGAIN, errno.EACCES):
                    os.close(fd)
                    raise
            holder = self._holder()
            pid = holder.get("pid")
            # The supervisor is gone but its Redis still holds the lock while it writes out
            # its AOF (it was sent SIGTERM when the supervisor died): wait for it a moment.
            if pid and not _alive(pid) and time.monotonic() < deadline:
                time.sleep(0.1)
                continue
            os.close(fd)
            where = f"http://{holder.get('host')}:{holder.get('port')}" if holder.get("port") else "?"
            raise DataDirInUse(
                f"skyline: the data folder {self.path.parent} is in use by another `skyline serve` "
                f"(pid {pid or '?'}, serving {where}). Stop it first (Ctrl-C in its terminal, or "
                f"`kill {pid or '<pid>'}`), or give this one another folder with --data-dir or "
                "SKYLINE_DATA_DIR."
            )
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(owner).encode(), 0)
        os.set_inheritable(fd, False)
        self.fd = fd

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _alive(pid: int) -> bool:
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, ValueError):
        return True
    return True


def _port_is_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


@dataclass
class Child:
    """One supervised process: how to start it, and its restarts."""

    name: str
    start_process: Callable[[], subprocess.Popen]
    process: subprocess.Popen | None = None
    started_at: float = 0.0
    starts: int = 0
    failures: int = 0  # deaths in a row, each after a short life
    restart_at: float | None = None
    stop_signal: int = signal.SIGTERM
    # Whether an early death on the first start means a failed start. Redis's start() waits
    # until it answers, so any later death of Redis is a crash to heal.
    early_death_is_startup_failure: bool = True

    def start(self) -> None:
        self.process = self.start_process()
        self.started_at = time.monotonic()
        self.starts += 1
        self.restart_at = None

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def signal_group(self, sig: int, *, even_if_exited: bool = False) -> None:
        """Signal the child's whole process group (gunicorn's master and its workers)."""
        if self.process is None or (self.process.poll() is not None and not even_if_exited):
            return
        try:
            os.killpg(self.process.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


class Supervisor:
    def __init__(
        self,
        *,
        host: str,
        port: int,
        workers: int,
        data_dir: str,
        bot_workers: int = 1,
        stop_grace_seconds: float | None = None,
    ) -> None:
        self.host, self.port, self.workers, self.bot_workers = host, port, workers, bot_workers
        self.data_dir = Path(data_dir).resolve()
        self.stop_grace = (
            float(os.environ.get("SKYLINE_STOP_GRACE_SECONDS") or 3)
            if stop_grace_seconds is None
            else stop_grace_seconds
        )
        self.lock = DataDirLock(self.data_dir)
        self.env = dict(os.environ)
        self.redis: EmbeddedRedis | None = None
        self.redis_child: Child | None = None
        self.children: list[Child] = []  # API and bot workers
        self.stopping = False
        self.interrupts = 0

    # ---- starting ---------------------------------------------------------------------------
    def _popen_options(self, death_signal: int, pass_fds: tuple[int, ...] = ()) -> dict[str, Any]:
        return {"start_new_session": True, "preexec_fn": _child_setup(death_signal), "pass_fds": pass_fds}

    def _spawn(self, command: list[str]) -> Callable[[], subprocess.Popen]:
        # Stateless children die at once with the supervisor: RQ's maintenance and the sweeper
        # recover a bot turn cut short, and the API holds nothing.
        return lambda: subprocess.Popen(
            command, env=self.env, stdin=subprocess.DEVNULL, **self._popen_options(signal.SIGKILL)
        )

    def _start_redis(self) -> subprocess.Popen:
        assert self.redis is not None
        self.redis.start()
        assert self.redis.process is not None
        return self.redis.process

    def prepare(self) -> None:
        """Take the data folder, check the port, start Redis: everything before the children."""
        self.lock.acquire({"pid": os.getpid(), "host": self.host, "port": self.port})
        if not _port_is_free(self.host, self.port):
            self.lock.release()
            raise SystemExit(
                f"skyline: {self.host}:{self.port} is already in use; stop what serves there or "
                "choose another port (PORT=9000 make run, or --port)."
            )
        if not self.env.get("REDIS_URL"):
            # Redis keeps the lock's file open: the folder stays locked until it has exited.
            self.redis = EmbeddedRedis(
                self.data_dir, popen_options=self._popen_options(signal.SIGTERM, (self.lock.fd,))
            )
            self.redis_child = Child("Redis", self._start_redis, early_death_is_startup_failure=False)
            self.redis_child.start()
            self.env["REDIS_URL"] = self.redis.url
            log(f"embedded Redis on {self.redis.socket} (data in {self.redis.data_dir})")
        # One metrics directory for gunicorn's processes and the bot workers, so the API's
        # /metrics shows everything; emptied at each start (prometheus-client's multiprocess mode).
        metrics_dir = self.data_dir / "metrics"
        shutil.rmtree(metrics_dir, ignore_errors=True)
        metrics_dir.mkdir(parents=True)
        self.env["PROMETHEUS_MULTIPROC_DIR"] = str(metrics_dir)
        self.env.pop("SKYLINE_WORKER_PORT", None)  # the API's /metrics covers the workers here
        self.children = [Child("API", self._spawn(gunicorn_command(self.host, self.port, self.workers)))]
        self.children += [
            Child(f"bot worker {n + 1}", self._spawn(worker_command())) for n in range(self.bot_workers)
        ]
        for child in self.children:
            child.start()

    # ---- watching -----------------------------------------------------------------------------
    def _on_signal(self, signum: int, frame: object) -> None:
        self.interrupts += 1
        self.stopping = True

    def _all(self) -> list[Child]:
        return [*self.children, *([self.redis_child] if self.redis_child else [])]

    def _watch(self, child: Child) -> bool:
        """Restart a dead child when its backoff is over; False when startup failed."""
        now = time.monotonic()
        if child.restart_at is not None:
            if now >= child.restart_at:
                log(f"restarting the {child.name}")
                try:
                    child.start()
                except Exception as error:  # Redis that does not come back, say
                    log(f"the {child.name} did not start: {error}")
                    child.failures += 1
                    child.restart_at = now + min(MAX_BACKOFF_SECONDS, 2**child.failures / 2)
            return True
        if child.process is None or child.process.poll() is None:
            return True
        status = child.process.returncode
        lived = now - child.started_at
        if child.early_death_is_startup_failure and child.starts == 1 and lived < STARTUP_SECONDS:
            log(f"the {child.name} failed to start (exit status {status}); stopping")
            return False
        child.failures = 0 if lived > HEALTHY_SECONDS else child.failures + 1
        delay = 0.0 if child.failures == 0 else min(MAX_BACKOFF_SECONDS, 2**child.failures / 4)
        log(
            f"the {child.name} (pid {child.process.pid}) exited with status {status} after "
            f"{lived:.1f} s; restarting it in {delay:.1f} s"
        )
        child.restart_at = now + delay
        return True

    # ---- stopping -------------------------------------------------------------------------------
    def _stop_children(self, children: list[Child], grace: float) -> None:
        for child in children:
            child.signal_group(child.stop_signal)
        deadline = time.monotonic() + grace
        for child in children:
            if child.process is None:
                continue
            try:
                child.process.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                log(f"the {child.name} did not stop in {grace:g} s; killing it")
                child.signal_group(signal.SIGKILL)
                child.process.wait()
        # gunicorn's workers die with their master (post_fork); make sure of it.
        for child in children:
            child.signal_group(signal.SIGKILL, even_if_exited=True)

    def stop(self) -> None:
        self._stop_children(self.children, self.stop_grace)
        if self.redis_child is not None and self.redis is not None:
            # Last, after everything that writes to it: SIGTERM makes it write out its AOF.
            self._stop_children([self.redis_child], 10.0)
            self.redis.stop()
        self.lock.release()

    def run(self) -> int:
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, self._on_signal)
        try:
            self.prepare()
        except BaseException:
            self.stop()
            raise
        log(f"serving on http://{self.host}:{self.port} — Ctrl-C to stop")
        status = 0
        try:
            while not self.stopping:
                if not all(self._watch(child) for child in self._all()):
                    status = 1
                    break
                time.sleep(0.1)
        finally:
            log("stopping")
            self.stop()
        log("stopped")
        return status


def serve(*, port: int, host: str, workers: int, data_dir: str, bot_workers: int = 1) -> int:
    """Run Redis (if needed), gunicorn and the bot workers until interrupted."""
    return Supervisor(host=host, port=port, workers=workers, data_dir=data_dir, bot_workers=bot_workers).run()
